//! Stage 6, the fills: every deck around the balance-making pieces of the balanced cycles the
//! censuses found.
//!
//! A census deck is player 1's hand `P1 J P2 J … Pk J tail` (separator `J`), its last piece `Pk`
//! holding the accumulator shape. When such a deck reaches a balanced cycle, its other pieces
//! (the lead-in and the balance-making piece of the 2024 construction) are kept where they are
//! and the last piece's place, TEST, takes every arrangement of the cards the deck leaves: the
//! template `P1 J … P(k-1) J {TEST} J tail / OTHER`, as `find-pieces --fill` runs it. A census
//! searched only the accumulator shapes the head sweep proposed; a fill searches that place whole,
//! so it finds every piece that closes the cycle with those pieces, accumulator or not.
//!
//! A fill is a census of a one-piece frame (see [`super::census::Census::Whole`]): it runs in
//! parts, and its decks that never end are known by the cycles they reach.

use crate::ansatz::enumerate::Enumerator;
use crate::ansatz::import::fill_params;
use crate::ansatz::template::Template;
use crate::card::Card;
use crate::notation::Dash;

use super::census::{Census, UNITS};
use super::frame::DeckFrame;

/// The fixed cards of each fill: player 1's cards of every deck in `decks` up to and with the
/// separator before its last piece, without repeats, sorted. A deck that is not a deck of the
/// frame (its tail or its number of pieces differ) gives none.
pub fn befores<'a>(df: &DeckFrame, decks: impl IntoIterator<Item = &'a [Card]>) -> Vec<Vec<Card>> {
    let f = &df.frame;
    let mut out: Vec<Vec<Card>> = decks
        .into_iter()
        .filter_map(|hand| {
            let body = hand.strip_suffix(f.tail.as_slice())?;
            let body = body.strip_suffix(&[f.separator])?;
            let seps: Vec<usize> = (0..body.len())
                .filter(|&i| body[i] == f.separator)
                .collect();
            // k pieces have k - 1 separators between them; the fill keeps the first k - 1.
            (df.k >= 2 && seps.len() == df.k - 1).then(|| body[..=seps[df.k - 2]].to_vec())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The fill template of `before`: TEST after it, then the frame's last separator and tail.
pub fn template(df: &DeckFrame, before: &[Card]) -> Template {
    let f = &df.frame;
    let mut after = vec![f.separator];
    after.extend_from_slice(&f.tail);
    let position = format!(
        "{}{{TEST}}{}/{} ({})",
        Dash(before),
        Dash(&after),
        Dash(&f.other),
        f.to_move + 1
    );
    let mut faces = f.face_kinds.clone();
    faces.push(f.separator);
    faces.sort_unstable();
    faces.dedup();
    Template {
        name: format!("fill {position}"),
        position,
        filter: Vec::new(),
        faces,
        test_hand: 0,
        before: before.to_vec(),
        after,
        other: f.other.clone(),
        to_move: f.to_move,
    }
}

/// The fill of `before` as a census: every arrangement of the cards the deck leaves, or skipped
/// (with the reason) when it has more than `limit` arrangements.
pub fn plan(df: &DeckFrame, before: &[Card], limit: u64) -> Census {
    let t = template(df, before);
    let params = match fill_params(&t, df.deck) {
        Ok(p) => p,
        Err(e) => return Census::Skipped(e.to_string()),
    };
    match Enumerator::new(&t, &params, UNITS) {
        Ok(e) if e.total_candidates() > limit => Census::Skipped(format!(
            "{} arrangements, more than the fill limit {limit}",
            e.total_candidates()
        )),
        Ok(e) => Census::Whole(e),
        Err(e) => Census::Skipped(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::DeckSpec;
    use crate::notation::parse_hand;

    fn hand(s: &str) -> Vec<Card> {
        parse_hand(s, crate::notation::Notation::Dash).unwrap()
    }

    #[test]
    fn befores_keep_the_pieces_before_the_last() {
        let df = super::super::frame::derive(DeckSpec::STANDARD, None, None).unwrap();
        // The 2024 deck of cycle 2 (results/discover): `--`, `--------A-KAA`, the long piece.
        let a = hand("--J--------A-KAAJ--------K---------Q-Q-K---Q-KAQJ-");
        let b = hand("--------A-KAAJ--J--------K---------Q-Q-K---Q-KAQJ-");
        let not_frame = hand("--J--J-");
        let got = befores(&df, [a.as_slice(), b.as_slice(), a.as_slice(), &not_frame]);
        assert_eq!(
            got,
            vec![hand("--------A-KAAJ--J"), hand("--J--------A-KAAJ")]
        );
        let t = template(&df, &got[1]);
        assert_eq!(t.display(), "--J--------A-KAAJ{TEST}J-/J- (1)");
        // 4 Q, 3 K, 1 A and 23 number cards: 31! / (23! 4! 3! 1!) arrangements.
        let Census::Whole(e) = plan(&df, &got[1], u64::MAX) else {
            panic!("the fill fits")
        };
        assert_eq!(e.total_candidates(), 2_208_843_000);
        assert!(matches!(plan(&df, &got[1], 1_000), Census::Skipped(_)));
    }
}
