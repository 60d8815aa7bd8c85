//! Exact enumeration of the TEST sequences that make a template game never end, with prefix sharing.
//!
//! The template game is deterministic and depends on a TEST card only once that card is played, so
//! the search is a depth-first walk over TEST cards: a [`Game`] is played until the next TEST card
//! is needed, copied (it is `Copy`, on the stack), and each child chooses that card (number or a
//! face kind, within the limits) or ends TEST there. Ending TEST gives one concrete candidate, whose
//! game is finished with exact cycle detection (`engine::cycle::terminates`). A prefix whose game
//! ends before TEST is used up rules out every candidate that starts with it.
//!
//! The TEST hand is held as *front* ++ *back* in one ring: `front` counts the cards above the
//! unknown rest of TEST; the back (the template's cards below TEST, then the piles taken) goes
//! under it. Piles are put under the back, which is right because the unknown part is played
//! before any card below it. A chosen TEST card is pushed on top when `front` is 0, the only moment
//! the game can look at it.
//!
//! [`naive_pieces`] plays every candidate from scratch; it is the checker of [`Enumerator`].

use crate::card::{Card, KINDS, NUMBER};
use crate::engine::cycle;
use crate::engine::fast::Small;

use super::template::Template;

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
}

/// A candidate space too large for the engines (more than 64 cards in the template game).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("template games would hold {0} cards; at most 64 are supported (lower --max-len)")]
pub struct TooLarge(pub usize);

/// A ring of at most 64 cards, top first; `head` wraps freely (64 divides 256).
#[derive(Clone, Copy)]
struct Ring {
    buf: [Card; 64],
    head: u8,
    len: u8,
}

impl Ring {
    fn new(cards: &[Card]) -> Ring {
        let mut r = Ring {
            buf: [0; 64],
            head: 0,
            len: 0,
        };
        r.extend(cards);
        r
    }
    #[inline(always)]
    fn pop(&mut self) -> Card {
        let c = self.buf[(self.head & 63) as usize];
        self.head = self.head.wrapping_add(1);
        self.len -= 1;
        c
    }
    #[inline(always)]
    fn push_top(&mut self, c: Card) {
        self.head = self.head.wrapping_sub(1);
        self.buf[(self.head & 63) as usize] = c;
        self.len += 1;
    }
    #[inline(always)]
    fn extend(&mut self, cards: &[Card]) {
        let mut tail = self.head.wrapping_add(self.len);
        for &c in cards {
            self.buf[(tail & 63) as usize] = c;
            tail = tail.wrapping_add(1);
        }
        self.len += cards.len() as u8;
    }
    fn write_to(&self, out: &mut [Card; 64]) -> usize {
        for (i, slot) in out.iter_mut().take(self.len as usize).enumerate() {
            *slot = self.buf[(self.head.wrapping_add(i as u8) & 63) as usize];
        }
        self.len as usize
    }
}

/// A template game that can stop in the middle of a trick, when the next TEST card is needed.
#[derive(Clone, Copy)]
struct Game {
    hands: [Ring; 2],
    pile: [Card; 64],
    /// Cards on the pile.
    n: u8,
    /// The player who plays the next card (at a trick boundary: the player to move).
    p: u8,
    /// Cards still owed by `p`; 0 in the lead phase.
    left: u8,
    /// Cards of the TEST hand above the unknown rest of TEST.
    front: u8,
    /// TEST may still grow.
    open: bool,
    /// TEST cards chosen so far, in all and by kind.
    len: u8,
    faces: u8,
    count: [u8; KINDS],
}

/// Why [`Game::run`] stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// TEST is open and its next card (or its end) must be chosen.
    NeedTest,
    /// The game is over.
    End,
    /// TEST is closed and a trick boundary is reached.
    Boundary,
}

impl Game {
    /// Plays card by card until a TEST decision is needed, the game ends, or (TEST closed) a trick
    /// boundary. The same rules as `engine::fast::State::trick`, one card per iteration so that the
    /// game can stop anywhere.
    #[inline]
    fn run(&mut self, th: usize) -> Stop {
        loop {
            if self.open && self.front == 0 {
                return Stop::NeedTest;
            }
            if self.n == 0 && self.left == 0 {
                if !self.open {
                    return Stop::Boundary;
                }
                if self.hands[0].len == 0 || self.hands[1].len == 0 {
                    return Stop::End;
                }
            }
            let p = self.p as usize;
            if self.hands[p].len == 0 {
                return Stop::End;
            }
            let c = self.hands[p].pop();
            if self.open && p == th {
                self.front -= 1;
            }
            self.pile[self.n as usize] = c;
            self.n += 1;
            if c != NUMBER {
                self.left = c;
                self.p ^= 1;
            } else if self.left == 0 {
                self.p ^= 1;
            } else {
                self.left -= 1;
                if self.left == 0 {
                    let w = p ^ 1;
                    let n = self.n as usize;
                    let pile = self.pile;
                    self.hands[w].extend(&pile[..n]);
                    self.n = 0;
                    self.p = w as u8;
                }
            }
        }
    }

    /// Chooses `c` as the next TEST card (only when `front == 0`).
    #[inline]
    fn push(&mut self, th: usize, c: Card) {
        self.hands[th].push_top(c);
        self.front = 1;
        self.len += 1;
        self.count[c as usize] += 1;
        self.faces += u8::from(c != NUMBER);
    }

    /// Ends TEST and finishes the game: true when it never ends.
    fn close_and_finish(mut self, th: usize) -> bool {
        self.open = false;
        match self.run(th) {
            Stop::End => false,
            Stop::NeedTest => unreachable!("TEST is closed"),
            Stop::Boundary => {
                let mut a = [0; 64];
                let mut b = [0; 64];
                let na = self.hands[0].write_to(&mut a);
                let nb = self.hands[1].write_to(&mut b);
                let state = Small::from_hands(&a[..na], &b[..nb], self.p);
                !cycle::terminates(&state)
            }
        }
    }
}

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
    pub fn run_range(&self, i: usize) -> Vec<Vec<Card>> {
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
        self.dfs(&g, lo, hi, &mut path, &mut found);
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

    /// `g` waits for a TEST decision with `path` chosen so far.
    fn dfs(
        &self,
        g: &Game,
        lo: usize,
        hi: usize,
        path: &mut Vec<Card>,
        found: &mut Vec<Vec<Card>>,
    ) {
        let len = g.len as usize;
        if len >= lo && g.close_and_finish(self.th) {
            found.push(path.clone());
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
            self.dfs(&child, lo, hi, path, found);
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
    if path.len() >= bounds.0 && !cycle::terminates(&Small::from_position(&t.fill(path))) {
        found.push(path.clone());
    }
    if path.len() >= bounds.1 {
        return;
    }
    for &c in alphabet {
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
