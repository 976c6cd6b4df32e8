"""Shared memory (hlayout.bank_conflicts, swizzle_search, swizzle_between,
linear_layout, from_linear), checked against brute force written from the
batch protocol's "Shared memory" section: every count over all threads and
values, the search against every swizzle of the range, F2 bases at every
index and the import round trip."""

import random

import pytest

import hlayout
from hlayout import ComposedLayout, Layout, NoSwizzleError, NotLinearError, PreconditionError

RANGE = [(0, 0, 0)] + [(b, m, s) for b in range(1, 5) for m in range(5) for s in range(b, 8)]


def sw(b, m, s, x):
    y = ((1 << b) - 1) << (m + s)
    return x ^ ((x & y) >> s)


def ev(layout, i):
    if isinstance(layout, ComposedLayout):
        z = layout.swizzle
        return sw(z.bits, z.base, z.shift, layout.offset + layout.layout(i))
    return layout(i)


def brute(layout, access, b):
    """The protocol's (wavefronts, ideal), over every warp and value."""
    t_count, v_count = access[0].size, access[1].size
    w = ideal = 0
    for warp in range((t_count + 31) // 32):
        for v in range(v_count):
            ts = range(warp * 32, min(warp * 32 + 32, t_count))
            words = {ev(layout, access(t * v_count + v)) * b // 4 for t in ts}
            banks = {}
            for word in words:
                banks[word % 32] = banks.get(word % 32, 0) + 1
            w += max(banks.values())
            ideal += -(-len(words) // 32)
    return w, ideal


def xor(bases, i):
    """The XOR of the bases at the set bits of i."""
    out = 0
    for k, o in enumerate(bases):
        if i >> k & 1:
            out ^= o
    return out


def random_case(rng):
    t, v = rng.randint(1, 70), rng.randint(1, 4)
    access = Layout(f"({t},{v}):({rng.randint(0, 40)},{rng.randint(0, 8)})")
    cols = rng.choice([1, 3, 8, 16, 32, 33, 64])
    rows = -(-access.cosize // cols)
    tile = Layout(f"({rows},{cols}):({cols * rng.randint(1, 3)},1)")
    return tile, access, rng.choice([1, 2, 4])


@pytest.mark.parametrize("seed", range(40))
def test_bank_conflicts_equal_brute_force(seed):
    rng = random.Random(seed)
    tile, access, b = random_case(rng)
    assert hlayout.bank_conflicts(tile, access, b) == brute(tile, access, b)
    bb, m, s = rng.choice(RANGE)
    swz = ComposedLayout(f"Sw<{bb},{m},{s}> o 0 o {tile}")
    assert hlayout.bank_conflicts(swz, access, b) == brute(swz, access, b)
    per = hlayout.bank_conflicts_per_request(swz, access, b)
    assert sum(r[2] for r in per) == brute(swz, access, b)[0]


@pytest.mark.parametrize("seed", range(8))
def test_swizzle_search_is_exhaustive(seed):
    tile, access, b = random_case(random.Random(100 + seed))
    found, w = hlayout.swizzle_search(tile, access, b)
    counts = [(brute(ComposedLayout(f"Sw<{x},{y},{z}> o 0 o {tile}"), access, b)[0], k)
              for k, (x, y, z) in enumerate(RANGE)]
    best, k = min(counts)
    x, y, z = RANGE[k]
    assert (w, str(found)) == (best, f"Sw<{x},{y},{z}> o 0 o {tile}")


def test_worked_examples():
    cols = "(32,32):(32,1)"
    assert hlayout.bank_conflicts(cols, cols, 4) == (1024, 32)
    found, w = hlayout.swizzle_search(cols, cols, 4)
    assert (str(found.swizzle), w) == ("Sw<4,0,5>", 64)


@pytest.mark.parametrize("seed", range(30))
def test_linear_round_trip(seed):
    rng = random.Random(seed)
    shape = [1 << rng.randint(0, 2) for _ in range(rng.randint(1, 4))]
    stride = [rng.randint(0, 40) for _ in shape]
    inner = Layout(tuple(shape), tuple(stride))
    x, y, z = rng.choice(RANGE)
    layout = ComposedLayout(f"Sw<{x},{y},{z}> o 0 o {inner}")
    n = layout.size
    try:
        bases = hlayout.linear_layout(layout)
    except NotLinearError as e:
        assert ev(layout, e.index) == e.value != e.expected
        return
    assert all(ev(layout, i) == xor(bases, i) for i in range(n))
    back = hlayout.from_linear(bases)
    assert all(ev(back, i) == ev(layout, i) for i in range(n))
    assert hlayout.linear_layout(back) == bases


def test_errors():
    with pytest.raises(PreconditionError):
        hlayout.bank_conflicts("(8,8):(8,1)", "(8,8):(8,1)", 3)
    with pytest.raises(NoSwizzleError) as e:
        hlayout.swizzle_between("8:1", "8:2")
    assert (e.value.index, e.value.value, e.value.target) == (1, 1, 2)
    with pytest.raises(NotLinearError) as e:
        hlayout.linear_layout("4:3")
    assert (e.value.index, e.value.value, e.value.expected) == (3, 9, 5)
    with pytest.raises(PreconditionError):
        hlayout.from_linear([1, 1])
    with pytest.raises(TypeError):
        hlayout.swizzle_search("Sw<1,0,1> o 0 o 4:1", "(4,1):(1,1)", 4)
