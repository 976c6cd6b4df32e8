"""Shim for the vendored tinygrad 0.14 tests: runs them on tinygrad's CPU
device with hlayout's plug-in installed (set HLAYOUT_TINYGRAD=0 for stock
tinygrad). Collected only when tinygrad 0.14.0 is the installed tinygrad.

`EXPECTED_FAILURES` lists the upstream expected failures (`@unittest.expectedFailure`)
that pass with the plug-in: they run as ordinary tests when it is installed.
`REGRESSIONS` lists the tests that pass stock but not with the plug-in, run as
expected failures with the plug-in (each with the reason; results stay exact).
`SLOW` lists the tests that took 12 s or more each in a stock run on a loaded
2-core machine (together about half the suite's time): deselected unless
HLAYOUT_TINYGRAD_SLOW=1, to keep CI short.

Kernels compile in the test process (`PARALLEL=0` unless set): tinygrad 0.14's
compile pool restarts a worker every 16 kernels, and while it starts one it sets
`__main__.__file__` to None (`tinygrad/engine/worker.py`, `_without_main`). A test
running at `DEBUG>=1` walks the stack with `inspect.stack()` at the same moment
and fails with "<module '__main__' from None> is a built-in module"
(`test_rangeify.py::TestPcontig::test_flash_attention_bw`, seen once in CI, stock
tinygrad's race, not the plug-in's)."""

import os
from importlib.metadata import PackageNotFoundError, version

try:
    _VERSION = version("tinygrad")
except PackageNotFoundError:
    _VERSION = None

PLUGIN = os.environ.get("HLAYOUT_TINYGRAD", "1") != "0"
EXPECTED_FAILURES = set()
REGRESSIONS = {}
SLOW = {
    "test_two_overlapping_binops_no_rerun", "test_sgd_4convs_fuse",
    "test_scaled_dot_product_attention_causal_fusion", "test_resnet_block",
    "test_index_ind_dtype", "test_limit_bufs_linear_scaling", "test_adam_2convs_fuse",
    "test_adam_step_fusion", "test_image_conv_fusion", "test_index", "test_elu",
    "test_scaled_dot_product_attention_multireduce_fusion", "test_conv2d", "test_mnist_val",
    "test_bias", "test_conv2d_half",
}
RUN_SLOW = os.environ.get("HLAYOUT_TINYGRAD_SLOW") == "1"

if _VERSION != "0.14.0":
    collect_ignore_glob = ["*"]
else:
    os.environ.setdefault("DEV", "CPU")
    if "PARALLEL" not in os.environ:
        os.environ["PARALLEL"] = "0"
        from tinygrad.helpers import PARALLEL as _PARALLEL

        _PARALLEL.value = 0  # in case tinygrad was imported before this file
    if PLUGIN:
        import hlayout.tinygrad

        hlayout.tinygrad.install()


HERE = os.path.dirname(os.path.abspath(__file__))


def _ours(item):
    return str(item.path).startswith(HERE + os.sep)


def pytest_collection_modifyitems(config, items):
    if not RUN_SLOW:
        slow = [i for i in items if _ours(i) and i.name in SLOW]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [i for i in items if not (_ours(i) and i.name in SLOW)]
    if not PLUGIN:
        return
    import pytest

    for item in items:
        if _ours(item) and item.name in REGRESSIONS:
            item.add_marker(pytest.mark.xfail(reason=REGRESSIONS[item.name], strict=True))
        if _ours(item) and item.name in EXPECTED_FAILURES and item.cls is not None:
            getattr(item.cls, item.name).__unittest_expecting_failure__ = False
