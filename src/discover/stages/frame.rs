//! The frame stage: the deck's frame, its arrangements, and which way it is searched.

use crate::discover::error::DiscoverError;
use crate::discover::frame::whole_frame_decks;
use crate::discover::stage::{Context, Done, Log};

/// Reports the frame; whether it is searched by shapes (the filter, heads and censuses around
/// accumulator shapes) rather than whole.
pub fn run(cx: &Context, log: &mut Log) -> Result<bool, DiscoverError> {
    log.stage("frame", |start| {
        start(1, "decks");
        let df = &cx.df;
        let whole = whole_frame_decks(df);
        let by_shapes = df.k >= 2 && whole > cx.config.scope.whole_frame_limit;
        let summary = format!(
            "{} (separator {}, pieces of number cards and {}); {} arrangements of the frame: {}",
            df.display(),
            crate::card::symbol(df.separator),
            df.faces_text(),
            whole,
            if cx.config.whole_deck().is_some() {
                "the deck is played whole instead"
            } else if by_shapes {
                "census around accumulator shapes"
            } else {
                "census of every deck"
            }
        );
        Ok((by_shapes, Done::new(1, "decks", summary)))
    })
}
