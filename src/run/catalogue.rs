//! The catalogue's result files: `OUT/balanced-cycles.jsonl` (a summary line, one line per cycle
//! with all its deals, the run line) and `OUT/balanced-cycles.txt` (readable, the run last).

use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};

use super::RunError;
use super::write;
use crate::assemble::catalogue::Catalogue;
use crate::provenance::Run;

/// Writes the catalogue's files to `out`, with `command` as the command that rebuilds them;
/// returns its summary and its readable text (without the run).
pub fn write_catalogue(
    cat: &Catalogue,
    out: &Path,
    command: String,
    seconds: f64,
) -> Result<(Value, Vec<u8>), RunError> {
    let summary = json!({
        "files": cat.files.len(),
        "balanced_cycles": cat.cycles(),
        "balanced_cycles_with_mirrors": cat.cycles_with_mirrors(),
        "balanced_deals": cat.deals(),
        "balanced_deals_with_mirrors": cat.deals_with_mirrors(),
    });
    let mut jsonl = json!({ "summary": summary }).to_string();
    jsonl.push('\n');
    for e in &cat.entries {
        jsonl.push_str(&json!({ "cycle": e }).to_string());
        jsonl.push('\n');
    }
    let run = Run::here(command, 1, seconds);
    jsonl.push_str(&run.line());
    jsonl.push('\n');
    std::fs::create_dir_all(out)
        .map_err(|e| RunError::failed(format!("creating {}: {e}", out.display())))?;
    write(&out.join("balanced-cycles.jsonl"), jsonl.as_bytes())?;
    let mut text = Vec::new();
    print_text(&mut text, cat).map_err(RunError::failed)?;
    let mut file = text.clone();
    file.extend_from_slice(run.text_block().as_bytes());
    write(&out.join("balanced-cycles.txt"), &file)?;
    Ok((summary, text))
}

/// The readable catalogue: the table of cycles, then each cycle with its deals.
pub fn print_text(out: &mut dyn Write, cat: &Catalogue) -> std::io::Result<()> {
    writeln!(
        out,
        "# ansatz catalogue {}: balanced cycles of {} result files, every deal replayed",
        env!("CARGO_PKG_VERSION"),
        cat.files.len()
    )?;
    writeln!(
        out,
        "balanced cycles   {} ({} counting mirror images apart)",
        cat.cycles(),
        cat.cycles_with_mirrors()
    )?;
    writeln!(
        out,
        "balanced deals    {} ({} with their mirror images)\n",
        cat.deals(),
        cat.deals_with_mirrors()
    )?;
    writeln!(out, "  #  period  deals  closure  cycle id")?;
    for (i, e) in cat.entries.iter().enumerate() {
        writeln!(
            out,
            "{:>3}  {:>6}  {:>5}  {:>7}  {}",
            i + 1,
            e.period,
            e.balanced.len(),
            e.closure_size,
            e.cycle_id
        )?;
    }
    for (i, e) in cat.entries.iter().enumerate() {
        writeln!(out, "\ncycle {}  {}", i + 1, e.cycle_id)?;
        writeln!(out, "  mirror   {}", e.mirror_cycle_id)?;
        writeln!(
            out,
            "  period {} tricks; closure {} positions",
            e.period, e.closure_size
        )?;
        writeln!(out, "  deck     {}", e.deck)?;
        writeln!(out, "  found by {}", e.command)?;
        writeln!(out, "  listed in {}", e.files.join(", "))?;
        writeln!(out, "  balanced deals: {}", e.balanced.len())?;
        for d in &e.balanced {
            writeln!(out, "    {d}")?;
        }
    }
    Ok(())
}
