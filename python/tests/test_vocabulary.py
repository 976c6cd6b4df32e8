"""One vocabulary: the movement ops and kernel languages the package accepts
are the library's, the command line's and the batch protocol's (tinygrad
0.10.3's six movement ops; c, cuda, rust, python), and a wrong argument is
refused with a TypeError naming the argument, what was given and what is
accepted."""

import pathlib
import re

import pytest

import hlayout
from hlayout import ComposedLayout, FlatView, Layout, View, ViewStack

MOVEMENT_OPS = ["reshape", "permute", "expand", "pad", "shrink", "flip"]
LANGS = ["c", "cuda", "rust", "python"]
PROTOCOL = pathlib.Path(__file__).resolve().parents[2] / "docs" / "batch-protocol.md"


def test_movement_ops_are_the_protocols():
    text = PROTOCOL.read_text()
    listed = text.split("`chain` applies tinygrad's movement ops")[1].split("with tinygrad 0.10.3's")[0]
    assert re.findall(r'`\["(\w+)"', listed) == MOVEMENT_OPS
    movement = {n for n in dir(ViewStack) if not n.startswith("_")} - {
        "apply", "expr", "from_layout", "is_contiguous", "kernel", "latex", "offsets", "shape", "views"}
    assert movement == set(MOVEMENT_OPS)


ARGS = {"reshape": [6, 1], "permute": [1, 0], "expand": [2, 3], "pad": [[1, 0], [0, 2]],
        "shrink": [[0, 1], [1, 3]], "flip": [True, False]}


@pytest.mark.parametrize("name", MOVEMENT_OPS)
def test_apply_by_name_is_the_method(name):
    import json
    s = ViewStack([2, 3]) if name != "expand" else ViewStack([1, 3])
    arg = ARGS[name]
    by_method = getattr(s, name)([tuple(a) if isinstance(a, list) else a for a in arg])
    by_name = s.apply(json.dumps([name, arg]))
    assert by_name == by_method and repr(by_name) == repr(by_method)
    assert by_name.offsets().tolist() == by_method.offsets().tolist()


def test_unknown_movement_op_lists_the_known_ones():
    with pytest.raises(hlayout.HlayoutError) as e:
        ViewStack([4]).apply('["stride", [2]]')
    assert str(e.value) == "unknown movement op 'stride' (known: reshape, permute, expand, pad, shrink, flip)"
    with pytest.raises(hlayout.ParseError):
        ViewStack([4]).apply('["flip", [1]]')


def expr_sources():
    return [Layout("(4,6):(1,4)"), ViewStack([4]).pad([(1, 0)]).views[0], ViewStack([4]).pad([(1, 0)]),
            ComposedLayout("Sw<1,0,1> o 0 o 4:1")]


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_everywhere(lang):
    for src in expr_sources():
        k = src.kernel()
        assert src.expr(lang) == k.render(lang) == (k.index(lang), k.valid(lang))
    # "cuda" is the C text; the others are their own languages.
    always = {"c": "1", "cuda": "1", "rust": "true", "python": "True"}
    assert Layout("(4,6):(1,4)").expr(lang)[1] == always[lang]


def test_unknown_language_names_the_argument_and_the_known_ones():
    for src in expr_sources():
        with pytest.raises(ValueError) as e:
            src.expr("fortran")
        assert str(e.value) == "argument 'lang': unknown language 'fortran' (known: c, cuda, rust, python)"
    with pytest.raises(ValueError) as e:
        Layout("4:1").kernel("rows")
    assert str(e.value) == "argument 'input': unknown kernel input 'rows' (known: coords, linear)"


BIG = 2 ** 63


@pytest.mark.parametrize("call, argument, given, accepted", [
    (lambda: Layout((BIG,)), "shape", "9223372036854775808", "outside -2**63 <= n < 2**63"),
    (lambda: Layout((2, 3), (1, "x")), "stride", "'x' (str) is not an int", "a (nested) tuple or list of ints"),
    (lambda: Layout((2, True)), "shape", "True (bool) is a bool", "a (nested) tuple or list of ints"),
    (lambda: Layout("(2,3):(3,1)").compose(5), "b", "5 (int)", "a Layout, a ComposedLayout, or a list or tuple"),
    (lambda: Layout("(2,3):(3,1)").logical_divide("x"), "tiler", "'x' (str)", "a Layout or a list or tuple of Layouts"),
    (lambda: Layout("(2,3):(3,1)").complement(BIG), "cotarget", "9223372036854775808 (int)", "an int (-2**63 <= n < 2**63)"),
    (lambda: ViewStack("abc"), "shape", "'abc' (str)", "a list or tuple of ints such as [2, 3]"),
    (lambda: ViewStack([BIG]), "shape", "9223372036854775808 (int) is outside", "a list or tuple of ints"),
    (lambda: ViewStack([2, 3]).reshape("6"), "shape", "'6' (str)", "a list or tuple of ints"),
    (lambda: ViewStack([2, 3]).pad([1, 2]), "arg", "item 0, 1 (int), is not a pair", "(int, int) pairs"),
    (lambda: ViewStack([2, 3]).flip([1, 0]), "flags", "1 (int) is not a bool", "a list or tuple of bools"),
    (lambda: ViewStack([2, 3]).permute([-1, 0]), "order", "-1 (int), is negative", "axes (ints >= 0)"),
    (lambda: View.from_layout(Layout("2:1"), BIG), "offset", "9223372036854775808 (int)", "an int (-2**63"),
    (lambda: ViewStack([2]).offsets(invalid="x"), "invalid", "'x' (str)", "an int (-2**63"),
    (lambda: FlatView((2,), (1,), offset="x"), "offset", "'x' (str)", "an int (-2**63"),
    (lambda: FlatView((2,), (1,), mask=[1]), "mask", "item 0, 1 (int), is not a pair", "(int, int) pairs"),
    (lambda: FlatView("ab", (1,)), "shape", "'ab' (str)", "a list or tuple of ints"),
    (lambda: hlayout.idx2crd(BIG, (2,)), "idx", "9223372036854775808 (int)", "an int (-2**63"),
    (lambda: hlayout.crd2idx((1, None), (2, 2)), "crd", "None (NoneType) is not an int", "tuple text"),
    (lambda: hlayout.Swizzle(1, BIG, 3), "base", "9223372036854775808 (int)", "an int (-2**63"),
    (lambda: hlayout.Swizzle(1, 0, 3)(BIG), "x", "9223372036854775808 (int)", "an int (-2**63"),
    (lambda: ComposedLayout(hlayout.Swizzle(1, 0, 3), "x", Layout("4:1")), "offset", "'x' (str)", "an int"),
])
def test_argument_errors_name_argument_given_and_accepted(call, argument, given, accepted):
    with pytest.raises(TypeError) as e:
        call()
    message = str(e.value)
    assert message.startswith(f"argument '{argument}': expected "), message
    assert given in message and accepted in message, message
