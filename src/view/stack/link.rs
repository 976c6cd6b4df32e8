//! What joins two adjacent views of a [`ViewStack`](super::ViewStack): the
//! ops applied to the upper view since it was pushed (replayed on the lower
//! view when simplifying) and what is remembered of a refusal, so that a
//! refused pair is not decided again (see the stack's module documentation).

use smallvec::SmallVec;

use super::super::pair::merge_pair;
use super::super::witness::Witness;
use super::super::View;
use crate::error::Result;

/// One op with its argument, as recorded for replay: a [`Movement`](crate::view::Movement)
/// or a stride, with arguments inline up to rank 8 so that logging allocates nothing.
#[derive(Clone, Debug)]
pub(super) enum Logged {
    Reshape(Arg<i64>),
    Permute(Arg<usize>),
    Expand(Arg<i64>),
    Pad(Arg<(i64, i64)>),
    Shrink(Arg<(i64, i64)>),
    Flip(Arg<bool>),
    Stride(Arg<i64>),
}

/// An op's argument, inline up to rank 8.
type Arg<T> = SmallVec<[T; 8]>;

impl Logged {
    /// Whether a pair that [`merge_pair`] refuses stays refused after this op
    /// on its upper view: a permute relabels the upper view's leaves, an
    /// expand adds broadcast leaves that a merged view would drop again.
    fn keeps_refusal(&self) -> bool {
        matches!(self, Logged::Permute(_) | Logged::Expand(_))
    }

    /// Applies the op to `v` in place; `false` when `v` cannot express it.
    pub(super) fn apply(&self, v: &mut View) -> Result<bool> {
        match self {
            Logged::Reshape(s) => v.reshape(s),
            Logged::Permute(p) => v.permute(p),
            Logged::Expand(s) => v.expand(s),
            Logged::Pad(a) => v.pad(a),
            Logged::Shrink(a) => v.shrink(a),
            Logged::Flip(f) => v.flip(f),
            Logged::Stride(s) => v.stride(s),
        }
    }
}

/// The pair `views[k - 1]`, `views[k]` of a stack.
#[derive(Clone, Debug, Default)]
pub(super) struct Link {
    /// The ops applied to the upper view since it was pushed, replayed on the
    /// lower view when simplifying.
    pub(super) log: Vec<Logged>,
    pub(super) refused: Refusal,
    /// The upper view was not built by `log` from a contiguous view (the
    /// stack was assembled from given views): never replay.
    pub(super) opaque: bool,
}

/// What is known of a pair that did not merge, so that it is not decided again.
#[derive(Clone, Debug, Default)]
pub(super) struct Refusal {
    /// Replaying the log on the lower view fails at this op.
    pub(super) replay_fails_at: Option<usize>,
    /// [`merge_pair`] refused the pair.
    pub(super) merge: bool,
    /// Four elements proving that no single view equals the pair: while it
    /// lasts, nothing is decided.
    pub(super) witness: Option<Witness>,
}

impl Link {
    /// Records `op`, applied to the upper view of shape `before` (given when
    /// the link holds a witness), and what of the refusal survives it.
    pub(super) fn record(&mut self, op: Logged, before: &[i64]) {
        if let Some(w) = &mut self.refused.witness {
            let kept = match &op {
                Logged::Permute(p) => {
                    w.permute(p);
                    true
                }
                Logged::Expand(_) => true,
                Logged::Pad(a) => {
                    w.pad(a);
                    true
                }
                Logged::Flip(f) => {
                    w.flip(f, before);
                    true
                }
                Logged::Shrink(a) => w.shrink(a),
                Logged::Stride(s) => w.stride(s, before),
                Logged::Reshape(s) => w.reshape(before, s),
            };
            if !kept {
                self.refused.witness = None;
            }
        }
        if let Some(at) = self.refused.replay_fails_at {
            // The failing op now stands before another; only a reshape
            // followed by a reshape is skipped by the replay.
            let superseded = at + 1 == self.log.len()
                && matches!(
                    (&self.log[at], &op),
                    (Logged::Reshape(_), Logged::Reshape(_))
                );
            if superseded {
                self.refused.replay_fails_at = None;
            }
        }
        self.refused.merge &= op.keeps_refusal();
        self.log.push(op);
    }

    /// Whether `lower` and `upper` (the views this link joins) merge, and the
    /// merged view; remembers a refusal (with a [`Witness`] when one is
    /// found), and does not decide a remembered one again. O(1) when a
    /// witness or both parts are remembered.
    pub(super) fn merge(&mut self, lower: &View, upper: &View) -> Result<Option<View>> {
        if self.refused.witness.is_some() {
            return Ok(None);
        }
        if !self.opaque && self.refused.replay_fails_at.is_none() {
            match replay(lower, &self.log)? {
                Ok(v) => return Ok(Some(v)),
                Err(at) => self.refused.replay_fails_at = Some(at),
            }
        }
        if self.refused.merge {
            return Ok(None);
        }
        let merged = merge_pair(lower, upper)?;
        self.refused.merge = merged.is_none();
        if merged.is_none() {
            self.refused.witness = Witness::find(lower, upper);
        }
        Ok(merged)
    }
}

/// `ops` applied to `lower`, or the index of the first op that needs
/// another view. A reshape followed by a reshape is skipped.
fn replay(lower: &View, ops: &[Logged]) -> Result<std::result::Result<View, usize>> {
    let mut v = lower.clone();
    for (k, op) in ops.iter().enumerate() {
        let superseded = matches!(
            (op, ops.get(k + 1)),
            (Logged::Reshape(_), Some(Logged::Reshape(_)))
        );
        if superseded {
            continue;
        }
        if !op.apply(&mut v)? {
            return Ok(Err(k));
        }
    }
    Ok(Ok(v))
}
