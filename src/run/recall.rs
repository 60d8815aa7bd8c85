//! Recall: `ansatz discover` judged on decks whose every deal has been played. The known answer
//! of each deck (its cycle classes up to exchanging the players, read from a census file), one
//! discovery per deck and scope with the same settings for every deck, and the table of what
//! each scope found, by which route, in what time: `results/discover/recall.{jsonl,md}`.
//!
//! Each finished discovery is kept as a step file under the work folder, so an interrupted
//! `ansatz recall` (even `kill -9`) resumes: finished decks are read back, the one under way
//! resumes from its own discovery checkpoint.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::RunError;
use super::write;
use crate::card::DeckSpec;
use crate::discover::{Config, Discovery, Observer, Scope};
use crate::engine::{Outcome, play};
use crate::notation::Notation;
use crate::position::Position;
use crate::provenance::Run;

/// Where the known answers come from, relative to the repository root.
pub const TABLE1: &str = "results/census/table1.jsonl";
pub const CAMICIA_DEALS: &str = "tests/data/camicia-never-ending.txt";
pub const CATALOGUE: &str = "results/balanced/balanced-cycles.jsonl";

/// Errors of a recall run.
#[derive(Debug, thiserror::Error)]
pub enum RecallError {
    #[error("{0}: {1}")]
    Read(String, String),
    #[error("{file}: {what}")]
    Bad { file: String, what: String },
}

/// One cycle class (a cycle and its mirror image) a census knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownClass {
    /// The smaller of the two cycles' ids (each the smallest position of its cycle).
    pub cycle_id: String,
    pub mirror_cycle_id: String,
    pub period: u64,
    /// The deals of the census that reach either cycle of the class.
    pub deals: u64,
}

/// A deck and what is known of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownDeck {
    /// The deck as `--deck` takes it.
    pub deck: String,
    pub cards: usize,
    /// Where the answer comes from.
    pub source: String,
    /// Whether every deal of the deck has been played (false: a catalogue of what is known).
    pub census: bool,
    pub classes: Vec<KnownClass>,
}

/// The class key of a cycle: the smaller packed id of it and its mirror image.
fn class_of(cycle: &Position) -> Option<(u128, u128, u64)> {
    let id = |p: &Position| match play(p) {
        Outcome::Cycle(c) => c.cycle_id.pack().map(|k| (k, c.period)),
        Outcome::Terminates { .. } => None,
    };
    let (a, period) = id(cycle)?;
    let (b, _) = id(&cycle.mirrored())?;
    Some((a.min(b), a.max(b), period))
}

/// Groups cycles (any position of each, with its deal count) into classes.
fn classes(
    file: &str,
    cycles: impl IntoIterator<Item = (String, u64)>,
) -> Result<Vec<KnownClass>, RecallError> {
    let mut by: BTreeMap<(u128, u128), (u64, u64, usize)> = BTreeMap::new();
    for (text, deals) in cycles {
        let bad = |what: String| RecallError::Bad {
            file: file.into(),
            what,
        };
        let p = Position::parse(&text, Notation::Auto).map_err(|e| bad(format!("{text}: {e}")))?;
        let (a, b, period) = class_of(&p).ok_or_else(|| bad(format!("{text} does not cycle")))?;
        let e = by.entry((a, b)).or_insert((period, 0, p.total()));
        e.1 += deals;
    }
    Ok(by
        .into_iter()
        .map(|((a, b), (period, deals, n))| KnownClass {
            cycle_id: Position::unpack(a, n).to_string(),
            mirror_cycle_id: Position::unpack(b, n).to_string(),
            period,
            deals,
        })
        .collect())
}

fn read(root: &Path, file: &str) -> Result<String, RecallError> {
    std::fs::read_to_string(root.join(file))
        .map_err(|e| RecallError::Read(root.join(file).display().to_string(), e.to_string()))
}

/// One deck's rows of Table 1: who held the extra card in each (0: an even deck's one row) and
/// the cycles of them all.
#[derive(Default)]
struct Rows {
    extras: BTreeSet<u64>,
    cycles: Vec<(String, u64)>,
}

/// The decks of Table 1 with a deal that never ends: an even deck's one row, an odd deck's two
/// rows (the extra card with either player) as one deck once both are in the table.
fn table1_decks(root: &Path) -> Result<Vec<KnownDeck>, RecallError> {
    let bad = |what: String| RecallError::Bad {
        file: TABLE1.into(),
        what,
    };
    // In the table's order of decks.
    let mut rows: Vec<(String, Rows)> = Vec::new();
    for line in read(root, TABLE1)?.lines() {
        let v: Value = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        let Some(deck) = v["deck"].as_str() else {
            continue;
        };
        if v["players"].as_u64().is_some_and(|p| p != 2) {
            continue;
        }
        let at = match rows.iter().position(|r| r.0 == deck) {
            Some(i) => i,
            None => {
                rows.push((deck.to_string(), Rows::default()));
                rows.len() - 1
            }
        };
        let r = &mut rows[at].1;
        r.extras.insert(v["extra_card"].as_u64().unwrap_or(0));
        r.cycles.extend(
            v["distinct_cycles"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| {
                    (
                        c["cycle_id"].as_str().unwrap_or_default().to_string(),
                        c["deals"].as_u64().unwrap_or(0),
                    )
                }),
        );
    }
    let mut decks = Vec::new();
    for (deck, r) in rows {
        let spec: DeckSpec = deck.parse().map_err(|e| bad(format!("{deck}: {e}")))?;
        let odd = spec.total() % 2 == 1;
        let needs: &[u64] = if odd { &[1, 2] } else { &[0] };
        if r.cycles.is_empty() || !needs.iter().all(|e| r.extras.contains(e)) {
            continue;
        }
        let both = if odd { " (both rows)" } else { "" };
        decks.push(KnownDeck {
            deck,
            cards: spec.total(),
            source: format!("{TABLE1}{both} (every deal played by `ansatz search exhaustive`)"),
            census: true,
            classes: classes(TABLE1, r.cycles)?,
        });
    }
    Ok(decks)
}

/// Every deck with a known answer: the decks of Table 1 with a deal that never ends
/// (`table1_decks`), the Camicia deck from its public census, and the standard deck from the
/// catalogue (no census: what the project knows).
pub fn known_decks(root: &Path) -> Result<Vec<KnownDeck>, RecallError> {
    let mut decks = table1_decks(root)?;
    let camicia = read(root, CAMICIA_DEALS)?;
    let deals = camicia
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| (l.to_string(), 1));
    decks.push(KnownDeck {
        deck: "camicia".into(),
        cards: DeckSpec::CAMICIA.total(),
        source: format!("{CAMICIA_DEALS} (the public GPU census N1k06/cudacamicia)"),
        census: true,
        classes: classes(CAMICIA_DEALS, deals)?,
    });
    let mut cycles = Vec::new();
    for line in read(root, CATALOGUE)?.lines() {
        let v: Value = serde_json::from_str(line).map_err(|e| RecallError::Bad {
            file: CATALOGUE.into(),
            what: e.to_string(),
        })?;
        if let Some(c) = v.get("cycle") {
            let deals = c["balanced"].as_array().map_or(0, Vec::len) as u64;
            cycles.push((
                c["cycle_id"].as_str().unwrap_or_default().to_string(),
                deals,
            ));
        }
    }
    decks.push(KnownDeck {
        deck: "standard".into(),
        cards: 52,
        source: format!("{CATALOGUE} (no census: the project's catalogue)"),
        census: false,
        classes: classes(CATALOGUE, cycles)?,
    });
    decks.sort_by_key(|d| d.cards);
    Ok(decks)
}

/// What one discovery found on one deck, against its known answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeckRecall {
    pub deck: String,
    pub cards: usize,
    /// `quick` or `default`.
    pub scope: String,
    /// The known classes found (`found_by` is the route, `census` what reached it).
    pub found: Vec<FoundClass>,
    pub known: usize,
    /// Balanced classes the discovery found that the known answer lacks (only possible where
    /// the answer is a catalogue, not a census).
    pub new: Vec<FoundClass>,
    /// Whether a census of every deck of the frame ran (a frame small enough to search whole).
    pub searched_whole: bool,
    /// Whether every deal of the deck was played (a deck small enough to play whole: the
    /// discovery's `deck` stage), which finds every class.
    #[serde(default)]
    pub whole_deck: bool,
    /// Why no discovery ran (a deck with no frame), if none did.
    pub refused: Option<String>,
}

/// A class a discovery found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundClass {
    pub cycle_id: String,
    pub period: u64,
    pub found_by: String,
    pub census: String,
}

/// A finished discovery as the step file keeps it.
#[derive(Serialize, Deserialize)]
struct Step {
    fingerprint: String,
    discovery: Option<Discovery>,
    refused: Option<String>,
    seconds: f64,
}

/// Compares a discovery with the known classes of its deck.
pub fn judge(
    known: &KnownDeck,
    scope: &str,
    d: Option<&Discovery>,
    refused: Option<String>,
) -> DeckRecall {
    let keys: BTreeSet<String> = known.classes.iter().map(|c| c.cycle_id.clone()).collect();
    let mut found = Vec::new();
    let mut new = Vec::new();
    for b in d.map(|d| d.balanced_cycles.as_slice()).unwrap_or_default() {
        // Keyed as the known classes are: the smaller id of the cycle and its mirror image.
        let id = Position::parse(&b.cycle_id, Notation::Auto)
            .ok()
            .and_then(|p| class_of(&p))
            .map_or(b.cycle_id.clone(), |(a, _, _)| {
                Position::unpack(a, known.cards).to_string()
            });
        let f = FoundClass {
            cycle_id: id.clone(),
            period: b.period,
            found_by: b.found_by.clone(),
            census: b.census.clone(),
        };
        if keys.contains(&id) {
            found.push(f);
        } else {
            new.push(f);
        }
    }
    found.sort_by(|a, b| a.cycle_id.cmp(&b.cycle_id));
    found.dedup_by(|a, b| a.cycle_id == b.cycle_id);
    new.sort_by(|a, b| a.cycle_id.cmp(&b.cycle_id));
    new.dedup_by(|a, b| a.cycle_id == b.cycle_id);
    DeckRecall {
        deck: known.deck.clone(),
        cards: known.cards,
        scope: scope.into(),
        found,
        known: known.classes.len(),
        new,
        searched_whole: d.is_some_and(|d| d.censuses.iter().any(|c| c.shape == "*")),
        whole_deck: d.is_some_and(|d| d.stages.iter().any(|s| s.name == "deck")),
        refused,
    }
}

/// A recall run: which decks and scopes, where.
pub struct Recall<'a> {
    /// The repository root the known answers are read from.
    pub root: PathBuf,
    /// Where recall.{jsonl,md} go.
    pub out: PathBuf,
    /// The scopes to run, `true` for `--quick`.
    pub scopes: Vec<bool>,
    /// Only these decks (`--deck`), else every known deck.
    pub only: Vec<String>,
    /// Write the table even where it drops rows of the table already in `out` (`--replace`).
    pub replace: bool,
    pub threads: Option<usize>,
    /// Told each deck's start (deck, scope) and end.
    pub observer: &'a dyn RecallObserver,
}

/// What a recall run tells its caller as it goes.
pub trait RecallObserver: Sync {
    fn deck_start(&self, deck: &str, scope: &str, index: usize, total: usize);
    fn deck_done(&self, recall: &DeckRecall, seconds: f64);
    /// The observer of each discovery's stages.
    fn stages(&self) -> &dyn Observer;
}

/// A recall run's answer: every deck's recall, with the seconds of its discovery.
pub struct RecallAnswer {
    pub decks: Vec<KnownDeck>,
    pub rows: Vec<(DeckRecall, f64)>,
    pub files: Vec<String>,
}

fn scope_name(quick: bool) -> &'static str {
    if quick { "quick" } else { "default" }
}

impl Recall<'_> {
    fn work(&self) -> PathBuf {
        crate::provenance::work_dir(&self.out)
            .join("work")
            .join("recall")
    }

    /// Runs every discovery not already finished, then writes the table.
    pub fn run(&self, command: String) -> Result<RecallAnswer, RunError> {
        let started = std::time::Instant::now();
        let decks = known_decks(&self.root).map_err(RunError::input)?;
        for d in &self.only {
            if !decks.iter().any(|k| &k.deck == d) {
                return Err(RunError::input(format!(
                    "--deck {d}: no known answer (decks: {})",
                    decks
                        .iter()
                        .map(|k| k.deck.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        let chosen: Vec<&KnownDeck> = decks
            .iter()
            .filter(|d| self.only.is_empty() || self.only.contains(&d.deck))
            .collect();
        let work = self.work();
        if !self.replace {
            self.refuse_to_drop(&work, &decks, &chosen)?;
        }
        std::fs::create_dir_all(&work)
            .map_err(|e| RunError::failed(format!("creating {}: {e}", work.display())))?;
        let pool = super::pool(self.threads)?;
        let total = chosen.len() * self.scopes.len();
        let mut rows = Vec::new();
        // Every deck in one scope before the next (the quick column is whole first), and the
        // table rewritten after each deck, so a long run shows what it has so far.
        let mut files = Vec::new();
        for (i, (&quick, known)) in self
            .scopes
            .iter()
            .flat_map(|q| chosen.iter().map(move |k| (q, k)))
            .enumerate()
        {
            let scope = scope_name(quick);
            self.observer.deck_start(&known.deck, scope, i, total);
            let step = self.step(&work, known, quick, &pool)?;
            let r = judge(known, scope, step.discovery.as_ref(), step.refused.clone());
            self.observer.deck_done(&r, step.seconds);
            rows.push((r, step.seconds));
            let table = self.with_finished(&work, &decks, &rows);
            files = self.write(
                &decks,
                &table,
                command.clone(),
                pool.current_num_threads(),
                started,
            )?;
        }
        Ok(RecallAnswer {
            decks: chosen.into_iter().cloned().collect(),
            rows,
            files,
        })
    }

    /// `rows`, and every other deck and scope whose discovery a run before finished: the table
    /// holds everything known, however the runs were cut up (`--deck`, `--scope`).
    fn with_finished(
        &self,
        work: &Path,
        decks: &[KnownDeck],
        rows: &[(DeckRecall, f64)],
    ) -> Vec<(DeckRecall, f64)> {
        let mut all = Vec::new();
        for quick in [true, false] {
            for known in decks {
                let scope = scope_name(quick);
                if let Some(r) = rows
                    .iter()
                    .find(|(r, _)| r.deck == known.deck && r.scope == scope)
                {
                    all.push(r.clone());
                } else if let Some(step) = self.finished(work, known, quick) {
                    let r = judge(known, scope, step.discovery.as_ref(), step.refused.clone());
                    all.push((r, step.seconds));
                }
            }
        }
        all
    }

    /// Refuses a run whose table would lose rows of the table already in `out`: those of decks
    /// and scopes it does not run and has no step file of this version for (a fresh clone has
    /// none, so `--deck X --out results/discover` would otherwise leave a one-deck table).
    fn refuse_to_drop(
        &self,
        work: &Path,
        decks: &[KnownDeck],
        chosen: &[&KnownDeck],
    ) -> Result<(), RunError> {
        let file = self.out.join("recall.jsonl");
        let Ok(text) = std::fs::read_to_string(&file) else {
            return Ok(());
        };
        let kept = |deck: &str, scope: &str| {
            let quick = scope == scope_name(true);
            let runs = self.scopes.contains(&quick) && chosen.iter().any(|k| k.deck == deck);
            runs || decks
                .iter()
                .find(|k| k.deck == deck)
                .is_some_and(|k| self.finished(work, k, quick).is_some())
        };
        let dropped: Vec<String> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| {
                let r = v.get("recall")?;
                Some((
                    r.get("deck")?.as_str()?.to_string(),
                    r.get("scope")?.as_str()?.to_string(),
                ))
            })
            .filter(|(deck, scope)| !kept(deck, scope))
            .map(|(deck, scope)| format!("{deck} ({scope})"))
            .collect();
        if dropped.is_empty() {
            return Ok(());
        }
        Err(RunError::input(format!(
            "{} holds {} rows this run would drop, with no finished discovery of this version \
             to keep them from: {}. Run them too (--deck, --scope), rebuild the whole table (no \
             --deck), write elsewhere (--out), or give --replace to write this run's rows alone",
            file.display(),
            dropped.len(),
            dropped.join(", ")
        )))
    }

    /// A discovery finished by an earlier run, with this version's fingerprint.
    fn finished(&self, work: &Path, known: &KnownDeck, quick: bool) -> Option<Step> {
        let spec: DeckSpec = known.deck.parse().ok()?;
        let config = Config::new(spec, if quick { Scope::QUICK } else { Scope::DEFAULT });
        let name = super::discover::name(spec, quick);
        let text = std::fs::read_to_string(work.join(format!("{name}.json"))).ok()?;
        let step: Step = serde_json::from_str(&text).ok()?;
        (step.fingerprint == config.fingerprint()).then_some(step)
    }

    /// One deck's discovery: read back when finished before, else run (resuming its own
    /// checkpoint) and kept.
    fn step(
        &self,
        work: &Path,
        known: &KnownDeck,
        quick: bool,
        pool: &rayon::ThreadPool,
    ) -> Result<Step, RunError> {
        let spec: DeckSpec = known.deck.parse().map_err(RunError::input)?;
        let config = Config::new(spec, if quick { Scope::QUICK } else { Scope::DEFAULT });
        let fingerprint = config.fingerprint();
        let name = super::discover::name(spec, quick);
        let file = work.join(format!("{name}.json"));
        if let Some(step) = self.finished(work, known, quick) {
            return Ok(step);
        }
        let step = match crate::discover::check(&config) {
            Err(e) => Step {
                fingerprint,
                discovery: None,
                refused: Some(e.to_string()),
                seconds: 0.0,
            },
            Ok(()) => {
                let ckpt = work.join(format!("{name}.checkpoint"));
                let resume = ckpt.exists();
                let began = std::time::Instant::now();
                let (d, earlier) = pool
                    .install(|| {
                        crate::discover::run_timed(&config, &ckpt, resume, self.observer.stages())
                    })
                    .map_err(|e| {
                        RunError::failed(format!(
                            "{} ({}): {e}; `ansatz recall` again resumes",
                            known.deck,
                            scope_name(quick)
                        ))
                    })?;
                Step {
                    fingerprint,
                    discovery: Some(d),
                    refused: None,
                    seconds: earlier + began.elapsed().as_secs_f64(),
                }
            }
        };
        // A refusal is checked again next time (it costs nothing, and a later discover may
        // take the deck).
        if step.discovery.is_some() {
            let text = serde_json::to_vec(&step).map_err(RunError::failed)?;
            write(&file, &text)?;
        }
        Ok(step)
    }

    fn write(
        &self,
        decks: &[KnownDeck],
        rows: &[(DeckRecall, f64)],
        command: String,
        threads: usize,
        started: std::time::Instant,
    ) -> Result<Vec<String>, RunError> {
        let mut jsonl = String::new();
        for d in decks {
            let line = json!({ "known": d });
            jsonl.push_str(&line.to_string());
            jsonl.push('\n');
        }
        for (r, _) in rows {
            jsonl.push_str(&json!({ "recall": r }).to_string());
            jsonl.push('\n');
        }
        let stages = rows
            .iter()
            .map(|(r, s)| (format!("{} {}", r.deck, r.scope), *s))
            .collect();
        // What the table cost: its discoveries' seconds, where they ran before this run (read
        // back from their step files) as well as in it, so that a table finished by a resumed
        // run records its real cost (`ansatz reproduce --max-seconds` reads it).
        let cost: f64 = rows.iter().map(|(_, s)| s).sum();
        let seconds = started.elapsed().as_secs_f64().max(cost);
        let run = Run::here(command, threads, seconds).with_stages(stages);
        jsonl.push_str(&run.line());
        jsonl.push('\n');
        std::fs::create_dir_all(&self.out)
            .map_err(|e| RunError::failed(format!("creating {}: {e}", self.out.display())))?;
        let j = self.out.join("recall.jsonl");
        let m = self.out.join("recall.md");
        write(&j, jsonl.as_bytes())?;
        write(&m, markdown(decks, rows, &run).as_bytes())?;
        Ok(vec![j.display().to_string(), m.display().to_string()])
    }
}

/// The readable table: one row per deck, the classes of each deck below.
pub fn markdown(decks: &[KnownDeck], rows: &[(DeckRecall, f64)], run: &Run) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Recall of `ansatz discover`\n\n\
         Every deck whose every deal has been played (the decks of Table 1 with a deal that \
         never ends, an odd deck's two rows as one deck, and the Camicia deck), and the standard deck against the catalogue. \
         A class is a cycle and its mirror image (the players exchanged); the known classes are \
         those a deal of the deck's own split reaches. Each deck runs `ansatz discover --deck \
         DECK` with `--quick` and without, nothing else set. *whole deck*: the deck has few \
         enough deals that the discovery played every one (and so found every class); *whole \
         frame*: it searched every deck of its frame, the routes' first stage. Written by `{}`; the seconds are those of this \
         machine ({}, {} threads).\n",
        run.command, run.machine, run.threads
    );
    let _ = writeln!(
        s,
        "| deck | cards | known classes (deals) | source | --quick | s | default | s |\n|---|---|---|---|---|---|---|---|"
    );
    let cell = |deck: &str, scope: &str| {
        rows.iter()
            .find(|(r, _)| r.deck == deck && r.scope == scope)
            .map_or(("–".to_string(), "–".to_string()), |(r, secs)| {
                let mut c = if let Some(why) = &r.refused {
                    format!("refused: {why}")
                } else {
                    format!("{}/{}", r.found.len(), r.known)
                };
                if r.whole_deck {
                    c.push_str(" (whole deck)");
                } else if r.searched_whole {
                    c.push_str(" (whole frame)");
                }
                if !r.new.is_empty() {
                    c.push_str(&format!(" +{} new", r.new.len()));
                }
                (c, format!("{secs:.0}"))
            })
    };
    for d in decks {
        if !rows.iter().any(|(r, _)| r.deck == d.deck) {
            continue;
        }
        let deals: u64 = d.classes.iter().map(|c| c.deals).sum();
        let (q, qs) = cell(&d.deck, "quick");
        let (f, fs) = cell(&d.deck, "default");
        let source = if d.census { "census" } else { "catalogue" };
        let _ = writeln!(
            s,
            "| {} | {} | {} ({}) | {} | {} | {} | {} | {} |",
            d.deck,
            d.cards,
            d.classes.len(),
            deals,
            source,
            q,
            qs,
            f,
            fs
        );
    }
    for d in decks {
        if !rows.iter().any(|(r, _)| r.deck == d.deck) || d.cards < 30 {
            continue;
        }
        let _ = writeln!(s, "\n## {} ({} cards; {})\n", d.deck, d.cards, d.source);
        let _ = writeln!(
            s,
            "| class (cycle id) | period | deals | --quick | default |\n|---|---|---|---|---|"
        );
        for c in &d.classes {
            let by = |scope: &str| {
                rows.iter()
                    .find(|(r, _)| r.deck == d.deck && r.scope == scope)
                    .map_or("–".to_string(), |(r, _)| {
                        r.found
                            .iter()
                            .find(|f| f.cycle_id == c.cycle_id)
                            .map_or("no".to_string(), |f| {
                                format!("{} ({})", f.found_by, f.census)
                            })
                    })
            };
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} | {} |",
                c.cycle_id,
                c.period,
                c.deals,
                by("quick"),
                by("default")
            );
        }
    }
    s.push('\n');
    s.push_str(&run.text_block());
    s
}
