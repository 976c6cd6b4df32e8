//! Property tests of the foundation, each checked by evaluation at every index
//! against the definitions in `common`.

use crate::common;

use common::{digits, layout, reference_eval, reference_offsets, shape_tree};
use hlayout::tuple::{coarsenings, common_refinement, crd2crd, crd2idx, idx2crd, is_coarsening};
use hlayout::{IntTuple, Layout};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(512)))]

    /// eval, the evaluator and the offset stream all equal the definition, in
    /// the domain and a little past it.
    #[test]
    fn eval_matches_definition(l in layout()) {
        let e = l.evaluator();
        let stream: Vec<i64> = l.offsets().collect();
        prop_assert_eq!(&stream, &reference_offsets(&l));
        let mut filled = vec![0; l.size() as usize];
        prop_assert_eq!(l.offsets().fill(&mut filled), l.size() as usize);
        prop_assert_eq!(&filled, &stream);
        for i in 0..l.size() * 3 {
            if l.shape_leaves().is_empty() && i > 0 {
                prop_assert!(l.eval(i).is_err());
                break;
            }
            prop_assert_eq!(l.eval(i).unwrap(), reference_eval(&l, i));
            prop_assert_eq!(e.eval(i).unwrap(), reference_eval(&l, i));
        }
    }

    /// crd2idx ∘ idx2crd = id, and the natural coordinate's digits are the definition's.
    #[test]
    fn idx2crd_then_crd2idx_is_identity(shape in shape_tree(1..=6)) {
        let s = shape.to_tuple();
        for i in 0..shape.size() {
            let c = idx2crd(i, &s).unwrap();
            prop_assert!(c.congruent(&s));
            prop_assert_eq!(c.leaves(), &digits(i, s.leaves())[..]);
            prop_assert_eq!(crd2idx(&c, &s).unwrap(), i);
        }
        prop_assert!(idx2crd(shape.size(), &s).is_err());
        prop_assert!(idx2crd(-1, &s).is_err());
    }

    /// crd2crd round-trips between every two members of a coordinate family,
    /// and every member is recognised as a coarsening.
    #[test]
    fn crd2crd_round_trips_within_family(shape in shape_tree(1..=4)) {
        let s = shape.to_tuple();
        let family = coarsenings(&s).unwrap();
        prop_assert_eq!(&family[0], &s);
        for p in &family {
            prop_assert!(is_coarsening(p, &s));
            prop_assert_eq!(p.size().unwrap(), s.size().unwrap());
        }
        for p in family.iter().take(6) {
            for q in family.iter().take(6) {
                for i in 0..shape.size() {
                    let cp = idx2crd(i, p).unwrap();
                    let cq = crd2crd(&cp, p, q).unwrap();
                    prop_assert_eq!(crd2idx(&cq, q).unwrap(), i);
                    prop_assert_eq!(&crd2crd(&cq, q, p).unwrap(), &cp);
                }
            }
        }
    }

    /// coalesce preserves the function on the domain, never adds leaves, and
    /// leaves no adjacent mergeable pair or extent-1 leaf (minimality).
    #[test]
    fn coalesce_preserves_function(l in layout()) {
        let c = l.coalesce();
        prop_assert_eq!(c.size(), l.size());
        prop_assert_eq!(reference_offsets(&c), reference_offsets(&l));
        prop_assert!(c.shape_leaves().len() <= l.shape_leaves().len().max(1));
        let (s, d) = (c.shape_leaves(), c.stride_leaves());
        if s.len() > 1 {
            prop_assert!(s.iter().all(|&x| x > 1));
            for k in 0..s.len() - 1 {
                prop_assert_ne!(d[k], s[k + 1] * d[k + 1]);
            }
        }
        prop_assert_eq!(c.coalesce(), c.clone());
    }

    /// filter keeps exactly the offsets reached, each once per distinct
    /// non-zero-stride coordinate, and coalesce_by keeps the chosen modes.
    #[test]
    fn filter_and_coalesce_by(l in layout()) {
        let f = l.filter();
        prop_assert!(f.stride_leaves().iter().all(|&d| d != 0) || f.size() == 1);
        let mut want: Vec<i64> = reference_offsets(&l);
        let mut got: Vec<i64> = reference_offsets(&f);
        want.sort_unstable();
        want.dedup();
        got.sort_unstable();
        got.dedup();
        if l.stride_leaves().iter().zip(l.shape_leaves()).all(|(&d, &s)| d != 0 || s == 1) {
            // Without zero strides, filter is coalesce.
            prop_assert_eq!(f.clone(), l.coalesce());
        }
        prop_assert!(got.iter().all(|o| want.contains(o)));
        let by_modes = l.coalesce_by(&IntTuple::from_flat(&vec![1; l.rank()])).unwrap();
        prop_assert_eq!(reference_offsets(&by_modes), reference_offsets(&l));
        if l.shape().as_int().is_none() {
            prop_assert_eq!(by_modes.rank(), l.rank());
        }
    }

    /// parse ∘ print = id for tuples and layouts.
    #[test]
    fn parse_print_round_trip(l in layout()) {
        let text = l.to_string();
        prop_assert_eq!(&text.parse::<Layout>().unwrap(), &l);
        let shape = l.shape().to_owned();
        prop_assert_eq!(shape.to_string().parse::<IntTuple>().unwrap(), shape);
    }

    /// flatten: an ordinary layout equals its view at every index; otherwise the
    /// report names exactly the modes that keep several leaves.
    #[test]
    fn flatten_is_exact(l in layout()) {
        match l.flatten() {
            Ok(v) => {
                prop_assert_eq!(v.shape().len(), l.rank());
                for i in 0..l.size() {
                    let c = digits(i, v.shape());
                    prop_assert_eq!(v.eval(&c).unwrap(), Some(reference_eval(&l, i)));
                }
            }
            Err(report) => {
                prop_assert!(!report.modes().is_empty());
                for m in report.modes() {
                    prop_assert!(m.coalesced.shape_leaves().len() >= 2);
                    prop_assert_eq!(&l.mode(m.mode).unwrap(), &m.layout);
                    let needle = format!("mode {}", m.mode);
                    prop_assert!(report.to_string().contains(&needle));
                }
            }
        }
    }

    /// The common refinement nests both shapes over the same leaves, each shape
    /// is a coarsening of its nesting, and it agrees with brute force on existence.
    #[test]
    fn common_refinement_is_exact(a in shape_tree(1..=6), b in shape_tree(1..=6)) {
        let (ta, tb) = (a.to_tuple(), b.to_tuple());
        match common_refinement(&ta, &tb) {
            Ok((ra, rb)) => {
                prop_assert_eq!(ra.leaves(), rb.leaves());
                prop_assert!(is_coarsening(&ta, &ra));
                prop_assert!(is_coarsening(&tb, &rb));
            }
            Err(_) => {
                let (sa, sb) = (a.size(), b.size());
                if sa == sb {
                    // Brute force: suffix products of both must form one divisibility chain.
                    let sufs = |leaves: Vec<i64>| {
                        let mut acc = 1;
                        let mut v: Vec<i64> = leaves.iter().rev().map(|x| { acc *= x; acc }).collect();
                        v.push(1);
                        v
                    };
                    let mut all = sufs(a.leaves());
                    all.extend(sufs(b.leaves()));
                    all.sort_unstable();
                    all.dedup();
                    prop_assert!(all.windows(2).any(|w| w[1] % w[0] != 0));
                }
            }
        }
    }
}
