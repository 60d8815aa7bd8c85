//! The flags both searches share (`search random`, `search exhaustive`).

use std::path::PathBuf;

use super::cluster::DistArgs;

/// The flags both searches share: where results and checkpoints go, resuming, output, splitting.
#[derive(clap::Args, Debug)]
pub struct RunFlags {
    /// Directory of results and checkpoints (checkpoints of a run into results/ go to out/work/).
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue the interrupted run with the same options from its checkpoint.
    #[arg(long)]
    pub resume: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub dist: DistArgs,
}
