"""Drawings from Python: every SVG parses as XML, equals the crate's committed
golden file (tests/data/draw, written by tests/draw.rs), and shows every
offset; padding is grey; the LaTeX is the golden TikZ."""

import xml.etree.ElementTree as ET

import pytest

from hlayout import Layout, ViewStack
from refdata import DATA

SVG = "{http://www.w3.org/2000/svg}"
GREY = "#d9d9d9"

LAYOUTS = {"nested": "(2,(2,2)):(2,(1,4))", "rank3": "(2,(2,2),3):(1,(12,2),4)", "rank1": "8:3"}
VIEWS = {
    "padded": lambda: ViewStack([3, 4]).pad([(1, 0), (0, 1)]),
    "transposed": lambda: ViewStack([4, 6]).permute([1, 0]).reshape([3, 8]),
}


def texts(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root, [t.text for t in root.iter(SVG + "text")]


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_drawings_match_golden(name):
    l = Layout(LAYOUTS[name])
    svg = l._repr_svg_()
    assert svg == (DATA / "draw" / f"layout_{name}.svg").read_text()
    assert l.latex() == (DATA / "draw" / f"layout_{name}.tex").read_text()
    root, shown = texts(svg)
    for o in l.offsets().tolist():
        assert str(o) in shown
    assert GREY not in [r.get("fill") for r in root.iter(SVG + "rect")]  # nothing is padding


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view_drawings_match_golden(name):
    s = VIEWS[name]()
    v = s.views[0]
    svg = v._repr_svg_()
    assert svg == (DATA / "draw" / f"view_{name}.svg").read_text()
    assert v.latex() == (DATA / "draw" / f"view_{name}.tex").read_text()
    assert s._repr_svg_() == svg  # a one-view stack draws its view
    root, shown = texts(svg)
    offsets = s.offsets().tolist()
    fills = [r.get("fill") for r in root.iter(SVG + "rect")]
    assert fills.count(GREY) == offsets.count(-1)
    for o in offsets:
        if o != -1:
            assert str(o) in shown


def test_a_stack_of_several_views_has_no_single_grid():
    s = ViewStack([10, 10]).permute([1, 0]).reshape([100]).reshape([4, 25])
    assert len(s) == 2
    assert s._repr_svg_() is None  # its top view holds indices into the view below
    for v in s.views:
        ET.fromstring(v._repr_svg_())
