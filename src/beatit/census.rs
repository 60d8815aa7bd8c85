//! The census of a suit length: every symmetric layout (player 1 holds a set of ranks in hearts
//! and the rest in spades; player 2 the mirror), with each player leading, valued by the dense
//! table.

use super::cards::GameSetup;
use super::dense::{Dense, DenseError, DenseStats};
use super::state::State;
use super::{Value, Values};

/// One game of the census: the layout with its leader to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CensusGame {
    /// `HAND1/HAND2 (leader)`.
    pub position: String,
    pub leader: u8,
    /// The winner with perfect play, `None` for a draw.
    pub winner: Option<u8>,
    /// Plies to the end under perfect play, `None` for a draw.
    pub plies: Option<u32>,
}

/// The census of one suit length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    pub suit: usize,
    pub layouts: u64,
    pub games: Vec<CensusGame>,
    pub leader_wins: u64,
    pub follower_wins: u64,
    pub draws: u64,
    /// Counts over every position of the suit length, not only the layouts.
    pub table: DenseStats,
}

/// Solves suit length `n` and values each of its `2^n` layouts with each leader.
pub fn census(n: usize, progress: &mut dyn FnMut(u64, u64)) -> Result<Census, DenseError> {
    let dense = Dense::solve(n, progress)?;
    Ok(census_from(&dense))
}

/// The census read from a solved table.
pub fn census_from(dense: &Dense) -> Census {
    let n = dense.n();
    let mut games = Vec::new();
    let (mut lw, mut fw, mut dr) = (0, 0, 0);
    for set in 0..1u32 << n {
        for leader in [1u8, 2] {
            let g = GameSetup::layout(n, set, leader);
            let solved = dense
                .solved(&State::from_setup(&g))
                .expect("layouts are valid positions");
            let winner = match solved.value {
                Value::Win => {
                    lw += 1;
                    Some(leader)
                }
                Value::Loss => {
                    fw += 1;
                    Some(3 - leader)
                }
                Value::Draw => {
                    dr += 1;
                    None
                }
            };
            games.push(CensusGame {
                position: g.position_string(),
                leader,
                winner,
                plies: solved.plies,
            });
        }
    }
    Census {
        suit: n,
        layouts: 1 << n,
        games,
        leader_wins: lw,
        follower_wins: fw,
        draws: dr,
        table: dense.stats(),
    }
}
