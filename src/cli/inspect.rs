//! `ansatz inspect`: a piece library's header, its counts by length, face counts and class, and
//! (with `--json`) every piece.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::{Value, json};

use rayon::prelude::*;

use super::output::{BadInput, Out};
use crate::ansatz::piece::accumulation;
use crate::ansatz::template::Template;
use crate::card::symbol;
use crate::library::{self, ClassInfo, Library, PieceRecord};
use crate::notation::{Dash, Notation, parse_hand};

/// Show what a piece library holds.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz inspect pieces/paper-2024.bin
  ansatz inspect pieces/found.bin --class 3
  ansatz inspect pieces/found.bin --contains A----AA --json

Text output: the header, then counts by length, by face counts (the template's face kinds), by
accumulation and by class. JSON: header, pieces (sequence, class, length, faces {Q, K, A},
numbers, period, accumulation) and classes (id, representative, size). --class and --contains
select pieces; the classes listed are theirs.

Accumulation: the most cards the other hand (player 2's `J-` in the jack template) holds at the
start of a trick of the template game's cycle. The 2024 long piece reaches 22, and only such an
*accumulator* has yet led backward play to a balanced deal; ordinary pieces stay near 12.")]
pub struct Args {
    /// The library file.
    lib: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Only the pieces of this class.
    #[arg(long, value_name = "N")]
    class: Option<u32>,
    /// Only the pieces that contain this run of cards (dash notation).
    #[arg(long, value_name = "SEQ", allow_hyphen_values = true)]
    contains: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let lib = library::read(&args.lib).map_err(|e| BadInput(e.to_string()))?;
    let needle = match &args.contains {
        Some(s) => Some(
            parse_hand(s, Notation::Dash)
                .map_err(|e| BadInput(format!("bad --contains {s:?}: {e}")))?,
        ),
        None => None,
    };
    let classes = lib.classes();
    let template = Template::from_info(&lib.header.template).map_err(|e| {
        BadInput(format!(
            "{}: the library's template does not parse: {e}",
            args.lib.display()
        ))
    })?;
    let selected: Vec<&PieceRecord> = lib
        .pieces
        .iter()
        .filter(|p| args.class.is_none_or(|c| p.class == c))
        .filter(|p| {
            needle.as_ref().is_none_or(|n| {
                n.is_empty() || p.sequence.windows(n.len()).any(|w| w == n.as_slice())
            })
        })
        .collect();
    // One template game per piece, in parallel: cheap next to reading a large library.
    let accumulation: Vec<Option<u8>> = selected
        .par_iter()
        .map(|p| accumulation(&template, &p.sequence))
        .collect();
    let mut shown: Vec<&ClassInfo> = classes
        .iter()
        .filter(|c| selected.iter().any(|p| p.class == c.id))
        .collect();
    shown.sort_by_key(|c| c.id);
    let mut out = Out::new();
    if args.json {
        out.json(&json!({
            "header": header_json(&lib),
            "pieces": selected
                .iter()
                .zip(&accumulation)
                .map(|(p, a)| piece_json(p, *a))
                .collect::<Vec<_>>(),
            "classes": shown.iter().map(|c| json!({
                "id": c.id,
                "representative": Dash(&c.representative).to_string(),
                "size": c.size,
            })).collect::<Vec<_>>(),
        }))?;
        return Ok(ExitCode::SUCCESS);
    }
    let h = &lib.header;
    writeln!(out, "library      {}", args.lib.display())?;
    writeln!(
        out,
        "template     {} ({})",
        h.template.game, h.template.name
    )?;
    writeln!(out, "faces        {}", h.template.faces)?;
    let e = &h.enumeration;
    writeln!(
        out,
        "enumeration  {}: lengths {}..={}, at most {} faces, {} per kind, {} candidates",
        e.method, e.min_len, e.max_len, e.max_faces, e.max_per_kind, e.candidates
    )?;
    writeln!(out, "command      {}", h.command)?;
    writeln!(out, "version      ansatz {}", h.ansatz_version)?;
    writeln!(
        out,
        "pieces       {} of {} ({} classes)",
        selected.len(),
        lib.pieces.len(),
        classes.len()
    )?;
    let mut by_len: BTreeMap<u32, usize> = BTreeMap::new();
    // Face counts in the template's face kinds (Q K A for the jack template).
    let kinds: Vec<usize> = "JQKA"
        .chars()
        .enumerate()
        .filter(|(_, c)| h.template.faces.contains(*c))
        .map(|(i, _)| i + 1)
        .collect();
    let mut by_faces: BTreeMap<Vec<u32>, usize> = BTreeMap::new();
    for p in &selected {
        *by_len.entry(p.length).or_default() += 1;
        let key = kinds.iter().map(|&k| p.counts[k]).collect();
        *by_faces.entry(key).or_default() += 1;
    }
    writeln!(out, "\nby length")?;
    for (len, n) in &by_len {
        writeln!(out, "  {len:>3}  {n}")?;
    }
    let names: Vec<String> = kinds.iter().map(|&k| symbol(k as u8).to_string()).collect();
    writeln!(out, "\nby face counts ({})", names.join(" "))?;
    for (f, n) in &by_faces {
        let counts: Vec<String> = f.iter().map(|c| c.to_string()).collect();
        writeln!(out, "  {}  {n}", counts.join(" "))?;
    }
    let mut by_acc: BTreeMap<Option<u8>, usize> = BTreeMap::new();
    for a in &accumulation {
        *by_acc.entry(*a).or_default() += 1;
    }
    writeln!(
        out,
        "\nby accumulation (most cards of the other hand on the template game's cycle)"
    )?;
    for (a, n) in by_acc.iter().rev() {
        match a {
            Some(a) => writeln!(out, "  {a:>3}  {n}")?,
            None => writeln!(out, "  ends {n} (not a piece of this template)")?,
        }
    }
    writeln!(out, "\nby class (id, size, representative)")?;
    for c in &shown {
        writeln!(
            out,
            "  {:>5}  {:>5}  {}",
            c.id,
            c.size,
            Dash(&c.representative)
        )?;
    }
    if args.class.is_some() || needle.is_some() {
        writeln!(out, "\npieces (sequence, class, period, accumulation)")?;
        for (p, a) in selected.iter().zip(&accumulation) {
            let a = a.map_or("-".to_string(), |a| a.to_string());
            writeln!(out, "  {}  {}  {}  {a}", p.dash(), p.class, p.period)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn header_json(lib: &Library) -> Value {
    let h = &lib.header;
    json!({
        "format_version": library::VERSION,
        "template": {
            "name": h.template.name,
            "position": h.template.position,
            "filter": h.template.filter,
            "faces": h.template.faces,
            "game": h.template.game,
        },
        "enumeration": {
            "method": h.enumeration.method,
            "min_len": h.enumeration.min_len,
            "max_len": h.enumeration.max_len,
            "max_faces": h.enumeration.max_faces,
            "max_per_kind": h.enumeration.max_per_kind,
            "candidates": h.enumeration.candidates,
        },
        "command": h.command,
        "ansatz_version": h.ansatz_version,
    })
}

fn piece_json(p: &PieceRecord, accumulation: Option<u8>) -> Value {
    json!({
        "sequence": p.dash(),
        "class": p.class,
        "length": p.length,
        "faces": {"J": p.counts[1], "Q": p.counts[2], "K": p.counts[3], "A": p.counts[4]},
        "numbers": p.counts[0],
        "preperiod": p.preperiod,
        "period": p.period,
        "accumulation": accumulation,
    })
}
