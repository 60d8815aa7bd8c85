//! One trick back, fast: every predecessor of a [`Compact`] position in time proportional to the
//! answer, with no allocation. `reference.rs` holds the plain replay this is tested against.
//!
//! Why it works (rules.md, "Playing backwards"): the pile of the last trick is a suffix of the
//! winner's hand `h`, and a trick's pile has a rigid shape read from its end:
//! - it ends with the last penalty card (value `v`, played by the winner) and exactly `v` number
//!   cards that paid it, so `h` must end with `v` number cards right after a card of value `v`;
//! - before a penalty card `c` that was itself a payment there are `r` number cards and, before
//!   them, the penalty card `c'` (other player) they were paying, with `r` < value(`c'`);
//! - the first penalty card of the trick is preceded only by the alternating lead, any run of
//!   number cards, and the trick may start anywhere in that run.
//!
//! So the candidate piles form one chain of penalty cards walked back from the end, and every start
//! inside the number run before a chain card gives exactly one predecessor, whose leader follows
//! from the alternation. Two starts never give the same predecessor (forward play from a position
//! is one trick), so the answer has no duplicates.

use super::compact::{COMPACT_MAX_CARDS, Compact};
use crate::card::Card;

/// Calls `emit(pred, pile)` for every predecessor `pred` of `p`, `pile` being the cards played in
/// the trick from `pred` to `p`. Piles come in increasing length.
///
/// A position with an empty hand has no predecessor: a trick that empties a hand ends the game
/// (rules.md, "The end of a game"), so no trick *leads* to such a position.
#[inline]
pub fn for_each_predecessor(p: &Compact, mut emit: impl FnMut(&Compact, u32)) {
    if p.len0 == 0 || p.len1 == 0 {
        return;
    }
    let w = p.to_move as usize;
    let h = p.hand(w);
    let len = h.len();
    let mut z = 0;
    while z < len && h[len - 1 - z] == 0 {
        z += 1;
    }
    if z == len || h[len - 1 - z] as usize != z {
        return;
    }
    // chain[k]: index in `h` of the k-th penalty card counted back from the last; chain[k] was
    // played by the winner when k is even, by the loser when k is odd.
    let mut chain = [0u8; COMPACT_MAX_CARDS];
    let mut m = 0;
    chain[0] = (len - 1 - z) as u8;
    loop {
        let cur = chain[m] as usize;
        let mut r = 0;
        while r < cur && h[cur - 1 - r] == 0 {
            r += 1;
        }
        // `cur` as the first penalty card of the trick, led from anywhere in the run before it.
        for s in (cur - r..=cur).rev() {
            let pred = build(p, &chain[..=m], s);
            emit(&pred, (len - s) as u32);
        }
        if r == cur {
            break;
        }
        let prev = cur - r - 1;
        // `cur` as a payment: the `r` number cards before it did not settle the debt of `prev`.
        if r >= h[prev] as usize {
            break;
        }
        m += 1;
        chain[m] = prev as u8;
    }
}

/// The predecessor whose trick is `h[s..]` (h = winner's hand), with `chain[last]` its first
/// penalty card.
#[inline(always)]
fn build(p: &Compact, chain: &[u8], s: usize) -> Compact {
    let w = p.to_move as usize;
    let l = w ^ 1;
    let h = p.hand(w);
    let hl = p.hand(l);
    let len = h.len();
    let m = chain.len() - 1;
    let first = chain[m] as usize;
    // `played[q]`: the cards player q put on the pile, in order.
    let mut played: [[Card; COMPACT_MAX_CARDS]; 2] = [[0; COMPACT_MAX_CARDS]; 2];
    let mut count = [0usize; 2];
    let first_player = if m.is_multiple_of(2) { w } else { l };
    // Lead phase: alternate, ending with `first` by `first_player`.
    for (i, &c) in h.iter().enumerate().take(first + 1).skip(s) {
        let q = if (first - i).is_multiple_of(2) {
            first_player
        } else {
            first_player ^ 1
        };
        played[q][count[q]] = c;
        count[q] += 1;
    }
    // Payments: the cards after chain[k] up to chain[k-1] belong to chain[k-1]'s player; the
    // final payment after chain[0] to the loser.
    for k in (0..m).rev() {
        let q = if k % 2 == 0 { w } else { l };
        for &c in &h[chain[k + 1] as usize + 1..=chain[k] as usize] {
            played[q][count[q]] = c;
            count[q] += 1;
        }
    }
    for &c in &h[chain[0] as usize + 1..len] {
        played[l][count[l]] = c;
        count[l] += 1;
    }
    let leader = if (first - s).is_multiple_of(2) {
        first_player
    } else {
        first_player ^ 1
    };
    // New hands: winner = own pile cards ++ h[..s]; loser = own pile cards ++ old hand.
    let mut out = Compact {
        cards: [0; COMPACT_MAX_CARDS],
        len0: 0,
        len1: 0,
        to_move: leader as u8,
    };
    let new_w = count[w] + s;
    let new_l = count[l] + hl.len();
    let (off_w, off_l) = if w == 0 { (0, new_w) } else { (new_l, 0) };
    out.cards[off_w..off_w + count[w]].copy_from_slice(&played[w][..count[w]]);
    out.cards[off_w + count[w]..off_w + new_w].copy_from_slice(&h[..s]);
    out.cards[off_l..off_l + count[l]].copy_from_slice(&played[l][..count[l]]);
    out.cards[off_l + count[l]..off_l + new_l].copy_from_slice(hl);
    if w == 0 {
        out.len0 = new_w as u8;
        out.len1 = new_l as u8;
    } else {
        out.len0 = new_l as u8;
        out.len1 = new_w as u8;
    }
    out
}

/// Every predecessor of `p`, in increasing pile length.
pub fn predecessors(p: &Compact) -> Vec<Compact> {
    let mut v = Vec::new();
    for_each_predecessor(p, |q, _| v.push(*q));
    v
}
