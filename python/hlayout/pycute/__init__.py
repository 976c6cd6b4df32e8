"""A drop-in replacement for NVIDIA's pycute, backed by hlayout's exact algebra.

``import hlayout.pycute as pycute`` (or ``from hlayout.pycute import *``) gives
the names pycute's users import: ``Layout``, ``make_layout``, ``size``,
``cosize``, ``coalesce``, ``filter``, ``composition``, ``complement``,
``right_inverse``, ``left_inverse``, ``logical_divide``, ``logical_product``,
``zipped_divide``, ``tiled_divide``, ``zipped_product``, ``tiled_product``,
``slice_and_offset``, the int-tuple helpers, ``Swizzle``, ``ComposedLayout``
and ``Integer``.

Layouts here are CuTe's: colexicographic (first mode fastest), with ``shape``
and ``stride`` as plain Python ints and tuples, exactly as pycute stores them.
Every layout function converts to hlayout's row-major form (mirroring the
tuples, as the crate's CuTe interop ``Layout::from_cute`` does), calls the Rust
crate, and mirrors the answer back; by-mode tilers (tuples of layouts, ``None``
for "keep") are unpacked here as pycute does.

>>> from hlayout.pycute import Layout, composition, coalesce
>>> a = Layout((4, 3), (3, 1))
>>> a(5), a((1, 1))
(4, 4)
>>> coalesce(Layout((2, 4), (1, 2)))
Layout(8,1)
>>> composition(Layout((4, 3)), Layout(6, 2))
Layout(6,2)

Where pycute returns a layout that is not the composition (or asserts on an
input with a valid answer), this module raises ``hlayout.HlayoutError`` (a
``ValueError``) naming the rule that fails; see the package README.
"""

import abc as _abc
from abc import ABC
from functools import lru_cache as _lru_cache
from functools import reduce
from itertools import chain
from typing import Union

from .. import _hlayout as _hl

__all__ = [
    # the standard-library names pycute's star imports carry along
    "ABC", "Union", "chain", "reduce",
    # typing
    "Integer",
    # int_tuple
    "is_int", "is_tuple", "flatten", "signum", "product", "inner_product",
    "tuple_max", "elem_scale", "shape_div", "prefix_product", "idx2crd",
    "crd2idx", "crd2crd", "slice_", "has_none",
    # layout
    "LayoutBase", "is_layout", "Layout", "make_layout", "size", "cosize",
    "coalesce", "filter", "composition", "complement", "right_inverse",
    "left_inverse", "logical_divide", "logical_product", "hier_unzip",
    "zipped_divide", "tiled_divide", "zipped_product", "tiled_product",
    "slice_and_offset",
    # swizzle
    "shiftr", "shiftl", "Swizzle", "ComposedLayout",
]


def install_as_pycute():
    """Makes ``import pycute`` (and ``pycute.layout``, ``pycute.int_tuple``,
    ``pycute.swizzle``, ``pycute.typing``) load this module, so unmodified
    pycute code runs on hlayout.

    >>> import hlayout.pycute, sys
    >>> hlayout.pycute.install_as_pycute()
    >>> import pycute.layout
    >>> pycute.layout.Layout is hlayout.pycute.Layout
    True
    """
    import importlib
    import sys

    sys.modules["pycute"] = sys.modules[__name__]
    for sub in ("int_tuple", "layout", "swizzle", "typing"):
        sys.modules["pycute." + sub] = importlib.import_module(f"{__name__}.{sub}")


# ---------------------------------------------------------------- errors

def _error(cls, message, kind, **fields):
    """An ``hlayout`` exception raised here rather than by the crate, carrying
    ``kind`` and ``fields`` (and each field as an attribute) as the crate's do."""
    e = cls(message)
    e.kind, e.fields = kind, dict(fields)
    for name, value in fields.items():
        setattr(e, name, value)
    return e


def _not_congruent(what, left, right):
    return _error(_hl.NotCongruentError, f"{what} are not congruent: {left} vs {right}",
                  "NotCongruent", what=what, left=str(left), right=str(right))


def _out_of_domain(what):
    return _error(_hl.OutOfDomainError, f"out of domain: {what}", "OutOfDomain", what=what)


def _profile_too_long(profile, layout):
    return _error(_hl.ProfileTooLongError,
                  f"profile {profile} has {len(profile)} modes but the layout {layout} only {len(layout)}",
                  "ProfileTooLong", profile_rank=len(profile), layout_rank=len(layout))


# ---------------------------------------------------------------- typing

class Integer(_abc.ABC):
    """``isinstance(x, Integer)``: ``x`` is an ``int`` but not a ``bool``."""

    @classmethod
    def __subclasshook__(cls, c):
        return issubclass(c, int) and not issubclass(c, bool)


# ---------------------------------------------------------------- int tuples

def is_int(x):
    """Whether ``x`` is an integer (not a bool, not a float)."""
    return isinstance(x, Integer)


def is_tuple(x):
    """Whether ``x`` is a tuple."""
    return isinstance(x, tuple)


def _rev(t):
    """Mirrors a nested tuple at every level (colexicographic <-> row-major)."""
    if isinstance(t, tuple):
        return tuple(_rev(x) for x in reversed(t))
    return t


def _leaves(t):
    if isinstance(t, tuple):
        for x in t:
            yield from _leaves(x)
    else:
        yield t


def flatten(t):
    """The leaves of ``t`` as a flat tuple (an int becomes a 1-tuple)."""
    return tuple(_leaves(t))


def signum(a):
    """-1, 0 or 1."""
    return (a > 0) - (a < 0)


def product(a):
    """Product of all leaves of ``a`` (an int is itself)."""
    if a == ():
        return 1
    return _hl.tuple_size(a)


def inner_product(a, b):
    """Sum of the products of congruent leaves of ``a`` and ``b``."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise _not_congruent("inner_product operands", a, b)
        return sum(inner_product(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        raise _not_congruent("inner_product operands", a, b)
    return a * b


def tuple_max(a):
    """Largest leaf."""
    return max(_leaves(a))


def elem_scale(a, b):
    """Leaf-wise ``a * b``; an int ``a`` scales by the product of a tuple ``b``."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise _not_congruent("elem_scale operands", a, b)
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def shape_div(a, b):
    """CuTe's shape division: ``a`` divided by ``b`` from its first (fastest) leaf.

    >>> shape_div((3, 4), 6)
    (1, 2)
    """
    if is_tuple(a) and is_tuple(b):
        if len(a) != len(b):
            raise _not_congruent("shape_div operands", a, b)
        return tuple(shape_div(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        b = product(b)
    if a == ():
        return ()
    return _rev(_hl.shape_div(_rev(a), b))


def _scale(t, k):
    if isinstance(t, tuple):
        return tuple(_scale(x, k) for x in t)
    return t * k


def prefix_product(a, init=1):
    """Exclusive prefix products (CuTe's compact strides), congruent to ``a``.

    >>> prefix_product(((2, 3), 4))
    ((1, 2), 6)
    """
    if is_tuple(init):
        if not is_tuple(a) or len(a) != len(init):
            raise _not_congruent("prefix_product shape and init", a, init)
        return tuple(prefix_product(x, i) for x, i in zip(a, init))
    if a == ():
        return ()
    return _scale(_hl.prefix_product(a), init)


def idx2crd(idx, shape, stride=None):
    """The coordinate of index ``idx`` in ``shape`` (colexicographic)."""
    if is_tuple(idx):
        if not is_tuple(shape) or len(idx) != len(shape):
            raise _not_congruent("idx2crd index and shape", idx, shape)
        stride = prefix_product(shape) if stride is None else stride
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))
    if stride is None and is_tuple(shape) and 0 <= idx < product(shape):
        return _rev(_hl.idx2crd(idx, _rev(shape)))
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(shape):
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride))
    return (idx // stride) % shape


@_lru_cache(maxsize=4096)
def _native(shape, stride):
    """The hlayout (row-major) layout of a CuTe shape and stride."""
    return _hl.Layout(_rev(shape), _rev(stride))


def _from_native(layout):
    return Layout(_rev(layout.shape), _rev(layout.stride))


def crd2idx(crd, shape, stride=None):
    """The offset of coordinate ``crd`` (``None`` counts as 0); an integer
    coordinate past a mode's size extends that mode's last leaf, as in CuTe."""
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(crd):
        if not is_tuple(shape) or len(crd) != len(shape) or len(shape) != len(stride):
            raise _error(_hl.NotCompatibleError, f"{crd} is not a coarsening of shape {shape}",
                         "NotCompatible", coord=str(crd), shape=str(shape))
        return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))
    if crd is None:
        crd = 0
    if shape == ():
        return 0
    return _native(shape, stride)(crd)


def crd2crd(crd, dst_shape, src_shape=None):
    """``crd`` carried into ``dst_shape``'s coordinates."""
    if is_tuple(crd):
        if is_tuple(dst_shape):
            if len(crd) != len(dst_shape):
                raise _not_congruent("crd2crd coordinate and shape", crd, dst_shape)
            return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
        if src_shape is None:
            raise ValueError("crd2crd of a tuple into an int needs src_shape")
        return crd2idx(crd, src_shape)
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if not crd < dst_shape:
        raise _out_of_domain(f"coordinate {crd} in a mode of size {dst_shape}")
    return crd


def slice_(crd, trg):
    """The parts of ``trg`` paired with ``None`` in ``crd``, flattened one level."""
    if is_tuple(crd):
        if not is_tuple(trg) or len(crd) != len(trg):
            raise _not_congruent("slice coordinate and target", crd, trg)
        out = []
        for c, t in zip(crd, trg):
            out.extend(slice_(c, t))
        return tuple(out)
    if crd is None:
        return (trg,)
    return ()


def has_none(a):
    """Whether ``None`` is a leaf of ``a``."""
    if is_tuple(a):
        return any(has_none(x) for x in a)
    return a is None


# ---------------------------------------------------------------- layouts

class LayoutBase:
    """Base class of ``Layout`` and ``ComposedLayout``."""


def is_layout(x):
    """Whether ``x`` is a layout."""
    return isinstance(x, LayoutBase)


class Layout(LayoutBase):
    """A CuTe layout ``shape:stride`` (colexicographic: first mode fastest).

    >>> Layout((2, 4))
    Layout((2, 4),(1, 2))
    >>> Layout((2, 4))(5)
    5
    """

    def __init__(self, _shape, _stride=None):
        self.shape = _shape
        self.stride = prefix_product(_shape) if _stride is None else _stride

    def _native(self):
        return _native(self.shape, self.stride)

    def __eq__(self, other):
        return (isinstance(other, Layout) and self.shape == other.shape
                and self.stride == other.stride)

    def __hash__(self):
        return hash((self.shape, self.stride))

    def __len__(self):
        return len(self.shape) if is_tuple(self.shape) else 1

    def __call__(self, *args):
        """The offset of an index or coordinate; with ``None`` in the
        coordinate, the sub-layout of the ``None`` modes."""
        crd = args[0] if len(args) == 1 else args
        if has_none(crd):
            return Layout(slice_(crd, self.shape), slice_(crd, self.stride))
        return crd2idx(crd, self.shape, self.stride)

    def __getitem__(self, i):
        if is_tuple(self.shape):
            return Layout(self.shape[i], self.stride[i])
        if i != 0:
            raise IndexError(f"mode {i} of a rank-1 layout")
        return Layout(self.shape, self.stride)

    def size(self):
        """Size of the domain."""
        return product(self.shape)

    def cosize(self):
        """Size of the codomain: ``max - min + 1`` over the offsets (CuTe's
        ``L(size-1) + 1`` for non-negative strides)."""
        return self._native().cosize

    def __str__(self):
        return f"{self.shape}:{self.stride}"

    def __repr__(self):
        return f"Layout({self.shape},{self.stride})"


def make_layout(*layouts):
    """The layout whose modes are ``layouts``."""
    if len(layouts) == 1 and not is_layout(layouts[0]):
        layouts = layouts[0]
    layouts = list(layouts)
    return Layout(tuple(a.shape for a in layouts), tuple(a.stride for a in layouts))


def size(layout):
    """Size of a layout's domain, or product of an int tuple."""
    if is_layout(layout):
        return layout.size()
    return product(layout)


def cosize(layout):
    """Size of a layout's codomain."""
    return layout.cosize()


def _by_mode(op, layout, profile):
    """Applies ``op`` to the leading modes paired with ``profile``'s entries."""
    if isinstance(layout, ComposedLayout):
        raise _no_composed_op("a by-mode tiler or profile", layout)
    if len(layout) < len(profile):
        raise _profile_too_long(profile, layout)
    return make_layout([op(layout[i], p) for i, p in enumerate(profile)]
                       + [layout[i] for i in range(len(profile), len(layout))])


# The crate's operations on a composed layout (CuTe's rules: they act on the
# inner layout and keep the swizzle and the offset).
_COMPOSED_OPS = {"coalesce", "compose", "complement", "logical_divide", "logical_product"}


def _no_composed_op(what, layout):
    return _error(_hl.PreconditionError, f"{what} of the composed layout {layout}: not defined",
                  "Precondition", op=what, layout=str(layout),
                  rule="composed layouts have composition, divides, products, coalesce and complement")


def _apply(name, a, *args):
    """``name`` on ``a``'s crate form with the layouts ``args``, mirrored back."""
    native = [b._native() if is_layout(b) else b for b in args]
    if isinstance(a, ComposedLayout):
        if name not in _COMPOSED_OPS:
            raise _no_composed_op(name, a)
        r = getattr(_composed_native(a), name)(*native)
    else:
        r = getattr(a._native(), name)(*native)
    return _from_composed(r) if isinstance(r, _hl.ComposedLayout) else _from_native(r)


def coalesce(layout, profile=None):
    """The fewest modes with the same function (by mode with a tuple ``profile``)."""
    if is_tuple(profile):
        return _by_mode(coalesce, layout, profile)
    return _apply("coalesce", layout)


def filter(layout, profile=None):  # noqa: A001 (pycute's name)
    """Drops stride-0 and extent-1 modes, then coalesces."""
    if is_tuple(profile):
        return _by_mode(filter, layout, profile)
    return _apply("filter", layout)


def composition(layoutA, layoutB):
    """``layoutA ∘ layoutB``; exact: raises ``NoCompositionError`` when no layout is.

    ``layoutB`` may be an int (a contiguous tile), ``None`` (keep ``layoutA``) or
    a tuple of those and layouts, applied mode by mode. Either may be a
    swizzled ``ComposedLayout`` (``A ∘ C`` needs ``A`` to scale by a power of
    two; ``PreconditionError`` otherwise).
    """
    if layoutB is None:
        return layoutA
    if is_int(layoutB):
        layoutB = Layout(layoutB)
    if is_tuple(layoutB):
        return _by_mode(composition, layoutA, layoutB)
    if isinstance(layoutB, ComposedLayout):
        if isinstance(layoutA, ComposedLayout):
            raise _no_composed_op("composition with another composed layout", layoutA)
        return _from_composed(_composed_native(layoutB).left_compose(layoutA._native()))
    return _apply("compose", layoutA, layoutB)


def complement(layout, max_idx=1):
    """The layout filling the gaps of ``layout`` up to ``max_idx`` (of a
    composed layout: of its inner layout, as CuTe does)."""
    if is_int(layout):
        layout = Layout(layout)
    return _apply("complement", layout, max_idx)


def right_inverse(layout):
    """The largest ``R`` with ``layout(R(i)) == i`` on a prefix of offsets."""
    if layout is None:
        return None
    if is_int(layout):
        return Layout(layout)
    return _apply("right_inverse", layout)


def left_inverse(layout):
    """``R`` with ``R(layout(i)) == i`` for every index."""
    if layout is None:
        return None
    if is_int(layout):
        return Layout(layout)
    return _apply("left_inverse", layout)


def logical_divide(layoutA, layoutB):
    """``layoutA`` split into tiles of ``layoutB`` and the rest."""
    if layoutB is None:
        return layoutA
    if is_int(layoutB):
        layoutB = Layout(layoutB)
    if is_tuple(layoutB):
        return _by_mode(logical_divide, layoutA, layoutB)
    return _apply("logical_divide", layoutA, layoutB)


def logical_product(layoutA, layoutB):
    """``layoutA`` reproduced over ``layoutB``."""
    if layoutB is None:
        return layoutA
    if is_int(layoutB):
        layoutB = Layout(layoutB)
    if is_tuple(layoutB):
        return _by_mode(logical_product, layoutA, layoutB)
    return _apply("logical_product", layoutA, layoutB)


def hier_unzip(splitter, layoutA, layoutB):
    """Applies ``splitter`` mode by mode and gathers the results' first modes
    into one mode and the rest into another."""
    if isinstance(layoutA, ComposedLayout) and (layoutB is None or is_tuple(layoutB)):
        raise _no_composed_op("a by-mode tiler", layoutA)
    if layoutB is None:
        return make_layout(Layout(1, 0), layoutA)
    if is_tuple(layoutB):
        if len(layoutA) < len(layoutB):
            raise _profile_too_long(layoutB, layoutA)
        split = [hier_unzip(splitter, layoutA[i], b) for i, b in enumerate(layoutB)]
        rest = [layoutA[i] for i in range(len(layoutB), len(layoutA))]
        return make_layout(make_layout([s[0] for s in split]),
                           make_layout([s[1] for s in split] + rest))
    return splitter(layoutA, layoutB)


def zipped_divide(layoutA, layoutB):
    """Logical divide with the tiles in mode 0 and the rest in mode 1."""
    return hier_unzip(logical_divide, layoutA, layoutB)


def tiled_divide(layoutA, layoutB):
    """Zipped divide with the rest unpacked into top-level modes."""
    r = zipped_divide(layoutA, layoutB)
    return make_layout([r[0]] + [r[1][i] for i in range(len(r[1]))])


def zipped_product(layoutA, layoutB):
    """Logical product with the tile in mode 0 and the repetitions in mode 1."""
    return hier_unzip(logical_product, layoutA, layoutB)


def tiled_product(layoutA, layoutB):
    """Zipped product with the repetitions unpacked into top-level modes."""
    r = zipped_product(layoutA, layoutB)
    return make_layout([r[0]] + [r[1][i] for i in range(len(r[1]))])


def slice_and_offset(crd, layout):
    """The sub-layout of ``crd``'s ``None`` modes and the offset of the rest."""
    return (Layout(slice_(crd, layout.shape), slice_(crd, layout.stride)),
            crd2idx(crd, layout.shape, layout.stride))


# ---------------------------------------------------------------- swizzles

def shiftr(a, s):
    """``a >> s`` (a left shift for negative ``s``)."""
    return a >> s if s >= 0 else a << -s


def shiftl(a, s):
    """``a << s`` (a right shift for negative ``s``)."""
    return a << s if s >= 0 else a >> -s


class Swizzle:
    """CuTe's ``Swizzle<bits, base, shift>`` (the crate's ``hlayout.Swizzle``):
    xors the ``bits`` bits at ``base + max(shift, 0)`` into those ``shift``
    places lower (higher for a negative ``shift``).

    >>> Swizzle(2, 0, 3)(0b11000)
    27
    >>> Swizzle(2, 0, 3), str(Swizzle(2, 0, 3)), Swizzle(2, 0, 3).size()
    (Swizzle(2,0,3), 'SW_2_0_3', 32)

    Raises ``PreconditionError`` (a ``ValueError``) unless ``bits, base >= 0``,
    ``|shift| >= bits`` and ``bits + base + |shift| <= 63``.
    """

    def __init__(self, bits, base, shift):
        self._native = _hl.Swizzle(bits, base, shift)
        self.bits, self.base, self.shift = bits, base, shift
        mask = (1 << bits) - 1
        self.yyy_msk = mask << (base + max(0, shift))
        self.zzz_msk = mask << (base - min(0, shift))

    def __call__(self, offset):
        return self._native(offset)

    def size(self):
        """Size of the domain: ``2**(bits + base + |shift|)``."""
        return 1 << (self.bits + self.base + abs(self.shift))

    def cosize(self):
        """Size of the codomain (that of the domain)."""
        return self.size()

    def __eq__(self, other):
        return isinstance(other, Swizzle) and self._native == other._native

    def __hash__(self):
        return hash(self._native)

    def __str__(self):
        return f"SW_{self.bits}_{self.base}_{self.shift}"

    def __repr__(self):
        return f"Swizzle({self.bits},{self.base},{self.shift})"


def _swizzle_from_native(sw):
    return Swizzle(sw.bits, sw.base, sw.shift)


class ComposedLayout(LayoutBase):
    """``layoutB ∘ (offset + layoutA)``: CuTe's ``ComposedLayout``, e.g. a
    swizzle over a layout.

    With a ``Swizzle`` after an integer offset after a ``Layout`` (CuTe's
    swizzled tiles), it is the crate's ``hlayout.ComposedLayout`` and has the
    algebra pycute lacks: ``composition`` with a layout on either side,
    ``logical_divide``, ``zipped_divide``, ``logical_product``, ``coalesce``,
    ``complement``.

    >>> c = ComposedLayout(Swizzle(1, 0, 2), 0, Layout((4, 4), (4, 1)))
    >>> [c(i) for i in range(6)]
    [0, 5, 8, 13, 1, 4]
    >>> composition(c, Layout(4, 4))
    ComposedLayout(Swizzle(1,0,2),0,Layout(4,1))
    """

    def __init__(self, layoutB, offset, layoutA):
        self.layoutB, self.offset, self.layoutA = layoutB, offset, layoutA

    def _native(self):
        """The crate's composed layout, or None when this one is not a
        swizzle after an integer offset after a layout."""
        if isinstance(self.layoutB, Swizzle) and is_int(self.offset) and isinstance(
                self.layoutA, Layout):
            return _hl.ComposedLayout(self.layoutB._native, self.offset, self.layoutA._native())
        return None

    def __eq__(self, other):
        return isinstance(other, ComposedLayout) and (
            self.layoutB, self.offset, self.layoutA) == (other.layoutB, other.offset, other.layoutA)

    def __hash__(self):
        return hash((self.layoutB, self.offset, self.layoutA))

    def __len__(self):
        return len(self.layoutA)

    def __call__(self, *args):
        return self.layoutB(self.offset + self.layoutA(*args))

    def __getitem__(self, i):
        return ComposedLayout(self.layoutB, self.offset, self.layoutA[i])

    def size(self):
        """Size of the domain (that of ``layoutA``)."""
        return size(self.layoutA)

    def cosize(self):
        """Size of the codomain (that of ``layoutB``)."""
        return cosize(self.layoutB)

    def __str__(self):
        return f"{self.layoutB} o {self.offset} o {self.layoutA}"

    def __repr__(self):
        return f"ComposedLayout({self.layoutB!r},{self.offset!r},{self.layoutA!r})"


def _composed_native(c):
    """``c``'s crate form; ``PreconditionError`` when it has none."""
    n = c._native()
    if n is None:
        raise _error(_hl.PreconditionError,
                     f"the algebra of {c!r}: only a Swizzle after an integer offset after a Layout has one",
                     "Precondition", op="composed layout algebra", layout=str(c),
                     rule="only a Swizzle after an integer offset after a Layout has an algebra")
    return n


def _from_composed(n):
    return ComposedLayout(_swizzle_from_native(n.swizzle), n.offset, _from_native(n.layout))


# pycute's submodules, as attributes of the package (``pycute.layout.Layout``).
from . import int_tuple, layout, swizzle, typing  # noqa: E402,F401
