//! Statistics of many games: totals, wins per seat, length histograms, the K longest games and the
//! cycles found, with a commutative merge (any split of the work gives the same result), plus the
//! derived figures: mean, median and the half-life of the exponential tail.

use serde::{Deserialize, Serialize};

/// A game remembered by its deal index (the deal itself is a pure function of seed and index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    pub index: u64,
    pub cards: u64,
    pub tricks: u64,
}

/// A deal that never ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundCycle {
    pub index: u64,
    pub preperiod: u64,
    pub period: u64,
    /// Cards and tricks played until a position first repeats.
    pub cards: u64,
    pub tricks: u64,
    pub cycle_cards: u64,
    pub cycle_id: String,
}

/// Totals over games. `cards`/`tricks` sums, means, medians and histograms count terminating games
/// only (a cycle has no length); cycles are listed apart.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStats {
    pub games: u64,
    pub terminating: u64,
    pub cards_sum: u64,
    pub tricks_sum: u64,
    pub wins: Vec<u64>,
    /// `hist_cards[c]` = terminating games of `c` cards.
    pub hist_cards: Vec<u64>,
    pub hist_tricks: Vec<u64>,
    /// At most `top` games, longest first (cards, then tricks, then the lower index).
    pub longest_by_cards: Vec<Ranked>,
    /// At most `top` games, longest first (tricks, then cards, then the lower index).
    pub longest_by_tricks: Vec<Ranked>,
    pub top: usize,
    /// Sorted by index.
    pub cycles: Vec<FoundCycle>,
}

fn by_cards(r: &Ranked) -> (std::cmp::Reverse<u64>, std::cmp::Reverse<u64>, u64) {
    (
        std::cmp::Reverse(r.cards),
        std::cmp::Reverse(r.tricks),
        r.index,
    )
}

fn by_tricks(r: &Ranked) -> (std::cmp::Reverse<u64>, std::cmp::Reverse<u64>, u64) {
    (
        std::cmp::Reverse(r.tricks),
        std::cmp::Reverse(r.cards),
        r.index,
    )
}

/// Inserts `r` into a list kept sorted by `key` and at most `top` long.
fn offer<K: Ord>(list: &mut Vec<Ranked>, top: usize, r: Ranked, key: impl Fn(&Ranked) -> K) {
    if top == 0 {
        return;
    }
    if list.len() == top && key(&r) >= key(list.last().unwrap()) {
        return;
    }
    let at = list.partition_point(|x| key(x) < key(&r));
    list.insert(at, r);
    list.truncate(top);
}

fn bump(hist: &mut Vec<u64>, at: u64) {
    let at = at as usize;
    if at >= hist.len() {
        hist.resize(at + 1, 0);
    }
    hist[at] += 1;
}

impl GameStats {
    pub fn new(players: usize, top: usize) -> Self {
        GameStats {
            wins: vec![0; players],
            // Room for every length a standard game usually reaches, so the hot loop rarely grows it.
            hist_cards: vec![0; 4096],
            hist_tricks: vec![0; 1024],
            top,
            ..Default::default()
        }
    }

    /// Adds a terminating game.
    #[inline]
    pub fn add_game(&mut self, index: u64, winner: u8, cards: u64, tricks: u64) {
        self.games += 1;
        self.terminating += 1;
        self.cards_sum += cards;
        self.tricks_sum += tricks;
        self.wins[winner as usize] += 1;
        bump(&mut self.hist_cards, cards);
        bump(&mut self.hist_tricks, tricks);
        let r = Ranked {
            index,
            cards,
            tricks,
        };
        offer(&mut self.longest_by_cards, self.top, r, by_cards);
        offer(&mut self.longest_by_tricks, self.top, r, by_tricks);
    }

    pub fn add_cycle(&mut self, c: FoundCycle) {
        self.games += 1;
        let at = self.cycles.partition_point(|x| x.index < c.index);
        self.cycles.insert(at, c);
    }

    pub fn merge(&mut self, o: &GameStats) {
        self.games += o.games;
        self.terminating += o.terminating;
        self.cards_sum += o.cards_sum;
        self.tricks_sum += o.tricks_sum;
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), 0);
        }
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        for (mine, theirs) in [
            (&mut self.hist_cards, &o.hist_cards),
            (&mut self.hist_tricks, &o.hist_tricks),
        ] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.top = self.top.max(o.top);
        for &r in &o.longest_by_cards {
            offer(&mut self.longest_by_cards, self.top, r, by_cards);
        }
        for &r in &o.longest_by_tricks {
            offer(&mut self.longest_by_tricks, self.top, r, by_tricks);
        }
        for c in &o.cycles {
            self.add_cycle(c.clone());
            self.games -= 1; // counted in `o.games` already
        }
    }

    /// Trailing zeros of the histograms dropped: the stored (checkpoint) form does not depend on the
    /// preallocated room.
    pub fn trimmed(mut self) -> Self {
        for h in [&mut self.hist_cards, &mut self.hist_tricks] {
            while h.last() == Some(&0) {
                h.pop();
            }
        }
        self
    }

    pub fn mean_cards(&self) -> f64 {
        self.cards_sum as f64 / self.terminating.max(1) as f64
    }

    pub fn mean_tricks(&self) -> f64 {
        self.tricks_sum as f64 / self.terminating.max(1) as f64
    }

    pub fn median_cards(&self) -> Option<u64> {
        median(&self.hist_cards)
    }

    pub fn median_tricks(&self) -> Option<u64> {
        median(&self.hist_tricks)
    }

    /// The half-life of the tail of the tricks histogram: see [`half_life`].
    pub fn half_life_tricks(&self) -> Option<f64> {
        half_life(&self.hist_tricks)
    }

    /// Whether these totals (read from a file: a shard) are what a run of `players` seats that
    /// keeps `top` longest games reports, over at most `games` of the deals `0..of`: a win count
    /// per seat adding up to the terminating games, those and the cycles to the games,
    /// histograms adding up to the terminating games and weighing up to the card and trick sums,
    /// and deal indices below `of`. Every sum is checked, so totals that pass merge without
    /// overflow as long as the parts' games add up to at most `of`.
    pub fn check(&self, players: usize, top: usize, games: u64, of: u64) -> Result<(), String> {
        if self.wins.len() != players {
            return Err(format!(
                "{} win counts for {players} players",
                self.wins.len()
            ));
        }
        let played = checked_sum(self.wins.iter().copied())
            .filter(|&w| w == self.terminating)
            .and_then(|w| w.checked_add(self.cycles.len() as u64));
        if played != Some(self.games) || self.games > games {
            return Err(format!(
                "wins and cycles do not add up to the {} games (of at most {games})",
                self.games
            ));
        }
        for (hist, sum, what) in [
            (&self.hist_cards, self.cards_sum, "cards"),
            (&self.hist_tricks, self.tricks_sum, "tricks"),
        ] {
            let count = checked_sum(hist.iter().copied());
            let weight = hist.iter().enumerate().try_fold(0u64, |acc, (v, &n)| {
                n.checked_mul(v as u64).and_then(|x| acc.checked_add(x))
            });
            if count != Some(self.terminating) || weight != Some(sum) {
                return Err(format!(
                    "the {what} histogram does not add up to the terminating games and their {what}"
                ));
            }
        }
        if self.top != top
            || self.longest_by_cards.len() > top
            || self.longest_by_tricks.len() > top
        {
            return Err(format!(
                "longest games kept for a top of {} (the run keeps {top})",
                self.top
            ));
        }
        let indices = (self.longest_by_cards.iter().chain(&self.longest_by_tricks))
            .map(|r| r.index)
            .chain(self.cycles.iter().map(|c| c.index));
        if let Some(i) = indices.into_iter().find(|&i| i >= of) {
            return Err(format!("deal {i} past the run's {of} deals"));
        }
        Ok(())
    }
}

/// The sum, or `None` where it overflows.
pub(crate) fn checked_sum(xs: impl IntoIterator<Item = u64>) -> Option<u64> {
    xs.into_iter().try_fold(0u64, u64::checked_add)
}

/// The lower median of a histogram.
pub fn median(hist: &[u64]) -> Option<u64> {
    let total: u64 = checked_sum(hist.iter().copied())?;
    if total == 0 {
        return None;
    }
    let mut seen = 0u64;
    for (v, &n) in hist.iter().enumerate() {
        seen += n;
        // `2 * seen >= total`, which would overflow past 2^63 games.
        if seen >= total - seen {
            return Some(v as u64);
        }
    }
    None
}

/// Fewest games a histogram bin needs to enter the tail fit: below it the log of a count is noise.
const FIT_MIN_COUNT: u64 = 5;

/// The half-life of an exponential tail: a least-squares fit of `ln(count)` against the length over
/// the bins from the median on that hold at least `FIT_MIN_COUNT` games, each bin weighted by its
/// count (the variance of `ln(count)` is about `1/count`). `ln 2 / -slope`; `None` without a
/// decaying tail (too few games).
pub fn half_life(hist: &[u64]) -> Option<f64> {
    let from = median(hist)? as usize;
    let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut bins = 0;
    for (x, &n) in hist.iter().enumerate().skip(from) {
        if n < FIT_MIN_COUNT {
            continue;
        }
        let (w, x, y) = (n as f64, x as f64, (n as f64).ln());
        sw += w;
        sx += w * x;
        sy += w * y;
        sxx += w * x * x;
        sxy += w * x * y;
        bins += 1;
    }
    if bins < 3 {
        return None;
    }
    let slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
    (slope < 0.0).then(|| std::f64::consts::LN_2 / -slope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_life_of_an_exact_exponential() {
        // count(t) = 2^20 * 2^(-t/7): half-life 7.
        let hist: Vec<u64> = (0..100)
            .map(|t| (1048576.0 * 0.5f64.powf(t as f64 / 7.0)).round() as u64)
            .collect();
        let h = half_life(&hist).unwrap();
        assert!((h - 7.0).abs() < 0.05, "{h}");
    }

    #[test]
    fn merge_is_order_free() {
        let mut a = GameStats::new(2, 2);
        let mut b = GameStats::new(2, 2);
        a.add_game(0, 0, 10, 2);
        a.add_game(1, 1, 30, 5);
        b.add_game(2, 1, 30, 6);
        b.add_game(3, 0, 20, 9);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab.clone().trimmed(), ba.trimmed());
        let idx: Vec<u64> = ab.longest_by_cards.iter().map(|r| r.index).collect();
        assert_eq!(idx, vec![2, 1]);
        let idx: Vec<u64> = ab.longest_by_tricks.iter().map(|r| r.index).collect();
        assert_eq!(idx, vec![3, 2]);
        assert_eq!(median(&ab.hist_cards), Some(20));
    }

    /// Totals of three games of two seats (one cycle), as a run of deals `0..3` keeps them.
    fn three_games() -> GameStats {
        let mut s = GameStats::new(2, 2);
        s.add_game(0, 0, 10, 2);
        s.add_game(2, 1, 30, 5);
        s.add_cycle(FoundCycle {
            index: 1,
            preperiod: 0,
            period: 4,
            cards: 40,
            tricks: 8,
            cycle_cards: 20,
            cycle_id: "J-/-J- (1)".into(),
        });
        s.trimmed()
    }

    #[test]
    fn check_passes_what_a_run_reports_and_names_what_no_run_could() {
        assert_eq!(three_games().check(2, 2, 3, 3), Ok(()));
        type Damage = fn(&mut GameStats);
        let broken: [(&str, Damage); 9] = [
            ("win counts", |s| s.wins.push(0)),
            ("add up", |s| s.wins[0] = u64::MAX),
            ("add up", |s| s.games = 4),
            ("cards histogram", |s| s.hist_cards[10] = u64::MAX),
            ("cards histogram", |s| s.cards_sum += 1),
            ("tricks histogram", |s| s.tricks_sum = 0),
            ("top of 3", |s| s.top = 3),
            ("past the run", |s| s.longest_by_tricks[0].index = 3),
            ("past the run", |s| s.cycles[0].index = u64::MAX),
        ];
        for (what, damage) in broken {
            let mut s = three_games();
            damage(&mut s);
            let e = s.check(2, 2, 3, 3).expect_err(what);
            assert!(e.contains(what), "{what}: {e}");
        }
        // Fewer games left for this part than it holds.
        assert!(three_games().check(2, 2, 2, 3).is_err());
    }

    /// The median past 2^63 games (a forged shard's histogram once overflowed `2 * seen`).
    #[test]
    fn median_of_a_histogram_past_half_of_u64() {
        assert_eq!(median(&[u64::MAX / 2 + 1, 0, u64::MAX / 2]), Some(0));
        assert_eq!(median(&[u64::MAX / 2, 0, u64::MAX / 2 + 1]), Some(2));
        assert_eq!(median(&[u64::MAX / 2 - 1, 0, u64::MAX / 2 + 1]), Some(2));
        assert_eq!(median(&[u64::MAX, 1]), None);
    }
}
