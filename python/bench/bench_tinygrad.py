"""Time per view merge and per reshape in tinygrad 0.10.3, with and without
hlayout's plug-in.

Workloads: every integer pair of tests/data/merge_pairs.json (View.__add__),
and every View.reshape call tinygrad makes while replaying the chains of
tests/data/tinygrad_chains.json. Each pass clears tinygrad's view caches
(View.create, __add__, reshape are functools caches) and runs the whole
workload once; the figure is the median pass (process CPU time, so that a
loaded machine skews it less) divided by the number of calls. The last column
is the same workload as FlatViews through the native call alone.

    python python/bench/bench_tinygrad.py [passes]
"""

import json
import pathlib
import statistics
import sys
import time

from tinygrad.shape.shapetracker import ShapeTracker
from tinygrad.shape.view import View

import hlayout
import hlayout.tinygrad as plugin

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


def pairs():
    out = []
    for case in json.load(open(DATA / "merge_pairs.json")):
        r = case["request"]
        vs = []
        for d in (r["first"], r["second"]):
            mask = tuple(tuple(m) for m in d["mask"]) if d["mask"] is not None else None
            vs.append(View.create(tuple(d["shape"]), tuple(d["strides"]), d["offset"], mask))
        out.append(tuple(vs))
    return out


def reshapes():
    calls = []
    stock = View.reshape

    def record(self, new_shape):
        calls.append((self, tuple(new_shape)))
        return stock(self, new_shape)
    View.reshape = record
    try:
        for case in json.load(open(DATA / "tinygrad_chains.json")):
            req = case["request"]
            st = ShapeTracker.from_shape(tuple(req["shape"]))
            for op, arg in req["ops"]:
                arg = tuple(tuple(p) for p in arg) if op in ("pad", "shrink") else tuple(arg)
                st = getattr(st, op)(arg)
    finally:
        View.reshape = stock
    return [(v, s) for v, s in calls if v.shape != s]


def chain_views():
    """Total views after simplify() over the reference chains, and the chains
    left with more than one view."""
    total = multi = 0
    for case in json.load(open(DATA / "tinygrad_chains.json")):
        req = case["request"]
        st = ShapeTracker.from_shape(tuple(req["shape"]))
        for op, arg in req["ops"]:
            arg = tuple(tuple(p) for p in arg) if op in ("pad", "shrink") else tuple(arg)
            st = getattr(st, op)(arg)
        n = len(st.simplify().views)
        total, multi = total + n, multi + (n > 1)
    return total, multi


def agreement(stock, patched, work):
    """How the two answers compare over a workload: both one view (equal or
    not), only one of them, neither."""
    out = {"equal views": 0, "different views": 0, "tinygrad only": 0,
           "hlayout only": 0, "neither": 0}
    for a, b in work:
        try:
            x = stock(a, b)
        except Exception:  # noqa: BLE001 (stock tinygrad raising counts as no view)
            x = None
        y = patched(a, b)
        key = ("neither" if y is None else "hlayout only") if x is None else (
            "tinygrad only" if y is None else "equal views" if x == y else "different views")
        out[key] += 1
    return out


def clear():
    for f in (View.create, View.__add__, View.reshape, View.size):
        if hasattr(f, "cache_clear"):
            f.cache_clear()


def timed(fn, work, passes):
    """Median over ``passes`` of the process's CPU time for the whole workload,
    per call, in µs. CPU time (not wall time) so that other programs sharing
    the machine count as little as they can: they still cost caches."""
    times = []
    for _ in range(passes):
        clear()
        t0 = time.process_time()
        for a, b in work:
            fn(a, b)
        times.append(time.process_time() - t0)
    return statistics.median(times) / len(work) * 1e6


def native(work, call):
    """The workload as the plug-in hands it to the crate: FlatViews and the
    native call alone, no tinygrad View on either side."""
    flat = [(plugin._flat(v), w if isinstance(w, tuple) else plugin._flat(w)) for v, w in work]

    def run(a, b):
        try:
            call(a, b)
        except hlayout.BudgetExceededError:
            pass
    return flat, run


def main():
    passes = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    merge_work, reshape_work = pairs(), reshapes()
    stock_add, stock_reshape = View.__add__.__wrapped__, View.reshape.__wrapped__
    rows = [
        ["merge (View.__add__)", len(merge_work), timed(stock_add, merge_work, passes)],
        ["reshape (View.reshape)", len(reshape_work), timed(stock_reshape, reshape_work, passes)],
    ]
    views = [chain_views()]
    plugin.install()
    try:
        clear()
        views.append(chain_views())
        rows[0].append(timed(View.__add__.__wrapped__, merge_work, passes))
        rows[1].append(timed(View.reshape.__wrapped__, reshape_work, passes))
        agree = [agreement(stock_add, View.__add__.__wrapped__, merge_work),
                 agreement(stock_reshape, View.reshape.__wrapped__, reshape_work)]
    finally:
        plugin.uninstall()
    for row, (work, call) in zip(rows, [(merge_work, hlayout.merge), (reshape_work, hlayout.reshape_flat)]):
        flat, run = native(work, call)
        row.append(timed(run, flat, passes))
    print(f"{'operation':<24}{'calls':>7}{'tinygrad':>10}{'with hlayout':>14}{'native call':>13}"
          "   (µs of CPU time per call)")
    for name, n, a, b, c in rows:
        print(f"{name:<24}{n:>7}{a:>10.1f}{b:>14.1f}{c:>13.1f}")
    for (name, *_), a in zip(rows, agree):
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in a.items()))
    (t0, m0), (t1, m1) = views
    print(f"views after simplify() over the reference chains: tinygrad {t0} ({m0} chains with 2+),"
          f" with hlayout {t1} ({m1} chains with 2+)")


if __name__ == "__main__":
    main()
