"""Swizzles and composed layouts, native (hlayout.Swizzle, ComposedLayout) and
through hlayout.pycute, checked as functions at every index against
brute-force definitions: CuTe's Swizzle<B,M,S> bit formula and
Sw(O + L(i))."""

import pickle
import random

import pytest

import hlayout
import hlayout.pycute as cute
from hlayout import ComposedLayout, Layout, Swizzle
from brute import layout_eval


def sw_brute(bits, base, shift, x):
    """CuTe's definition: the bits at base + max(shift, 0) xor-ed into those
    shift places lower (higher for shift < 0), on Python's unbounded ints."""
    yyy = ((1 << bits) - 1) << (base + max(0, shift))
    moved = x & yyy
    return x ^ (moved >> shift if shift >= 0 else moved << -shift)


SWIZZLES = [(b, m, s) for b in range(4) for m in range(4) for s in range(-5, 6) if abs(s) >= b]
XS = list(range(-300, 600)) + [(1 << 40) + 12345, -(1 << 40) - 7, (1 << 62) - 1, -(1 << 62)]


@pytest.mark.parametrize("bms", SWIZZLES, ids=str)
def test_swizzle_every_offset(bms):
    b, m, s = bms
    sw, py = Swizzle(b, m, s), cute.Swizzle(b, m, s)
    for x in XS:
        want = sw_brute(b, m, s, x)
        assert sw(x) == want and py(x) == want
        assert sw(sw(x)) == x  # an involution
    assert (sw.bits, sw.base, sw.shift) == (b, m, s)
    assert sw.mask == ((1 << b) - 1) << (m + max(0, s))
    assert sw.is_identity == (b == 0)
    assert py.yyy_msk == sw.mask and py.zzz_msk == ((1 << b) - 1) << (m - min(0, s))
    assert py.size() == py.cosize() == 1 << (b + m + abs(s))
    t = sw.scaled(2)
    assert all(t(4 * x) == 4 * sw(x) for x in range(256))


def test_swizzle_text_repr_and_preconditions():
    sw = Swizzle(3, 4, 3)
    assert str(sw) == "Sw<3,4,3>" and Swizzle("Sw<3,4,3>") == sw == Swizzle.parse("Sw<3, 4, 3>")
    assert eval(repr(sw), {"Swizzle": Swizzle}) == sw and pickle.loads(pickle.dumps(sw)) == sw
    assert hash(Swizzle(3, 4, 3)) == hash(sw) and Swizzle(3, 4, -3) != sw
    p = cute.Swizzle(2, 0, 3)
    assert (str(p), repr(p)) == ("SW_2_0_3", "Swizzle(2,0,3)")  # pycute's texts
    assert eval(repr(p), {"Swizzle": cute.Swizzle}) == p
    for bad in [(3, 0, 2), (-1, 0, 0), (1, -1, 1), (2, 60, 3)]:
        with pytest.raises(hlayout.PreconditionError) as e:
            Swizzle(*bad)
        assert e.value.op == "swizzle" and isinstance(e.value, ValueError)
        with pytest.raises(hlayout.PreconditionError):
            cute.Swizzle(*bad)
    with pytest.raises(hlayout.ParseError):
        Swizzle("Sw<3,4>")
    with pytest.raises(TypeError):
        Swizzle(3, 4)
    assert cute.Swizzle(0, 0, 0)(5) == 5  # pycute recurses forever on shift 0


def composed_brute(c, i):
    """Sw(O + L(i)) from the definitions."""
    sw, l = c.swizzle, c.layout
    return sw_brute(sw.bits, sw.base, sw.shift, c.offset + layout_eval(l.shape, l.stride, i))


def random_composed(rng):
    b = rng.randint(0, 3)
    s = rng.choice([-1, 1]) * rng.randint(b, 4)
    sw = Swizzle(b, rng.randint(0, 3), s)

    def tup(depth):
        if depth == 0 or rng.random() < 0.5:
            return rng.choice([1, 2, 3, 4])
        return tuple(tup(depth - 1) for _ in range(rng.randint(1, 3)))
    shape = tup(2)

    def strides(t):
        return tuple(strides(x) for x in t) if isinstance(t, tuple) else rng.choice([0, 1, 2, 4, 8, 3])
    return ComposedLayout(sw, rng.randint(0, 40), Layout(shape, strides(shape)))


COMPOSED = [ComposedLayout(t) for t in [
    "Sw<1,0,2> o 0 o (4,4):(4,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<2,1,-3> o 5 o (2,(2,4)):(1,(16,2))",
    "Sw<0,0,0> o 3 o 6:2"]] + [random_composed(random.Random(k)) for k in range(40)]


@pytest.mark.parametrize("c", COMPOSED, ids=str)
def test_composed_every_index(c):
    n = c.size
    offsets = c.offsets().tolist()
    assert n == c.layout.size == len(offsets)
    for i in range(n):
        want = composed_brute(c, i)
        assert c(i) == want and offsets[i] == want
    if c.layout.rank > 1:  # a top-level coordinate names the same index
        for i in range(n):
            coord = hlayout.idx2crd(i, tuple(m.size for m in c.layout))
            assert c(coord) == c(*coord) == composed_brute(c, i)
    assert eval(repr(c), vars(hlayout)) == c and ComposedLayout(str(c)) == c
    assert pickle.loads(pickle.dumps(c)) == c and hash(ComposedLayout(str(c))) == hash(c)
    assert ComposedLayout.from_cute(c.to_cute()) == c
    assert ComposedLayout(c.swizzle, c.offset, c.layout) == c
    co = c.coalesce()
    assert [co(i) for i in range(n)] == offsets
    for k in range(len(c)):
        m = c[k]
        assert (m.swizzle, m.offset, m.layout) == (c.swizzle, c.offset, c.layout[k])
    assert c[-1] == c[len(c) - 1]


@pytest.mark.parametrize("c", COMPOSED, ids=str)
def test_composed_kernel_every_index(c):
    """The Python texts of the kernel, run by eval(), give Sw(O + L(i)) at every
    index (linear) and at every top-level coordinate (coords)."""
    n = c.size
    lin = c.kernel()
    assert lin.vars == [("i", n)] and c.expr("python") == lin.render("python")
    index, valid = lin.render("python")
    for i in range(n):
        want = composed_brute(c, i)
        assert (eval(index, {}, {"i": i}), eval(valid, {}, {"i": i})) == (want, True)
        assert lin(i) == (want, True)
    crd = c.kernel("coords")
    index, valid = crd.render("python")
    extents = [e for _, e in crd.vars]
    for i in range(n):
        point, r = [], i
        for e in reversed(extents):
            point.append(r % e)
            r //= e
        env = {name: x for (name, _), x in zip(crd.vars, reversed(point))}
        assert (eval(index, {}, env), eval(valid, {}, env)) == (composed_brute(c, i), True)


@pytest.mark.parametrize("c", COMPOSED[:20], ids=str)
def test_composed_algebra_as_functions(c):
    for b in [Layout(t) for t in ["2:1", "(2,2):(1,4)", "3:2", "4:1"]]:
        try:
            r = c.compose(b)
        except hlayout.NoCompositionError:
            with pytest.raises(hlayout.NoCompositionError):
                c.layout.compose(b)
            continue
        assert r.size == b.size
        for i in range(b.size):
            assert r(i) == c(b(i))  # (C ∘ B)(i) = C(B(i))
    for a in [Layout(t) for t in ["64:4", "64:1", "64:0", "(4,16):(16,1)"]]:
        r = c.left_compose(a)  # A is x -> 2**t x (or 0) on every integer
        assert a.compose(c) == r
        for i in range(c.size):
            assert r(i) == a(c(i))  # (A ∘ C)(i) = A(C(i))
    for a in [Layout("(2,3):(1,2)"), Layout("8:3")]:
        # Not a power-of-two scaling: CuTe's rule A o Sw = Sw' o A' either
        # gives a composed layout, checked as a function, or fails by name.
        try:
            r = c.left_compose(a)
        except (hlayout.NoCompositionError, hlayout.PreconditionError):
            continue
        for i in range(c.size):
            assert r(i) == a(c(i))
    t = Layout("2:1")
    for name in ("logical_divide", "logical_product", "blocked_product", "raked_product"):
        if name in ("blocked_product", "raked_product") and c.layout.rank < 2:
            continue
        try:
            inner = getattr(c.layout, name)(t)
        except hlayout.HlayoutError as e:  # the composed op fails exactly when the inner one does
            with pytest.raises(type(e)):
                getattr(c, name)(t)
            continue
        r = getattr(c, name)(t)
        assert r.size == inner.size
        assert (r.swizzle, r.offset, r.layout) == (c.swizzle, c.offset, inner)
        for i in range(r.size):
            assert r(i) == sw_brute(c.swizzle.bits, c.swizzle.base, c.swizzle.shift,
                                    c.offset + inner(i))
    assert outcome(lambda: c.zipped_divide(t).layout) == outcome(lambda: c.layout.zipped_divide(t))
    assert outcome(lambda: c.complement(64)) == outcome(lambda: c.layout.complement(64))
    assert outcome(c.complement) == outcome(c.layout.complement)


def outcome(f):
    """``f()``'s value, or the class of the hlayout error it raises."""
    try:
        return f()
    except hlayout.HlayoutError as e:
        return type(e)


def test_native_composed_examples():
    c = ComposedLayout("Sw<1,0,2> o 0 o (4,4):(4,1)")
    assert c.offsets().tolist() == [0, 1, 2, 3, 5, 4, 7, 6, 8, 9, 10, 11, 13, 12, 15, 14]
    assert Layout("64:4").compose(c) == c.left_compose(Layout("64:4"))
    assert str(Layout("64:4").compose(c)) == "Sw<1,2,2> o 0 o (4,4):(16,4)"
    with pytest.raises(hlayout.ParseError) as e:
        ComposedLayout("Sw<1,0,2> x 0 o 4:1")
    assert e.value.pos == 10
    with pytest.raises(TypeError):
        ComposedLayout(Swizzle(1, 0, 2), 0)
    with pytest.raises(hlayout.ModeOutOfRangeError):
        c[2]


# ---------------------------------------------------------------- pycute

def colex_rand(rng):
    def tup(depth):
        if depth == 0 or rng.random() < 0.5:
            return rng.choice([1, 2, 4])
        return tuple(tup(depth - 1) for _ in range(rng.randint(1, 3)))
    shape = tup(2)

    def strides(t):
        return tuple(strides(x) for x in t) if isinstance(t, tuple) else rng.choice([0, 1, 2, 4, 8])
    b = rng.randint(0, 2)
    return cute.ComposedLayout(cute.Swizzle(b, rng.randint(0, 2), rng.randint(b, 3)),
                               rng.randint(0, 8), cute.Layout(shape, strides(shape)))


PY = [colex_rand(random.Random(100 + k)) for k in range(40)]


@pytest.mark.parametrize("c", PY, ids=str)
def test_pycute_composed_every_index(c):
    sw = c.layoutB
    n = cute.size(c)
    for i in range(n):
        # pycute's definition: layoutB(offset + layoutA(i)), with CuTe's swizzle formula
        assert c(i) == sw_brute(sw.bits, sw.base, sw.shift, c.offset + c.layoutA(i))
    assert eval(repr(c), vars(cute)) == c
    assert cute.cosize(c) == sw.size()
    assert len(c) == len(c.layoutA) and c[0] == cute.ComposedLayout(sw, c.offset, c.layoutA[0])
    co = cute.coalesce(c)
    assert isinstance(co, cute.ComposedLayout) and [co(i) for i in range(n)] == [c(i) for i in range(n)]
    for b in [cute.Layout(2, 1), cute.Layout((2, 2), (1, 4)), cute.Layout(4, 2), 2]:
        try:
            r = cute.composition(c, b)
        except hlayout.NoCompositionError:
            continue
        b = cute.Layout(b) if isinstance(b, int) else b
        assert all(r(i) == c(b(i)) for i in range(cute.size(b)))
    a = cute.Layout(64, 4)
    r = cute.composition(a, c)
    assert all(r(i) == a(c(i)) for i in range(n))
    assert outcome(lambda: cute.complement(c, 64)) == outcome(lambda: cute.complement(c.layoutA, 64))
    t = cute.Layout(2, 1)
    ref = outcome(lambda: cute.composition(c, cute.make_layout(t, cute.complement(t, n))))
    d = outcome(lambda: cute.logical_divide(c, t))  # pycute's definition: C ∘ (B, B*)
    assert isinstance(d, cute.ComposedLayout) == isinstance(ref, cute.ComposedLayout)
    if isinstance(d, cute.ComposedLayout):
        assert [d(i) for i in range(n)] == [ref(i) for i in range(n)]
        z = cute.zipped_divide(c, t)
        assert [z(i) for i in range(n)] == [d(i) for i in range(n)]
    p = outcome(lambda: cute.logical_product(c, t))
    assert p == outcome(lambda: cute.ComposedLayout(sw, c.offset, cute.logical_product(c.layoutA, t)))
    if isinstance(p, cute.ComposedLayout):
        assert cute.size(p) == 2 * n
        assert [p(i) for i in range(n)] == [c(i) for i in range(n)]  # the first tile is C itself


def test_pycute_composed_limits():
    c = cute.ComposedLayout(cute.Swizzle(1, 0, 2), 0, cute.Layout((4, 4), (4, 1)))
    assert [c(i) for i in range(6)] == [0, 5, 8, 13, 1, 4]
    with pytest.raises(hlayout.PreconditionError):
        cute.composition(cute.Layout((2, 3), (3, 1)), c)  # A after a swizzle: no composed layout
    with pytest.raises(hlayout.PreconditionError):
        cute.composition(c, (cute.Layout(2, 1), None))  # by-mode tilers are not defined
    with pytest.raises(hlayout.PreconditionError):
        cute.tiled_divide(c, (cute.Layout(2, 1),))
    with pytest.raises(hlayout.PreconditionError):
        cute.filter(c)
    generic = cute.ComposedLayout(cute.Layout(16, 2), 1, cute.Layout(4, 1))
    assert [generic(i) for i in range(4)] == [2, 4, 6, 8]  # any callables, as in pycute
    with pytest.raises(hlayout.PreconditionError):
        cute.composition(generic, cute.Layout(2, 1))  # no algebra without a swizzle
    from hlayout.pycute.swizzle import ComposedLayout as C2, Layout as L2, Swizzle as S2, shiftl, shiftr
    assert (C2, L2, S2) == (cute.ComposedLayout, cute.Layout, cute.Swizzle)
    assert [shiftr(40, s) for s in (3, -3, 0)] == [5, 320, 40]
    assert [shiftl(5, s) for s in (3, -2, 0)] == [40, 1, 5]
