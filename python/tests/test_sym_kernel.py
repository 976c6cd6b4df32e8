"""SymLayout.kernel / SymLayout.expr: the kernel text over symbols, with every
symbol bound to its least, a middle and its greatest allowed value, gives the
bound concrete Layout's offset at every index (the Python rendering evaluated
as Python, the crate's interpreter called), for both inputs; a missing fact
raises NeedsFactsError naming it."""

import itertools

import pytest

from hlayout import Kernel, Layout, NeedsFactsError, OutOfDomainError, SymLayout

CASES = [
    # (text, assume): every symbol bounded, so every binding is enumerable.
    ("(4,N):(1,4)", {"N": {"max": 6}}),
    ("(N,4):(1,N)", {"N": {"max": 5}}),
    ("(N,(4,8)):(32,(8,1))", {"N": {"max": 4}}),
    ("(M,N):(N,1)", {"M": {"max": 4}, "N": {"max": 5}}),
    ("(M,N):(1,M)", {"M": {"max": 3}, "N": {"max": 4}}),
    ("(2,(N,3)):(3*N,(1,N))", {"N": {"max": 4}}),
    ("((2,N),3):((1,6),2)", {"N": {"min": 2, "max": 3}}),
    ("(N,2):(2,N*2)", {"N": {"divisible_by": 2, "max": 8}}),
    ("(3,(N,M)):(M*N,(M,1))", {"N": {"max": 3}, "M": {"max": 2}}),
    ("(N,4):(0,1)", {"N": {"max": 3}}),
    ("8:N", {"N": {"min": 0, "max": 3}}),
]


def bindings(layout):
    """Every combination of (least, middle, greatest) allowed value per symbol."""
    per = []
    for name in layout.symbols:
        a = layout.assumptions[name]
        lo, hi, d = a["min"], a["max"], a["divisible_by"]
        allowed = [v for v in range(lo, hi + 1) if v % d == 0]
        per.append(sorted({allowed[0], allowed[len(allowed) // 2], allowed[-1]}))
    for values in itertools.product(*per):
        yield dict(zip(layout.symbols, values))


def mode_sizes(concrete):
    if isinstance(concrete.shape, int):
        return [concrete.size]
    return [Layout(s, d).size for s, d in zip(concrete.shape, concrete.stride)]


@pytest.mark.parametrize("text,assume", CASES)
def test_linear_kernel_is_the_bound_layout(text, assume):
    s = SymLayout(text, assume=assume)
    k = s.kernel()
    assert isinstance(k, Kernel)
    names = [n for n, _ in k.vars]
    assert names[0] == "i" and set(names[1:]) <= set(s.symbols)
    index, valid = k.render("python")
    assert (index, valid) == s.expr("python")
    for at in bindings(s):
        concrete = s.bind(**at)
        for i in range(concrete.size):
            env = dict(at, i=i)
            assert eval(index, {}, env) == concrete(i), (text, at, i, index)
            assert eval(valid, {}, env) is True
            assert k(i, *[at[n] for n in names[1:]]) == (concrete(i), True)


@pytest.mark.parametrize("text,assume", CASES)
def test_coords_kernel_is_the_bound_layout(text, assume):
    s = SymLayout(text, assume=assume)
    k = s.kernel("coords")
    names = [n for n, _ in k.vars]
    index, _ = k.render("python")
    for at in bindings(s):
        concrete = s.bind(**at)
        sizes = mode_sizes(concrete)
        assert names[: len(sizes)] == [f"i{m}" for m in range(len(sizes))]
        for crd in itertools.product(*[range(n) for n in sizes]):
            env = dict(at, **{f"i{m}": c for m, c in enumerate(crd)})
            want = concrete(*crd) if len(crd) > 1 else concrete(crd[0])
            assert eval(index, {}, env) == want, (text, at, crd, index)
            syms = [at[n] for n in names[len(sizes) :]]
            assert k(*crd, *syms) == (want, True)


def test_expr_mirrors_layout_expr():
    s = SymLayout("(4,N):(1,4)", assume={"N": {"max": 4096}})
    assert s.expr() == ("i * 4 - i / N * (4 * N - 1)", "1")
    assert s.expr("cuda") == s.expr("c")
    assert s.expr(lang="rust", input="coords") == ("i0 + i1 * 4", "true")
    # With no symbol left, the text is the concrete layout's.
    c = SymLayout("(4,6):(1,4)")
    assert c.expr() == Layout("(4,6):(1,4)").expr()
    assert c.kernel().render("python") == Layout("(4,6):(1,4)").kernel().render("python")


def test_kernel_repr_and_div_count():
    s = SymLayout("(4,N):(1,4)", assume={"N": {"max": 8}})
    k = s.kernel()
    assert repr(k) == repr(s) + ".kernel('linear')"
    assert k.div_mod_count == 1
    assert k == s.kernel() and k != s.kernel("coords")
    assert k._repr_svg_() is None
    assert [n for n, _ in k.vars] == ["i", "N"] and k.vars[1][1] == 9


def test_call_checks_the_point_and_the_binding():
    k = SymLayout("(4,N):(1,4)", assume={"N": {"max": 8}}).kernel()
    with pytest.raises(OutOfDomainError):
        k(12, 3)  # outside 4*N at N = 3
    with pytest.raises(OutOfDomainError):
        k(0, 9)  # N above its max
    with pytest.raises(OutOfDomainError):
        k(0)  # the symbol's value is missing


def test_a_missing_fact_is_named():
    with pytest.raises(NeedsFactsError) as e:
        SymLayout("(M,N):(1,M)").kernel()
    assert e.value.needs and all("<=" in f for f in e.value.needs)
    with pytest.raises(NeedsFactsError):
        SymLayout("(M,N):(1,M)").expr("c")


def test_bad_options_raise_value_error():
    s = SymLayout("(4,N):(1,4)", assume={"N": {"max": 8}})
    with pytest.raises(ValueError):
        s.kernel("rows")
    with pytest.raises(ValueError):
        s.expr("fortran")
