//! The counting batch's arrays, one per field of the games (struct of arrays): the positions as
//! queued, the kinds the kinds step reads, and the split planes of the split lanes.

use crate::engine::game::Plane;

/// A lane element the batch plays in: `u32` or `u64`.
pub(crate) trait Lane: Plane + From<u32> + Into<u64> {
    /// `x`, which fits (a card count).
    fn of_u64(x: u64) -> Self;
}

impl Lane for u32 {
    #[inline(always)]
    fn of_u64(x: u64) -> u32 {
        x as u32
    }
}

impl Lane for u64 {
    #[inline(always)]
    fn of_u64(x: u64) -> u64 {
        x
    }
}

/// Queued games, structure of arrays as the lanes load them (`a` the player to act first), and
/// the cards each played before the lanes.
pub(super) struct Soa<E> {
    pub(super) fa: Vec<E>,
    pub(super) fb: Vec<E>,
    pub(super) la: Vec<E>,
    pub(super) lb: Vec<E>,
    pub(super) ha: Vec<E>,
    pub(super) hb: Vec<E>,
    pub(super) na: Vec<E>,
    pub(super) nb: Vec<E>,
    pub(super) pf: Vec<E>,
    pub(super) pl: Vec<E>,
    pub(super) ph: Vec<E>,
    pub(super) n: Vec<E>,
    pub(super) debt: Vec<E>,
    pub(super) who: Vec<E>,
    pub(super) slot: Vec<E>,
    pub(super) cards: Vec<E>,
}

impl<E: Lane> Soa<E> {
    pub(super) fn new(len: usize) -> Soa<E> {
        let v = || vec![E::ZERO; len];
        Soa {
            fa: v(),
            fb: v(),
            la: v(),
            lb: v(),
            ha: v(),
            hb: v(),
            na: v(),
            nb: v(),
            pf: v(),
            pl: v(),
            ph: v(),
            n: v(),
            debt: v(),
            who: v(),
            slot: v(),
            cards: v(),
        }
    }
}

/// The face planes and kinds of the queued games' hands and piles, in the kinds step's form
/// (`KindsGroup`'s `fa`, `fb` and `pf`, reversed: card `i` at bit `BITS - 1 - i`; `va`, `vb`,
/// `pv` and `pr`), converted from their planes by `arrays::convert`.
pub(crate) struct KindsSoa<E> {
    pub(super) fa: Vec<E>,
    pub(super) fb: Vec<E>,
    pub(super) pf: Vec<E>,
    pub(super) va: Vec<E>,
    pub(super) vb: Vec<E>,
    pub(super) pv: Vec<E>,
    pub(super) pr: Vec<E>,
}

impl<E: Lane> KindsSoa<E> {
    pub(super) fn new(len: usize) -> KindsSoa<E> {
        let v = || vec![E::ZERO; len];
        KindsSoa {
            fa: v(),
            fb: v(),
            pf: v(),
            va: v(),
            vb: v(),
            pv: v(),
            pr: v(),
        }
    }
}

/// The queued games in the split lanes' `u32` words (see `Split`), made from the batch's `u64`
/// kinds by `split::convert`.
#[derive(Default)]
pub(super) struct SplitSoa {
    pub(super) fah: Vec<u32>,
    pub(super) fal: Vec<u32>,
    pub(super) fbh: Vec<u32>,
    pub(super) fbl: Vec<u32>,
    pub(super) pfh: Vec<u32>,
    pub(super) pfl: Vec<u32>,
    pub(super) va: Vec<u32>,
    pub(super) vb: Vec<u32>,
    pub(super) pv: Vec<u32>,
    pub(super) pr: Vec<u32>,
    pub(super) na: Vec<u32>,
    pub(super) nb: Vec<u32>,
    pub(super) n: Vec<u32>,
    pub(super) debt: Vec<u32>,
    pub(super) cards: Vec<u32>,
    pub(super) who: Vec<u32>,
}
