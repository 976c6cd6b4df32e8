"""``pycute.int_tuple``'s names, from :mod:`hlayout.pycute`."""

from . import (Integer, Union, chain, crd2crd, crd2idx, elem_scale, flatten, has_none,  # noqa: F401
               idx2crd, inner_product, is_int, is_tuple, prefix_product, product, reduce, shape_div,
               signum, slice_, tuple_max)
