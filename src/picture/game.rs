//! The picture of one game: both hand sizes and player 1's face cards per trick, with the
//! preperiod and period of a game that never ends, or the final collapse of one that ends; drawn
//! with plotters into SVG or PNG.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Format, PictureError, write};
use crate::card::{ACE, Card, JACK, KING, QUEEN};
use crate::engine::reference::{Trick, trick};
use crate::engine::{Outcome, reference};
use crate::position::Position;

/// The game as the picture shows it: one row per trick boundary.
#[derive(Clone, Debug)]
pub struct GameSeries {
    /// Cards in each player's hand before trick `t` (the last row: after the game ended).
    pub hands: Vec<[u32; 2]>,
    /// Player 1's jacks, queens, kings and aces before trick `t`.
    pub faces: Vec<[u32; 4]>,
    /// Face cards in the whole deck (player 2 holds the ones player 1 does not, between tricks).
    pub deck_faces: u32,
    pub outcome: Outcome,
    /// For a game that ends: the trick where its final collapse starts (the last trick boundary at
    /// which the loser held at least as many cards as the winner).
    pub collapse_from: Option<usize>,
}

const FACES: [Card; 4] = [JACK, QUEEN, KING, ACE];

fn faces_of(hand: &[Card]) -> [u32; 4] {
    let mut out = [0; 4];
    for &c in hand {
        if let Some(i) = FACES.iter().position(|&f| f == c) {
            out[i] += 1;
        }
    }
    out
}

/// Plays `pos` with the reference engine. A game that ends is followed to its end; one that never
/// ends through its preperiod and two periods, so the repetition shows.
pub fn series(pos: &Position) -> GameSeries {
    let outcome = reference::play(pos);
    let limit = match &outcome {
        Outcome::Terminates { tricks, .. } => *tricks,
        Outcome::Cycle(c) => c.preperiod + 2 * c.period,
    };
    let deck_faces =
        faces_of(&pos.hands[0]).iter().sum::<u32>() + faces_of(&pos.hands[1]).iter().sum::<u32>();
    let mut hands = Vec::with_capacity(limit as usize + 1);
    let mut faces = Vec::with_capacity(limit as usize + 1);
    let mut p = pos.clone();
    let total = pos.total() as u32;
    loop {
        hands.push([p.hands[0].len() as u32, p.hands[1].len() as u32]);
        faces.push(faces_of(&p.hands[0]));
        if hands.len() as u64 > limit {
            break;
        }
        match trick(&p) {
            Trick::Next { next, .. } => p = next,
            Trick::End { winner, .. } => {
                // After the last trick the winner holds every card.
                let mut h = [0, 0];
                h[winner as usize] = total;
                hands.push(h);
                faces.push(if winner == 0 {
                    faces_of(&pos.hands[0])
                        .iter()
                        .zip(faces_of(&pos.hands[1]))
                        .map(|(a, b)| a + b)
                        .collect::<Vec<_>>()
                        .try_into()
                        .expect("four kinds")
                } else {
                    [0; 4]
                });
                break;
            }
        }
    }
    let collapse_from = match &outcome {
        Outcome::Terminates { winner, .. } => {
            let (w, l) = (*winner as usize, 1 - *winner as usize);
            Some(hands.iter().rposition(|h| h[l] >= h[w]).unwrap_or(0))
        }
        Outcome::Cycle(_) => None,
    };
    GameSeries {
        hands,
        faces,
        deck_faces,
        outcome,
        collapse_from,
    }
}

/// The picture size in pixels.
pub const SIZE: (u32, u32) = (1200, 720);

/// Draws the game from `pos` into `path` (`.svg` or `.png`); returns the series drawn.
pub fn plot(path: &Path, pos: &Position) -> Result<GameSeries, PictureError> {
    let format = Format::of(path, &[Format::Svg, Format::Png])?;
    let s = series(pos);
    let title = format!("{pos}");
    let bytes = match format {
        Format::Png => {
            let (w, h) = SIZE;
            let mut rgb = vec![0u8; (w * h * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
                draw(&root, &title, &s).map_err(|e| PictureError::Draw(e.to_string()))?;
            }
            crate::search::plot::encode_png(&rgb, w, h)
                .map_err(|e| PictureError::Draw(e.to_string()))?
        }
        _ => svg(&title, &s)?.into_bytes(),
    };
    write(path, &bytes)?;
    Ok(s)
}

/// The picture of `s` as an SVG document.
pub fn svg(title: &str, s: &GameSeries) -> Result<String, PictureError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw(&root, title, s).map_err(|e| PictureError::Draw(e.to_string()))?;
    }
    Ok(out)
}

const P1: RGBColor = RGBColor(31, 119, 180);
const P2: RGBColor = RGBColor(214, 39, 40);
/// Jack, queen, king, ace.
const FACE_COLOURS: [RGBColor; 4] = [
    RGBColor(158, 218, 229),
    RGBColor(44, 160, 44),
    RGBColor(255, 187, 120),
    RGBColor(148, 103, 189),
];

/// Both panels, on any plotters backend.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    s: &GameSeries,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, crate::search::plot::FONT)
        .map_err(|_| {
            DrawingAreaErrorKind::LayoutError // the built-in font is unreadable
        })?;
    root.fill(&WHITE)?;
    let headline = match &s.outcome {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => format!(
            "ends: player {} wins after {tricks} tricks, {cards} cards",
            winner + 1
        ),
        Outcome::Cycle(c) => format!(
            "never ends: preperiod {} tricks, then a period of {} tricks ({} cards), repeated",
            c.preperiod, c.period, c.cycle_cards
        ),
    };
    let root = root.titled(&headline, ("sans-serif", 22))?;
    let (top, bottom) = root.split_vertically(SIZE.1 * 58 / 100);
    let n = s.hands.len().max(2) - 1;
    let x_max = n as f64;
    let total = s.hands[0][0] + s.hands[0][1];

    let mut chart = ChartBuilder::on(&top)
        .caption(title, ("sans-serif", 14))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..x_max, 0f64..total as f64 * 1.3)?;
    chart
        .configure_mesh()
        .x_desc("trick")
        .y_desc("cards in hand")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    // Headroom above the hands for the legend.
    let top_y = total as f64 * 1.3;
    // Marked spans first, so the lines are drawn over them.
    match &s.outcome {
        Outcome::Cycle(c) => {
            let (pre, per) = (c.preperiod as f64, c.period as f64);
            if pre > 0.0 {
                chart
                    .draw_series([Rectangle::new(
                        [(0.0, 0.0), (pre, top_y)],
                        RGBColor(220, 220, 220).mix(0.6).filled(),
                    )])?
                    .label(format!("preperiod ({} tricks)", c.preperiod))
                    .legend(|(x, y)| {
                        Rectangle::new(
                            [(x, y - 5), (x + 16, y + 5)],
                            RGBColor(200, 200, 200).filled(),
                        )
                    });
            }
            chart
                .draw_series([Rectangle::new(
                    [(pre, 0.0), (pre + per, top_y)],
                    RGBColor(255, 230, 120).mix(0.5).filled(),
                )])?
                .label(format!("one period ({} tricks)", c.period))
                .legend(|(x, y)| {
                    Rectangle::new(
                        [(x, y - 5), (x + 16, y + 5)],
                        RGBColor(255, 220, 100).filled(),
                    )
                });
            chart.draw_series([PathElement::new(
                vec![(pre + per, 0.0), (pre + per, top_y)],
                BLACK.stroke_width(1),
            )])?;
        }
        Outcome::Terminates { tricks, .. } => {
            let from = s.collapse_from.unwrap_or(0) as f64;
            chart
                .draw_series([Rectangle::new(
                    [(from, 0.0), (x_max, top_y)],
                    RGBColor(250, 200, 200).mix(0.6).filled(),
                )])?
                .label(format!(
                    "final collapse (tricks {}..{tricks}: the loser never again holds as many cards)",
                    from as u64
                ))
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 16, y + 5)], RGBColor(250, 180, 180).filled())
                });
        }
    }
    for (p, colour) in [(0, P1), (1, P2)] {
        chart
            .draw_series(LineSeries::new(
                s.hands
                    .iter()
                    .enumerate()
                    .map(|(t, h)| (t as f64, h[p] as f64)),
                colour.stroke_width(2),
            ))?
            .label(format!("player {}", p + 1))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 13))
        .draw()?;

    // Player 1's face cards, stacked by kind; player 2 holds the rest between tricks.
    let faces_top = s.deck_faces.max(1) as f64 * 1.6;
    let mut chart = ChartBuilder::on(&bottom)
        .caption(
            format!(
                "face cards held by player 1, by kind (player 2 holds the rest of the {})",
                s.deck_faces
            ),
            ("sans-serif", 14),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..x_max, 0f64..faces_top)?;
    chart
        .configure_mesh()
        .x_desc("trick")
        .y_desc("face cards")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    // Cumulative from the jacks up; the tallest band is drawn first so each shows above the next.
    for k in (0..4).rev() {
        let colour = FACE_COLOURS[k];
        chart
            .draw_series([Polygon::new(
                s.faces
                    .iter()
                    .enumerate()
                    .map(|(t, f)| {
                        let up_to: u32 = f[..=k].iter().sum();
                        (t as f64, up_to as f64)
                    })
                    .chain([(x_max, 0.0), (0.0, 0.0)])
                    .collect::<Vec<_>>(),
                colour.filled(),
            )])?
            .label(["jacks", "queens", "kings", "aces"][k])
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], colour.filled()));
    }
    chart.draw_series(LineSeries::new(
        [(0.0, s.deck_faces as f64), (x_max, s.deck_faces as f64)],
        BLACK.stroke_width(1),
    ))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 13))
        .draw()?;
    root.present()
}
