"""Versioned kernels over symbols (`kernel(..., versions=True)`): at the least,
a middle and the greatest allowed value of each symbol, the guarded kernel of a
symbolic chain or layout equals the concrete chain or layout at every element
(through the interpreter and as Python text), and without the flag the kernel
is the single text, as before."""

import itertools

import pytest

from hlayout import SymLayout, ViewStack

from test_symview import CHAINS, bindings, build, concrete_arg


def concrete_chain(shape, ops, at):
    from test_symview import value
    c = ViewStack([value(x, at) for x in shape])
    for name, arg in ops:
        c = getattr(c, name)(concrete_arg(name, arg, at))
    return c


@pytest.mark.parametrize("shape,assume,ops", CHAINS)
def test_versioned_chain_kernel_is_the_concrete_chain(shape, assume, ops):
    s = build(shape, assume, ops)
    k = s.kernel(versions=True)
    index, valid = k.render("python")
    names = [n for n, _ in k.vars]
    rank = len(shape_of(s))
    for at in bindings(s):
        c = concrete_chain(shape, ops, at)
        symbols = [at[n] for n in names[rank:]]
        for crd in itertools.product(*[range(n) for n in c.shape]):
            want = c(*crd)
            got = k(*crd, *symbols)
            assert got[1] == (want is not None), (crd, at)
            env = dict(zip(names, list(crd) + symbols))
            assert eval(valid, {}, env) == (want is not None), (crd, at)
            if want is not None:
                assert got[0] == want and eval(index, {}, env) == want, (crd, at)


def shape_of(s):
    return s.bind(**next(iter(bindings(s)))).shape


@pytest.mark.parametrize("text,assume", [
    ("(4,N):(1,4)", {"N": {"max": 9}}),
    ("(N,4):(1,N)", {"N": {"min": 1, "max": 7}}),
    ("(M,N):(1,M)", {"M": {"max": 5}, "N": {"max": 6}}),
    ("(N,N+1):(M+1,1)", {"M": {"max": 4}, "N": {"max": 4}}),
])
def test_versioned_layout_kernel_is_the_concrete_layout(text, assume):
    s = SymLayout(text, assume=assume)
    k = s.kernel(versions=True)
    assert k.div_mod_count >= s.kernel().div_mod_count
    names = [n for n, _ in k.vars]
    for at in bindings(s):
        layout = s.bind(**at)
        symbols = [at[n] for n in names[1:]]
        for i in range(layout.size):
            assert k(i, *symbols) == (layout(i), True), (i, at)


def test_without_the_flag_the_single_text():
    s = SymLayout("(4,N):(1,4)", assume={"N": {"max": 64}})
    assert s.expr() == ("i * 4 - i / N * (4 * N - 1)", "1")
    assert s.expr(versions=True) == ("N == 1 ? i : i * 4 - i / N * (4 * N - 1)", "1")
    assert "versions=True" in repr(s.kernel(versions=True))
