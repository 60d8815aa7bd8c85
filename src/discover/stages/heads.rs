//! The ansatz route's first stages: the filter (the balance-making piece of the bare frame that
//! every head template holds), then the head sweep (each head's pieces and their accumulation),
//! whose accumulators give the censuses' shapes, with the bare frame's pieces of small censuses.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::discover::census;
use crate::discover::error::DiscoverError;
use crate::discover::heads::{self, BareDone, FilterDone, HeadDone};
use crate::discover::report::Accumulator;
use crate::discover::stage::{Context, Done, Log};
use crate::discover::steps;

/// The filter stage: the filter given by `--filter`, or the one the bare frame's pieces give.
pub fn filter(cx: &Context, log: &mut Log) -> Result<Option<String>, DiscoverError> {
    log.stage("filter", |start| {
        start(1, "templates");
        let (df, obs, given, scope) = (&cx.df, cx.obs, &cx.config.filter, &cx.config.scope.heads);
        let f: FilterDone = steps::run(
            cx.steps,
            &["filter".to_string()],
            |_| {
                let f = match given {
                    Some(given) => heads::given_filter(df, given)?,
                    None => heads::filter(df, scope),
                };
                obs.advance(1);
                Ok(f)
            },
            &|_| obs.advance(1),
        )?
        .remove(0);
        let summary = match &cx.config.filter {
            Some(given) => format!("{}: filter {given} (given by --filter)", f.template),
            None => format!(
                "{}: {} pieces; filter {}",
                f.template,
                f.pieces,
                f.filter.as_deref().unwrap_or("none")
            ),
        };
        Ok((
            f.filter.clone(),
            Done::new(f.candidates, "candidates", summary),
        ))
    })
}

/// The head sweep beside `filter`, one step per row of heads (one face kind and one a): the
/// accumulator shapes (an accumulation of at least `threshold`), then the bare frame's.
pub fn heads(
    cx: &Context,
    log: &mut Log,
    filter: Option<&str>,
    threshold: u8,
) -> Result<Vec<Accumulator>, DiscoverError> {
    let (scope, df, obs) = (&cx.config.scope.heads, &cx.df, cx.obs);
    log.stage("heads", |start| {
        let all = heads::heads(&cx.df, scope);
        start(all.len() as u64, "heads");
        let rows: Vec<&[String]> = all.chunks(scope.max_around + 1).collect();
        let names: Vec<String> = (0..rows.len()).map(|r| format!("heads-{r}")).collect();
        let done: Vec<Vec<HeadDone>> = steps::run(
            cx.steps,
            &names,
            |r| {
                Ok(rows[r]
                    .par_iter()
                    .map(|head| {
                        // A head about to be swept is heard of with no heads done: an observer
                        // can stop the run there (the Python module does on Ctrl-C).
                        obs.advance(0);
                        let d = heads::sweep_one(df, scope, filter, head, threshold);
                        obs.advance(1);
                        d
                    })
                    .collect())
            },
            &|r| obs.advance(rows[r].len() as u64),
        )?;
        let done: Vec<HeadDone> = done.into_iter().flatten().collect();
        let by_shape = accumulators(&done);
        let heads_shapes = by_shape.len();
        // After the accumulators' shapes, so that each census keeps its index (and step names)
        // in a checkpoint written before the bare pieces were censused.
        let (bare_shapes, bare_note) = if scope.bare_census_limit > 0 {
            bare(cx, &by_shape)?
        } else {
            (Vec::new(), String::new())
        };
        let with_pieces = done.iter().filter(|h| h.pieces > 0).count();
        let too_large = done.iter().filter(|h| h.too_large).count();
        let mut acc_hist: BTreeMap<u8, u64> = BTreeMap::new();
        for h in done.iter().filter(|h| h.pieces > 0) {
            *acc_hist.entry(h.accumulation).or_default() += 1;
        }
        let summary = format!(
            "{} heads ({} too large), {} with pieces; heads by accumulation {:?}; {} accumulator shapes (accumulation >= {threshold}){bare_note}",
            done.len(),
            too_large,
            with_pieces,
            acc_hist,
            heads_shapes
        );
        let work = done.iter().map(|h| h.candidates).sum();
        let list = by_shape.into_values().chain(bare_shapes).collect();
        Ok((list, Done::new(work, "candidates", summary)))
    })
}

/// The accumulators of the heads swept, by shape, each with the first head and piece that gave
/// it and the most accumulation of any.
fn accumulators(done: &[HeadDone]) -> BTreeMap<String, Accumulator> {
    let mut by_shape: BTreeMap<String, Accumulator> = BTreeMap::new();
    for h in done {
        for (piece, acc) in &h.accumulators {
            let shape = heads::shape_of(&h.head, piece);
            let e = by_shape.entry(shape.clone()).or_insert(Accumulator {
                shape,
                accumulation: *acc,
                head: h.head.clone(),
                piece: piece.clone(),
            });
            e.accumulation = e.accumulation.max(*acc);
        }
    }
    by_shape
}

/// The bare frame's pieces: shapes whose censuses are small, beside the accumulators', smallest
/// census first; and the note the stage line gets.
fn bare(
    cx: &Context,
    by_shape: &BTreeMap<String, Accumulator>,
) -> Result<(Vec<Accumulator>, String), DiscoverError> {
    let (scope, df) = (&cx.config.scope.heads, &cx.df);
    let b: BareDone = cx.one_step("bare", || Ok(heads::bare(df, scope)))?;
    let (mut added, mut decks) = (0, 0u64);
    let mut sized: Vec<(u64, String, &(String, u8))> = b
        .pieces
        .iter()
        .map(|p| {
            let shape = heads::shape_of("", &p.0);
            (census::census(&cx.df, &shape).decks(), shape, p)
        })
        .filter(|(n, _, _)| *n > 0 && *n <= scope.bare_census_limit)
        .collect();
    sized.sort();
    let mut bare_shapes: Vec<Accumulator> = Vec::new();
    for (n, shape, (piece, acc)) in sized {
        if by_shape.contains_key(&shape) || bare_shapes.iter().any(|a| a.shape == shape) {
            continue;
        }
        added += 1;
        decks += n;
        bare_shapes.push(Accumulator {
            shape,
            accumulation: *acc,
            head: String::new(),
            piece: piece.clone(),
        });
    }
    let note = format!(
        "; bare frame {}: {} pieces ({} candidates), {added} more shapes with censuses of at most {} decks ({decks} in all)",
        b.template,
        b.pieces.len(),
        b.candidates,
        scope.bare_census_limit
    );
    Ok((bare_shapes, note))
}
