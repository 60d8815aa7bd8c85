//! The long games `extend` finds, as result files: `DIR/long-game-Cc-Tt-KEY.json` (the game with
//! its run) and a readable `.txt` beside it.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::RunError;
use super::write;
use crate::backward::extend::{Game, RECORD_CARDS, RECORD_TRICKS};

pub fn game_json(g: &Game) -> Value {
    json!({
        "position": g.position.to_string(),
        "winner": g.winner + 1,
        "tricks": g.tricks,
        "cards": g.cards,
    })
}

/// Writes a long game as one JSON line and a text summary, naming the command.
pub fn save_record(dir: &Path, g: &Game) -> Result<PathBuf, RunError> {
    let key = g.position.pack().unwrap_or(0);
    let stem = format!("long-game-{}c-{}t-{key:032x}", g.cards, g.tricks);
    let mut v = game_json(g);
    v["run"] = crate::provenance::Run::here(
        crate::provenance::this_command(),
        rayon::current_num_threads(),
        0.0,
    )
    .to_json();
    let json_path = dir.join(format!("{stem}.json"));
    write(&json_path, format!("{v}\n").as_bytes())?;
    let text = format!(
        "A Beggar-My-Neighbour game (the record is {RECORD_CARDS} cards, {RECORD_TRICKS} tricks)\n\
         position  {}\nwinner    player {}\ntricks    {}\ncards     {}\nfound by  {} (ansatz {})\n",
        g.position,
        g.winner + 1,
        g.tricks,
        g.cards,
        crate::provenance::this_command(),
        env!("CARGO_PKG_VERSION")
    );
    write(&dir.join(format!("{stem}.txt")), text.as_bytes())?;
    Ok(json_path)
}
