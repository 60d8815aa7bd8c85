//! Fully chosen candidates of the enumeration waiting for the 64-card lanes: each is played in a
//! batch to its end or a trick limit, and only the ones still going are finished by the exact
//! cycle engine.

use crate::card::Card;
use crate::engine::cycle;
use crate::engine::fast::Small;
use crate::engine::lanes64::{self, Deal64, Lanes64};
use crate::search::lanes::Finish;

/// Candidates a batch holds: enough that the eight lanes rarely wait.
const BATCH: usize = 1024;

/// Tricks the lanes play before a game goes to the cycle engine. Terminating template games are
/// far shorter (the tail halves every ~20 tricks), and a cycling candidate wastes only these
/// tricks, at a fifth of their cost in the scalar engine.
const LIMIT: u32 = 256;

/// The batch: positions at the trick boundary after TEST was closed, and each candidate's TEST.
pub(super) struct Batch {
    games: Vec<Deal64>,
    /// The TESTs, end to end; `ends[i]` is where candidate `i`'s ends.
    paths: Vec<Card>,
    ends: Vec<usize>,
    lanes: Lanes64,
    hits: Vec<usize>,
}

impl Batch {
    /// A batch when this processor has the lanes, else `None` (candidates are then finished one
    /// by one).
    pub(super) fn new() -> Option<Batch> {
        lanes64::available().then(|| Batch {
            games: Vec::with_capacity(BATCH),
            paths: Vec::with_capacity(BATCH * 32),
            ends: Vec::with_capacity(BATCH),
            lanes: Lanes64::default(),
            hits: Vec::new(),
        })
    }

    /// Adds a candidate; a full batch is played at once, its pieces appended to `found`.
    #[inline]
    pub(super) fn push(&mut self, game: Deal64, test: &[Card], found: &mut Vec<Vec<Card>>) {
        self.games.push(game);
        self.paths.extend_from_slice(test);
        self.ends.push(self.paths.len());
        if self.games.len() == BATCH {
            self.flush(found);
        }
    }

    /// Plays every waiting candidate and appends the pieces (games that never end) to `found`,
    /// in the order they were pushed.
    pub(super) fn flush(&mut self, found: &mut Vec<Vec<Card>>) {
        let Batch {
            games,
            paths,
            ends,
            lanes,
            hits,
        } = self;
        hits.clear();
        lanes.run(games, LIMIT, |i, f| {
            if f == Finish::TooLong {
                hits.push(i);
            }
        });
        hits.sort_unstable();
        for &i in hits.iter() {
            let g = &games[i];
            let state = Small::from_hands(&g.hand(0), &g.hand(1), g.next as u8);
            if !cycle::terminates(&state) {
                let start = if i == 0 { 0 } else { ends[i - 1] };
                found.push(paths[start..ends[i]].to_vec());
            }
        }
        games.clear();
        paths.clear();
        ends.clear();
    }
}
