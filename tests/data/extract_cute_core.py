#!/usr/bin/env python3
"""Extracts the layout cases of CuTe's C++ core unit tests into cute_core.json.

Usage: extract_cute_core.py CUTLASS_TEST_DIR COMMIT > cute_core.json

CUTLASS_TEST_DIR is `test/unit/cute/core` of an NVIDIA CUTLASS checkout. Every
`test_<op>(...)` call that is not commented out becomes one record: the
layouts as CuTe wrote them (colexicographic text), mirrored to row-major
(every tuple reversed, recursively: the same function of the index), and the
function CuTe's test asserts, evaluated here from the definitions:

- compose:        R(i) = A(B(i)) for i < size(B) (and B's shape coarsens R's)
- complement:     CuTe's complement (sort by stride, fold, rest by ceil_div)
- right_inverse:  CuTe's right_inverse (coalesce, sort by stride, take the
                  leaves whose stride continues the chain, skip the others)
- left_inverse:   R(L(i)) = i0, i with its stride-0 coordinates set to 0
                  (CuTe asserts L(R(L(i))) = L(i))
- logical_divide: A o (B, complement(B, shape(coalesce(A))))
- logical_product:(A, complement(A, size(A)*cosize(B)) o B)
- coalesce:       the same function, depth <= 1

Layouts are evaluated on every integer by the integer extension (floor
digits, the outermost mode keeps the quotient), which is hlayout's
definition. CuTe's C++ evaluates a negative index with C++'s truncating `/`
and `%`; where that gives another value, the record also keeps it under
`cute_truncating`. Cases with tuple strides (E<...>) or swizzles are listed
under `excluded` with the reason.
"""

import json
import math
import re
import sys

# --------------------------------------------------------------------------
# Int tuples: ints or Python tuples of int tuples.


def flat(t):
    return [x for e in t for x in flat(e)] if isinstance(t, tuple) else [t]


def product(t):
    return math.prod(flat(t))


def rev(t):
    return tuple(rev(e) for e in reversed(t)) if isinstance(t, tuple) else t


def text(t):
    if isinstance(t, tuple):
        return "(" + ",".join(text(e) for e in t) + ")"
    return str(t)


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


def like(shape, values):
    """Rebuilds `values` (flat list) with the profile of `shape`."""
    it = iter(values)

    def go(s):
        if isinstance(s, tuple):
            return tuple(go(e) for e in s)
        return next(it)

    return go(shape)


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


# --------------------------------------------------------------------------
# CuTe's operations, on flat colexicographic leaves.


def coalesce_flat(s, d):
    out = []
    for e, st in zip(s, d):
        if e == 1:
            continue
        if out and out[-1][0] * out[-1][1] == st:
            out[-1] = (out[-1][0] * e, out[-1][1])
        else:
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


def right_inverse(shape, stride):
    s, d = coalesce_flat(flat(shape), flat(stride))
    pre = [1]
    for e in s:
        pre.append(pre[-1] * e)
    rs, rd, cur = [1], [0], 1
    for k in sorted(range(len(s)), key=lambda k: d[k]):
        if d[k] == cur:
            rs.append(s[k])
            rd.append(pre[k])
            cur = s[k] * d[k]
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


class Unsupported(Exception):
    pass


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

    def targs(self):
        self.eat("<")
        args = []
        while self.peek() != ">":
            args.append(self.expr())
            if self.peek() == ",":
                self.eat(",")
        self.eat(">")
        return args

    def cargs(self):
        self.eat("(")
        args = []
        while self.peek() != ")":
            args.append(self.expr())
            if self.peek() == ",":
                self.eat(",")
        self.eat(")")
        return args

    def expr(self):
        tok = self.eat()
        if re.fullmatch(r"-?\d+", tok):
            return int(tok)
        if m := re.fullmatch(r"_(\d+)", tok):
            self.braces()
            return int(m.group(1))
        if m := re.fullmatch(r"_m(\d+)", tok):
            self.braces()
            return -int(m.group(1))
        if tok in ("Int", "C"):
            (v,) = self.targs()
            self.braces()
            return v
        if tok in ("Shape", "Stride"):
            args = self.targs()
            self.braces()
            return tuple(args)
        if tok in ("make_shape", "make_stride"):
            return tuple(self.cargs())
        if tok == "Layout":
            args = self.targs()
            self.braces()
            return make_layout(args)
        if tok == "make_layout":
            return make_layout(self.cargs())
        if tok in ("GenRowMajor", "GenColMajor"):
            self.braces()
            return tok
        if tok in ("E", "ComposedLayout", "Swizzle", "composition"):
            raise Unsupported({"E": "tuple strides (E<...>)"}.get(tok, "swizzle / composed layout"))
        if tok in self.env:
            return self.env[tok]
        raise ValueError(f"unknown token {tok}")


def make_layout(args):
    if isinstance(args[0], dict):
        raise Unsupported("make_layout of layouts")
    shape = args[0]
    stride = args[1] if len(args) > 1 else "GenColMajor"
    if stride == "GenColMajor":
        stride = compact_col_major(shape)
    elif stride == "GenRowMajor":
        stride = rev(compact_col_major(rev(shape)))
    return {"shape": shape, "stride": stride}


# --------------------------------------------------------------------------
# Cases.


def rm(l):
    return layout_text(rev(l["shape"]), rev(l["stride"]))


def cu(l):
    return layout_text(l["shape"], l["stride"])


def size(l):
    return product(l["shape"])


def ev(l, i, trunc=False):
    return evaluate(l["shape"], l["stride"], i, trunc)


def record(op, args, where):
    rec = {"id": f"{where['file']}:{where['line']}", "file": where["file"],
           "line": where["line"], "op": op}
    if op == "composition":
        a, b = args
        vals = [ev(a, ev(b, i)) for i in range(size(b))]
        trunc = [ev(a, ev(b, i, True), True) for i in range(size(b))]
        rec.update(a=rm(a), b=rm(b), cute={"a": cu(a), "b": cu(b)}, expect={"values": vals})
        if trunc != vals:
            rec["cute_truncating"] = {"values": trunc}
    elif op == "complement":
        l = args[0]
        if len(args) > 1:
            cot = args[1]
        else:
            cot = cosize(l["shape"], l["stride"])
        cs, cd = complement(l["shape"], l["stride"], cot)
        c = {"shape": cs, "stride": cd}
        rec.update(layout=rm(l), cotarget=product(cot),
                   cute={"layout": cu(l), "cotarget": text(cot), "result": cu(c)},
                   expect={"layout": rm(c)})
    elif op == "right_inverse":
        (l,) = args
        rs, rd = right_inverse(l["shape"], l["stride"])
        r = {"shape": rs, "stride": rd}
        rec.update(layout=rm(l), cute={"layout": cu(l), "result": cu(r)}, expect={"layout": rm(r)})
    elif op == "left_inverse":
        (l,) = args
        # The values R(L(i)) = i0 follow from the layout alone (and are long):
        # the replay computes i0 itself; the first few are kept as a check.
        vals = [kernel_free(l["shape"], l["stride"], i) for i in range(min(size(l), 16))]
        rec.update(layout=rm(l), cute={"layout": cu(l)},
                   expect={"rule": "R(L(i)) = i0", "first_values": vals})
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
    return rec


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


def extract(path, name):
    lines = open(path).read().split("\n")
    env, records, excluded = {}, [], []
    stmt, start = "", 0
    in_test = False
    for n, raw in enumerate(lines, 1):
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
        s = stmt.strip().lstrip("{} ").strip()
        stmt = ""
        where = {"file": f"test/unit/cute/core/{name}.cpp", "line": start}
        if m := re.match(r"auto\s+(\w+)\s*=\s*(.*);$", s):
            var, src = m.groups()
            try:
                env[var] = Parser(src, env).expr()
            except Unsupported as e:
                env[var] = Unsupported(str(e))
            except ValueError as e:  # a result computed by the test itself
                env[var] = Unsupported(f"not a layout literal: {e}")
            continue
        if m := re.match(r"test_(\w+)\((.*)\);$", s):
            op, argsrc = m.groups()
            op = {"composition": "composition"}.get(op, op)
            args = []
            reason = None
            for a in split_args(argsrc):
                a = a.strip()
                if a == "cosize(layout)":
                    l = env["layout"]
                    args.append(cosize(l["shape"], l["stride"]))
                    continue
                try:
                    v = Parser(a, env).expr()
                except Unsupported as e:
                    reason = str(e)
                    break
                if isinstance(v, Unsupported):
                    reason = str(v)
                    break
                args.append(v)
            if reason:
                excluded.append({"id": f"{where['file']}:{where['line']}", "op": op,
                                 "reason": reason})
            else:
                records.append(record(op, args, where))
    return records, excluded


def main():
    root, commit = sys.argv[1], sys.argv[2]
    cases, excluded = [], []
    for name in FILES:
        r, e = extract(f"{root}/{name}.cpp", name)
        cases += r
        excluded += e
    head = {"source": "NVIDIA CUTLASS test/unit/cute/core", "commit": commit,
            "generator": "tests/data/extract_cute_core.py"}
    out = sys.stdout
    out.write("{\n")
    for k, v in head.items():
        out.write(f"{json.dumps(k)}: {json.dumps(v)},\n")
    for key, rows in (("cases", cases), ("excluded", excluded)):
        out.write(f'"{key}": [\n')
        out.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in rows))
        out.write("\n]" + ("," if key == "cases" else "") + "\n")
    out.write("}\n")


if __name__ == "__main__":
    main()
