"""Shim for the vendored tinygrad 0.14 tests: runs them on tinygrad's CPU
device with hlayout's plug-in installed (set HLAYOUT_TINYGRAD=0 for stock
tinygrad). Collected only when tinygrad 0.14.0 is the installed tinygrad.

`EXPECTED_FAILURES` lists the upstream expected failures (`@unittest.expectedFailure`)
that pass with the plug-in: they run as ordinary tests when it is installed."""

import os
from importlib.metadata import PackageNotFoundError, version

try:
    _VERSION = version("tinygrad")
except PackageNotFoundError:
    _VERSION = None

PLUGIN = os.environ.get("HLAYOUT_TINYGRAD", "1") != "0"
EXPECTED_FAILURES = set()

if _VERSION != "0.14.0":
    collect_ignore_glob = ["*"]
else:
    os.environ.setdefault("DEV", "CPU")
    if PLUGIN:
        import hlayout.tinygrad

        hlayout.tinygrad.install()


def pytest_collection_modifyitems(config, items):
    if not PLUGIN:
        return
    for item in items:
        if item.name in EXPECTED_FAILURES and item.cls is not None:
            getattr(item.cls, item.name).__unittest_expecting_failure__ = False
