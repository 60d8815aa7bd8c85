//! What must hold for each reader of untrusted input, one function per fuzz target: no panic, a
//! typed error whose message says what is wrong (naming the file, for files), and a round trip
//! wherever a reader has a printer. The fuzz targets (`fuzz/fuzz_targets/`) call these on
//! libFuzzer's inputs; the ordinary suite (`tests/fuzz.rs`) includes this file and replays every
//! saved input under `tests/data/fuzz/` on stable, so a crash once found stays fixed.
//!
//! Files are framed as the writers frame them: an input whose first byte is odd has its length
//! fields and checksums set right before it is read, so the fuzzer reaches the decoding behind
//! the integrity checks instead of stopping at a checksum it cannot guess.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use ansatz::ansatz::template::Template;
use ansatz::card::DeckSpec;
use ansatz::engine::multi::MultiPosition;
use ansatz::library::{self, fnv1a};
use ansatz::notation::{Notation, format_hand, parse_hand, parse_setup};
use ansatz::position::Position;

const NOTATIONS: [Notation; 4] = [
    Notation::Auto,
    Notation::Dash,
    Notation::Cards,
    Notation::Digits,
];

/// An error's message: never empty.
fn said(e: &dyn std::fmt::Display) -> String {
    let s = e.to_string();
    assert!(!s.trim().is_empty(), "an error with no message");
    s
}

/// An error of a file reader: its message names the file.
fn names(e: &dyn std::fmt::Display, path: &Path) {
    let s = said(e);
    let p = path.display().to_string();
    assert!(s.contains(&p), "the error does not name {p}: {s}");
}

/// A folder of this thread for the files the readers read, removed when the thread ends: a
/// fuzzer keeps one for its run, and the suite's replays (a thread a test) leave none behind.
pub fn scratch() -> PathBuf {
    struct Scratch(PathBuf);
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    static THREADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    thread_local! {
        static DIR: Scratch = {
            let n = THREADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("ansatz-fuzz-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a scratch folder");
            Scratch(dir)
        };
    }
    DIR.with(|d| d.0.clone())
}

fn put(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch().join(name);
    std::fs::write(&path, bytes).expect("a scratch file");
    path
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Positions in every notation: parse, and where it succeeds, print (dash notation) and parse
/// back to the same hands and player to move.
pub fn notation(data: &[u8]) {
    let Some(t) = text(data) else { return };
    for n in NOTATIONS {
        match parse_setup(t, n) {
            Ok(s) => {
                let to_move = s.to_move.unwrap_or(0);
                let printed = MultiPosition {
                    hands: s.hands.clone(),
                    to_move: to_move as u8,
                }
                .to_string();
                let back = parse_setup(&printed, Notation::Dash)
                    .unwrap_or_else(|e| panic!("{printed:?} (printed from {t:?}) fails: {e}"));
                assert_eq!(back.hands, s.hands, "{t:?} -> {printed:?}");
                assert_eq!(back.to_move, Some(to_move), "{t:?} -> {printed:?}");
            }
            Err(e) => {
                said(&e);
            }
        }
        match Position::parse(t, n) {
            Ok(p) => {
                let printed = p.to_string();
                let back = Position::parse(&printed, Notation::Dash)
                    .unwrap_or_else(|e| panic!("{printed:?} (printed from {t:?}) fails: {e}"));
                assert_eq!(back, p, "{t:?} -> {printed:?}");
                if let Some(key) = p.pack() {
                    assert_eq!(Position::unpack(key, p.total()), p, "{printed}");
                }
            }
            Err(e) => {
                said(&e);
            }
        }
        match parse_hand(t, n) {
            Ok(h) => {
                let printed = format_hand(&h);
                assert_eq!(parse_hand(&printed, Notation::Dash).ok(), Some(h), "{t:?}");
            }
            Err(e) => {
                said(&e);
            }
        }
    }
}

/// Deck specs, templates, frames, filters, shard specs and assemble's rest shapes; the first
/// lines of the input feed the discover options (deck, separator, frame ends, filter).
pub fn spec(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let lines: Vec<&str> = t.lines().collect();
    let line = |i: usize| lines.get(i).copied().unwrap_or("");
    for l in lines.iter().take(4) {
        match DeckSpec::from_str(l) {
            Ok(d) => {
                let printed = d.to_string();
                assert_eq!(
                    DeckSpec::from_str(&printed).ok(),
                    Some(d),
                    "{l:?} -> {printed}"
                );
            }
            Err(e) => {
                said(&e);
            }
        }
        match ansatz::run::shard::Shard::from_str(l) {
            Ok(s) => assert_eq!(s.to_string().parse().ok(), Some(s), "{l:?}"),
            Err(e) => {
                said(&e);
            }
        }
        if let Err(e) = ansatz::discover::frame::Ends::from_str(l) {
            said(&e);
        }
        if let Err(e) = ansatz::assemble::rest::parse_shape(l) {
            said(&e);
        }
    }
    match Template::parse(t, "fuzz") {
        Ok(tpl) => {
            let _ = tpl.display();
            let _ = tpl.alphabet();
        }
        Err(e) => {
            said(&e);
        }
    }
    discover_options(line(0), line(1), line(2), line(3));
}

/// `ansatz discover --deck D --separator S --frame F --filter P`, validated as the CLI does.
fn discover_options(deck: &str, separator: &str, frame: &str, filter: &str) {
    let Ok(deck) = DeckSpec::from_str(deck) else {
        return;
    };
    let mut o = ansatz::discover::options::Options::new(deck);
    o.separator = separator.chars().next();
    o.frame = (!frame.is_empty()).then(|| frame.to_string());
    o.filter = (!filter.is_empty()).then(|| filter.to_string());
    match o.config() {
        Ok(c) => {
            if let Err(e) = ansatz::discover::check(&c) {
                said(&e);
            }
            let _ = c.fingerprint();
        }
        Err(e) => {
            said(&e);
        }
    }
}

/// Sets a library's file length and checksum right (the layout in `library`'s module head).
fn frame_library(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() < 28 {
        return bytes;
    }
    let total = bytes.len() as u64 + 8;
    bytes[12..20].copy_from_slice(&total.to_le_bytes());
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// The piece-library reader: a typed error naming the file, or a library whose encoding reads
/// back to it and encodes alike. (Not the input's own bytes: bincode reads a number written in
/// more bytes than it needs, as a crafted file may, and writes it in the fewest.)
pub fn library(data: &[u8]) {
    let Some((&flag, body)) = data.split_first() else {
        return;
    };
    let bytes = if flag & 1 == 1 {
        frame_library(body.to_vec())
    } else {
        body.to_vec()
    };
    let path = Path::new("fuzz.bin");
    match library::decode(&bytes, path) {
        Ok(lib) => {
            let again = library::encode(&lib);
            let back = library::decode(&again, path)
                .unwrap_or_else(|e| panic!("a library's encoding does not read back: {e}"));
            assert_eq!(back, lib, "a library reads back from its encoding");
            assert_eq!(library::encode(&back), again, "a library re-encodes alike");
        }
        Err(e) => names(&e, path),
    }
}

/// The framed log of `library::checkpoint` (find-pieces, assemble): magic, version, then one
/// frame (length, FNV-1a, payload) per `0xFF`-separated chunk, the first the fingerprint.
fn frame_log(body: &[u8]) -> (Vec<u8>, String) {
    let mut chunks = body.split(|&b| b == 0xFF);
    let fp = String::from_utf8_lossy(chunks.next().unwrap_or_default()).into_owned();
    let mut out = b"ANSZCKPT".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    for payload in std::iter::once(fp.as_bytes()).chain(chunks) {
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(payload).to_le_bytes());
        out.extend_from_slice(payload);
    }
    (out, fp)
}

/// The fingerprint a log's first frame holds, if it has one.
fn log_fingerprint(bytes: &[u8]) -> String {
    let len = bytes
        .get(12..16)
        .map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()) as usize);
    let fp = bytes.get(24..24 + len.min(1 << 16)).unwrap_or_default();
    String::from_utf8_lossy(fp).into_owned()
}

/// A family's level checkpoint (`backward::level_checkpoint`): version 3, the fingerprint up to
/// the first `0xFF`, then the payload.
fn frame_level(body: &[u8]) -> (Vec<u8>, String) {
    let (fp, payload) = match body.iter().position(|&b| b == 0xFF) {
        Some(i) => (&body[..i], &body[i + 1..]),
        None => (body, &[][..]),
    };
    let fp = String::from_utf8_lossy(fp).into_owned();
    let mut out = b"ANSZLEVL".to_vec();
    out.extend_from_slice(&3u32.to_le_bytes());
    out.extend_from_slice(&(fp.len() as u32).to_le_bytes());
    out.extend_from_slice(fp.as_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(payload).to_le_bytes());
    out.extend_from_slice(payload);
    (out, fp)
}

fn level_fingerprint(bytes: &[u8]) -> String {
    let len = bytes
        .get(12..16)
        .map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()) as usize);
    let fp = bytes.get(16..16 + len.min(1 << 16)).unwrap_or_default();
    String::from_utf8_lossy(fp).into_owned()
}

/// Every checkpoint reader, picked by the first byte: the logs of find-pieces and assemble, the
/// JSON checkpoints of search random and search exhaustive, the family's level checkpoint and a
/// discover step folder. Each reads its file as `--resume` does (with the fingerprint or
/// configuration the file claims, so the fuzzer gets past the check that it is this run's).
pub fn checkpoint(data: &[u8]) {
    use ansatz::library::checkpoint::Checkpoint;
    let Some((&flag, body)) = data.split_first() else {
        return;
    };
    let framed = flag & 1 == 1;
    match (flag >> 1) % 6 {
        0 | 1 => {
            let (bytes, fp) = if framed {
                frame_log(body)
            } else {
                (body.to_vec(), log_fingerprint(body))
            };
            let path = put("log.checkpoint", &bytes);
            let err = if (flag >> 1) % 6 == 0 {
                Checkpoint::<ansatz::run::find_pieces::FindRecord>::resume(&path, &fp).err()
            } else {
                Checkpoint::<ansatz::assemble::records::Record>::resume(&path, &fp).err()
            };
            if let Some(e) = err {
                names(&e, &path);
            }
        }
        2 => search_checkpoint::<
            ansatz::search::random::RandomConfig,
            ansatz::search::stats::GameStats,
        >(body, "random"),
        3 => search_checkpoint::<
            ansatz::search::exhaustive::run::ExhaustiveConfig,
            ansatz::search::exhaustive::ExhaustiveStats,
        >(
            body,
            if flag & 1 == 1 {
                "exhaustive-wide"
            } else {
                "exhaustive"
            },
        ),
        4 => {
            let (bytes, fp) = if framed {
                frame_level(body)
            } else {
                (body.to_vec(), level_fingerprint(body))
            };
            let path = put("family.checkpoint", &bytes);
            if let Err(e) = ansatz::backward::level_checkpoint::load(&path, &fp) {
                names(&e, &path);
            }
        }
        _ => discover_steps(body),
    }
}

/// A search checkpoint read with the configuration it holds (the default when it holds none).
fn search_checkpoint<C, S>(body: &[u8], kind: &str)
where
    C: serde::Serialize + serde::de::DeserializeOwned,
    S: serde::de::DeserializeOwned,
{
    let path = put("search.checkpoint.json", body);
    let cfg: Option<C> = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| serde_json::from_value(v.get("config")?.clone()).ok());
    let Some(cfg) = cfg else {
        // No configuration to compare with: any value shows the reader refuses the file.
        if let Err(e) = ansatz::search::checkpoint::load::<_, S>(&path, kind, &0u8) {
            names(&e, &path);
        }
        return;
    };
    if let Err(e) = ansatz::search::checkpoint::load::<C, S>(&path, kind, &cfg) {
        names(&e, &path);
    }
}

/// A discover step folder: the fingerprint up to the first `0xFF`, then one step file per
/// further chunk, read back as `--resume` reads them (a step that does not read is redone).
fn discover_steps(body: &[u8]) {
    use ansatz::discover::checkpoint::Checkpoint;
    let dir = scratch().join("discover-steps");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut chunks = body.split(|&b| b == 0xFF);
    let fp = String::from_utf8_lossy(chunks.next().unwrap_or_default()).into_owned();
    std::fs::write(dir.join("fingerprint.txt"), fp.as_bytes()).unwrap();
    for (i, c) in chunks.enumerate().take(8) {
        std::fs::write(dir.join(format!("step-{i}.json")), c).unwrap();
    }
    match Checkpoint::open(&dir, &fp, true) {
        Ok(ck) => {
            let _: Vec<ansatz::discover::clock::RunTime> = ck.load_prefixed("step-");
            let _: Option<serde_json::Value> = ck.load("step-0");
        }
        Err(e) => {
            said(&e);
        }
    }
}

/// Sets a shard file's payload length and checksum right (`run::shard`'s layout).
fn frame_shard(payload: &[u8]) -> Vec<u8> {
    let mut out = b"ANSZSHRD".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Shard files as `ansatz merge` reads them: merged (a lone shard, or with `--partial`) into a
/// scratch folder, or a typed error.
pub fn shard(data: &[u8]) {
    let Some((&flag, body)) = data.split_first() else {
        return;
    };
    let bytes = if flag & 1 == 1 {
        frame_shard(body)
    } else {
        body.to_vec()
    };
    let path = put("fuzz.shard-0-of-1.bin", &bytes);
    let out = scratch().join("merged");
    if let Err(e) =
        ansatz::run::merge::merge(std::slice::from_ref(&path), Some(&out), flag & 2 == 2)
    {
        said(&e);
    }
}

/// Result files as `reproduce` and `catalogue` read them: a typed error, or what they recorded.
pub fn results(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let path = put("fuzz.jsonl", data);
    match ansatz::reproduce::read(&path, t) {
        Ok(ansatz::reproduce::Check::File(r)) => {
            let _ = ansatz::reproduce::rerun_args(&r, &scratch());
        }
        Ok(ansatz::reproduce::Check::Rows(rows)) => {
            for r in &rows {
                let _ = ansatz::reproduce::rerun_args(r, &scratch());
            }
        }
        Err(e) => {
            said(&e);
        }
    }
    if let Err(e) = ansatz::assemble::catalogue::build(std::slice::from_ref(&path)) {
        said(&e);
    }
}

/// Beat It or Eat It positions, layouts and cards: a typed error, or a setup whose state the
/// solver's key encodes and decodes alike.
pub fn beat_it(data: &[u8]) {
    use ansatz::beatit::cards::{Card, GameSetup};
    use ansatz::beatit::state::State;
    let Some(t) = text(data) else { return };
    let (position, table) = t.split_once('\n').unwrap_or((t, ""));
    for word in t.split_whitespace().take(8) {
        match Card::parse(word) {
            Ok(c) => assert_eq!(Card::parse(&c.to_string()).ok(), Some(c), "{word:?}"),
            Err(e) => {
                said(&e);
            }
        }
    }
    match GameSetup::parse(position, table) {
        Ok(g) => {
            let s = State::from_setup(&g);
            assert_eq!(State::from_key(s.key(), g.n as u8), s, "{t:?}");
        }
        Err(e) => {
            said(&e);
        }
    }
    if let Err(e) = GameSetup::parse_layout(position) {
        said(&e);
    }
}
