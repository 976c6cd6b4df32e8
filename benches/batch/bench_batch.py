#!/usr/bin/env python3
"""`hlayout batch` per-line cost, and the movement-op chains with `"expr":"c"`
through batch against the same work through the Python binding.

    cargo build --release -p hlayout-cli && pip install ./python
    python3 benches/batch/bench_batch.py [target/release/hlayout] [--lines 400000] [--rounds 5]

1. Trivial requests: LINES copies of one request piped from a file into one
   `hlayout batch` process, replies to /dev/null; the time of an empty input
   (process start) is subtracted and the rest divided by LINES.
2. Chains: every chain of tests/data/tinygrad_chains.json as a batch request
   with `"expr":"c"` (and without `offsets`), the whole list repeated to fill a
   stream, against a Python loop doing the same work per chain:
   `ViewStack(shape)`, each op, `len`, `str` and `expr("c")`.

Each figure is the best of ROUNDS runs (the machine may be shared). Prints a
Markdown table, with the host's CPU model.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def batch_seconds(binary, payload, rounds):
    """Best wall time of `hlayout batch` over `payload` (bytes), replies discarded."""
    with tempfile.NamedTemporaryFile() as f:
        f.write(payload)
        f.flush()
        best = float("inf")
        for _ in range(rounds):
            with open(f.name, "rb") as stdin:
                t = time.perf_counter()
                subprocess.run([binary, "batch"], stdin=stdin, stdout=subprocess.DEVNULL, check=True)
                best = min(best, time.perf_counter() - t)
        return best


def chains():
    records = json.loads((ROOT / "tests/data/tinygrad_chains.json").read_text())
    out = []
    for r in records:
        req = {k: v for k, v in r["request"].items() if k != "offsets"}
        req["expr"] = "c"
        out.append(req)
    return out


def python_seconds(requests, repeat, rounds):
    from hlayout import ViewStack
    prepared = [(r["shape"], [(op, [tuple(p) for p in arg] if op in ("pad", "shrink") else arg)
                              for op, arg in r["ops"]]) for r in requests]

    def work():
        for shape, ops in prepared:
            s = ViewStack(shape)
            for op, arg in ops:
                s = getattr(s, op)(arg)
            len(s), str(s), s.expr("c")

    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(repeat):
            work()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary", nargs="?", default=str(ROOT / "target/release/hlayout"))
    ap.add_argument("--lines", type=int, default=400_000)
    ap.add_argument("--chain-repeat", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    start = batch_seconds(a.binary, b"", a.rounds)
    rows = []
    for name, req in [("coalesce 8:1", {"op": "coalesce", "layout": "8:1"}),
                      ("eval (2,2):(2,1)", {"op": "eval", "layout": "(2,2):(2,1)"})]:
        line = (json.dumps(req, separators=(",", ":")) + "\n").encode()
        t = batch_seconds(a.binary, line * a.lines, a.rounds) - start
        rows.append((f"batch, trivial request `{name}`", f"{t / a.lines * 1e9:,.0f} ns per line", ""))
    reqs = chains()
    payload = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in reqs).encode() * a.chain_repeat
    n = len(reqs) * a.chain_repeat
    tb = batch_seconds(a.binary, payload, a.rounds) - start
    tp = python_seconds(reqs, a.chain_repeat, a.rounds)
    rows.append((f"{len(reqs)} chains with `expr: c`, batch", f"{tb / n * 1e6:,.2f} µs per chain", f"{tb / tp:.2f}×"))
    rows.append((f"{len(reqs)} chains with `expr: c`, Python binding", f"{tp / n * 1e6:,.2f} µs per chain", "1.00×"))
    print(f"Host: {cpu_model()}, {os.cpu_count()} CPUs; best of {a.rounds}; "
          f"process start ({start * 1e3:.1f} ms) subtracted from batch.\n")
    print("| measure | cost | vs Python |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    sys.exit(main())
