"""Shim: the vendored pycute tests import `pycute`; point it at hlayout.pycute."""

import hlayout.pycute

hlayout.pycute.install_as_pycute()
