"""hlayout.SymViewStack: a chain of movement ops over symbols, bound to the
least, a middle and the greatest allowed value of each symbol, is the same
chain of concrete ops on a ViewStack at every element (offset and validity);
an op that does not hold at every binding raises, naming the fact."""

import itertools
import json

import pytest

from hlayout import (BadMovementError, HlayoutError, NeedsFactsError, OutOfDomainError, SymViewStack,
                     ViewStack)

NAMES = {"SymViewStack": SymViewStack, "ViewStack": ViewStack}

CHAINS = [
    # (shape, assume, ops): ops as (name, argument), numbers ints or polynomial text.
    (["N", 4], {"N": {"max": 6}}, [("permute", [1, 0]), ("reshape", ["2*N", 2])]),
    (["N", 6], {"N": {"max": 5}}, [("shrink", [(0, "N"), (1, 5)]), ("permute", [1, 0])]),
    ([64, 8], {"sp": {"min": 0, "max": 63}}, [("shrink", [(0, "sp+1"), (0, 8)]), ("reshape", ["sp+1", 2, 4])]),
    (["N"], {"N": {"max": 4}, "P": {"min": 0, "max": 3}}, [("pad", [(1, "P")]), ("flip", [True])]),
    ([1, "N"], {"N": {"max": 4}, "B": {"max": 3}}, [("expand", ["B", "N"]), ("permute", [1, 0])]),
    (["N", 3], {"N": {"min": 2, "max": 5}}, [("flip", [True, False]), ("shrink", [(1, "N"), (0, 3)])]),
    (["4*N"], {"N": {"max": 4}}, [("reshape", ["N", 4]), ("permute", [1, 0]), ("reshape", ["4*N"])]),
    (["N", 2], {"N": {"max": 4}}, [("pad", [(2, 1), (0, 0)]), ("shrink", [(1, "N+2"), (0, 2)])]),
    (["M", "N"], {"M": {"max": 3}, "N": {"max": 3}},
     [("permute", [1, 0]), ("pad", [(0, 1), ("M", 0)]), ("flip", [False, True]), ("reshape", ["N+1", 2, "M"])]),
    (["4*M"], {"M": {"max": 3}}, [("reshape", ["M", 2, 2]), ("permute", [2, 1, 0]), ("flip", [True, False, True])]),
    (["N", 4], {"N": {"divisible_by": 2, "max": 8}},
     [("reshape", ["2*N", 2]), ("shrink", [(0, "N"), (0, 2)]), ("pad", [(0, "N"), (1, 1)])]),
]


def bindings(s):
    """Every combination of (least, middle, greatest) allowed value per symbol."""
    per = []
    for name in s.symbols:
        a = s.assumptions[name]
        allowed = [v for v in range(a["min"], a["max"] + 1) if v % a["divisible_by"] == 0]
        per.append(sorted({allowed[0], allowed[len(allowed) // 2], allowed[-1]}))
    for values in itertools.product(*per):
        yield dict(zip(s.symbols, values))


def value(x, at):
    return x if isinstance(x, (int, bool)) else eval(x, {}, dict(at))


def concrete_arg(name, arg, at):
    if name in ("pad", "shrink"):
        return [(value(a, at), value(b, at)) for a, b in arg]
    if name in ("reshape", "expand"):
        return [value(x, at) for x in arg]
    return arg


def build(shape, assume, ops, via_apply=False):
    s = SymViewStack(shape, assume=assume)
    for name, arg in ops:
        if via_apply:
            s = s.apply(json.dumps([name, [list(a) if isinstance(a, tuple) else a for a in arg]]))
        else:
            s = getattr(s, name)(arg)
    return s


def same_everywhere(bound, concrete):
    assert bound.shape == concrete.shape
    for crd in itertools.product(*[range(n) for n in concrete.shape]):
        assert bound(*crd) == concrete(*crd), crd
    return True


@pytest.mark.parametrize("via_apply", [False, True])
@pytest.mark.parametrize("shape,assume,ops", CHAINS)
def test_bound_chain_is_the_concrete_chain(shape, assume, ops, via_apply):
    s = build(shape, assume, ops, via_apply)
    checked = 0
    for at in bindings(s):
        c = ViewStack([value(x, at) for x in shape])
        for name, arg in ops:
            c = getattr(c, name)(concrete_arg(name, arg, at))
        b = s.bind(**at)
        assert isinstance(b, ViewStack)
        assert same_everywhere(b, c), (repr(s), at)
        assert tuple(value(x, at) for x in s.shape) == c.shape
        assert b == eval(repr(b), NAMES)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("shape,assume,ops", CHAINS)
def test_every_prefix_is_exact_and_reprs_replay(shape, assume, ops):
    for k in range(len(ops) + 1):
        s = build(shape, assume, ops[:k])
        back = eval(repr(s), NAMES)
        assert back == s and str(back) == str(s) and hash(back) == hash(s)
        assert " | ".join(s.views) == str(s) and len(s) == len(s.views)
        assert s.is_contiguous == (k == 0 or str(s) == str(SymViewStack(list(s.shape), assume=assume)))
        for at in bindings(s):
            c = ViewStack([value(x, at) for x in shape])
            for name, arg in ops[:k]:
                c = getattr(c, name)(concrete_arg(name, arg, at))
            same_everywhere(s.bind(**at), c)


def test_kv_cache_shrink_is_one_view():
    s = SymViewStack([64, 8], assume={"sp": {"min": 0, "max": 63}}).shrink([(0, "sp+1"), (0, 8)])
    assert s.shape == ("sp+1", 8) and len(s) == 1
    assert s.symbols == ["sp"] and s.assumptions["sp"] == {"min": 0, "max": 63, "divisible_by": 1}


def test_symbols_from_tinygrad_variables():
    class Variable:  # the attributes SymLayout reads from a tinygrad Variable
        def __init__(self, name, vmin, vmax):
            self.expr, self.vmin, self.vmax = name, vmin, vmax

    s = SymViewStack(["N", 4], assume=[Variable("N", 1, 8)]).permute([1, 0])
    assert s.assumptions == {"N": {"min": 1, "max": 8, "divisible_by": 1}}
    same_everywhere(s.bind(N=8), ViewStack([8, 4]).permute([1, 0]))


def test_a_fact_not_proved_is_named():
    with pytest.raises(NeedsFactsError) as e:
        SymViewStack([8, "N"]).shrink([(0, 8), (1, "N")])
    assert e.value.needs == ["N >= 2"]
    with pytest.raises(NeedsFactsError) as e:
        SymViewStack(["N-1"])
    assert e.value.needs == ["N >= 2"]
    with pytest.raises(NeedsFactsError):
        SymViewStack([64]).apply('["shrink", [[0, "sp+1"]]]')  # sp may pass 63


def test_a_refuted_op_is_the_concrete_error():
    with pytest.raises(HlayoutError) as e:
        SymViewStack(["x", 4]).reshape(["x", 5])  # 4*x != 5*x at every x
    assert str(e.value).startswith("reshape")
    with pytest.raises(BadMovementError):
        SymViewStack(["N", 4]).permute([0, 0])
    with pytest.raises(BadMovementError):
        SymViewStack(["N", 4]).flip([True])


def test_bind_checks_the_values():
    s = SymViewStack(["N", 4], assume={"N": {"max": 8}, "M": {"min": 2, "max": 3}})
    with pytest.raises(OutOfDomainError):
        s.bind(N=9)
    with pytest.raises(OutOfDomainError):
        s.bind()
    with pytest.raises(OutOfDomainError):
        s.bind(N=2, K=1)
    with pytest.raises(TypeError):
        s.bind(N="2")
    # M is only assumed, never used: it takes its least value.
    assert s.bind(N=2).shape == (2, 4)


def test_bad_arguments_are_type_errors():
    s = SymViewStack(["N", 4])
    for call in (lambda: SymViewStack("N"), lambda: s.reshape("N"), lambda: s.pad([(1, 2, 3), (0, 0)]),
                 lambda: s.shrink(["ab"]), lambda: s.expand([1.5, 4]), lambda: SymViewStack([4], assume="N")):
        with pytest.raises((TypeError, ValueError)):
            call()


def test_real_tinygrad_variables():
    tg = pytest.importorskip("tinygrad")
    v = tg.Variable("start_pos", 1, 8)
    for assume in ([v], {"start_pos": v}):
        s = SymViewStack([8, 4], assume=assume).shrink([(0, "start_pos"), (0, 4)])
        assert s.assumptions["start_pos"] == {"min": 1, "max": 8, "divisible_by": 1}
        for n in (1, 4, 8):
            same_everywhere(s.bind(start_pos=n), ViewStack([8, 4]).shrink([(0, n), (0, 4)]))
        with pytest.raises(OutOfDomainError):
            s.bind(start_pos=9)


@pytest.mark.parametrize("input", ["coords", "linear"])
@pytest.mark.parametrize("shape,assume,ops", CHAINS)
def test_kernel_is_the_concrete_chain_at_every_element(shape, assume, ops, input):
    s = build(shape, assume, ops)
    k = s.kernel(input)
    names = [n for n, _ in k.vars]
    index, valid = k.render("python")
    assert (index, valid) == s.expr("python", input)
    rank = len(s.shape) if input == "coords" else 1
    for at in bindings(s):
        c = ViewStack([value(x, at) for x in shape])
        for name, arg in ops:
            c = getattr(c, name)(concrete_arg(name, arg, at))
        syms = [at[n] for n in names[rank:]]
        for r, crd in enumerate(itertools.product(*[range(n) for n in c.shape])):
            want = c(*crd)
            point = crd if input == "coords" else (r,)
            env = dict(at, **({f"i{m}": x for m, x in enumerate(point)} if input == "coords" else {"i": r}))
            assert eval(valid, {}, env) == (want is not None), (repr(s), at, crd)
            if want is not None:
                assert eval(index, {}, env) == want, (repr(s), at, crd, index)
            got = k(*point, *syms)
            assert got[1] == (want is not None) and (want is None or got[0] == want)


def test_kernel_refusal_and_repr():
    s = SymViewStack(["N", "M"]).permute([1, 0]).reshape(["N*M"])  # N*M*M may pass 2**63
    with pytest.raises(NeedsFactsError) as e:
        s.kernel()
    assert e.value.needs and all("<=" in f for f in e.value.needs)
    bounded = SymViewStack(["N", "M"], assume={"N": {"max": 4}, "M": {"max": 4}})
    assert bounded.permute([1, 0]).reshape(["N*M"]).expr()[1] == "1"
    t = SymViewStack(["N", 4], assume={"N": {"max": 8}}).flip([True, False])
    assert repr(t.kernel("linear")) == repr(t) + ".kernel('linear')"
    assert t.expr() == t.expr("cuda") and t.kernel()._repr_svg_() is None
