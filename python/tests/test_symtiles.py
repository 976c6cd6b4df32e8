"""Predicated divides and the remaining algebra over symbols in Python:
every predicated view is, at every element, the tile's element of the layout
or invalid exactly past its end; every symbolic answer, bound to several
allowed values (the extremes included), is the concrete answer as a function."""

import itertools

import pytest

from hlayout import Layout, NeedsFactsError, SymLayout

FORMS = ["logical", "zipped", "tiled", "flat"]


def same_function(x, y):
    assert x.size == y.size, (x, y)
    return all(x(i) == y(i) for i in range(x.size))


def coords(shape):
    return itertools.product(*(range(n) for n in shape))


@pytest.mark.parametrize("n,t", [(10, 4), (7, 3), (12, 4), (5, 8), (1, 2)])
def test_predicated_divide_of_a_row_at_every_element(n, t):
    a = Layout(f"{n}:2")
    v = a.predicated_divide(Layout(f"{t}:1"))
    tiles = -(-n // t)
    assert v.shape == (tiles, t)
    for r, c in coords(v.shape):
        want = a(r * t + c) if r * t + c < n else None
        assert v(r, c) == want, (r, c)


@pytest.mark.parametrize("form", FORMS)
def test_predicated_divide_by_mode_agrees_with_the_plain_divide(form):
    a = Layout("(10,6):(6,1)")
    tiler = [Layout("4:1"), Layout("4:1")]
    v = a.predicated_divide(tiler, form)
    plain = getattr(a, {"logical": "logical_divide", "zipped": "zipped_divide",
                        "tiled": "tiled_divide", "flat": "flat_divide"}[form])(tiler)
    valid = 0
    for i, c in enumerate(coords(v.shape)):
        got = v(*c)
        if got is not None:
            valid += 1
            assert got == plain(i)
    assert valid == 60  # every element of A, once
    assert eval(repr(v), {"Layout": Layout}) == v


def test_predicated_divide_refuses_a_bad_form():
    with pytest.raises(ValueError):
        Layout("10:1").predicated_divide(Layout("4:1"), "diagonal")


def test_symbolic_predicated_divide_at_bindings():
    a = SymLayout("64*K+10:1", assume={"K": {"min": 0, "max": 50}})
    p = a.predicated_divide(Layout("64:1"))
    assert str(p) == "(K+1,64):(64,1) if 0<=64*x0+x1<64*K+10"
    assert str(p.layout) == "(K+1,64):(64,1)"
    for k in [0, 1, 3, 50]:
        want = a.bind(K=k).predicated_divide(Layout("64:1"))
        got = p.bind(K=k)
        assert got.shape == want.shape
        assert all(got(*c) == want(*c) for c in coords(want.shape))
    with pytest.raises(NeedsFactsError) as e:
        SymLayout("N:1", assume={"N": {"divisible_by": 64, "max": 4096}}).predicated_divide(Layout("64:1"))
    assert e.value.needs == []


def test_inverses_and_products_at_bindings():
    assume = {"N": {"min": 2, "max": 64}}
    t = SymLayout("(N,4):(1,N)", assume=assume)
    r, li = t.right_inverse(), SymLayout("(N,4):(1,2*N)", assume=assume).left_inverse()
    a, b = SymLayout("(2,N):(N,1)", assume=assume), Layout("(3,2):(2,1)")
    for n in [2, 3, 7, 64]:
        assert same_function(r.bind(N=n), t.bind(N=n).right_inverse())
        assert same_function(li.bind(N=n), Layout(f"({n},4):(1,{2 * n})").left_inverse())
        for op in ["blocked_product", "raked_product", "zipped_product", "tiled_product"]:
            got = getattr(a, op)(b).bind(N=n)
            assert same_function(got, getattr(a.bind(N=n), op)(b)), op
    row = SymLayout("8*T:1", assume={"T": {"max": 64}})
    tile = Layout("(2,2):(1,4)")
    for op in ["tiled_divide", "flat_divide"]:
        d = getattr(row, op)(tile)
        for tt in [1, 2, 64]:
            assert same_function(d.bind(T=tt), getattr(row.bind(T=tt), op)(tile)), op
    with pytest.raises(NeedsFactsError) as e:
        SymLayout("(2,4):(K,1)").right_inverse()
    assert e.value.needs == ["K >= 5"]
