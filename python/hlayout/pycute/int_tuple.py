"""``pycute.int_tuple``'s names, from :mod:`hlayout.pycute`."""

from . import (crd2crd, crd2idx, elem_scale, flatten, has_none, idx2crd, inner_product,  # noqa: F401
               is_int, is_tuple, prefix_product, product, shape_div, signum, slice_, tuple_max)
