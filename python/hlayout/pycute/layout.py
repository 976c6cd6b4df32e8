"""``pycute.layout``'s names, from :mod:`hlayout.pycute`."""

from . import (Layout, LayoutBase, coalesce, complement, composition, cosize, filter,  # noqa: F401,A004
               hier_unzip, is_layout, left_inverse, logical_divide, logical_product, make_layout,
               right_inverse, size, slice_and_offset, tiled_divide, tiled_product, zipped_divide,
               zipped_product)
from .int_tuple import *  # noqa: F401,F403 (pycute.layout re-exports the int-tuple helpers)
