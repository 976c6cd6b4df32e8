"""hlayout.SymLayout: every answer over symbols, bound to several allowed
values (the extremes included), is the concrete answer as a function; a
refusal raises NeedsFactsError naming the facts."""

import pytest

import hlayout
from hlayout import Layout, NeedsFactsError, SymLayout


def same_function(x, y):
    assert x.size == y.size, (x, y)
    n = x.size
    idx = range(n) if n <= 4096 else list(range(2048)) + list(range(n - 2048, n))
    return all(x(i) == y(i) for i in idx)


CASES = [
    # (text, assume, bindings)
    ("(N,(4,8)):(32,(8,1))", {"N": {"max": 4096}}, [1, 2, 3, 7, 4096]),
    ("(N,4):(1,N)", None, [1, 2, 5]),
    ("(4,N):(N,1)", {"N": {"divisible_by": 4, "max": 1024}}, [4, 8, 1024]),
]


@pytest.mark.parametrize("text,assume,ns", CASES)
def test_coalesce_is_the_concrete_coalesce(text, assume, ns):
    s = SymLayout(text, assume=assume)
    c = s.coalesce()
    for n in ns:
        assert same_function(c.bind(N=n), s.bind(N=n).coalesce())
        assert same_function(c.bind(N=n), s.bind(N=n))


def test_compose_divide_product_complement_at_bindings():
    a = SymLayout("(M,K):(K,1)", assume={"M": {"divisible_by": 128, "max": 1024}, "K": {"max": 64}})
    tile = SymLayout("(128,K):(K,1)", assume={"K": {"max": 64}})
    r = a.compose(tile)
    for m, k in [(128, 1), (256, 3), (1024, 64)]:
        want = a.bind(M=m, K=k).compose(tile.bind(K=k))
        assert same_function(r.bind(M=m, K=k), want)
    row = SymLayout("64*T:1", assume={"T": {"max": 100}})
    d = row.logical_divide(Layout("64:1"))
    for t in [1, 2, 100]:
        assert same_function(d.bind(T=t), row.bind(T=t).logical_divide(Layout("64:1")))
    n = SymLayout("N:1", assume={"N": {"min": 2, "max": 500}})
    p = n.logical_product(Layout("3:2"))
    for v in [2, 3, 500]:
        assert same_function(p.bind(N=v), n.bind(N=v).logical_product(Layout("3:2")))
    t = SymLayout("(4,8):(8*K,1)", assume={"K": {"max": 1000}})
    for c, cotarget in [(t.complement("32*K"), lambda k: 32 * k),
                        (t.complement(), lambda k: t.bind(K=k).cosize)]:
        for k in [1, 2, 1000]:
            assert same_function(c.bind(K=k), t.bind(K=k).complement(cotarget(k)))


def test_refusal_names_the_facts():
    t = SymLayout("(4,N):(1,4)")
    with pytest.raises(NeedsFactsError) as e:
        t.compose(Layout("4:1"))
    assert e.value.needs == ["N >= 4"]
    assert e.value.op == "compose"
    assert isinstance(e.value, hlayout.HlayoutError) and isinstance(e.value, ValueError)
    # Below 4 the concrete answers are not 4:4: no single answer for every N.
    four = Layout("4:4")
    for n in range(1, 4):
        try:
            got = t.bind(N=n).compose(Layout("4:1"))
        except hlayout.HlayoutError:
            continue
        assert not same_function(got, four)
    ok = SymLayout("(4,N):(1,4)", assume={"N": {"min": 4}}).compose(Layout("4:1"))
    assert str(ok) == "4:4"
    with pytest.raises(NeedsFactsError) as e:
        SymLayout("N:1", assume={"N": {"divisible_by": 4}}).logical_divide(Layout("4:1"))
    assert e.value.needs == []
    with pytest.raises(NeedsFactsError) as e:
        SymLayout("(N,M,K):(1,1,1)")
    assert e.value.needs == ["N*M*K <= 9223372036854775807"]


def test_bind_checks_the_assumptions():
    s = SymLayout("(N,4):(1,N)", assume={"N": {"divisible_by": 4}, "M": {"max": 3}})
    assert s.bind(N=8) == Layout("(8,4):(1,8)")
    with pytest.raises(hlayout.OutOfDomainError):
        s.bind(N=6)
    with pytest.raises(hlayout.OutOfDomainError):
        s.bind()
    with pytest.raises(hlayout.OutOfDomainError):
        s.bind(N=4, Q=1)
    with pytest.raises(TypeError):
        s.bind(N="4")


def test_assume_is_strict():
    with pytest.raises(ValueError, match="unknown key 'step'"):
        SymLayout("N:1", assume={"N": {"step": 2}})
    with pytest.raises(TypeError, match="expected an int"):
        SymLayout("N:1", assume={"N": {"min": "1"}})
    with pytest.raises(hlayout.OutOfDomainError):
        SymLayout("N:1", assume={"N": {"min": 9, "max": 3}})
    with pytest.raises(TypeError, match="argument 'assume'"):
        SymLayout("N:1", assume="N")
    with pytest.raises(hlayout.ParseError):
        SymLayout("(int,4):(4,1)")
    with pytest.raises(ValueError, match="assumed differently"):
        SymLayout("N:1", assume={"N": {"min": 2}}).compose(SymLayout("N:1"))


def test_accessors_and_repr():
    s = SymLayout("(B,S,128):(128*S,128,1)", assume={"S": {"max": 4096}, "B": {"max": 64}})
    assert s.symbols == ["S", "B"]
    assert s.shape_leaves == ("B", "S", 128)
    assert s.stride_leaves == ("128*S", 128, 1)
    assert s.size == "128*S*B" or s.size == "128*B*S"
    assert s.assumptions["S"] == {"min": 1, "max": 4096, "divisible_by": 1}
    assert eval(repr(s), {"SymLayout": SymLayout}) == s
    assert hash(eval(repr(s), {"SymLayout": SymLayout})) == hash(s)
    c = SymLayout("(2,3):(3,1)")
    assert c.is_concrete and not s.is_concrete and c.size == 6


def test_tinygrad_variables_as_symbols():
    tg = pytest.importorskip("tinygrad")
    v = tg.Variable("start_pos", 1, 8)
    for assume in ([v], {"start_pos": v}):
        s = SymLayout("(start_pos,4):(4,1)", assume=assume)
        assert s.assumptions["start_pos"] == {"min": 1, "max": 8, "divisible_by": 1}
        with pytest.raises(hlayout.OutOfDomainError):
            s.bind(start_pos=9)
        assert str(s.coalesce()) == "4*start_pos:1"


@pytest.mark.parametrize("op", ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
def test_by_mode_tilers_at_bindings(op):
    # One tiler per trailing mode, as the concrete Tiler forms; a single tiler too.
    a = SymLayout("(128*Mt,32*Kt):(32*Kt,1)", assume={"Mt": {"max": 8}, "Kt": {"max": 16}})
    tilers = [[Layout("128:1"), Layout("32:1")], [SymLayout("32:1")], Layout("64:1")]
    for t in tilers:
        r = getattr(a, op)(t)
        for mt, kt in [(1, 1), (2, 3), (8, 16)]:
            ct = [x.bind() if isinstance(x, SymLayout) else x for x in t] if isinstance(t, list) else t
            want = getattr(a.bind(Mt=mt, Kt=kt), op)(ct)
            assert same_function(r.bind(Mt=mt, Kt=kt), want), (op, t)
    with pytest.raises(TypeError, match="argument 'tiler'"):
        getattr(a, op)("32:1")


def test_products_by_mode_at_bindings():
    a = SymLayout("(2,4*T):(4*T,1)", assume={"T": {"max": 50}})
    for t in ([Layout("2:1")], Layout("2:1"), [SymLayout("3:2")]):
        r = a.logical_product(t)
        for v in (1, 2, 50):
            ct = [x.bind() if isinstance(x, SymLayout) else x for x in t] if isinstance(t, list) else t
            assert same_function(r.bind(T=v), a.bind(T=v).logical_product(ct)), t
    with pytest.raises(NeedsFactsError) as e:
        SymLayout("N:1").logical_product([Layout("3:2")])
    assert e.value.needs == ["N >= 2"]
