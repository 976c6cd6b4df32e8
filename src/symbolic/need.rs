//! [`Needs`]: the facts an algebra operation over symbols asked for.
//!
//! An operation asks the prover about each fact its structure depends on.
//! Proved facts cost nothing. An unknown requirement is recorded as a
//! *need* and the operation goes on as if it held, so one refusal names
//! every missing fact, not only the first. An unknown branch (two
//! structures, each with its own condition) follows the branch true at a
//! probe binding (each symbol near 4096) and records that branch's
//! condition. A refuted requirement stops the operation. At the end, any
//! need turns the result into [`Error::NeedsFacts`]; needs implied by the
//! others are dropped.

use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::{Error, Result};

/// The needs of one operation (see the module docs).
pub(crate) struct Needs<'a> {
    pub(crate) syms: &'a Symbols,
    op: &'static str,
    facts: Vec<Fact>,
    probe: Option<Vec<i64>>,
}

impl<'a> Needs<'a> {
    pub(crate) fn new(syms: &'a Symbols, op: &'static str) -> Needs<'a> {
        Needs {
            syms,
            op,
            facts: Vec::new(),
            probe: None,
        }
    }

    /// Goes on when `fact` is proved or unknown (recorded); refuses when
    /// it is refuted.
    pub(crate) fn require(&mut self, fact: Fact) -> Result<()> {
        match self.syms.prove(&fact) {
            Truth::Proved => Ok(()),
            Truth::Unknown => {
                if !self.facts.contains(&fact) {
                    self.facts.push(fact);
                }
                Ok(())
            }
            Truth::Refuted => Err(self.refuse(format!(
                "{} is false for every allowed value",
                fact.show(self.syms)
            ))),
        }
    }

    /// A refusal with no need that would help.
    pub(crate) fn refuse(&self, why: String) -> Error {
        Error::NeedsFacts {
            op: self.op,
            why,
            needs: Vec::new(),
        }
    }

    /// `p ≥ 0`: proved, refuted, or (unknown) the side true at the probe
    /// binding, recorded as a need.
    pub(crate) fn branch_nonneg(&mut self, p: Poly) -> Result<bool> {
        match self.syms.prove_nonneg(&p) {
            Truth::Proved => Ok(true),
            Truth::Refuted => Ok(false),
            Truth::Unknown => {
                let probe = self.probe.get_or_insert_with(|| self.syms.probe());
                let holds = p.eval(probe).is_none_or(|v| v >= 0);
                let need = if holds {
                    Fact::NonNeg(p)
                } else {
                    Fact::NonNeg(p.neg()?.add_const(-1)?)
                };
                self.require(need)?;
                Ok(holds)
            }
        }
    }

    /// `a < b` as a branch.
    pub(crate) fn branch_lt(&mut self, a: &Poly, b: &Poly) -> Result<bool> {
        self.branch_nonneg(b.sub(a)?.add_const(-1)?)
    }

    /// `true` when nothing was asked for (yet).
    pub(crate) fn is_clean(&self) -> bool {
        self.facts.is_empty()
    }

    /// `Ok` when nothing is needed; else the refusal naming every need
    /// that the others do not imply.
    pub(crate) fn finish(self, what: &str) -> Result<()> {
        if self.facts.is_empty() {
            return Ok(());
        }
        let kept = self.needed();
        Err(Error::NeedsFacts {
            op: self.op,
            why: format!("{what} is not proved for every allowed value"),
            needs: kept.iter().map(|f| f.show(self.syms)).collect(),
        })
    }

    /// The needs that the others do not imply (what [`Needs::finish`]
    /// names). O(n²) prover calls for `n` needs.
    pub(crate) fn needed(&self) -> Vec<Fact> {
        let mut kept: Vec<Fact> = Vec::new();
        for (i, f) in self.facts.iter().enumerate() {
            let mut others = self.syms.clone();
            for g in self.facts.iter().skip(i + 1).chain(kept.iter()) {
                let _ = others.add_fact(g);
            }
            let later = self.facts.iter().skip(i + 1).chain(kept.iter());
            if others.prove(f) != Truth::Proved && !later.clone().any(|g| implies(g, f)) {
                kept.push(f.clone());
            }
        }
        kept
    }
}

/// `g` implies `f` because they differ by a constant in the right direction
/// (`q ≥ 0` implies `q + c ≥ 0` for `c ≥ 0`; `q ≤ b` implies `q + c ≤ b + c`).
fn implies(g: &Fact, f: &Fact) -> bool {
    let shift = |p: &Poly, q: &Poly| p.sub(q).ok().and_then(|d| d.as_const());
    match (g, f) {
        (Fact::NonNeg(q), Fact::NonNeg(p)) => shift(p, q).is_some_and(|c| c >= 0),
        (Fact::AtMost { p: q, bound: bq }, Fact::AtMost { p, bound }) => {
            shift(p, q).is_some_and(|c| (*bq as i128) + (c as i128) <= *bound as i128)
        }
        _ => false,
    }
}
