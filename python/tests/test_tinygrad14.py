"""hlayout.tinygrad against tinygrad 0.14.0 (skipped with any other tinygrad):
every reference chain realised on the CPU device with the plug-in gives the
brute-force offsets, with never more divisions and modulos than stock
tinygrad in the kernel's index; models train the same; the loop-nest hint
is exact."""

import itertools
import math
import os

import pytest

tinygrad = pytest.importorskip("tinygrad")
from importlib.metadata import version  # noqa: E402

if version("tinygrad") != "0.14.0":
    pytest.skip("tinygrad 0.14.0 is not the installed tinygrad", allow_module_level=True)
os.environ.setdefault("DEV", "CPU")

import numpy as np  # noqa: E402

import hlayout  # noqa: E402
import hlayout.tinygrad as plugin  # noqa: E402
from hlayout.tinygrad import _v0_14 as v14  # noqa: E402
from refdata import load  # noqa: E402
from tinygrad import Tensor, dtypes  # noqa: E402
from tinygrad.uop.ops import Ops, graph_rewrite  # noqa: E402
from tinygrad.uop.symbolic import sym  # noqa: E402

CHAINS = load("tinygrad_chains.json")


class plugin_state:
    """``with plugin_state(True):`` runs with the plug-in, ``False`` without,
    restoring the state found."""

    def __init__(self, on):
        self.on = on

    def __enter__(self):
        self.was = plugin.installed()
        (plugin.install if self.on else plugin.uninstall)()

    def __exit__(self, *exc):
        (plugin.install if self.was else plugin.uninstall)()


def build(shape, ops, data=None):
    t = Tensor.empty(*shape, dtype=dtypes.float32) if data is None else Tensor(data)
    for op, arg in ops:
        if op in ("pad", "shrink"):
            t = getattr(t, op)(tuple(tuple(x) for x in arg))
        elif op == "flip":
            axes = tuple(i for i, f in enumerate(arg) if f)
            if axes:
                t = t.flip(axes)
        else:
            t = getattr(t, op)(tuple(arg))
    return t


def divmods_of(shape, ops):
    """Distinct FLOORDIV/FLOORMOD UOps in the kernels' index expressions (the
    AST through tinygrad's ``sym``), summed over the kernels. tinygrad's
    schedule cache is cleared first, so a chain scheduled with the plug-in
    (or without) before does not hand its kernels on."""
    import tinygrad.schedule as sch

    sch.schedule_cache.clear()
    lin = build(shape, ops).contiguous().schedule_linear()
    n = 0
    for call in lin.src:
        ast = call.src[0]
        if ast.op is Ops.SINK:
            s = graph_rewrite(ast, sym)
            n += sum(u.op in (Ops.FLOORDIV, Ops.FLOORMOD) for u in s.toposort())
    return n


@pytest.mark.parametrize("case", CHAINS, ids=lambda c: c["id"])
def test_chain_realises_exactly_with_no_more_divisions(case):
    req, exp = case["request"], case["expect"]
    shape, ops = req["shape"], req["ops"]
    with plugin_state(False):
        stock = divmods_of(shape, ops)
    with plugin_state(True):
        ours = divmods_of(shape, ops)
        data = np.arange(1, math.prod(shape) + 1, dtype=np.float32).reshape(shape)  # no 0: padding shows
        got = build(shape, ops, data).contiguous().numpy()
    assert ours <= stock, f"hlayout {ours} divisions and modulos, stock {stock}"
    offs = np.array(exp["offsets"]).reshape(exp["final_shape"])
    want = np.where(offs < 0, 0, data.reshape(-1)[np.maximum(offs, 0)])
    assert got.shape == tuple(exp["final_shape"])
    np.testing.assert_array_equal(got, want)


def test_one_chain_reaches_hlayout_whole():
    # A flattened transpose, padded, flipped and reshaped: with the plug-in
    # the buffer index has one division (hlayout's kernel of the one view).
    shape, ops = [4, 6], [["permute", [1, 0]], ["reshape", [24]], ["pad", [[1, 1]]],
                          ["flip", [True]], ["reshape", [2, 13]]]
    with plugin_state(True):
        assert divmods_of(shape, ops) <= 2
    s = hlayout.ViewStack([4, 6]).permute([1, 0]).reshape([24]).pad([(1, 1)]).flip([True])
    assert s.reshape([2, 13]).kernel().div_mod_count <= 2


def test_chain_ops_translate_tinygrad_arguments():
    assert v14.chain_ops("SHRINK", (5, 10), ((1, 3), (1, 8))) == (
        (3, 8), (("shrink", ((1, 4), (1, 9))),))
    assert v14.chain_ops("PERMUTE", (2, 3, 4), (2, 0, 1)) == ((4, 2, 3), (("permute", (2, 0, 1)),))
    assert v14.chain_ops("FLIP", (2, 3), (False, True)) == ((2, 3), (("flip", (False, True)),))
    assert v14.chain_ops("RESHAPE", (6,), (2, 3)) == ((2, 3), (("reshape", (2, 3)),))
    from tinygrad.uop.ops import UOp

    n = UOp.variable("n", 1, 10)
    assert v14.chain_ops("RESHAPE", (6,), (n, 3)) is None  # symbolic: tinygrad's own code


def test_symbolic_shapes_fall_back_to_tinygrad():
    from tinygrad.uop.ops import UOp

    n = UOp.variable("n", 1, 8)
    a = np.arange(8 * 3, dtype=np.float32).reshape(8, 3)
    with plugin_state(True):
        got = (Tensor(a)[:n.bind(5)].permute(1, 0) * 2).contiguous()[:, :5].numpy()
    np.testing.assert_array_equal(got, a[:5].T * 2)


def _conv_net(x, ws):
    h = x.conv2d(ws[0], padding=1).relu()
    h = h.max_pool2d(2)
    h = h.conv2d(ws[1], padding=1, stride=1).relu()
    h = h.avg_pool2d(2)
    return h.flatten(1).matmul(ws[2])


def _transformer_block(x, ws):
    b, t, d = x.shape
    heads = 2
    q, k, v = [(x.matmul(w)).reshape(b, t, heads, d // heads).transpose(1, 2) for w in ws[:3]]
    att = (q.matmul(k.transpose(-2, -1)) / math.sqrt(d // heads))
    mask = Tensor.ones(t, t).tril().reshape(1, 1, t, t)
    att = (att + (1 - mask) * -1e9).softmax(-1)
    y = att.matmul(v).transpose(1, 2).reshape(b, t, d)
    x = x + y.matmul(ws[3])
    x = x.layernorm()
    h = x.matmul(ws[4]).gelu().matmul(ws[5])
    return (x + h).layernorm()


def _run_model(model, x_shape, w_shapes, seed):
    rng = np.random.default_rng(seed)
    x = Tensor(rng.standard_normal(x_shape).astype(np.float32))
    ws = [Tensor(rng.standard_normal(s).astype(np.float32) * 0.2) for s in w_shapes]
    out = model(x, ws)
    loss = (out * out).mean()
    grads = loss.gradient(*ws)
    return [out.numpy(), loss.numpy()] + [g.numpy() for g in grads]


@pytest.mark.parametrize("name", ["conv_net", "transformer_block"])
def test_models_forward_and_backward_equal_stock(name):
    if name == "conv_net":
        args = (_conv_net, (2, 3, 8, 8), [(4, 3, 3, 3), (6, 4, 3, 3), (6 * 2 * 2, 5)], 0)
    else:
        args = (_transformer_block, (2, 6, 8), [(8, 8)] * 4 + [(8, 16), (16, 8)], 1)
    with plugin_state(False):
        stock = _run_model(*args)
    with plugin_state(True):
        ours = _run_model(*args)
    for a, b in zip(stock, ours):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_install_patches_every_importer_and_uninstall_restores():
    import tinygrad.codegen as cg
    import tinygrad.schedule.indexing as ix
    import tinygrad.schedule.rangeify as rf

    with plugin_state(False):
        fn, split = ix.apply_movement_op, cg.pm_split_ranges
        assert rf.apply_movement_op is fn
        plugin.install()
        assert plugin.installed()
        assert ix.apply_movement_op is rf.apply_movement_op is not fn
        assert cg.pm_split_ranges is not split
        plugin.install()  # idempotent
        plugin.uninstall()
        assert ix.apply_movement_op is fn and rf.apply_movement_op is fn
        assert cg.pm_split_ranges is split
        assert not plugin.installed()


def test_uninstall_reaches_modules_imported_while_installed():
    # A module that imports apply_movement_op while the plug-in is installed
    # holds the patched function: uninstall restores it there too, and a
    # reference kept elsewhere falls back to tinygrad's own function.
    import sys
    import types

    import tinygrad.schedule.indexing as ix

    with plugin_state(False):
        fn = ix.apply_movement_op
        plugin.install()
        late = types.ModuleType("hlayout_test_late_importer")
        late.apply_movement_op = ix.apply_movement_op
        kept = ix.apply_movement_op
        sys.modules[late.__name__] = late
        try:
            plugin.uninstall()
            assert late.apply_movement_op is fn
        finally:
            del sys.modules[late.__name__]
        x = Tensor.arange(12).reshape(3, 4).contiguous().realize()
        t = x.permute(1, 0).reshape(12)
        assert t.tolist() == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
        ix.apply_movement_op = lambda *args: ("tinygrad's", args)
        try:  # the kept reference now calls whatever tinygrad's module holds
            assert kept("op", (4,), (2, 2), ()) == ("tinygrad's", ("op", (4,), (2, 2), ()))
        finally:
            ix.apply_movement_op = fn


def test_install_refuses_another_tinygrad(monkeypatch):
    # The version is faked only inside: leaving plugin_state may reinstall.
    with plugin_state(False), monkeypatch.context() as mp:
        mp.setattr(plugin, "_tinygrad_version", lambda: "0.13.0")
        with pytest.raises(RuntimeError, match="0.13.0"):
            plugin.install()
        assert not plugin.installed()
        plugin.install(force=True)  # 0.14's layout: no tinygrad.shape
        assert plugin.installed() and plugin._ACTIVE[0] is v14
        plugin.uninstall()


def test_loop_nest_of_a_chain_is_affine_at_every_point():
    ops = [("permute", (1, 0)), ("reshape", (24,))]
    n = plugin.loop_nest_of((4, 6), ops)
    s = hlayout.ViewStack([4, 6]).permute([1, 0]).reshape([24])
    strides, offset, cons = n.access(0)
    assert cons == []
    exts = [e for _, e, _ in n.loops]
    for i, p in enumerate(itertools.product(*[range(e) for e in exts])):
        assert n.coords(*p) == [i]
        assert n(0, *p) == s(i) == offset + sum(a * b for a, b in zip(strides, p))
    with pytest.raises(hlayout.PreconditionError):
        plugin.loop_nest_of((4, 6), ops + [("pad", ((1, 0),))])


def _at_every_point(*exprs):
    """The values of ``exprs`` (index UOps over ``RANGE``s of constant
    extent) at every point of their ranges, by substitution and tinygrad's
    constant folding."""
    from tinygrad.uop.ops import UOp

    ranges = sorted(UOp.sink(*exprs).ranges, key=lambda r: repr(r.arg))
    out = []
    for p in itertools.product(*(range(r.src[0].arg) for r in ranges)):
        sub = {r: UOp.const(v, r.dtype) for r, v in zip(ranges, p)}
        vals = [e.substitute(sub).simplify() for e in exprs]
        assert all(v.op is Ops.CONST for v in vals), vals
        out.append(tuple(v.arg for v in vals))
    return out


def _ops_in(u, *ops):
    return sum(x.op in ops for x in u.toposort())


@pytest.mark.parametrize("which", ["plain", "nested", "simplified", "checked"])
def test_share_quotients_writes_a_modulo_with_its_quotient(which):
    from tinygrad.uop.ops import UOp

    r0, r1 = UOp.range(20, 0), UOp.range(225, 1)
    if which == "plain":        # r1 % 5 next to r1 // 5
        q, m = r1 // 5, r1 % 5
    elif which == "nested":     # (r1 // 5) % 9 next to r1 // 45
        q, m = r1 // 45, (r1 // 5) % 9
    elif which == "simplified":  # (2·r0 + r1) % 4: its quotient (6·r0 + 3·r1) // 12 simplifies alike
        r1 = UOp.range(6, 1)
        q, m = (r0 * 6 + r1 * 3) // 12, (r0 * 2 + r1) % 4
    else:                       # equal only on these ranges: (2·r0 + r1//3) // 5 == (6·r0 + r1) // 15
        r1 = UOp.range(6, 1)
        q, m = (r0 * 6 + r1) // 15, (r0 * 2 + r1 // 3) % 5
    coords, valid = (q * 3 + r0,), m < 3
    new_coords, new_valid = v14._share_quotients(coords, valid, None)
    assert _ops_in(new_valid, Ops.FLOORMOD) == 0
    assert _ops_in(UOp.sink(*new_coords, new_valid), Ops.FLOORDIV, Ops.FLOORMOD) == \
        _ops_in(UOp.sink(*coords, valid), Ops.FLOORDIV)
    assert _at_every_point(*new_coords, new_valid) == _at_every_point(*coords, valid)


def test_share_quotients_leaves_an_unrelated_modulo():
    from tinygrad.uop.ops import UOp

    r0 = UOp.range(24, 0)
    coords, valid = (r0 // 4,), (r0 % 6) < 3
    assert v14._share_quotients(coords, valid, None) == (coords, valid)
    assert not v14._equal_quotient(r0, 6, r0 // 4)
    big = UOp.range(v14._MAX_POINTS + 1, 1)
    assert not v14._equal_quotient(big, 4, big // 4)  # too many points: not checked, not shared


def test_grouped_validity_keeps_its_value_and_groups_by_range():
    from tinygrad.uop.ops import UOp

    r0, r1, r2 = UOp.range(5, 0), UOp.range(4, 1), UOp.range(3, 2)
    clauses = [(r0 < 4), (r1 < 3), (r0 + r2 < 5), (r0 < 1).logical_not(), (r1 < 1).logical_not()]
    valid = clauses[0]
    for c in clauses[1:]:
        valid = valid & c
    g = v14._grouped(valid)
    assert _at_every_point(g) == _at_every_point(valid)
    # (r0 clauses & r1 clauses) & (r0, r2 clause): each group is one subtree
    assert g.op is Ops.AND and g.src[1] is clauses[2]
    left = g.src[0]
    assert left.op is Ops.AND
    assert set(left.src[0].split_uop(Ops.AND)) == {clauses[0], clauses[3]}
    assert set(left.src[1].split_uop(Ops.AND)) == {clauses[1], clauses[4]}
    assert v14._grouped(r0 < 4) is not None and v14._grouped((r0 < 4) & (r0 < 1).logical_not()) == \
        (r0 < 4) & (r0 < 1).logical_not()


@pytest.mark.parametrize("cid", ["chain/random_012", "chain/random_052", "chain/random_084",
                                 "chain/random_096"])
def test_kernel_needs_no_more_divisions_than_hlayouts_own(cid):
    # Chains whose coordinates each came from their own hlayout kernel, so
    # that a modulo sat next to its quotient: the plug-in's kernel needs what
    # hlayout's one kernel of the chain needs.
    req = next(c["request"] for c in CHAINS if c["id"] == cid)
    s = v14._stack(hlayout.Layout.row_major(tuple(req["shape"])),
                   tuple((o, tuple(map(tuple, a)) if o in ("pad", "shrink") else tuple(a))
                         for o, a in req["ops"]))
    with plugin_state(True):
        assert divmods_of(req["shape"], req["ops"]) <= s.kernel("coords").div_mod_count


def _divmod_cases(UOp, a, b):
    """Divisions and modulos of small sums over two loop variables."""
    for ca, cb, k, c in itertools.product((1, 2, 3, 6, 10, 15), (1, 2, 5), (0, 1, 3), (2, 4, 6, 12)):
        x = a * ca + b * cb + k if k else a * ca + b * cb
        yield x // c
        yield x % c


def test_divmod_split_declined_on_kernel_indices_only():
    from tinygrad.uop.divandmod import fold_divmod_general
    from tinygrad.uop.ops import UOp

    a, b = UOp.range(8, 0), UOp.range(10, 1)
    d = (a * 2 + b) // 4  # from (10·a + b) // 4 in chain random_058's index
    assert _ops_in(fold_divmod_general(d), Ops.FLOORDIV, Ops.FLOORMOD) == 2  # tinygrad's split
    va, vb = UOp.variable("a", 0, 7), UOp.variable("b", 0, 9)
    dv = (va * 2 + vb) // 4
    with plugin_state(False):  # stock's forms, whatever state an earlier test left
        stock_r, stock_v = d.simplify(), dv.simplify()
    with plugin_state(True):
        assert v14._fold_divmod_few(d) is None
        kept = d.simplify()
        assert _ops_in(kept, Ops.FLOORDIV, Ops.FLOORMOD) == 1
        assert all(x == y == z for x, y, z in _at_every_point(kept, d, stock_r))
        # over Variables (tinygrad's symbolic tests, symbolic shapes): the rule as it is
        assert dv.simplify() is stock_v
        assert v14._fold_divmod_few(dv) is fold_divmod_general(dv)
        # every answer it gives keeps the value and adds no division
        answered = declined = 0
        for e in _divmod_cases(UOp, a, b):
            got = v14._fold_divmod_few(e)
            declined += got is None and fold_divmod_general(e) is not None
            if got is not None:
                answered += 1
                names = {a: "v0", b: "v1"}  # both, at every point of (a, b)
                f = eval(f"lambda v0, v1: ({v14._python(got, names)}, {v14._python(e, names)})")
                assert len(names) == 2
                for p in itertools.product(range(8), range(10)):
                    x, y = f(*p)
                    assert x == y, (got.render(), e.render(), p)
                assert _ops_in(got, Ops.FLOORDIV, Ops.FLOORMOD) <= _ops_in(e, Ops.FLOORDIV, Ops.FLOORMOD)
        assert answered > 100 and declined > 10, (answered, declined)
    with plugin_state(False):
        assert d.simplify() is stock_r  # uninstall restores the rule


def test_install_reaches_rules_compiled_before_it():
    # pm_mops' rule (_mop_index) names apply_movement_op; a compiled rule
    # holds a copy of the globals it names, so install and uninstall
    # recompile it: each state reaches its own function, whichever ran first.
    import tinygrad.schedule.indexing as ix
    import tinygrad.schedule.rangeify as rf

    def seen():
        out = set()
        for entries in rf.pm_mops.pdict.values():
            for e in entries:
                if any(e[0] is p and f is rf._mop_index for p, f in rf.pm_mops.patterns):
                    g = getattr(e[1], "__globals__", {}).get("_fxn")
                    if g is not None:
                        out.add(g.__globals__["apply_movement_op"])
        return out

    for first in (False, True, False):
        with plugin_state(first):
            divmods_of((4, 6), [("permute", (1, 0)), ("reshape", (24,))])
        with plugin_state(True):
            assert seen() == {v14._ORIGINAL["patched"]}
        with plugin_state(False):
            assert seen() == {ix.apply_movement_op}


def test_chain_without_reshape_keeps_tinygrads_index():
    # No reshape: tinygrad's index is affine in the output's loops, and the
    # plug-in hands it on as it is (the same kernel as stock).
    import tinygrad.schedule as sch

    shape, ops = [4, 6], [["permute", [1, 0]], ["pad", [[1, 1], [0, 2]]], ["flip", [True, False]],
                          ["shrink", [[1, 5], [0, 3]]], ["expand", [2, 4, 3]]]
    asts = {}
    for on in (False, True):
        with plugin_state(on):
            sch.schedule_cache.clear()
            lin = build(shape, ops).contiguous().schedule_linear()
            ast, = (c.src[0] for c in lin.src if c.src[0].op is Ops.SINK)
            asts[on] = [u.src[1] for u in ast.toposort() if u.op is Ops.INDEX
                        and u.src[0].op is Ops.PARAM and u.src[0].arg.slot != 0]  # the read
    assert len(asts[True]) == 1 and asts[True] == asts[False]


def _hl_ops(shape, ops):
    """A reference chain as the plug-in hands it to hlayout: ``(in_shape,
    ops)`` with tinygrad 0.14's margs translated by ``chain_ops``."""
    out = []
    for op, arg in ops:
        if op == "flip":
            out.append(("flip", tuple(bool(f) for f in arg)))
        elif op in ("pad", "shrink"):
            out.append((op, tuple(tuple(p) for p in arg)))
        else:
            out.append((op, tuple(arg)))
    return tuple(shape), tuple(out)


@pytest.mark.parametrize("case", CHAINS[::4], ids=lambda c: c["id"])
def test_chain_kernels_give_each_input_coordinate_at_every_point(case):
    """``_chain_kernels`` (one call for every input coordinate): at every
    point of the final shape where the chain is valid, coordinate ``j`` of
    the input is what the chain's own ``ViewStack`` (over the row-major
    strides) says; an extent-1 dimension has no node (its coordinate is 0)."""
    shape, ops = _hl_ops(case["request"]["shape"], case["request"]["ops"])
    nodes, coords, valid = hlayout._hlayout._chain_kernels(shape, ops)
    stack = v14._stack(hlayout.Layout.row_major(shape), ops)
    final = stack.shape
    strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]

    def value(i, at):
        n = nodes[i]
        op = n[0]
        if op in ("const", "bool"):
            return n[1]
        if op == "var":
            return at[n[1]]
        if op in ("div", "mod"):
            a = value(n[1], at)
            return a // n[2] if op == "div" else a % n[2]
        if op == "not":
            return not value(n[1], at)
        if op == "select":
            return value(n[2], at) if value(n[1], at) else value(n[3], at)
        a, b = value(n[1], at), value(n[2], at)
        return {"add": a + b, "sub": a - b, "mul": a * b, "lt": a < b, "le": a <= b,
                "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b,
                "and": a and b, "or": a or b}[op]

    assert all((c is None) == (n == 1) for c, n in zip(coords, shape))
    for at in itertools.product(*(range(n) for n in final)):
        offset = stack(*at)
        assert bool(value(valid, at)) == (offset is not None), at
        if offset is None:
            continue
        want = [offset // strides[k] % shape[k] for k in range(len(shape))]
        got = [0 if c is None else value(c, at) for c in coords]
        assert got == want, at


def test_chain_kernels_docstring_example():
    import doctest

    runner = doctest.DocTestRunner()
    for t in doctest.DocTestFinder().find(hlayout._hlayout._chain_kernels, "_chain_kernels", globs={}):
        runner.run(t)
    assert runner.failures == 0 and runner.tries > 0


def test_chain_kernels_refuse_an_unknown_op_by_name():
    with pytest.raises(hlayout.HlayoutError, match="unknown movement op 'roll'"):
        hlayout._hlayout._chain_kernels((2, 3), (("roll", (1,)),))


@pytest.mark.parametrize("case", CHAINS[::3], ids=lambda c: c["id"])
def test_direct_uops_are_the_operators_uops(case):
    """The plug-in builds its index UOps directly (``_to_uops_direct``); they
    are the very objects tinygrad's operators build from the same nodes, over
    the chain's final ranges (and over expressions of them, as the top of a
    chain below an elementwise op is)."""
    from tinygrad.uop.ops import UOp

    shape, ops = _hl_ops(case["request"]["shape"], case["request"]["ops"])
    nodes, coords, valid = hlayout._hlayout._chain_kernels(shape, ops)
    final = v14._stack(hlayout.Layout.row_major(shape), ops).shape
    rngs = [UOp.range(n, k) for k, n in enumerate(final)]
    for xs in (rngs, [r * 2 + 1 for r in rngs]):
        roots = [c for c in coords if c is not None] + [valid]
        direct = v14._to_uops_direct(nodes, roots, xs, UOp, dtypes)
        operators = v14._to_uops_operators(nodes, roots, xs, UOp, dtypes)
        assert all(a is b for a, b in zip(direct, operators))


def test_direct_uops_cover_every_node_kind():
    """Every node kind of ``Kernel.nodes`` built directly is the operators' UOp."""
    from tinygrad.uop.ops import UOp

    nodes = [("var", 0), ("var", 1), ("const", 3), ("bool", True), ("add", 0, 2),
             ("sub", 4, 1), ("mul", 5, 2), ("div", 6, 4), ("mod", 6, 5),
             ("lt", 7, 8), ("le", 7, 8), ("gt", 7, 8), ("ge", 7, 8), ("eq", 7, 8),
             ("ne", 7, 8), ("and", 9, 10), ("or", 11, 12), ("not", 13),
             ("and", 15, 3), ("select", 17, 7, 8), ("or", 16, 18)]
    xs = [UOp.range(5, 0), UOp.range(7, 1)]
    roots = list(range(len(nodes)))
    direct = v14._to_uops_direct(nodes, roots, xs, UOp, dtypes)
    operators = v14._to_uops_operators(nodes, roots, xs, UOp, dtypes)
    assert [a is b for a, b in zip(direct, operators)] == [True] * len(nodes)


def test_affine_ops_after_a_reshape_pass_hlayouts_coordinates_through(monkeypatch):
    """Below a reshape, a permute, shrink, flip or expand takes tinygrad's
    index (an affine map of the coordinates it receives, which are
    hlayout's): hlayout is asked only at the reshape and the pad, each time
    for the whole chain so far, and the kernel keeps hlayout's divisions."""
    import tinygrad.schedule as sch

    asked = []
    index_uops = v14._index_uops

    def spy(in_shape, top, ops, rngs, pads):
        asked.append((ops[0][0], len(ops)))
        return index_uops(in_shape, top, ops, rngs, pads)

    monkeypatch.setattr(v14, "_index_uops", spy)
    shape, ops = [4, 6], [["pad", [[1, 1], [0, 2]]], ["permute", [1, 0]], ["shrink", [[1, 7], [0, 5]]],
                          ["flip", [True, False]], ["reshape", [30]]]
    with plugin_state(True):
        v14._PATCHED.cache_clear()
        sch.schedule_cache.clear()
        n = divmods_of(shape, ops)
    # the reshape on top, the pad below it (with the whole chain), and the
    # reshape of the flat buffer that Tensor.empty(4, 6) is
    assert {name for name, _ in asked} == {"reshape", "pad"}
    assert ("pad", 5) in asked and ("reshape", 6) in asked
    s = hlayout.ViewStack(shape).pad([(1, 1), (0, 2)]).permute([1, 0]).shrink([(1, 7), (0, 5)])
    assert n <= s.flip([True, False]).reshape([30]).kernel().div_mod_count
