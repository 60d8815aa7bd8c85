//! What runs in the lanes: whether they are the fastest path here ([`available`]), the step a
//! loop makes and the [`Shape`] that names a loop (what the reports say), and the groups macro.

use std::fmt;

use crate::engine::isa::{Form, Isa};
use crate::engine::vector::Vector;

/// Whether the lanes are the fastest exact path on this processor: with AVX-512 or AVX2. The
/// portable lanes (plain arrays) are correct but slower than the scalar engine, so without those
/// extensions callers play games one by one.
pub fn available() -> bool {
    Isa::get() != Isa::Portable
}

/// The loop a batch plays in: the step it makes (see the module head).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loop {
    /// The kinds step with the face planes split in two `u32` words.
    Split,
    /// The kinds step in one word a lane.
    Kinds,
    /// The planes step.
    Planes,
}

/// What a batch of the lanes runs in: the step, the lanes of a register and their bits, the
/// groups stepped side by side, and the instruction set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub step: Loop,
    pub lanes: u32,
    pub bits: u32,
    pub groups: u32,
    pub isa: Isa,
}

impl fmt::Display for Shape {
    /// As the engine's table spells it: `kinds step, 16 u32 lanes of split planes, 1 group`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (step, planes) = match self.step {
            Loop::Split => ("kinds", " of split planes"),
            Loop::Kinds => ("kinds", ""),
            Loop::Planes => ("planes", ""),
        };
        let s = if self.groups == 1 { "" } else { "s" };
        write!(
            f,
            "{step} step, {} u{} lanes{planes}, {} group{s}",
            self.lanes, self.bits, self.groups
        )
    }
}

impl Shape {
    pub(super) fn of<V: Vector>(step: Loop, groups: usize, form: Form) -> Shape {
        Shape {
            step,
            lanes: V::LANES as u32,
            bits: V::BITS,
            groups: groups as u32,
            isa: form.isa(),
        }
    }
}

/// Calls `$body` with the const `$g` set to `$groups` (1 or 2): a loop's groups are a const
/// generic, the forms' counts associated constants.
macro_rules! with_groups {
    ($groups:expr, $g:ident => $body:expr) => {
        match $groups {
            1 => {
                const $g: usize = 1;
                $body
            }
            2 => {
                const $g: usize = 2;
                $body
            }
            n => unreachable!("{n} groups"),
        }
    };
}
pub(crate) use with_groups;
