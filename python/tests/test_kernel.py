"""Kernel expressions (hlayout.Kernel, the crate's code generator) checked as
functions: the Python texts are run with eval() at every point of small
layouts, views and stacks and compared with brute-force offsets (padding
included), and the crate's interpreter agrees with them."""

import itertools

import pytest

import hlayout
from hlayout import Layout, View, ViewStack
from brute import layout_eval, size
from refdata import load
from test_layout import ALL

CHAINS = load("tinygrad_chains.json")


def run_chain(req):
    s = ViewStack(req["shape"])
    for op, arg in req["ops"]:
        s = getattr(s, op)([tuple(p) for p in arg] if op in ("pad", "shrink") else arg)
    return s


def evaluate(kernel, point):
    """The Python texts of ``kernel`` run by eval() at ``point``."""
    index, valid = kernel.render("python")
    env = {name: x for (name, _), x in zip(kernel.vars, point)}
    return eval(index, {}, env), eval(valid, {}, env)


def points(kernel):
    return itertools.product(*[range(n) for _, n in kernel.vars])


def rank_of(point, extents):
    """Row-major rank of ``point`` over ``extents``."""
    r = 0
    for x, n in zip(point, extents):
        r = r * n + x
    return r


SMALL = [l for l in ALL if l.size <= 64]


@pytest.mark.parametrize("l", SMALL, ids=str)
def test_layout_kernel_every_index(l):
    k = l.kernel()  # linear: one variable i over the size
    assert k.vars == [("i", l.size)]
    for i in range(l.size):
        want = layout_eval(l.shape, l.stride, i)
        assert evaluate(k, (i,)) == (want, True)
        assert k(i) == (want, True)
    assert l.expr("python") == k.render("python")
    assert l.expr() == k.render("c") == (k.index(), k.valid())


@pytest.mark.parametrize("l", SMALL, ids=str)
def test_layout_kernel_every_coordinate(l):
    k = l.kernel("coords")  # one variable per top-level mode
    modes = [size(m) for m in l.shape] if isinstance(l.shape, tuple) else [l.shape]
    assert [n for _, n in k.vars] == modes
    assert [name for name, _ in k.vars] == [f"i{d}" for d in range(len(modes))]
    for point in points(k):
        want = layout_eval(l.shape, l.stride, rank_of(point, modes))
        assert evaluate(k, point) == (want, True)
        assert k(*point) == (want, True)


@pytest.mark.parametrize("case", CHAINS, ids=lambda c: c["id"])
def test_stack_kernel_every_element(case):
    s = run_chain(case["request"])
    want = case["expect"]["offsets"]  # brute force, -1 where padding
    shape = case["expect"]["final_shape"]
    for k, input_ in ((s.kernel(), "coords"), (s.kernel("linear"), "linear")):
        for point in points(k):
            r = rank_of(point, shape) if input_ == "coords" else point[0]
            index, valid = evaluate(k, point)
            assert valid == (want[r] != -1), (point, want[r])
            if valid:
                assert index == want[r]
            assert k(*point) == (index, valid)
    if len(s) == 1:  # the stack's single view: the same function
        v = s.views[0].kernel()
        for point in points(v):
            index, valid = evaluate(v, point)
            r = rank_of(point, shape)
            assert valid == (want[r] != -1) and (not valid or index == want[r])


def test_div_mod_count_and_texts():
    # A transpose, flattened: one view and one division (tinygrad needs a div and a mod).
    k = ViewStack([4, 6]).permute([1, 0]).reshape([24]).kernel()
    assert k.render("c") == ("i0 * 6 - i0 / 4 * 23", "1")
    assert k.render("cuda") == k.render("c")
    assert k.render("python") == ("i0 * 6 - i0 // 4 * 23", "True")
    assert k.render("rust") == ("i0 * 6 - i0 / 4 * 23", "true")
    assert k.div_mod_count == 1
    # Padding: validity is a comparison of the coordinates.
    p = ViewStack([4, 4]).pad([(1, 1), (0, 0)])
    assert p.expr() == ("i0 * 4 + i1 - 4", "i0 >= 1 && i0 < 5")
    assert p.expr("python") == ("i0 * 4 + i1 - 4", "i0 >= 1 and i0 < 5")
    assert p.views[0].expr("c") == p.expr("c")
    assert View.contiguous([3, 5]).expr("c", "linear") == ("i", "1")
    assert Layout("8:1").expr("python") == ("i", "True")
    assert str(Layout("(4,6):(1,4)").kernel()) == "index: i * 4 - i / 6 * 23\nvalid: 1"


def test_multi_view_stack_kernel():
    s = ViewStack([10, 10]).permute([1, 0]).reshape([100]).reshape([4, 25])
    assert len(s) == 2  # provably no single view
    k = s.kernel()
    want = s.offsets().tolist()
    for point in points(k):
        assert evaluate(k, point) == (want[rank_of(point, [4, 25])], True)


def test_bad_options_and_points():
    l = Layout("(4,6):(1,4)")
    with pytest.raises(ValueError, match="lang"):
        l.expr("fortran")
    with pytest.raises(ValueError, match="input"):
        l.kernel("rows")
    with pytest.raises(ValueError, match="lang"):
        l.kernel().render("js")
    k = l.kernel()
    with pytest.raises(hlayout.OutOfDomainError):
        k(24)  # outside the variable's range
    with pytest.raises(hlayout.OutOfDomainError):
        k(1, 2)  # one variable, two values


def test_kernel_repr_round_trips():
    for k in (Layout("(2,(2,2)):(2,(1,4))").kernel("coords"),
              ViewStack([3, 4]).pad([(1, 0), (0, 1)]).kernel("linear"),
              ViewStack([3, 4]).pad([(1, 0), (0, 1)]).views[0].kernel(),
              View.from_layout(Layout("(2,3):(1,2)"), 5).kernel()):
        back = eval(repr(k), vars(hlayout))
        assert back == k and back.render("python") == k.render("python")
        assert back.vars == k.vars
    assert Layout("4:1").kernel() != Layout("4:2").kernel()


def test_chain_kernels_refuse_hostile_input_without_panicking():
    """The plug-in's private ``_chain_kernels`` answers bad shapes and ops
    with hlayout's or Python's own errors, never a panic."""
    from hlayout._hlayout import _chain_kernels

    big = 2**62
    cases = [
        ((big, big), (("reshape", (1,)),)),
        ((4, 6), (("reshape", (5,)),)),
        ((4, 6), (("permute", (0, 0)),)),
        ((4, 6), (("pad", ((-1, 0), (0, 0))),)),
        ((4, 6), (("shrink", ((3, 1), (0, 6))),)),
        ((4, 6), (("expand", (8, 6)),)),
        ((4, 6), (("flip", (True,)),)),
        ((4, 6), (("pad", ((big, big), (big, big))),)),
        ((0, 3), (("reshape", (0,)),)),
        ((-2, 3), ()),
        ((2**63, 3), ()),
        ("(4,6)", ()),
        ((4, 6), (("reshape", "24"),)),
        ((4, 6), (("roll", (1,)),)),
        ((4, 6), ((1, 2),)),
    ]
    for shape, ops in cases:
        try:
            _chain_kernels(shape, ops)
        except (hlayout.HlayoutError, ValueError, TypeError, OverflowError) as e:
            assert "panicked" not in str(e), (shape, ops, e)
