//! The lockstep engine: many fully known two-player games played side by side without branches.
//!
//! A game of a small deck is a handful of tricks, and each trick turns on a few coin tosses (who
//! plays the first penalty card, whether the payer turns up another one). Played one game at a
//! time, every toss is a mispredicted branch, and those, not arithmetic, are what a trick costs.
//! Here [`LANES`] games advance together one *move* at a time (a lead phase, one payment, or the
//! end of a payment and the taking of the pile) and every lane computes every case and selects
//! its own, so the only branch left is "did some lane finish". A finished lane is refilled from
//! the queue at once. The exhaustive search hands its fully fixed subtrees (single deals, often
//! in the middle of a trick) to this engine; `tests/search.rs` holds it to the reference engine.
//!
//! A hand is three bit planes of a `u32`, bit `i` for its card `i` (top first): `faces` is set
//! for penalty cards, and `lo` and `hi` hold the penalty less one (0 for number cards). So a hand
//! holds at most 32 cards, and every lane variable is a `u32`: 16 lanes fill a 512-bit vector.
//! [`Game`] is generic over the plane ([`Plane`]): the exhaustive search plays decks of more
//! than 32 cards in `u64` planes one game at a time, and hands their fully fixed games to eight
//! `u64` AVX-512 lanes (its own batch, `search/exhaustive/tally.rs`, held to
//! `lanes64::MidLanes64`), or without AVX-512 to those of `engine/lanes64.rs`.

pub use super::isa::Isa;

/// Games in flight at once.
pub const LANES: usize = 16;

/// A hand's bit plane: a `u32` (hands of up to 32 cards: the lanes) or a `u64` (up to 64: the
/// exhaustive search of larger decks plays its games one by one in this form). Shifts past the
/// width give 0, as the hands' scans need.
pub trait Plane:
    Copy
    + Default
    + Eq
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
    + Send
    + Sync
    + 'static
{
    /// Cards a hand of this plane holds.
    const BITS: u32;
    const ZERO: Self;
    const ONE: Self;
    /// `x >> s`, 0 once every bit is shifted out.
    fn shr(self, s: u32) -> Self;
    /// `x << s`, 0 once every bit is shifted out.
    fn shl(self, s: u32) -> Self;
    /// Trailing zeros (`BITS` for 0).
    fn tz(self) -> u32;
    /// Bit `i` (0 past the width).
    #[inline(always)]
    fn bit(self, i: u32) -> u32 {
        u32::from(self.shr(i) & Self::ONE == Self::ONE)
    }
    /// Every bit when `b` is 1, none when 0.
    fn fill(b: u32) -> Self;
    /// The low `k` bits.
    #[inline(always)]
    fn ones(k: u32) -> Self {
        if k >= Self::BITS {
            !Self::ZERO
        } else {
            !(!Self::ZERO).shl(k)
        }
    }
}

macro_rules! plane {
    ($t:ty) => {
        impl Plane for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn shr(self, s: u32) -> Self {
                self.checked_shr(s).unwrap_or(0)
            }
            #[inline(always)]
            fn shl(self, s: u32) -> Self {
                self.checked_shl(s).unwrap_or(0)
            }
            #[inline(always)]
            fn tz(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn bit(self, i: u32) -> u32 {
                (self.checked_shr(i).unwrap_or(0) & 1) as u32
            }
            #[inline(always)]
            fn fill(b: u32) -> Self {
                (b as $t).wrapping_neg()
            }
        }
    };
}
plane!(u32);
plane!(u64);

/// A game at a move boundary, in the lanes' compact form (hands and pile as bit planes `H`: the
/// lanes take `u32`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Game<H = u32> {
    pub faces: [H; 2],
    pub lo: [H; 2],
    pub hi: [H; 2],
    pub len: [u32; 2],
    /// The cards of the trick in progress, planes like a hand's (first card played lowest).
    pub pile_faces: H,
    pub pile_lo: H,
    pub pile_hi: H,
    /// Cards on the pile.
    pub n: u32,
    /// The player to play next (0 or 1).
    pub next: u32,
    /// What `next` owes; 0 in the lead phase.
    pub debt: u32,
}

impl<H: Plane> Game<H> {
    /// A game at a trick boundary from two hands of penalties (0 number card, 1..=4 J Q K A).
    pub fn from_hands(h0: &[u8], h1: &[u8], next: u32) -> Game<H> {
        let mut g = Game {
            next,
            ..Game::default()
        };
        for (p, h) in [h0, h1].into_iter().enumerate() {
            assert!(
                h.len() <= H::BITS as usize,
                "a hand of this plane holds at most {} cards",
                H::BITS
            );
            for (i, &c) in h.iter().enumerate() {
                g.set(p, i as u32, c);
            }
            g.len[p] = h.len() as u32;
        }
        g
    }

    /// A copy read field by field, with volatile reads the compiler cannot merge. For a game
    /// whose fields were just stored one by one: a wide load over several fresh narrow stores
    /// misses store forwarding and waits for them to reach the cache. (The exhaustive search
    /// copies nodes and leaves straight after playing them; `perf annotate` put a sixth of its
    /// tree walk on such loads.)
    #[inline(always)]
    pub fn fresh_copy(&self) -> Game<H> {
        // SAFETY: each pointer comes from a reference to an initialised, aligned field.
        let v = |x: &u32| unsafe { std::ptr::read_volatile(x) };
        let w = |x: &H| unsafe { std::ptr::read_volatile(x) };
        let two = |a: &[u32; 2]| [v(&a[0]), v(&a[1])];
        let two_h = |a: &[H; 2]| [w(&a[0]), w(&a[1])];
        Game {
            faces: two_h(&self.faces),
            lo: two_h(&self.lo),
            hi: two_h(&self.hi),
            len: two(&self.len),
            pile_faces: w(&self.pile_faces),
            pile_lo: w(&self.pile_lo),
            pile_hi: w(&self.pile_hi),
            n: v(&self.n),
            next: v(&self.next),
            debt: v(&self.debt),
        }
    }

    /// A game over before its first move: a hand empty at a trick boundary (the lanes take only
    /// games with a move to make).
    pub fn over_at_start(&self) -> Option<Finish> {
        let over = self.n == 0 && self.debt == 0 && (self.len[0] == 0 || self.len[1] == 0);
        over.then(|| Finish::Won {
            winner: u8::from(self.len[1] > 0),
            tricks: 0,
            cards: 0,
        })
    }

    /// Sets card `i` of hand `p` (its place clear or a penalty card of kind 1) to penalty `c`.
    #[inline(always)]
    pub fn set(&mut self, p: usize, i: u32, c: u8) {
        let bit = H::ONE.shl(i);
        if c == 0 {
            self.faces[p] &= !bit;
        } else {
            self.faces[p] |= bit;
            let k = u32::from(c - 1);
            self.lo[p] |= bit & H::fill(k & 1);
            self.hi[p] |= bit & H::fill(k >> 1);
        }
    }

    /// Sets every card of hand `p` marked in `mask` (penalty cards of kind 1) to penalty `c`.
    pub fn set_all(&mut self, p: usize, mask: H, c: u8) {
        if c == 0 {
            self.faces[p] &= !mask;
        } else {
            let k = u32::from(c - 1);
            self.lo[p] |= mask & H::fill(k & 1);
            self.hi[p] |= mask & H::fill(k >> 1);
        }
    }

    /// The penalty of card `i` of hand `p`, known to be a penalty card.
    #[inline(always)]
    pub fn penalty(&self, p: usize, i: u32) -> u32 {
        1 + self.lo[p].bit(i) + 2 * self.hi[p].bit(i)
    }

    /// Card `i` of hand `p` as a penalty (0 for a number card).
    pub fn card(&self, p: usize, i: u32) -> u8 {
        if self.faces[p].bit(i) == 1 {
            self.penalty(p, i) as u8
        } else {
            0
        }
    }

    /// Takes the top `k` cards off hand `p` (`k` at most its length).
    #[inline(always)]
    pub fn pop(&mut self, p: usize, k: u32) {
        self.faces[p] = self.faces[p].shr(k);
        self.lo[p] = self.lo[p].shr(k);
        self.hi[p] = self.hi[p].shr(k);
        self.len[p] -= k;
    }

    /// Puts penalty card `c` on the pile at place `at` (number cards are just counted).
    #[inline(always)]
    pub fn pile_face(&mut self, at: u32, c: u32) {
        let bit = H::ONE.shl(at);
        self.pile_faces |= bit;
        self.pile_lo |= bit & H::fill((c - 1) & 1);
        self.pile_hi |= bit & H::fill((c - 1) >> 1);
    }

    /// Plays the game one card at a time, as the rules read, until it ends or has played `limit`
    /// tricks: the plain oracle of every lane engine for games from any move boundary (the
    /// reference engine itself starts only at trick boundaries). Runs on any processor.
    pub fn finish(mut self, limit: u32) -> Finish {
        let (mut tricks, mut cards) = (0u64, 0u64);
        loop {
            let p = self.next as usize & 1;
            let other = p ^ 1;
            if self.len[p] == 0 {
                // A player who must play and has none loses; an unfinished pile is a last trick.
                return Finish::Won {
                    winner: other as u8,
                    tricks: tricks + u64::from(self.n > 0),
                    cards: cards + u64::from(self.n),
                };
            }
            let c = self.card(p, 0);
            self.pop(p, 1);
            if c > 0 {
                self.pile_face(self.n, u32::from(c));
            }
            self.n += 1;
            if c > 0 {
                self.debt = u32::from(c);
                self.next = other as u32;
            } else if self.debt == 0 {
                self.next = other as u32;
            } else {
                self.debt -= 1;
                if self.debt == 0 {
                    // Paid in full with number cards: the other player takes the pile.
                    cards += u64::from(self.n);
                    tricks += 1;
                    self.take_pile(other, self.n);
                    if self.len[p] == 0 {
                        return Finish::Won {
                            winner: other as u8,
                            tricks,
                            cards,
                        };
                    }
                    if tricks >= u64::from(limit) {
                        return Finish::TooLong;
                    }
                }
            }
        }
    }

    /// Player `w` takes the pile of `n` cards under their hand, and leads.
    #[inline(always)]
    pub fn take_pile(&mut self, w: usize, n: u32) {
        let lw = self.len[w];
        self.faces[w] |= self.pile_faces.shl(lw);
        self.lo[w] |= self.pile_lo.shl(lw);
        self.hi[w] |= self.pile_hi.shl(lw);
        self.len[w] += n;
        self.pile_faces = H::ZERO;
        self.pile_lo = H::ZERO;
        self.pile_hi = H::ZERO;
        self.n = 0;
        self.debt = 0;
        self.next = w as u32;
    }
}

/// How a game left the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The game ended: `tricks` and `cards` count the tricks and cards played in the lanes (a last,
    /// unfinished trick counted as a trick).
    Won { winner: u8, tricks: u64, cards: u64 },
    /// It had played `limit` tricks without ending: the caller plays it on with the cycle engine.
    TooLong,
}

impl Finish {
    /// The finish of a lane that stopped: `ended` (else too long), its winner, the tricks and
    /// cards of its finished tricks, and `last` cards of an unfinished last trick.
    #[inline(always)]
    pub(crate) fn of_lane(ended: bool, winner: u32, tricks: u32, cards: u32, last: u32) -> Finish {
        if ended {
            Finish::Won {
                winner: winner as u8,
                tricks: u64::from(tricks) + u64::from(last > 0),
                cards: u64::from(cards) + u64::from(last),
            }
        } else {
            Finish::TooLong
        }
    }
}

/// `x >> s`, 0 once every bit is shifted out.
#[inline(always)]
pub fn shr(x: u32, s: u32) -> u32 {
    if s >= 32 { 0 } else { x >> s }
}

/// `x << s`, 0 once every bit is shifted out.
#[inline(always)]
pub fn shl(x: u32, s: u32) -> u32 {
    if s >= 32 { 0 } else { x << s }
}

/// `if c { a } else { b }` as a mask, so the compiler keeps it a select.
#[inline(always)]
fn pick(c: bool, a: u32, b: u32) -> u32 {
    let m = u32::from(c).wrapping_neg();
    (a & m) | (b & !m)
}

/// The lanes, structure of arrays. `a` is the hand of the player to act, `b` the other's, `who`
/// the seat of `a`.
pub struct Lanes {
    fa: [u32; LANES],
    fb: [u32; LANES],
    la_: [u32; LANES],
    lb_: [u32; LANES],
    ha: [u32; LANES],
    hb: [u32; LANES],
    na: [u32; LANES],
    nb: [u32; LANES],
    pf: [u32; LANES],
    pl: [u32; LANES],
    ph: [u32; LANES],
    n: [u32; LANES],
    debt: [u32; LANES],
    who: [u32; LANES],
    tricks: [u32; LANES],
    cards: [u32; LANES],
    /// 0 playing, 1 ended, 2 too long.
    state: [u32; LANES],
    winner: [u32; LANES],
    /// Cards of the unfinished last trick.
    last: [u32; LANES],
    /// Which game of the batch each lane plays.
    slot: [usize; LANES],
    /// The same lanes in AVX-512 registers.
    #[cfg(target_arch = "x86_64")]
    wide: super::lanes_avx512::Avx512Lanes,
}

impl Default for Lanes {
    fn default() -> Self {
        let z = [0; LANES];
        Lanes {
            fa: z,
            fb: z,
            la_: z,
            lb_: z,
            ha: z,
            hb: z,
            na: z,
            nb: z,
            pf: z,
            pl: z,
            ph: z,
            n: z,
            debt: z,
            who: z,
            tricks: z,
            cards: z,
            state: z,
            winner: z,
            last: z,
            slot: [0; LANES],
            #[cfg(target_arch = "x86_64")]
            wide: Default::default(),
        }
    }
}

impl Lanes {
    fn load(&mut self, i: usize, g: &Game, slot: usize) {
        let a = g.next as usize & 1;
        self.fa[i] = g.faces[a];
        self.fb[i] = g.faces[a ^ 1];
        self.la_[i] = g.lo[a];
        self.lb_[i] = g.lo[a ^ 1];
        self.ha[i] = g.hi[a];
        self.hb[i] = g.hi[a ^ 1];
        self.na[i] = g.len[a];
        self.nb[i] = g.len[a ^ 1];
        self.pf[i] = g.pile_faces;
        self.pl[i] = g.pile_lo;
        self.ph[i] = g.pile_hi;
        self.n[i] = g.n;
        self.debt[i] = g.debt;
        self.who[i] = a as u32;
        self.tricks[i] = 0;
        self.cards[i] = 0;
        self.state[i] = 0;
        self.slot[i] = slot;
    }

    /// One move of every lane; returns the lanes that have stopped, a bit each. Lanes that have
    /// stopped compute garbage that is never read.
    #[inline(always)]
    fn step(&mut self, limit: u32) -> u32 {
        let mut stopped = 0;
        for i in 0..LANES {
            let (fa, fb, la, lb) = (self.fa[i], self.fb[i], self.na[i], self.nb[i]);
            let (n, debt) = (self.n[i], self.debt[i]);
            let lead = debt == 0;
            // Lead phase: a plays at steps 0, 2, ..., b at 1, 3, ...; it stops at the first
            // penalty card or when a player must play and has none.
            let za = fa.trailing_zeros().min(la);
            let zb = fb.trailing_zeros().min(lb);
            let sa = 2 * za;
            let sb = 2 * zb + 1;
            let b_first = sb < sa;
            let step = sa.min(sb);
            let idx = step / 2;
            let lx = pick(b_first, lb, la);
            let lead_end = idx >= lx;
            // A payment of `a`: cards up to its first penalty card, or the whole debt.
            let z = fa.trailing_zeros();
            let face = z < debt.min(la);
            // The penalty card played: b's card `idx` (lead, b first), else a's card `idx` or `z`.
            let from_b = lead & b_first;
            let j = pick(lead, idx, z);
            let lo = pick(from_b, self.lb_[i], self.la_[i]);
            let hi = pick(from_b, self.hb[i], self.ha[i]);
            let k = (shr(lo, j) & 1) | (shr(hi, j) & 1) << 1;
            let c = k + 1;
            let pay_end = !lead & !face & (la < debt);
            let face = !lead & face;
            let complete = !lead & !face & !pay_end;
            let lead_face = lead & !lead_end;
            let put = lead_face | face;
            let at = n + pick(lead, step, z);
            let pop_a = pick(
                lead,
                step.div_ceil(2) + u32::from(!b_first),
                pick(face, z + 1, debt),
            );
            let pop_b = pick(lead, step / 2 + u32::from(b_first), 0);
            let fa2 = shr(fa, pop_a);
            let la2 = shr(self.la_[i], pop_a);
            let ha2 = shr(self.ha[i], pop_a);
            let na2 = la.wrapping_sub(pop_a);
            let fb2 = shr(fb, pop_b);
            let lb2 = shr(self.lb_[i], pop_b);
            let hb2 = shr(self.hb[i], pop_b);
            let nb2 = lb.wrapping_sub(pop_b);
            let bit = shl(u32::from(put), at);
            let pf2 = self.pf[i] | bit;
            let pl2 = self.pl[i] | (bit & (k & 1).wrapping_neg());
            let ph2 = self.ph[i] | (bit & (k >> 1).wrapping_neg());
            let n2 = pick(put, at + 1, n + debt);
            // A finished payment: b takes the pile and leads.
            let fb3 = pick(complete, fb2 | shl(pf2, nb2), fb2);
            let lb3 = pick(complete, lb2 | shl(pl2, nb2), lb2);
            let hb3 = pick(complete, hb2 | shl(ph2, nb2), hb2);
            let nb3 = pick(complete, nb2.wrapping_add(n2), nb2);
            let tricks = self.tricks[i].wrapping_add(u32::from(complete));
            self.cards[i] = self.cards[i].wrapping_add(pick(complete, n2, 0));
            self.tricks[i] = tricks;
            self.pf[i] = pick(complete, 0, pf2);
            self.pl[i] = pick(complete, 0, pl2);
            self.ph[i] = pick(complete, 0, ph2);
            self.n[i] = pick(complete, 0, n2);
            self.debt[i] = pick(complete, 0, c);
            let swap = (lead_face & !b_first) | face | complete;
            self.fa[i] = pick(swap, fb3, fa2);
            self.fb[i] = pick(swap, fa2, fb3);
            self.la_[i] = pick(swap, lb3, la2);
            self.lb_[i] = pick(swap, la2, lb3);
            self.ha[i] = pick(swap, hb3, ha2);
            self.hb[i] = pick(swap, ha2, hb3);
            self.na[i] = pick(swap, nb3, na2);
            self.nb[i] = pick(swap, na2, nb3);
            let who = self.who[i];
            self.who[i] = who ^ u32::from(swap);
            // The end: a lead player without a card loses (the winner is the other of the one who
            // should play: b's opponent a when b was due), so does a payer short of the debt, and
            // a trick that empties its payer ends the game.
            let over = complete & (na2 == 0);
            let ended = (lead & lead_end) | pay_end | over;
            let winner_is_a = lead & lead_end & b_first;
            self.winner[i] = pick(winner_is_a, who, who ^ 1);
            self.last[i] = pick(lead, n + step, pick(pay_end, n + la, 0));
            let stop = pick(ended, 1, pick(tricks >= limit, 2, 0));
            let state = self.state[i].max(stop);
            self.state[i] = state;
            stopped |= u32::from(state != 0) << i;
        }
        stopped
    }

    /// Plays every game of `games` until it ends or has played `limit` more tricks, and reports
    /// each with `done(index in games, finish)`, in no particular order.
    ///
    /// The lanes pay off when the compiler turns the move loop into vector code, so the loop is
    /// compiled for AVX-512 and AVX2 as well, and the best the processor has is picked at run time.
    pub fn run(&mut self, games: &[Game], limit: u32, done: impl FnMut(usize, Finish)) {
        #[cfg(target_arch = "x86_64")]
        {
            if Isa::get() == Isa::Avx512 {
                // SAFETY: the processor has these features (checked by `Isa::get`).
                return unsafe { self.wide.run(games, limit, done) };
            }
            if Isa::get() == Isa::Avx2 {
                // SAFETY: as above.
                return unsafe { self.run_avx2(games, limit, done) };
            }
        }
        self.run_with(games, limit, done)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn run_avx2(&mut self, games: &[Game], limit: u32, done: impl FnMut(usize, Finish)) {
        self.run_with(games, limit, done)
    }

    /// [`Lanes::run`] in portable code, whatever the processor (the specification of the
    /// vector versions).
    #[inline(always)]
    pub fn run_with(&mut self, games: &[Game], limit: u32, mut done: impl FnMut(usize, Finish)) {
        let mut next = 0;
        let mut active: u32 = 0;
        for i in 0..LANES {
            if self.refill(i, games, &mut next, &mut done) {
                active |= 1 << i;
            }
        }
        while active != 0 {
            let mut stopped = self.step(limit) & active;
            while stopped != 0 {
                let i = stopped.trailing_zeros() as usize;
                stopped &= stopped - 1;
                let finish = Finish::of_lane(
                    self.state[i] == 1,
                    self.winner[i],
                    self.tricks[i],
                    self.cards[i],
                    self.last[i],
                );
                done(self.slot[i], finish);
                if !self.refill(i, games, &mut next, &mut done) {
                    active &= !(1 << i);
                }
            }
        }
    }

    /// Loads lane `i` with the next game that needs playing (false: none is left). A game that
    /// is over before it starts (a hand empty at a trick boundary) is reported at once.
    fn refill(
        &mut self,
        i: usize,
        games: &[Game],
        next: &mut usize,
        done: &mut impl FnMut(usize, Finish),
    ) -> bool {
        while let Some(g) = games.get(*next) {
            let slot = *next;
            *next += 1;
            if g.n == 0 && g.debt == 0 && (g.len[0] == 0 || g.len[1] == 0) {
                let winner = u8::from(g.len[1] > 0);
                done(
                    slot,
                    Finish::Won {
                        winner,
                        tricks: 0,
                        cards: 0,
                    },
                );
                continue;
            }
            self.load(i, g, slot);
            return true;
        }
        false
    }
}

/// `count` random positions of 1 to `max_cards` cards (number cards three times as likely as each
/// penalty card), any split, either player to move: inputs for the engines' agreement tests.
#[cfg(test)]
pub(crate) fn random_positions(
    seed: u64,
    count: usize,
    max_cards: u64,
) -> Vec<crate::position::Position> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let n = 1 + rng.below(max_cards) as usize;
            let cards: Vec<u8> = (0..n)
                .map(|_| [0, 0, 0, 1, 2, 3, 4][rng.below(7) as usize])
                .collect();
            let split = rng.below(n as u64 + 1) as usize;
            let to_move = rng.below(2) as u8;
            crate::position::Position::new(
                cards[..split].to_vec(),
                cards[split..].to_vec(),
                to_move,
            )
        })
        .collect()
}

/// Checks a lane's finish `f` of position `p` against the reference engine's outcome `want`:
/// the same winner, tricks and cards, or a game left going after `limit` tricks that the
/// reference engine plays that long (or forever).
#[cfg(test)]
pub(crate) fn agrees(
    p: &crate::position::Position,
    want: &crate::engine::Outcome,
    f: Finish,
    limit: u64,
) {
    use crate::engine::Outcome;
    match (want, f) {
        (
            &Outcome::Terminates {
                winner,
                tricks,
                cards,
            },
            Finish::Won {
                winner: w,
                tricks: t,
                cards: c,
            },
        ) => assert_eq!((winner, tricks, cards), (w, t, c), "{p}"),
        (&Outcome::Terminates { tricks, .. }, Finish::TooLong) => {
            assert!(tricks >= limit, "{p}")
        }
        (Outcome::Cycle(_), Finish::TooLong) => {}
        (want, got) => panic!("{p}: {want:?} vs {got:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::reference;

    /// The one-by-one oracle of the lanes ([`Game::finish`]) against the reference engine from
    /// trick boundaries, in both planes (hands of up to 32 and 64 cards).
    #[test]
    fn finish_agrees_with_the_reference_engine() {
        for (seed, most) in [(13u64, 32u64), (14, 64)] {
            for p in random_positions(seed, 5_000, most) {
                let want = reference::play(&p);
                let to = u32::from(p.to_move);
                let wide = Game::<u64>::from_hands(&p.hands[0], &p.hands[1], to);
                if let Some(over) = wide.over_at_start() {
                    // A hand empty before the first move: over, as the reference says.
                    agrees(&p, &want, over, 1000);
                    continue;
                }
                let wide = wide.finish(1000);
                agrees(&p, &want, wide, 1000);
                if most <= 32 {
                    let narrow = Game::<u32>::from_hands(&p.hands[0], &p.hands[1], to);
                    assert_eq!(narrow.finish(1000), wide, "{p}");
                }
            }
        }
    }

    /// The portable lanes against [`Game::finish`] from the middle of tricks: each game first
    /// played a few cards one by one (a trick limit of 0 tricks is not a game: play with a
    /// limit of 1 on a copy, then take the state before its first pile).
    #[test]
    fn lanes_agree_with_finish_mid_trick() {
        let mut rng = crate::rng::SplitMix64::new(15);
        let games: Vec<Game> = random_positions(16, 20_000, 30)
            .iter()
            .map(|p| {
                let mut g = Game::from_hands(&p.hands[0], &p.hands[1], u32::from(p.to_move));
                // A random pile: up to six cards from the top of the player to move, with a
                // debt when the last is a penalty card (the rules' states only).
                for _ in 0..rng.below(7) {
                    let q = g.next as usize;
                    if g.len[q] <= 1 || g.debt != 0 {
                        break;
                    }
                    let c = g.card(q, 0);
                    g.pop(q, 1);
                    if c > 0 {
                        g.pile_face(g.n, u32::from(c));
                        g.debt = u32::from(c);
                    }
                    g.n += 1;
                    g.next ^= 1;
                }
                g
            })
            .filter(|g| g.over_at_start().is_none())
            .collect();
        let mut seen = vec![false; games.len()];
        Lanes::default().run_with(&games, 1000, |i, f| {
            seen[i] = true;
            assert_eq!(f, games[i].finish(1000), "{:?}", games[i]);
        });
        assert!(seen.iter().all(|&s| s), "every game reported");
    }

    /// Every lane result against the reference engine, on random deals of small decks.
    #[test]
    fn lanes_agree_with_the_reference_engine() {
        let positions = random_positions(11, 20_000, 30);
        let games: Vec<Game> = positions
            .iter()
            .map(|p| Game::from_hands(&p.hands[0], &p.hands[1], p.to_move as u32))
            .collect();
        // The dispatched run (AVX-512 registers, AVX2 or portable) and the portable one.
        for portable in [false, true] {
            let mut seen = vec![false; games.len()];
            let check = |i: usize, f: Finish| {
                seen[i] = true;
                agrees(&positions[i], &reference::play(&positions[i]), f, 1000);
            };
            let mut lanes = Lanes::default();
            if portable {
                lanes.run_with(&games, 1000, check);
            } else {
                lanes.run(&games, 1000, check);
            }
            assert!(seen.iter().all(|&s| s), "every game reported");
        }
    }
}
