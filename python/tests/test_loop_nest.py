"""The loop-nest hint (hlayout.loop_nest) and the kernel DAG (Kernel.nodes)
checked as functions at every point of the reference chains: the nest's
loops enumerate the output in row-major order and its affine access equals
the view; the DAG, evaluated here node by node, equals the crate's
interpreter; a never-valid chain's index is 0."""

import itertools

import pytest

import hlayout
from hlayout import ViewStack
from refdata import load
from test_kernel import run_chain

CHAINS = load("tinygrad_chains.json")


def dag_eval(kernel, point):
    """The kernel's two roots, evaluating ``kernel.nodes`` at ``point``."""
    nodes, v = kernel.nodes, []
    for n in nodes:
        op, a = n[0], n[1:]
        if op in ("const", "bool"):
            v.append(a[0])
        elif op == "var":
            v.append(point[a[0]])
        elif op == "div":
            assert v[a[0]] >= 0
            v.append(v[a[0]] // a[1])
        elif op == "mod":
            assert v[a[0]] >= 0
            v.append(v[a[0]] % a[1])
        elif op == "not":
            v.append(not v[a[0]])
        elif op == "select":
            v.append(v[a[1]] if v[a[0]] else v[a[2]])
        else:
            x, y = v[a[0]], v[a[1]]
            v.append({"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
                      "lt": lambda: x < y, "le": lambda: x <= y, "gt": lambda: x > y,
                      "ge": lambda: x >= y, "eq": lambda: x == y, "ne": lambda: x != y,
                      "and": lambda: bool(x and y), "or": lambda: bool(x or y)}[op]())
    index, valid = kernel.roots
    return v[index], bool(v[valid])


@pytest.mark.parametrize("case", CHAINS, ids=lambda c: c["id"])
def test_nodes_and_loop_nest_at_every_point(case):
    s = run_chain(case["request"])
    k = s.kernel()
    for point in itertools.product(*[range(n) for _, n in k.vars]):
        idx, ok = dag_eval(k, point)
        want = k(*point)
        assert ok == want[1]
        if ok:
            assert idx == want[0]
    views = s.views
    if len(views) != 1 or 0 in s.shape:
        return
    v = views[0]
    try:
        nest = hlayout.loop_nest([v])
    except hlayout.PreconditionError:
        return
    strides, offset, cons = nest.access(0)
    exts = [e for _, e, _ in nest.loops]
    shape = list(s.shape)
    for rank, p in enumerate(itertools.product(*[range(e) for e in exts])):
        coord = nest.coords(*p)
        c, r = [], rank
        for n in reversed(shape):
            c.append(r % n)
            r //= n
        assert coord == list(reversed(c))
        affine_ok = all(lo <= sum(a * x for a, x in zip(co, p)) < hi for co, lo, hi in cons)
        got = offset + sum(a * x for a, x in zip(strides, p)) if affine_ok else None
        assert got == v(*coord) == nest(0, *p)


def test_loop_nest_refuses_what_cannot_be_affine():
    flat = ViewStack([4, 6]).permute([1, 0]).reshape([24])
    with pytest.raises(hlayout.PreconditionError, match="dimension 0"):
        hlayout.loop_nest([flat.pad([(1, 0)]).views[0]])
    a = ViewStack([2, 3]).permute([1, 0]).reshape([6]).views[0]
    b = ViewStack([3, 2]).permute([1, 0]).reshape([6]).views[0]
    with pytest.raises(hlayout.PreconditionError, match="do not divide"):
        hlayout.loop_nest([a, b])
    nest = hlayout.loop_nest([flat.views[0]])
    with pytest.raises(hlayout.OutOfDomainError):
        nest.coords(6, 0)
    with pytest.raises(IndexError):
        nest.access(1)


def test_a_never_valid_index_is_zero():
    s = ViewStack([4, 6]).permute([1, 0]).reshape([24]).pad([(0, 12)]).shrink([(24, 36)])
    k = s.reshape([3, 4]).kernel()
    assert k.render("c") == ("0", "0") and k.div_mod_count == 0
