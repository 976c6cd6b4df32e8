"""Compares hlayout.pycute with NVIDIA's pycute on random compositions: where
pycute returns a layout that is not A∘B, where it asserts and hlayout answers,
and (never, so far) where pycute is right and hlayout raises; then swizzles and
swizzled layouts, value by value. The README's table of differences comes from
this run.

    pip download nvidia-cutlass==4.2.0.0 --no-deps -d /tmp/cutlass
    unzip -q /tmp/cutlass/nvidia_cutlass-4.2.0.0-py3-none-any.whl 'pycute/*' -d /tmp/cutlass
    python python/bench/compare_pycute.py /tmp/cutlass [pairs]
"""

import random
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")
import pycute as P  # noqa: E402  (NVIDIA's, from the path above)

import hlayout  # noqa: E402
import hlayout.pycute as H  # noqa: E402

assert P is not H, "pass the directory holding NVIDIA's pycute"


def random_layout(rng):
    def tup(depth):
        if depth == 0 or rng.random() < 0.5:
            return rng.choice([1, 2, 3, 4, 6])
        return tuple(tup(depth - 1) for _ in range(rng.randint(1, 3)))

    def strides(t):
        return tuple(strides(x) for x in t) if isinstance(t, tuple) else rng.choice(
            [0, 1, 2, 3, 4, 6, 8, 12])
    shape = tup(2)
    return shape, strides(shape)


def main():
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    rng = random.Random(1)
    wrong, asserts, refused, agree = [], [], [], 0
    for _ in range(n):
        (sa, da), (sb, db) = random_layout(rng), random_layout(rng)
        pa, pb = P.Layout(sa, da), P.Layout(sb, db)
        try:
            pr = P.composition(pa, pb)
        except Exception:  # noqa: BLE001 (pycute asserts)
            pr = None
        try:
            hr = H.composition(H.Layout(sa, da), H.Layout(sb, db))
        except hlayout.HlayoutError as e:
            hr = e
        if not isinstance(hr, Exception):  # hlayout's answer, checked at every index
            ha, hb = H.Layout(sa, da), H.Layout(sb, db)
            assert H.size(hr) == H.size(hb) and all(
                hr(i) == ha(hb(i)) for i in range(H.size(hb))), (sa, da, sb, db, hr)
        if pr is None:
            if not isinstance(hr, Exception):
                asserts.append((pa, pb, hr))
            continue
        right = P.size(pr) == P.size(pb) and all(pr(i) == pa(pb(i)) for i in range(P.size(pb)))
        if not right:
            wrong.append((pa, pb, pr, hr))
        elif isinstance(hr, Exception):
            refused.append((pa, pb, pr, hr))
        else:
            agree += 1
    print(f"{n} random pairs (every hlayout answer checked at every index): "
          f"both answer correctly {agree}")
    print(f"pycute returns a layout that is not A∘B: {len(wrong)}")
    for a, b, p, h in wrong[:5]:
        print(f"   {a!r} o {b!r}: pycute {p!r}, hlayout {h!r}")
    print(f"pycute asserts, hlayout answers: {len(asserts)}")
    for a, b, h in asserts[:5]:
        print(f"   {a!r} o {b!r}: hlayout {h!r}")
    print(f"pycute right, hlayout raises: {len(refused)}")
    swizzles()


def swizzles():
    """Swizzles and swizzled layouts evaluated both ways, offset by offset."""
    offsets = range(-256, 1024)
    cases = [(b, m, s) for b in range(4) for m in range(4) for s in range(-5, 6)
             if abs(s) >= b and s != 0]  # pycute's shiftr/shiftl recurse forever on s == 0
    differ = sum(P.Swizzle(*c)(x) != H.Swizzle(*c)(x) for c in cases for x in offsets)
    print(f"{len(cases)} swizzles x {len(offsets)} offsets: values that differ {differ}")
    rng = random.Random(2)
    composed, differ = 0, 0
    for _ in range(300):
        (s, d), c, o = random_layout(rng), rng.choice(cases), rng.randint(0, 64)
        if c[1] + abs(c[2]) + c[0] > 63:
            continue
        pc = P.ComposedLayout(P.Swizzle(*c), o, P.Layout(s, d))
        hc = H.ComposedLayout(H.Swizzle(*c), o, H.Layout(s, d))
        composed += 1
        differ += sum(pc(i) != hc(i) for i in range(P.size(pc)))
    print(f"{composed} random swizzled layouts at every index: values that differ {differ}")


if __name__ == "__main__":
    main()
