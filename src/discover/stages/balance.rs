//! The balance stage: the family of every cycle found, by backward play, and the balanced cycles
//! among them (each deal replayed with the reference engine).

use std::collections::BTreeMap;

use crate::assemble::records::FamilyDone;
use crate::discover::balance::{self, BalancedCycle, Found};
use crate::discover::error::DiscoverError;
use crate::discover::stage::{Context, Done, Log, families_in_steps, reach_of};

/// The families of a discovery's cycles and what they give.
pub struct Families {
    /// One per cycle of the list, in its order.
    pub fams: Vec<FamilyDone>,
    pub reach_histogram: BTreeMap<u8, u64>,
    pub balanced: Vec<BalancedCycle>,
}

impl Families {
    /// The balanced cycles and reach of `fams`, the families of `list`.
    pub fn of(
        cx: &Context,
        list: &[Found],
        fams: Vec<FamilyDone>,
    ) -> Result<Families, DiscoverError> {
        Ok(Families {
            reach_histogram: reach_of(&fams),
            balanced: balance::balanced(cx.config.deck, list, &fams)?,
            fams,
        })
    }

    /// `done` with the families' counts.
    pub fn report(&self, done: Done) -> Done {
        Done {
            cycles: self.fams.len() as u64,
            balanced_cycles: self.balanced.len() as u64,
            reach_histogram: self.reach_histogram.clone(),
            ..done
        }
    }
}

/// The families of `list` in blocks of cycles.
pub fn run(cx: &Context, log: &mut Log, list: &[Found]) -> Result<Families, DiscoverError> {
    log.stage("balance", |start| {
        start(list.len() as u64, "families");
        // Named `cycles-B` since the frame sweep joined the list: a block of an older checkpoint
        // (`families-B`) holds other cycles.
        let fams = families_in_steps(cx, "cycles", list)?;
        let f = Families::of(cx, list, fams)?;
        let deals: usize = f.balanced.iter().map(|b| b.balanced.len()).sum();
        let summary = format!(
            "{} cycles with balanced deals ({} up to exchanging the players), {deals} deals, each replayed with the reference engine",
            f.fams.iter().filter(|f| !f.balanced.is_empty()).count(),
            f.balanced.len()
        );
        let done = f.report(Done::new(f.fams.len() as u64, "families", summary));
        Ok((f, done))
    })
}
