"""``pycute.typing``'s names, from :mod:`hlayout.pycute`."""

from . import ABC, Integer  # noqa: F401
