"""Kernel text is bounded by `max_expr_bytes` (1 MiB): a chain whose text
doubles every few ops is refused at once with LimitExceededError naming the
limit and the text's length, from every method that writes kernel text; text
under the limit is written as before."""

import time

import pytest

from hlayout import LimitExceededError, SymViewStack, ViewStack

LIMIT = 1 << 20


def doubling(stack, ops, rows):
    """`ops` ops of: transpose, reshape to rows x 4, pad a row, cut it off."""
    for k in range(ops):
        step = k % 4
        if step == 0:
            stack = stack.permute([1, 0])
        elif step == 1:
            stack = stack.reshape([rows, 4])
        elif step == 2:
            stack = stack.pad([(1, 0), (0, 0)])
        else:
            stack = stack.shrink([(0, rows), (0, 4)])
    return stack


def concrete(ops):
    return doubling(ViewStack([5, 4]), ops, 5)


def symbolic(ops):
    return doubling(SymViewStack(["N", 4], assume={"N": {"min": 5, "max": 64}}), ops, "N")


def assert_refused(call):
    with pytest.raises(LimitExceededError) as e:
        call()
    err = e.value
    assert (err.kind, err.limit, err.max) == ("LimitExceeded", "max_expr_bytes", LIMIT)
    assert err.value > 100_000_000_000  # hundreds of GB, measured, never written
    assert f"max_expr_bytes = {LIMIT} (got {err.value})" in str(err)


@pytest.mark.parametrize("build", [concrete, symbolic])
def test_the_64_op_chain_is_refused_quickly(build):
    start = time.monotonic()
    s = build(64)
    for lang in ["c", "python", "rust"]:
        for inp in ["coords", "linear"]:
            assert_refused(lambda: s.expr(lang, inp))
    k = s.kernel()
    assert_refused(lambda: k.render("c"))
    assert_refused(lambda: k.index("python"))
    assert_refused(lambda: k.valid("rust"))
    assert_refused(lambda: str(k))
    assert time.monotonic() - start < 20  # rendering would take minutes


@pytest.mark.parametrize("build", [concrete, symbolic])
def test_text_under_the_limit_is_written(build):
    s = build(20)
    index, valid = s.expr("c")
    assert 1000 < len(index) + len(valid) < LIMIT
    assert s.kernel().render("c") == (index, valid)
    assert str(s.kernel()) == f"index: {index}\nvalid: {valid}"


def test_equality_of_kernels_never_writes_too_much_text():
    big = concrete(64).kernel()
    assert big != concrete(20).kernel()  # lengths differ: no text written
    with pytest.raises(LimitExceededError):
        big == concrete(64).kernel()
    assert concrete(20).kernel() == concrete(20).kernel()
