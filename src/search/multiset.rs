//! Arrangements of a multiset of cards: how many there are (the multinomial), the rank of an
//! arrangement in lexicographic order and its inverse, and the next arrangement in that order.
//! Exhaustive search splits its deals into rank ranges with these.

use crate::card::{Card, KINDS};

/// Number of distinct arrangements of a multiset with these counts per kind, or `None` past `u128`.
pub fn multinomial(counts: &[u32; KINDS]) -> Option<u128> {
    let mut result: u128 = 1;
    let mut n: u128 = 0;
    for &c in counts {
        // result *= C(n + c, c), built one factor at a time so every step stays an exact integer.
        for i in 1..=c as u128 {
            n += 1;
            result = result.checked_mul(n)? / i;
        }
    }
    Some(result)
}

/// [`multinomial`] in `u64` for the small counts of exhaustive search (at most 64 cards of which the
/// caller knows the total fits).
#[inline]
pub fn multinomial_u64(counts: &[u8; KINDS]) -> u64 {
    let mut result: u64 = 1;
    let mut n: u64 = 0;
    for &c in counts {
        for i in 1..=c as u64 {
            n += 1;
            result = result * n / i;
        }
    }
    result
}

/// The rank (0-based, lexicographic by penalty) of `cards` among the arrangements of its multiset.
pub fn rank(cards: &[Card]) -> u128 {
    let mut counts = [0u32; KINDS];
    for &c in cards {
        counts[c as usize] += 1;
    }
    let mut r = 0;
    for &c in cards {
        for smaller in 0..c as usize {
            if counts[smaller] > 0 {
                counts[smaller] -= 1;
                r += multinomial(&counts).expect("rank fits u128");
                counts[smaller] += 1;
            }
        }
        counts[c as usize] -= 1;
    }
    r
}

/// The arrangement of rank `r` of the multiset `counts`, or `None` when `r` is out of range.
pub fn unrank(counts: &[u32; KINDS], mut r: u128) -> Option<Vec<Card>> {
    let mut counts = *counts;
    let n: u32 = counts.iter().sum();
    if r >= multinomial(&counts)? {
        return None;
    }
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        for kind in 0..KINDS {
            if counts[kind] == 0 {
                continue;
            }
            counts[kind] -= 1;
            let below = multinomial(&counts).expect("smaller than the whole");
            if r < below {
                out.push(kind as Card);
                break;
            }
            r -= below;
            counts[kind] += 1;
        }
    }
    Some(out)
}

/// Steps `cards` to the next arrangement in lexicographic order; `false` (and `cards` sorted) after
/// the last one.
pub fn next_arrangement(cards: &mut [Card]) -> bool {
    let n = cards.len();
    if n < 2 {
        return false;
    }
    let mut i = n - 1;
    while i > 0 && cards[i - 1] >= cards[i] {
        i -= 1;
    }
    if i == 0 {
        cards.reverse();
        return false;
    }
    let mut j = n - 1;
    while cards[j] <= cards[i - 1] {
        j -= 1;
    }
    cards.swap(i - 1, j);
    cards[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_orders_every_arrangement() {
        let counts = [2, 1, 0, 2, 0];
        let total = multinomial(&counts).unwrap();
        assert_eq!(total, 30); // 5! / (2! 1! 2!)
        let mut cards = unrank(&counts, 0).unwrap();
        assert_eq!(cards, vec![0, 0, 1, 3, 3]);
        for r in 0..total {
            assert_eq!(unrank(&counts, r).unwrap(), cards);
            assert_eq!(rank(&cards), r);
            assert_eq!(next_arrangement(&mut cards), r + 1 < total);
        }
        assert_eq!(unrank(&counts, total), None);
    }

    #[test]
    fn standard_deck_count() {
        // 52! / (36! 4!^4)
        assert_eq!(
            multinomial(&[36, 4, 4, 4, 4]),
            Some(653_534_134_886_878_245_000)
        );
        assert_eq!(multinomial_u64(&[16, 2, 2, 2, 2]), 1_853_386_920);
        assert_eq!(multinomial_u64(&[6, 2, 2, 2, 2]), 7_567_560);
    }
}
