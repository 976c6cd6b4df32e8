"""``pycute.typing``'s names, from :mod:`hlayout.pycute`."""

from . import Integer  # noqa: F401
