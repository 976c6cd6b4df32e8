"""The examples in the native module's docstrings and in python/README.md run and hold."""

import doctest
import importlib.metadata
import inspect
import pathlib
import re
import sys

import pytest

import hlayout
from hlayout import _hlayout

OBJECTS = [getattr(_hlayout, n) for n in dir(_hlayout) if not n.startswith("_")]


def test_native_docstring_examples():
    finder, runner = doctest.DocTestFinder(recurse=False), doctest.DocTestRunner()
    globs = {n: getattr(hlayout, n) for n in hlayout.__all__}
    ran = 0
    for obj in OBJECTS:
        members = [obj] + ([m for _, m in inspect.getmembers(obj)] if inspect.isclass(obj) else [])
        for m in members:
            for test in finder.find(m, getattr(m, "__name__", "?"), globs=dict(globs)):
                if test.examples:
                    result = runner.run(test)
                    assert result.failed == 0, test.name
                    ran += result.attempted
    assert ran >= 56  # every example of the native docstrings (as of the kernel and swizzle bindings)


README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def readme_examples():
    """The ```python blocks of python/README.md, in order."""
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)


def test_readme_examples():
    # Every ```python block of the README is a doctest, run in order in one namespace (as
    # pasted into one session). The pycute and tinygrad examples patch modules: restored after.
    pytest.importorskip("numpy")  # offsets print as NumPy arrays
    pytest.importorskip("tinygrad")
    blocks = readme_examples()
    assert len(blocks) >= 7  # the native API, flatten, kernels, swizzles, errors, pycute, tinygrad
    for block in blocks:  # every block is doctest-shaped, so none goes unchecked
        assert block.startswith(">>> "), block
    import hlayout.tinygrad

    saved = {n: m for n, m in sys.modules.items() if n == "pycute" or n.startswith("pycute.")}
    plugged = hlayout.tinygrad.installed()  # another test may have installed the plug-in
    hlayout.tinygrad.uninstall()  # the README shows tinygrad alone first
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {}
    tinygrad_version = importlib.metadata.version("tinygrad")
    try:
        for n, block in enumerate(blocks):
            if "tinygrad.shape" in block and tinygrad_version != "0.10.3":
                continue  # the 0.10.3 plug-in's example: views exist only there
            test = parser.get_doctest(block, globs, f"README block {n}", str(README), 0)
            result = runner.run(test, clear_globs=False)
            assert result.failed == 0, f"README block {n} failed:\n{block}"
            globs = test.globs  # a DocTest copies its globals: carry them to the next block
    finally:
        for name in [n for n in sys.modules if n == "pycute" or n.startswith("pycute.")]:
            del sys.modules[name]
        sys.modules.update(saved)
        if plugged:
            hlayout.tinygrad.install()
