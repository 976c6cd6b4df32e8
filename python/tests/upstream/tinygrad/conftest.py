"""Shim for the vendored tinygrad 0.10.3 tests: runs them on tinygrad's PYTHON
backend with hlayout's plug-in installed (set HLAYOUT_TINYGRAD=0 for stock
tinygrad). With the plug-in, test_view.py's five `test_merges_from_fuzzer`
pairs and test_symbolic_ops.py's `test_attention_simple_view` (a merge over a
Variable), expected failures upstream, are run as ordinary tests: they must
merge into the expected single views. test_symbolic_shapetracker.py's
`test_merge_view_recursion_err2` asserts stock's `None` for a merge whose
exact answer, `(a):(0)`, the plug-in gives (docs/tinygrad.md, "Variables"):
with the plug-in it is a strict expected failure, and
python/tests/test_tinygrad10_symbolic.py checks the answer. Collected only when
tinygrad 0.10.3 is installed."""

import os
from importlib.metadata import PackageNotFoundError, version

try:
    _VERSION = version("tinygrad")
except PackageNotFoundError:
    _VERSION = None

PLUGIN = os.environ.get("HLAYOUT_TINYGRAD", "1") != "0"

if _VERSION != "0.10.3":  # collected only against the tinygrad they come from
    collect_ignore_glob = ["*"]
else:
    os.environ.setdefault("PYTHON", "1")
    if PLUGIN:
        import hlayout.tinygrad

        hlayout.tinygrad.install()


def pytest_collection_modifyitems(config, items):
    if not PLUGIN:
        return
    for item in items:
        if (item.name.startswith("test_merges_from_fuzzer") or item.name == "test_attention_simple_view") \
                and item.cls is not None:
            getattr(item.cls, item.name).__unittest_expecting_failure__ = False
        if item.name == "test_merge_view_recursion_err2" and item.cls is not None:
            getattr(item.cls, item.name).__unittest_expecting_failure__ = True
