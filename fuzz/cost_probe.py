#!/usr/bin/env python3
"""Cost probe for `hlayout batch`: random adversarial requests within the
default limits (large and prime extents, i64-sized strides, rank up to 64,
chains of up to 64 ops, masks, expr), each answered by its own process and
timed; prints any request that fails to get exactly one reply line or takes
longer than the limit, then the slowest few.

    python3 fuzz/cost_probe.py [--seed N] [--count N] [--limit SECONDS] [BINARY]

BINARY defaults to target/release/hlayout (build it with cargo build --release).
Wall-clock times here only find candidates; the fixes they led to were
confirmed with perf and are pinned by tests, not by timings.
"""
import json, random, subprocess, sys, time

BIG = [2**k for k in range(1, 62)] + [1000003, 999983, 65537, 2**31-1, 3**20, 6**12, 10**9+7]
def ext():
    r = random.random()
    if r < 0.5: return random.randint(1, 8)
    if r < 0.8: return random.randint(1, 4096)
    return random.choice(BIG)
def stride():
    r = random.random()
    if r < 0.4: return random.randint(-8, 16)
    if r < 0.8: return random.randint(-5000, 5000)
    return random.choice(BIG) * random.choice([1, -1])
def layout(maxleaves):
    n = random.randint(1, maxleaves)
    for _ in range(20):
        s = [ext() for _ in range(n)]
        p = 1
        for x in s: p *= x
        if p < 2**62: break
        n = max(1, n - 1)
    else:
        s = [2] * n
    d = [stride() for _ in range(n)]
    # nest some pairs
    return "(" + ",".join(map(str, s)) + "):(" + ",".join(map(str, d)) + ")"
def view(rank, size_of=None):
    shape = [random.choice([1, 2, 3, 5, 7, 64, 1000, 65536, 1 << 20]) for _ in range(rank)]
    if size_of and random.random() < 0.5:
        shape = [size_of]
    strides = [stride() % (1 << 20) * random.choice([1, -1]) for _ in shape]
    off = random.randint(-1 << 20, 1 << 20)
    mask = None
    if random.random() < 0.5:
        mask = []
        for s in shape:
            a = random.randint(0, s); b = random.randint(a, s); mask.append([a, b])
    return {"shape": shape, "strides": strides, "offset": off, "mask": mask}
ops = ["compose", "logical_divide", "logical_product", "blocked_product", "raked_product", "zipped_divide"]
def requests(count):
  out = []
  for k in range(count):
      r = random.random()
      if r < 0.35:
          out.append({"op": random.choice(ops), "a": layout(random.choice([3, 8, 64])), "b": layout(random.choice([2, 4, 16]))})
      elif r < 0.5:
          out.append({"op": random.choice(["left_inverse", "right_inverse", "coalesce", "flatten"]), "layout": layout(random.choice([4, 16, 64]))})
      elif r < 0.55:
          out.append({"op": "complement", "layout": layout(16), "cotarget": random.choice([1, 1000, 2**40, 2**62])})
      elif r < 0.75:
          f = view(random.randint(1, 8))
          size = 1
          for x in f["shape"]: size *= x
          out.append({"op": "merge", "first": f, "second": view(random.randint(1, 8), size)})
      elif r < 0.9:
          rank = random.randint(1, 64)
          shape = [random.choice([1, 1, 2, 3, 4]) for _ in range(rank)]
          ops_ = []
          cur = list(shape)
          for _ in range(random.randint(1, 64)):
              t = random.random()
              if t < 0.3:
                  pads = [[random.randint(0, 2), random.randint(0, 2)] if random.random() < 0.2 else [0, 0] for _ in cur]
                  ops_.append(["pad", pads]); cur = [c + a + b for c, (a, b) in zip(cur, pads)]
              elif t < 0.5:
                  sh = [[random.randint(0, c // 2), c] for c in cur]; ops_.append(["shrink", sh]); cur = [b - a for a, b in sh]
              elif t < 0.7:
                  p = list(range(len(cur))); random.shuffle(p); ops_.append(["permute", p]); cur = [cur[i] for i in p]
              elif t < 0.8:
                  ops_.append(["flip", [random.random() < 0.5 for _ in cur]])
              else:
                  n = 1
                  for c in cur: n *= c
                  # reshape to a random factorisation
                  fs = []
                  m = n
                  for d in [2, 3, 5, 7]:
                      while m % d == 0: fs.append(d); m //= d
                  if m > 1: fs.append(m)
                  random.shuffle(fs)
                  new = []
                  for f_ in fs:
                      if new and random.random() < 0.5 and new[-1] * f_ < 4096: new[-1] *= f_
                      else: new.append(f_)
                  if not new: new = [n]
                  if len(new) <= 64: ops_.append(["reshape", new]); cur = new
          req = {"op": "chain", "shape": shape, "ops": ops_}
          if random.random() < 0.5: req["expr"] = "c"
          n = 1
          for c in cur: n *= c
          if n <= 1 << 16 and random.random() < 0.3: req["offsets"] = True
          out.append(req)
      else:
          out.append({"op": "expr", "layout": layout(64), "lang": "c"})
  return out

def main():
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--limit", type=float, default=20.0)
    p.add_argument("binary", nargs="?", default="target/release/hlayout")
    a = p.parse_args()
    random.seed(a.seed)
    timed = []
    for req in requests(a.count):
        line = json.dumps(req, separators=(",", ":"))
        t = time.perf_counter()
        try:
            r = subprocess.run([a.binary, "batch"], input=(line + "\n").encode(),
                               capture_output=True, timeout=a.limit)
            out = r.stdout.decode()
            if r.returncode != 0 or out.count("\n") != 1:
                print("BAD", r.returncode, line, r.stderr[:300])
        except subprocess.TimeoutExpired:
            out = "TIMEOUT"
            print("TIMEOUT", line)
        timed.append((time.perf_counter() - t, line, out))
    timed.sort(reverse=True)
    for dt, line, out in timed[:5]:
        print(f"{dt:.3f}s {line[:200]} -> {out[:120]}")


if __name__ == "__main__":
    main()
