"""hlayout.tinygrad against tinygrad 0.10.3 (test_tinygrad14.py: 0.14.0): every reference chain replayed
through ShapeTracker with the plug-in gives the brute-force offsets with no
more views than tinygrad alone (skipped when tinygrad is not installed)."""

import itertools
import os

import pytest

tinygrad = pytest.importorskip("tinygrad")
pytest.importorskip("tinygrad.shape.shapetracker", reason="tinygrad 0.10.3's ShapeTracker")
os.environ.setdefault("PYTHON", "1")

import hlayout.tinygrad as plugin  # noqa: E402
from refdata import load  # noqa: E402
from tinygrad.shape.shapetracker import ShapeTracker  # noqa: E402
from tinygrad.shape.view import View  # noqa: E402

CHAINS = load("tinygrad_chains.json")


def replay(req):
    st = ShapeTracker.from_shape(tuple(req["shape"]))
    for op, arg in req["ops"]:
        if op in ("pad", "shrink"):
            arg = tuple(tuple(p) for p in arg)
        else:
            arg = tuple(arg)
        st = getattr(st, op)(arg)
    return st.simplify()


def view_eval(v, coord):
    if v.mask is not None and not all(b <= c < e for c, (b, e) in zip(coord, v.mask)):
        return None
    return v.offset + sum(c * s for c, s in zip(coord, v.strides))


def st_offsets(st):
    """Brute force: every element through every view, -1 where invalid."""
    out = []
    for coord in itertools.product(*[range(n) for n in st.shape]):
        c, off = coord, None
        for k in range(len(st.views) - 1, -1, -1):
            off = view_eval(st.views[k], c)
            if off is None:
                break
            if k:
                below = st.views[k - 1].shape
                total = 1
                for n in below:
                    total *= n
                if not 0 <= off < total:
                    off = None
                    break
                digits = []
                for n in reversed(below):
                    digits.append(off % n)
                    off //= n
                c = tuple(reversed(digits))
        out.append(-1 if off is None else off)
    return out


@pytest.fixture(scope="module")
def installed():
    was = plugin.installed()
    plugin.install()
    yield
    if not was:
        plugin.uninstall()


@pytest.mark.parametrize("case", CHAINS, ids=lambda c: c["id"])
def test_chain_with_plugin(case, installed):
    st = replay(case["request"])
    exp = case["expect"]
    assert list(st.shape) == exp["final_shape"]
    assert len(st.views) <= exp["tinygrad_views_simplified"]
    assert st_offsets(st) == exp["offsets"]


def test_install_is_reversible():
    was = plugin.installed()
    plugin.uninstall()
    add = View.__add__
    plugin.install()
    assert plugin.installed() and View.__add__ is not add
    plugin.uninstall()
    assert not plugin.installed() and View.__add__ is add
    if was:
        plugin.install()


def test_fuzzer_pair_merges(installed):
    # tinygrad 0.10.3 test_view.py test_merges_from_fuzzer1: stock tinygrad cannot merge it.
    v0 = View.create((2, 4), (2, 1), -2, ((0, 2), (2, 4)))
    v1 = View.create((2, 4, 2, 2), (4, 0, -2, -1), 3)
    v = v0 + v1
    assert v == View.create((2, 4, 2, 2), (2, 0, 0, -1), 1, ((0, 2), (0, 4), (0, 1), (0, 2)))


def test_install_refuses_another_tinygrad(monkeypatch):
    was = plugin.installed()
    plugin.uninstall()
    add = View.__add__
    monkeypatch.setattr(plugin, "_tinygrad_version", lambda: "0.11.0")
    with pytest.raises(RuntimeError, match="0.11.0"):
        plugin.install()
    assert not plugin.installed() and View.__add__ is add
    plugin.install(force=True)
    assert plugin.installed()
    plugin.uninstall()
    monkeypatch.undo()
    assert plugin._tinygrad_version() == "0.10.3"  # the version the suite runs on
    if was:
        plugin.install()
