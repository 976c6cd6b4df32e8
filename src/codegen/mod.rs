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
//! ([`render`]) print C (also CUDA), Rust or Python. `docs/codegen.md` lists
//! every rule with the reason it is exact, and worked examples.
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
pub mod ir;
mod linear;
mod lower;
pub mod render;

pub use ir::{Kernel, Node, NodeId, Var};
pub use render::Lang;

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
/// # Errors
/// [`Error::Overflow`](crate::Error::Overflow) when some intermediate value
/// could leave `i64` somewhere in the final shape;
/// [`Error::LimitExceeded`](crate::Error::LimitExceeded) for a stack of more
/// than [`MAX_STACK_VIEWS`] views.
///
/// See the [module documentation](self) for an example.
pub fn stack(stack: &ViewStack, input: Input) -> Result<Kernel> {
    let views = stack.views();
    if views.len() > MAX_STACK_VIEWS {
        return Err(crate::Error::LimitExceeded {
            limit: "codegen::MAX_STACK_VIEWS",
            value: views.len() as u64,
            max: MAX_STACK_VIEWS as u64,
        });
    }
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
    view(&View::from_layout(layout, 0), input)
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
