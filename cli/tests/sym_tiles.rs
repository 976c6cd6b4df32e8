//! The remaining algebra over symbols on the batch protocol
//! (`right_inverse`, `left_inverse`, `blocked_product`, `raked_product`):
//! each answer, bound at several allowed values (the extremes included), is
//! the concrete request's answer there as a function; refusals name facts.

use serde_json::json;

use crate::symbolic::{check, reply};

#[test]
fn inverses_and_products_at_bindings() {
    // Invariant: each answer over symbols is the concrete answer at every binding / Witness: a transpose's inverses, a blocked and a raked product over N and T.
    let n: &[&[(&str, i64)]] = &[&[("N", 2)], &[("N", 3)], &[("N", 7)], &[("N", 4096)]];
    let a = json!({"N":{"min":2,"max":4096}});
    check(
        json!({"op":"right_inverse","layout":"(N,4):(1,N)","assume":a}),
        n,
    );
    check(
        json!({"op":"left_inverse","layout":"(N,4):(1,2*N)","assume":a}),
        n,
    );
    check(
        json!({"op":"blocked_product","a":"(2,N):(N,1)","b":"(3,2):(2,1)","assume":a}),
        n,
    );
    check(
        json!({"op":"raked_product","a":"(2,N):(N,1)","b":"(3,2):(2,1)","assume":a}),
        n,
    );
    let nt: &[&[(&str, i64)]] = &[
        &[("N", 2), ("T", 1)],
        &[("N", 5), ("T", 3)],
        &[("N", 64), ("T", 64)],
    ];
    let a = json!({"N":{"min":2,"max":64},"T":{"max":64}});
    check(
        json!({"op":"blocked_product","a":"(2,N):(N,1)","b":"(T,3):(1,T)","assume":a}),
        nt,
    );
    check(
        json!({"op":"raked_product","a":"N:1","b":"(T,3):(3,1)","assume":a}),
        nt,
    );
}

#[test]
fn refusals_name_the_facts() {
    // Invariant: where the answer's structure depends on the values, the reply names the fact / Witness: the chain of (2,4):(K,1) goes on past 4 only at K = 4.
    let out = reply(&json!({"op":"right_inverse","layout":"(2,4):(K,1)"}));
    assert_eq!(out["needs"], json!(["K >= 5"]), "{out}");
    let out = reply(&json!({"op":"blocked_product","a":"N:1","b":"3:2"}));
    assert_eq!(out["needs"], json!(["N >= 2"]), "{out}");
}
