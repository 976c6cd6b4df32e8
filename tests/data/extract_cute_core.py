#!/usr/bin/env python3
"""Extracts the layout cases of CuTe's C++ core unit tests into cute_core.json.

Usage: extract_cute_core.py CUTLASS_TEST_DIR COMMIT [--driver OUT.cpp]
           [--printed PRINTED.txt] > cute_core.json

CUTLASS_TEST_DIR is `test/unit/cute/core` of an NVIDIA CUTLASS checkout. Every
`test_<op>(...)` call that is not commented out becomes one record, and a call
the parser cannot read stops the extraction (nothing is left out silently).
Each record keeps the operands as CuTe wrote them (colexicographic text),
mirrored to row-major (every tuple reversed, recursively: the same function of
the index), and the function CuTe's test asserts, evaluated here from the
definitions:

- composition:    R(i) = A(B(i)) for i < size(B) (and B's shape coarsens R's)
- complement:     CuTe's complement (sort by stride, fold, rest by ceil_div)
- right_inverse:  CuTe's right_inverse (coalesce, sort by stride, take the
                  leaves whose stride continues the chain, skip the others)
- left_inverse:   R(L(i)) = i0, i with its stride-0 coordinates set to 0
                  (CuTe asserts L(R(L(i))) = L(i))
- logical_divide: A o (B, complement(B, shape(coalesce(A))))
- logical_product:(A, complement(A, size(A)*cosize(B)) o B)
- coalesce:       the same function, depth <= 1

Swizzled operands (`composition(Swizzle<B,M,S>{}, L)`,
`ComposedLayout<Swizzle<B,M,S>, _0, L>`) are composed layouts `Sw o O o L`,
evaluated as Sw(O + L(i)) with CuTe's Swizzle; their inverses are CuTe's
(`right_inverse(L) o Sw` and `left_inverse(L) o Sw`, which CuTe turns into a
swizzle after the layout by `make_swizzle<L'(Y), L'(Z)>`).

Strides that are CuTe basis elements (`E<m...>`, ArithmeticTuple strides) map
an index to a *coordinate* of A. hlayout's layouts have integer strides, so B
is recorded twice: `b_basis` as CuTe wrote it, and `b` with every `E<p>`
replaced by the index stride of A's mode p (the place value of its first
leaf); the two agree wherever every mode's coordinate stays inside its
extent, which the extractor checks at every index. `b_coords` lists the
coordinates (row-major) and the expected values are A evaluated at them.

Layouts are evaluated on every integer by the integer extension (floor
digits, the outermost mode keeps the quotient), which is hlayout's
definition. CuTe's C++ evaluates a negative index with C++'s truncating `/`
and `%`; where that gives another value, the record also keeps it under
`cute_truncating`. CuTe's right_inverse drops dynamic (run-time) strides;
`cute.result` is CuTe's answer with them dropped, `expect.layout` the answer
with every stride static (hlayout has no static/dynamic distinction).

`--driver OUT.cpp` writes a C++ program that prints CuTe's own answer to
every case (cute_core_driver.sh builds and runs it); `--printed FILE` reads
that output into `cute.printed` (and `cute.printed_static`, see
STATIC_SPELLING).
"""

import json
import math
import re
import sys

# --------------------------------------------------------------------------
# Int tuples: ints or Python tuples of int tuples.


class Dyn(int):
    """A dynamic (run-time) integer; plain ints are static (`_4{}`, `Int<4>`)."""


class Basis:
    """CuTe's basis element `E<p...>` (scale 1): coordinate 1 at mode path p."""

    def __init__(self, path):
        self.path = tuple(path)

    def __repr__(self):
        return "E<" + ",".join(map(str, self.path)) + ">"


def flat(t):
    return [x for e in t for x in flat(e)] if isinstance(t, tuple) else [t]


def product(t):
    return math.prod(flat(t))


def rev(t):
    return tuple(rev(e) for e in reversed(t)) if isinstance(t, tuple) else t


def text(t):
    if isinstance(t, tuple):
        return "(" + ",".join(text(e) for e in t) + ")"
    return str(int(t)) if isinstance(t, int) else str(t)


def layout_text(shape, stride):
    return text(shape) + ":" + text(stride)


def compact_col_major(shape, start=1):
    """CuTe's default (LayoutLeft) strides."""
    out = []
    cur = start
    if not isinstance(shape, tuple):
        return start
    for e in shape:
        out.append(compact_col_major(e, cur))
        cur *= product(e)
    return tuple(out)


# --------------------------------------------------------------------------
# Evaluation (colexicographic: first mode fastest, the last keeps the quotient).


def evaluate(shape, stride, i, trunc=False):
    s, d = flat(shape), flat(stride)
    acc, rest = 0, i
    for k, (e, st) in enumerate(zip(s, d)):
        if k + 1 == len(s):
            acc += rest * st
        elif trunc:
            q = int(rest / e)
            acc += (rest - q * e) * st
            rest = q
        else:
            acc += (rest % e) * st
            rest //= e
    return acc


def eval_crd(c, shape, stride):
    """A at a (possibly coarse) coordinate: an int against a tuple mode is
    that mode's 1-D coordinate."""
    if isinstance(c, tuple):
        return sum(eval_crd(ci, si, di) for ci, si, di in zip(c, shape, stride))
    return evaluate(shape, stride, c) if isinstance(shape, tuple) else c * stride


# --------------------------------------------------------------------------
# Swizzles (CuTe's Swizzle<B,M,S> and make_swizzle<Y,Z>).


def sw_masks(sw):
    b, m, s = sw
    bits = (1 << b) - 1
    return bits << (m + max(0, s)), bits << (m - min(0, s))


def sw_apply(sw, x):
    y, _ = sw_masks(sw)
    s = sw[2]
    return x ^ ((x & y) >> s if s >= 0 else (x & y) << -s)


def make_swizzle(y, z):
    """The swizzle reading the bits `y` and writing the bits `z`."""
    b = bin(y).count("1")
    if b != bin(z).count("1") or y < 0 or z < 0:
        raise ValueError(f"make_swizzle<{y},{z}>: masks of different sizes")
    if b == 0:
        return (0, 0, 0)
    ty, tz = (y & -y).bit_length() - 1, (z & -z).bit_length() - 1
    sw = (b, min(ty, tz), ty - tz)
    if sw_masks(sw) != (y, z):
        raise ValueError(f"make_swizzle<{y},{z}>: not a swizzle's masks")
    return sw


# --------------------------------------------------------------------------
# CuTe's operations, on flat colexicographic leaves.


def coalesce_flat(s, d, static_only=False):
    """CuTe's coalesce; with `static_only`, only statically known merges."""
    out = []
    for e, st in zip(s, d):
        if e == 1:
            continue
        if out:
            pe, pd = out[-1]
            known = not any(isinstance(v, Dyn) for v in (pe, pd, st))
            if pe * pd == st and (known or not static_only):
                out[-1] = (pe * e, pd)
                continue
        out.append((e, st))
    if not out:
        return [1], [0]
    return [e for e, _ in out], [st for _, st in out]


def filter_flat(s, d):
    return coalesce_flat([1 if st == 0 else e for e, st in zip(s, d)], d)


def ceil_div(a, b):
    """CuTe's ceil_div of an int tuple by an int (fold over the modes)."""
    if isinstance(a, tuple):
        out, rest = [], b
        for ai in a:
            out.append(ceil_div(ai, rest))
            rest = -(-rest // product(ai))
        return tuple(out)
    return -(-a // b)


def complement(shape, stride, cotarget):
    s, d = filter_flat(flat(shape), flat(stride))
    if d == [0]:
        rs = coalesce_shape(cotarget)
        return rs, compact_col_major(rs)
    pairs = sorted(zip(d, s))
    rshape, rstride = [], [1]
    for st, e in pairs[:-1]:
        rshape.append(st // rstride[-1])
        rstride.append(st * e)
    st, e = pairs[-1]
    rshape.append(st // rstride[-1])
    new_stride = st * e
    rest = coalesce_shape(ceil_div(cotarget, new_stride))
    rest_stride = compact_col_major(rest, new_stride)
    fs, fd = coalesce_flat(rshape + flat(rest), rstride + flat(rest_stride))
    return as_layout(fs, fd)


def coalesce_shape(t):
    s, _ = coalesce_flat(flat(t), compact_col_major(tuple(flat(t))) if isinstance(t, tuple) else [1])
    return s[0] if len(s) == 1 else tuple(s)


def as_layout(s, d):
    return (s[0], d[0]) if len(s) == 1 else (tuple(s), tuple(d))


def right_inverse(shape, stride, static_only=False):
    """CuTe's right_inverse; with `static_only`, dynamic strides are dropped
    (and only static merges coalesce), as CuTe's C++ does."""
    s, d = coalesce_flat(flat(shape), flat(stride), static_only)
    pre = [1]
    for e in s:
        pre.append(pre[-1] * e)
    rs, rd, cur = [1], [0], 1
    keep = [k for k in range(len(s)) if not (static_only and isinstance(d[k], Dyn))]
    for k in sorted(keep, key=lambda k: d[k]):
        if d[k] == cur:
            rs.append(s[k])
            rd.append(pre[k])
            cur = s[k] * d[k]
    return as_layout(*coalesce_flat(rs, rd))


def left_inverse(shape, stride):
    """CuTe's left_inverse (static strides; its divisibility assert checked)."""
    s, d = coalesce_flat(flat(shape), flat(stride))
    pre = [1]
    for e in s:
        pre.append(pre[-1] * e)
    order = sorted(range(len(s)), key=lambda k: d[k])
    rs, rd = [], [0]
    for k in order:
        if d[k] == 0:
            continue
        size = math.prod(rs)
        if d[k] % size != 0:
            raise ValueError("left inverse divisibility condition")
        rs.append(d[k] // size)
        rd.append(pre[k])
    rs.append(s[order[-1]])
    return as_layout(*coalesce_flat(rs, rd))


def kernel_free(shape, stride, i):
    s, d = flat(shape), flat(stride)
    out, unit, rest = 0, 1, i
    for e, st in zip(s, d):
        if st != 0:
            out += (rest % e) * unit
        rest //= e
        unit *= e
    return out


def cosize(shape, stride):
    return evaluate(shape, stride, product(shape) - 1) + 1 if all(
        x >= 0 for x in flat(stride)) else None


# --------------------------------------------------------------------------
# A small parser for the C++ layout expressions of the tests.

TOKEN = re.compile(r"\s*(-?\d+|[A-Za-z_][A-Za-z_0-9]*|[<>(){},])")


def tokens(src):
    out, pos = [], 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            if src[pos:].strip() == "":
                break
            raise ValueError(f"cannot tokenize {src[pos:]!r}")
        out.append(m.group(1))
        pos = m.end()
    return out


class Parser:
    def __init__(self, src, env):
        self.t, self.i, self.env = tokens(src), 0, env

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def eat(self, tok=None):
        cur = self.peek()
        if tok is not None and cur != tok:
            raise ValueError(f"expected {tok}, got {cur} in {' '.join(self.t)}")
        self.i += 1
        return cur

    def braces(self):
        if self.peek() == "{":
            self.eat("{")
            self.eat("}")

    def args(self, open_, close):
        self.eat(open_)
        out = []
        while self.peek() != close:
            out.append(self.expr())
            if self.peek() == ",":
                self.eat(",")
        self.eat(close)
        return out

    def static_args(self):
        """Template arguments: every integer in them is static."""
        return [int(a) if isinstance(a, int) else a for a in self.args("<", ">")]

    def expr(self):
        tok = self.eat()
        if re.fullmatch(r"-?\d+", tok):
            return Dyn(int(tok))
        if m := re.fullmatch(r"_(\d+)", tok):
            self.braces()
            return int(m.group(1))
        if m := re.fullmatch(r"_m(\d+)", tok):
            self.braces()
            return -int(m.group(1))
        if tok in ("Int", "C"):
            (v,) = self.static_args()
            self.braces()
            return v
        if tok in ("Shape", "Stride"):
            args = self.static_args()
            self.braces()
            return tuple(args)
        if tok == "E":
            path = self.static_args()
            self.braces()
            return Basis(path)
        if tok == "Swizzle":
            b, m, s = self.static_args()
            self.braces()
            return {"swizzle": (b, m, s)}
        if tok in ("make_shape", "make_stride"):
            return tuple(self.args("(", ")"))
        if tok == "Layout":
            args = self.static_args()
            self.braces()
            return make_layout(args)
        if tok == "ComposedLayout":
            sw, offset, inner = self.static_args()
            self.braces()
            return make_composed(sw, offset, inner)
        if tok == "make_layout":
            return make_layout(self.args("(", ")"))
        if tok == "composition":
            sw, inner = self.args("(", ")")
            return make_composed(sw, 0, inner)
        if tok in ("GenRowMajor", "GenColMajor"):
            self.braces()
            return tok
        if tok in self.env:
            return self.env[tok]
        raise ValueError(f"unknown token {tok}")


def make_layout(args):
    if isinstance(args[0], dict):
        raise ValueError("make_layout of layouts")
    shape = args[0]
    stride = args[1] if len(args) > 1 else "GenColMajor"
    if stride == "GenColMajor":
        stride = compact_col_major(shape)
    elif stride == "GenRowMajor":
        stride = rev(compact_col_major(rev(shape)))
    return {"shape": shape, "stride": stride}


def make_composed(sw, offset, inner):
    if not (isinstance(sw, dict) and "swizzle" in sw and "shape" in inner):
        raise ValueError("a composed layout is Swizzle o offset o Layout")
    return {"swizzle": sw["swizzle"], "offset": int(offset), "layout": inner}


# --------------------------------------------------------------------------
# Operands: layouts, composed layouts, layouts with basis strides.


def is_composed(x):
    return "swizzle" in x


def has_basis(l):
    return any(isinstance(d, Basis) for d in flat(l["stride"]))


def rm(x):
    """Row-major text: the layout mirrored (a swizzle and offset unchanged)."""
    if is_composed(x):
        return f"Sw<{','.join(map(str, x['swizzle']))}> o {x['offset']} o {rm(x['layout'])}"
    return layout_text(rev(x["shape"]), rev(x["stride"]))


def cu(x):
    if is_composed(x):
        return f"Sw<{','.join(map(str, x['swizzle']))}> o {x['offset']} o {cu(x['layout'])}"
    return layout_text(x["shape"], x["stride"])


def size(x):
    return product((x["layout"] if is_composed(x) else x)["shape"])


def ev(x, i, trunc=False):
    if is_composed(x):
        return sw_apply(x["swizzle"], x["offset"] + ev(x["layout"], i, trunc))
    return evaluate(x["shape"], x["stride"], i, trunc)


def mode_at(shape, path):
    for p in path:
        shape = shape[p]
    return shape


def place_value(shape, path):
    """CuTe's (colexicographic) index stride of the mode at `path`: the
    product of every leaf before it."""
    before, cur = 1, shape
    for p in path:
        before *= product(tuple(cur[:p])) if p else 1
        cur = cur[p]
    return before


def basis_coord(shape, parts):
    """The coordinate congruent to `shape` with the 1-D mode coordinates
    `parts` ({path: value}); every other mode 0."""
    def go(s, path):
        if path in parts:
            return parts[path]
        if isinstance(s, tuple):
            return tuple(go(e, path + (k,)) for k, e in enumerate(s))
        return 0
    return go(shape, ())


def basis_record(a, b):
    """B with basis strides into A: the translated integer layout, the
    coordinates B(i) (row-major text) and A at them."""
    shape, strides = b["shape"], flat(b["stride"])
    ints = []
    for d in strides:
        if not isinstance(d, Basis):
            raise ValueError("mixed basis and integer strides")
        ints.append(place_value(a["shape"], d.path))
    idx = {"shape": shape, "stride": like(shape, ints)}
    coords, values = [], []
    for i in range(size(b)):
        digits = digits_of(shape, i)
        parts = {}
        for c, d in zip(digits, strides):
            parts[d.path] = parts.get(d.path, 0) + c
        for path, v in parts.items():
            if not 0 <= v < product(mode_at(a["shape"], path)):
                raise ValueError(f"coordinate {v} leaves mode {path}")
        crd = basis_coord(a["shape"], parts)
        coords.append(text(rev(crd)))
        values.append(eval_crd(crd, a["shape"], a["stride"]))
        assert values[-1] == ev(a, ev(idx, i)), "translation"
    return idx, coords, values


def like(shape, values):
    it = iter(values)

    def go(s):
        return tuple(go(e) for e in s) if isinstance(s, tuple) else next(it)

    return go(shape)


def digits_of(shape, i):
    out = []
    for e in flat(shape):
        out.append(i % e)
        i //= e
    return out


# --------------------------------------------------------------------------
# Records.


def composition_record(rec, a, b):
    if not is_composed(b) and has_basis(b):
        idx, coords, vals = basis_record(a, b)
        rec.update(a=rm(a), b=rm(idx), b_basis=cu(b), b_coords=coords,
                   cute={"a": cu(a), "b": cu(idx)}, expect={"values": vals})
        return
    vals = [ev(a, ev(b, i)) for i in range(size(b))]
    rec.update(a=rm(a), b=rm(b), cute={"a": cu(a), "b": cu(b)}, expect={"values": vals})
    trunc = [ev(a, ev(b, i, True), True) for i in range(size(b))]
    if trunc != vals:
        rec["cute_truncating"] = {"values": trunc}


def swizzled_inverse(c, inverse):
    """CuTe's inverse of Sw o 0 o L: inverse(L) o Sw = Sw' o inverse(L)."""
    if c["offset"] != 0:
        raise ValueError("inverse of a composed layout with an offset")
    s, d = inverse(c["layout"]["shape"], c["layout"]["stride"])
    inv = {"shape": s, "stride": d}
    y, z = sw_masks(c["swizzle"])
    return {"swizzle": make_swizzle(ev(inv, y), ev(inv, z)), "offset": 0, "layout": inv}


def right_inverse_record(rec, l):
    if is_composed(l):
        r = swizzled_inverse(l, right_inverse)
        assert all(ev(l, ev(r, i)) == i for i in range(size(r))), "CuTe's assertion"
        rec.update(layout=rm(l), cute={"layout": cu(l), "result": cu(r)},
                   expect={"layout": rm(r)})
        return
    rs, rd = right_inverse(l["shape"], l["stride"])
    r = {"shape": rs, "stride": rd}
    cs, cd = right_inverse(l["shape"], l["stride"], static_only=True)
    actual = {"shape": cs, "stride": cd}
    rec.update(layout=rm(l), cute={"layout": cu(l), "result": cu(actual)},
               expect={"layout": rm(r)})


def left_inverse_record(rec, l):
    inner = l["layout"] if is_composed(l) else l
    # The values R(L(i)) = i0 follow from the layout alone (and are long):
    # the replay computes i0 itself; the first few are kept as a check.
    vals = [kernel_free(inner["shape"], inner["stride"], i) for i in range(min(size(l), 16))]
    rec.update(layout=rm(l), cute={"layout": cu(l)},
               expect={"rule": "R(L(i)) = i0", "first_values": vals})
    if is_composed(l):
        r = swizzled_inverse(l, left_inverse)
        assert all(ev(l, ev(r, ev(l, i))) == ev(l, i) for i in range(size(l))), "CuTe's assertion"
        rec["cute"]["result"] = cu(r)


def record(op, args, where):
    rec = {"id": f"{where['file']}:{where['line']}", "file": where["file"],
           "line": where["line"], "op": op}
    if op == "composition":
        composition_record(rec, *args)
    elif op == "complement":
        l = args[0]
        if len(args) > 1:
            cot = args[1]
        else:
            cot = cosize(l["shape"], l["stride"])
        cs, cd = complement(l["shape"], l["stride"], cot)
        c = {"shape": cs, "stride": cd}
        static = not any(isinstance(v, Dyn) for v in flat(l["shape"]) + flat(l["stride"]) + flat(cot))
        rec.update(layout=rm(l), cotarget=product(cot),
                   cute={"layout": cu(l), "cotarget": text(cot), "result": cu(c), "static": static},
                   expect={"layout": rm(c)})
    elif op == "right_inverse":
        right_inverse_record(rec, args[0])
    elif op == "left_inverse":
        left_inverse_record(rec, args[0])
    elif op == "logical_divide":
        a, b = args
        s, d = coalesce_flat(flat(a["shape"]), flat(a["stride"]))
        ashape = s[0] if len(s) == 1 else tuple(s)
        cs, cd = complement(b["shape"], b["stride"], ashape)
        c = {"shape": cs, "stride": cd}
        vals = [ev(a, ev(b, j % size(b)) + ev(c, j // size(b))) for j in range(size(b) * size(c))]
        rec.update(a=rm(a), b=rm(b), cute={"a": cu(a), "b": cu(b), "complement": cu(c)},
                   expect={"values": vals, "modes": [size(c), size(b)]})
    elif op == "logical_product":
        a, b = args
        cot = size(a) * cosize(b["shape"], b["stride"])
        cs, cd = complement(a["shape"], a["stride"], cot)
        c = {"shape": cs, "stride": cd}
        vals = [ev(a, j % size(a)) + ev(c, ev(b, j // size(a))) for j in range(size(a) * size(b))]
        rec.update(a=rm(a), b=rm(b), cute={"a": cu(a), "b": cu(b), "complement": cu(c)},
                   expect={"values": vals, "modes": [size(b), size(a)]})
    elif op == "coalesce":
        (l,) = args
        rec.update(layout=rm(l), cute={"layout": cu(l)},
                   expect={"values": [ev(l, i) for i in range(size(l))]})
    else:
        raise ValueError(f"unknown test op {op}")
    return rec


def assertion(src, env):
    """An `ASSERT_TRUE` on the result's shape or stride (a mode's, or the
    whole), mirrored: `{"mode": k or None, "shape"|"stride": text}` with k the
    row-major mode (CuTe's results here have rank 2, so mode k is 1 - k)."""
    src = re.sub(r"^(decltype|bool)\((.*)\)(::value)?$", r"\2", src.strip())
    m = re.fullmatch(r"\s*(shape|stride)(?:<(\d)>)?\(result\)\s*==\s*(.*)", src)
    if not m:
        raise ValueError(f"unread assert {src}")
    what, mode, value = m.groups()
    v = Parser(value, env).expr()
    out = {"mode": None if mode is None else 1 - int(mode), what: text(rev(v))}
    out["cute"] = src
    return out


FILES = ["composition", "complement", "inverse_left", "inverse_right",
         "logical_divide", "logical_product", "coalesce"]


def split_args(src):
    depth, cur, out = 0, "", []
    for ch in src:
        if ch in "(<{":
            depth += 1
        elif ch in ")>}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def statements(path):
    """The statements inside the TEST bodies, with their first line; `//`
    comments (and so commented-out cases) are dropped."""
    stmt, start, in_test = "", 0, False
    for n, raw in enumerate(open(path).read().split("\n"), 1):
        code = raw.split("//")[0]
        if re.match(r"\s*TEST\(", code):
            in_test = True
        if not in_test or not code.strip():
            continue
        if not stmt:
            start = n
        stmt += " " + code.strip()
        if not stmt.rstrip().endswith(";"):
            if stmt.strip() in ("{", "}") or stmt.strip().startswith(("{", "}", "TEST")):
                stmt = ""
            continue
        yield start, stmt.strip().lstrip("{} ").strip()
        stmt = ""


CUTE_OPS = {"composition": "composition", "complement": "complement",
            "right_inverse": "right_inverse", "left_inverse": "left_inverse",
            "logical_divide": "logical_divide", "logical_product": "logical_product",
            "coalesce": "coalesce"}


# Cases whose extra asserts fix the *form* CuTe gives a result because one of
# its values is dynamic (a run-time int: CuTe does not merge or drop what it
# cannot see at compile time). Written statically, CuTe answers with another
# form of the same function on the domain. hlayout has no static/dynamic
# distinction; the replay holds it to CuTe's answer for this static spelling,
# which the driver prints too.
STATIC_SPELLING = {
    "test/unit/cute/core/logical_divide.cpp:187":
        "logical_divide(Layout<_2>{}, Layout<_32>{})",
    "test/unit/cute/core/logical_divide.cpp:222":
        "logical_divide(Layout<_32>{}, Layout<Int<48>>{})",
    "test/unit/cute/core/logical_divide.cpp:236":
        "logical_divide(make_layout(make_shape(Int<32>{}, Int<4>{}, Int<4>{})), Layout<_64>{})",
}


def driver_block(rec, argsrc, src_env):
    """C++ that prints CuTe's own answer to the case (for --driver)."""
    names = [t for t in tokens(argsrc) if t in src_env]
    lines = [f"  auto {v} = {src};" for v, src in src_env.items() if v in names]
    call = f"{CUTE_OPS[rec['op']]}({argsrc})"
    out = "{\n" + "\n".join(lines) + f'\n  std::printf("%s\\t", "{rec["id"]}"); print({call}); std::printf("\\n");\n}}\n'
    if rec["id"] in STATIC_SPELLING:
        static = STATIC_SPELLING[rec["id"]]
        out += f'std::printf("%s\\t", "{rec["id"]} static"); print({static}); std::printf("\\n");\n'
    return out


def extract(path, name, driver):
    env, src_env, records = {}, {}, []
    for line, s in statements(path):
        where = {"file": f"test/unit/cute/core/{name}.cpp", "line": line}
        if m := re.match(r"auto\s+result\s*=\s*(\w+)\((.*)\);$", s):
            # The result the previous test call checked, for the asserts below.
            last = records[-1]
            if m.group(1) != last["op"] or last["line"] >= line:
                raise ValueError(f"{where}: result of another call: {s}")
            continue
        if m := re.match(r"ASSERT_TRUE\((.*)\);$", s):
            records[-1].setdefault("cute_asserts", []).append(assertion(m.group(1), env))
            continue
        if m := re.match(r"auto\s+(\w+)\s*=\s*(.*);$", s):
            var, src = m.groups()
            env[var] = Parser(src, env).expr()
            src_env.pop(var, None)
            src_env[var] = src
            continue
        if m := re.match(r"test_(\w+)\((.*)\);$", s):
            op, argsrc = m.groups()
            args = []
            for a in split_args(argsrc):
                a = a.strip()
                if a == "cosize(layout)":
                    l = env["layout"]
                    args.append(cosize(l["shape"], l["stride"]))
                    continue
                args.append(Parser(a, env).expr())
            records.append(record(op, args, where))
            driver.append(driver_block(records[-1], argsrc, src_env))
            continue
        if not s.startswith(("CUTLASS_TRACE_HOST", "using namespace")):
            raise ValueError(f"{where}: unread statement {s}")
    return records


DRIVER_HEAD = """// Prints CuTe's own answer to every case of cute_core.json (written by
// extract_cute_core.py --driver; built and run by cute_core_driver.sh).
#include <cstdio>
#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/swizzle_layout.hpp>
using namespace cute;
int main() {
"""


def main():
    root, commit, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    opts = dict(zip(rest[::2], rest[1::2]))
    cases, driver = [], []
    for name in FILES:
        cases += extract(f"{root}/{name}.cpp", name, driver)
    if "--driver" in opts:
        with open(opts["--driver"], "w") as f:
            f.write(DRIVER_HEAD + "".join(driver) + "}\n")
    if "--printed" in opts:
        printed = dict(line.rstrip("\n").split("\t", 1) for line in open(opts["--printed"]))
        for c in cases:
            c["cute"]["printed"] = printed[c["id"]].replace("_", "")
            if c["id"] in STATIC_SPELLING:
                c["cute"]["static_spelling"] = STATIC_SPELLING[c["id"]]
                c["cute"]["printed_static"] = printed[c["id"] + " static"].replace("_", "")
    head = {"source": "NVIDIA CUTLASS test/unit/cute/core", "commit": commit,
            "generator": "tests/data/extract_cute_core.py",
            "files": {f"test/unit/cute/core/{n}.cpp": sum(c["file"].endswith(f"/{n}.cpp") for c in cases)
                      for n in FILES}}
    out = sys.stdout
    out.write("{\n")
    for k, v in head.items():
        out.write(f"{json.dumps(k)}: {json.dumps(v)},\n")
    out.write('"cases": [\n')
    out.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in cases))
    out.write("\n]\n}\n")


if __name__ == "__main__":
    main()
