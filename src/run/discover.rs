//! `discover` as a job: the route of [`crate::discover`] alone (its step folder, the checkpoint,
//! under `DIR/work/`), as a task of a job array (the tasks share that folder and exchange steps
//! through it, and every task ends with the whole answer, so merge checks they agree), or as a
//! process of a cluster (steps shared out over the processes, results exchanged each stage);
//! and its result files `DIR/NAME.jsonl` and `DIR/NAME.txt`.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use timely::worker::Worker;

use super::cluster::{Cluster, position, round_collect};
use super::job::{Job, Ran, Stop, plain_name};
use super::shard::Shard;
use super::write;
use super::{Mode, RunError};
use crate::card::DeckSpec;
use crate::discover::checkpoint::Checkpoint;
use crate::discover::steps::{Shared, Steps, Work};
use crate::discover::{Config, DiscoverError, Discovery, Observer, Scope, Silent, run_steps};
use crate::provenance::Run;

/// A finished discovery: what it found, the result files, its wall time and threads.
pub struct DiscoverAnswer {
    pub found: Discovery,
    pub files: Vec<String>,
    pub seconds: f64,
    pub threads: usize,
}

/// The name of a discovery's files:
/// `discover-DECK[-quick][-sepS][-frameENDS][-filterPIECE][-ansatz|-insertion][-beamN][-lateralN][-fillN][-censusN][-wholeN][-splitN]`
/// (the separator, the frame's ends and the filter when asked for, the route when only one is taken, the beam and
/// the fill limit when they are not the scope's own, the census limit when given and the ansatz route runs, the
/// whole-deck limit and the split route's positions when not the scope's own).
pub fn name_of(config: &Config, quick: bool) -> String {
    let scope = &config.scope;
    let own = if quick { Scope::QUICK } else { Scope::DEFAULT };
    let mut n = name(config.deck, quick);
    if let Some(s) = config.separator {
        n.push_str(&format!("-sep{}", crate::card::symbol(s)));
    }
    if let Some(e) = &config.ends {
        n.push_str(&format!("-frame{}", e.name()));
    }
    if let Some(f) = &config.filter {
        // Number cards written `0`, as in the frame's ends: no dashes inside a name's part.
        n.push_str(&format!("-filter{}", f.replace('-', "0")));
    }
    match (scope.ansatz, scope.insertion) {
        (true, None) => n.push_str("-ansatz"),
        (false, _) => n.push_str("-insertion"),
        _ => {}
    }
    if let (Some(i), Some(o)) = (scope.insertion, own.insertion)
        && i.beam != o.beam
    {
        n.push_str(&format!("-beam{}", i.beam));
    }
    if config.lateral > 0 && scope.insertion.is_some() {
        n.push_str(&format!("-lateral{}", config.lateral));
    }
    if scope.ansatz && config.fill_limit != scope.fill_limit() {
        n.push_str(&format!("-fill{}", config.fill_limit));
    }
    if let Some(l) = config.census_limit.filter(|_| scope.ansatz) {
        n.push_str(&format!("-census{l}"));
    }
    // Both routes on the deck's own frame take the scope's limit unless told otherwise.
    let own_whole = if scope.ansatz && scope.insertion.is_some() {
        own.whole_deck_limit
    } else {
        0
    };
    if scope.whole_deck_limit != own_whole {
        n.push_str(&format!("-whole{}", scope.whole_deck_limit));
    }
    // Both routes take the scope's split route unless told otherwise.
    let own_split = own
        .split
        .filter(|_| scope.ansatz && scope.insertion.is_some());
    if scope.split != own_split {
        n.push_str(&format!("-split{}", scope.split.map_or(0, |s| s.positions)));
    }
    n
}

/// The name of a discovery's files with both routes and the scope's beam: `discover-DECK[-quick]`.
pub fn name(deck: DeckSpec, quick: bool) -> String {
    format!(
        "discover-{}{}",
        if deck.is_standard() {
            "standard".to_string()
        } else if deck == DeckSpec::CAMICIA {
            "camicia".to_string()
        } else {
            deck.to_string()
        },
        if quick { "-quick" } else { "" }
    )
}

/// A discovery to run: alone, as one task of a job array, or as one process of a cluster.
pub struct DiscoverJob<'a> {
    pub config: Config,
    pub out: PathBuf,
    pub quick: bool,
    pub resume: bool,
    pub threads: Option<usize>,
    pub observer: &'a dyn Observer,
}

/// What every shard file of a discovery carries besides its answer.
#[derive(Serialize, Deserialize)]
pub struct DiscoverContext {
    name: String,
    command: String,
}

impl DiscoverJob<'_> {
    /// The step folder: the single run's checkpoint, shared by the tasks of a job array (they
    /// exchange steps through it) and kept by process 0 of a cluster.
    fn work(&self) -> PathBuf {
        super::job::checkpoint_path(
            &self.out.join("work"),
            &name_of(&self.config, self.quick),
            None,
            "checkpoint",
        )
    }
}

/// A discovery's own errors as the run layer sorts them: a failure of this machine, a stop, or
/// bad input.
fn sorted(e: DiscoverError) -> Result<Ran<DiscoverPart>, RunError> {
    match e {
        DiscoverError::Checkpoint(_) | DiscoverError::Replay(_) => Err(RunError::failed(e)),
        DiscoverError::Stopped(_) => Ok(Ran::Stopped(Stop::with(e.to_string()))),
        _ => Err(RunError::input(e)),
    }
}

/// A finished part: the discovery, its seconds and threads.
pub type DiscoverPart = (Discovery, f64, usize);

impl Job for DiscoverJob<'_> {
    const COMMAND: &'static str = "discover";
    /// The checkpoint is a folder of finished steps (`discover::checkpoint`).
    type Entry = ();
    type Part = DiscoverPart;
    type Context = DiscoverContext;
    type Answer = DiscoverAnswer;

    /// Steps are shared out by the tasks themselves (`discover::steps::Shared`), so any number
    /// of tasks is accepted.
    fn units(&self) -> u64 {
        u64::MAX
    }

    fn fingerprint(&self) -> String {
        self.config.fingerprint()
    }

    fn context(&self) -> DiscoverContext {
        DiscoverContext {
            name: name_of(&self.config, self.quick),
            command: super::recorded_command(&[], &[]),
        }
    }

    fn shard_file(&self, shard: Shard) -> PathBuf {
        super::job::shard_path(&self.out, &name_of(&self.config, self.quick), shard)
    }

    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }

    fn execute(&self, mode: &Mode) -> Result<Ran<DiscoverPart>, RunError> {
        crate::discover::frame::derive(
            self.config.deck,
            self.config.separator,
            self.config.ends.as_ref(),
        )
        .map_err(RunError::input)?;
        let started = Instant::now();
        let found = match mode {
            Mode::Single => {
                let pool = super::pool(self.threads)?;
                let r = pool.install(|| {
                    crate::discover::run_timed(
                        &self.config,
                        &self.work(),
                        self.resume,
                        self.observer,
                    )
                });
                r.map(|(d, earlier)| (d, pool.current_num_threads(), earlier))
            }
            Mode::Shard(s) => {
                let pool = super::pool(self.threads)?;
                let shared = Checkpoint::join(&self.work(), &self.config.fingerprint()).and_then(
                    |checkpoint| {
                        let steps = Shared {
                            checkpoint,
                            index: s.index as usize,
                            count: s.count as usize,
                        };
                        pool.install(|| run_steps(&self.config, &steps, self.observer))
                    },
                );
                shared.map(|d| (d, pool.current_num_threads(), 0.0))
            }
            Mode::Cluster(c) => match on_cluster(c, &self.config, self.work(), self.resume)? {
                None => return Ok(Ran::Follower),
                Some(r) => r.map(|d| (d, c.processes() * c.workers, 0.0)),
            },
        };
        match found {
            // A resumed single run counts the runs before it (their stages already do).
            Ok((d, threads, earlier)) => Ok(Ran::Part((
                d,
                earlier + started.elapsed().as_secs_f64(),
                threads,
            ))),
            Err(e) => sorted(e),
        }
    }

    fn summary(&self, (d, _, _): &DiscoverPart) -> Value {
        json!({
            "balanced_cycles": d.balanced_cycles.len(),
            "balanced_deals": d.balanced_cycles.iter().map(|b| b.balanced.len()).sum::<usize>(),
        })
    }

    /// Every task of a job array finishes the whole discovery (from the steps they shared), so
    /// the parts must agree, but for their times; the answer is theirs, with the longest time.
    fn finish(
        ctx: DiscoverContext,
        parts: Vec<DiscoverPart>,
        out: Option<&Path>,
    ) -> Result<DiscoverAnswer, RunError> {
        let timeless = |d: &Discovery| {
            let mut d = d.clone();
            for s in &mut d.stages {
                s.seconds = 0.0;
            }
            d
        };
        let first = timeless(&parts[0].0);
        if let Some(i) = parts.iter().position(|p| timeless(&p.0) != first) {
            return Err(RunError::Input(format!(
                "shard {i} found another answer than shard 0: the shard files are of different runs or builds"
            )));
        }
        let seconds = parts.iter().map(|p| p.1).fold(0.0, f64::max);
        let threads = parts.iter().map(|p| p.2).sum();
        let found = parts.into_iter().next().expect("at least one part").0;
        let dir = out.map_or_else(
            || PathBuf::from(crate::provenance::DEFAULT_OUT),
            Path::to_path_buf,
        );
        let stages = found
            .stages
            .iter()
            .map(|s| (s.name.clone(), s.seconds))
            .collect();
        let run = Run::here(ctx.command, threads, seconds).with_stages(stages);
        let mut files = write_files(&dir, plain_name(&ctx.name)?, &found, &run)?;
        let standard = found
            .deck
            .parse::<DeckSpec>()
            .is_ok_and(|d| d.is_standard());
        if crate::provenance::in_results(&dir) && standard {
            files.extend(write_catalogue()?);
        }
        Ok(DiscoverAnswer {
            found,
            files,
            seconds,
            threads,
        })
    }
}

/// The steps of a cluster process: the steps `s` with `s % processes == process` run here (on
/// `pool`), and every step's result goes to every process in one round a stage, so each process
/// ends the stage with all of them. Each process keeps what it has in its own step folder.
struct ClusterSteps<'w> {
    worker: RefCell<&'w mut Worker>,
    pool: &'w rayon::ThreadPool,
    checkpoint: Checkpoint,
}

impl Steps for ClusterSteps<'_> {
    fn run(
        &self,
        names: &[String],
        work: Work<'_>,
        elsewhere: &(dyn Fn(usize) + Sync),
    ) -> Result<Vec<Vec<u8>>, DiscoverError> {
        let mut worker = self.worker.borrow_mut();
        let (me, peers) = position(&worker);
        let n = names.len();
        let mine: Vec<usize> = (me..n).step_by(peers).collect();
        let ckpt = &self.checkpoint;
        let computed: Vec<(usize, Vec<u8>)> = self.pool.install(|| {
            use rayon::prelude::*;
            mine.par_iter()
                .map(|&i| match ckpt.load_bytes(&names[i]) {
                    Some(b) => Ok((i, b)),
                    None => {
                        let b = work(i)?;
                        ckpt.save_bytes(&names[i], &b)?;
                        Ok((i, b))
                    }
                })
                .collect::<Result<Vec<_>, DiscoverError>>()
        })?;
        let items: Vec<(u64, u64, Vec<u8>)> = computed
            .iter()
            .flat_map(|(i, b)| (0..peers as u64).map(move |t| (t, *i as u64, b.clone())))
            .collect();
        let mut all: Vec<Option<Vec<u8>>> = vec![None; n];
        for (_, i, b) in round_collect(&mut worker, items, |x: &(u64, u64, Vec<u8>)| x.0) {
            let i = i as usize;
            if i % peers != me {
                elsewhere(i);
                if !ckpt.has(&names[i]) {
                    ckpt.save_bytes(&names[i], &b)?;
                }
            }
            all[i] = Some(b);
        }
        all.into_iter()
            .enumerate()
            .map(|(i, b)| {
                b.ok_or_else(|| DiscoverError::Checkpoint(format!("step {} never came", names[i])))
            })
            .collect()
    }
}

/// The discovery on a cluster: one timely worker a process, which runs the stages; the steps it
/// owns run on `cluster.workers` threads. Process 0 keeps the step folder `work` (resumed with
/// `resume`, as a single run would); the others keep theirs beside it. The answer at process 0,
/// `None` elsewhere.
fn on_cluster(
    cluster: &Cluster,
    config: &Config,
    work: PathBuf,
    resume: bool,
) -> Result<Option<Result<Discovery, DiscoverError>>, RunError> {
    let one = Cluster {
        workers: 1,
        ..cluster.clone()
    };
    let pool = Arc::new(super::pool(Some(cluster.workers))?);
    let connection = one.connect().map_err(RunError::input)?;
    let config = config.clone();
    let process = cluster.process;
    let fingerprint = crate::library::fnv1a(config.fingerprint().as_bytes());
    let found = one
        .run_job(connection, fingerprint, move |w| {
            let fp = config.fingerprint();
            let checkpoint = if process == 0 {
                Checkpoint::open(&work, &fp, resume)
            } else {
                Checkpoint::join(&work.with_extension(format!("process-{process}")), &fp)
            };
            let r = checkpoint.and_then(|checkpoint| {
                let steps = ClusterSteps {
                    worker: RefCell::new(w),
                    pool: &pool,
                    checkpoint,
                };
                let d = run_steps(&config, &steps, &Silent)?;
                steps.checkpoint.remove();
                Ok(d)
            });
            // Only process 0 answers; a failure elsewhere is told there by its own exit.
            match r {
                Err(e) if process != 0 => {
                    eprintln!("ansatz: process {process}: {e}");
                    std::process::exit(2)
                }
                r => (process == 0).then_some(r),
            }
        })
        .map_err(RunError::input)?;
    Ok(found)
}

/// The readable report (without the run).
pub fn text(d: &Discovery) -> String {
    let mut s = format!(
        "deck      {}\nscope     {}\nframe     {}\nfilter    {}\n",
        d.deck,
        d.scope,
        d.frame,
        d.filter.as_deref().unwrap_or("none")
    );
    s.push_str(&format!(
        "accumulators (accumulation >= {}): {}\n",
        d.accumulation_threshold,
        d.accumulators.len()
    ));
    for a in &d.accumulators {
        s.push_str(&format!(
            "  {}  accumulation {}  (head {}, piece {})\n",
            a.shape, a.accumulation, a.head, a.piece
        ));
    }
    s.push_str(&census_lines("censuses", &d.censuses));
    if !d.fills.is_empty() {
        s.push_str(&census_lines("fills", &d.fills));
    }
    s.push_str(&format!("cycles by reach  {:?}\n", d.reach_histogram));
    let deals: usize = d.balanced_cycles.iter().map(|b| b.balanced.len()).sum();
    s.push_str(&format!(
        "balanced cycles  {} (up to exchanging the players), {deals} deals\n",
        d.balanced_cycles.len()
    ));
    for (i, b) in d.balanced_cycles.iter().enumerate() {
        s.push_str(&format!(
            "  {:>3}  {}  period {}  closure {}  {} deals  (census {})\n",
            i + 1,
            b.cycle_id,
            b.period,
            b.closure_size,
            b.balanced.len(),
            b.census
        ));
    }
    s
}

/// A titled list of censuses (or fills), one line each.
fn census_lines(title: &str, list: &[crate::discover::CensusSummary]) -> String {
    let mut s = format!("{title}\n");
    for c in list {
        s.push_str(&format!(
            "  {}  {} decks, {} never end, {} cycles{}\n",
            c.shape,
            c.decks,
            c.non_terminating,
            c.cycles,
            c.skipped
                .as_deref()
                .map(|r| format!(" (skipped: {r})"))
                .unwrap_or_default()
        ));
    }
    s
}

/// The catalogue of the results tree rebuilt, now with this discovery's result file in it:
/// `results/balanced/balanced-cycles.{jsonl,txt}`, every deal replayed, as `ansatz catalogue
/// --out results/balanced` writes it.
fn write_catalogue() -> Result<Vec<String>, RunError> {
    use crate::assemble::catalogue::{build, result_files};
    use crate::provenance::{CATALOGUE_DIR, RESULTS};
    let started = std::time::Instant::now();
    let files =
        result_files(&[PathBuf::from(RESULTS)]).map_err(|e| RunError::Input(e.to_string()))?;
    let cat = build(&files).map_err(|e| RunError::Input(e.to_string()))?;
    let out = Path::new(CATALOGUE_DIR);
    super::catalogue::write_catalogue(
        &cat,
        out,
        format!("ansatz catalogue --out {CATALOGUE_DIR}"),
        started.elapsed().as_secs_f64(),
    )?;
    Ok(["jsonl", "txt"]
        .iter()
        .map(|x| {
            out.join(format!("balanced-cycles.{x}"))
                .display()
                .to_string()
        })
        .collect())
}

/// DIR/NAME.jsonl (a summary line, one line per balanced cycle with its deals, one per stage, the
/// run line) and DIR/NAME.txt.
fn write_files(dir: &Path, name: &str, d: &Discovery, run: &Run) -> Result<Vec<String>, RunError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError::failed(format!("creating {}: {e}", dir.display())))?;
    let mut lines = vec![
        json!({"summary": {
            "deck": d.deck, "scope": d.scope, "frame": d.frame, "filter": d.filter,
            "accumulation_threshold": d.accumulation_threshold,
            "accumulators": d.accumulators, "censuses": d.censuses, "fills": d.fills,
            "reach_histogram": d.reach_histogram,
            "balanced_cycles": d.balanced_cycles.len(),
            "balanced_deals": d.balanced_cycles.iter().map(|b| b.balanced.len()).sum::<usize>(),
        }})
        .to_string(),
    ];
    lines.extend(
        d.balanced_cycles
            .iter()
            .map(|b| json!({ "cycle": b }).to_string()),
    );
    lines.extend(d.stages.iter().map(|s| {
        json!({"stage": {"name": s.name, "work": s.work, "unit": s.unit, "cycles": s.cycles,
            "balanced_cycles": s.balanced_cycles, "reach_histogram": s.reach_histogram,
            "summary": s.summary}})
        .to_string()
    }));
    lines.push(run.line());
    let jsonl = dir.join(format!("{name}.jsonl"));
    let txt = dir.join(format!("{name}.txt"));
    write(&jsonl, (lines.join("\n") + "\n").as_bytes())?;
    let mut t = text(d);
    for b in &d.balanced_cycles {
        t.push_str(&format!(
            "\ncycle {}  (mirror {})\n",
            b.cycle_id, b.mirror_cycle_id
        ));
        for deal in &b.balanced {
            t.push_str(&format!("  {deal}\n"));
        }
    }
    t.push_str(&run.text_block());
    write(&txt, t.as_bytes())?;
    Ok(vec![jsonl.display().to_string(), txt.display().to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_what_differs_from_the_scope() {
        let c = Config {
            deck: DeckSpec::STANDARD,
            scope: Scope::QUICK,
            separator: None,
            ends: None,
            lateral: 0,
            filter: None,
            fill_limit: Scope::QUICK.fill_limit(),
            census_limit: None,
            max_positions: 1,
            stop_after_censuses: None,
        };
        assert_eq!(name_of(&c, true), "discover-standard-quick");
        let f = Config {
            filter: Some("--------Q-AQ-Q-".into()),
            scope: Scope::QUICK.with(crate::discover::Route::Ansatz, None),
            ..c.clone()
        };
        assert_eq!(
            name_of(&f, true),
            "discover-standard-quick-filter00000000Q0AQ0Q0-ansatz"
        );
        assert_ne!(f.fingerprint(), c.fingerprint());
        // The whole-deck limit is named only when not the scope's own; a single route has none.
        let w = Config {
            scope: Scope {
                whole_deck_limit: 0,
                ..Scope::QUICK
            },
            ..c.clone()
        };
        assert_eq!(name_of(&w, true), "discover-standard-quick-whole0");
        assert!(!name_of(&f, true).contains("whole"));
        // Too large to play whole: the fingerprint is the one before the stage existed.
        assert_eq!(w.fingerprint(), c.fingerprint());
    }

    /// `--split-positions` sets the split route's budget (0: no split route), named in the files
    /// and the checkpoint when not the scope's own; a single route takes no split route at all.
    #[test]
    fn split_positions_set_the_split_route() {
        use crate::discover::Route;
        use crate::discover::options::Options;
        use crate::discover::scope::QUICK_SPLIT;
        use crate::discover::split::SplitScope;
        let deck: DeckSpec = "24-2J2Q2K".parse().unwrap();
        let quick = Options {
            quick: true,
            ..Options::new(deck)
        };
        let config = |split_positions, route| {
            Options {
                split_positions,
                route,
                ..quick.clone()
            }
            .config()
            .unwrap()
        };
        let own = config(None, Route::Both);
        let split = |positions| Some(SplitScope { positions });
        assert_eq!(own.scope.split, split(QUICK_SPLIT));
        assert_eq!(name_of(&own, true), "discover-24-2J2Q2K-quick");
        assert_eq!(
            config(Some(QUICK_SPLIT), Route::Both).scope.split,
            split(QUICK_SPLIT)
        );
        let more = config(Some(1_000_000_000), Route::Both);
        assert_eq!(more.scope.split, split(1_000_000_000));
        assert_eq!(
            name_of(&more, true),
            "discover-24-2J2Q2K-quick-split1000000000"
        );
        assert_ne!(more.fingerprint(), own.fingerprint());
        let none = config(Some(0), Route::Both);
        assert_eq!(none.scope.split, None);
        assert_eq!(name_of(&none, true), "discover-24-2J2Q2K-quick-split0");
        let alone = config(Some(1_000_000_000), Route::Ansatz);
        assert_eq!(alone.scope.split, None);
        assert_eq!(name_of(&alone, true), "discover-24-2J2Q2K-quick-ansatz");
    }
}
