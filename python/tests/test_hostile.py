"""Hostile arguments: every public function, class, static method and method
of ``hlayout`` (found by introspection, visited in sorted order) is called with
hostile values (ints beyond i64, negatives, zeros, empty and deeply nested
tuples, wrong types, strings, None, floats, bools...). A call may succeed or
raise a typed error: an ``hlayout`` error, ``TypeError`` or ``ValueError``, and
two that Python's own conversions raise, ``OverflowError`` (an int beyond i64
where an ``int`` is taken) and ``MemoryError`` (an offsets array that cannot be
allocated). Never pyo3's ``PanicException`` (a ``BaseException``), never a
crash.

The calls are the same whatever ``PYTHONHASHSEED`` is: names are sorted and
each callable's random argument tuples come from a generator seeded with its
name (``random.Random(str)`` hashes the string with SHA-512, not ``hash``).
CI runs this file under several hash seeds.
"""

import random

import pytest

import hlayout
from hlayout import (ComposedLayout, FlatView, HlayoutError, Layout, Swizzle, View, ViewStack,
                     common_refinement)

ALLOWED = (HlayoutError, TypeError, ValueError, OverflowError, MemoryError)


def nested(depth):
    t = 1
    for _ in range(depth):
        t = (t,)
    return t


HOSTILE = [
    0, 1, -1, 2, 3, 7, 2 ** 31, 2 ** 62, 2 ** 63 - 1, -2 ** 63, 2 ** 63, -2 ** 63 - 1, 2 ** 64, 10 ** 30,
    True, False, None, 0.0, 2.5, -1.5, float("nan"), float("inf"), 1j,
    "", " ", "x", "(", ")", "4:1", "(2,3):(3,1)", "(0,0):(1,1)", "Sw<1,0,2> o 0 o 4:1", "Sw<3,4,3>",
    "c", "cuda", "rust", "python", "linear", "coords", "\x00", "\u00e9" * 3, b"4:1",
    (), [], {}, (0,), (0, 0), [0], (1,), (2, 3), [2, 3], (-1, 2), (0, 5), ((2, 2), 3), ((),),
    (2 ** 62, 2 ** 62), [2 ** 40] * 3, (2 ** 63,), (1.5, 2), ("a", 1), [None], [(1, 1)], [(0, 2 ** 62)],
    [(-5, 9)], [(1, 2, 3)], [True, False], [False], nested(80), nested(5), [[[[]]]], {"a": 1}, object(),
    Layout("(2,3):(3,1)"), Layout("8:0"), Layout((2 ** 31, 2 ** 31)), FlatView((4,), (1,)),
    FlatView((2, 2), (2 ** 61, -2 ** 61)), Swizzle(2, 0, 3), [Layout("2:1"), Layout("3:1")],
    ViewStack([2, 3]), View.contiguous([0, 3]),
]

# Values whose methods are called: small ones (their offsets are cheap) and
# the edge cases: a 2**31-element layout (its size-proportional methods are
# left out), size 0, negative strides, masks, several views, kernels.
RECEIVERS = [
    Layout("(2,(2,2)):(2,(1,4))"), Layout("(3,4):(-4,1)"), Layout("1:0"), Layout(f"{2 ** 31}:1"),
    FlatView((4, 3), (3, 1), offset=-3, mask=[(1, 4), (0, 3)]), FlatView((0, 3), (3, 1)),
    ViewStack([10, 10]).permute([1, 0]).reshape([100]), ViewStack([3, 4]).pad([(1, 0), (0, 1)]),
    ViewStack([0, 4]), ViewStack([3, 4]).pad([(1, 0), (0, 1)]).views[0], View.contiguous([0, 2]),
    Layout("(2,(2,2)):(2,(1,4))").kernel("coords"), ViewStack([4]).pad([(1, 2)]).kernel("linear"),
    Swizzle(3, 4, 3), ComposedLayout("Sw<1,0,2> o 0 o (4,4):(4,1)"),
    hlayout.SymLayout("(4,N):(1,4)", assume={"N": {"max": 64}}),
    hlayout.SymViewStack(["N", 4], assume={"N": {"max": 64}}).pad([(1, 0), (0, "P")]),
    hlayout.SymLayout("(4,N):(1,4)", assume={"N": {"max": 64}}).kernel(),
]
HUGE = {3}  # RECEIVERS[3]: materialising its offsets is 16 GiB, not a bug
SIZED = {"offsets", "latex", "_repr_svg_"}
DUNDERS = ("__call__", "__getitem__", "__len__", "__repr__", "__str__", "__reduce__", "__hash__", "__eq__",
           "_repr_svg_")


def is_error_class(obj):
    return isinstance(obj, type) and issubclass(obj, BaseException)


def callables():
    """(name, callable) for every public entry point, in a fixed order."""
    out = []
    for name in sorted(n for n in dir(hlayout) if not n.startswith("_")):
        obj = getattr(hlayout, name)
        if not callable(obj) or is_error_class(obj):
            continue
        out.append((name, obj))
        if isinstance(obj, type):  # constructors above, static and class methods here
            for m in sorted(k for k in vars(obj) if not k.startswith("_")):
                if isinstance(obj.__dict__[m], (staticmethod, classmethod)) or \
                        type(obj.__dict__[m]).__name__ in ("builtin_function_or_method", "classmethod_descriptor"):
                    out.append((f"{name}.{m}", getattr(obj, m)))
    for k, r in enumerate(RECEIVERS):
        for m in sorted(dir(r)):
            if m.startswith("_") and m not in DUNDERS or (k in HUGE and m in SIZED):
                continue
            attr = getattr(r, m)
            if callable(attr):
                out.append((f"{type(r).__name__}#{k}.{m}", attr))
    return out


def argument_tuples(name):
    rng = random.Random(name)
    out = [()] + [(v,) for v in HOSTILE]
    out += [tuple(rng.choice(HOSTILE) for _ in range(n)) for n in (2, 3) for _ in range(40)]
    return out


def test_every_public_entry_point_survives_hostile_arguments():
    entry_points = callables()
    assert len(entry_points) > 150, len(entry_points)
    calls, raised = 0, set()
    for name, f in entry_points:
        for args in argument_tuples(name):
            calls += 1
            try:
                f(*args)
            except ALLOWED as e:
                raised.add(type(e).__name__)
            except BaseException as e:  # noqa: BLE001 (PanicException is a BaseException)
                pytest.fail(f"{name}{args!r} raised {type(e).__module__}.{type(e).__name__}: {e}")
    assert calls > 20000, calls
    assert {"TypeError", "ParseError", "BadMovementError", "IntegerOverflowError"} <= raised, raised


def test_common_refinement_of_size_zero_shapes():
    # Was a division by zero in the crate (a PanicException here).
    assert common_refinement((0, 0), (0,)) == ((0, 0), ((0, 0),))
    assert common_refinement((2, 0), (0, 2)) == ((2, (0, 2)), ((2, 0), 2))
    with pytest.raises(hlayout.NoCommonRefinementError):
        common_refinement((3, 0), (4, 0))
    with pytest.raises(hlayout.OutOfDomainError):
        common_refinement((-1, -1), (1,))


def test_view_from_layout_refuses_offsets_beyond_i64():
    l = Layout("(2,3):(-3,1)")
    assert View.from_layout(l, 2 ** 63 - 3).offsets().max() == 2 ** 63 - 1
    with pytest.raises(hlayout.IntegerOverflowError):
        View.from_layout(l, 2 ** 63 - 2)
