//! `ansatz merge`: combines the shard files of a `--shard I/N` job array into exactly the answer
//! of the single run (the same JSON and result files).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::run::merge::{Merged, merge};

/// Merge the shard files of a job array (`--shard I/N`) into the single-run answer.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz assemble --balance --shard 0/3 --out out/shards   # one task of a job array (0/3, 1/3, 2/3)
  ansatz merge out/shards/assemble-paper-2024-k3-balance.shard-*-of-3.bin --json
  ansatz merge --out out out/shards/*.bin
  ansatz find-pieces --max-len 20 --shard 1/4 --out out/len20.bin   # writes out/len20.bin.shard-1-of-4
  ansatz merge out/len20.bin.shard-*-of-4                            # writes out/len20.bin
  ansatz search exhaustive --deck 8-2J2Q2K --shard 0/2               # and 1/2
  ansatz merge out/exhaustive-8-2J2Q2K-2p.shard-*-of-2.bin --json
  ansatz family --shard 0/4 --out out/fam.json                       # and 1/4, 2/4, 3/4
  ansatz merge out/fam.json.shard-*-of-4 --json                      # writes out/fam.json

  ansatz merge --partial shards/around-a-kaa/*.bin   # the shards of a job array done so far
  ansatz merge --partial shards/census/exhaustive-32-2J2Q2K2A-2p.shard-*-of-64.bin   # a census so far
  ansatz merge --partial --out out/len34-so-far.bin shards/pieces-len34/len34-faces8.bin.shard-*
  ansatz inspect out/len34-so-far.bin                # the pieces of those shards

Every shard 0..N of one run must be given exactly once; shards of different runs or commands,
and truncated or foreign files, are refused (exit 2). The merged result files go to --out.
With --partial shards may be missing: the answer covers the shards given and says which
(partial: shards, of). For assemble and search exhaustive it writes no result files (the
exhaustive answer counts the deals of those shards, beside the deck's deals_of_deck); for
find-pieces it writes the
library of those shards to --out (required, and not the run's own library), its method naming the
shards, so `ansatz inspect` can read the pieces of a job array still running.")]
pub struct Args {
    /// Shard files written by `--shard I/N` runs.
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Where the merged answer goes: the results directory of `assemble` and `search` (default
    /// out/), the library file of `find-pieces` and the JSON file of `family` (default: the --out
    /// the shards were given).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Merge the shards done so far (others may be missing): `assemble` and `search exhaustive`
    /// print the answer for those shards only and write no result files; `find-pieces` writes
    /// their library to --out.
    #[arg(long)]
    partial: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    Ok(
        match merge(&args.files, args.out.as_deref(), args.partial)? {
            Merged::Assemble(a) => {
                super::assemble::print(&a, args.json)?;
                ExitCode::SUCCESS
            }
            Merged::FindPieces(a) => super::find_pieces::print(&a, args.json)?,
            Merged::Family(a) => super::family::print(&a, args.json)?,
            Merged::Random(a) => {
                super::search::print_random(&a, args.json)?;
                ExitCode::SUCCESS
            }
            Merged::Exhaustive(a) => {
                super::search_exhaustive::print_exhaustive(&a, args.json)?;
                ExitCode::SUCCESS
            }
            Merged::Discover(a) => super::discover::print(&a, args.json)?,
        },
    )
}
