//! An assembly on a cluster (timely-dataflow): unit `i` runs on worker `i % workers`; finished
//! units stream to worker 0 (process 0), which logs them; each distinct cycle goes to its owner
//! (a fixed hash of its packed id), which builds its family once and sends it to worker 0.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::assemble::records::{FamilyDone, Record, family_done};
use crate::assemble::{Plan, UnitDone};
use crate::backward::closure::Config as ClosureConfig;
use crate::card::Card;
use crate::run::cluster::{Cluster, ClusterError, Connection, position, round, round_collect};
use crate::run::owner::owner;

/// The finished units (in unit order) and families of a run, at process 0.
pub type Finished = (Vec<UnitDone>, Vec<FamilyDone>);

/// Everything a cluster worker needs (shared by the workers of this process).
pub struct ClusterJob {
    pub plan: Arc<Plan>,
    pub limit: u64,
    pub keep_decks: bool,
    pub cfg: ClosureConfig,
    /// Finished work from process 0's checkpoint (empty elsewhere).
    pub done_units: Vec<UnitDone>,
    pub done_families: BTreeMap<u128, FamilyDone>,
}

/// What a cluster worker sends: a finished unit (to worker 0), or a cycle to build the family
/// of (to the cycle's owner, by a fixed hash of its packed id, so each family is built once).
#[derive(Serialize, Deserialize, Clone, Debug)]
enum Msg {
    Unit(UnitDone),
    Cycle { key: u128, deck: Vec<Card> },
}

/// The cluster run: unit `i` runs on worker `i % workers`; finished units go to worker 0 (process
/// 0), which logs them; distinct cycles go to their owners, which build the families and send
/// them to worker 0. Returns the units and families at process 0, `None` elsewhere.
pub fn run_cluster(
    cluster: &Cluster,
    connection: Connection,
    fingerprint: u64,
    job: ClusterJob,
    note: Arc<dyn Fn(&Record) + Send + Sync>,
    progress: Arc<dyn Fn(u64) + Send + Sync>,
) -> Result<Option<Finished>, ClusterError> {
    let job = Arc::new(job);
    progress(job.done_units.iter().map(|u| u.decks).sum());
    cluster.run_job(connection, fingerprint, move |w| {
        let (me, peers) = position(w);
        // Round 1: worker 0 tells every worker which units and families are already done.
        let seed: Vec<(u64, Vec<u32>, Vec<u128>)> = if me == 0 {
            let units: Vec<u32> = job.done_units.iter().map(|u| u.index).collect();
            let fams: Vec<u128> = job.done_families.keys().copied().collect();
            (0..peers as u64)
                .map(|t| (t, units.clone(), fams.clone()))
                .collect()
        } else {
            Vec::new()
        };
        let (done_idx, done_keys) = round_collect(w, seed, |x| x.0)
            .pop()
            .map(|x| (x.1, x.2))
            .unwrap_or_default();
        let done_idx: HashSet<u32> = done_idx.into_iter().collect();
        let done_keys: HashSet<u128> = done_keys.into_iter().collect();

        // Round 2: units run where they belong; results stream to worker 0, cycles to owners.
        let cycles_of = |u: &UnitDone| -> Vec<Msg> {
            u.cycles
                .iter()
                .map(|c| Msg::Cycle {
                    key: c.cycle_key,
                    deck: c.deck.clone(),
                })
                .collect()
        };
        let previous: Vec<Msg> = if me == 0 {
            job.done_units.iter().flat_map(cycles_of).collect()
        } else {
            Vec::new()
        };
        let j = job.clone();
        let fresh = j
            .plan
            .unit_limits(j.limit)
            .into_iter()
            .filter(move |&(i, _)| i as usize % peers == me && !done_idx.contains(&i))
            .flat_map(|(i, lim)| {
                let u = j.plan.run_unit(i, lim, j.keep_decks);
                let mut msgs = cycles_of(&u);
                msgs.insert(0, Msg::Unit(u));
                msgs
            });
        let mut units: Vec<UnitDone> = Vec::new();
        let mut owned: BTreeMap<u128, Vec<Card>> = BTreeMap::new();
        round(
            w,
            previous.into_iter().chain(fresh),
            move |m: &Msg| match m {
                Msg::Unit(_) => 0,
                Msg::Cycle { key, .. } => owner(*key, peers) as u64,
            },
            &mut |m| match m {
                Msg::Unit(u) => {
                    note(&Record::Unit(u.clone()));
                    progress(u.decks);
                    units.push(u);
                }
                Msg::Cycle { key, deck } => {
                    owned.entry(key).or_insert(deck);
                }
            },
        );

        // Round 3: each owner builds the families of its cycles; they go to worker 0.
        let frame = &job.plan.frame;
        let fams = owned
            .iter()
            .filter(|(k, _)| !done_keys.contains(k))
            .map(|(k, deck)| family_done(*k, deck, frame, &job.cfg));
        let mut families: Vec<FamilyDone> = Vec::new();
        round(w, fams, |_| 0, &mut |f: FamilyDone| {
            note(&Record::Family(f.clone()));
            families.push(f);
        });
        if me != 0 {
            return None;
        }
        // The finished work of an earlier attempt joins the new, in unit order as a single
        // run gives it (the decks file lists decks in unit order).
        units.extend(job.done_units.iter().cloned());
        units.sort_by_key(|u| u.index);
        families.extend(job.done_families.values().cloned());
        Some((units, families))
    })
}
