"""The plug-in for tinygrad 0.10.3: exact view merges and reshapes.

:func:`install` patches the installed tinygrad in place:

- ``View.__add__`` (merging two views) asks :func:`hlayout.merge`, which finds
  the single view equal to the pair whenever one exists (and answers ``None``
  only when none does);
- ``View.reshape`` asks :func:`hlayout.reshape_flat` (the merge with the
  contiguous view of the new shape), so a reshape stays one view whenever
  one view can express it;
- ``ShapeTracker.simplify`` merges every adjacent pair of views that merges
  (composition is associative), not only the last two, until none does.

Answers go through tinygrad's own ``View.create``, so they are in tinygrad's
canonical form. Empty views and rank-0 reshapes fall back to tinygrad's code,
as does a merge that hlayout leaves undecided (``BudgetExceededError``).

Views over ``Variable``s (symbolic shapes, strides, offsets or masks) take
tinygrad's answer when tinygrad finds one, and otherwise ask hlayout's
symbolic merge (:mod:`._sym10`): each number becomes a polynomial and each
Variable's ``min``/``max`` an assumption, so the answer is right at every
value the Variables allow. A number that is not a polynomial (a ``//``, a
``%``) keeps tinygrad's answer. :func:`uninstall` restores tinygrad's
functions.
"""

import functools

from .. import _hlayout as _hl
from . import _sym10

__all__ = ["install", "uninstall", "installed"]

_ORIGINAL = {}


def _ints(t):
    """Whether ``t`` is a tuple of plain ints (not bools, not symbolic)."""
    for x in t:
        if type(x) is not int:
            return False
    return True


def _concrete(v):
    """Whether a tinygrad View is integer-only and non-empty."""
    shape, mask = v.shape, v.mask
    if not shape or not _ints(shape) or 0 in shape or not _ints(v.strides) \
            or type(v.offset) is not int:
        return False
    if mask is not None:
        for m in mask:
            if type(m[0]) is not int or type(m[1]) is not int:
                return False
    return True


def _flat(v):
    return _hl.FlatView(v.shape, v.strides, v.offset, v.mask)


def _create(view_cls, r):
    mask = r.mask
    if mask is not None:
        mask = tuple(mask)
    return view_cls.create(r.shape, r.strides, r.offset, mask)


def _add(vm2, vm1):
    """``vm2 + vm1``: the one view equal to ``vm1`` read through ``vm2``, or None."""
    if not (_concrete(vm2) and _concrete(vm1)):
        return _sym_add(vm2, vm1)
    try:
        r = _hl.merge(_flat(vm2), _flat(vm1))
    except _hl.BudgetExceededError:
        return _ORIGINAL["add"](vm2, vm1)
    return None if r is None else _create(type(vm2), r)


def _reshape(self, new_shape):
    """The view reshaped to ``new_shape``, or None when no single view is."""
    if self.shape == new_shape:
        return self
    if not _ints(new_shape) or not _concrete(self):
        return _sym_reshape(self, new_shape)
    if self.contiguous or not new_shape or min(new_shape) <= 0:
        return _ORIGINAL["reshape"](self, new_shape)
    try:
        r = _hl.reshape_flat(_flat(self), new_shape)
    except (_hl.BudgetExceededError, _hl.SizeMismatchError):
        # tinygrad's own code decides, and raises its ValueError on a size mismatch
        return _ORIGINAL["reshape"](self, new_shape)
    return None if r is None else _create(type(self), r)


def _empty(shape):
    return any(type(s) is int and s <= 0 for s in shape)


def _sym_add(vm2, vm1):
    """``vm2 + vm1`` over Variables: tinygrad's answer, else hlayout's."""
    r = _ORIGINAL["add"](vm2, vm1)
    if r is not None or _empty(vm2.shape) or _empty(vm1.shape):
        return r
    try:
        return _sym10.merge(vm2, vm1)
    except _sym10.NotPolynomial:
        return None


def _sym_reshape(self, new_shape):
    """A reshape over Variables: tinygrad's answer, else (for an unmasked view)
    hlayout's merge with the contiguous view of ``new_shape`` when the sizes
    are equal polynomials."""
    r = _ORIGINAL["reshape"](self, new_shape)
    # tinygrad keeps masked symbolic views unmerged on reshape on purpose (gpt2's KV
    # cache, test_symbolic_shapetracker.py's test_symbolic_mask): so does the plug-in.
    if r is not None or self.mask is not None or not new_shape or _empty(self.shape) \
            or _empty(new_shape):
        return r
    try:
        if not _sym10.same_size(self.shape, new_shape):
            return None
        return _sym10.merge(self, type(self).create(tuple(new_shape)))
    except _sym10.NotPolynomial:
        return None


def _simplify(self):
    """Merges adjacent views, any pair, until no pair merges."""
    views = list(self.views)
    k = len(views) - 2
    while k >= 0:
        merged = views[k] + views[k + 1]
        if merged is not None:
            views[k:k + 2] = [merged]
            k = min(k, len(views) - 2)
        else:
            k -= 1
    return self if len(views) == len(self.views) else type(self)(tuple(views))


def install():
    """Patches tinygrad's ``View.__add__``, ``View.reshape`` and
    ``ShapeTracker.simplify`` with hlayout's exact algorithms. Idempotent."""
    from tinygrad.shape.shapetracker import ShapeTracker
    from tinygrad.shape.view import View

    if _ORIGINAL:
        return
    _ORIGINAL.update(add=View.__add__, reshape=View.reshape, simplify=ShapeTracker.simplify,
                     view=View, tracker=ShapeTracker)
    View.__add__ = functools.cache(_add)
    View.reshape = functools.cache(_reshape)
    ShapeTracker.simplify = _simplify


def uninstall():
    """Restores tinygrad's own functions."""
    if not _ORIGINAL:
        return
    view, tracker = _ORIGINAL["view"], _ORIGINAL["tracker"]
    view.__add__ = _ORIGINAL["add"]
    view.reshape = _ORIGINAL["reshape"]
    tracker.simplify = _ORIGINAL["simplify"]
    _ORIGINAL.clear()


def installed():
    """Whether the plug-in is installed."""
    return bool(_ORIGINAL)
