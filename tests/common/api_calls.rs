//! Arbitrary bytes decoded into calls of the public API, for the `api` fuzz
//! target (`fuzz/fuzz_targets/api.rs`) and its deterministic replay in
//! `cargo test` (`tests/api_fuzz.rs`).
//!
//! The bytes drive a small machine with a pool of values per type (tuples,
//! layouts, composed layouts, swizzles, flat views, views, view stacks):
//! each step reads an opcode and builds a value (from text, from integers
//! that are mostly small but sometimes 0, negative or an extreme of i64) or
//! calls one public function or method on values drawn from the pools,
//! keeping what it returns. No call may panic (the fuzz build has
//! debug-assertions and overflow-checks on); where a contract is cheap to
//! check at a few points it is asserted: parse/print round trips, `coalesce`
//! and `compose` as functions, `common_refinement`'s shared leaves, coordinate
//! round trips, a kernel's value against the stack it was built from, a
//! merge against the composed map. Work that grows with the size of a value
//! (offsets, evaluation) is sampled, never exhaustive.
#![allow(dead_code)]

use hlayout::algebra::{ComposedLayout, Swizzle, Tiler};
use hlayout::codegen::{self, Input, Lang};
use hlayout::draw::{self, Grid};
use hlayout::tuple::{self, IntTuple};
use hlayout::{merge, FlatView, Layout, Limits, View, ViewStack};

/// Steps per input, and values kept per pool.
const STEPS: usize = 48;
const POOL: usize = 8;
/// Indices sampled per contract check.
const SAMPLES: i64 = 6;

/// A cursor over the input; reads past the end give 0.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    /// Mostly small values, sometimes 0-adjacent negatives, extremes of i64
    /// or arbitrary 64-bit values.
    fn int(&mut self) -> i64 {
        match self.byte() {
            0..=159 => i64::from(self.byte() % 9),
            160..=189 => -i64::from(self.byte() % 9),
            190..=204 => 1i64 << (self.byte() % 63),
            205..=214 => i64::MAX - i64::from(self.byte() % 4),
            215..=224 => i64::MIN + i64::from(self.byte() % 4),
            _ => {
                let mut b = [0u8; 8];
                b.iter_mut().for_each(|x| *x = self.byte());
                i64::from_le_bytes(b)
            }
        }
    }

    fn ints(&mut self) -> Vec<i64> {
        let n = self.below(6);
        (0..n).map(|_| self.int()).collect()
    }

    /// A nested tuple of depth at most `depth`.
    fn tuple(&mut self, depth: usize) -> IntTuple {
        if depth == 0 || self.below(3) != 0 {
            return IntTuple::int(self.int());
        }
        let n = self.below(4);
        let kids: Vec<IntTuple> = (0..n).map(|_| self.tuple(depth - 1)).collect();
        IntTuple::tuple(kids).unwrap_or_else(|_| IntTuple::int(1))
    }

    /// A short text, from a few tokens of the notations (or raw bytes).
    fn text(&mut self) -> String {
        const TOKENS: [&str; 16] = [
            "(",
            ")",
            ",",
            ":",
            "2",
            "3",
            "0",
            "-1",
            "8",
            "Sw<",
            ">",
            " o ",
            "1",
            "4",
            "9223372036854775807",
            "_",
        ];
        let n = self.below(24);
        if self.below(8) == 0 {
            let raw: Vec<u8> = (0..n).map(|_| self.byte()).collect();
            return String::from_utf8_lossy(&raw).into_owned();
        }
        (0..n).map(|_| TOKENS[self.below(TOKENS.len())]).collect()
    }
}

/// The pools of values built so far (each starts with one small value).
struct Pools {
    tuples: Vec<IntTuple>,
    layouts: Vec<Layout>,
    composed: Vec<ComposedLayout>,
    swizzles: Vec<Swizzle>,
    flats: Vec<FlatView>,
    views: Vec<View>,
    stacks: Vec<ViewStack>,
}

fn keep<T>(pool: &mut Vec<T>, v: T) {
    if pool.len() >= POOL {
        pool.remove(0);
    }
    pool.push(v);
}

fn pick<'p, T>(b: &mut Bytes, pool: &'p [T]) -> &'p T {
    &pool[b.below(pool.len())]
}

/// Runs the calls the bytes describe. Panics only on a broken contract (or a
/// panic inside the library, which is the finding).
pub fn run(data: &[u8]) {
    let trace = std::env::var_os("FUZZ_TRACE").is_some();
    let mut b = Bytes(data);
    let l0: Layout = "(2,3):(3,1)".parse().expect("a layout");
    let mut p = Pools {
        tuples: vec![IntTuple::from_flat(&[2, 3])],
        layouts: vec![l0.clone()],
        composed: vec![ComposedLayout::new(Swizzle::identity(), 0, l0.clone()).expect("identity")],
        swizzles: vec![Swizzle::identity()],
        flats: vec![FlatView::contiguous(vec![2, 3]).expect("contiguous")],
        views: vec![View::from_layout(&l0, 0).expect("a view")],
        stacks: vec![ViewStack::from_layout(&l0)],
    };
    for _ in 0..STEPS {
        if b.0.is_empty() {
            break;
        }
        let op = b.byte();
        if trace {
            eprintln!("op {} {:?}", op % 12, b.0.get(..12));
        }
        let started = std::time::Instant::now();
        match op % 12 {
            0 => build(&mut b, &mut p),
            1 => tuple_calls(&mut b, &mut p),
            2 | 3 => layout_calls(&mut b, &mut p),
            4 => algebra_calls(&mut b, &mut p),
            5 => composed_calls(&mut b, &mut p),
            6 | 7 => stack_calls(&mut b, &mut p),
            8 => view_calls(&mut b, &mut p),
            9 => merge_calls(&mut b, &mut p),
            10 => codegen_calls(&mut b, &mut p),
            _ => draw_calls(&mut b, &mut p),
        }
        if trace {
            eprintln!("  {:?}", started.elapsed());
        }
    }
}

/// New values from text and integers.
fn build(b: &mut Bytes, p: &mut Pools) {
    match b.below(10) {
        0 => {
            let text = b.text();
            if let Ok(l) = text.parse::<Layout>() {
                assert_eq!(
                    l.to_string().parse::<Layout>().as_ref(),
                    Ok(&l),
                    "print-parse of {text:?}"
                );
                keep(&mut p.layouts, l);
            }
            if let Ok(t) = text.parse::<IntTuple>() {
                assert_eq!(
                    t.to_string().parse::<IntTuple>().as_ref(),
                    Ok(&t),
                    "{text:?}"
                );
                keep(&mut p.tuples, t);
            }
            if let Ok(c) = text.parse::<ComposedLayout>() {
                keep(&mut p.composed, c);
            }
            if let Ok(s) = text.parse::<Swizzle>() {
                assert_eq!(s.to_string().parse::<Swizzle>().ok(), Some(s));
                keep(&mut p.swizzles, s);
            }
            if let Ok(l) = Layout::from_cute(&text) {
                assert_eq!(Layout::from_cute(&l.to_cute()).as_ref(), Ok(&l), "{text:?}");
            }
            let _ = ComposedLayout::from_cute(&text);
        }
        1 => {
            let t = b.tuple(3);
            keep(&mut p.tuples, t);
        }
        2 => {
            let (s, d) = (b.tuple(2), b.tuple(2));
            if let Ok(l) = Layout::new(s, d) {
                keep(&mut p.layouts, l);
            }
        }
        3 => {
            let n = b.below(5);
            let s: Vec<i64> = (0..n).map(|_| b.int()).collect();
            let d: Vec<i64> = (0..n + usize::from(b.below(8) == 0))
                .map(|_| b.int())
                .collect();
            if let Ok(l) = Layout::flat(&s, &d) {
                keep(&mut p.layouts, l);
            }
            if let Ok(l) = Layout::row_major(IntTuple::from_flat(&s)) {
                keep(&mut p.layouts, l);
            }
        }
        4 => {
            let (s, o) = (pick(b, &p.tuples).clone(), pick(b, &p.tuples).clone());
            if let Ok(l) = Layout::make_ordered_layout(&s, &o) {
                keep(&mut p.layouts, l);
            }
        }
        5 => {
            let (bits, base, shift) = (b.int(), b.int(), b.int());
            if let Ok(s) = Swizzle::new(bits, base, shift) {
                keep(&mut p.swizzles, s);
            }
            let (r, w) = (b.int(), b.int());
            if let Some(s) = Swizzle::from_masks(r, w) {
                keep(&mut p.swizzles, s);
            }
        }
        6 => {
            let (s, off) = (*pick(b, &p.swizzles), b.int());
            let l = pick(b, &p.layouts).clone();
            if let Ok(c) = ComposedLayout::new(s, off, l) {
                assert_eq!(c.to_string().parse::<ComposedLayout>().as_ref(), Ok(&c));
                keep(&mut p.composed, c);
            }
        }
        7 => {
            let n = b.below(4);
            let shape: Vec<i64> = (0..n).map(|_| b.int()).collect();
            let strides: Vec<i64> = (0..n + usize::from(b.below(8) == 0))
                .map(|_| b.int())
                .collect();
            let mask = match b.below(3) {
                0 => None,
                _ => Some((0..n).map(|_| (b.int(), b.int())).collect()),
            };
            if let Ok(f) = FlatView::new(shape.clone(), strides, b.int(), mask) {
                keep(&mut p.flats, f);
            }
            if let Ok(f) = FlatView::contiguous(shape) {
                keep(&mut p.flats, f);
            }
        }
        8 => {
            let shape = b.ints();
            if let Ok(s) = ViewStack::new(&shape) {
                assert_eq!(s.shape(), shape);
                keep(&mut p.stacks, s);
            }
            if let Ok(v) = View::contiguous(&shape) {
                keep(&mut p.views, v);
            }
        }
        _ => {
            let l = pick(b, &p.layouts).clone();
            let off = b.int();
            if let Ok(v) = View::from_layout(&l, off) {
                keep(&mut p.views, v);
            }
            keep(&mut p.stacks, ViewStack::from_layout(&l));
            let f = pick(b, &p.flats).clone();
            if let Ok(v) = View::from_flat(&f) {
                keep(&mut p.views, v);
            }
        }
    }
}

/// Sampled indices of a domain of `size` elements (first, last and a few between).
fn samples(size: i64) -> impl Iterator<Item = i64> {
    let step = (size / SAMPLES).max(1);
    (0..SAMPLES)
        .map(move |k| k.saturating_mul(step))
        .chain([size - 1])
        .filter(move |&i| 0 <= i && i < size)
}

fn tuple_calls(b: &mut Bytes, p: &mut Pools) {
    let t = pick(b, &p.tuples).clone();
    let u = pick(b, &p.tuples).clone();
    let _ = (
        t.rank(),
        t.depth(),
        t.profile().leaf_count(),
        t.flatten(),
        t.congruent(&u),
        t.as_int(),
    );
    let _ = (
        t.suffix_product(),
        t.prefix_product(),
        t.shape_div(b.int()),
        t.mode(b.below(4)),
    );
    for m in t.as_ref().modes() {
        let _ = (m.size(), m.depth(), m.to_string());
    }
    match b.below(5) {
        0 => {
            if let Ok((ra, rb)) = tuple::common_refinement(&t, &u) {
                assert_eq!(ra.leaves(), rb.leaves(), "common_refinement({t}, {u})");
                assert!(
                    tuple::is_coarsening(&t, &ra) && tuple::is_coarsening(&u, &rb),
                    "{t} {u}: {ra} {rb}"
                );
            }
        }
        1 => {
            let i = b.int();
            if let Ok(c) = tuple::idx2crd(i, &t) {
                assert_eq!(tuple::crd2idx(&c, &t), Ok(i), "idx2crd({i}, {t}) = {c}");
            }
            let _ = tuple::crd2idx(&u, &t);
            let _ = tuple::crd2crd(&u, &t, pick(b, &p.tuples));
        }
        2 => {
            if t.profile().leaf_count() <= 8 {
                if let Ok(family) = tuple::coarsenings(&t) {
                    assert!(
                        family.iter().all(|c| tuple::is_coarsening(c, &t)),
                        "coarsenings({t})"
                    );
                }
            }
        }
        3 => {
            let l = pick(b, &p.layouts).clone();
            let _ = l.coalesce_by(&t);
            let _ = l.reshape(&t);
            let _ = l.eval_crd(&t);
        }
        _ => {
            if let Ok(l) = Layout::row_major(t.clone()) {
                keep(&mut p.layouts, l);
            }
        }
    }
}

fn layout_calls(b: &mut Bytes, p: &mut Pools) {
    let l = pick(b, &p.layouts).clone();
    let _ = (
        l.shape(),
        l.stride(),
        l.profile(),
        l.offset_range(),
        l.cosize(),
        l.rank(),
        l.depth(),
    );
    let _ = (
        l.modes().count(),
        l.mode(b.below(4)),
        l.unnest(),
        l.rev(),
        l.to_cute(),
        l.filter(),
    );
    let _ = Limits::default().check_layout(&l);
    let size = l.size();
    let ev = l.evaluator();
    for i in samples(size) {
        let v = l.eval(i);
        assert_eq!(ev.eval(i), v, "evaluator of {l} at {i}");
        if let Ok(c) = tuple::idx2crd(i, &l.shape().to_owned()) {
            assert_eq!(l.eval_crd(&c), v, "{l} at {i} = {c}");
        }
    }
    let _ = l.eval(b.int());
    let mut offs = l.offsets();
    let mut buf = [0i64; 16];
    let n = offs.fill(&mut buf);
    for (i, &o) in buf[..n].iter().enumerate() {
        assert_eq!(l.eval(i as i64), Ok(o), "offsets of {l} at {i}");
    }
    let c = l.coalesce();
    assert_eq!(c.size(), size, "coalesce({l}) = {c}");
    for i in samples(size) {
        assert_eq!(c.eval(i), l.eval(i), "coalesce({l}) = {c} at {i}");
    }
    match l.flatten() {
        Ok(f) => {
            let _ = f.size();
        }
        Err(report) => {
            let _ = (
                report
                    .modes()
                    .iter()
                    .map(|m| m.index_expressions().len())
                    .sum::<usize>(),
                report.to_string(),
            );
        }
    }
    keep(&mut p.layouts, c);
}

fn algebra_calls(b: &mut Bytes, p: &mut Pools) {
    let a = pick(b, &p.layouts).clone();
    let x = pick(b, &p.layouts).clone();
    let tiler = if b.below(2) == 0 {
        Tiler::Layout(x.clone())
    } else {
        Tiler::Modes(
            (0..b.below(3))
                .map(|_| pick(b, &p.layouts).clone())
                .collect(),
        )
    };
    let modes: Vec<Layout> = (0..b.below(3))
        .map(|_| pick(b, &p.layouts).clone())
        .collect();
    let r = match b.below(22) {
        0 => {
            let r = a.compose(&x);
            if let Ok(r) = &r {
                assert_eq!(r.size(), x.size(), "{a} o {x} = {r}");
                for i in samples(x.size()) {
                    if let Ok(want) = x.eval(i).and_then(|j| a.eval(j)) {
                        assert_eq!(r.eval(i), Ok(want), "{a} o {x} = {r} at {i}");
                    }
                }
            }
            r
        }
        1 => a.compose_explained(&x).0,
        2 => a.compose_by(&modes),
        3 => a.complement(b.int()),
        4 => a.logical_divide(&x),
        5 => a.logical_divide_by(&modes),
        6 => a.zipped_divide(&tiler),
        7 => a.tiled_divide(&tiler),
        8 => a.flat_divide(&tiler),
        9 => a.logical_product(&x),
        10 => a.logical_product_by(&modes),
        11 => a.zipped_product(&tiler),
        12 => a.tiled_product(&tiler),
        13 => a.blocked_product(&x),
        14 => a.raked_product(&x),
        15 => Ok(a.right_inverse()),
        16 => Ok(a.right_inverse_largest()),
        17 => a.left_inverse(),
        18 => Ok(a.nullspace()),
        19 => {
            let _ = a.max_common_vector(&x);
            Ok(a.max_common_layout(&x))
        }
        20 => {
            let r = a.right_inverse();
            for i in samples(r.size()) {
                if let Ok(j) = r.eval(i) {
                    if let Ok(v) = a.eval(j) {
                        assert_eq!(v, i, "right_inverse({a}) = {r} at {i}");
                    }
                }
            }
            Ok(r)
        }
        _ => a.coalesce_by(&IntTuple::from_flat(&b.ints())),
    };
    if let Ok(r) = r {
        keep(&mut p.layouts, r);
    }
}

fn composed_calls(b: &mut Bytes, p: &mut Pools) {
    let c = pick(b, &p.composed).clone();
    let l = pick(b, &p.layouts).clone();
    let d = pick(b, &p.composed).clone();
    let s = *pick(b, &p.swizzles);
    let t = *pick(b, &p.swizzles);
    let _ = (
        s.bits(),
        s.base(),
        s.shift(),
        s.mask(),
        s.write_mask(),
        s.is_identity(),
        s.then(&t),
    );
    let x = b.int();
    let _ = s.apply(x);
    let _ = s.scaled(b.below(70) as u32);
    let _ = (
        c.swizzle(),
        c.offset(),
        c.layout(),
        c.size(),
        c.to_cute(),
        c.eval(b.int()),
    );
    for i in samples(c.size()) {
        let _ = c.eval(i);
    }
    let _ = c.offsets().take(16).count();
    let which = b.below(16);
    if std::env::var_os("FUZZ_TRACE").is_some() {
        eprintln!("composed {which}: {c} / {l} / {d} / {s}, {t}");
    }
    let r = match which {
        0 => c.compose(&l),
        1 => Ok(c.coalesce()),
        2 => c
            .complement(b.int())
            .and_then(|r| ComposedLayout::new(Swizzle::identity(), 0, r)),
        3 => c.logical_divide(&l),
        4 => c.zipped_divide(&Tiler::Layout(l.clone())),
        5 => c.logical_product(&l),
        6 => c.blocked_product(&l),
        7 => c.raked_product(&l),
        8 => c.left_compose(&l),
        9 => c.compose_composed(&d),
        10 => c.logical_product_composed(&d),
        11 => c.right_inverse(),
        12 => c.left_inverse(),
        13 => c.map_layout(Layout::left_inverse),
        14 => {
            if let Ok(Ok(f)) = c.flatten() {
                let _ = f.size();
            }
            Err(hlayout::Error::Overflow { what: "nothing" })
        }
        _ => l.logical_product_composed(&d),
    };
    if let Ok(r) = r {
        keep(&mut p.composed, r);
    }
}

fn stack_calls(b: &mut Bytes, p: &mut Pools) {
    let s = pick(b, &p.stacks).clone();
    let rank = s.shape().len();
    let r = match b.below(8) {
        0 => s.reshape(&b.ints()),
        1 => {
            let n = if b.below(4) == 0 { b.below(6) } else { rank };
            let perm: Vec<usize> = match b.below(3) {
                0 => (0..n).map(|_| b.below(8)).collect(),
                _ => (0..n).rev().collect(),
            };
            s.permute(&perm)
        }
        2 => s.expand(&b.ints()),
        3 => {
            let arg: Vec<(i64, i64)> = (0..rank).map(|_| (b.int(), b.int())).collect();
            s.pad(&arg)
        }
        4 => {
            let shape = s.shape();
            let arg: Vec<(i64, i64)> = shape
                .iter()
                .map(|&n| match b.below(3) {
                    0 => (b.int(), b.int()),
                    _ => {
                        let lo = b.int().rem_euclid(n.max(1));
                        (lo, lo + (b.int().rem_euclid(n.max(1) - lo + 1)))
                    }
                })
                .collect();
            s.shrink(&arg)
        }
        5 => {
            let flags: Vec<bool> = (0..rank + usize::from(b.below(8) == 0))
                .map(|_| b.byte() & 1 == 1)
                .collect();
            s.flip(&flags)
        }
        6 => {
            let steps: Vec<i64> = (0..rank).map(|_| b.int()).collect();
            s.stride(&steps)
        }
        7 if b.below(2) == 0 => {
            // A movement op from text (the protocol's JSON form), applied.
            let text = match b.below(3) {
                0 => b.text(),
                _ => {
                    let names = [
                        "reshape", "permute", "expand", "pad", "shrink", "flip", "stride", "x",
                    ];
                    let name = names[b.below(names.len())];
                    let args: Vec<String> = (0..b.below(5)).map(|_| b.int().to_string()).collect();
                    match b.below(3) {
                        0 => format!("[\"{name}\",[{}]]", args.join(",")),
                        1 => format!("[\"{name}\",[[{}]]]", args.join("],[")),
                        _ => format!("[\"{name}\",[true,false]]"),
                    }
                }
            };
            let _ = b.text().parse::<hlayout::MovementKind>();
            match text.parse::<hlayout::Movement>() {
                Ok(m) => {
                    assert_eq!(
                        m.to_string().parse::<hlayout::Movement>().as_ref(),
                        Ok(&m),
                        "{text}"
                    );
                    s.apply(&m)
                }
                Err(_) => return,
            }
        }
        _ => {
            let shape = s.shape();
            let size = s.size();
            let mut buf = [0i64; 32];
            let n = s.fill_offsets(&mut buf, i64::MIN);
            assert!(n as i64 <= size.max(0), "fill_offsets of {s}");
            let streamed: Vec<Option<i64>> = s.offsets().take(n).collect();
            for (i, o) in streamed.iter().enumerate() {
                assert_eq!(o.unwrap_or(i64::MIN), buf[i], "{s} at {i}");
                let crd = unravel(i as i64, &shape);
                assert_eq!(s.eval(&crd).ok(), Some(*o), "{s} at {crd:?}");
            }
            let _ = (
                s.is_contiguous(),
                s.views().len(),
                s.to_string(),
                s.eval(&b.ints()),
            );
            return;
        }
    };
    if let Ok(r) = r {
        let _ = r.to_string();
        keep(&mut p.stacks, r);
    }
}

/// The row-major coordinate of `i` in `shape` (no zero extent).
fn unravel(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut c = vec![0; shape.len()];
    for (k, &n) in shape.iter().enumerate().rev() {
        if n > 0 {
            c[k] = i % n;
            i /= n;
        }
    }
    c
}

fn view_calls(b: &mut Bytes, p: &mut Pools) {
    let v = pick(b, &p.views).clone();
    if std::env::var_os("FUZZ_TRACE").is_some() {
        eprintln!("view {v:?}");
    }
    let _ = (
        v.rank(),
        v.leaf_extents(),
        v.leaf_strides(),
        v.shape(),
        v.size(),
        v.offset(),
    );
    let _ = (
        v.layout(),
        v.constraints(),
        v.is_contiguous(),
        v.is_empty(),
        v.to_string(),
    );
    let d = b.below(6);
    if d < v.rank() {
        let _ = v.dim_leaves(d);
    }
    if let Some(w) = v.window(d) {
        let _ = (w.extent(), w.start(), w.lo(), w.hi());
    }
    for c in v.constraints() {
        let _ = (c.coeffs(), c.lo(), c.hi(), c.to_string());
    }
    let _ = v.eval(&b.ints());
    let _ = v.offsets().take(16).count();
    let mut buf = [0i64; 16];
    let _ = v.fill_offsets(&mut buf, -1);
    match v.flatten() {
        Ok(f) => keep(&mut p.flats, f),
        Err(report) => {
            let _ = (report.obstructions().len(), report.to_string());
        }
    }
    let f = pick(b, &p.flats).clone();
    let _ = (
        f.shape(),
        f.strides(),
        f.offset(),
        f.mask(),
        f.size(),
        f.eval(&b.ints()),
    );
}

fn merge_calls(b: &mut Bytes, p: &mut Pools) {
    let first = pick(b, &p.flats).clone();
    let second = pick(b, &p.flats).clone();
    let r = if b.below(2) == 0 {
        merge(&first, &second)
    } else {
        merge::merge_explained(&first, &second).map(|d| {
            let _ = d.enumerated();
            d.merged
        })
    };
    if let Ok(Some(m)) = r {
        assert_eq!(m.shape(), second.shape(), "merge({first:?}, {second:?})");
        let shape = second.shape().to_vec();
        let size = m.size();
        for i in samples(size) {
            let c = unravel(i, &shape);
            let want = match second.eval(&c) {
                Ok(Some(j)) => {
                    unravel_in(j, first.shape()).and_then(|fc| first.eval(&fc).ok().flatten())
                }
                _ => None,
            };
            assert_eq!(
                m.eval(&c).ok().flatten(),
                want,
                "merge({first:?}, {second:?}) = {m:?} at {c:?}"
            );
        }
        keep(&mut p.flats, m);
    }
}

/// The coordinate of linear index `j` in `shape`, when it lies inside.
fn unravel_in(j: i64, shape: &[i64]) -> Option<Vec<i64>> {
    let size = shape.iter().try_fold(1i64, |a, &n| a.checked_mul(n))?;
    (0 <= j && j < size).then(|| unravel(j, shape))
}

fn codegen_calls(b: &mut Bytes, p: &mut Pools) {
    let _ = (b.text().parse::<Lang>(), b.text().parse::<Input>());
    let input = if b.below(2) == 0 {
        Input::Coords
    } else {
        Input::Linear
    };
    let s = pick(b, &p.stacks).clone();
    let k = match b.below(7) {
        0 => codegen::stack(&s, input),
        1 => codegen::fused(&s, input),
        2 => codegen::split(&s, input),
        3 => codegen::view(pick(b, &p.views), input),
        4 => codegen::layout(pick(b, &p.layouts), input),
        5 => codegen::composed(pick(b, &p.composed), input),
        _ => {
            // A kernel of the stack, checked against it at sampled coordinates.
            let Ok(k) = codegen::stack(&s, Input::Coords) else {
                return;
            };
            let shape = s.shape();
            for i in samples(s.size()) {
                let c = unravel(i, &shape);
                if let Ok(want) = s.eval(&c) {
                    let got = k
                        .eval(&c)
                        .unwrap_or_else(|e| panic!("kernel of {s} at {c:?}: {e}"));
                    assert_eq!(got.1, want.is_some(), "kernel of {s} at {c:?}: valid");
                    if let Some(o) = want {
                        assert_eq!(got.0, o, "kernel of {s} at {c:?}: index");
                    }
                }
            }
            Ok(k)
        }
    };
    let Ok(k) = k else { return };
    assert!(k.check().is_ok(), "{:?}", k.check());
    for lang in [Lang::C, Lang::Rust, Lang::Python] {
        let _ = k.render(lang);
    }
    let _ = (
        k.c(),
        k.div_mod_count(),
        k.nodes().len(),
        k.vars().len(),
        k.range(k.index()),
        k.range(k.valid()),
    );
    let at: Vec<i64> = (0..k.vars().len()).map(|_| b.int()).collect();
    let _ = k.eval(&at);
}

fn draw_calls(b: &mut Bytes, p: &mut Pools) {
    let l = pick(b, &p.layouts).clone();
    let v = pick(b, &p.views).clone();
    let g = if b.below(2) == 0 {
        Grid::of_layout(&l)
    } else {
        Grid::of_view(&v)
    };
    let (rows, cols) = (g.rows(), g.cols());
    let _ = (
        g.cut(),
        g.range(),
        g.cell(b.below(rows + 2), b.below(cols + 2)),
    );
    let _ = (g.row_mark(b.below(rows + 2)), g.col_mark(b.below(cols + 2)));
    match b.below(4) {
        0 => drop(draw::layout_svg(&l)),
        1 => drop(draw::view_svg(&v)),
        2 => drop(draw::layout_latex(&l)),
        _ => drop(draw::view_latex(&v)),
    }
}
