//! `find-pieces` as a library call: the candidate ranges run in parallel, each finished range is
//! reported (for the checkpoint) as soon as it is done, and the merged pieces become a library.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::card::{Card, NUMBER, symbol};
use crate::engine::cycle;
use crate::engine::game::Game;
use crate::library::checkpoint::RangeDone;
use crate::library::{Enumeration, Header, Library, PieceRecord, TemplateInfo};

use super::enumerate::{Enumerator, Params, TooLarge};
use super::piece::{PieceFacts, describe};
use super::template::Template;

/// How candidates are tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every candidate, with prefix sharing (exact).
    Exact,
    /// Every candidate, one game each from scratch (exact; the slow checker).
    Naive,
    /// Enumerate with every face card of this kind, then test each hit's face assignments
    /// (heuristic: misses pieces whose all-one-kind form ends).
    FacesAs(Card),
}

impl Method {
    pub fn name(&self) -> String {
        match self {
            Method::Exact => "exact".into(),
            Method::Naive => "naive".into(),
            Method::FacesAs(k) => format!("faces-as {}", symbol(*k)),
        }
    }
}

/// A validated find-pieces run.
#[derive(Clone, Debug)]
pub struct FindConfig {
    pub template: Template,
    pub params: Params,
    pub method: Method,
    /// About how many ranges to split the candidates into ([`super::enumerate::DEFAULT_RANGES`]).
    pub ranges: u64,
}

impl FindConfig {
    /// Names the run in its checkpoint: a checkpoint is resumed only by the same run.
    pub fn fingerprint(&self) -> String {
        let p = &self.params;
        format!(
            "template {} filter {} faces {:?}; len {}..={}, faces <= {}, <= {} per kind{}; {}; {} ranges",
            self.template.display(),
            crate::notation::Dash(&self.template.filter),
            p.kinds,
            p.min_len,
            p.max_len,
            p.max_faces,
            p.max_per_kind,
            p.exact
                .map(|c| {
                    let deck = crate::card::DeckSpec {
                        counts: c.map(u32::from),
                    };
                    format!(", exactly {deck}")
                })
                .unwrap_or_default(),
            self.method.name(),
            self.ranges
        )
    }
}

/// The ranges of a run and how to run one.
pub struct Search {
    config: FindConfig,
    enumerator: Enumerator,
}

impl Search {
    pub fn new(config: FindConfig) -> Result<Search, TooLarge> {
        let mut params = config.params.clone();
        if let Method::FacesAs(k) = config.method {
            params.kinds = vec![k];
            params.max_per_kind = params.max_faces;
        }
        let enumerator = Enumerator::new(&config.template, &params, config.ranges)?;
        Ok(Search { config, enumerator })
    }

    pub fn config(&self) -> &FindConfig {
        &self.config
    }

    pub fn ranges(&self) -> usize {
        self.enumerator.ranges()
    }

    /// Candidates the enumeration visits (for `faces-as`, before the expansion of hits).
    pub fn enumerated_candidates(&self) -> u64 {
        self.enumerator.total_candidates()
    }

    /// Runs range `i`: its pieces and the candidates tested.
    pub fn run_range(&self, i: usize) -> RangeDone {
        let mut candidates = self.enumerator.range_candidates(i);
        let pieces = match self.config.method {
            Method::Exact => self.enumerator.run_range(i),
            Method::Naive => self.enumerator.run_range_naive(i),
            Method::FacesAs(_) => {
                let mut out = Vec::new();
                for hit in self.enumerator.run_range(i) {
                    for seq in face_assignments(&hit, &self.config.params) {
                        candidates += 1;
                        let pos = self.config.template.fill(&seq);
                        if !cycle::terminates(&Game::<u64>::from_position(&pos)) {
                            out.push(seq);
                        }
                    }
                }
                out
            }
        };
        RangeDone {
            index: i as u32,
            candidates,
            pieces,
        }
    }
}

/// Every sequence with the number cards of `hit` in place and its face cards replaced by the kinds
/// of `params`, at most `max_per_kind` of each.
pub fn face_assignments(hit: &[Card], params: &Params) -> Vec<Vec<Card>> {
    let slots: Vec<usize> = (0..hit.len()).filter(|&i| hit[i] != NUMBER).collect();
    let mut out = Vec::new();
    let mut seq = hit.to_vec();
    let mut used = vec![0usize; 5];
    fn go(
        k: usize,
        slots: &[usize],
        params: &Params,
        seq: &mut Vec<Card>,
        used: &mut [usize],
        out: &mut Vec<Vec<Card>>,
    ) {
        if k == slots.len() {
            out.push(seq.clone());
            return;
        }
        for &kind in &params.kinds {
            if used[kind as usize] < params.max_per_kind {
                used[kind as usize] += 1;
                seq[slots[k]] = kind;
                go(k + 1, slots, params, seq, used, out);
                used[kind as usize] -= 1;
            }
        }
    }
    go(0, &slots, params, &mut seq, &mut used, &mut out);
    out
}

/// The result of [`run`].
pub struct RunReport {
    /// Every range finished (in this run or before it): pieces and candidates are complete.
    pub complete: bool,
    pub ranges_done: usize,
    pub candidates: u64,
    /// Pieces of the finished ranges (unsorted).
    pub pieces: Vec<Vec<Card>>,
}

/// Runs every range not in `done` on the current rayon pool. `record` is called once per finished
/// range, at once (the checkpoint); an error there stops the run. With `stop_after`, exactly that
/// many ranges run in this call, whatever the thread count (a simulated interruption, for tests).
pub fn run<E: Send>(
    search: &Search,
    done: Vec<RangeDone>,
    record: &(dyn Fn(&RangeDone) -> Result<(), E> + Sync),
    stop_after: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<RunReport, E> {
    run_some(search, done, &|_| true, record, stop_after, progress)
}

/// [`run`] over the ranges `owns` accepts only (a shard of the run, see `run::shard`); the
/// report is complete when every one of those ranges is done.
pub fn run_some<E: Send>(
    search: &Search,
    done: Vec<RangeDone>,
    owns: &(dyn Fn(usize) -> bool + Sync),
    record: &(dyn Fn(&RangeDone) -> Result<(), E> + Sync),
    stop_after: Option<usize>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<RunReport, E> {
    let mut finished = vec![false; search.ranges()];
    let mut results: Vec<RangeDone> = Vec::new();
    for r in done {
        if let Some(f) = finished.get_mut(r.index as usize)
            && !*f
        {
            *f = true;
            progress(search.enumerator.range_candidates(r.index as usize));
            results.push(r);
        }
    }
    let todo: Vec<usize> = (0..search.ranges())
        .filter(|&i| owns(i) && !finished[i])
        .collect();
    let started = AtomicUsize::new(0);
    let failure: Mutex<Option<E>> = Mutex::new(None);
    let new: Vec<RangeDone> = todo
        .par_iter()
        .with_max_len(1)
        .filter_map(|&i| {
            // A range takes its place in the count before it starts: counting finished ranges
            // let each other thread start one more while the last counted one still ran.
            if failure.lock().unwrap().is_some()
                || stop_after.is_some_and(|n| started.fetch_add(1, Ordering::SeqCst) >= n)
            {
                return None;
            }
            let r = search.run_range(i);
            if let Err(e) = record(&r) {
                failure.lock().unwrap().get_or_insert(e);
                return None;
            }
            progress(search.enumerator.range_candidates(i));
            Some(r)
        })
        .collect();
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    results.extend(new);
    let complete = results.len() == (0..search.ranges()).filter(|&i| owns(i)).count();
    Ok(RunReport {
        complete,
        ranges_done: results.len(),
        candidates: results.iter().map(|r| r.candidates).sum(),
        pieces: results.into_iter().flat_map(|r| r.pieces).collect(),
    })
}

/// The library of a finished run (or an import): pieces sorted, described and classed.
pub fn build_library(
    template: &Template,
    enumeration: Enumeration,
    pieces: Vec<Vec<Card>>,
    command: String,
) -> (Library, Vec<PieceFacts>) {
    let facts = describe(template, pieces);
    let records = facts
        .iter()
        .map(|f| PieceRecord {
            sequence: f.sequence.clone(),
            class: f.class,
            length: f.sequence.len() as u32,
            counts: f.counts,
            preperiod: f.preperiod.unwrap_or(0),
            period: f.period.unwrap_or(0),
        })
        .collect();
    let header = Header {
        template: template_info(template),
        enumeration,
        command,
        ansatz_version: env!("CARGO_PKG_VERSION").to_string(),
    };
    (
        Library {
            header,
            pieces: records,
        },
        facts,
    )
}

pub fn template_info(t: &Template) -> TemplateInfo {
    TemplateInfo {
        name: t.name.clone(),
        position: t.position.clone(),
        filter: crate::notation::Dash(&t.filter).to_string(),
        faces: t.faces.iter().map(|&k| symbol(k)).collect(),
        game: t.display(),
    }
}
