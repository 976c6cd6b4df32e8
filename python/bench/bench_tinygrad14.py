"""Cold time from tensor ops to rendered kernel source in tinygrad 0.14.0,
with and without hlayout's plug-in, A/B in one process.

For every chain of tests/data/tinygrad_chains.json: a float32 tensor of the
chain's shape on the CPU device, the chain's ops, .contiguous(),
.schedule_linear(), and every kernel rendered by the CPU renderer (no
compile, no run). Before each timing every cache on the way is cleared
(tinygrad's schedule and program caches, the memos of apply_movement_op and
_apply_reshape, and with the plug-in its kernels and chains), so each is a
cold start, and the garbage of the runs before is collected
(``gc.collect()``), so no run pays for another's; tinygrad's harness for
these chains clears and collects the same way. Stock and
plug-in alternate chain by chain, `passes` times, so both see the same load;
a chain's figure is the median of its passes of process CPU time.

    DEV=CPU python python/bench/bench_tinygrad14.py [passes]
"""

import gc
import json
import pathlib
import statistics
import sys
import time

from tinygrad import Device, Tensor, dtypes
from tinygrad.codegen import to_program, to_program_cache
from tinygrad.uop.ops import Ops
import tinygrad.schedule as sch
import tinygrad.schedule.indexing as ix

import hlayout.tinygrad as plugin

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"
REN = Device["CPU"].renderer


def build(shape, ops):
    t = Tensor.empty(*shape, device="CPU", dtype=dtypes.float32)
    for op, arg in ops:
        if op in ("pad", "shrink"):
            t = getattr(t, op)(tuple(tuple(x) for x in arg))
        elif op == "flip":
            axes = tuple(i for i, f in enumerate(arg) if f)
            if axes:
                t = t.flip(axes)
        else:
            t = getattr(t, op)(tuple(arg))
    return t


def clear():
    sch.schedule_cache.clear()
    to_program_cache.clear()
    for f in (ix.apply_movement_op, ix._apply_reshape):
        if hasattr(f, "cache_clear"):
            f.cache_clear()


def cold(shape, ops):
    clear()
    gc.collect()
    t0 = time.process_time()
    lin = build(shape, ops).contiguous().schedule_linear()
    for call in lin.src:
        if call.src[0].op is Ops.SINK:
            to_program(call.src[0], REN)
    return time.process_time() - t0


def main(passes):
    chains = [c["request"] for c in json.load(open(DATA / "tinygrad_chains.json"))]
    cold([2, 3], [["permute", [1, 0]], ["reshape", [6]]])  # imports, matchers
    plugin.install()
    cold([2, 3], [["permute", [1, 0]], ["reshape", [6]]])
    plugin.uninstall()
    stock, ours = [], []
    for req in chains:
        a, b = [], []
        for _ in range(passes):
            a.append(cold(req["shape"], req["ops"]))
            plugin.install()
            b.append(cold(req["shape"], req["ops"]))
            plugin.uninstall()
        stock.append(statistics.median(a) * 1e3)
        ours.append(statistics.median(b) * 1e3)
    ms = lambda xs: f"median {statistics.median(xs):.2f} ms, total {sum(xs):.0f} ms"  # noqa: E731
    print(f"chains: {len(chains)}, passes: {passes}")
    print(f"stock tinygrad 0.14.0: {ms(stock)}")
    print(f"with hlayout:          {ms(ours)}")
    print(f"faster with hlayout on {sum(b < a for a, b in zip(stock, ours))} chains")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
