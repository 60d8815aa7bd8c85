//! The Beat It or Eat It census as a result file: `DIR/beat-it-N.json`, the census with its run
//! (so `ansatz reproduce` reruns the command and compares everything else).

use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use super::RunError;
use super::write;
use crate::beatit::census::Census;
use crate::provenance::Run;

/// The census as JSON (without its run).
pub fn census_json(c: &Census) -> Json {
    let results: Vec<Json> = c
        .games
        .iter()
        .map(|g| json!({"position": g.position, "winner": g.winner, "plies": g.plies}))
        .collect();
    json!({
        "suit": c.suit, "layouts": c.layouts, "games": c.games.len(),
        "leader_wins": c.leader_wins, "follower_wins": c.follower_wins, "draws": c.draws,
        "positions": {
            "slots": c.table.slots, "valid": c.table.positions, "wins": c.table.wins,
            "losses": c.table.losses, "draws": c.table.draws, "max_plies": c.table.max_plies,
        },
        "results": results,
    })
}

/// Writes `DIR/beat-it-N.json`: `v` (the census as JSON) with its run.
pub fn write_census(dir: &Path, c: &Census, v: &Json, seconds: f64) -> Result<PathBuf, RunError> {
    let path = dir.join(format!("beat-it-{}.json", c.suit));
    let command = format!(
        "ansatz beat-it census --suit {} --out {}",
        c.suit,
        dir.display()
    );
    let mut file = v.clone();
    file["run"] = Run::here(command, 1, seconds).to_json();
    let mut text = serde_json::to_string_pretty(&file).map_err(RunError::failed)?;
    text.push('\n');
    write(&path, text.as_bytes())?;
    Ok(path)
}
