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
``hlayout.tinygrad.install()`` plugs hlayout into tinygrad (0.10.3: the exact
view merge; 0.14.0: the index of every movement-op chain).
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
    LoopNest,
    ModeOutOfRangeError,
    NeedsFactsError,
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
    SymFlatView,
    SymLayout,
    SymPredicated,
    SymViewStack,
    TooDeepError,
    TvPicture,
    View,
    ViewStack,
    common_refinement,
    crd2crd,
    crd2idx,
    idx2crd,
    loop_nest,
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
    "LoopNest",
    "ModeOutOfRangeError",
    "NeedsFactsError",
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
    "SymFlatView",
    "SymLayout",
    "SymPredicated",
    "SymViewStack",
    "TooDeepError",
    "TvPicture",
    "View",
    "ViewStack",
    "common_refinement",
    "crd2crd",
    "crd2idx",
    "idx2crd",
    "loop_nest",
    "merge",
    "prefix_product",
    "reshape_flat",
    "shape_div",
    "suffix_product",
    "tuple_size",
]

# Shared memory: bank conflicts, the swizzle search, F2 linear layouts.
from ._hlayout import (  # noqa: E402
    NoSwizzleError,
    NotLinearError,
    bank_conflicts,
    bank_conflicts_per_request,
    from_linear,
    linear_layout,
    swizzle_between,
    swizzle_search,
)

__all__ += [
    "NoSwizzleError",
    "NotLinearError",
    "bank_conflicts",
    "bank_conflicts_per_request",
    "from_linear",
    "linear_layout",
    "swizzle_between",
    "swizzle_search",
]
