"""hlayout.tinygrad over tinygrad 0.10.3 Variables: the sint <-> polynomial
conversion agrees with tinygrad's own evaluation at every value of small
ranges; merges over symbols that stock tinygrad cannot do (the
test_variable_divmod pair, a KV cache, a symbolic cat's rows) are done and
equal the brute-force composition at every binding; numbers that are not
polynomials fall back; symbolic tensor ops give stock tinygrad's data on the
PYTHON device (skipped unless tinygrad 0.10.3 is installed)."""

import itertools
import os
import random

import pytest

tinygrad = pytest.importorskip("tinygrad")
pytest.importorskip("tinygrad.shape.shapetracker", reason="tinygrad 0.10.3's ShapeTracker")
os.environ.setdefault("PYTHON", "1")

import numpy as np  # noqa: E402

import hlayout.tinygrad as plugin  # noqa: E402
from hlayout.tinygrad import _sym10  # noqa: E402
from tinygrad import Tensor, Variable  # noqa: E402
from tinygrad.shape.shapetracker import ShapeTracker  # noqa: E402
from tinygrad.shape.view import View  # noqa: E402


@pytest.fixture
def stock():
    """Runs the test body with stock tinygrad, then restores the plug-in state."""
    was = plugin.installed()
    plugin.uninstall()
    yield
    if was:
        plugin.install()


@pytest.fixture
def installed():
    was = plugin.installed()
    plugin.install()
    yield
    if not was:
        plugin.uninstall()


def infer(x, values):
    """tinygrad's own value of the sint ``x`` at ``values`` ({Variable: int})."""
    return x if isinstance(x, int) else x.sym_infer(values)


def text_value(text, values):
    """The value of polynomial text by definition (names looked up by name)."""
    by_name = {v.arg[0]: n for v, n in values.items()}
    total = 0
    for sign, body in _sym10._TERM.findall(text):
        term = -1 if sign == "-" else 1
        for f in body.split("*"):
            term *= int(f) if f.isdigit() else by_name[f]
        total += term
    return total


def random_sint(rng, leaves, depth):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(leaves + [rng.randint(-3, 5)])
    a, b = random_sint(rng, leaves, depth - 1), random_sint(rng, leaves, depth - 1)
    return a * b if rng.random() < 0.4 else (a - b if rng.random() < 0.3 else a + b)


def test_conversion_agrees_with_tinygrad_at_every_value():
    a, b = Variable("a", 0, 4), Variable("b", 1, 3)
    rng = random.Random(18)
    for bound in (False, True):
        leaves = [a.bind(2), b.bind(1)] if bound else [a, b]
        for _ in range(200):
            x = random_sint(rng, leaves, 3)
            got = _sym10.Leaves()
            text = _sym10.poly_text(x, got)
            back = _sym10.from_text(text, got)
            for va, vb in itertools.product(range(0, 5), range(1, 4)):
                values = {a: va, b: vb}
                assert text_value(text, values) == infer(x, values) == infer(back, values), text
            for name, (lo, hi) in got.bounds.items():
                assert (lo, hi) == {"a": (0, 4), "b": (1, 3)}[name]


def test_not_polynomial_falls_back():
    a = Variable("a", 1, 8)
    # div, mod, max; two Variables of one name (other bounds, bound vs not); a name
    # the protocol cannot spell
    for x in (a // 2, a % 3, a.maximum(2), a * Variable("a", 1, 9), a + a.bind(3),
              Variable("a b", 1, 4) + 1):
        with pytest.raises(_sym10.NotPolynomial):
            _sym10.poly_text(x, _sym10.Leaves())


def view_value(v, coord, values):
    if v.mask is not None and not all(infer(b, values) <= c < infer(e, values)
                                      for c, (b, e) in zip(coord, v.mask)):
        return None
    return infer(v.offset, values) + sum(c * infer(s, values) for c, s in zip(coord, v.strides))


def composed(vm2, vm1, values):
    """vm1's elements read through vm2 (row-major), by definition."""
    shape2 = [infer(s, values) for s in vm2.shape]
    size = 1
    for n in shape2:
        size *= n
    out = []
    for c in itertools.product(*(range(infer(s, values)) for s in vm1.shape)):
        x = view_value(vm1, c, values)
        if x is None or not 0 <= x < size:
            out.append(None)
            continue
        digits = []
        for n in reversed(shape2):
            digits.append(x % n)
            x //= n
        out.append(view_value(vm2, tuple(reversed(digits)), values))
    return out


def one_view(v, vm1, values):
    return [view_value(v, c, values) for c in itertools.product(*(range(infer(s, values)) for s in vm1.shape))]


def check_merge(vm2, vm1, var, rng):
    """The plug-in merges what stock cannot, and the answer is right at every value."""
    plugin.uninstall()
    assert View.__add__(vm2, vm1) is None  # stock 0.10.3 cannot
    plugin.install()
    merged = vm2 + vm1
    assert merged is not None
    for x in rng:
        values = {var: x}
        assert one_view(merged, vm1, values) == composed(vm2, vm1, values), (x, merged)
    return merged


def test_variable_divmod_pair_is_merged(installed):
    # tinygrad's test_variable_divmod: (idx0*(sp+1)+idx1) // (sp+1) is idx0, an expected
    # failure of stock 0.10.3's simplifier, so its View.__add__ keeps the two views.
    sp = Variable("sp", 0, 12)
    vm2 = View.create((3, sp + 1), (64, 1))
    vm1 = View.create((3, sp + 1), (sp + 1, 1))
    merged = check_merge(vm2, vm1, sp, range(0, 13))
    assert merged.strides == (64, 1) and merged.offset == 0 and merged.mask is None
    assert merged.shape == vm1.shape


def test_kv_cache_and_cat_rows_are_merged(installed):
    sp = Variable("start_pos", 1, 8)
    vm2 = View.create((2, sp + 1, 1, 1), (8, 1, 0, 0), 0, ((0, 2), (0, sp), (0, 1), (0, 1)))
    vm1 = View.create((2, sp + 1))
    merged = check_merge(vm2, vm1, sp, range(1, 9))
    assert merged.strides == (8, 1)
    i = Variable("i", 1, 6)
    vm2 = View.create((i + 2, 4), (4, 1), -4 * 2, ((2, i + 2), (0, 4)))
    vm1 = View.create((4 * i + 8,), (1,), 0, ((8, 4 * i + 8),))
    check_merge(vm2, vm1, i, range(1, 7))


def test_bound_variables_keep_their_binding(installed):
    v = Variable("sp", 0, 12)
    b = v.bind(5)
    merged = View.create((3, b + 1), (64, 1)) + View.create((3, b + 1), (b + 1, 1))
    assert merged is not None and merged.vars() == {b}
    assert merged.unbind()[1] == {v: 5}


def test_symbolic_reshape_through_hlayout(installed):
    # A reshape stock 0.10.3 leaves to a second view: rows of sp+1 seen as one dimension.
    sp = Variable("sp", 1, 6)
    view = View.create((3, sp + 1), (64, 1))
    plugin.uninstall()
    assert view.reshape((3 * sp + 3,)) is None
    plugin.install()
    assert View.reshape(view, (3 * sp + 3,)) is None  # a carry every sp+1 elements: no view
    padded = View.create((2, sp + 1), (sp + 1, 1))  # contiguous in disguise
    r = padded.reshape((2 * sp + 2,))
    assert r is not None and r.strides == (1,)


def test_symbolic_st_simplify_is_right(installed):
    sp = Variable("sp", 0, 12)
    st = ShapeTracker((View.create((3, sp + 1), (64, 1)), View.create((3, sp + 1), (sp + 1, 1))))
    assert len(st.simplify().views) == 1


def run_ops():
    """Symbolic tensor ops (bound Variables), realised on the PYTHON device."""
    rng = np.random.default_rng(18)
    out = []
    for n in (2, 3, 5):
        vi = Variable("i", 1, 10).bind(n)
        a = rng.standard_normal((3, n)).astype(np.float32)
        b = rng.standard_normal((n, 4)).astype(np.float32)
        ta, tb = Tensor(a).reshape(3, vi), Tensor(b).reshape(vi, 4)
        out.append((ta @ tb).numpy())
        out.append(ta.pad(((0, 0), (1, 2))).sum(1).numpy())
        out.append(Tensor(a).reshape(3, vi).cat(Tensor(a).reshape(3, vi), dim=1).reshape(3, 2 * vi)
                   .sum(0).reshape(2 * n).numpy())
        cache = Tensor(rng.standard_normal((2, 10)).astype(np.float32))
        out.append((cache.shrink(((0, 2), (0, vi))) * 2 + 1).sum(1).numpy())
        out.append((ta.permute(1, 0) * 2).sum(0).numpy())
    return out


def test_symbolic_ops_equal_stock_data(stock, monkeypatch):
    expected = run_ops()
    answers = []

    def counted(vm2, vm1, merge=_sym10.merge):
        answers.append(merge(vm2, vm1))
        return answers[-1]

    monkeypatch.setattr(_sym10, "merge", counted)
    plugin.install()
    got = run_ops()
    plugin.uninstall()
    # hlayout merged views that stock tinygrad kept apart (6 when written)
    assert any(a is not None for a in answers)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6)


def test_recursion_err2_pair_gets_the_exact_view(installed):
    # test_symbolic_shapetracker.py's test_merge_view_recursion_err2 asserts stock's None;
    # (a):(0) read through (a):(1) masked (0, a) is (a):(0) at every a.
    a = Variable("a", 1, 10)
    for x in (a, a.bind(4)):
        vm2 = View(shape=(x,), strides=(0,), offset=0, mask=None, contiguous=False)
        vm1 = View(shape=(x,), strides=(1,), offset=0, mask=((0, x),), contiguous=False)
        merged = vm2 + vm1
        assert merged == View.create((x,), (0,))
        for n in range(1, 11):
            assert one_view(merged, vm1, {a: n}) == composed(vm2, vm1, {a: n})


def test_attention_simple_view_is_merged(installed):
    # test_symbolic_ops.py's test_attention_simple_view, an expected failure of stock 0.10.3
    # ("until this works, symbolic single kernel softmax won't").
    i = Variable("i", 2, 4)
    v1 = View.create((2, 4, 1, i, i), ((i * 4), i, 0, 0, 1))
    v2 = View.create((2, 4, 1, i, i, i), (((i * i) * 4), (i * i), 0, 0, i, 1))
    check_merge(v1, v2, i, range(2, 5))
