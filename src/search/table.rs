//! The census table of small decks: the result files of `search exhaustive` gathered into one
//! JSON-lines table (one row per deck and extra-card holder, in a fixed order) and a readable
//! markdown page. A row is the result file's object as written, its `run` included, so each row
//! can be checked by rerunning its own command.

use std::cmp::Ordering;
use std::fmt::Write;

use serde_json::Value;
use thiserror::Error;

use crate::card::DeckSpec;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum TableError {
    #[error("{file}: not an exhaustive-search result ({why})")]
    NotARow { file: String, why: String },
    #[error("{0} is given twice (a result file already in the table, or two runs of one deck)")]
    Twice(String),
}

/// One row of the table, with what it is sorted by.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub faces: String,
    pub numbers: u32,
    pub extra: Option<u8>,
    pub value: Value,
}

/// Reads one result file's JSON as a row.
pub fn row(file: &str, value: Value) -> Result<Row, TableError> {
    let bad = |why: &str| TableError::NotARow {
        file: file.to_string(),
        why: why.to_string(),
    };
    for key in [
        "deck",
        "deals",
        "non_terminating",
        "first_player_wins",
        "second_player_wins",
        "distinct_cycles",
        "run",
    ] {
        if value.get(key).is_none() {
            return Err(bad(&format!("no `{key}`")));
        }
    }
    if value["players"] != 2 {
        return Err(bad("not a two-player search"));
    }
    let deck = value["deck"]
        .as_str()
        .ok_or_else(|| bad("`deck` is not text"))?;
    deck.parse::<DeckSpec>()
        .map_err(|e| bad(&format!("deck {deck:?}: {e}")))?;
    let (numbers, faces) = deck
        .split_once('-')
        .ok_or_else(|| bad("the deck is not NUMBERS-FACES"))?;
    let numbers = numbers
        .parse()
        .map_err(|_| bad("the deck is not NUMBERS-FACES"))?;
    let extra = value["extra_card"].as_u64().map(|e| e as u8);
    Ok(Row {
        faces: faces.to_string(),
        numbers,
        extra,
        value,
    })
}

fn order(a: &Row, b: &Row) -> Ordering {
    (a.faces.len(), &a.faces, a.numbers, a.extra).cmp(&(
        b.faces.len(),
        &b.faces,
        b.numbers,
        b.extra,
    ))
}

/// Sorts the rows (by face set, then number cards, then extra card) and refuses duplicates.
pub fn sort(mut rows: Vec<Row>) -> Result<Vec<Row>, TableError> {
    rows.sort_by(order);
    for w in rows.windows(2) {
        if order(&w[0], &w[1]) == Ordering::Equal {
            // Named as a user writes the deck, with the holder of an odd deck's extra card.
            let name = |r: &Row| match r.extra {
                Some(e) => format!("{}-{} (extra card {e})", r.numbers, r.faces),
                None => format!("{}-{}", r.numbers, r.faces),
            };
            return Err(TableError::Twice(name(&w[0])));
        }
    }
    Ok(rows)
}

/// The JSON-lines table: one row a line, in order.
pub fn jsonl(rows: &[Row]) -> String {
    let mut s = String::new();
    for r in rows {
        s.push_str(&r.value.to_string());
        s.push('\n');
    }
    s
}

fn thousands(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The readable page: one table per face set, then `notes` (hand-written findings) as given.
pub fn markdown(rows: &[Row], title: &str, notes: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {title}\n");
    let _ = writeln!(
        s,
        "Every deal of each deck, two players, player 1 leading; an odd deck once with each player \
         holding the extra card. Written by `ansatz search table` from the result files of \
         `ansatz search exhaustive` (the command of each row is in `table1.jsonl`; \
         `scripts/table1.sh` reruns them all). P2 is the share of all deals that the second \
         player wins.\n"
    );
    let mut faces: Vec<&str> = rows.iter().map(|r| r.faces.as_str()).collect();
    faces.dedup();
    for f in faces {
        let _ = writeln!(s, "## {f} plus n number cards\n");
        let _ = writeln!(
            s,
            "| n | cards | extra card | deals | never end | distinct cycles (period × count) | P2 | longest game (cards / tricks) | seconds |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
        for r in rows.iter().filter(|r| r.faces == f) {
            let v = &r.value;
            let deals = v["deals"].as_u64().unwrap_or(0);
            let p2 = v["second_player_wins"].as_u64().unwrap_or(0) as f64 / deals.max(1) as f64;
            let cards = v["deck"]
                .as_str()
                .and_then(|d| d.parse::<DeckSpec>().ok())
                .map_or(0, |d| d.total());
            let mut periods: Vec<(u64, u64)> = Vec::new();
            for c in v["distinct_cycles"].as_array().into_iter().flatten() {
                let p = c["period"].as_u64().unwrap_or(0);
                match periods.iter_mut().find(|(q, _)| *q == p) {
                    Some(e) => e.1 += 1,
                    None => periods.push((p, 1)),
                }
            }
            periods.sort();
            let cycles = v["distinct_cycles"].as_array().map_or(0, Vec::len);
            let detail = if periods.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = periods.iter().map(|(p, n)| format!("{p}×{n}")).collect();
                format!(" ({})", list.join(", "))
            };
            let longest = match v["longest"].as_object() {
                Some(l) => format!("{} / {}", l["cards"], l["tricks"]),
                None => "–".into(),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {}{} | {:.4} | {} | {:.1} |",
                r.numbers,
                cards,
                r.extra.map_or("–".to_string(), |e| e.to_string()),
                thousands(deals),
                thousands(v["non_terminating"].as_u64().unwrap_or(0)),
                cycles,
                detail,
                p2,
                longest,
                v["run"]["seconds"].as_f64().unwrap_or(0.0),
            );
        }
        let _ = writeln!(s);
    }
    if !notes.is_empty() {
        s.push_str(notes.trim_end());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(deck: &str, extra: Option<u8>) -> Value {
        json!({"deck": deck, "players": 2, "deals": 10, "non_terminating": 1, "extra_card": extra,
               "first_player_wins": 4, "second_player_wins": 5,
               "distinct_cycles": [{"cycle_id": "J--/-J- (1)", "period": 2, "cycle_cards": 6, "deals": 1}],
               "longest": {"position": "-/J (1)", "cards": 3, "tricks": 1},
               "run": {"command": "ansatz search exhaustive --deck x", "seconds": 0.5}})
    }

    #[test]
    fn rows_sort_by_face_set_numbers_and_extra_card() {
        let rows = ["10-2J2Q2K2A", "9-2J2Q2K2A", "3-1J1Q1K1A"]
            .iter()
            .map(|d| row(d, v(d, None)).unwrap())
            .chain([row("x", v("9-2J2Q2K2A", Some(2))).unwrap()])
            .collect();
        let sorted = sort(rows).unwrap();
        let names: Vec<(u32, Option<u8>)> = sorted.iter().map(|r| (r.numbers, r.extra)).collect();
        assert_eq!(names, [(3, None), (9, None), (9, Some(2)), (10, None)]);
        let md = markdown(&sorted, "T", "notes here");
        assert!(md.contains("## 2J2Q2K2A plus n number cards"));
        assert!(md.contains("| 9 | 17 | 2 | 10 | 1 | 1 (2×1) | 0.5000 | 3 / 1 | 0.5 |"));
        assert!(md.ends_with("notes here\n"));
    }

    #[test]
    fn duplicates_and_foreign_files_are_refused() {
        let a = row("a", v("9-2J2Q2K2A", Some(1))).unwrap();
        let twice = sort(vec![a.clone(), a]).unwrap_err();
        assert_eq!(twice, TableError::Twice("9-2J2Q2K2A (extra card 1)".into()));
        assert!(
            twice
                .to_string()
                .starts_with("9-2J2Q2K2A (extra card 1) is given twice")
        );
        let b = row("b", v("9-2J2Q2K2A", None)).unwrap();
        let twice = sort(vec![b.clone(), b]).unwrap_err().to_string();
        assert!(twice.starts_with("9-2J2Q2K2A is given twice"), "{twice}");
        assert!(row("b", json!({"deck": "x"})).is_err());
        let mut three = v("3-1J1Q1K1A", None);
        three["players"] = json!(3);
        assert!(row("c", three).is_err());
    }
}
