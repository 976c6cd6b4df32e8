//! One test per simplification rule of `docs/codegen.md`: an input on which
//! the rule fires (its result's shape is asserted, so the test notices when
//! it stops firing) and a brute-force check of the result as a function at
//! every point of the variables' box (so a wrong rule fails). A property test
//! then checks random nested divisions and modulos through the whole
//! simplifier, raw-then-resimplified as the lowering uses it.
#![allow(clippy::unwrap_used)]

use super::emit::{emit, Cond};
use super::ir::{Kernel, Node, Var};
use super::linear::{Atom, Builder, Lin};
use crate::error::Result;
use proptest::prelude::*;

/// The value of `l` at the variables' values `at`; asserts every atom's
/// operand is non-negative and every atom lies in its recorded range.
fn value(b: &Builder, l: &Lin, at: &[i64]) -> i64 {
    let mut v = l.konst;
    for &(id, a) in &l.terms {
        let info = &b.atoms[id as usize];
        let x = match &info.atom {
            Atom::Var(k) => at[*k],
            Atom::Div(m, c) | Atom::Mod(m, c) => {
                let y = value(b, m, at);
                assert!(y >= 0, "negative operand {y} of atom {:?}", info.atom);
                if matches!(info.atom, Atom::Div(..)) {
                    y / c
                } else {
                    y % c
                }
            }
        };
        assert!(
            (info.lo..=info.hi).contains(&x),
            "atom {:?} = {x} outside [{}, {}]",
            info.atom,
            info.lo,
            info.hi
        );
        v += a * x;
    }
    v
}

/// Every point of the box `[0, e_0) × [0, e_1) × …`.
fn points(ext: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for &e in ext {
        out = out
            .into_iter()
            .flat_map(|p| (0..e).map(move |x| [p.clone(), vec![x]].concat()))
            .collect();
    }
    out
}

/// A builder (simplifying, not recording) with variables of extents `ext`.
fn vars(ext: &[i64]) -> (Builder, Vec<Lin>) {
    let mut b = Builder::default();
    let v = ext.iter().enumerate().map(|(k, &e)| b.var(k, e)).collect();
    (b, v)
}

/// `Σ a_k·v_k + k`.
fn form(v: &[Lin], a: &[i64], k: i64) -> Lin {
    v.iter().zip(a).fold(Lin::constant(k), |acc, (x, &c)| {
        acc.add_scaled(x, c).unwrap()
    })
}

/// Asserts `got == f(at)` at every point where the builder's facts hold.
fn agrees(b: &Builder, got: &Lin, ext: &[i64], f: impl Fn(&[i64]) -> i64) {
    for p in points(ext) {
        let facts = b.facts.iter().all(|(l, lo, hi)| {
            let v = i128::from(value(b, l, &p));
            *lo <= v && v < *hi
        });
        if facts {
            assert_eq!(value(b, got, &p), f(&p), "at {p:?}: {got:?}");
        }
    }
}

/// The number of division and modulo atoms `l` refers to, recursively.
fn ops(b: &Builder, l: &Lin) -> usize {
    l.terms
        .iter()
        .map(|&(id, _)| match &b.atoms[id as usize].atom {
            Atom::Var(_) => 0,
            Atom::Div(m, _) | Atom::Mod(m, _) => 1 + ops(b, m),
        })
        .sum()
}

#[test]
fn d1_a_quotient_within_one_block_is_constant() -> Result<()> {
    let (mut b, v) = vars(&[6]);
    let l = form(&v, &[1], 18); // x + 18 in [18, 23]
    let q = b.div(&l, 6)?;
    assert_eq!(q, Lin::constant(3));
    agrees(&b, &q, &[6], |p| (p[0] + 18).div_euclid(6));
    Ok(())
}

#[test]
fn d2_multiples_of_the_divisor_leave_the_division() -> Result<()> {
    let (mut b, v) = vars(&[5, 7]);
    let l = form(&v, &[6, 1], 0);
    let q = b.div(&l, 3)?; // 2x + ⌊y/3⌋
    assert_eq!(q.terms.iter().find(|t| t.0 == 0).map(|t| t.1), Some(2));
    assert_eq!(ops(&b, &q), 1);
    agrees(&b, &q, &[5, 7], |p| (6 * p[0] + p[1]).div_euclid(3));
    Ok(())
}

#[test]
fn d3_a_negative_dividend_is_shifted_by_a_multiple() -> Result<()> {
    let (mut b, v) = vars(&[20]);
    let l = form(&v, &[1], -5); // x - 5 in [-5, 14]
    let q = b.div(&l, 4)?; // ⌊(x + 3)/4⌋ - 2
    assert_eq!(q.konst, -2);
    let [(id, 1)] = q.terms[..] else {
        panic!("{q:?}")
    };
    assert_eq!(b.atoms[id as usize].atom, Atom::Div(form(&v, &[1], 3), 4));
    agrees(&b, &q, &[20], |p| (p[0] - 5).div_euclid(4));
    let m = b.modulo(&l, 4)?; // (x + 3) mod 4
    agrees(&b, &m, &[20], |p| (p[0] - 5).rem_euclid(4));
    Ok(())
}

#[test]
fn d4_a_common_factor_divides_out() -> Result<()> {
    let (mut b, v) = vars(&[5, 6]);
    let l = form(&v, &[2, 4], 1);
    let q = b.div(&l, 6)?; // ⌊(x + 2y)/3⌋
    let [(id, 1)] = q.terms[..] else {
        panic!("{q:?}")
    };
    assert_eq!(
        b.atoms[id as usize].atom,
        Atom::Div(form(&v, &[1, 2], 0), 3)
    );
    agrees(&b, &q, &[5, 6], |p| (2 * p[0] + 4 * p[1] + 1).div_euclid(6));
    Ok(())
}

#[test]
fn d5_nested_divisions_fold() -> Result<()> {
    let (mut b, v) = vars(&[50]);
    let inner = b.div(&v[0], 3)?;
    let q = b.div(&inner.plus(1)?, 4)?; // ⌊(x + 3)/12⌋
    let [(id, 1)] = q.terms[..] else {
        panic!("{q:?}")
    };
    assert_eq!(b.atoms[id as usize].atom, Atom::Div(form(&v, &[1], 3), 12));
    agrees(&b, &q, &[50], |p| (p[0] / 3 + 1).div_euclid(4));
    Ok(())
}

#[test]
fn d6_a_division_of_a_modulo_is_a_modulo_of_a_division() -> Result<()> {
    let (mut b, v) = vars(&[50]);
    let m = b.modulo(&v[0], 12)?;
    let q = b.div(&m, 4)?; // ⌊x/4⌋ mod 3
    let [(id, 1)] = q.terms[..] else {
        panic!("{q:?}")
    };
    let Atom::Mod(inner, 3) = &b.atoms[id as usize].atom else {
        panic!("{q:?}")
    };
    let [(d, 1)] = inner.terms[..] else {
        panic!("{inner:?}")
    };
    assert_eq!(b.atoms[d as usize].atom, Atom::Div(v[0].clone(), 4));
    agrees(&b, &q, &[50], |p| (p[0] % 12) / 4);
    Ok(())
}

#[test]
fn d7_a_rest_below_the_common_factor_drops_out() -> Result<()> {
    let (mut b, v) = vars(&[20, 8]);
    let l = form(&v, &[8, 1], 0); // 8x + y, y < 8
    let q = b.div(&l, 64)?; // ⌊x/8⌋
    let [(id, 1)] = q.terms[..] else {
        panic!("{q:?}")
    };
    assert_eq!(b.atoms[id as usize].atom, Atom::Div(v[0].clone(), 8));
    agrees(&b, &q, &[20, 8], |p| (8 * p[0] + p[1]) / 64);
    let m = b.modulo(&l.plus(16)?, 64)?; // 8·((x + 2) mod 8) + y
    assert_eq!(ops(&b, &m), 1);
    assert_eq!(m.terms.iter().find(|t| t.0 == 1).map(|t| t.1), Some(1));
    agrees(&b, &m, &[20, 8], |p| (8 * p[0] + p[1] + 16) % 64);
    // y + 3 crosses a block of 8: the rule must not fire.
    let q = b.div(&l.plus(3)?, 64)?;
    agrees(&b, &q, &[20, 8], |p| (8 * p[0] + p[1] + 3) / 64);
    Ok(())
}

#[test]
fn a1_an_affine_quotient_of_few_points_is_linear() -> Result<()> {
    let (mut b, v) = vars(&[2]);
    let l = form(&v, &[3], 1); // ⌊(3x + 1)/2⌋ at x = 0, 1: 0, 2
    let q = b.div(&l, 2)?;
    assert_eq!(q, form(&v, &[2], 0));
    agrees(&b, &q, &[2], |p| (3 * p[0] + 1).div_euclid(2));
    let m = b.modulo(&form(&v, &[3], 0), 2)?; // 3x mod 2 = x on {0, 1}
    assert_eq!(m, v[0]);
    Ok(())
}

#[test]
fn m1_a_modulo_within_one_block_is_affine() -> Result<()> {
    let (mut b, v) = vars(&[6]);
    let m = b.modulo(&form(&v, &[1], 17), 8)?; // x + 17 in [17, 22]: x + 1
    assert_eq!(m, form(&v, &[1], 1));
    agrees(&b, &m, &[6], |p| (p[0] + 17) % 8);
    Ok(())
}

#[test]
fn m2_multiples_of_the_divisor_vanish() -> Result<()> {
    let (mut b, v) = vars(&[5, 9]);
    let m = b.modulo(&form(&v, &[8, 1], 0), 4)?; // y mod 4
    assert!(m.terms.iter().all(|t| t.0 != 0) && ops(&b, &m) == 1);
    agrees(&b, &m, &[5, 9], |p| (8 * p[0] + p[1]) % 4);
    Ok(())
}

#[test]
fn m3_m4_a_common_factor_leaves_the_modulo() -> Result<()> {
    let (mut b, v) = vars(&[9]);
    let m = b.modulo(&form(&v, &[2], -3), 6)?; // 2·((x + 1) mod 3) + 1
    assert_eq!(m.konst, 1);
    let [(id, 2)] = m.terms[..] else {
        panic!("{m:?}")
    };
    assert_eq!(b.atoms[id as usize].atom, Atom::Mod(form(&v, &[1], 1), 3));
    agrees(&b, &m, &[9], |p| (2 * p[0] - 3).rem_euclid(6));
    Ok(())
}

#[test]
fn m5_a_modulo_of_a_modulo_by_a_multiple_folds() -> Result<()> {
    let (mut b, v) = vars(&[50]);
    let inner = b.modulo(&v[0], 12)?;
    let m = b.modulo(&inner.plus(5)?, 4)?; // (x + 5) mod 4
    let [(id, 1)] = m.terms[..] else {
        panic!("{m:?}")
    };
    assert_eq!(b.atoms[id as usize].atom, Atom::Mod(form(&v, &[1], 1), 4));
    agrees(&b, &m, &[50], |p| (p[0] % 12 + 5) % 4);
    Ok(())
}

#[test]
fn f1_facts_narrow_and_quotients_become_facts() -> Result<()> {
    let (mut b, v) = vars(&[40]);
    // Where 8 <= x < 16: ⌊x/8⌋ = 1 and x mod 8 = x - 8.
    b.push_fact((v[0].clone(), 8, 16));
    let q = b.div(&v[0], 8)?;
    assert_eq!(q, Lin::constant(1));
    agrees(&b, &q, &[40], |p| p[0] / 8);
    let m = b.modulo(&v[0], 8)?;
    assert_eq!(m, form(&v, &[1], -8));
    agrees(&b, &m, &[40], |p| p[0] % 8);
    // Where 8 <= x + 4y < 16 (x < 4): ⌊(x + 4y)/4⌋ is y (rules D2, D1),
    // and its interval [2, 3] survives as a fact on y, so ⌊y/2⌋ = 1.
    let (mut b, v) = vars(&[4, 5]);
    let l = form(&v, &[1, 4], 0);
    b.push_fact((l.clone(), 8, 16));
    let q = b.div(&l, 4)?;
    assert_eq!(q, v[1]);
    assert_eq!(b.facts.len(), 2, "{:?}", b.facts);
    let h = b.div(&q, 2)?;
    assert_eq!(h, Lin::constant(1));
    agrees(&b, &h, &[4, 5], |p| (p[0] + 4 * p[1]) / 8);
    Ok(())
}

/// Emits `index` under `conds` over variables of extents `ext` and checks
/// the kernel at every point: valid exactly where every constraint holds,
/// the index right there.
fn emitted(b: &mut Builder, ext: &[i64], index: &Lin, conds: &[Cond]) -> Kernel {
    let raw = b.clone();
    let vars = ext
        .iter()
        .enumerate()
        .map(|(k, &e)| Var {
            name: format!("i{k}"),
            extent: e,
        })
        .collect();
    let mut k = Kernel::new(vars);
    emit(b, index, conds, &mut k).unwrap();
    k.check().unwrap();
    for p in points(ext) {
        let ok = conds.iter().all(|(l, lo, hi)| {
            let v = i128::from(value(&raw, l, &p));
            *lo <= v && v < *hi
        });
        let (idx, valid) = k.eval(&p).unwrap();
        assert_eq!(valid, ok, "at {p:?}: {:?}", k.c());
        if ok {
            assert_eq!(idx, value(&raw, index, &p), "at {p:?}: {:?}", k.c());
        }
    }
    k
}

#[test]
fn e1_a_modulo_whose_quotient_is_computed_costs_nothing() -> Result<()> {
    let mut b = Builder::recording();
    let x = b.var(0, 24);
    let (q, m) = (b.div(&x, 6)?, b.modulo(&x, 6)?);
    let index = q.add_scaled(&m, 10)?; // 10·(x mod 6) + ⌊x/6⌋
    let k = emitted(&mut b, &[24], &index, &[]);
    assert_eq!(k.div_mod_count(), 1);
    assert_eq!(k.c().0, "i0 * 10 - i0 / 6 * 59");
    Ok(())
}

#[test]
fn c1_c2_constraints_are_normalised_and_merged() -> Result<()> {
    let mut b = Builder::recording();
    let (x, y) = (b.var(0, 10), b.var(1, 10));
    let s = x.add_scaled(&y, 1)?;
    // 4 <= 2x + 2y + 1 < 20 (x + y >= ⌈3/2⌉ = 2) and -7 <= -(x + y),
    // both about x + y: one pair of bounds.
    let c1 = (s.scaled(2)?.plus(1)?, 4, 20);
    let c2 = (s.scaled(-1)?, -7, 100);
    let k = emitted(&mut b, &[10, 10], &Lin::constant(0), &[c1, c2]);
    assert_eq!(k.c().1, "i0 + i1 >= 2 && i0 + i1 < 8");
    Ok(())
}

#[test]
fn c3_a_bound_on_a_quotient_is_a_bound_on_its_dividend() -> Result<()> {
    let mut b = Builder::recording();
    let x = b.var(0, 40);
    let q = b.div(&x, 4)?;
    let k = emitted(&mut b, &[40], &q, &[(q.clone(), 2, 5)]);
    assert_eq!(k.c().1, "i0 >= 8 && i0 < 20");
    Ok(())
}

#[test]
fn c4_bounds_the_range_proves_are_dropped_and_one_value_is_equality() -> Result<()> {
    let mut b = Builder::recording();
    let (x, y) = (b.var(0, 10), b.var(1, 10));
    let conds = [(x.clone(), 0, 7), (y.clone(), 3, 4), (x.clone(), -5, 20)];
    let k = emitted(&mut b, &[10, 10], &x, &conds);
    assert_eq!(k.c().1, "i0 < 7 && i1 == 3");
    // A bound at the range's end is kept.
    let k = emitted(&mut b, &[10, 10], &x, &[(x.clone(), 0, 9)]);
    assert_eq!(k.c().1, "i0 < 9");
    let never = [(x.clone(), 12, 20)];
    let k = emitted(&mut b, &[10, 10], &x, &never);
    assert_eq!(k.c().1, "0");
    Ok(())
}

#[test]
fn v1_constraints_simplify_under_the_earlier_ones() -> Result<()> {
    let mut b = Builder::recording();
    let x = b.var(0, 40);
    let m = b.modulo(&x, 8)?;
    // Where 8 <= x < 16, x mod 8 is x - 8: the second constraint and the
    // index need no modulo.
    let conds = [(x.clone(), 8, 16), (m.clone(), 2, 6)];
    let k = emitted(&mut b, &[40], &m, &conds);
    assert_eq!(k.div_mod_count(), 0, "{:?}", k.c());
    Ok(())
}

#[test]
fn s1_a_select_under_comparisons_has_the_narrowed_interval() {
    let mut k = Kernel::new(vec![Var {
        name: "x".into(),
        extent: 100,
    }]);
    let x = k.push(Node::Var(0));
    let c50 = k.push(Node::Const(50));
    let s = k.push(Node::Sub(x, c50)); // [-50, 49]
    let (zero, ten) = (k.push(Node::Const(0)), k.push(Node::Const(10)));
    let ge = k.push(Node::Ge(s, zero));
    let lt = k.push(Node::Lt(s, ten));
    let both = k.push(Node::And(ge, lt));
    let sel = k.push(Node::Select(both, s, zero));
    assert_eq!(k.range(sel), (0, 9));
    // A comparison of another node narrows nothing.
    let other = k.push(Node::Lt(x, ten));
    let loose = k.push(Node::Select(other, s, zero));
    assert_eq!(k.range(loose), (-50, 49));
    let d = k.push(Node::Div(loose, 3));
    k.set_index(d);
    assert!(k.check().is_err()); // the unnarrowed select may be negative
                                 // The narrowed interval is sound: a division of it is safe and right.
    let d = k.push(Node::Div(sel, 3));
    k.set_index(d);
    k.check().unwrap();
    for x in 0..100 {
        let s = x - 50;
        let want = if (0..10).contains(&s) { s / 3 } else { 0 };
        assert_eq!(k.eval(&[x]).unwrap(), (want, true));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random forms, divided and reduced twice (nested, so the folding rules
    /// fire), built raw and resimplified as the lowering does, and built
    /// simplifying directly: both exact at every point, every atom
    /// non-negative and within its range.
    #[test]
    fn nested_divisions_and_modulos_are_exact(
        ext in prop::collection::vec(1i64..=7, 1..=3),
        a in prop::collection::vec(-8i64..=8, 3),
        k in -30i64..=30,
        (c1, c2, k2) in (1i64..=12, 1i64..=12, -6i64..=6),
        (op1, op2) in (any::<bool>(), any::<bool>()),
    ) {
        let apply = |b: &mut Builder, l: &Lin, c: i64, div: bool| {
            if div { b.div(l, c) } else { b.modulo(l, c) }
        };
        let f = |v: i64, c: i64, div: bool| if div { v.div_euclid(c) } else { v.rem_euclid(c) };
        let reference = |p: &[i64]| {
            let l: i64 = p.iter().zip(&a).map(|(x, c)| x * c).sum::<i64>() + k;
            f(f(l, c1, op1) + k2, c2, op2)
        };
        for raw in [false, true] {
            let mut b = if raw { Builder::recording() } else { Builder::default() };
            let v: Vec<Lin> = ext.iter().enumerate().map(|(i, &e)| b.var(i, e)).collect();
            let l = form(&v, &a[..v.len()], k);
            let r1 = apply(&mut b, &l, c1, op1).unwrap();
            let mut r2 = apply(&mut b, &r1.plus(k2).unwrap(), c2, op2).unwrap();
            if raw {
                b.raw = false;
                r2 = b.resimplify(&r2).unwrap();
            }
            for p in points(&ext) {
                prop_assert_eq!(value(&b, &r2, &p), reference(&p), "at {:?}: {:?}", p, r2);
            }
        }
    }
}
