//! The tree walk: a node played on until it needs an unread card, then branched over the kinds
//! left; fully fixed games handed to the bulk engine ([`Batched`]).

use super::bulk::{Batched, Waiting};
use super::fixed::{Leaf, play_fixed, record_end};
use super::node::{Ctx, Node};
use super::packed::Packed;
use super::stats::ExhaustiveStats;
use crate::card::{Card, KINDS};
use crate::engine::trick::Step;

/// Plays `node` forward until it needs an unread card (true: the caller branches on it) or its
/// whole subtree is counted into `stats` (false), perhaps later: fully fixed games wait in
/// `scratch` for [`Batched::flush`].
#[inline]
pub(super) fn advance<W: Batched>(
    ctx: &Ctx,
    node: &mut Node<W>,
    stats: &mut ExhaustiveStats,
    scratch: &mut Waiting<W>,
) -> bool {
    if node.present & node.present.wrapping_sub(1) == 0 {
        let deal = if node.present != 0 {
            // Every unread card is now determined: fix them all.
            fill_unknowns(node)
        } else {
            W::Deal::fresh(&node.deal)
        };
        if ctx.lanes {
            let leaf = Leaf {
                deal,
                tricks: node.tricks,
                cards: node.cards,
            };
            W::push(ctx, stats, scratch, leaf, &node.game);
        } else {
            play_fixed(ctx, node, stats);
        }
        return false;
    }
    loop {
        match node.trick::<false>() {
            Step::Unread => return true,
            Step::Next { .. } => {}
            Step::End { winner, cards } => {
                let weight = ctx.weight[node.weight_index as usize];
                let tricks = node.tricks + u64::from(cards > 0);
                let played = node.cards + u64::from(cards);
                record_end(ctx, node, stats, weight, winner, tricks, played);
                return false;
            }
        }
    }
}

/// Queues the child of `node` in which the unread card on top of `node.game.next`'s hand is the
/// last card of `kind` and every other unread card is of the one kind `rest` left: a single deal,
/// built straight into the batch. The same leaf as [`fix`] then [`fill_unknowns`] on a copy of
/// the node, for a third of the cost: this is how most deals of a large deck reach the lanes (the
/// last penalty card read fixes the deal), so it is the tree walk's innermost step.
#[inline(always)]
pub(super) fn push_last<W: Batched>(
    ctx: &Ctx,
    node: &Node<W>,
    kind: usize,
    rest: usize,
    stats: &mut ExhaustiveStats,
    scratch: &mut Waiting<W>,
) {
    let p = node.game.next as usize;
    // The player to act is `p`, whose unread card is on top. (Copied field by field: see
    // `Game::fresh_copy`.)
    let mut game = node.game.fresh_copy();
    game.set_all(p, W::ONE, kind as Card);
    game.set_all(p, node.unknown[p] & !W::ONE, rest as Card);
    game.set_all(p ^ 1, node.unknown[p ^ 1], rest as Card);
    let mut deal = W::Deal::fresh(&node.deal);
    deal.fix(ctx.offset[p] + ctx.dealt[p] - node.unread[p], kind as Card);
    let leaf = Leaf {
        deal: deal.fill(rest as Card),
        tricks: node.tricks,
        cards: node.cards,
    };
    W::push(ctx, stats, scratch, leaf, &game);
}

/// The child of `node` in which the unread card on top of `node.game.next`'s hand is `kind`.
#[inline(always)]
pub(super) fn child<W: Batched>(ctx: &Ctx, node: &Node<W>, kind: usize) -> Node<W> {
    let mut c = *node;
    fix(ctx, &mut c, kind);
    c
}

/// Fixes the unread card on top of `node.game.next`'s hand to `kind`: `node` becomes that child.
#[inline(always)]
pub(super) fn fix<W: Batched>(ctx: &Ctx, c: &mut Node<W>, kind: usize) {
    let p = c.game.next as usize;
    // The unread card counts as a penalty card of kind 1.
    c.game.set(p, 0, kind as Card);
    c.unknown[p] &= !W::ONE;
    c.remaining[kind] -= 1;
    c.present &= !(u8::from(c.remaining[kind] == 0) << kind);
    c.weight_index -= ctx.stride[kind];
    let at = ctx.offset[p] + ctx.dealt[p] - c.unread[p];
    c.deal.fix(at, kind as Card);
    c.unread[p] -= 1;
}

/// Fixes every unread card to the one kind left; returns the deal it wrote, so that the caller
/// need not read it back from the node (see [`Packed::fresh`]).
pub(super) fn fill_unknowns<W: Batched>(node: &mut Node<W>) -> W::Deal {
    let kind = node.present.trailing_zeros() as usize;
    for p in 0..2 {
        node.game.set_all(p, node.unknown[p], kind as Card);
        node.unknown[p] = W::ZERO;
        node.unread[p] = 0;
    }
    let deal = W::Deal::fresh(&node.deal).fill(kind as Card);
    node.deal = deal;
    node.remaining = [0; KINDS];
    node.present = 0;
    node.weight_index = 0;
    deal
}

/// Counts the whole subtree of `node` into `stats` (fully fixed games may wait in `scratch`);
/// `node` is used up as scratch. The children of a branch are independent and counted in any
/// order: the other kinds branch off in copies, and the node itself goes on as its number-card
/// child (the largest subtree), with no copy and no recursion.
///
/// The node goes by reference and each copy is fixed where it will be explored: a child built
/// and then passed by value was copied twice, and the second copy's wide loads of fields just
/// written narrowly by [`fix`] missed store forwarding (a quarter of this function's time).
pub(super) fn explore<W: Batched>(
    ctx: &Ctx,
    node: &mut Node<W>,
    stats: &mut ExhaustiveStats,
    scratch: &mut Waiting<W>,
) {
    while advance(ctx, node, stats, scratch) {
        // A byte load: `fix` has just stored this byte and its neighbour, and the wider load the
        // compiler otherwise makes of it misses store forwarding (the worst stall of the walk).
        // SAFETY: a reference to an initialised `u8`.
        let present = unsafe { std::ptr::read_volatile(&node.present) };
        let keep = present.trailing_zeros() as usize;
        let mut kinds = present & (present - 1);
        let last = kinds.trailing_zeros() as usize;
        if ctx.lanes && kinds & (kinds - 1) == 0 && node.remaining[last] == 1 {
            // Two kinds left and one card of the other: its child is a single deal.
            push_last(ctx, node, last, keep, stats, scratch);
            fix(ctx, node, keep);
            continue;
        }
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let mut c = node.fork();
            fix(ctx, &mut c, kind);
            explore(ctx, &mut c, stats, scratch);
        }
        fix(ctx, node, keep);
    }
}

/// Expands the tree until subtrees hold at most `max_deals` deals: subtrees that finish sooner are
/// counted into `stats`, the others become `tasks`, in a fixed order. (Cutting by weight, not by
/// depth: the subtrees of number cards first are far heavier than the others.)
pub(super) fn split<W: Batched>(
    ctx: &Ctx,
    mut node: Node<W>,
    max_deals: u64,
    tasks: &mut Vec<Node<W>>,
    stats: &mut ExhaustiveStats,
    scratch: &mut Waiting<W>,
) {
    if ctx.weight[node.weight_index as usize] <= max_deals {
        tasks.push(node);
        return;
    }
    if advance(ctx, &mut node, stats, scratch) {
        for kind in 0..KINDS {
            if node.remaining[kind] > 0 {
                let c = child(ctx, &node, kind);
                split(ctx, c, max_deals, tasks, stats, scratch);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::root;
    use super::super::stats::{Extra, Longest};
    use super::*;
    use crate::card::DeckSpec;
    use crate::engine::Outcome;
    use crate::engine::reference;
    use crate::notation::Notation;
    use crate::position::Position;

    /// A game that ends while two kinds are still unread is counted for its whole subtree, with
    /// its last, unfinished trick among its tricks: deck `4-1J1A`, player 1 leads its Ace and
    /// player 2 pays its three number cards and runs out, player 1's last two cards (a Jack and
    /// a number card, in either order) never read. The subtree's smallest deal played by the
    /// reference engine gives what the longest game must say.
    #[test]
    fn a_game_ending_with_cards_unread_counts_its_last_trick() {
        let deck: DeckSpec = "4-1J1A".parse().unwrap();
        let (ctx, mut node) = root::<u32>(&deck, false, Extra::First);
        let mut stats = ExhaustiveStats::new(2);
        let mut scratch = Waiting::<u32>::default();
        // The cards as the game reads them: player 1's Ace, then player 2's three payments.
        for kind in [4, 0, 0, 0] {
            assert!(
                advance(&ctx, &mut node, &mut stats, &mut scratch),
                "needs a card"
            );
            fix(&ctx, &mut node, kind);
        }
        assert!(
            !advance(&ctx, &mut node, &mut stats, &mut scratch),
            "the game ends"
        );
        let deal: Vec<Card> = vec![4, 0, 1, 0, 0, 0];
        let pos = Position::parse("A-J/--- (1)", Notation::Dash).unwrap();
        let Outcome::Terminates {
            winner,
            tricks,
            cards,
        } = reference::play(&pos)
        else {
            panic!("the game ends");
        };
        assert_eq!((winner, tricks, cards), (0, 1, 4), "the reference's count");
        assert_eq!((stats.deals, stats.wins.clone()), (2, vec![2, 0]));
        assert_eq!(
            stats.longest,
            Some(Longest {
                deal,
                cards,
                tricks
            })
        );
    }
}
