"""Drawings from Python: every SVG parses as XML, equals the crate's committed
golden file (tests/data/draw, written by tests/draw.rs), and shows every
offset; padding is grey; the LaTeX is the golden TikZ. Every class has a
`_repr_svg_` that returns well-formed SVG with a background and a width no
smaller than its title; thread/value pictures match a brute-force inversion."""

import inspect
import itertools
import xml.etree.ElementTree as ET

import pytest

import hlayout
from hlayout import ComposedLayout, FlatView, Layout, Swizzle, ViewStack
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


def test_a_stack_of_several_views_draws_through_every_view():
    s = ViewStack([10, 10]).permute([1, 0]).reshape([100]).reshape([4, 25]).pad([(0, 1), (1, 0)])
    assert len(s) == 2
    root, shown = texts(s._repr_svg_())
    offsets = s.offsets().tolist()
    fills = [r.get("fill") for r in root.iter(SVG + "rect")]
    assert fills.count(GREY) == offsets.count(-1) > 0
    cells = [t for t in shown if t is not None]
    for o in offsets:
        if o != -1:
            assert str(o) in cells
    assert s.latex().startswith("\\documentclass")
    for v in s.views:
        ET.fromstring(v._repr_svg_())


def every_class_instance():
    """One instance of every public class that can be drawn."""
    stack = ViewStack([4, 6]).permute([1, 0]).reshape([24]).reshape([3, 8])
    return {
        "Layout": Layout("(2,(2,2)):(2,(1,4))"),
        "FlatView": FlatView((3, 4), (1, 3), offset=2, mask=[(0, 2), (1, 4)]),
        "View": ViewStack([3, 4]).pad([(1, 0), (0, 1)]).views[0],
        "ViewStack": stack,
        "Kernel": ViewStack([4]).pad([(1, 0)]).kernel(),
        "Swizzle": Swizzle(2, 1, 3),
        "ComposedLayout": ComposedLayout("Sw<3,4,3> o 0 o (8,64):(64,1)"),
        "TvPicture": Layout("(8,8):(8,1)").draw_tv("(32,2):(2,1)", element_bytes=2),
        "LoopNest": hlayout.loop_nest([ViewStack([4, 6]).permute([1, 0]).reshape([24]).views[0]]),
    }


def test_every_class_has_a_well_formed_svg():
    classes = {n for n in hlayout.__all__ if inspect.isclass(getattr(hlayout, n))}
    # A SymLayout, SymPredicated, SymFlatView or SymViewStack has no grid until its symbols have values: draw its bind(...).
    symbolic = {"SymLayout", "SymPredicated", "SymFlatView", "SymViewStack"}
    drawable = {n for n in classes if not issubclass(getattr(hlayout, n), Exception)} - symbolic
    assert not any(hasattr(getattr(hlayout, n), "_repr_svg_") for n in symbolic)
    objs = every_class_instance()
    assert drawable == set(objs)
    for name, obj in objs.items():
        svg = obj._repr_svg_()
        root = ET.fromstring(svg)
        assert root.tag == SVG + "svg", name
        width, height = int(root.get("width")), int(root.get("height"))
        title = root.find(SVG + "title").text
        heading = root.find(SVG + "text").text
        assert title.endswith(heading), name
        assert width >= 4 + 7.2 * len(heading), name
        bg = root.find(SVG + "rect")
        assert (bg.get("width"), bg.get("height"), bg.get("fill")) == (str(width), str(height), "#ffffff"), name


def test_every_drawn_cell_is_the_function():
    # FlatView, Kernel and Swizzle pictures show their function's values, grey where invalid.
    f = FlatView((3, 4), (1, 3), offset=2, mask=[(0, 2), (1, 4)])
    want = [f(r, c) for r in range(3) for c in range(4)]
    k = ViewStack([3, 4]).pad([(1, 0), (0, 1)]).kernel()
    kwant = [k(r, c)[0] if k(r, c)[1] else None for r in range(4) for c in range(5)]
    sw = Swizzle(2, 1, 3)
    swant = [sw(x) for x in range(1 << 6)]
    n = hlayout.loop_nest([ViewStack([4, 6]).pad([(1, 0), (0, 0)]).permute([1, 0]).reshape([30]).views[0]])
    ext = [e for _, e, _ in n.loops]
    nwant = [n(0, *at) for at in itertools.product(*map(range, ext))]
    for obj, cells in [(f, want), (k, kwant), (sw, swant), (n, nwant)]:
        root = ET.fromstring(obj._repr_svg_())
        rects = list(root.iter(SVG + "rect"))[1:1 + len(cells)]  # after the background
        fills = [r.get("fill") for r in rects]
        assert [fill == GREY for fill in fills] == [c is None for c in cells]
        labels = [t.text for t in root.iter(SVG + "text") if t.get("stroke") == "none"]
        assert labels == [str(c) for c in cells if c is not None]
    assert Swizzle(3, 20, 3)._repr_svg_() is None  # a period of 2^26 offsets


def test_a_long_title_widens_a_tiny_picture():
    text = "(" + ",".join(["1"] * 60) + "):(" + ",".join(["0"] * 60) + ")"
    root = ET.fromstring(Layout(text)._repr_svg_())
    assert int(root.get("width")) >= 4 + 7.2 * len(text)


def brute_tv(tile, access):
    """Per element of the tile, every access index j with access(j) == element."""
    readers = {}
    for j in range(access.size):
        readers.setdefault(access(j), []).append(j)
    return readers


@pytest.mark.parametrize(
    "tile, access, nbytes",
    [
        ("(32,32):(32,1)", "(32,32):(32,1)", 4),
        ("Sw<5,0,5> o 0 o (32,32):(32,1)", "(32,32):(32,1)", 4),
        ("(16,16):(16,1)", "(32,8):(8,1)", 2),
        ("(4,8):(8,1)", "((32,2),2):((1,0),0)", 1),
    ],
)
def test_tv_pictures_match_the_brute_force(tile, access, nbytes):
    t = ComposedLayout(tile) if tile.startswith("Sw<") else Layout(tile)
    a = Layout(access)
    p = t.draw_tv(a, element_bytes=nbytes)
    T, V = p.threads_values
    assert (T, V) == (a[0].size, a[1].size)
    rows, cols = p.shape
    readers = brute_tv(t, a)
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            js = readers.get(i, [])
            assert p.thread_value(r, c) == ((js[0] // V, js[0] % V) if js else None)
            assert p.readers(r, c) == len(js)
            assert p.bank(r, c) == (t(i) * nbytes // 4) % 32
    for v in range(V):
        banks = [set() for _ in range(32)]
        for th in range(min(T, 32)):
            w = t(a(th * V + v)) * nbytes // 4
            banks[w % 32].add(w)
        counts = [len(b) for b in banks]
        assert p.words_per_bank[v] == counts
        assert p.wavefronts[v] == max(counts)
        assert p.ideal[v] == -(-sum(counts) // 32)
    ET.fromstring(p._repr_svg_())
    assert p.latex().count("{") == p.latex().count("}")


def test_tv_errors_are_typed():
    with pytest.raises(hlayout.PreconditionError):
        Layout("8:1").draw_tv("8:1")
    with pytest.raises(hlayout.OutOfDomainError):
        Layout("8:1").draw_tv("(4,4):(1,4)")
    with pytest.raises(hlayout.PreconditionError):
        Layout("8:1").draw_tv("(8,1):(1,0)", element_bytes=3)


def test_drawing_doc_examples_hold():
    import doctest

    path = DATA.parent.parent / "docs" / "drawing.md"
    result = doctest.testfile(str(path), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0
