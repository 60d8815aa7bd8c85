//! What an `assemble` run tests, validated from its options: the piece libraries read (the
//! published 2024 pieces built in), the deck frame of the template, the plan of decks, and the
//! names of the run (its result files and its fingerprint).

use std::path::{Path, PathBuf};

use super::RunError;
use crate::ansatz::template::Template;
use crate::assemble::candidates::Frame;
use crate::assemble::rest::parse_shape;
use crate::assemble::{Faces, Plan};
use crate::card::{Card, DeckSpec};
use crate::library::{self, Library};

/// About how many units `--rest all` cuts its decks into (threads and the checkpoint take whole
/// units).
const REST_UNITS: u64 = 4096;

/// The published pieces of 2024, built in so that `ansatz assemble --balance` works anywhere.
const PAPER_LIBRARY: &[u8] = include_bytes!("../../pieces/paper-2024.bin");
const PAPER_LIBRARY_NAME: &str = "pieces/paper-2024.bin (built in)";

/// The options of an assembly, as the command line gives them.
#[derive(Clone, Debug)]
pub struct AssembleOptions {
    /// Piece libraries (none: the built-in 2024 pieces).
    pub libraries: Vec<PathBuf>,
    pub template: Option<PathBuf>,
    /// Pieces per deck.
    pub pieces: usize,
    pub faces: Faces,
    /// A piece every deck must hold.
    pub require: Option<String>,
    /// Every arrangement of the rest of the deck around the required piece (`--rest all`).
    pub rest_all: bool,
    pub balance: bool,
    pub limit: Option<u64>,
    pub deck: String,
    pub max_positions: u64,
    /// The name of the result files (default: made from the options).
    pub name: Option<String>,
}

struct Loaded {
    name: String,
    library: Library,
}

fn load_libraries(paths: &[PathBuf]) -> Result<Vec<Loaded>, RunError> {
    if paths.is_empty() {
        let library = library::decode(PAPER_LIBRARY, Path::new(PAPER_LIBRARY_NAME))
            .map_err(|e| RunError::failed(format!("the built-in library: {e}")))?;
        return Ok(vec![Loaded {
            name: PAPER_LIBRARY_NAME.into(),
            library,
        }]);
    }
    paths
        .iter()
        .map(|p| {
            let library = library::read(p).map_err(RunError::input)?;
            Ok(Loaded {
                name: p.display().to_string(),
                library,
            })
        })
        .collect()
}

/// The deck frame of a template: TEST is followed by the separator and the tail in player 1's hand.
fn frame_of(t: &Template, deck: DeckSpec) -> Result<Frame, RunError> {
    if t.test_hand != 0 || t.after.is_empty() {
        return Err(RunError::Input(format!(
            "template {}: assembly needs TEST in player 1's hand followed by a separator card",
            t.name
        )));
    }
    Ok(Frame {
        separator: t.after[0],
        tail: t.after[1..].to_vec(),
        other: t.other.clone(),
        to_move: t.to_move,
        face_kinds: t.faces.clone(),
        deck,
    })
}

/// What a run tests and how it is named, validated from the arguments.
pub struct Setup {
    pub deck: DeckSpec,
    pub template: crate::library::TemplateInfo,
    pub frame: Frame,
    pub plan: std::sync::Arc<Plan>,
    pub lib_names: Vec<String>,
    pub limit: u64,
    /// The name of the result files.
    pub stem: String,
    /// Names the run in its checkpoint: a checkpoint is resumed only by the same run.
    pub fingerprint: String,
}

/// Validates the options: the libraries read, the plan of decks made, the run named.
pub fn setup(args: &AssembleOptions) -> Result<Setup, RunError> {
    if args.pieces == 0 || args.pieces > 8 {
        return Err(RunError::Input(format!(
            "--pieces {} must be between 1 and 8",
            args.pieces
        )));
    }
    let deck: DeckSpec = args.deck.parse().map_err(RunError::input)?;
    let template = match &args.template {
        Some(p) => Template::read(p).map_err(RunError::input)?,
        None => Template::jack(),
    };
    let around = args.rest_all;
    if around {
        let clash = [
            (!args.libraries.is_empty(), "--library"),
            (args.faces == Faces::Members, "--faces members"),
            (args.limit.is_some(), "--limit"),
        ];
        if let Some((_, flag)) = clash.iter().find(|(c, _)| *c) {
            return Err(RunError::Input(format!(
                "--rest all tests every deck around the --require piece; it takes no {flag}"
            )));
        }
    }
    let libs = if around {
        Vec::new()
    } else {
        load_libraries(&args.libraries)?
    };
    let want = crate::ansatz::find::template_info(&template);
    for l in &libs {
        if l.library.header.template.game != want.game {
            return Err(RunError::Input(format!(
                "{}: made for template {} ({}), not {} ({}); pass --template with the library's template",
                l.name,
                l.library.header.template.name,
                l.library.header.template.game,
                want.name,
                want.game
            )));
        }
    }
    let pieces: Vec<Vec<Card>> = libs
        .iter()
        .flat_map(|l| l.library.pieces.iter().map(|p| p.sequence.clone()))
        .collect();
    let frame = frame_of(&template, deck)?;
    let plan = match args.require.as_deref() {
        Some(r) if around => {
            let shape =
                parse_shape(r).map_err(|e| RunError::Input(format!("--require {r:?}: {e}")))?;
            Plan::around(frame.clone(), args.pieces, shape, REST_UNITS)
        }
        Some(r) if r.contains(['X', 'x', '*']) => {
            return Err(RunError::Input(format!(
                "--require {r:?}: wildcard face slots need --rest all"
            )));
        }
        r => {
            let required = r
                .map(|r| {
                    crate::notation::parse_hand(r, crate::notation::Notation::Dash)
                        .map_err(|e| RunError::Input(format!("--require {r:?}: {e}")))
                })
                .transpose()?;
            Plan::new(frame.clone(), &pieces, args.pieces, args.faces, required)
        }
    }
    .map_err(RunError::input)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let lib_names: Vec<String> = libs.iter().map(|l| l.name.clone()).collect();
    let fingerprint = format!(
        "assemble v1 libraries={:?} template={} k={} faces={:?} require={:?}{} deck={} balance={} limit={} max_positions={}",
        libs.iter()
            .map(|l| library::fnv1a(&library::encode(&l.library)))
            .collect::<Vec<_>>(),
        want.game,
        args.pieces,
        args.faces,
        args.require,
        if around { " rest=all" } else { "" },
        deck,
        args.balance,
        limit,
        args.max_positions
    );
    // Runs in other templates than the built-in one name theirs, so they can share a directory.
    let template_part = if args.template.is_some() && template.name != Template::jack().name {
        format!("-{}", template.name)
    } else {
        String::new()
    };
    let stem = args.name.clone().unwrap_or_else(|| {
        format!(
            "assemble-{}{}-k{}{}{}{}",
            if around {
                "rest".to_string()
            } else {
                libs.iter()
                    .map(|l| short_name(&l.name))
                    .collect::<Vec<_>>()
                    .join("+")
            },
            template_part,
            args.pieces,
            if args.faces == Faces::Members {
                "-members"
            } else {
                ""
            },
            args.require
                .as_deref()
                .map(|r| format!("-with-{}", r.replace('-', ".")))
                .unwrap_or_default(),
            if args.balance { "-balance" } else { "" }
        )
    });
    Ok(Setup {
        deck,
        template: want,
        frame,
        plan: std::sync::Arc::new(plan),
        lib_names,
        limit,
        stem,
        fingerprint,
    })
}

fn short_name(name: &str) -> String {
    Path::new(name.split_whitespace().next().unwrap_or(name))
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "library".into())
}
