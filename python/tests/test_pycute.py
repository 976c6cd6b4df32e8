"""hlayout.pycute checked as CuTe defines it (colexicographic, first mode
fastest): every index against brute force, on pycute's own cases mirrored back
from the repository's reference data and on random layouts."""

import random

import pytest

import hlayout
import hlayout.pycute as cute
from refdata import load


def colex_eval(shape, stride, i):
    """Brute force: CuTe's L(i), the last mode absorbing indices past the size."""
    if isinstance(shape, tuple):
        total = 0
        for k, (s, d) in enumerate(zip(shape, stride)):
            n = cute.product(s)
            if k + 1 < len(shape):
                total += colex_eval(s, d, i % n)
                i //= n
            else:
                total += colex_eval(s, d, i)
        return total
    return i * stride


def rand_layout(rng):
    def tup(depth):
        if depth == 0 or rng.random() < 0.5:
            return rng.choice([1, 2, 3, 4])
        return tuple(tup(depth - 1) for _ in range(rng.randint(1, 3)))
    shape = tup(2)

    def strides(t):
        return tuple(strides(x) for x in t) if isinstance(t, tuple) else rng.choice([0, 1, 2, 3, 6, 8])
    return cute.Layout(shape, strides(shape))


RANDOM = [rand_layout(random.Random(s)) for s in range(80)]


@pytest.mark.parametrize("l", RANDOM, ids=str)
def test_layout_call_and_extension(l):
    n = cute.size(l)
    for i in range(2 * n + 1):  # past the size too: CuTe extends the last mode
        assert l(i) == colex_eval(l.shape, l.stride, i)
    if n:
        assert cute.cosize(l) == max(l(i) for i in range(n)) + 1


@pytest.mark.parametrize("l", RANDOM, ids=str)
def test_coalesce_filter(l):
    c = cute.coalesce(l)
    assert [c(i) for i in range(cute.size(l))] == [l(i) for i in range(cute.size(l))]
    f = cute.filter(l)
    assert {f(i) for i in range(cute.size(f))} == {l(i) for i in range(cute.size(l))}


def test_composition_exact_on_random_pairs():
    seen = 0
    for a in RANDOM[:30]:
        for b in RANDOM[30:60]:
            try:
                r = cute.composition(a, b)
            except hlayout.NoCompositionError:
                continue
            seen += 1
            for i in range(cute.size(b)):
                assert r(i) == a(b(i))
    assert seen > 100


def test_defaults_and_names_match_pycute():
    assert cute.Layout((2, 4)).stride == (1, 2)
    assert cute.Layout((2, 1, 6)).stride == (1, 2, 2)
    assert cute.prefix_product(((2, 3), (2, 1, 2), (5, 2, 1))) == ((1, 2), (6, 12, 12), (24, 120, 240))
    assert cute.prefix_product((3, 2), 5) == (5, 15)
    assert cute.shape_div((6, (3, 4)), 36) == (1, (1, 2))
    assert cute.idx2crd(5, (2, 3)) == (1, 2)
    assert cute.crd2idx((1, 2), (2, 3)) == 5
    assert cute.crd2crd((1, 2), (2, 3)) == (1, 2)
    l = cute.Layout((2, (3, 4)), (1, (2, 6)))
    assert l(None, 1) == cute.Layout((2,), (1,))
    assert cute.slice_and_offset((None, 1), l) == (cute.Layout((2,), (1,)), 2)
    assert cute.make_layout(cute.Layout(2, 1), cute.Layout(3, 2)) == cute.Layout((2, 3), (1, 2))
    assert isinstance(3, cute.Integer) and not isinstance(True, cute.Integer)
    assert str(cute.Layout((2, 3))) == "(2, 3):(1, 2)"
    assert repr(cute.Layout((2, 3))) == "Layout((2, 3),(1, 2))"
    sw = cute.Swizzle(2, 0, 3)
    assert [sw(i) for i in range(32)] == [i ^ ((i & 0b11000) >> 3) for i in range(32)]
    composed = cute.ComposedLayout(sw, 0, cute.Layout((4, 8)))
    assert composed(9) == sw(9) and cute.size(composed) == 32


def test_divides_and_products_as_functions():
    a = cute.Layout((4, 6), (1, 4))
    b = cute.Layout(2, 2)
    d = cute.logical_divide(a, b)
    # pycute's definition: A ∘ (B, complement(B, size(A)))
    ref = cute.composition(a, cute.make_layout(b, cute.complement(b, cute.size(a))))
    assert [d(i) for i in range(cute.size(a))] == [ref(i) for i in range(cute.size(a))]
    z = cute.zipped_divide(a, (cute.Layout(2, 1), cute.Layout(3, 1)))
    assert sorted(z(i) for i in range(24)) == list(range(24))
    t = cute.tiled_divide(a, (cute.Layout(2, 1), None))
    assert sorted(t(i) for i in range(24)) == list(range(24))
    p = cute.logical_product(cute.Layout(2, 1), cute.Layout(3, 1))
    assert [p(i) for i in range(6)] == list(range(6))
    assert cute.logical_product(cute.Layout(2, 1), 3) == p  # an int tile is a layout, not a divide
    zp = cute.zipped_product(cute.Layout((2, 2)), (cute.Layout(2, 1), cute.Layout(2, 1)))
    lp0 = cute.logical_product(cute.Layout(2, 1), cute.Layout(2, 1))
    lp1 = cute.logical_product(cute.Layout(2, 2), cute.Layout(2, 1))
    by_mode = sorted(lp0(i) + lp1(j) for i in range(4) for j in range(4))
    assert sorted(zp(i) for i in range(16)) == by_mode


def test_wrong_compositions_raise():
    # pycute returns (2,3):(7,2)-like layouts here; none equals A∘B.
    a = cute.Layout((6, 2), (1, 7))
    b = cute.Layout((3, 2), (2, 3))
    with pytest.raises(hlayout.NoCompositionError):
        cute.composition(a, b)


SUITE = load("pycute_suite.json")


def _rev(t):
    return tuple(_rev(x) for x in reversed(t)) if isinstance(t, tuple) else t


@pytest.mark.parametrize("case", SUITE, ids=lambda c: c["id"])
def test_pycute_suite_through_the_native_api(case):
    # The same cases in row-major form through hlayout.Layout: R(i) = A(B(i)) etc.
    req = case["request"]
    op = req["op"]
    if op == "compose":
        a, b = hlayout.Layout(req["a"]), hlayout.Layout(req["b"])
        r = a.compose(b)
        assert all(r(i) == a(b(i)) for i in range(b.size))
    elif op == "coalesce":
        l = hlayout.Layout(req["layout"])
        c = l.coalesce()
        assert all(c(i) == l(i) for i in range(l.size))


# What `from pycute.<module> import *` gives with NVIDIA's pycute 4.2 (CUTLASS
# v4.2.0, listed from the nvidia-cutlass 4.2.0.0 wheel).
PYCUTE_INT_TUPLE = {
    "Integer", "Union", "chain", "crd2crd", "crd2idx", "elem_scale", "flatten", "has_none",
    "idx2crd", "inner_product", "is_int", "is_tuple", "prefix_product", "product", "reduce",
    "shape_div", "signum", "slice_", "tuple_max"}
PYCUTE_LAYOUT = PYCUTE_INT_TUPLE | {
    "Layout", "LayoutBase", "coalesce", "complement", "composition", "cosize", "filter",
    "hier_unzip", "is_layout", "left_inverse", "logical_divide", "logical_product", "make_layout",
    "right_inverse", "size", "slice_and_offset", "tiled_divide", "tiled_product", "zipped_divide",
    "zipped_product"}
PYCUTE_SWIZZLE = PYCUTE_LAYOUT | {"ComposedLayout", "Swizzle", "shiftl", "shiftr"}
PYCUTE_TYPING = {"ABC", "Integer"}


@pytest.mark.parametrize("module,names", [
    ("hlayout.pycute", PYCUTE_SWIZZLE | PYCUTE_TYPING), ("hlayout.pycute.int_tuple", PYCUTE_INT_TUPLE),
    ("hlayout.pycute.layout", PYCUTE_LAYOUT), ("hlayout.pycute.swizzle", PYCUTE_SWIZZLE),
    ("hlayout.pycute.typing", PYCUTE_TYPING)])
def test_star_imports_give_pycutes_names(module, names):
    ns = {}
    exec(f"from {module} import *", ns)
    assert {n for n in ns if not n.startswith("_")} == names
    for n in names - {"ABC", "Union", "chain", "reduce"}:
        assert ns[n] is getattr(cute, n)  # one object, whichever module it comes from
    for sub in ("int_tuple", "layout", "swizzle", "typing"):
        assert getattr(cute, sub).__name__ == f"hlayout.pycute.{sub}"
