"""hlayout: exact hierarchical tensor layouts and views, row-major.

Layouts are written ``SHAPE:STRIDE``; index ``i`` is unravelled row-major over
the shape's leaves (last leaf fastest), as NumPy does.

>>> from hlayout import Layout, ViewStack
>>> l = Layout("(2,(2,2)):(2,(1,4))")
>>> l.offsets().tolist()
[0, 4, 1, 5, 2, 6, 3, 7]
>>> l(6), l((1, 2)), l.size, l.cosize
(3, 3, 8, 8)
>>> s = ViewStack([10, 10]).permute([1, 0]).reshape([100])
>>> str(s), len(s)
('((10,10)):((1,10))', 1)
>>> s.kernel().render("c")          # the index a kernel computes, and its validity
('i0 * 10 - i0 / 10 * 99', '1')

Every algorithm is the Rust crate's; this package converts and re-exports.
``hlayout.pycute`` is a drop-in for NVIDIA's pycute (colexicographic), and
``hlayout.tinygrad.install()`` plugs the exact merge into tinygrad 0.10.3.
"""

from ._hlayout import (
    BadMovementError,
    BudgetExceededError,
    ComposedLayout,
    FlatView,
    FlattenError,
    HlayoutError,
    IntegerOverflowError,
    InvalidViewError,
    Kernel,
    Layout,
    LimitExceededError,
    ModeOutOfRangeError,
    NeedsFactsError,
    NegativeIndexError,
    NoCommonRefinementError,
    NoCompositionError,
    NonPositiveExtentError,
    NotCompatibleError,
    NotCongruentError,
    OutOfDomainError,
    ParseError,
    PreconditionError,
    ProfileTooLongError,
    SizeMismatchError,
    Swizzle,
    SymLayout,
    TooDeepError,
    TvPicture,
    View,
    ViewStack,
    common_refinement,
    crd2crd,
    crd2idx,
    idx2crd,
    merge,
    prefix_product,
    reshape_flat,
    shape_div,
    suffix_product,
    tuple_size,
)

__all__ = [
    "BadMovementError",
    "BudgetExceededError",
    "ComposedLayout",
    "FlatView",
    "FlattenError",
    "HlayoutError",
    "IntegerOverflowError",
    "InvalidViewError",
    "Kernel",
    "Layout",
    "LimitExceededError",
    "ModeOutOfRangeError",
    "NeedsFactsError",
    "NegativeIndexError",
    "NoCommonRefinementError",
    "NoCompositionError",
    "NonPositiveExtentError",
    "NotCompatibleError",
    "NotCongruentError",
    "OutOfDomainError",
    "ParseError",
    "PreconditionError",
    "ProfileTooLongError",
    "SizeMismatchError",
    "Swizzle",
    "SymLayout",
    "TooDeepError",
    "TvPicture",
    "View",
    "ViewStack",
    "common_refinement",
    "crd2crd",
    "crd2idx",
    "idx2crd",
    "merge",
    "prefix_product",
    "reshape_flat",
    "shape_div",
    "suffix_product",
    "tuple_size",
]
