//! A discovery's options as a user gives them (the CLI's flags, the Python module's keywords),
//! and their one validation into a [`Config`]: both front ends build an [`Options`] and call
//! [`Options::config`], so they accept and refuse the same runs with the same messages.

use super::config::Config;
use super::error::DiscoverError;
use super::scope::{Route, Scope};
use super::split::SplitScope;
use super::{frame, heads};
use crate::card::{Card, DASH_SYMBOLS, DeckSpec};

/// The most cycles the insertion beam keeps, and the most lateral moves (`--beam`, `--lateral`).
pub const MAX_BEAM: u64 = 100_000;

/// A discovery's options before validation. [`Options::new`] gives the default run on a deck;
/// each field is the flag of the same name.
#[derive(Clone, Debug)]
pub struct Options {
    pub deck: DeckSpec,
    /// The smaller documented scope ([`Scope::QUICK`]).
    pub quick: bool,
    pub route: Route,
    /// Cycles the insertion route keeps at each size (1 to [`MAX_BEAM`]; `None`: the scope's).
    pub beam: Option<u64>,
    /// 0 to [`MAX_BEAM`].
    pub lateral: u64,
    /// The separator's symbol (J, Q, K or A, either case).
    pub separator: Option<char>,
    /// The frame's ends in the form [`frame::Ends`] parses.
    pub frame: Option<String>,
    /// The head sweep's filter, dash notation.
    pub filter: Option<String>,
    pub fill_limit: Option<u64>,
    pub census_limit: Option<u64>,
    /// `None`: the scope's.
    pub whole_deck_limit: Option<u64>,
    /// The split route's positions (0: the route is not taken; `None`: the scope's).
    pub split_positions: Option<u64>,
    pub max_positions: u64,
    pub stop_after_censuses: Option<usize>,
}

impl Options {
    /// The default run on `deck`: both routes, the default scope, the deck's own frame.
    pub fn new(deck: DeckSpec) -> Options {
        Options {
            deck,
            quick: false,
            route: Route::Both,
            beam: None,
            lateral: 0,
            separator: None,
            frame: None,
            filter: None,
            fill_limit: None,
            census_limit: None,
            whole_deck_limit: None,
            split_positions: None,
            max_positions: super::DEFAULT_MAX_POSITIONS,
            stop_after_censuses: None,
        }
    }

    /// The validated configuration, or why the run cannot start (before any work or
    /// checkpoint, so that bad input is refused at once).
    pub fn config(&self) -> Result<Config, DiscoverError> {
        let deck = self.deck;
        if let Some(b) = self.beam {
            in_range("--beam", b, 1)?;
        }
        in_range("--lateral", self.lateral, 0)?;
        let separator = self.separator.map(separator).transpose()?;
        let ends = self
            .frame
            .as_deref()
            .map(str::parse::<frame::Ends>)
            .transpose()?;
        let df = frame::derive(deck, separator, ends.as_ref())?;
        // The filter in canonical dash notation, as names and checkpoints carry it.
        let filter = self
            .filter
            .as_deref()
            .map(|f| heads::check_filter(&df, f))
            .transpose()?;
        // The deck's own separator and ends asked for by name are the default run (one name,
        // one checkpoint).
        let lowest = frame::derive(deck, None, None).map(|d| d.separator);
        let separator = separator.filter(|&s| lowest.as_ref().ok() != Some(&s));
        let ends = frame::unless_default(deck, separator, ends);
        let mut scope = if self.quick {
            Scope::QUICK
        } else {
            Scope::DEFAULT
        }
        .with(self.route, self.beam.map(|b| b as usize));
        // One route alone plays nothing whole (`Scope::with`), whatever the option says.
        if let (Some(n), true) = (self.whole_deck_limit, scope.whole_deck_limit > 0) {
            scope.whole_deck_limit = n;
        }
        // The split route runs beside both others only (`Scope::with`), as the whole deck.
        if let (Some(n), Some(_)) = (self.split_positions, scope.split) {
            scope.split = (n > 0).then_some(SplitScope { positions: n });
        }
        let config = Config {
            separator,
            ends,
            lateral: self.lateral as usize,
            filter,
            fill_limit: self.fill_limit.unwrap_or(scope.fill_limit()),
            census_limit: self.census_limit,
            max_positions: self.max_positions,
            stop_after_censuses: self.stop_after_censuses,
            ..Config::new(deck, scope)
        };
        super::check(&config)?;
        Ok(config)
    }
}

/// The face kind a separator's symbol names.
fn separator(c: char) -> Result<Card, DiscoverError> {
    match DASH_SYMBOLS
        .iter()
        .position(|&s| s == c.to_ascii_uppercase())
    {
        Some(k) if k > 0 => Ok(k as Card),
        _ => Err(DiscoverError::BadSeparator(c)),
    }
}

fn in_range(flag: &'static str, value: u64, lo: u64) -> Result<(), DiscoverError> {
    if (lo..=MAX_BEAM).contains(&value) {
        Ok(())
    } else {
        Err(DiscoverError::OutOfRange { flag, value, lo })
    }
}

impl std::str::FromStr for Route {
    type Err = DiscoverError;

    fn from_str(s: &str) -> Result<Route, DiscoverError> {
        match s {
            "both" => Ok(Route::Both),
            "ansatz" => Ok(Route::Ansatz),
            "insertion" => Ok(Route::Insertion),
            _ => Err(DiscoverError::BadRoute(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Options {
        Options::new(DeckSpec::STANDARD)
    }

    #[test]
    fn the_default_options_are_the_default_config() {
        let c = standard().config().unwrap();
        let d = Config::new(DeckSpec::STANDARD, Scope::DEFAULT);
        assert_eq!(format!("{c:?}"), format!("{d:?}"));
    }

    #[test]
    fn the_decks_own_separator_by_name_is_the_default_run() {
        let by_name = Options {
            separator: Some('j'),
            ..standard()
        };
        assert_eq!(by_name.config().unwrap().separator, None);
        let queen = Options {
            separator: Some('Q'),
            ..standard()
        };
        assert_eq!(queen.config().unwrap().separator, Some(2));
    }

    #[test]
    fn bad_options_say_which_and_why() {
        let cases: [(Options, &str); 5] = [
            (
                Options {
                    separator: Some('X'),
                    ..standard()
                },
                "--separator X",
            ),
            (
                Options {
                    beam: Some(0),
                    ..standard()
                },
                "'--beam <N>'",
            ),
            (
                Options {
                    lateral: MAX_BEAM + 1,
                    ..standard()
                },
                "'--lateral <N>'",
            ),
            (
                Options {
                    frame: Some("nonsense".into()),
                    ..standard()
                },
                "--frame nonsense",
            ),
            (
                Options {
                    filter: Some("J".into()),
                    ..standard()
                },
                "--filter J",
            ),
        ];
        for (o, says) in cases {
            let e = o.config().unwrap_err().to_string();
            assert!(e.contains(says), "{e:?} should name {says:?}");
        }
        let e = "sideways".parse::<Route>().unwrap_err().to_string();
        assert!(
            e.contains("possible values: both, ansatz, insertion"),
            "{e}"
        );
    }

    #[test]
    fn one_route_alone_plays_nothing_whole() {
        let small: DeckSpec = "8-2J2Q2K2A".parse().unwrap();
        let both = Options {
            whole_deck_limit: Some(5),
            ..Options::new(small)
        };
        assert_eq!(both.config().unwrap().scope.whole_deck_limit, 5);
        let alone = Options {
            route: Route::Insertion,
            ..both
        };
        assert_eq!(alone.config().unwrap().scope.whole_deck_limit, 0);
    }
}
