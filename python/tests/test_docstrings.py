"""The examples in the native module's docstrings run and hold."""

import doctest
import inspect

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
