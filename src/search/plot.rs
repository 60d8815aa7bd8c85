//! The histogram of game lengths on a log scale (as Fig. 1 of arXiv:2403.13855), drawn with plotters
//! into an SVG file; several histograms (uniform and balanced-face deals) can share one plot.

use std::path::Path;

use plotters::prelude::*;
use thiserror::Error;

#[derive(Debug, Error)]
#[error("drawing {path}: {detail}")]
pub struct PlotError {
    pub path: String,
    pub detail: String,
}

/// One histogram to draw: `hist[x]` games of length `x`.
pub struct Series<'a> {
    pub label: String,
    pub hist: &'a [u64],
}

/// Lengths per plotted bin.
const BIN: usize = 10;

const COLOURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

/// Draws the fraction of games of each length (log scale) for every series into an SVG at `path`.
/// `x_label` names the length (cards or tricks).
pub fn histogram_svg(
    path: &Path,
    title: &str,
    x_label: &str,
    series: &[Series],
) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError {
        path: path.display().to_string(),
        detail: e.to_string(),
    };
    let x_max = series
        .iter()
        .filter_map(|s| s.hist.iter().rposition(|&n| n > 0))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    // Fractions, so series of different sizes compare; the floor is one game of the largest series.
    let largest = series
        .iter()
        .map(|s| s.hist.iter().sum::<u64>())
        .max()
        .unwrap_or(1)
        .max(1);
    let y_min = 0.5 / largest as f64 / BIN as f64;
    // Drawn into memory, then written atomically.
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..x_max * 1.02, (y_min..1f64).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_desc("fraction of games per length")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in series.iter().enumerate() {
            let total = s.hist.iter().sum::<u64>().max(1) as f64;
            let colour = COLOURS[i % COLOURS.len()];
            // Bins of BIN lengths, drawn at their middle: the tail holds a few games per length,
            // and single lengths would draw noise.
            let points: Vec<(f64, f64)> = s
                .hist
                .chunks(BIN)
                .enumerate()
                .filter(|&(_, c)| c.iter().any(|&n| n > 0))
                .map(|(i, c)| {
                    let n: u64 = c.iter().sum();
                    let x = (i * BIN) as f64 + BIN as f64 / 2.0;
                    (x, n as f64 / total / BIN as f64)
                })
                .collect();
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 2, colour.filled())))
                .map_err(|e| err(&e))?
                .label(s.label.clone())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    super::checkpoint::write_atomic(path, svg.as_bytes()).map_err(|e| err(&e))
}
