//! Why an assembly cannot be planned.

/// Why an assembly cannot be planned.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlanError {
    #[error("the frame (separators, tail, other hand) does not fit deck {0}")]
    FrameDoesNotFit(String),
    #[error("assembly needs a deck of at most 52 cards, not {0}")]
    DeckTooLarge(usize),
    #[error("the required piece {0} does not fit the deck's cards")]
    RequiredDoesNotFit(String),
    #[error("a required piece works with --faces assign only")]
    RequiredWithMembers,
    #[error("the rest of the deck around a required piece needs at least 2 pieces a deck")]
    RestNeedsTwoPieces,
}
