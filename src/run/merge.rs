//! `ansatz merge`: the shard files of a job array into the single run's answer, whichever job
//! wrote them (the command each file names picks the job).

use std::path::{Path, PathBuf};

use super::RunError;
use super::assemble::{AssembleAnswer, merge_assemble};
use super::discover::{DiscoverAnswer, DiscoverJob};
use super::exhaustive::{self, ExhaustiveAnswer, ExhaustiveJob};
use super::family::{FamilyAnswer, FamilyJob};
use super::find_pieces::{FindAnswer, FindJob, finish_partial};
use super::job::{decode_parts, merge_parts};
use super::random::{RandomAnswer, RandomJob};
use super::shard::{read_set, read_some};

/// The answer of a merged job array.
pub enum Merged {
    Assemble(AssembleAnswer),
    FindPieces(FindAnswer),
    Family(FamilyAnswer),
    Random(RandomAnswer),
    Exhaustive(ExhaustiveAnswer),
    Discover(DiscoverAnswer),
}

/// Merges the shard files at `paths` (every shard of one run, each once) and writes the result
/// files to `out`: the results directory of `assemble` and `search` (default out/), the library
/// of `find-pieces` and the JSON file of `family` (default: the `--out` the shards were given).
/// With `partial` (assemble, find-pieces and search exhaustive) shards may be missing: the answer
/// names those given; assemble and search exhaustive then write no result file, find-pieces
/// writes the library of those shards to `out` (required, and not the run's own library).
pub fn merge(paths: &[PathBuf], out: Option<&Path>, partial: bool) -> Result<Merged, RunError> {
    let read = if partial { read_some } else { read_set };
    let files = read(paths).map_err(RunError::input)?;
    let command = files[0].command.as_str();
    if partial && !matches!(command, "assemble" | "find-pieces" | "search-exhaustive") {
        return Err(RunError::Input(format!(
            "--partial merges shard files of `assemble`, `find-pieces` and `search exhaustive`, not of `{command}`"
        )));
    }
    let shards = || files.iter().map(|f| f.shard.index).collect::<Vec<u32>>();
    Ok(match command {
        "assemble" => {
            let dir = out.map_or_else(
                || PathBuf::from(crate::provenance::DEFAULT_OUT),
                Path::to_path_buf,
            );
            Merged::Assemble(merge_assemble(&files, (!partial).then_some(dir.as_path()))?)
        }
        "find-pieces" if partial => {
            let (ctx, parts) = decode_parts::<FindJob>(&files)?;
            Merged::FindPieces(finish_partial(
                ctx,
                parts,
                out,
                shards(),
                files[0].shard.count,
            )?)
        }
        "search-exhaustive" if partial => {
            let (ctx, parts) = decode_parts::<ExhaustiveJob>(&files)?;
            let count = files[0].shard.count;
            Merged::Exhaustive(exhaustive::finish_partial(ctx, parts, shards(), count)?)
        }
        "find-pieces" => Merged::FindPieces(merge_parts::<FindJob>(&files, out)?),
        "family" => Merged::Family(merge_parts::<FamilyJob>(&files, out)?),
        "search-random" => Merged::Random(merge_parts::<RandomJob>(&files, out)?),
        "search-exhaustive" => Merged::Exhaustive(merge_parts::<ExhaustiveJob>(&files, out)?),
        "discover" => Merged::Discover(merge_parts::<DiscoverJob<'static>>(&files, out)?),
        other => {
            return Err(RunError::Input(format!(
                "shard files of `{other}` cannot be merged by this ansatz"
            )));
        }
    })
}
