//! Kernel code generation: the index and validity expressions a kernel needs
//! to read through a [`Layout`], a [`View`] or a [`ViewStack`], with as few
//! divisions and modulos as exact simplification allows.
//!
//! The pipeline is: lowering (`lower`) turns the view's mixed-radix digits
//! into *linear forms* over interned division and modulo atoms, simplifying
//! every division as it is built (`linear`); emission (`emit`) writes the
//! forms into the [`Kernel`] IR (a hash-consed DAG, [`ir`]), rewriting each
//! modulo whose quotient is computed anyway and reducing the validity
//! constraints to the fewest comparisons; [`Kernel::check`] then proves by
//! interval arithmetic that no node overflows `i64` and no division sees a
//! negative operand anywhere in the variables' box; the renderers
//! ([`render`]) print C (also CUDA), Rust or Python. A stack is lowered two
//! ways, fused and split ([`fused`], [`split`]), and [`stack`] keeps the
//! cheaper, so it never costs more than its views rendered one after
//! another; a composed layout's swizzle is written with divisions by powers
//! of two and products of bits ([`composed`]). `docs/codegen.md` lists every
//! rule with the reason it is exact, and worked examples.
//!
//! The index is only meaningful where the validity expression is true; both
//! are defined everywhere.
//!
//! ```
//! use hlayout::codegen::{self, Input};
//! use hlayout::ViewStack;
//! // A transpose, flattened: one view, one division.
//! let s = ViewStack::new(&[4, 6])?.permute(&[1, 0])?.reshape(&[24])?;
//! let k = codegen::stack(&s, Input::Coords)?;
//! assert_eq!(k.c().0, "i0 * 6 - i0 / 4 * 23");
//! assert_eq!(k.div_mod_count(), 1);
//! for i in 0..24 {
//!     assert_eq!(Some(k.eval(&[i])?.0), s.eval(&[i])?);
//! }
//! # Ok::<(), hlayout::Error>(())
//! ```

mod emit;
mod form;
pub mod ir;
mod linear;
mod loops;
mod lower;
pub mod render;
#[cfg(test)]
mod rules_tests;
mod splice;
mod swizzle;
mod sym;
mod sym_bind;
mod sym_versions;
mod sym_view;
mod text_len;

pub use ir::{Kernel, Node, NodeId, Var};
pub use loops::{loop_nest, Access, Loop, LoopNest};
pub use render::Lang;
pub use sym::{sym_layout, SymKernel};
pub use sym_versions::{sym_chain_versions, sym_layout_versions, Pin, SymVersions, Version};
pub use sym_view::sym_stack;

use crate::algebra::ComposedLayout;
use crate::error::{overflow, Result};
use crate::layout::Layout;
use crate::view::{View, ViewStack};
use linear::{Builder, Lin};

/// Most views [`stack`] lowers: each view nests the expression one level
/// deeper, and the simplifier recurses through the nesting, so a deeper stack
/// is refused rather than allowed to exhaust a thread's stack.
pub const MAX_STACK_VIEWS: usize = 128;

/// What the kernel's variables are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// One variable per dimension of the final shape, `i0, i1, …`.
    Coords,
    /// One variable `i`, the row-major rank over the final shape.
    Linear,
}

impl Input {
    /// Every name [`str::parse`] accepts.
    ///
    /// ```
    /// use hlayout::codegen::Input;
    /// assert_eq!(Input::NAMES, ["coords", "linear"]);
    /// assert_eq!("linear".parse::<Input>()?, Input::Linear);
    /// assert!("rows".parse::<Input>().unwrap_err().to_string().contains("known: coords, linear"));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub const NAMES: [&'static str; 2] = ["coords", "linear"];
}

impl std::str::FromStr for Input {
    type Err = crate::Error;

    /// The input named `name`, one of [`Input::NAMES`].
    ///
    /// # Errors
    /// [`Error::UnknownName`](crate::Error::UnknownName) listing the names.
    fn from_str(name: &str) -> Result<Input> {
        match name {
            "coords" => Ok(Input::Coords),
            "linear" => Ok(Input::Linear),
            _ => Err(crate::error::unknown_name(
                "kernel input",
                name,
                &Input::NAMES,
            )),
        }
    }
}

/// The variables of `input` over `shape`, and their linear forms.
fn inputs(b: &mut Builder, shape: &[i64], input: Input) -> Result<(Vec<Var>, Vec<Lin>)> {
    match input {
        Input::Coords => {
            let vars = shape
                .iter()
                .enumerate()
                .map(|(k, &n)| Var {
                    name: format!("i{k}"),
                    extent: n,
                })
                .collect();
            let lins = shape
                .iter()
                .enumerate()
                .map(|(k, &n)| b.var(k, n))
                .collect();
            Ok((vars, lins))
        }
        Input::Linear => {
            // A 0 extent makes the size 0 whatever the others multiply to.
            let size = match shape.contains(&0) {
                true => Some(0),
                false => shape.iter().try_fold(1i64, |a, &n| a.checked_mul(n)),
            }
            .ok_or_else(|| overflow("kernel input size"))?;
            let var = Var {
                name: "i".into(),
                extent: size,
            };
            Ok((vec![var], vec![b.var(0, size)]))
        }
    }
}

/// The kernel of `stack`: its top view lowered at `input`, each view below
/// at the index of the view above, all views' validity combined.
///
/// The cheaper (fewer divisions and modulos; [`fused`] on a tie) of the
/// [`fused`] and the [`split`] kernel, so a stack never costs more than its
/// views rendered one after another. A single view, or a stack whose fused
/// kernel needs no division, is lowered once. Cost:
/// O(views · leaves · (1 + constraints)) simplifier calls.
///
/// # Errors
/// [`Error::Overflow`](crate::Error::Overflow) when some intermediate value
/// could leave `i64` somewhere in the final shape (in both lowerings);
/// [`Error::LimitExceeded`](crate::Error::LimitExceeded) for a stack of more
/// than [`MAX_STACK_VIEWS`] views.
///
/// See the [module documentation](self) for an example.
pub fn stack(stack: &ViewStack, input: Input) -> Result<Kernel> {
    let fused = fused(stack, input);
    if stack.views().len() == 1 || fused.as_ref().is_ok_and(|k| k.div_mod_count() == 0) {
        return fused; // nothing can be cheaper
    }
    match (fused, split(stack, input)) {
        (Ok(f), Ok(s)) if s.div_mod_count() < f.div_mod_count() => Ok(s),
        (Ok(f), _) => Ok(f),
        (Err(_), Ok(s)) => Ok(s),
        (Err(e), Err(_)) => Err(e),
    }
}

/// The *fused* kernel of `stack`: every view below lowered on the linear
/// form of the index of the view above, the whole simplified at once. It
/// usually removes divisions the views need separately (a transpose's
/// quotient cancels against the reshape's), but the simplifier is greedy, so
/// it can also cost more; [`stack`] keeps the cheaper of this and [`split`].
///
/// # Errors
/// As [`stack`].
///
/// ```
/// use hlayout::codegen::{self, Input};
/// let s = hlayout::ViewStack::new(&[4, 6])?.permute(&[1, 0])?.reshape(&[24])?;
/// assert_eq!(codegen::fused(&s, Input::Coords)?.c().0, "i0 * 6 - i0 / 4 * 23");
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn fused(stack: &ViewStack, input: Input) -> Result<Kernel> {
    let views = views_within_limit(stack)?;
    let mut b = Builder::recording();
    let mut conds = Vec::new();
    let shape = stack.shape();
    let (vars, lins) = inputs(&mut b, &shape, input)?;
    let mut index = lower_top(&mut b, &views[views.len() - 1], &lins, input, &mut conds)?;
    for v in views[..views.len() - 1].iter().rev() {
        index = lower::view_linear(&mut b, v, &index, &mut conds)?;
    }
    finish(b, vars, &index, &conds)
}

/// The *split* kernel of `stack`: the views' own kernels ([`view`]: the top
/// one at `input`, every other at its linear index), each reading the index
/// of the view above, clamped into its range where that index is invalid
/// (`docs/codegen.md`, section "Stacks"). Its divisions and modulos are
/// those of the views' kernels (fewer when two share a node).
///
/// # Errors
/// As [`stack`].
///
/// ```
/// use hlayout::codegen::{self, Input};
/// // A transpose reshaped: two views.
/// let s = hlayout::ViewStack::new(&[7, 4])?.permute(&[1, 0])?.reshape(&[7, 4])?;
/// let views = s.views();
/// assert_eq!(views.len(), 2);
/// let k = codegen::split(&s, Input::Coords)?;
/// assert_eq!(k.c().0, "(i0 * 4 + i1) * 4 - (i0 * 4 + i1) / 7 * 27");
/// let separate = codegen::view(&views[1], Input::Coords)?.div_mod_count()
///     + codegen::view(&views[0], Input::Linear)?.div_mod_count();
/// assert!(k.div_mod_count() <= separate);
/// for i in 0..28 {
///     let c = [i / 4, i % 4];
///     assert_eq!(Some(k.eval(&c)?.0), s.eval(&c)?);
/// }
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn split(stack: &ViewStack, input: Input) -> Result<Kernel> {
    let views = views_within_limit(stack)?;
    splice::split(&views[views.len() - 1], &views[..views.len() - 1], input)
}

/// `stack`'s views, or [`Error::LimitExceeded`](crate::Error::LimitExceeded)
/// past [`MAX_STACK_VIEWS`] (each view nests the expression one level deeper).
fn views_within_limit(stack: &ViewStack) -> Result<&[View]> {
    let views = stack.views();
    if views.len() > MAX_STACK_VIEWS {
        return Err(crate::Error::LimitExceeded {
            limit: "codegen::MAX_STACK_VIEWS",
            value: views.len() as u64,
            max: MAX_STACK_VIEWS as u64,
        });
    }
    Ok(views)
}

/// The kernel of one view.
///
/// # Errors
/// As [`stack`].
///
/// ```
/// use hlayout::codegen::{self, Input};
/// let s = hlayout::ViewStack::new(&[4, 4])?.pad(&[(1, 1), (0, 0)])?;
/// let k = codegen::view(&s.views()[0], Input::Coords)?;
/// assert_eq!(k.c(), ("i0 * 4 + i1 - 4".into(), "i0 >= 1 && i0 < 5".into()));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn view(v: &View, input: Input) -> Result<Kernel> {
    let mut b = Builder::recording();
    let mut conds = Vec::new();
    let (vars, lins) = inputs(&mut b, &v.shape(), input)?;
    let index = lower_top(&mut b, v, &lins, input, &mut conds)?;
    finish(b, vars, &index, &conds)
}

/// The kernel of a layout: from its row-major rank `i` ([`Input::Linear`],
/// `0 <= i < size`) or its top-level coordinates ([`Input::Coords`]); always
/// valid.
///
/// # Errors
/// As [`stack`].
///
/// ```
/// use hlayout::codegen::{self, Input};
/// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse()?;
/// assert_eq!(codegen::layout(&l, Input::Coords)?.c().0, "i0 * 2 + i1 * 4 - i1 / 2 * 7");
/// let k = codegen::layout(&l, Input::Linear)?;
/// for i in 0..8 {
///     assert_eq!(k.eval(&[i])?, (l.eval(i)?, true));
/// }
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn layout(layout: &Layout, input: Input) -> Result<Kernel> {
    view(&View::of_layout(layout, 0), input)
}

/// The kernel of a composed layout `Sw<B,M,S> o O o L`, `i ↦ Sw(O + L(i))`,
/// from L's row-major rank `i` ([`Input::Linear`]) or its top-level
/// coordinates ([`Input::Coords`]); always valid. The swizzle's XOR is
/// written with `/`, `%` by powers of two and products of bits
/// (`docs/codegen.md`, section "Swizzles"), so the C text keeps to the
/// protocol's operators. Cost: O(leaves + B) simplifier calls.
///
/// # Errors
/// As [`stack`].
///
/// ```
/// use hlayout::algebra::ComposedLayout;
/// use hlayout::codegen::{self, Input};
/// let c: ComposedLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
/// let k = codegen::composed(&c, Input::Linear)?;
/// assert_eq!(k.c().0, "i + i / 4 % 2 * (1 - i % 2 * 2)");
/// for i in 0..16 {
///     assert_eq!(k.eval(&[i])?, (c.eval(i)?, true));
/// }
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn composed(c: &ComposedLayout, input: Input) -> Result<Kernel> {
    swizzle::kernel(c, input)
}

/// Lowers the top view at the kernel's input.
fn lower_top(
    b: &mut Builder,
    v: &View,
    lins: &[Lin],
    input: Input,
    conds: &mut Vec<emit::Cond>,
) -> Result<Lin> {
    match input {
        Input::Coords => lower::view_coords(b, v, lins, conds),
        Input::Linear => lower::view_linear(b, v, &lins[0], conds),
    }
}

/// Emits and checks the kernel.
fn finish(mut b: Builder, vars: Vec<Var>, index: &Lin, conds: &[emit::Cond]) -> Result<Kernel> {
    let mut k = Kernel::new(vars);
    emit::emit(&mut b, index, conds, &mut k)?;
    k.check()?;
    Ok(k)
}
