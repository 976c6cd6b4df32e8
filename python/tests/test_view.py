"""hlayout.View, ViewStack and merge against the repository's brute-force
reference data (tests/data): every element of every chain and pair."""

import pytest

import hlayout
from hlayout import FlatView, ViewStack
from refdata import load

CHAINS = load("tinygrad_chains.json")
PAIRS = load("merge_pairs.json")


def run_chain(req):
    s = ViewStack(req["shape"])
    for op, arg in req["ops"]:
        if op in ("pad", "shrink"):
            arg = [tuple(p) for p in arg]
        s = getattr(s, op)(arg)
    return s


@pytest.mark.parametrize("case", CHAINS, ids=lambda c: c["id"])
def test_chain_offsets(case):
    s = run_chain(case["request"])
    want = case["expect"]["offsets"]
    assert list(s.shape) == case["expect"]["final_shape"]
    got = s.offsets().tolist()
    assert got == want
    assert len(s) <= case["expect"]["tinygrad_views_simplified"]
    if len(s) == 1:
        v = s.views[0]
        assert v.offsets().tolist() == want
        assert v.size == len(want)


def flat(d):
    mask = [tuple(m) for m in d["mask"]] if d["mask"] is not None else None
    return FlatView(d["shape"], d["strides"], d["offset"], mask)


def flat_offsets(v):
    """Brute force: every element of a flat view, -1 where masked."""
    import itertools
    out = []
    for c in itertools.product(*[range(n) for n in v.shape]):
        ok = v.mask is None or all(b <= x < e for x, (b, e) in zip(c, v.mask))
        out.append(v.offset + sum(x * s for x, s in zip(c, v.strides)) if ok else -1)
    return out


@pytest.mark.parametrize("case", PAIRS, ids=lambda c: c["id"])
def test_merge_pairs(case):
    req, exp = case["request"], case["expect"]
    first, second = flat(req["first"]), flat(req["second"])
    try:
        merged = hlayout.merge(first, second)
    except hlayout.BudgetExceededError:
        return
    assert (merged is not None) == exp["single_view_exists"]
    if merged is not None and 0 not in merged.shape:
        assert flat_offsets(merged) == exp["composed_index"]


def test_flat_view_repr_round_trips_and_evaluates():
    v = FlatView((4, 3), (3, 1), offset=-3, mask=[(1, 4), (0, 3)])
    assert eval(repr(v), {"FlatView": FlatView}) == v
    assert v(0, 2) is None and v(1, 2) == 2
    w = hlayout.View.from_flat(v)
    assert w.flatten() == v and w(1, 2) == 2


def test_reshape_flat_is_the_merge_with_a_contiguous_view():
    t = FlatView((10, 10), (1, 10))
    assert hlayout.reshape_flat(t, [100]) is None
    r = hlayout.reshape_flat(t, [5, 2, 5, 2])
    assert r.strides == (2, 1, 20, 10)
    with pytest.raises(hlayout.SizeMismatchError):
        hlayout.reshape_flat(t, [7])


def test_view_stack_api():
    s = ViewStack([10, 10]).permute([1, 0]).reshape([100])
    assert str(s) == "((10,10)):((1,10))" and len(s) == 1
    v = s.views[0]
    with pytest.raises(hlayout.FlattenError) as e:
        v.flatten()
    assert e.value.reasons
    assert str(v.layout) == "((10,10)):((1,10))"
    p = ViewStack([3]).pad([(1, 1)])
    assert p.offsets().tolist() == [-1, 0, 1, 2, -1]
    assert p(0) is None and p(1) == 0
    assert p.views[0].constraints == [([1], 1, 4)]
    with pytest.raises(hlayout.BadMovementError) as e:
        ViewStack([2, 3]).reshape([7])
    assert e.value.op == "reshape"
    assert ViewStack([4]).flip([True]).offsets().tolist() == [3, 2, 1, 0]
    # x[::2] as tinygrad spells it (stride is not one of its movement ops).
    assert not hasattr(ViewStack([6]), "stride")
    assert ViewStack([6]).reshape([3, 2]).shrink([(0, 3), (0, 1)]).reshape([3]).offsets().tolist() == [0, 2, 4]
    assert ViewStack([1, 3]).expand([2, 3]).offsets().tolist() == [0, 1, 2, 0, 1, 2]
    assert ViewStack.from_layout(hlayout.Layout("(2,3):(1,2)")).offsets().tolist() == [0, 2, 4, 1, 3, 5]


def test_offsets_are_lists_without_numpy():
    import subprocess
    import sys
    code = ("import sys; sys.modules['numpy'] = None\n"
            "import hlayout\n"
            "o = hlayout.Layout('(2,3):(1,2)').offsets()\n"
            "p = hlayout.ViewStack([2]).pad([(1, 0)]).offsets()\n"
            "assert type(o) is list and o == [0, 2, 4, 1, 3, 5], o\n"
            "assert type(p) is list and p == [-1, 0, 1], p\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")
