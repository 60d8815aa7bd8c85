//! The histogram of game lengths on a log scale (as Fig. 1 of arXiv:2403.13855), drawn with plotters
//! into an SVG or PNG file; several histograms (uniform and balanced-face deals) can share one plot.

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

/// The font the PNG backend draws text with (it has no system fonts to fall back on): DejaVu Sans
/// cut down to printable ASCII (`assets/fonts/LICENSE`).
pub static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// Draws the fraction of games of each length (log scale) for every series into `path`: a PNG
/// when the name ends in `.png` (any case), an SVG otherwise. `x_label` names the length (cards or
/// tricks).
pub fn histogram(
    path: &Path,
    title: &str,
    x_label: &str,
    series: &[Series],
) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError {
        path: path.display().to_string(),
        detail: e.to_string(),
    };
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    // Both backends lay text out with the registered font (the SVG one to size the labels).
    // Registering twice is harmless: the last font registered for a family is used.
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| err(&"the built-in font is unreadable"))?;
    // Drawn into memory, then written atomically.
    let bytes = if png {
        let (w, h) = SIZE;
        let mut rgb = vec![0u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
            draw(&root, title, x_label, series).map_err(|e| err(&e))?;
        }
        encode_png(&rgb, w, h).map_err(|e| err(&e))?
    } else {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
            draw(&root, title, x_label, series).map_err(|e| err(&e))?;
        }
        svg.into_bytes()
    };
    crate::library::write_atomic(path, &bytes).map_err(|e| err(&e.source))
}

/// The plot size in pixels.
const SIZE: (u32, u32) = (900, 560);

/// An 8-bit RGB image as PNG bytes.
pub fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(rgb)?;
    Ok(out)
}

/// The chart itself, on any plotters backend.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    x_label: &str,
    series: &[Series],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
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
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..x_max * 1.02, (y_min..1f64).log_scale())?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_desc("fraction of games per length")
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()?;
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
            .draw_series(points.iter().map(|&p| Circle::new(p, 2, colour.filled())))?
            .label(s.label.clone())
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(hist: &[u64]) -> Vec<Series<'_>> {
        vec![Series {
            label: "uniform deals".into(),
            hist,
        }]
    }

    fn tmp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("ansatz-plot-{}-{name}", std::process::id()))
    }

    /// A geometric histogram, like the tail of real game lengths.
    fn tail() -> Vec<u64> {
        (0..400).map(|x| 1_000_000u64 >> (x / 25)).collect()
    }

    #[test]
    fn svg_holds_title_labels_and_points() {
        let path = tmp("h.svg");
        let hist = tail();
        histogram(&path, "Game lengths", "cards played", &series(&hist)).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in ["Game lengths", "cards played", "uniform deals"] {
            assert!(svg.contains(text), "{text}");
        }
        // One circle per non-empty bin of 10 lengths, plus the legend's.
        assert_eq!(svg.matches("<circle").count(), 40 + 1);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn png_is_an_image_with_the_series_colour() {
        let path = tmp("h.PNG");
        let hist = tail();
        histogram(&path, "Game lengths", "cards played", &series(&hist)).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), SIZE);
        let pixels = &buf[..info.buffer_size()];
        let blue = COLOURS[0];
        let of = |c: RGBColor| {
            pixels
                .chunks(3)
                .filter(|p| (p[0], p[1], p[2]) == (c.0, c.1, c.2))
                .count()
        };
        assert!(of(blue) > 40, "the points are drawn");
        // Text is drawn with the built-in font: the caption darkens the top rows, where nothing
        // else is drawn.
        let top = &pixels[..(SIZE.0 * 40 * 3) as usize];
        let dark = top.chunks(3).filter(|p| p.iter().all(|&v| v < 128)).count();
        assert!(dark > 100, "the caption is drawn ({dark} dark pixels)");
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn unwritable_path_is_an_error() {
        let hist = tail();
        let file = tmp("not-a-dir");
        std::fs::write(&file, b"").unwrap();
        let path = file.join("x.png");
        let e = histogram(&path, "t", "x", &series(&hist)).unwrap_err();
        assert!(e.to_string().contains(&path.display().to_string()));
        std::fs::remove_file(file).unwrap();
    }
}
