"""``pycute.swizzle``'s names, from :mod:`hlayout.pycute`."""

from . import ComposedLayout, Swizzle, shiftl, shiftr  # noqa: F401
