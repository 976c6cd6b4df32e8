"""hlayout.SymFlatView, hlayout.merge over symbols and SymLayout.flatten: every
answer, bound at every allowed value of small ranges, equals the brute-force
definition (second read through first) or the concrete flatten; refusals carry
their needs."""

import itertools

import pytest

import hlayout
from hlayout import FlatView, NeedsFactsError, FlattenError, SymFlatView, SymLayout


def coords(shape):
    return itertools.product(*(range(n) for n in shape))


def composed(first, second):
    """second's elements read through first, by definition (None: invalid)."""
    size = 1
    for n in first.shape:
        size *= n
    out = []
    for c in coords(second.shape):
        x = second(*c)
        if x is None or not 0 <= x < size:
            out.append(None)
            continue
        digits, rest = [], x
        for n in reversed(first.shape):
            digits.append(rest % n)
            rest //= n
        out.append(first(*reversed(digits)))
    return out


def values(v):
    return [v(*c) for c in coords(v.shape)]


def check(first, second, name, rng, **kw):
    merged = hlayout.merge(first, second, **kw)
    for x in rng:
        f, g = first.bind(**{name: x}), second.bind(**{name: x})
        if merged is None:
            assert hlayout.merge(f, g) is None
        else:
            assert values(merged.bind(**{name: x})) == composed(f, g), (x, merged)
    return merged


def test_variable_divmod_merge():
    sp = {"sp": {"min": 0, "max": 20}}
    first = SymFlatView((3, "sp+1"), (64, 1), assume=sp)
    second = SymFlatView((3, "sp+1"), ("sp+1", 1), assume=sp)
    m = check(first, second, "sp", range(0, 21))
    assert (m.shape, m.strides, m.offset, m.mask) == ((3, "sp+1"), (64, 1), 0, None)
    assert str(m) == "View(shape=(3, sp+1), strides=(64, 1), offset=0, mask=None)"


def test_kv_cache_mask_and_flips():
    sp = {"sp": {"max": 8}}
    first = SymFlatView((2, "sp+1", 1, 1), (8, 1, 0, 0), mask=[(0, 2), (0, "sp"), (0, 1), (0, 1)], assume=sp)
    second = SymFlatView((2, "sp+1"), ("sp+1", 1), assume=sp)
    m = check(first, second, "sp", range(1, 9))
    assert m.mask == [(0, 2), (0, "sp")]
    n = {"N": {"max": 9}}
    first = SymFlatView(("N", 3), (3, 1), assume=n)
    second = SymFlatView(("N", 3), (-3, -1), offset="3*N-1", assume=n)
    assert check(first, second, "N", range(1, 10)).strides == (-3, -1)


def test_refusal_names_the_fact_and_assume_overrides():
    first = SymFlatView((3, "sp+1"), (64, 1))
    second = SymFlatView((2, 4), ("sp+1", 1))
    with pytest.raises(NeedsFactsError) as e:
        hlayout.merge(first, second)
    assert e.value.needs == ["sp >= 3"]
    m = check(first, second, "sp", range(3, 13), assume={"sp": {"min": 3, "max": 12}})
    assert m.strides == (64, 1)


def test_concrete_operands_are_unchanged_and_null_is_exact():
    m = hlayout.merge(FlatView((5, 4), (9, 1)), FlatView((3,), (3,), offset=3))
    assert type(m) is FlatView and m.strides == (8,)
    k = {"K": {"min": 3, "max": 3}}
    assert hlayout.merge(SymFlatView((10, "K", 3), (19, 2, 5), assume=k), FlatView((6,), (4,))) is None


def test_flatten():
    v = SymLayout("(N,(4,8)):(32,(8,1))", assume={"N": {"max": 6}}).flatten()
    assert (v.shape, v.strides) == (("N", 32), (32, 1))
    for n in range(1, 7):
        c = SymLayout("(N,(4,8)):(32,(8,1))", assume={"N": {"max": 6}}).bind(N=n).flatten()
        assert values(v.bind(N=n)) == values(c)
    with pytest.raises(NeedsFactsError) as e:
        SymLayout("((N,4)):((1,N))").flatten()
    assert e.value.needs == ["N >= 2"]
    with pytest.raises(FlattenError) as e:
        SymLayout("((N,4)):((1,N))", assume={"N": {"min": 2}}).flatten()
    assert e.value.reasons == ["mode 0 (N,4):(1,N) is not one stride: it needs i//4 and i%4"]


def test_bad_arguments():
    for bad in [lambda: SymFlatView(("N+",), (1,)), lambda: SymFlatView("N", (1,)),
                lambda: SymFlatView(("N",), (1,), mask=[(0,)]), lambda: SymFlatView(("N-2",), (1,)),
                lambda: SymFlatView(("N",), (1.5,)), lambda: hlayout.merge(SymFlatView(("N",), (1,)), 3)]:
        with pytest.raises((hlayout.HlayoutError, TypeError, ValueError)):
            bad()


def test_no_view_is_proved_over_symbols():
    # A transposed buffer read in order: not affine at any N >= 2.
    n = {"N": {"min": 2, "max": 9}}
    first, second = SymFlatView(("N", 4), (1, "N"), assume=n), SymFlatView(("4*N",), (1,), assume=n)
    assert check(first, second, "N", range(2, 10)) is None
    with pytest.raises(NeedsFactsError):  # at N = 1 it is one view
        hlayout.merge(SymFlatView(("N", 4), (1, "N")), SymFlatView(("4*N",), (1,)))


def test_tinygrad_variables_as_assumptions():
    tinygrad = pytest.importorskip("tinygrad")
    sp = tinygrad.Variable("sp", 0, 20)
    first = SymFlatView((3, "sp+1"), (64, 1), assume=[sp])
    m = check(first, SymFlatView((3, "sp+1"), ("sp+1", 1), assume=[sp]), "sp", range(0, 21))
    assert m.assumptions == {"sp": {"min": 0, "max": 20, "divisible_by": 1}}
