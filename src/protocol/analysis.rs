//! Live analysis for GUIs, in the lines Yixin-Board draws while an engine thinks (its
//! `main.c`; Rapfi prints the same): `MESSAGE REALTIME BEST x,y` marks the best move so far
//! (`LOSE x,y` when it is a proven loss), and a block of `INFO` lines (`PV i`, `NUMPV n`,
//! `DEPTH`, `EVAL`, `WINRATE`, `BESTLINE`, `PV DONE`) writes a win rate on each of the n best
//! moves. `INFO show_detail`'s bits turn them on as Rapfi reads them: 1 the REALTIME lines,
//! 2 the INFO lines; Yixin-Board sends 3. Points are `x,y` exactly as in a move, which the
//! GUI maps to its board as it maps moves.

use super::notation::score_text;
use super::output::Sink;
use crate::eval::net::VALUE_SCALE;
use crate::game::Pos;
use crate::search::params::WIN_THRESHOLD;
use crate::search::{Reporter, RootEvent, SearchResult};
use std::time::{Duration, Instant};

/// Reports are at least this far apart (and the first this far into the search): at most
/// five a second, and none of the dozens of shallow iterations of a search's first moments.
/// An iteration that finishes sooner after a report is not shown (a later one will be).
const REPORT_GAP: Duration = Duration::from_millis(200);
/// The root moves are marked one by one only from this iteration on and this far into the
/// search: earlier iterations pass faster than a GUI could draw them.
const ROOT_MARKS_MIN_DEPTH: u32 = 8;
const ROOT_MARKS_AFTER: Duration = Duration::from_millis(200);

/// Which live lines a search prints (`INFO show_detail`'s bits; none in tournament mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Live {
    /// `MESSAGE REALTIME …` (bit 1).
    pub realtime: bool,
    /// The `INFO …` blocks (bit 2), which only a GUI that asks for them reads: to anybody
    /// else they are replies out of turn.
    pub info: bool,
}

impl Live {
    pub fn from_level(level: i64) -> Live {
        Live {
            realtime: level > 0 && level & 1 != 0,
            info: level > 0 && level & 2 != 0,
        }
    }

    /// Yixin-Board is the GUI that asks for the INFO blocks, and it labels its board
    /// transposed (a point `x,y` it draws at column `y`, row `x`): human notation follows it.
    pub fn transposed(self) -> bool {
        self.info
    }
}

/// Prints a search's iterations as they finish, rate-limited.
pub struct Progress<'a> {
    out: &'a mut dyn Sink,
    live: Live,
    /// When the last report was printed (before the first: when the search started).
    last_report: Instant,
    started: Instant,
    /// The root move whose `POS` mark went out last: only its end gets a `DONE`.
    marked: Option<Pos>,
}

impl<'a> Progress<'a> {
    pub fn new(out: &'a mut dyn Sink, live: Live) -> Progress<'a> {
        Progress {
            out,
            live,
            last_report: Instant::now(),
            started: Instant::now(),
            marked: None,
        }
    }

    fn realtime(&mut self, kind: &str, pos: Pos) {
        self.out
            .line(&format!("MESSAGE REALTIME {kind} {},{}", pos.x(), pos.y()));
    }
}

impl Reporter for Progress<'_> {
    fn iteration(&mut self, result: &SearchResult) {
        // A proven result ends the search: it is always worth showing.
        let due = self.last_report.elapsed() >= REPORT_GAP || result.mate_in().is_some();
        let best = match result.best {
            Some(best) if due && (self.live.realtime || self.live.info) => best,
            _ => return,
        };
        self.last_report = Instant::now();
        if self.live.realtime {
            let kind = if result.mate_in().map_or(false, |n| n < 0) {
                "LOSE"
            } else {
                "BEST"
            };
            // The root moves' marks of the iterations before are cleared.
            self.out.line("MESSAGE REALTIME REFRESH");
            self.realtime(kind, best);
        }
        if self.live.info {
            for line in ranked_blocks(result) {
                self.out.line(&line);
            }
        }
    }

    /// The root move being searched (`POS`), then searched (`DONE`), and a new best or a
    /// proven loss: Yixin-Board marks each on the board. Only in iterations long enough to
    /// watch (from `ROOT_MARKS_MIN_DEPTH`, `ROOT_MARKS_AFTER` into the search).
    fn root_move(&mut self, depth: u32, event: RootEvent) {
        if !self.live.realtime
            || depth < ROOT_MARKS_MIN_DEPTH
            || self.started.elapsed() < ROOT_MARKS_AFTER
        {
            return;
        }
        match event {
            RootEvent::Enter(pos) => {
                self.marked = Some(pos);
                self.realtime("POS", pos);
            }
            // A move whose search began before the marks did gets none at its end either.
            RootEvent::Leave { pos, .. } if self.marked != Some(pos) => {}
            RootEvent::Leave {
                pos,
                score,
                new_best,
            } => {
                self.marked = None;
                self.realtime("DONE", pos);
                if score < -WIN_THRESHOLD {
                    self.realtime("LOSE", pos);
                } else if new_best {
                    self.realtime("BEST", pos);
                }
            }
        }
    }
}

/// The INFO block of the `index`th of `count` best moves: `result`'s value and line.
pub fn info_block(result: &SearchResult, index: usize, count: usize) -> Vec<String> {
    let win_rate = match result.mate_in() {
        Some(plies) if plies > 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-result.score as f32 / VALUE_SCALE).exp()),
    };
    let eval = score_text(result.score);
    let line: Vec<String> = result
        .pv
        .iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect();
    vec![
        format!("INFO PV {index}"),
        format!("INFO NUMPV {count}"),
        format!("INFO DEPTH {}", result.depth),
        format!("INFO TOTALNODES {}", result.nodes),
        format!("INFO TOTALTIME {}", result.elapsed.as_millis()),
        format!("INFO EVAL {eval}"),
        format!("INFO WINRATE {win_rate:.3}"),
        format!("INFO BESTLINE {}", line.join(" ")),
        "INFO PV DONE".to_string(),
    ]
}

/// `MESSAGE REALTIME LOSE` for each ranked move proven lost: the GUI marks them on the board.
pub fn loss_marks(ranked: &[(Pos, i32)]) -> Vec<String> {
    ranked
        .iter()
        .filter(|&&(_, score)| score < -WIN_THRESHOLD)
        .map(|(pos, _)| format!("MESSAGE REALTIME LOSE {},{}", pos.x(), pos.y()))
        .collect()
}

/// The INFO blocks of an iteration's or a search's ranked moves (one, or YXNBEST's n), each
/// with its own value (the best with the principal variation, the others alone), all at the
/// search's depth (which they were searched to) so that the GUI keeps every label.
pub fn ranked_blocks(result: &SearchResult) -> Vec<String> {
    if result.ranked.is_empty() {
        return info_block(result, 0, 1);
    }
    let count = result.ranked.len();
    let mut lines = Vec::new();
    for (index, &(pos, score)) in result.ranked.iter().enumerate() {
        let pv = if result.pv.first() == Some(&pos) {
            result.pv.clone()
        } else {
            vec![pos]
        };
        let move_result = SearchResult {
            score,
            pv,
            ..result.clone()
        };
        lines.extend(info_block(&move_result, index, count));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::BoardSize;
    use crate::protocol::Lines;
    use crate::search::params::WIN;

    fn result(score: i32, elapsed_ms: u64) -> SearchResult {
        let size = BoardSize::square(15).unwrap();
        let (a, b) = (size.pos(3, 9).unwrap(), size.pos(4, 9).unwrap());
        SearchResult {
            best: Some(a),
            score,
            depth: 7,
            nodes: 1234,
            elapsed: Duration::from_millis(elapsed_ms),
            pv: vec![a, b],
            ranked: vec![(a, score), (b, score - 40)],
            tree: None,
            proof_nodes: None,
        }
    }

    #[test]
    fn only_proven_losses_are_marked() {
        let at = |x, y| Pos::new(x, y);
        let ranked = [
            (at(1, 2), 40),
            (at(3, 4), -WIN_THRESHOLD),
            (at(5, 6), -WIN_THRESHOLD - 3),
        ];
        assert_eq!(loss_marks(&ranked), ["MESSAGE REALTIME LOSE 5,6"]);
    }

    #[test]
    fn levels_are_bits() {
        assert_eq!(Live::from_level(0), Live::default());
        assert!(Live::from_level(1).realtime && !Live::from_level(1).info);
        assert!(!Live::from_level(2).realtime && Live::from_level(2).info);
        assert_eq!(Live::from_level(-1), Live::default());
    }

    #[test]
    fn blocks_say_value_win_rate_and_line_in_move_coordinates() {
        let block = info_block(&result(150, 20), 0, 1);
        assert_eq!(block[0], "INFO PV 0");
        assert_eq!(block[5], "INFO EVAL 150");
        assert_eq!(block[6], "INFO WINRATE 0.731");
        assert_eq!(block[7], "INFO BESTLINE 3,9 4,9");
        assert_eq!(block[8], "INFO PV DONE");
        assert_eq!(info_block(&result(WIN - 5, 0), 0, 1)[5], "INFO EVAL +M5");
        assert_eq!(
            info_block(&result(-WIN + 4, 0), 0, 1)[6],
            "INFO WINRATE 0.000"
        );
        let ranked = ranked_blocks(&result(10, 0));
        assert_eq!(ranked.len(), 18);
        assert_eq!(ranked[10], "INFO NUMPV 2");
        assert_eq!(ranked[14], "INFO EVAL -30");
        assert_eq!(ranked[16], "INFO BESTLINE 4,9");
    }

    #[test]
    fn root_moves_are_marked_in_long_iterations_only() {
        let mut out = Lines::default();
        let (a, b) = (Pos::new(3, 9), Pos::new(4, 9));
        let leave = |pos, score, new_best| RootEvent::Leave {
            pos,
            score,
            new_best,
        };
        let mut progress = Progress::new(&mut out, Live::from_level(1));
        progress.root_move(12, RootEvent::Enter(a));
        let long_ago = Instant::now().checked_sub(ROOT_MARKS_AFTER);
        progress.started = long_ago.unwrap_or(progress.started);
        // Its POS was held back (too early): no DONE for it either.
        progress.root_move(12, leave(a, 40, true));
        progress.root_move(ROOT_MARKS_MIN_DEPTH - 1, RootEvent::Enter(a));
        progress.root_move(12, RootEvent::Enter(a));
        progress.root_move(12, leave(a, 40, true));
        progress.root_move(12, RootEvent::Enter(b));
        progress.root_move(12, leave(b, -WIN + 6, false));
        let mut quiet = Progress::new(&mut out, Live::from_level(2));
        quiet.started = long_ago.unwrap_or(quiet.started);
        quiet.root_move(12, RootEvent::Enter(a));
        assert_eq!(
            out.0,
            [
                "MESSAGE REALTIME POS 3,9",
                "MESSAGE REALTIME DONE 3,9",
                "MESSAGE REALTIME BEST 3,9",
                "MESSAGE REALTIME POS 4,9",
                "MESSAGE REALTIME DONE 4,9",
                "MESSAGE REALTIME LOSE 4,9",
            ]
        );
    }

    #[test]
    fn reports_are_rate_limited_and_off_by_default() {
        let mut out = Lines::default();
        Progress::new(&mut out, Live::default()).iteration(&result(0, 900));
        assert!(out.0.is_empty());
        let mut progress = Progress::new(&mut out, Live::from_level(3));
        progress.iteration(&result(0, 1));
        let long_ago = Instant::now().checked_sub(REPORT_GAP);
        progress.last_report = long_ago.unwrap_or(progress.last_report);
        progress.iteration(&result(0, 400));
        progress.iteration(&result(0, 401));
        progress.iteration(&result(WIN - 3, 402));
        // Two reports, each REFRESH, BEST and a block for each of the two ranked moves.
        assert_eq!(out.0.len(), 2 * (2 + 2 * 9), "{:?}", out.0);
        assert_eq!(out.0[11], "INFO PV 1");
        assert_eq!(out.0[12], "INFO NUMPV 2");
        assert_eq!(out.0[0], "MESSAGE REALTIME REFRESH");
        assert_eq!(out.0[1], "MESSAGE REALTIME BEST 3,9");
        let mut progress = Progress::new(&mut out, Live::from_level(1));
        progress.iteration(&result(-WIN + 2, 5));
        assert_eq!(out.0.last().unwrap(), "MESSAGE REALTIME LOSE 3,9");
    }
}
