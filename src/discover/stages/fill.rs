//! The fill stage (the ansatz route, when the frame is searched by shapes): every deck around the
//! pieces before the last of each balanced deck a census reached ([`fill`]), then the families
//! of the new cycles.

use crate::discover::balance::Found;
use crate::discover::census::{self, CensusDone};
use crate::discover::error::DiscoverError;
use crate::discover::fill;
use crate::discover::stage::{Context, Done, Log, add_new, families_in_steps, run_plans};

use super::balance::Families;

/// The fills around the balance-making pieces of the balanced cycles the censuses reached (both
/// of a mirror pair when both were met); their new cycles join `list` and their families `f`.
pub fn run(
    cx: &Context,
    log: &mut Log,
    list: &mut Vec<Found>,
    f: &mut Families,
) -> Result<Vec<CensusDone>, DiscoverError> {
    let (df, limit) = (&cx.df, cx.config.fill_limit);
    log.stage("fill", |start| {
        let decks = list
            .iter()
            .zip(&f.fams)
            .filter(|(l, fam)| !fam.balanced.is_empty() && l.found_by == "ansatz")
            .map(|(l, _)| l.start.hands[0].as_slice());
        let befores = fill::befores(df, decks);
        let plans: Vec<census::Census> = befores.iter().map(|b| fill::plan(df, b, limit)).collect();
        start(plans.iter().map(|p| p.decks()).sum(), "decks");
        let labels: Vec<String> = befores
            .iter()
            .map(|b| fill::template(df, b).display())
            .collect();
        let fills = run_plans(cx, "fill", &plans, &labels, false)?;
        let before = list.len();
        let finds = fills.iter().flat_map(|done| {
            let source = format!("fill {}", done.shape);
            done.cycles
                .iter()
                .map(move |h| Found::census(df, h, &source))
        });
        let new_cycles = add_new(list, finds);
        let new_fams = families_in_steps(cx, "fill-families", &list[before..])?;
        let found_new = new_fams.iter().filter(|f| !f.balanced.is_empty()).count();
        let mut fams = std::mem::take(&mut f.fams);
        fams.extend(new_fams);
        *f = Families::of(cx, list, fams)?;
        let ran = fills.iter().filter(|c| c.skipped.is_none()).count();
        let summary = format!(
            "{} fills around the balance-making pieces ({} run, {} skipped: more than {} arrangements), {} decks never end, {} new cycles, {} of them with balanced deals",
            fills.len(),
            ran,
            fills.len() - ran,
            limit,
            fills.iter().map(|c| c.non_terminating).sum::<u64>(),
            new_cycles,
            found_new
        );
        let done = f.report(Done::new(fills.iter().map(|c| c.decks).sum(), "decks", summary));
        Ok((fills, done))
    })
}
