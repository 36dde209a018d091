//! Opening suites made with an engine: random candidate positions near the centre (or
//! base openings with a few stones added), each evaluated by a brain through the protocol
//! (`INFO show_detail 1`, `INFO max_depth`/`INFO max_node`, `BOARD … DONE`: the brain prints
//! `MESSAGE depth D ev SCORE …` before its move), and kept when |SCORE| is small.

use crate::matches::engine::{EngineProcess, EngineSpec, Received};
use crate::matches::game::classify;
use crate::matches::game::LineKind;
use crate::matches::openings::check_position;
use quinto::game::{BoardSize, Color, Pos, Rule};
use quinto::rng::Rng;
use std::path::Path;
use std::time::{Duration, Instant};

/// A base position to extend, with a label for the comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    pub label: String,
    pub moves: Vec<Pos>,
}

/// Reads base openings: an opening file (one move list per line), or a TSV file with a
/// header row naming a `moves_alg` column (as the canonical renju openings table), whose
/// `code` and `romaji` columns, when present, label each base.
pub fn read_bases(path: &Path, size: BoardSize, rule: Rule) -> Result<Vec<Base>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut header: Option<Vec<String>> = None;
    let mut bases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if line.contains('\t') {
            let fields: Vec<String> = line.split('\t').map(|f| f.trim().to_string()).collect();
            let head = match &header {
                None => {
                    if !fields.iter().any(|f| f == "moves_alg") {
                        return Err(format!(
                            "{}: a TSV file needs a header with a moves_alg column",
                            path.display()
                        ));
                    }
                    header = Some(fields);
                    continue;
                }
                Some(h) => h,
            };
            let get = |name: &str| {
                head.iter()
                    .position(|h| h == name)
                    .and_then(|k| fields.get(k))
                    .cloned()
                    .unwrap_or_default()
            };
            let moves = crate::matches::openings::parse_moves(&get("moves_alg"), size)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
            check_position(&moves, size, rule)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
            let label = [get("code"), get("romaji")]
                .iter()
                .filter(|s| !s.is_empty())
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
            bases.push(Base { label, moves });
        } else {
            let content = line.split('#').next().unwrap_or("").trim();
            let moves = crate::matches::openings::parse_moves(content, size)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
            check_position(&moves, size, rule)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
            bases.push(Base {
                label: format!("line {}", i + 1),
                moves,
            });
        }
    }
    if bases.is_empty() {
        return Err(format!("{}: no base openings", path.display()));
    }
    Ok(bases)
}

/// How candidates are drawn.
#[derive(Clone, Debug)]
pub struct Shape {
    /// Stones in a fresh candidate (inclusive range), or added to a base.
    pub stones: (usize, usize),
    /// Every stone within this many points (king moves) of the centre.
    pub radius: i64,
    /// Fresh candidates start with black on the centre point (renju's rule).
    pub centre_first: bool,
}

/// A random candidate: `base` (or nothing) plus new stones, alternating colours, each new
/// stone within `shape.radius` of the centre and within 2 of a stone already there. `None`
/// when the draw made a five, a forbidden black stone, or ran out of room.
pub fn candidate(
    rng: &mut Rng,
    size: BoardSize,
    rule: Rule,
    base: Option<&Base>,
    shape: &Shape,
) -> Option<Vec<Pos>> {
    let (lo, hi) = shape.stones;
    let count = lo + rng.below(hi - lo + 1);
    let mut moves: Vec<Pos> = base.map(|b| b.moves.clone()).unwrap_or_default();
    let centre = size.center();
    let near_centre = |x: i64, y: i64, r: i64| {
        (x - centre.x() as i64).abs() <= r && (y - centre.y() as i64).abs() <= r
    };
    for _ in 0..count {
        let fresh = moves.is_empty();
        if fresh && shape.centre_first {
            moves.push(centre);
            continue;
        }
        let options: Vec<Pos> = size
            .points()
            .filter(|p| {
                let (x, y) = (p.x() as i64, p.y() as i64);
                !moves.contains(p)
                    && if fresh {
                        near_centre(x, y, 1)
                    } else {
                        near_centre(x, y, shape.radius)
                            && moves.iter().any(|m| {
                                (m.x() as i64 - x).abs() <= 2 && (m.y() as i64 - y).abs() <= 2
                            })
                    }
            })
            .collect();
        if options.is_empty() {
            return None;
        }
        moves.push(options[rng.below(options.len())]);
    }
    check_position(&moves, size, rule).ok()?;
    Some(moves)
}

/// The position's stones (with colours) under the symmetry that makes them smallest: equal
/// keys are the same opening seen in a mirror. Rectangular boards: only the 4 symmetries
/// that keep the shape.
pub fn canonical_key(moves: &[Pos], size: BoardSize) -> Vec<(u8, u8, u8)> {
    let (w, h) = (size.width() as i64, size.height() as i64);
    let mut best: Option<Vec<(u8, u8, u8)>> = None;
    for t in 0..8 {
        let square = w == h;
        if !square && t >= 4 {
            break;
        }
        let mut key: Vec<(u8, u8, u8)> = moves
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (x, y) = (p.x() as i64, p.y() as i64);
                let (x, y) = match t {
                    0 => (x, y),
                    1 => (w - 1 - x, y),
                    2 => (x, h - 1 - y),
                    3 => (w - 1 - x, h - 1 - y),
                    4 => (y, x),
                    5 => (h - 1 - y, x),
                    6 => (y, w - 1 - x),
                    _ => (h - 1 - y, w - 1 - x),
                };
                (Color::to_move_after(i).index() as u8, x as u8, y as u8)
            })
            .collect();
        key.sort_unstable();
        if best.as_ref().map_or(true, |b| key < *b) {
            best = Some(key);
        }
    }
    best.unwrap_or_default()
}

/// Score given for a proven win (a mate score such as Rapfi's `+M13`).
pub const MATE_EV: i64 = 30_000;

/// The depth and score of a search progress line, if the line is one: Quinto's
/// `MESSAGE depth D ev S …`, or Rapfi's `MESSAGE Speed … | Depth D-S | Eval S | …` (a mate
/// score `+M13`/`-M13` becomes ±[`MATE_EV`]).
pub fn parse_detail(line: &str) -> Option<(u32, i64)> {
    let rest = line.strip_prefix("MESSAGE ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let find = |keys: [&str; 2]| {
        words
            .iter()
            .position(|w| keys.contains(w))
            .and_then(|i| words.get(i + 1))
    };
    let depth = find(["depth", "Depth"])?.split('-').next()?.parse().ok()?;
    let ev = find(["ev", "Eval"])?;
    let mate = |sign: &str| {
        ev.strip_prefix(sign)
            .map_or(false, |plies| plies.parse::<u32>().is_ok())
    };
    let ev = if mate("+M") {
        MATE_EV
    } else if mate("-M") {
        -MATE_EV
    } else {
        ev.parse().ok()?
    };
    Some((depth, ev))
}

/// How long a brain has to answer `START`, and how often it is sent again when the answer
/// is an `ERROR` or nothing.
const START_PATIENCE: Duration = Duration::from_secs(3);
const START_RETRIES: u32 = 2;

/// The `INFO` lines that bound an evaluation's search by depth and by nodes, for
/// [`Evaluator::start`].
pub fn search_limits(max_depth: Option<u64>, max_nodes: Option<u64>) -> Vec<String> {
    let depth = max_depth.map(|d| format!("INFO max_depth {d}"));
    let nodes = max_nodes.map(|n| format!("INFO max_node {n}"));
    depth.into_iter().chain(nodes).collect()
}

/// A brain kept running to evaluate positions.
#[derive(Debug)]
pub struct Evaluator {
    process: EngineProcess,
    size: BoardSize,
    rule: Rule,
    settings: Vec<String>,
    think_ms: u64,
    /// The brain's `ABOUT` line.
    pub about: String,
}

/// An evaluation: search depth, score for the side to move, the brain's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub depth: u32,
    pub ev: i64,
    pub best: (i64, i64),
}

impl Evaluator {
    /// Starts the brain (stderr to `log`) with `INFO` lines sent before every position.
    pub fn start(
        spec: &EngineSpec,
        size: BoardSize,
        rule: Rule,
        settings: Vec<String>,
        think_ms: u64,
        log: &Path,
    ) -> Result<Evaluator, String> {
        let process = EngineProcess::spawn(spec, log, None, false)?;
        let mut e = Evaluator {
            process,
            size,
            rule,
            settings,
            think_ms,
            about: String::new(),
        };
        e.process.send("ABOUT")?;
        if let Received::Line(l, _) = e.process.recv(Instant::now() + Duration::from_secs(5)) {
            e.about = l;
        }
        Ok(e)
    }

    /// Evaluates the position after `moves` for the side to move.
    pub fn evaluate(&mut self, moves: &[Pos]) -> Result<Evaluation, String> {
        let p = &mut self.process;
        // A brain still winding up its last search may eat the command, in part (Rapfi then
        // answers `ERROR Unknown command: 15`) or whole (no answer): say it again.
        let start = format!("START {}", self.size.width());
        let mut attempt = 0;
        'started: loop {
            p.send(&start)?;
            let deadline = Instant::now() + START_PATIENCE;
            loop {
                match p.recv(deadline) {
                    Received::Line(l, _) if l == "OK" => break 'started,
                    Received::Line(l, _) if classify(&l) == LineKind::Info => {}
                    Received::Line(l, _) if l.starts_with("ERROR") && attempt < START_RETRIES => {
                        break
                    }
                    Received::Timeout if attempt < START_RETRIES => break,
                    Received::Line(l, _) => return Err(format!("'{l}' instead of OK to START")),
                    other => return Err(format!("no OK to START: {other:?}")),
                }
            }
            attempt += 1;
        }
        p.send(&format!("INFO rule {}", self.rule.protocol_value()))?;
        p.send("INFO show_detail 1")?;
        p.send(&format!("INFO timeout_turn {}", self.think_ms))?;
        p.send("INFO timeout_match 0")?;
        p.send("INFO time_left 2147483647")?;
        for s in &self.settings {
            p.send(s)?;
        }
        let me = Color::to_move_after(moves.len());
        p.send("BOARD")?;
        for (i, m) in moves.iter().enumerate() {
            let owner = if Color::to_move_after(i) == me { 1 } else { 2 };
            p.send(&format!("{},{},{owner}", m.x(), m.y()))?;
        }
        p.send("DONE")?;
        let deadline = Instant::now() + Duration::from_millis(self.think_ms + 5000);
        let mut last = None;
        loop {
            match p.recv(deadline) {
                Received::Line(l, _) => match classify(&l) {
                    LineKind::Move(x, y) => {
                        let (depth, ev) = last.ok_or_else(|| {
                            "the brain printed no MESSAGE depth … ev … line (INFO show_detail 1)"
                                .to_string()
                        })?;
                        return Ok(Evaluation {
                            depth,
                            ev,
                            best: (x, y),
                        });
                    }
                    LineKind::Info => {
                        if let Some(d) = parse_detail(&l) {
                            last = Some(d);
                        }
                    }
                    LineKind::Blank => {}
                    LineKind::Other => return Err(format!("'{l}' instead of a move")),
                },
                other => return Err(format!("no move: {other:?}")),
            }
        }
    }

    pub fn finish(self) {
        self.process.finish(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_limits_are_one_info_line_each() {
        assert_eq!(
            search_limits(Some(8), Some(200_000)),
            vec!["INFO max_depth 8", "INFO max_node 200000"]
        );
        assert_eq!(search_limits(None, Some(5)), vec!["INFO max_node 5"]);
        assert!(search_limits(None, None).is_empty());
    }

    fn s15() -> BoardSize {
        BoardSize::square(15).unwrap()
    }

    #[test]
    fn detail_lines_give_depth_and_score() {
        assert_eq!(
            parse_detail("MESSAGE depth 9 ev -35 n 100 n/ms 10 tm 10 pv h8 i9"),
            Some((9, -35))
        );
        assert_eq!(
            parse_detail("MESSAGE Speed 397K | Depth 11-14 | Eval -8 | Node 8747 | Time 22ms"),
            Some((11, -8))
        );
        assert_eq!(
            parse_detail("MESSAGE Speed 1M | Depth 6-13 | Eval +M13 | Node 9K | Time 9ms"),
            Some((6, MATE_EV))
        );
        assert_eq!(
            parse_detail("MESSAGE Speed 1M | Depth 3-20 | Eval -M20 | Node 9K | Time 9ms"),
            Some((3, -MATE_EV))
        );
        assert_eq!(
            parse_detail("MESSAGE Speed 1M | Depth 3-20 | Eval x | Node 9K"),
            None
        );
        assert_eq!(parse_detail("MESSAGE nbest 1 7,7 ev 3"), None);
        assert_eq!(parse_detail("DEBUG depth 9 ev 1"), None);
    }

    #[test]
    fn mirror_images_share_a_key() {
        let a = vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 5)];
        let b = vec![Pos::new(7, 7), Pos::new(6, 6), Pos::new(5, 5)];
        let c = vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(9, 9)];
        let d = vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 7)];
        assert_eq!(canonical_key(&a, s15()), canonical_key(&b, s15()));
        assert_eq!(canonical_key(&a, s15()), canonical_key(&c, s15()));
        assert_ne!(canonical_key(&a, s15()), canonical_key(&d, s15()));
        // Colours matter: the same points with black and white swapped differ.
        let e = vec![Pos::new(8, 6), Pos::new(7, 7)];
        let f = vec![Pos::new(7, 7), Pos::new(8, 6)];
        assert_ne!(canonical_key(&e, s15()), canonical_key(&f, s15()));
    }

    #[test]
    fn candidates_stay_near_the_centre_and_are_legal() {
        let mut rng = Rng::new(5);
        let shape = Shape {
            stones: (3, 6),
            radius: 3,
            centre_first: true,
        };
        for _ in 0..200 {
            if let Some(m) = candidate(&mut rng, s15(), Rule::Renju, None, &shape) {
                assert!((3..=6).contains(&m.len()));
                assert_eq!(m[0], Pos::new(7, 7));
                assert!(m
                    .iter()
                    .all(|p| (p.x() as i64 - 7).abs() <= 3 && (p.y() as i64 - 7).abs() <= 3));
                assert!(check_position(&m, s15(), Rule::Renju).is_ok());
            }
        }
        let base = Base {
            label: "1D".into(),
            moves: vec![Pos::new(7, 7), Pos::new(7, 6), Pos::new(7, 5)],
        };
        let extra = Shape {
            stones: (2, 2),
            radius: 4,
            centre_first: true,
        };
        let m = candidate(&mut rng, s15(), Rule::Renju, Some(&base), &extra).unwrap();
        assert_eq!(m.len(), 5);
        assert_eq!(&m[..3], &base.moves[..]);
    }

    #[test]
    fn the_canonical_renju_table_reads_as_bases() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/openings/renju_26_canonical_openings.tsv");
        let bases = read_bases(&path, s15(), Rule::Renju).unwrap();
        assert_eq!(bases.len(), 26);
        assert_eq!(bases[0].label, "1D Kansei");
        assert_eq!(
            bases[0].moves,
            vec![Pos::new(7, 7), Pos::new(7, 6), Pos::new(7, 5)]
        );
        assert_eq!(bases[25].label, "13I Suisei");
    }
}
