//! Progress bars (indicatif) for long work. Hidden when stderr is not a terminal or with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` units named `unit`, with rate and ETA.
pub fn bar(total: u64, unit: &str, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if quiet {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    let template = format!(
        "{{elapsed_precise}} [{{bar:40}}] {{human_pos}}/{{human_len}} {unit} ({{per_sec}}, ETA {{eta}})"
    );
    pb.set_style(
        ProgressStyle::with_template(&template)
            .expect("static template")
            .progress_chars("=> "),
    );
    pb
}

/// An open-ended counter of positions with their rate, for searches of unknown size.
pub fn counter(unit: &str, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if quiet {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    let template = format!("{{elapsed_precise}} {{spinner}} {{human_pos}} {unit} ({{per_sec}})");
    pb.set_style(ProgressStyle::with_template(&template).expect("static template"));
    pb
}
