//! Exact enumeration of the TEST sequences that make a template game never end, with prefix sharing.
//!
//! The template game is deterministic and depends on a TEST card only once that card is played, so
//! the search is a depth-first walk over TEST cards: a `Game` is played until the next TEST card
//! is needed, copied (it is `Copy`, on the stack), and each child chooses that card (number or a
//! face kind, within the limits) or ends TEST there. Ending TEST gives one concrete candidate, whose
//! game is finished with exact cycle detection (`engine::cycle::terminates`). A prefix whose game
//! ends before TEST is used up rules out every candidate that starts with it.
//!
//! The game that can wait for its next TEST card is in `lazy.rs`.
//!
//! [`naive_pieces`] plays every candidate from scratch; it is the checker of [`Enumerator`].

use crate::card::{Card, KINDS, NUMBER};
use crate::engine::cycle;

use super::lazy::{Game, Ring, Stop};
use super::template::Template;
use crate::engine::lanes::Batch;

/// What to enumerate: every sequence of `min_len..=max_len` cards over number cards and `kinds`,
/// with at most `max_faces` face cards and at most `max_per_kind` of each face kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub min_len: usize,
    pub max_len: usize,
    pub max_faces: usize,
    pub max_per_kind: usize,
    /// Face kinds by penalty, ascending.
    pub kinds: Vec<Card>,
    /// A fill: TEST holds exactly these cards (by kind, number cards included), in every order,
    /// so every candidate has their total length. The limits above still apply; a fill normally
    /// sets them to what it holds (see [`Params::fill`]).
    pub exact: Option<[u8; KINDS]>,
}

impl Params {
    /// Every arrangement of exactly the cards `counts` (by kind): the multiset permutations,
    /// e.g. what a deck leaves for TEST once a template's own cards are taken out.
    pub fn fill(counts: [u8; KINDS]) -> Params {
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        Params {
            min_len: total,
            max_len: total,
            max_faces: total - counts[NUMBER as usize] as usize,
            max_per_kind: counts[1..].iter().copied().max().unwrap_or(0) as usize,
            kinds: (1..KINDS as Card)
                .filter(|&k| counts[k as usize] > 0)
                .collect(),
            exact: Some(counts),
        }
    }
}

/// A candidate space too large for the engines (more than 64 cards in the template game).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("template games would hold {0} cards; at most 64 are supported (lower --max-len)")]
pub struct TooLarge(pub usize);

/// The candidate space of one template, split into ranges.
///
/// A range is a TEST prefix with length bounds: the candidates that start with the prefix and
/// whose length is in `lo..=hi`. The split is adaptive and deterministic: starting from the empty
/// prefix, a prefix whose subtree holds more than `total / wanted` candidates is split into itself
/// (a one-candidate range, when long enough) and one subtree per next card, in alphabet order
/// (number, then the faces by penalty). Ranges thus hold similar numbers of candidates, however
/// lopsided the tree (the all-number prefixes hold most of it), and a checkpoint can name finished
/// ranges by index.
pub struct Enumerator {
    template: Template,
    params: Params,
    alphabet: Vec<Card>,
    ranges: Vec<Range>,
    th: usize,
    root: Game,
    root_stop: Stop,
}

/// One range: the candidates that start with `prefix`, with a length in `lo..=hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    pub prefix: Vec<Card>,
    pub lo: usize,
    pub hi: usize,
    pub candidates: u64,
}

/// The default number of ranges asked for: enough for threads to balance and for a `kill -9`
/// to lose little, few enough that the checkpoint stays small.
pub const DEFAULT_RANGES: u64 = 4096;

impl Enumerator {
    /// `wanted`: about how many ranges to split the space into (at least 1).
    pub fn new(template: &Template, params: &Params, wanted: u64) -> Result<Enumerator, TooLarge> {
        let total = template.fixed_cards() + params.max_len;
        if total > 64 {
            return Err(TooLarge(total));
        }
        let th = template.test_hand as usize;
        let mut hand = template.before.clone();
        hand.extend_from_slice(&template.after);
        let mut hands = [Ring::new(&template.other), Ring::new(&template.other)];
        hands[th] = Ring::new(&hand);
        let mut root = Game {
            hands,
            pile: [0; 64],
            n: 0,
            p: template.to_move,
            left: 0,
            front: template.before.len() as u8,
            open: true,
            len: 0,
            faces: 0,
            count: [0; KINDS],
        };
        let root_stop = root.run(th);
        let alphabet: Vec<Card> = std::iter::once(NUMBER)
            .chain(params.kinds.iter().copied())
            .collect();
        let mut e = Enumerator {
            template: template.clone(),
            params: params.clone(),
            alphabet,
            ranges: Vec::new(),
            th,
            root,
            root_stop,
        };
        let all = count_completions(params, 0, &[0; KINDS], params.min_len, params.max_len);
        let target = (all / wanted.max(1)).max(1);
        let mut ranges = Vec::new();
        e.split(&mut Vec::new(), &mut [0; KINDS], 0, target, &mut ranges);
        e.ranges = ranges;
        Ok(e)
    }

    fn split(
        &self,
        prefix: &mut Vec<Card>,
        count: &mut [u8; KINDS],
        faces: usize,
        target: u64,
        out: &mut Vec<Range>,
    ) {
        let (len, max) = (prefix.len(), self.params.max_len);
        let lo = self.params.min_len.max(len);
        let n = count_completions(&self.params, len, count, lo, max);
        if n == 0 {
            return;
        }
        if n <= target || len == max {
            out.push(Range {
                prefix: prefix.clone(),
                lo,
                hi: max,
                candidates: n,
            });
            return;
        }
        if len >= self.params.min_len {
            out.push(Range {
                prefix: prefix.clone(),
                lo: len,
                hi: len,
                candidates: 1,
            });
        }
        for i in 0..self.alphabet.len() {
            let c = self.alphabet[i];
            if !self.allowed(c, faces, count) {
                continue;
            }
            prefix.push(c);
            count[c as usize] += 1;
            self.split(prefix, count, faces + usize::from(c != NUMBER), target, out);
            count[c as usize] -= 1;
            prefix.pop();
        }
    }

    #[inline]
    fn allowed(&self, c: Card, faces: usize, count: &[u8; KINDS]) -> bool {
        if let Some(exact) = &self.params.exact
            && count[c as usize] >= exact[c as usize]
        {
            return false;
        }
        c == NUMBER
            || (faces < self.params.max_faces
                && (count[c as usize] as usize) < self.params.max_per_kind)
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn template(&self) -> &Template {
        &self.template
    }

    /// Number of ranges.
    pub fn ranges(&self) -> usize {
        self.ranges.len()
    }

    /// Range `i`.
    pub fn range(&self, i: usize) -> &Range {
        &self.ranges[i]
    }

    fn bounds(&self, i: usize) -> (usize, usize) {
        (self.ranges[i].lo, self.ranges[i].hi)
    }

    fn prefix(&self, i: usize) -> &[Card] {
        &self.ranges[i].prefix
    }

    /// How many candidates range `i` holds (counted, not visited).
    pub fn range_candidates(&self, i: usize) -> u64 {
        self.ranges[i].candidates
    }

    /// Every candidate, counted.
    pub fn total_candidates(&self) -> u64 {
        (0..self.ranges()).map(|i| self.range_candidates(i)).sum()
    }

    /// The pieces of range `i`, in depth-first order (number first, then faces by penalty; shorter
    /// before its extensions).
    /// Fully chosen candidates are played eight at a time in the 64-card lanes when the
    /// processor has AVX-512, else one by one.
    pub fn run_range(&self, i: usize) -> Vec<Vec<Card>> {
        self.run_range_with(i, crate::engine::lanes::available())
    }

    /// [`Self::run_range`] with the lanes or not (`lanes` is ignored without AVX-512): the same
    /// pieces either way; tests and benchmarks compare the two.
    pub fn run_range_with(&self, i: usize, lanes: bool) -> Vec<Vec<Card>> {
        let (lo, hi) = self.bounds(i);
        let mut found = Vec::new();
        if self.root_stop == Stop::End || lo > hi {
            return found;
        }
        let mut g = self.root;
        let mut path = Vec::with_capacity(hi);
        for &c in self.prefix(i) {
            g.push(self.th, c);
            path.push(c);
            if g.run(self.th) == Stop::End {
                return found;
            }
        }
        let mut batch = if lanes { Batch::new() } else { None };
        self.dfs(&g, lo, hi, &mut path, &mut found, &mut batch);
        if let Some(b) = &mut batch {
            b.flush(|g, test| pieces_of_long(g, test, &mut found));
        }
        found
    }

    /// The pieces of range `i`, each candidate played from scratch (the checker of [`Self::run_range`]).
    pub fn run_range_naive(&self, i: usize) -> Vec<Vec<Card>> {
        let (lo, hi) = self.bounds(i);
        let mut found = Vec::new();
        if lo > hi {
            return found;
        }
        let mut path = self.prefix(i).to_vec();
        naive_walk(
            &self.template,
            &self.params,
            &self.alphabet,
            (lo, hi),
            &mut path,
            &mut found,
        );
        found
    }

    /// `g` waits for a TEST decision with `path` chosen so far. Candidates go through `batch`
    /// when there is one (their pieces reach `found` when it is flushed, still in depth-first
    /// order), else they are finished one by one.
    fn dfs(
        &self,
        g: &Game,
        lo: usize,
        hi: usize,
        path: &mut Vec<Card>,
        found: &mut Vec<Vec<Card>>,
        batch: &mut Option<Batch>,
    ) {
        let len = g.len as usize;
        if len >= lo {
            match batch {
                Some(b) => {
                    if let Some(deal) = g.close_to_deal(self.th)
                        && b.push(deal, path)
                    {
                        b.flush(|g, test| pieces_of_long(g, test, found));
                    }
                }
                None => {
                    if g.close_and_finish(self.th) {
                        found.push(path.clone());
                    }
                }
            }
        }
        if len == hi {
            return;
        }
        for &c in &self.alphabet {
            if !self.allowed(c, g.faces as usize, &g.count) {
                continue;
            }
            let mut child = *g;
            child.push(self.th, c);
            if child.run(self.th) == Stop::End {
                continue;
            }
            path.push(c);
            self.dfs(&child, lo, hi, path, found, batch);
            path.pop();
        }
    }

    /// Whether one TEST sequence is a piece, through the same lazy game as the enumeration.
    pub fn is_piece(&self, test: &[Card]) -> bool {
        if self.root_stop == Stop::End {
            return false;
        }
        let mut g = self.root;
        for &c in test {
            g.push(self.th, c);
            if g.run(self.th) == Stop::End {
                return false;
            }
        }
        g.close_and_finish(self.th)
    }
}

/// A candidate the lanes left going: a piece when its game never ends.
fn pieces_of_long(g: &crate::engine::Game<u64>, test: &[Card], found: &mut Vec<Vec<Card>>) {
    if !cycle::terminates(g) {
        found.push(test.to_vec());
    }
}

/// Sequences that extend a prefix of `len` cards with kind counts `count` to a total length in
/// `lo..=hi`, within the limits of `params`.
pub fn count_completions(
    params: &Params,
    len: usize,
    count: &[u8; KINDS],
    lo: usize,
    hi: usize,
) -> u64 {
    let used: usize = params
        .kinds
        .iter()
        .map(|&k| count[k as usize] as usize)
        .sum();
    if used > params.max_faces || lo > hi {
        return 0;
    }
    if let Some(exact) = &params.exact {
        // The rest of the multiset, in every order, if its length is within the bounds.
        let mut rest = [0usize; KINDS];
        for kind in 0..KINDS {
            match (exact[kind] as usize).checked_sub(count[kind] as usize) {
                Some(r) => rest[kind] = r,
                None => return 0,
            }
        }
        let n: usize = rest.iter().sum();
        if !(lo.max(len)..=hi).contains(&(len + n)) {
            return 0;
        }
        let mut ways: u64 = 1;
        let mut placed = 0;
        for r in rest {
            placed += r;
            ways *= binomial(placed, r);
        }
        return ways;
    }
    let free_faces = params.max_faces - used;
    // ways[j]: sequences of j face cards over the kinds, each kind within its remaining room.
    let mut ways = vec![0u64; free_faces + 1];
    ways[0] = 1;
    for &k in &params.kinds {
        let room = params
            .max_per_kind
            .saturating_sub(count[k as usize] as usize);
        let mut next = vec![0u64; free_faces + 1];
        for (j, &w) in ways.iter().enumerate() {
            if w == 0 {
                continue;
            }
            for t in 0..=room.min(free_faces - j) {
                // Interleave t cards of this kind among j + t face slots.
                next[j + t] += w * binomial(j + t, t);
            }
        }
        ways = next;
    }
    let mut total = 0u64;
    for m in lo.max(len)..=hi {
        let extra = m - len;
        for (j, &w) in ways.iter().enumerate().take(extra.min(free_faces) + 1) {
            total += binomial(extra, j) * w;
        }
    }
    total
}

fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u64 = 1;
    for i in 0..k {
        r = r * (n - i) as u64 / (i + 1) as u64;
    }
    r
}

/// The checker: every candidate of `params`, each played from scratch with the fast engine.
pub fn naive_pieces(template: &Template, params: &Params) -> Vec<Vec<Card>> {
    let alphabet: Vec<Card> = std::iter::once(NUMBER)
        .chain(params.kinds.iter().copied())
        .collect();
    let mut found = Vec::new();
    let mut path = Vec::new();
    let bounds = (params.min_len, params.max_len);
    naive_walk(template, params, &alphabet, bounds, &mut path, &mut found);
    found
}

/// Every extension of `path` with a length in `bounds`, each played from scratch.
fn naive_walk(
    t: &Template,
    p: &Params,
    alphabet: &[Card],
    bounds: (usize, usize),
    path: &mut Vec<Card>,
    found: &mut Vec<Vec<Card>>,
) {
    if path.len() >= bounds.0
        && !cycle::terminates(&crate::engine::Game::<u64>::from_position(&t.fill(path)))
    {
        found.push(path.clone());
    }
    if path.len() >= bounds.1 {
        return;
    }
    for &c in alphabet {
        if let Some(exact) = &p.exact
            && path.iter().filter(|&&x| x == c).count() >= exact[c as usize] as usize
        {
            continue;
        }
        if c != NUMBER {
            let faces = path.iter().filter(|&&x| x != NUMBER).count();
            let same = path.iter().filter(|&&x| x == c).count();
            if faces >= p.max_faces || same >= p.max_per_kind {
                continue;
            }
        }
        path.push(c);
        naive_walk(t, p, alphabet, bounds, path, found);
        path.pop();
    }
}
