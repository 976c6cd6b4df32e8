//! The kernels the tinygrad plug-in needs for one chain of movement ops, in
//! one call.
//!
//! The plug-in (`hlayout.tinygrad`, tinygrad 0.14) writes, for the input of a
//! chain, each input coordinate as a kernel expression over the chain's top
//! coordinates: the chain applied to the input read through the one-hot
//! layout of that coordinate. Built from Python, that is one `ViewStack` and
//! one `Kernel` per coordinate, each op re-wrapped and each node list turned
//! into tuples separately, on every op of every chain a kernel schedules.
//! [`chain_kernels`] (`hlayout._hlayout._chain_kernels`, private: the
//! plug-in's) does the same work in Rust and returns one node list
//! shared by all the coordinates (equal nodes once), holding only the nodes
//! the requested roots read.

use std::collections::HashMap;

use hlayout::codegen::{Input, Kernel, Node};
use hlayout::{Layout, Movement, ViewStack};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert::{Axes, Flags, Ints, Pairs};
use crate::errors::IntoPy;
use crate::kernel::node_tuple;

/// One node list for several kernels: each kernel's reachable nodes are
/// copied in with their children renumbered, and a node equal to one
/// already there is not copied again.
#[derive(Default)]
struct SharedNodes {
    nodes: Vec<Node>,
    ids: HashMap<Node, u32>,
}

impl SharedNodes {
    /// The position of `root` of `kernel` in the shared list, copying in the
    /// nodes it reads. O(nodes of `kernel`).
    fn add(&mut self, kernel: &Kernel, root: u32) -> u32 {
        let nodes = kernel.nodes();
        let mut seen = vec![false; nodes.len()];
        seen[root as usize] = true;
        for i in (0..nodes.len()).rev() {
            if seen[i] {
                for c in nodes[i].children() {
                    seen[c as usize] = true;
                }
            }
        }
        let mut new_id = vec![0u32; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            if seen[i] {
                new_id[i] = self.intern(n.map_children(|c| new_id[c as usize]));
            }
        }
        new_id[root as usize]
    }

    fn intern(&mut self, n: Node) -> u32 {
        let next = self.nodes.len() as u32;
        *self.ids.entry(n).or_insert_with(|| {
            self.nodes.push(n);
            next
        })
    }
}

/// One `(name, argument)` op as the plug-in writes it (hlayout's movement
/// ops, 0.10.3 semantics: `("pad", ((1, 1), (0, 2)))`).
fn movement(name: &str, arg: &Bound<'_, PyAny>) -> PyResult<Movement> {
    use hlayout::MovementKind as K;
    Ok(match name.parse::<K>().py()? {
        K::Reshape => Movement::Reshape(arg.extract::<Ints>()?.0),
        K::Permute => Movement::Permute(arg.extract::<Axes>()?.0),
        K::Expand => Movement::Expand(arg.extract::<Ints>()?.0),
        K::Pad => Movement::Pad(arg.extract::<Pairs>()?.0),
        K::Shrink => Movement::Shrink(arg.extract::<Pairs>()?.0),
        K::Flip => Movement::Flip(arg.extract::<Flags>()?.0),
    })
}

/// The kernel over the final coordinates of `ops` applied to `base`.
fn chain_kernel(base: &Layout, ops: &[Movement]) -> PyResult<Kernel> {
    let mut stack = ViewStack::from_layout(base);
    for op in ops {
        stack = stack.apply(op).py()?;
    }
    hlayout::codegen::stack(&stack, Input::Coords).py()
}

/// The row-major strides of `shape`, checked.
fn row_major_strides(shape: &[i64]) -> PyResult<Vec<i64>> {
    let mut strides = vec![1i64; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1].checked_mul(shape[k + 1]).ok_or_else(|| {
            crate::errors::to_py(hlayout::Error::Overflow {
                what: "the row-major strides of a chain's input shape",
            })
        })?;
    }
    Ok(strides)
}

/// What [`chain_kernels`] returns: the shared nodes (as `Kernel.nodes`
/// tuples), each input coordinate's node (`None`: extent 1) and the
/// validity's node.
type ChainKernels<'py> = (Vec<Bound<'py, PyTuple>>, Vec<Option<u32>>, u32);

/// For a chain of movement ops `ops` (as `(name, argument)` pairs, applied
/// in order) on a contiguous tensor of `in_shape`: `(nodes, coords,
/// valid)`. `coords[j]` is `None` for an extent-1 dimension (its coordinate
/// is 0) and otherwise the node of input coordinate `j` over the final
/// coordinates (the chain read through the one-hot layout of `j`); `valid`
/// is the node of the chain's validity. `nodes` is one list in
/// `Kernel.nodes`'s form, children first, shared by all of them. Raises as
/// `ViewStack`'s ops and `kernel` do. Cost: the chain and its kernel once
/// per dimension of `in_shape`, plus O(nodes) to share them.
///
/// >>> from hlayout._hlayout import _chain_kernels
/// >>> nodes, coords, valid = _chain_kernels([2, 3], [("permute", (1, 0)), ("reshape", (6,))])
/// >>> [nodes[c][0] for c in coords], nodes[valid]
/// (['mod', 'div'], ('bool', True))
#[pyfunction]
#[pyo3(name = "_chain_kernels")]
pub(crate) fn chain_kernels<'py>(
    py: Python<'py>,
    in_shape: Ints,
    ops: Vec<(String, Bound<'py, PyAny>)>,
) -> PyResult<ChainKernels<'py>> {
    let shape = in_shape.0;
    let ops = ops
        .iter()
        .map(|(name, arg)| movement(name, arg))
        .collect::<PyResult<Vec<_>>>()?;
    let mut shared = SharedNodes::default();
    let mut coords = Vec::with_capacity(shape.len());
    let mut last = None;
    for j in 0..shape.len() {
        if shape[j] == 1 {
            coords.push(None);
            continue;
        }
        let one_hot: Vec<i64> = (0..shape.len()).map(|k| i64::from(k == j)).collect();
        let kernel = chain_kernel(&Layout::flat(&shape, &one_hot).py()?, &ops)?;
        coords.push(Some(shared.add(&kernel, kernel.index())));
        last = Some(kernel);
    }
    let last = match last {
        Some(k) => k,
        // every extent is 1: the validity does not depend on the base's strides
        None => chain_kernel(
            &Layout::flat(&shape, &row_major_strides(&shape)?).py()?,
            &ops,
        )?,
    };
    let valid = shared.add(&last, last.valid());
    let nodes = shared
        .nodes
        .iter()
        .map(|n| node_tuple(py, n))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((nodes, coords, valid))
}
