"""Shim: the vendored pycute tests import `pycute`; point it at hlayout.pycute."""

import sys

import hlayout.pycute

sys.modules["pycute"] = hlayout.pycute
