"""Drawings from Python: the SVG parses as XML, equals the crate's committed
golden file, and shows every offset."""

import xml.etree.ElementTree as ET

from hlayout import Layout, ViewStack
from conftest import DATA

SVG = "{http://www.w3.org/2000/svg}"


def test_layout_svg_matches_golden_and_parses():
    l = Layout("(2,(2,2)):(2,(1,4))")
    svg = l._repr_svg_()
    assert svg == (DATA / "draw" / "layout_nested.svg").read_text()
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    texts = [t.text for t in root.iter(SVG + "text")]
    for o in l.offsets().tolist():
        assert str(o) in texts
    assert l.latex() == (DATA / "draw" / "layout_nested.tex").read_text()


def test_view_svg_greys_padding():
    s = ViewStack([3, 4]).pad([(1, 0), (0, 1)])
    svg = s.views[0]._repr_svg_()
    assert svg == (DATA / "draw" / "view_padded.svg").read_text()
    root = ET.fromstring(svg)
    fills = [r.get("fill") for r in root.iter(SVG + "rect")]
    assert fills.count("#d9d9d9") == s.offsets().tolist().count(-1)
    assert s._repr_svg_() == svg
