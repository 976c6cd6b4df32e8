"""``pycute.swizzle``'s names, from :mod:`hlayout.pycute` (with the layout
names it re-exports, as pycute's does)."""

from . import ComposedLayout, Swizzle, shiftl, shiftr  # noqa: F401
from .layout import *  # noqa: F401,F403
