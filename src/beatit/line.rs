//! Best moves and principal lines from any solved table: the winner takes the fastest win, the
//! loser the longest defence, a drawn side a move that keeps the draw (the first, in move order,
//! among equals).

use std::collections::HashSet;

use super::state::{Move, State, Step};
use super::{Solved, Value, Values};

/// What a move gives the player who makes it, or `None` when the table lacks the child.
pub fn move_outcome(t: &dyn Values, s: State, m: Move) -> Option<Solved> {
    match s.step(m) {
        Step::Win => Some(Solved {
            value: Value::Win,
            plies: Some(1),
        }),
        Step::Next { state, flip } => {
            let c = t.solved(&state)?;
            Some(Solved {
                value: if flip { c.value.flip() } else { c.value },
                plies: c.plies.map(|p| p + 1),
            })
        }
    }
}

/// The best move from `s` and what it gives the mover (the value of `s`).
pub fn best_move(t: &dyn Values, s: State) -> Option<(Move, Solved)> {
    let mut best: Option<(Move, Solved)> = None;
    for m in s.moves() {
        let o = move_outcome(t, s, m)?;
        let better = match &best {
            None => true,
            Some((_, b)) => rank(o) > rank(*b),
        };
        if better {
            best = Some((m, o));
        }
    }
    best
}

/// Orders outcomes for the mover: wins (sooner better) over draws over losses (later better).
fn rank(o: Solved) -> (u8, i64) {
    let p = o.plies.unwrap_or(0) as i64;
    match o.value {
        Value::Win => (2, -p),
        Value::Draw => (1, 0),
        Value::Loss => (0, p),
    }
}

/// The principal line from `s`: best moves to the end of the game, or, in a drawn line, until a
/// position repeats or `cap` plies.
pub fn principal_line(t: &dyn Values, s: State, cap: usize) -> Vec<Move> {
    let mut line = Vec::new();
    let mut seen = HashSet::new();
    let mut s = s;
    while line.len() < cap && seen.insert(s) {
        let Some((m, _)) = best_move(t, s) else {
            break;
        };
        line.push(m);
        match s.step(m) {
            Step::Win => break,
            Step::Next { state, .. } => s = state,
        }
    }
    line
}

/// The move names of a line (`Ks`, `eat`), replaying it from `s`.
pub fn line_names(s: State, line: &[Move]) -> Vec<String> {
    let mut s = s;
    let mut names = Vec::new();
    for &m in line {
        names.push(s.move_name(m));
        if let Step::Next { state, .. } = s.step(m) {
            s = state;
        }
    }
    names
}
