"""tinygrad 0.10.3 symbolic views through hlayout: the conversions and the merge.

tinygrad writes a symbolic int (a ``sint``) as a UOp expression over
``Variable``s (``DEFINE_VAR`` UOps holding a name, a min and a max), each
possibly bound to a value (``BIND``). hlayout writes it as a polynomial in the
batch protocol's text (``2*sp+1``) plus assumptions (``min``/``max`` per
symbol). This module converts between the two:

- :func:`poly_text` expands a sint made of constants, Variables, ``+`` and
  ``*`` into that text, and raises :class:`NotPolynomial` on anything else
  (a ``//``, a ``%``, a ``max``, two different Variables sharing a name, a
  name the protocol cannot spell): the caller then keeps tinygrad's own code;
- :func:`from_text` turns an answer's text back into a UOp over the very
  Variables (bound or not) the question used.

:func:`merge` is the plug-in's ``View.__add__`` over symbols: the answer of
:func:`hlayout.merge` on the two views as :class:`hlayout.SymFlatView`s, right
for every value each Variable's range allows (so in particular for the bound
value), or ``None`` when hlayout refuses or proves that no view exists.
"""

import re

from .. import _hlayout as _hl

__all__ = ["NotPolynomial", "poly_text", "from_text", "Leaves", "merge", "same_size"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class NotPolynomial(ValueError):
    """A sint that is not a polynomial over Variables (or that hlayout cannot
    name); the plug-in falls back to tinygrad's code on it."""


class Leaves:
    """The Variables met while converting, by name: the UOp leaf (a
    ``DEFINE_VAR`` or a ``BIND``) and its ``(min, max)``."""

    def __init__(self):
        self.uop = {}
        self.bounds = {}

    def add(self, leaf):
        """Records ``leaf`` and answers its name; a second, different leaf of
        the same name (other bounds, bound vs unbound, another value) is
        :class:`NotPolynomial`."""
        var = leaf.src[0] if leaf.op.name == "BIND" else leaf
        name, lo, hi = var.arg
        if type(name) is not str or not _NAME.match(name) or type(lo) is not int \
                or type(hi) is not int:
            raise NotPolynomial(f"variable {var.arg!r}")
        seen = self.uop.setdefault(name, leaf)
        if seen is not leaf:
            raise NotPolynomial(f"two variables named {name!r}: {seen} and {leaf}")
        self.bounds[name] = (lo, hi)
        return name

    def assume(self):
        """The assumptions, as ``hlayout.merge``'s ``assume=`` takes them."""
        return {n: {"min": lo, "max": hi} for n, (lo, hi) in self.bounds.items()}


def _terms(x, leaves):
    """``x`` as ``{sorted tuple of names: coefficient}`` (no zero coefficients)."""
    if type(x) is int:
        return {(): x} if x else {}
    op = getattr(getattr(x, "op", None), "name", None)
    if op == "CONST" and type(x.arg) is int:
        return {(): x.arg} if x.arg else {}
    if op in ("DEFINE_VAR", "BIND"):
        return {(leaves.add(x),): 1}
    if op == "ADD" and len(x.src) == 2:
        return _add(_terms(x.src[0], leaves), _terms(x.src[1], leaves))
    if op == "MUL" and len(x.src) == 2:
        return _mul(_terms(x.src[0], leaves), _terms(x.src[1], leaves))
    raise NotPolynomial(f"not a polynomial: {x}")


def _add(a, b):
    out = dict(a)
    for k, c in b.items():
        s = out.get(k, 0) + c
        if s:
            out[k] = s
        else:
            out.pop(k, None)
    return out


def _mul(a, b):
    out = {}
    for ka, ca in a.items():
        for kb, cb in b.items():
            out = _add(out, {tuple(sorted(ka + kb)): ca * cb})
    return out


def _text(terms):
    parts = []
    for k in sorted(terms, key=lambda k: (-len(k), k)):
        c = terms[k]
        body = "*".join(k)
        if not body:
            t = str(abs(c))
        elif abs(c) == 1:
            t = body
        else:
            t = f"{abs(c)}*{body}"
        parts.append(("-" if c < 0 else "+") + t)
    if not parts:
        return "0"
    s = "".join(parts)
    return s[1:] if s[0] == "+" else s


def poly_text(x, leaves):
    """The protocol's polynomial text of the sint ``x`` (an int or a UOp),
    recording its Variables in ``leaves``; :class:`NotPolynomial` if it has
    an operation other than ``+`` and ``*``. Linear in the expanded size.

    >>> from tinygrad import Variable
    >>> sp = Variable("sp", 0, 8)
    >>> leaves = Leaves()
    >>> poly_text((sp + 1) * 4 - sp, leaves), leaves.assume()
    ('3*sp+4', {'sp': {'min': 0, 'max': 8}})
    >>> try:
    ...     poly_text(sp // 2, leaves)
    ... except NotPolynomial:
    ...     print("not a polynomial: tinygrad's code decides")
    not a polynomial: tinygrad's code decides
    """
    return _text(_terms(x, leaves))


_TERM = re.compile(r"([+-]?)([^+-]+)")


def from_text(x, leaves):
    """An answer's number (an int, or polynomial text over the names in
    ``leaves``) as a tinygrad sint over those same Variables.

    >>> from tinygrad import Variable
    >>> sp = Variable("sp", 0, 8)
    >>> leaves = Leaves()
    >>> _ = poly_text(sp, leaves)
    >>> from_text("2*sp-3", leaves).substitute({sp: sp.const_like(5)}).ssimplify()
    7
    """
    if type(x) is int:
        return x
    total = 0
    for sign, body in _TERM.findall(x):
        term = -1 if sign == "-" else 1
        for f in body.split("*"):
            term = term * (int(f) if f.isdigit() else leaves.uop[f])
        total = total + term
    return total


def _sym_view(v, leaves):
    mask = None
    if v.mask is not None:
        mask = [(poly_text(b, leaves), poly_text(e, leaves)) for b, e in v.mask]
    return ([poly_text(s, leaves) for s in v.shape], [poly_text(s, leaves) for s in v.strides],
            poly_text(v.offset, leaves), mask)


def same_size(shape_a, shape_b):
    """Whether two shapes of sints have the same product as polynomials
    (:class:`NotPolynomial` if either is not a polynomial)."""
    leaves = Leaves()
    pa, pb = {(): 1}, {(): 1}
    for s in shape_a:
        pa = _mul(pa, _terms(s, leaves))
    for s in shape_b:
        pb = _mul(pb, _terms(s, leaves))
    return pa == pb


def merge(vm2, vm1):
    """``vm2 + vm1`` over symbols: hlayout's view equal to ``vm1`` read through
    ``vm2`` at every value the Variables allow, as a tinygrad View, or None
    (no such view at any value, or hlayout cannot prove one). Raises
    :class:`NotPolynomial` when a number is not a polynomial. The cost is
    hlayout's symbolic merge: O(k·r) polynomial operations and proofs."""
    leaves = Leaves()
    s2, s1 = _sym_view(vm2, leaves), _sym_view(vm1, leaves)
    assume = leaves.assume()
    try:
        first = _hl.SymFlatView(*s2[:2], offset=s2[2], mask=s2[3], assume=assume)
        second = _hl.SymFlatView(*s1[:2], offset=s1[2], mask=s1[3], assume=assume)
        r = _hl.merge(first, second, assume=assume)
    except (_hl.HlayoutError, OverflowError, ValueError):
        # refused (NeedsFactsError, BudgetExceededError) or out of hlayout's range
        return None
    if r is None:
        return None
    if len(r.shape) != len(vm1.shape) or any(
            _terms(from_text(a, leaves), leaves) != _terms(b, leaves)
            for a, b in zip(r.shape, vm1.shape)):
        return None  # the answer reads vm1's shape; anything else is not vm2 + vm1
    mask = None if r.mask is None else tuple((from_text(b, leaves), from_text(e, leaves))
                                            for b, e in r.mask)
    return type(vm2).create(vm1.shape, tuple(from_text(s, leaves) for s in r.strides),
                            from_text(r.offset, leaves), mask)

