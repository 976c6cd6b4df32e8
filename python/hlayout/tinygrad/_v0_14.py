"""The plug-in for tinygrad 0.14.0: hlayout writes the index of every chain of
movement ops.

tinygrad 0.14 has no ``View`` or ``ShapeTracker``: when it schedules a kernel
(``run_rangeify`` in ``tinygrad.schedule.indexing``), it walks the graph from
the output to the inputs and turns every movement op into index arithmetic
on the consumer's ranges, one op at a time (``apply_movement_op``; a reshape
linearises and re-splits with ``//`` and ``%`` and leaves the rest to the
symbolic simplifier).

:func:`install` replaces ``apply_movement_op`` in ``tinygrad.schedule.indexing``
and in every loaded tinygrad module that imported it. The replacement keeps a
table from each tuple of index UOps it returned to the chain that produced it
(the ranges at the chain's top, their shape, the ops so far as hlayout
movement ops), so when the next op down the chain receives that tuple, the
chain grows by one op instead of starting over: however many ops (and
elementwise ops between them, which pass the same UOps on), hlayout sees one
chain. Its answer for the input of the op is, per dimension ``j`` of that
input, the kernel expression (:meth:`hlayout.ViewStack.kernel`) of the chain
applied to the input read through the one-hot layout of ``j`` (the coordinate
``j`` itself), built as tinygrad UOps over the top's index UOps, gated by the
top's validity and the chain's (``idx.valid(cond)``, as tinygrad writes a
pad). When the input is the flat buffer, that is the buffer index with
hlayout's fewest divisions and modulos.

Shapes or arguments that are not plain ints (symbolic ``Variable`` shapes),
empty shapes, ranks 0 and calls that index a prefix of the shape fall back to
tinygrad's own function, and so does any chain hlayout refuses (overflow,
limits): never a wrong answer.
"""

import functools

from .. import _hlayout as _hl

__all__ = ["install", "uninstall", "installed", "chain_ops", "loop_nest_of"]

_ORIGINAL = {}
#: tuple of index UOps returned -> (top UOps, top shape, bottom shape, hlayout
#: ops, whether the chain holds a reshape)
_CHAINS = {}
_MAX_CHAINS = 1 << 16


def _ints(t):
    for x in t:
        if type(x) is not int:
            return False
    return True


def chain_ops(op_name, in_shape, arg):
    """The output shape of tinygrad 0.14 movement op ``op_name`` (``"RESHAPE"``,
    ``"PERMUTE"``, ``"EXPAND"``, ``"PAD"``, ``"SHRINK"``, ``"FLIP"``) on
    ``in_shape`` with its ``marg``, and the op as hlayout movement ops (0.10.3
    semantics, as :class:`hlayout.ViewStack` takes them); ``None`` when the
    arguments are not plain ints.

    tinygrad 0.14's ``marg``: a pad is ``(before, new extent)`` per dimension,
    a shrink ``(begin, new extent)``, an expand the leading dimensions it adds.

    >>> chain_ops("PAD", (3, 8), ((1, 5), (0, 10)))
    ((5, 10), (('pad', ((1, 1), (0, 2))),))
    >>> chain_ops("EXPAND", (3, 8), (5,))
    ((5, 3, 8), (('reshape', (1, 3, 8)), ('expand', (5, 3, 8))))
    """
    if not _ints(in_shape):
        return None
    if op_name == "RESHAPE":
        if not _ints(arg):
            return None
        return tuple(arg), (("reshape", tuple(arg)),)
    if op_name == "PERMUTE":
        out = tuple(in_shape[p] for p in arg)
        return out, (("permute", tuple(arg)),)
    if op_name == "FLIP":
        return tuple(in_shape), (("flip", tuple(bool(f) for f in arg)),)
    if op_name == "EXPAND":
        if not _ints(arg):
            return None
        out = tuple(arg) + tuple(in_shape)
        return out, (("reshape", (1,) * len(arg) + tuple(in_shape)), ("expand", out))
    if op_name in ("PAD", "SHRINK"):
        flat = [x for p in arg for x in p]
        if not _ints(flat):
            return None
        out = tuple(n for _, n in arg)
        if op_name == "PAD":
            pads = tuple((b, n - b - s) for (b, n), s in zip(arg, in_shape))
            return out, (("pad", pads),)
        return out, (("shrink", tuple((b, b + n) for b, n in arg)),)
    return None


def _stack(base, ops):
    s = _hl.ViewStack.from_layout(base)
    for name, a in ops:
        s = getattr(s, name)(list(a))
    return s


#: ``_kernels``' cache size: the chains of one schedule, and some.
_KERNELS_CACHED = 4096


@functools.lru_cache(maxsize=_KERNELS_CACHED)
def _kernels(in_shape, ops):
    """``(nodes, coords, valid)`` of the chain ``ops`` on ``in_shape``
    (``hlayout._hlayout._chain_kernels``, one call): per dimension of
    ``in_shape`` ``None`` (extent 1: coordinate 0) or the node of that input
    coordinate over the top's coordinates, then the node of the chain's
    validity, all in one shared node list."""
    return _hl._chain_kernels(in_shape, ops)


def _reachable(nodes, roots):
    seen = [False] * len(nodes)
    for r in roots:
        seen[r] = True
    for i in range(len(nodes) - 1, -1, -1):
        if seen[i]:
            n = nodes[i]
            if n[0] in ("div", "mod"):
                seen[n[1]] = True
            elif n[0] not in ("const", "var", "bool"):
                for c in n[1:]:
                    seen[c] = True
    return seen


def _to_uops(nodes, roots, xs, UOp, dtypes):
    """The kernel's root nodes as tinygrad UOps, variable ``k`` being
    ``xs[k]``: the very UOps tinygrad's operators build (``a + b``,
    ``a // c``, ``a.where(b, c)``, …), built directly when every variable is
    a ``weakint`` (the index dtype of tinygrad's ranges), through the
    operators otherwise. O(nodes)."""
    if all(x.dtype is dtypes.weakint for x in xs):
        return _to_uops_direct(nodes, roots, xs, UOp, dtypes)
    return _to_uops_operators(nodes, roots, xs, UOp, dtypes)


def _to_uops_direct(nodes, roots, xs, UOp, dtypes):
    """:func:`_to_uops` over ``weakint`` variables, each node one ``UOp(...)``
    call with the dtype and sources tinygrad's operators give it (UOps are
    hash-consed, so these are the same objects): ``a - b`` is
    ``a + b * -1``, ``a >= b`` is ``(a < b) != True``, ``a == b`` is
    ``(a != b) != True``, ``!a`` is ``a != True``."""
    from tinygrad.uop.ops import Ops

    wi, bl = dtypes.weakint, dtypes.bool
    true = UOp.const(True, bl)
    minus_one = UOp.const(-1, wi)

    def alu(op, dtype):
        return lambda *src: UOp(op, dtype, src)

    def negated(op, swap=False):
        return lambda a, b: UOp(Ops.CMPNE, bl, (UOp(op, bl, (b, a) if swap else (a, b)), true))

    build = {
        "div": lambda a, c: UOp(Ops.FLOORDIV, wi, (a, UOp.const(c, wi))),
        "mod": lambda a, c: UOp(Ops.FLOORMOD, wi, (a, UOp.const(c, wi))),
        "not": lambda a: UOp(Ops.CMPNE, bl, (a, true)),
        "select": alu(Ops.WHERE, wi),
        "add": alu(Ops.ADD, wi),
        "sub": lambda a, b: UOp(Ops.ADD, wi, (a, UOp(Ops.MUL, wi, (b, minus_one)))),
        "mul": alu(Ops.MUL, wi),
        "lt": alu(Ops.CMPLT, bl),
        "le": negated(Ops.CMPLT, swap=True),
        "gt": lambda a, b: UOp(Ops.CMPLT, bl, (b, a)),
        "ge": negated(Ops.CMPLT),
        "eq": negated(Ops.CMPNE),
        "ne": alu(Ops.CMPNE, bl),
        "and": alu(Ops.AND, bl),
        "or": alu(Ops.OR, bl),
    }
    return _walk(nodes, roots, xs, UOp, dtypes, build)


def _to_uops_operators(nodes, roots, xs, UOp, dtypes):
    """:func:`_to_uops` through tinygrad's operators (any dtype)."""
    build = {
        "div": lambda a, c: a // c,
        "mod": lambda a, c: a % c,
        "not": lambda a: a.logical_not(),
        "select": lambda c, a, b: c.where(a, b),
        "add": lambda a, b: a + b,
        "sub": lambda a, b: a - b,
        "mul": lambda a, b: a * b,
        "lt": lambda a, b: a < b,
        "le": lambda a, b: a <= b,
        "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b,
        "eq": lambda a, b: a.eq(b),
        "ne": lambda a, b: a.ne(b),
        "and": lambda a, b: a & b,
        "or": lambda a, b: a | b,
    }
    return _walk(nodes, roots, xs, UOp, dtypes, build)


def _walk(nodes, roots, xs, UOp, dtypes, build):
    """The root nodes as UOps: constants, booleans and variables as they
    are, every other node ``build[name](*operands)`` (a ``div``'s or
    ``mod``'s divisor stays an int); only the nodes the roots read. O(nodes)."""
    seen = _reachable(nodes, roots)
    v = [None] * len(nodes)
    for i, n in enumerate(nodes):
        if not seen[i]:
            continue
        op = n[0]
        if op == "const":
            v[i] = UOp.const(n[1], dtypes.weakint)
        elif op == "var":
            v[i] = xs[n[1]]
        elif op == "bool":
            v[i] = UOp.const(bool(n[1]), dtypes.bool)
        elif op in ("div", "mod"):
            v[i] = build[op](v[n[1]], n[2])
        elif op in build:
            v[i] = build[op](*(v[c] for c in n[1:]))
        else:
            raise ValueError(f"unknown kernel node {n!r}")
    return [v[r] for r in roots]


def _gate(rngs):
    """The conjunction of the distinct validities of ``rngs`` (None: always)."""
    valid, seen = None, set()
    for t in rngs:
        g = t.get_valid()
        if not (g.op.name == "CONST" and g.arg is True) and g not in seen:
            seen.add(g)
            valid = g if valid is None else valid & g
    return valid


def _quotient_key(x, c):
    """``(y, d)`` with ``x // c == y // d``: ``(y // a) // c`` is ``y // (a·c)``."""
    from tinygrad.uop.ops import Ops

    if x.op is Ops.FLOORDIV and x.src[1].op is Ops.CONST and x.src[1].arg > 0:
        return x.src[0], x.src[1].arg * c
    return x, c


_MAX_POINTS = 1 << 12
_PY_OPS = {"ADD": "+", "MUL": "*", "FLOORDIV": "//", "FLOORMOD": "%", "SUB": "-"}


def _python(u, names):
    """``u`` as a Python expression over the ``RANGE``s (named in ``names``),
    or None when it holds anything but constants, ranges of constant extent,
    ``+``, ``-``, ``*``, ``//`` and ``%`` (tinygrad's ``//`` and ``%`` on
    index UOps floor, as Python's do)."""
    from tinygrad.uop.ops import Ops

    if u.op is Ops.CONST:
        return repr(u.arg) if type(u.arg) is int else None
    if u.op is Ops.RANGE:
        if u.src[0].op is not Ops.CONST or type(u.src[0].arg) is not int:
            return None
        return names.setdefault(u, f"v{len(names)}")
    if u.op is Ops.NEG:
        a = _python(u.src[0], names)
        return None if a is None else f"(-{a})"
    sym = _PY_OPS.get(u.op.name)
    if sym is None or len(u.src) != 2:
        return None
    a, b = (_python(x, names) for x in u.src)
    return None if a is None or b is None else f"({a} {sym} {b})"


def _equal_quotient(x, c, q):
    """Whether ``x // c == q`` at every point of the ranges they read, checked
    at every point (at most ``_MAX_POINTS``; False beyond, or when either is
    not plain index arithmetic over ranges)."""
    import itertools

    names = {}
    a, b = _python(x, names), _python(q, names)
    if a is None or b is None or not names:
        return False
    points = 1
    for r in names:
        points *= r.src[0].arg
        if points > _MAX_POINTS:
            return False
    args = ", ".join(names.values())
    same = eval(f"lambda {args}: {a} // {c} == {b}")  # noqa: S307 (our own text)
    return all(same(*p) for p in itertools.product(*(range(r.src[0].arg) for r in names)))


def _share_quotients(coords, chain_valid, gate):
    """``coords`` and ``chain_valid`` with every ``x % c`` whose quotient
    ``x // c`` also occurs (in them or in ``gate``; ``(y // a) // c`` as
    ``y // (a·c)``, or equal to it after tinygrad's ``simplify``) written
    ``x - q·c`` with that very quotient ``q``.

    Each coordinate (and the validity) comes from its own hlayout kernel, and
    each kernel writes a digit's modulo as ``t - q·c`` only when it computes
    the quotient ``q`` itself (rule E1 of ``docs/codegen.md``), so a modulo in
    one coordinate can sit next to its quotient in another: two divisions
    where one does. tinygrad's ``sym`` leaves ``x - q·c`` alone.
    At most one ``simplify`` per modulo and per division, and none when every
    modulo's quotient is found by its key."""
    from tinygrad.uop.ops import Ops, UOp

    roots = list(coords) + [u for u in (chain_valid, gate) if u is not None]
    order = UOp.sink(*roots).toposort()
    divs = [u for u in order if u.op is Ops.FLOORDIV and u.src[1].op is Ops.CONST and u.src[1].arg > 0]
    mods = [u for u in order if u.op is Ops.FLOORMOD and u.src[1].op is Ops.CONST and u.src[1].arg > 0]
    if not divs or not mods:
        return coords, chain_valid
    known = {}
    for q in divs:
        known.setdefault(_quotient_key(q.src[0], q.src[1].arg), q)
    simplified = None  # built on the first modulo the keys above miss
    quotient = {}
    for m in mods:
        y, d = _quotient_key(m.src[0], m.src[1].arg)
        q = known.get((y, d))
        if q is None:
            if simplified is None:
                simplified = {}
                for div in divs:
                    simplified.setdefault(div.simplify(), div)
            q = simplified.get((y // d).simplify())
        if q is None:
            q = next((q for q in divs if _equal_quotient(m.src[0], m.src[1].arg, q)), None)
        if q is not None:
            quotient[m] = q
    if not quotient:
        return coords, chain_valid
    memo = {}

    def build(u):
        got = memo.get(u)
        if got is None:
            if u in quotient:
                got = build(u.src[0]) - build(quotient[u]) * u.src[1]
            else:
                src = tuple(build(s) for s in u.src)
                got = u if src == u.src else u.replace(src=src)
            memo[u] = got
        return got

    coords = tuple(build(c) for c in coords)
    return coords, (None if chain_valid is None else build(chain_valid))


def _grouped(valid):
    """``valid`` (a conjunction) with its clauses grouped by the loop
    variables (``RANGE``s) they read: ``(g_1 & g_2) & … & g_k``, each ``g_i``
    the conjunction of the clauses over one set of ranges, in the order of
    their first appearance. The same value; the form of tinygrad's own pad
    validity, whose clauses on one range sit together, which its reduce
    collapse (``pm_reduce_collapse``: a sum over a range of a window
    ``[lower <= r < upper]``) needs to fold an arange. Linear in the clauses."""
    from tinygrad.uop.ops import Ops

    groups = {}
    for clause in valid.split_uop(Ops.AND):
        key = tuple(sorted((r.arg for r in clause.ranges), key=repr))
        groups.setdefault(key, []).append(clause)
    if len(groups) < 2:
        return valid
    out = None
    for clauses in groups.values():
        g = clauses[0]
        for c in clauses[1:]:
            g = g & c
        out = g if out is None else out & g
    return out


def _index_uops(in_shape, top, ops, rngs, pads):
    """The index UOps of ``in_shape`` read through ``ops`` at the top UOps.

    Only a pad adds validity: for any other op (``pads`` false) the validity
    is the incoming ``rngs``' own, the very UOps (a pad's gate, which tinygrad
    keeps as a ``WHERE`` on the padded value, is then shared, not written a
    second way); after a pad it is hlayout's for the whole chain."""
    from tinygrad.dtype import dtypes
    from tinygrad.uop.ops import UOp

    nodes, kernels, checked = _kernels(in_shape, ops)
    xs = [t.get_idx() for t in top]
    valid = _gate(top if pads else rngs)
    roots = [k for k in kernels if k is not None] + ([checked] if pads else [])
    built = iter(_to_uops(nodes, roots, xs, UOp, dtypes))
    zero = UOp.const(0, dtypes.weakint)
    coords = [zero if k is None else next(built) for k in kernels]
    chain_valid = next(built) if pads else None
    if chain_valid is not None and chain_valid.op.name == "CONST" and chain_valid.arg is True:
        chain_valid = None
    if chain_valid is not None:
        coords, chain_valid = _share_quotients(coords, chain_valid, valid)
    if chain_valid is not None:
        valid = _grouped(chain_valid if valid is None else valid & chain_valid)
    if valid is None:
        return tuple(coords)
    return tuple(c.valid(valid) for c in coords)


#: Ops whose index tinygrad writes as an affine map of the coordinates it is
#: given (a permutation, an offset, a reversal, dropped leading dimensions).
_AFFINE_OPS = frozenset(("PERMUTE", "SHRINK", "FLIP", "EXPAND"))


def _apply_movement_op(op, in_shape, arg, rngs):
    """tinygrad's ``apply_movement_op``, with the chain's index from hlayout.
    Once uninstalled, a reference kept elsewhere (a module imported while the
    plug-in was installed) calls tinygrad's own function."""
    original = _ORIGINAL.get("apply_movement_op")
    if original is None:
        import tinygrad.schedule.indexing as ix

        return ix.apply_movement_op(op, in_shape, arg, rngs)
    got = chain_ops(op.name, in_shape, arg)
    if got is None or not in_shape or 0 in in_shape:
        return original(op, in_shape, arg, rngs)
    out_shape, ops = got
    if len(rngs) != len(out_shape) or not out_shape or 0 in out_shape:
        return original(op, in_shape, arg, rngs)
    rec = _CHAINS.get(rngs)
    reshaped = op.name == "RESHAPE"
    if rec is not None and rec[2] == out_shape:
        top, top_shape, _, above, was = rec
        ops, reshaped = ops + above, reshaped or was
    else:
        top, top_shape = rngs, out_shape
    if not reshaped or op.name in _AFFINE_OPS:
        # No reshape in the chain so far, or an op that moves, offsets,
        # reverses or drops the coordinates it receives: tinygrad's index is
        # affine in the UOps it is given (no division to save; after a
        # reshape, hlayout's coordinates pass through) and cheaper to build.
        # The chain is still recorded, so a reshape or pad further down gets
        # hlayout's index of all of it.
        result = original(op, in_shape, arg, rngs)
    else:
        try:
            result = _index_uops(tuple(in_shape), top, ops, rngs, op.name == "PAD")
        except _hl.HlayoutError:
            return original(op, in_shape, arg, rngs)
    if len(_CHAINS) >= _MAX_CHAINS:
        _CHAINS.clear()
    _CHAINS[result] = (top, top_shape, tuple(in_shape), ops, reshaped)
    return result


def _cached(fn):
    """``fn`` memoised like tinygrad's ``apply_movement_op``; its
    ``cache_clear`` (which tinygrad tools call to measure a cold start) also
    forgets hlayout's kernels and chains, so a cold start is cold for both."""
    memo = functools.cache(fn)

    @functools.wraps(fn)
    def patched(*args):
        return memo(*args)

    def cache_clear():
        memo.cache_clear()
        _kernels.cache_clear()
        _CHAINS.clear()

    patched.cache_clear = cache_clear
    patched.cache_info = memo.cache_info
    return patched


#: The one replacement of ``apply_movement_op`` (one per process, so a rule
#: compiled with it in one installation still calls the current one).
_PATCHED = _cached(_apply_movement_op)


def _modules():
    """The loaded tinygrad modules that hold tinygrad's ``apply_movement_op``."""
    import sys

    fn = _ORIGINAL["apply_movement_op"]
    return [m for name, m in list(sys.modules.items())
            if name.startswith("tinygrad") and getattr(m, "apply_movement_op", None) is fn]


def _split_at_divisors(original):
    """``pm_split_ranges`` that also splits a loop at every divisor ``c`` of a
    bare ``RANGE // c`` (``c`` dividing its extent), as it splits at every
    ``RANGE % c``: the loop-nest hint applied.

    hlayout's kernel of a one-view chain divides a loop variable only by the
    weights of its loop nest (:func:`hlayout.loop_nest`: the inner products
    of the leaves of its dimension), and writes a digit's modulo as
    ``t - q·c`` when the quotient ``q`` is computed anyway, so tinygrad's own
    trigger (a modulo) does not fire; splitting at the divisions does, and
    refines the loops into the nest, where the index is affine. Splitting a
    range is tinygrad's own exact substitution ``r = r0·c + r1``."""
    from tinygrad.codegen.simplify import mark_range_mod
    from tinygrad.uop.ops import Ops, PatternMatcher, UPat

    return PatternMatcher([(UPat(Ops.RANGE, name="r") // UPat.cvar("c"), mark_range_mod)]) + original


_DIVMOD_OPS = ("FLOORDIV", "FLOORMOD")
_INDEX_OPS = frozenset(("RANGE", "CONST", "ADD", "MUL", "SUB", "NEG", "FLOORDIV", "FLOORMOD"))
#: tinygrad's ``fold_divmod_general``, set by :func:`install` (a list: a
#: compiled pattern copies the globals its function names, not their values
#: at call time, so the function is reached through this one object).
_FOLD = [None]


def _divmods(u):
    """The distinct ``FLOORDIV``/``FLOORMOD`` UOps ``u`` reads (itself included)."""
    return sum(1 for x in u.toposort() if x.op.name in _DIVMOD_OPS)


def _over_ranges(u):
    """Whether ``u`` is index arithmetic over loop variables only: constants,
    ``RANGE``s of constant extent, ``+``, ``-``, ``*``, ``//``, ``%`` (the
    index of a kernel; no ``Variable``, no buffer)."""
    return all(x.op.name in _INDEX_OPS for x in u.toposort())


def _fold_divmod_few(d):
    """tinygrad's slow division rule (``fold_divmod_general``) on ``d``,
    declined (``None``) when its answer reads more divisions and modulos than
    ``d`` does and ``d`` is a kernel index over loop variables only.

    The rule's ``nest_by_factor`` splits one division into two, e.g.
    ``(10·a + b) // 4`` into ``2·a + (a + b // 2) // 2``; on an index hlayout
    wrote with its fewest divisions that only adds one. Declining a rewrite
    keeps the value (the UOp stays as it is). Expressions over ``Variable``s
    (tinygrad's symbolic tests, symbolic shapes) get the rule unchanged.
    Cost: the rule's, plus two walks of ``d`` and the answer when the rule
    fires."""
    got = _FOLD[0](d)
    if got is None:
        return None
    n = _divmods(got)  # d is one division: an answer with at most one adds none
    if n <= 1 or n <= _divmods(d) or not _over_ranges(d):
        return got
    return None


def _is_fold_rule(fxn):
    code = getattr(fxn, "__code__", None)
    return code is not None and fxn is not _fold_divmod_few and "fold_divmod_general" in code.co_names


_MATCHERS = {}


def _matcher(p, fxn, state=None):
    """Pattern ``p`` with function ``fxn`` compiled as a ``PatternMatcher``
    entry (with the globals ``fxn`` names as they are now), once per
    ``(p, fxn, state)`` (so installing again compiles nothing)."""
    got = _MATCHERS.get((p, fxn, state))
    if got is None:
        from tinygrad.uop.ops import upat_interpret
        from tinygrad.uop.upat import upat_compile

        # not their caches, which keep the globals of the first compile
        got = upat_compile.__wrapped__(p, fxn) or upat_interpret.__wrapped__(p, fxn)
        _MATCHERS[(p, fxn, state)] = got
    return got


def _swap_fold_rule(new, old_test):
    """In every live ``PatternMatcher``, the rule whose function satisfies
    ``old_test`` gets function ``new`` (its pattern list, so that a matcher
    built later by ``+`` has it too, and its compiled entries). Returns the
    functions replaced."""
    import gc

    from tinygrad.uop.ops import PatternMatcher

    replaced = []
    for m in gc.get_objects():
        if type(m) is not PatternMatcher:
            continue
        pats = [p for p, f in m.patterns if old_test(f)]
        if not pats:
            continue
        replaced += [f for _, f in m.patterns if old_test(f)]
        m.patterns = [(p, new if old_test(f) else f) for p, f in m.patterns]
        seen = set()
        for entries in m.pdict.values():
            for e in entries:
                if any(e[0] is p for p in pats) and id(e) not in seen:
                    seen.add(id(e))
                    e[1] = _matcher(e[0], new)
    return replaced


def _names(code):
    """The global names ``code`` (and the code nested in it) reads."""
    out = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            out |= _names(c)
    return out


def _rebind_movement_rules():
    """Recompiles, in every live ``PatternMatcher``, the rules whose function
    names ``apply_movement_op`` itself (``_mop_index`` of ``pm_mops`` in
    ``tinygrad.schedule.rangeify``): a compiled rule holds a copy of the
    globals it names, taken when it first ran, so without this a matcher
    used before :func:`install` (or :func:`uninstall`) keeps the function it
    saw then. One pass over the live objects; each (pattern, function,
    state) is compiled once."""
    import gc

    from tinygrad.uop.ops import PatternMatcher

    state = bool(_ORIGINAL)
    for m in gc.get_objects():
        if type(m) is not PatternMatcher:
            continue
        fxns = {id(p): f for p, f in m.patterns
                if hasattr(f, "__code__") and "apply_movement_op" in _names(f.__code__)}
        if not fxns:
            continue
        for entries in m.pdict.values():
            for e in entries:
                f = fxns.get(id(e[0]))
                if f is not None:
                    e[1] = _matcher(e[0], f, state)


def _decline_divmod_splits():
    """Puts :func:`_fold_divmod_few` in place of tinygrad's slow division rule
    in every ``PatternMatcher`` (they copy the functions they call when they
    compile a rule, so replacing the module's ``fold_divmod_general`` would not
    reach them). Returns tinygrad's rule function, for :func:`uninstall`."""
    import tinygrad.uop.divandmod as dm

    _FOLD[0] = dm.fold_divmod_general
    original = next(f for _, f in dm.div_and_mod_symbolic.patterns if _is_fold_rule(f))
    _swap_fold_rule(_fold_divmod_few, lambda f: f is original)
    return original


def install():
    """Replaces tinygrad's ``apply_movement_op`` (in
    ``tinygrad.schedule.indexing`` and every tinygrad module that imported
    it) with hlayout's, and ``tinygrad.codegen.pm_split_ranges`` with
    :func:`_split_at_divisors` of it. Idempotent."""
    if _ORIGINAL:
        return
    import tinygrad.codegen as cg
    import tinygrad.schedule.indexing as ix
    import tinygrad.schedule.rangeify  # noqa: F401  (imports apply_movement_op)

    _ORIGINAL["apply_movement_op"] = ix.apply_movement_op
    patched = _PATCHED
    mods = _modules()
    for m in mods:
        m.apply_movement_op = patched
    _ORIGINAL["modules"] = mods
    _ORIGINAL["patched"] = patched
    _ORIGINAL["pm_split_ranges"] = cg.pm_split_ranges
    cg.pm_split_ranges = _split_at_divisors(cg.pm_split_ranges)
    _ORIGINAL["fold_rule"] = _decline_divmod_splits()
    _rebind_movement_rules()


def uninstall():
    """Restores tinygrad's own ``apply_movement_op`` everywhere."""
    if not _ORIGINAL:
        return
    import tinygrad.codegen as cg

    import sys

    # Every module holding the patched function, including those imported
    # (``from … import apply_movement_op``) while the plug-in was installed.
    for m in list(sys.modules.values()):
        if getattr(m, "apply_movement_op", None) is _ORIGINAL["patched"]:
            m.apply_movement_op = _ORIGINAL["apply_movement_op"]
    cg.pm_split_ranges = _ORIGINAL["pm_split_ranges"]
    _PATCHED.cache_clear()
    original = _ORIGINAL["fold_rule"]
    _swap_fold_rule(original, lambda f: f is _fold_divmod_few)
    _ORIGINAL.clear()
    _rebind_movement_rules()
    _CHAINS.clear()


def installed():
    """Whether the plug-in is installed."""
    return bool(_ORIGINAL)


def loop_nest_of(shape, ops):
    """The loop-nest hint of a chain: ``ops`` (hlayout movement ops, as
    :func:`chain_ops` gives them) applied to a contiguous tensor of ``shape``,
    as the :class:`hlayout.LoopNest` of its one view, in whose loops the
    buffer index and the validity are affine. Raises ``PreconditionError``
    when the chain is more than one view or has no such nest.

    tinygrad 0.14 chooses a kernel's loops itself (one range per output
    dimension; ``pm_split_ranges`` and ``pm_simplify_ranges`` split and merge
    them by its own rules, with no hook for a caller's split), so the plug-in
    exposes the hint rather than imposing it.

    >>> n = loop_nest_of((4, 6), [("permute", (1, 0)), ("reshape", (24,))])
    >>> n.loops, n.access(0)[0]
    ([(0, 6, 4), (0, 4, 1)], [1, 6])
    """
    s = _stack(_hl.Layout.row_major(tuple(shape)), tuple(ops))
    views = s.views
    if len(views) != 1:
        raise _hl.PreconditionError(
            f"loop_nest_of: the chain is {len(views)} views; a nest needs one")
    return _hl.loop_nest([views[0]])
