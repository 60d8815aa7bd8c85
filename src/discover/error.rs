//! Why a discovery cannot run or stopped: the one error type of `discover`.

/// Why a discovery cannot run or stopped.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    #[error("deck {0} holds {1} cards; discovery handles at most 52")]
    DeckTooLarge(String, usize),
    #[error("deck {0} has no penalty cards (J, Q, K, A): every game ends")]
    NoPenaltyCards(String),
    #[error(
        "deck {0} has no frame: it needs at least 2 cards of the separator kind (its lowest face kind unless --separator says), another face kind for the pieces, and 2 number cards"
    )]
    NoFrame(String),
    #[error("--frame {0}: {1}")]
    BadFrame(String, String),
    #[error("--filter {0}: {1}")]
    BadFilter(String, String),
    #[error("deck {0} holds no {1}: it cannot be the separator")]
    NoSeparator(String, char),
    #[error("--separator {0}: give a face kind, J, Q, K or A")]
    BadSeparator(char),
    #[error("invalid value '{value}' for '{flag} <N>': {value} is not in {lo}..=100000")]
    OutOfRange {
        flag: &'static str,
        value: u64,
        lo: u64,
    },
    #[error("invalid value '{0}' for '--route <ROUTE>' [possible values: both, ansatz, insertion]")]
    BadRoute(String),
    #[error("no checkpoint to resume: {0}")]
    NoCheckpoint(String),
    #[error("the checkpoint {0}")]
    Checkpoint(String),
    #[error("a balanced deal failed its replay with the reference engine: {0}")]
    Replay(String),
    #[error("stopped after {0} censuses (as an interruption would); finish with --resume")]
    Stopped(usize),
}
