"""hlayout.Layout checked as a function: every index against brute force."""

import itertools
import pickle
import random

import pytest

import hlayout
from hlayout import Layout
from brute import layout_eval, leaves, nest, size, unravel

CASES = [
    "1:0", "4:1", "(2,3):(3,1)", "(2,(2,2)):(2,(1,4))", "((10,10)):((1,10))",
    "(3,4):(-4,1)", "((2,5),3):((15,3),1)", "(4,2,3):(1,12,4)", "(2,1,6):(1,7,2)",
    "((2,2),(2,2)):((1,4),(8,32))", "(5,(3,2)):(0,(2,1))",
]


def random_layouts(n, seed=7):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        def tup(depth):
            if depth == 0 or rng.random() < 0.5:
                return rng.choice([1, 2, 3, 4])
            return tuple(tup(depth - 1) for _ in range(rng.randint(1, 3)))
        shape = tup(2)
        stride = _map(shape, lambda _: rng.choice([0, 1, 2, 3, 5, 8, -1, -3]))
        out.append((shape, stride))
    return out


def _map(t, f):
    return tuple(_map(x, f) for x in t) if isinstance(t, tuple) else f(t)


ALL = [Layout(c) for c in CASES] + [Layout(s, d) for s, d in random_layouts(60)]


@pytest.mark.parametrize("l", ALL, ids=str)
def test_eval_every_index(l):
    n = size(l.shape)
    assert l.size == n
    offsets = list(l.offsets())
    for i in range(n):
        want = layout_eval(l.shape, l.stride, i)
        assert l(i) == want
        assert offsets[i] == want
        # the congruent (leaf) coordinate gives the same offset
        assert l(nest(unravel(i, leaves(l.shape)), l.shape)) == want
    assert l.cosize == (max(offsets) + 1 if n else 0) or min(offsets) < 0


@pytest.mark.parametrize("l", ALL, ids=str)
def test_repr_round_trips(l):
    assert eval(repr(l), {"Layout": Layout}) == l
    assert Layout(str(l)) == l
    assert Layout(l.shape, l.stride) == l
    assert pickle.loads(pickle.dumps(l)) == l
    assert hash(Layout(str(l))) == hash(l)


@pytest.mark.parametrize("l", ALL, ids=str)
def test_coalesce_and_filter_keep_the_function(l):
    c = l.coalesce()
    assert [c(i) for i in range(l.size)] == [l(i) for i in range(l.size)]
    f = l.filter()
    assert sorted(set(f.offsets().tolist())) == sorted(set(l.offsets().tolist()))


def test_compose_every_pair_is_exact():
    small = [Layout(c) for c in CASES if Layout(c).size <= 24] + [
        Layout(s, d) for s, d in random_layouts(25, seed=3)]
    decided = 0
    for a, b in itertools.product(small, small):
        if any(b(i) < 0 for i in range(b.size)):
            continue
        try:
            r = a.compose(b)
        except hlayout.NoCompositionError as e:
            assert e.kind == "NoComposition" and 0 <= e.index < b.size
            assert isinstance(e, ValueError) and e.fields["a"] == str(a)
            continue
        except hlayout.BudgetExceededError:
            continue
        decided += 1
        assert r.size == b.size
        for i in range(b.size):
            assert r(i) == a(b(i))
    assert decided > 50


def test_compose_refuses_a_carry():
    # cutlass issue 2955, mirrored: no layout equals this composition.
    a = Layout("(2,6):(7,1)")
    with pytest.raises(hlayout.NoCompositionError) as e:
        a.compose(Layout("(2,3):(3,2)"))
    assert e.value.boundary == 6 or e.value.boundary is None
    assert {"a", "b", "rule", "leaf", "stride", "boundary", "index"} <= set(e.value.fields)


@pytest.mark.parametrize("l", [Layout(c) for c in ["(4,2):(4,1)", "(2,3):(1,2)", "(2,4):(1,8)", "4:2"]],
                         ids=str)
def test_complement_is_disjoint_and_covers(l):
    for cotarget in (1, 16, 64):
        c = l.complement(cotarget)
        image = {l(i) for i in range(l.size)}
        pairs = {(x + c(j)) for x in image for j in range(c.size)}
        assert len(pairs) == l.size * c.size  # (c, l) is injective
        assert c.cosize * 1 >= 1


@pytest.mark.parametrize("l", [Layout(c) for c in ["(8,4):(1,8)", "(2,4,6):(1,2,8)", "(4,2):(1,16)", "4:2", "(3,7):(0,0)"]],
                         ids=str)
def test_inverses(l):
    r = l.right_inverse()
    for i in range(r.size):
        assert l(r(i)) == i
    try:
        left = l.left_inverse()
    except hlayout.HlayoutError:
        return
    injective = len({l(i) for i in range(l.size)}) == l.size
    for i in range(l.size):
        # CuTe's contract: L(R(L(i))) = L(i); R(L(i)) = i when L is injective
        assert l(left(l(i))) == l(i)
        if injective:
            assert left(l(i)) == i


def test_divide_and_product_as_functions():
    a = Layout("(4,6):(6,1)")
    t = Layout("3:1")
    z = a.zipped_divide(t)
    assert str(z) == "(8,3):(3,1)"
    d = a.logical_divide(t)
    assert sorted(d.offsets().tolist()) == sorted(a.offsets().tolist())
    p = Layout("(2,2):(2,1)").logical_product(Layout("3:1"))
    assert p.size == 12 and sorted(p.offsets().tolist()) == list(range(12))
    assert Layout("(2,2):(2,1)").blocked_product(Layout("(2,3):(3,1)")).size == 24
    assert Layout("(2,2):(2,1)").raked_product(Layout("(2,3):(3,1)")).size == 24


def test_flatten_and_its_report():
    v = Layout("((2,5),3):((15,3),1)").flatten()
    assert (v.shape, v.strides, v.offset, v.mask) == ((10, 3), (3, 1), 0, None)
    with pytest.raises(hlayout.FlattenError) as e:
        Layout("(2,(2,2)):(2,(1,4))").flatten()
    assert e.value.modes == [(1, "(2,2):(1,4)", "(2,2):(1,4)", ["i//2", "i%2"])]
    assert "needs i//2 and i%2" in str(e.value)


def test_cute_interop_and_constructors():
    a = Layout.from_cute("(6,2):(1,7)")
    assert str(a) == "(2,6):(7,1)" and a.to_cute() == "(6,2):(1,7)"
    assert str(Layout((2, 3))) == "(2,3):(3,1)"
    assert str(Layout.row_major((2, (3, 4)))) == "(2,(3,4)):(12,(4,1))"
    assert Layout("(2,3):(3,1)")[1] == Layout("3:1")
    assert len(Layout("(2,(3,4)):(12,(4,1))")) == 2
    assert Layout("(2,(2,2)):(2,(1,4))")(1, 2) == 3
    t = Layout("(10,10):(1,10)")
    assert str(t.reshape((100,))) == "((10,10)):((1,10))"
    assert str(t.reshape((5, 2, 5, 2))) == "(5,2,5,2):(2,1,20,10)"


def test_errors_are_value_errors_with_fields():
    with pytest.raises(hlayout.ParseError) as e:
        Layout("(2,3:(1,2)")
    assert isinstance(e.value, ValueError) and e.value.kind == "Parse"
    assert e.value.pos >= 0 and e.value.fields["pos"] == e.value.pos
    with pytest.raises(hlayout.NotCongruentError) as e:
        Layout((2, 3), (1, 2, 3))
    assert e.value.what == "shape and stride"
    with pytest.raises(hlayout.NonPositiveExtentError) as e:
        Layout("(2,0):(1,1)")
    assert e.value.extent == 0
    with pytest.raises(TypeError):
        Layout(2.5)


def test_tuple_helpers():
    assert hlayout.prefix_product((2, (3, 4))) == (1, (2, 6))
    assert hlayout.suffix_product((2, (3, 4))) == (12, (4, 1))
    assert hlayout.shape_div((3, (4, 2)), 4) == (3, (2, 1))
    assert hlayout.tuple_size((2, (3, 4))) == 24
    shape = (2, (2, 2))
    for i in range(8):
        c = hlayout.idx2crd(i, shape)
        assert hlayout.crd2idx(c, shape) == i
        assert leaves(c) == unravel(i, [2, 2, 2])
