//! The views' reshape agrees with the algebra's exact reshape (composition with
//! the contiguous layout of the new shape) on plain layouts: one view exactly
//! when a single layout exists, and the same function.

use crate::common;

use common::{layout, reference_offsets};
use hlayout::{IntTuple, Layout, ViewStack};
use proptest::prelude::*;

/// Every way to write `n` as an ordered product of at most 3 factors > 1.
fn factorizations(n: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![n]];
    for a in 2..n {
        if n % a == 0 {
            out.push(vec![a, n / a]);
            for b in 2..n / a {
                if (n / a) % b == 0 {
                    out.push(vec![a, b, n / a / b]);
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(512)))]

    #[test]
    fn view_reshape_matches_algebra(l in layout(), pick in any::<prop::sample::Index>()) {
        // Views read one dimension per top-level mode (an integer layout is one).
        let options = factorizations(l.size());
        let shape = &options[pick.index(options.len())];
        let algebra = l.reshape(&IntTuple::from_flat(shape));
        let stack = ViewStack::from_layout(&l).reshape(shape).unwrap();
        let stack_offsets: Vec<i64> = stack.offsets().map(|o| o.unwrap()).collect();
        prop_assert_eq!(&stack_offsets, &reference_offsets(&l), "views changed the function");
        match algebra {
            Ok(r) => {
                prop_assert_eq!(&reference_offsets(&r), &stack_offsets);
                prop_assert_eq!(stack.views().len(), 1, "{} -> {:?}: algebra {} but views {}", l, shape, r, stack);
            }
            Err(e) => prop_assert!(stack.views().len() > 1, "{} -> {:?}: algebra says {} but views {}", l, shape, e, stack),
        }
    }
}

#[test]
fn headline_reshapes_agree() {
    // Invariant: both paths give tinygrad PR #3988's answers. Witness: (10,10):(1,10).
    let l: Layout = "(10,10):(1,10)".parse().unwrap();
    for (shape, one) in [
        (vec![100], true),
        (vec![5, 2, 5, 2], true),
        (vec![4, 25], false),
    ] {
        assert_eq!(l.reshape(&IntTuple::from_flat(&shape)).is_ok(), one);
        assert_eq!(
            ViewStack::from_layout(&l)
                .reshape(&shape)
                .unwrap()
                .views()
                .len()
                == 1,
            one
        );
    }
}
