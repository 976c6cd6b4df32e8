"""Brute-force definitions the tests compare against: nested tuples of ints,
row-major unravelling, and layout evaluation straight from the definition."""


def leaves(t):
    if isinstance(t, tuple):
        out = []
        for x in t:
            out.extend(leaves(x))
        return out
    return [t]


def unravel(i, extents):
    """Row-major coordinate of index ``i`` over flat ``extents`` (last fastest)."""
    out = []
    for n in reversed(extents):
        out.append(i % n)
        i //= n
    return list(reversed(out))


def layout_eval(shape, stride, i):
    """``L(i) = Σ c_k d_k`` with ``c`` the row-major coordinate of ``i``."""
    s, d = leaves(shape), leaves(stride)
    return sum(c * k for c, k in zip(unravel(i, s), d))


def size(shape):
    p = 1
    for n in leaves(shape):
        p *= n
    return p


def nest(values, shape):
    """Flat ``values`` regrouped congruent to ``shape``."""
    it = iter(values)

    def go(t):
        return tuple(go(x) for x in t) if isinstance(t, tuple) else next(it)
    return go(shape)
