//! One brain's conversation with its manager: commands in, replies out, the game state in
//! between. Every command gets exactly the reply the protocol expects, or one `ERROR`.

use super::analysis::{loss_marks, ranked_blocks, Live, Progress};
use super::balance::balance;
use super::command::{Command, Info, Input, Owner, Point};
use super::database::Database;
use super::database_commands;
use super::notation::{score_text, Notation};
use super::output::{Detail, Sink};
use super::plural::counted;
use super::startup::Startup;
use super::trace;
use crate::bench::rules_bench;
use crate::engine::{max_table_bytes, max_threads, Engine, Handicap, Settings};
use crate::eval::evaluate;
use crate::eval::SWAP2_BALANCE_MARGIN;
use crate::game::{BoardSize, Color, Pos, Rule};
use crate::search::{Reporter, SearchResult, Silent, Stop};

/// The ABOUT line.
pub const ABOUT: &str = concat!(
    "name=\"Quinto\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"The Quinto developers\", country=\"International\""
);

/// Quinto's answer at a Swap2 step.
enum Swap2Answer {
    /// It takes black.
    Swap,
    /// The stones it plays.
    Stones(Vec<Pos>),
}

/// Whether the conversation goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
}

/// The brain's state between commands.
#[derive(Debug, Default)]
pub struct Session {
    /// `None` until START.
    engine: Option<Engine>,
    /// INFO values, kept across games (they may come before START).
    settings: Settings,
    /// The search's `MESSAGE` line before each move.
    detail: Detail,
    /// The lines a GUI draws while a move or YXNBEST is searched.
    live: Live,
    /// How the lines a person reads name points: as the GUI (by its `show_detail`) does.
    notation: Notation,
    /// `MESSAGE` lines waiting for the next reply they belong to.
    pending: Vec<String>,
    /// Limits fixed for the whole session (command-line flags).
    handicap: Handicap,
    /// The colour of Quinto's last move (whose side a draw offer asks about).
    my_color: Option<Color>,
    /// Points the user blocked (`yxblock`): kept across games and board sizes, as
    /// Yixin-Board sends START before every position.
    blocked: Vec<Point>,
    /// Yixin-Board's analysis database (`yxsetdatabase`, or the default one that `INFO
    /// usedatabase 1` opens), if one is in use.
    database: Option<Database>,
    /// `INFO database_readonly 1`: the database's edits are refused.
    database_readonly: bool,
    /// The last search's full `MESSAGE depth …` text, for `tracesearch`.
    last_search: Option<String>,
    /// `INFO pondering 1`: think on the opponent's time (a GUI's choice; managers never
    /// send it).
    pondering: bool,
}

const NO_GAME: &str = "no game in progress: send START first";
/// A balance's target beyond every evaluation (won or lost) means nothing more.
const MAX_BALANCE_BIAS: i64 = 100_000;
/// The most moves `yxnbest` and `yxsearchdefend` rank.
const MAX_RANKED: i64 = 64;

impl Session {
    /// A session with the settings file's values until the manager's INFO commands.
    pub fn new(handicap: Handicap, startup: Startup) -> Session {
        let mut session = Session {
            handicap,
            detail: startup.detail.unwrap_or_default(),
            ..Session::default()
        };
        session.settings.threads = startup.threads.unwrap_or(1);
        session.settings.hash_bytes = startup.hash_bytes;
        session
    }

    /// Whether to think on the opponent's time now: pondering asked for, and the opponent
    /// to move after Quinto's move.
    pub fn wants_ponder(&self) -> bool {
        match (&self.engine, self.my_color) {
            (Some(engine), Some(mine)) if self.pondering => {
                let board = engine.board();
                board.side_to_move() != mine && !board.is_full()
            }
            _ => false,
        }
    }

    /// Thinks on the opponent's time until `stop` says an input came (`Stop::ponder`): the
    /// results stay in the table for the next move. Prints nothing.
    pub fn ponder(&mut self, stop: &Stop) {
        if let Some(engine) = self.engine.as_mut() {
            engine.ponder(stop);
        }
    }

    /// Answers one input.
    pub fn handle(&mut self, input: Input, stop: &Stop, out: &mut dyn Sink) -> Flow {
        let result = match input {
            Input::Nothing => Ok(()),
            Input::Error(why) => Err(why),
            Input::Unknown(what) => {
                out.line(&format!("UNKNOWN {what}"));
                Ok(())
            }
            Input::Command(Command::End) => {
                database_commands::save(&mut self.database, out);
                return Flow::Exit;
            }
            Input::Command(command) => self.command(command, stop, out),
        };
        if let Some(note) = self.engine.as_mut().and_then(Engine::take_note) {
            self.pending.push(format!("MESSAGE {note}"));
        }
        if let Err(why) = result {
            out.line(&format!("ERROR {why}"));
        }
        Flow::Continue
    }

    fn command(&mut self, command: Command, stop: &Stop, out: &mut dyn Sink) -> Result<(), String> {
        match command {
            Command::Start { width, height } => {
                let size = board_size(width, height)?;
                match self.engine.as_mut() {
                    // Yixin-Board sends START before every position: the search results
                    // (and a loaded hash dump) stay.
                    Some(engine) if engine.board().size() == size => {
                        engine.restart(self.settings.clone())
                    }
                    _ => {
                        // Drop the old game (and its table) before making the new one.
                        self.engine = None;
                        self.engine = Some(Engine::new(size, self.settings.clone(), self.handicap));
                    }
                }
                self.my_color = None;
                out.line("OK");
            }
            Command::Restart => {
                self.game()?.new_game();
                out.line("OK");
            }
            Command::Begin => {
                if self.game()?.board().stone_count() > 0 {
                    return Err("BEGIN needs an empty board (send RESTART or BOARD)".into());
                }
                self.reply_move(stop, out)?;
            }
            Command::Turn(point) => {
                let pos = self.empty_point(point, "TURN")?;
                self.game()?.play(pos);
                self.reply_move(stop, out)?;
            }
            Command::Play(point) => {
                let pos = self.empty_point(point, "PLAY")?;
                self.game()?.play(pos);
                self.flush_pending(out);
                out.line(&format!("{},{}", pos.x(), pos.y()));
            }
            Command::Board { stones, then_move } => {
                self.set_board(&stones)?;
                if then_move {
                    self.reply_move(stop, out)?;
                }
            }
            Command::Takeback(point) => {
                let engine = self.game()?;
                let pos = on_board(engine.board().size(), point, "TAKEBACK")?;
                if engine.board().is_empty(pos) {
                    return Err(format!(
                        "TAKEBACK {},{}: there is no stone there",
                        point.x, point.y
                    ));
                }
                engine.remove(pos);
                out.line("OK");
            }
            Command::Swap2Board(points) => self.swap2(&points, stop, out)?,
            Command::Info(info) => self.info(info, out),
            Command::About => out.line(ABOUT),
            // A STOP reaches a running search through the input thread; here no search runs.
            Command::Stop => {}
            Command::YxShowForbid => {
                let engine = self.game()?;
                let board = engine.board();
                let mut reply = String::from("FORBID ");
                if board.side_to_move() == Color::Black {
                    for pos in board.size().points() {
                        if board.is_forbidden(pos, Color::Black) {
                            reply.push_str(&format!("{:02}{:02}", pos.x(), pos.y()));
                        }
                    }
                }
                reply.push('.');
                out.line(&reply);
            }
            Command::YxNbest(count) => {
                if count < 1 {
                    return Err(format!("YXNBEST {count}: the count must be at least 1"));
                }
                self.ranked_reply(count.min(MAX_RANKED) as usize, stop, out)?;
            }
            Command::YxSearchDefend => {
                // As Rapfi does: every move ranked; the GUI marks those proven lost.
                let count = self
                    .game()?
                    .board()
                    .candidates()
                    .count()
                    .clamp(1, MAX_RANKED as usize);
                self.ranked_reply(count, stop, out)?;
            }
            Command::YxShowInfo => {
                // Yixin-Board's units: threads, and log2 of the largest table in KiB.
                let hash_kib = max_table_bytes(&self.settings) >> 10;
                out.line(&format!(
                    "MESSAGE INFO MAX_THREAD_NUM {}",
                    max_threads(&self.settings)
                ));
                out.line(&format!(
                    "MESSAGE INFO MAX_HASH_SIZE {}",
                    63 - hash_kib.max(1).leading_zeros()
                ));
            }
            Command::YxHashFile { path, load } => {
                // Success or not, a MESSAGE (as Rapfi answers): the GUI waits for nothing.
                let path = std::path::Path::new(&path);
                let done = match self.engine.as_mut() {
                    None => Err(format!("hash table: {NO_GAME}")),
                    Some(engine) if load => engine.load_table(path).map(|n| {
                        format!("hash table read from {}: {}", path.display(), entries(n))
                    }),
                    Some(engine) => engine.dump_table(path).map(|n| {
                        format!("hash table written to {}: {}", path.display(), entries(n))
                    }),
                };
                out.line(&format!("MESSAGE {}", done.unwrap_or_else(|why| why)));
            }
            Command::YxHashClear => {
                if let Some(engine) = self.engine.as_mut() {
                    engine.clear_table();
                }
            }
            Command::YxHashUsage => {
                let (bytes, permille) = self
                    .engine
                    .as_ref()
                    .map_or((0, 0), |e| (e.table_bytes(), e.table_usage_permille()));
                out.line(&format!(
                    "MESSAGE hash table {} MiB, {}.{} % used",
                    bytes >> 20,
                    permille / 10,
                    permille % 10
                ));
            }
            Command::YxDraw => {
                // Accepted when Quinto (the side it last played, else the side to move) does
                // not stand better than balanced by the static evaluation.
                let me = self.my_color;
                let board = self.game()?.board();
                let to_move = board.side_to_move();
                let value = evaluate(board, to_move);
                let mine = if me.unwrap_or(to_move) == to_move {
                    value
                } else {
                    -value
                };
                let answer = if mine <= SWAP2_BALANCE_MARGIN {
                    "ACCEPT"
                } else {
                    "REJECT"
                };
                out.line(&format!("MESSAGE DRAW {answer}"));
            }
            Command::YxResign => out.line("MESSAGE resignation accepted"),
            Command::YxSwap2Step(step) => self.yixin_swap2(step, stop, out)?,
            Command::YxBlock { points, undo } => {
                for point in points {
                    self.blocked.retain(|&p| p != point);
                    if !undo {
                        self.blocked.push(point);
                    }
                }
            }
            Command::YxBlockReset => self.blocked.clear(),
            Command::YxBalance { two, bias } => {
                let blocked = self.blocked_points()?;
                let plies = if two { 2 } else { 1 };
                let bias = bias.clamp(-MAX_BALANCE_BIAS, MAX_BALANCE_BIAS) as i32;
                let engine = self.game()?;
                // Blocks that leave nothing to play give way, as for a move.
                let (line, value) = balance(engine, plies, bias, &blocked, stop)
                    .or_else(|| balance(engine, plies, bias, &[], stop))
                    .ok_or("no legal moves to balance with")?;
                for &pos in &line {
                    engine.play(pos);
                }
                let size = engine.board().size();
                let moves: Vec<String> = line
                    .iter()
                    .map(|p| format!("{},{}", p.x(), p.y()))
                    .collect();
                let named: Vec<String> =
                    line.iter().map(|&p| self.notation.point(size, p)).collect();
                self.pending.push(format!(
                    "MESSAGE chose {} to balance: ev {} for the side that played last (asked {bias})",
                    named.join(" "),
                    score_text(value)
                ));
                self.flush_pending(out);
                out.line(&moves.join(" "));
            }
            Command::Database { op, moves } => {
                let game = self
                    .engine
                    .as_ref()
                    .map(|e| (e.board().rule(), e.board().size()));
                let readonly = self.database_readonly;
                database_commands::answer(&mut self.database, readonly, op, &moves, game, out);
            }
            // A debugging aid: no game is said in a MESSAGE like the rest, never an ERROR.
            Command::TraceBoard => match self.engine.as_ref() {
                Some(engine) => {
                    for line in trace::board_lines(engine.board(), self.live.transposed()) {
                        out.line(&line);
                    }
                }
                None => out.line(&format!("MESSAGE {NO_GAME}")),
            },
            Command::TraceSearch => out.line(&trace::search_line(self.last_search.as_deref())),
            Command::ReloadConfig => out.line(trace::NO_CONFIG),
            Command::Bench => {
                let figures = rules_bench(20);
                out.line(&format!(
                    "MESSAGE bench move+undo {:.0}/s, renju foul verdicts {:.0}/s",
                    figures.move_undo_per_second, figures.foul_verdicts_per_second
                ));
            }
            Command::End => {}
        }
        Ok(())
    }

    /// The blocked points on the board in play.
    fn blocked_points(&mut self) -> Result<Vec<Pos>, String> {
        let size = self.game()?.board().size();
        Ok(self
            .blocked
            .iter()
            .filter_map(|p| size.pos(p.x, p.y))
            .collect())
    }

    fn game(&mut self) -> Result<&mut Engine, String> {
        self.engine.as_mut().ok_or_else(|| NO_GAME.to_string())
    }

    fn empty_point(&mut self, point: Point, what: &str) -> Result<Pos, String> {
        let board = self.game()?.board();
        let pos = on_board(board.size(), point, what)?;
        if board.is_empty(pos) {
            Ok(pos)
        } else {
            Err(format!(
                "{what} {},{}: the point is taken",
                point.x, point.y
            ))
        }
    }

    /// BOARD and YXBOARD: the colours follow from the counts (equal: I am black).
    fn set_board(&mut self, stones: &[(Point, Owner)]) -> Result<(), String> {
        let engine = self.game()?;
        let size = engine.board().size();
        let mine = stones.iter().filter(|(_, o)| *o == Owner::Mine).count();
        let theirs = stones.len() - mine;
        let my_color = if mine == theirs {
            Color::Black
        } else if theirs == mine + 1 {
            Color::White
        } else {
            return Err(format!(
                "BOARD has {mine} own and {theirs} opponent stones: with me to move they must be equal, or the opponent one ahead"
            ));
        };
        let mut placed: Vec<(Pos, Color)> = Vec::with_capacity(stones.len());
        for &(point, owner) in stones {
            let pos = on_board(size, point, "BOARD")?;
            if placed.iter().any(|&(p, _)| p == pos) {
                return Err(format!("BOARD lists {},{} twice", point.x, point.y));
            }
            let color = if owner == Owner::Mine {
                my_color
            } else {
                my_color.opponent()
            };
            placed.push((pos, color));
        }
        engine.set_position(&placed);
        Ok(())
    }

    fn info(&mut self, info: Info, out: &mut dyn Sink) {
        let s = &mut self.settings;
        let out_of_range =
            |key: &str, value: i64| Some(format!("ignored INFO {key} {value}: out of range"));
        let note = match info {
            Info::TimeoutTurn(ms) if ms >= 0 => {
                s.turn_ms = ms as u64;
                None
            }
            Info::TimeoutMatch(ms) if ms >= 0 => {
                s.match_ms = ms as u64;
                None
            }
            Info::TimeLeft(ms) => {
                s.time_left_ms = ms;
                None
            }
            Info::MaxMemory(bytes) if bytes >= 0 => {
                s.max_memory = bytes as u64;
                None
            }
            Info::MaxDepth(depth) => {
                s.max_depth = positive(depth).map(|d| d.min(u64::from(u32::MAX)) as u32);
                None
            }
            Info::MaxNode(nodes) => {
                s.max_nodes = positive(nodes);
                None
            }
            Info::ThreadNum(threads) => {
                s.threads = positive(threads).unwrap_or(1).min(256) as usize;
                None
            }
            // 0 or less: sized from max_memory again.
            Info::HashSize(kib) => {
                s.hash_bytes = positive(kib).map(|k| k.saturating_mul(1024));
                None
            }
            Info::TimeIncrement(ms) => {
                s.increment_ms = ms.max(0) as u64;
                None
            }
            Info::Rule(value) => {
                let (rule, note) = rule_for(value);
                s.rule = rule;
                note
            }
            Info::ShowDetail(level) => {
                self.detail = if level == 0 {
                    Detail::Off
                } else {
                    Detail::Full
                };
                self.live = Live::from_level(level);
                self.notation = Notation::for_show_detail(level);
                None
            }
            Info::Pondering(on) => {
                self.pondering = on != 0;
                None
            }
            // Said at once: the GUI shows it in its log, and no move may follow.
            Info::UseDatabase(on) => {
                database_commands::use_default(&mut self.database, on != 0, out);
                None
            }
            Info::DatabaseReadonly(on) => {
                self.database_readonly = on != 0;
                None
            }
            Info::GameType(_) | Info::Folder(_) | Info::Ignored(_) => None,
            Info::TimeoutTurn(v) => out_of_range("timeout_turn", v),
            Info::TimeoutMatch(v) => out_of_range("timeout_match", v),
            Info::MaxMemory(v) => out_of_range("max_memory", v),
            Info::Invalid { key, value } => {
                Some(format!("ignored INFO {key} {value}: not a number"))
            }
        };
        if let Some(note) = note {
            self.pending.push(format!("MESSAGE {note}"));
        }
        let settings = self.settings.clone();
        if let Some(engine) = self.engine.as_mut() {
            engine.set_settings(settings);
        }
    }

    /// SWAP2BOARD with 0, 3 or 5 stones (black, white, black, …).
    fn swap2(&mut self, points: &[Point], stop: &Stop, out: &mut dyn Sink) -> Result<(), String> {
        let size = self.game()?.board().size();
        let mut stones = Vec::with_capacity(points.len());
        for (i, &point) in points.iter().enumerate() {
            let pos = on_board(size, point, "SWAP2BOARD")?;
            if stones.iter().any(|&(p, _)| p == pos) {
                return Err(format!("SWAP2BOARD lists {},{} twice", point.x, point.y));
            }
            stones.push((pos, Color::to_move_after(i)));
        }
        if ![0, 3, 5].contains(&stones.len()) {
            return Err(format!(
                "SWAP2BOARD needs 0, 3 or 5 stones, got {}",
                stones.len()
            ));
        }
        self.game()?.set_position(&stones);
        let reply = match self.swap2_answer(stop)? {
            Swap2Answer::Swap => "SWAP".to_string(),
            Swap2Answer::Stones(added) => {
                let text: Vec<String> = added
                    .iter()
                    .map(|p| format!("{},{}", p.x(), p.y()))
                    .collect();
                text.join(" ")
            }
        };
        self.flush_pending(out);
        out.line(&reply);
        Ok(())
    }

    /// Yixin-Board's Swap2 steps, in its `MESSAGE SWAP2 …` lines (x then y, as in a move):
    /// 1 opens on an empty board; 2 and 3 answer the 3 or 5 stones a YXBOARD placed. The
    /// position is left as it was (step 1: empty); the GUI sends it again before a move.
    fn yixin_swap2(&mut self, step: u8, stop: &Stop, out: &mut dyn Sink) -> Result<(), String> {
        let engine = self.game()?;
        let position = if step == 1 {
            Vec::new()
        } else {
            engine.stones()
        };
        let wanted = match step {
            1 => 0,
            2 => 3,
            _ => 5,
        };
        if position.len() != wanted {
            return Err(format!(
                "yxswap2step{step} needs {wanted} stones on the board (YXBOARD first), not {}",
                position.len()
            ));
        }
        engine.set_position(&position);
        let answer = self.swap2_answer(stop);
        self.game()?.set_position(&position);
        let lines = match (step, answer?) {
            (2, Swap2Answer::Swap) => vec!["SWAP1 YES".to_string()],
            (3, Swap2Answer::Swap) => vec!["SWAP2 YES".to_string()],
            (2, Swap2Answer::Stones(added)) if added.len() == 1 => vec!["SWAP1 NO".to_string()],
            (3, Swap2Answer::Stones(_)) => vec!["SWAP2 NO".to_string()],
            (_, Swap2Answer::Stones(added)) => {
                let first = wanted + 1;
                added
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("MOVE{} {} {}", first + i, p.x(), p.y()))
                    .collect()
            }
            // Step 1 never swaps: the board is empty.
            (_, Swap2Answer::Swap) => Vec::new(),
        };
        self.flush_pending(out);
        for line in lines {
            out.line(&format!("MESSAGE SWAP2 {line}"));
        }
        Ok(())
    }

    /// Quinto's Swap2 choice on the position on the board, played there: with no stone, the
    /// three opening stones; with 3 or 5 (white to move), SWAP (it takes black) when black
    /// stands better by the margin, else the stones it adds: two after 3 when the position is
    /// close to even (the opponent then chooses), else one (it plays white). A `MESSAGE`
    /// waiting for the answer says what the choice is worth.
    fn swap2_answer(&mut self, stop: &Stop) -> Result<Swap2Answer, String> {
        let board = self.game()?.board();
        let size = board.size();
        let count = board.stone_count();
        if count == 0 {
            let opening = balanced_opening(size, self.settings.rule);
            let engine = self.game()?;
            for &pos in &opening {
                engine.play(pos);
            }
            let white_view = evaluate(self.game()?.board(), Color::White);
            self.swap2_note(&opening, white_view);
            return Ok(Swap2Answer::Stones(opening));
        }
        let white_view = evaluate(board, Color::White);
        if white_view < -SWAP2_BALANCE_MARGIN {
            self.pending.push(format!(
                "MESSAGE chose to swap: black stands better, ev {} for black",
                score_text(-white_view)
            ));
            return Ok(Swap2Answer::Swap);
        }
        let adds = if count == 3 && white_view <= SWAP2_BALANCE_MARGIN {
            2
        } else {
            1
        };
        let mut added = Vec::with_capacity(adds);
        let mut value = white_view;
        for _ in 0..adds {
            let result = self.think(1, stop, &mut Silent)?;
            let best = result.best.ok_or("no legal move")?;
            self.game()?.play(best);
            added.push(best);
            // The score is the mover's; white's view flips with each stone.
            value = if added.len() % 2 == 1 {
                result.score
            } else {
                -result.score
            };
        }
        self.swap2_note(&added, value);
        Ok(Swap2Answer::Stones(added))
    }

    /// `MESSAGE chose h8 i9 h9: ev 12 for white`: the stones a Swap2 answer places, in the
    /// GUI's notation, and what the position after them is worth to white (never `MESSAGE
    /// SWAP2 …` first: Yixin-Board reads those lines as the answer).
    fn swap2_note(&mut self, stones: &[Pos], white_view: i32) {
        let size = match self.engine.as_ref() {
            Some(engine) => engine.board().size(),
            None => return,
        };
        let named: Vec<String> = stones
            .iter()
            .map(|&p| self.notation.point(size, p))
            .collect();
        self.pending.push(format!(
            "MESSAGE chose {}: ev {} for white",
            named.join(" "),
            score_text(white_view)
        ));
    }

    fn think(
        &mut self,
        multipv: usize,
        stop: &Stop,
        reporter: &mut dyn Reporter,
    ) -> Result<SearchResult, String> {
        let blocked = self.blocked_points()?;
        let engine = self.game()?;
        stop.begin();
        let result = engine.think_with(multipv, &blocked, stop, reporter);
        stop.end();
        if result.best.map_or(false, |b| blocked.contains(&b)) {
            self.pending
                .push("MESSAGE every legal point is blocked: the blocks give way".into());
        }
        Ok(result)
    }

    /// A search whose iterations print the live lines the GUI asked for (none by default).
    fn think_live(
        &mut self,
        multipv: usize,
        stop: &Stop,
        out: &mut dyn Sink,
    ) -> Result<SearchResult, String> {
        let live = self.live;
        self.think(multipv, stop, &mut Progress::new(out, live))
    }

    /// Searches for the `count` best moves, prints them (`MESSAGE nbest`, the INFO blocks,
    /// `MESSAGE REALTIME LOSE` for each proven loss) and plays the best.
    fn ranked_reply(
        &mut self,
        count: usize,
        stop: &Stop,
        out: &mut dyn Sink,
    ) -> Result<(), String> {
        let result = self.think_live(count, stop, out)?;
        if self.live.info {
            self.pending.extend(ranked_blocks(&result));
        }
        let size = self.game()?.board().size();
        for (rank, &(pos, score)) in result.ranked.iter().enumerate() {
            self.pending.push(format!(
                "MESSAGE nbest {} {} ev {}",
                rank + 1,
                self.notation.point(size, pos),
                score_text(score),
            ));
        }
        if self.live.realtime {
            self.pending.extend(loss_marks(&result.ranked));
        }
        self.play_result(result, out)
    }

    /// Searches, plays and prints the move.
    fn reply_move(&mut self, stop: &Stop, out: &mut dyn Sink) -> Result<(), String> {
        let result = self.think_live(1, stop, out)?;
        self.play_result(result, out)
    }

    fn play_result(&mut self, result: SearchResult, out: &mut dyn Sink) -> Result<(), String> {
        let best = match result.best {
            Some(best) => best,
            None => return Err("no legal move: the board is full".into()),
        };
        let size = self.game()?.board().size();
        let notation = self.notation;
        let full_line = detail_line(size, &result, true, notation);
        match self.detail {
            Detail::Off => {}
            Detail::Short => self
                .pending
                .push(detail_line(size, &result, false, notation)),
            Detail::Full => self.pending.push(full_line.clone()),
        }
        self.last_search = full_line.strip_prefix("MESSAGE ").map(String::from);
        let me = self.game()?.board().side_to_move();
        self.my_color = Some(me);
        self.game()?.play(best);
        self.flush_pending(out);
        out.line(&format!("{},{}", best.x(), best.y()));
        Ok(())
    }

    fn flush_pending(&mut self, out: &mut dyn Sink) {
        for line in self.pending.drain(..) {
            out.line(&line);
        }
    }
}

/// `MESSAGE depth … ev … n … tm …`, and when `full` also `n/ms …` and `pv …` (in that
/// order, which readers of the full line expect; the points and mates named as the GUI
/// labels them).
fn detail_line(size: BoardSize, result: &SearchResult, full: bool, notation: Notation) -> String {
    let ms = result.elapsed.as_millis();
    let head = format!(
        "MESSAGE depth {} ev {} n {}",
        result.depth,
        score_text(result.score),
        result.nodes
    );
    if !full {
        return format!("{head} tm {ms}");
    }
    let pv: Vec<String> = result.pv.iter().map(|&p| notation.point(size, p)).collect();
    format!(
        "{head} n/ms {} tm {ms} pv {}",
        result.nodes as u128 / ms.max(1),
        pv.join(" ")
    )
}

fn entries(count: u64) -> String {
    counted(count, "entry", "entries")
}

fn board_size(width: i64, height: i64) -> Result<BoardSize, String> {
    let side = |n: i64| usize::try_from(n).unwrap_or(usize::MAX);
    BoardSize::new(side(width), side(height))
}

fn on_board(size: BoardSize, point: Point, what: &str) -> Result<Pos, String> {
    size.pos(point.x, point.y).ok_or_else(|| {
        format!(
            "{what} {},{} is off the {}x{} board",
            point.x,
            point.y,
            size.width(),
            size.height()
        )
    })
}

fn positive(value: i64) -> Option<u64> {
    (value > 0).then_some(value as u64)
}

/// The rule for an `INFO rule` value, with a note when it had to fall back.
fn rule_for(value: i64) -> (Rule, Option<String>) {
    // Yixin-Board and Rapfi read 2 as renju (not Gomocup's continuous-game bit), and 5 and 6
    // as freestyle opened by swap1 or swap2 (the opening is the GUI's business).
    let named = match value {
        2 => Some(Rule::Renju),
        5 | 6 => Some(Rule::Freestyle),
        _ => u32::try_from(value).ok().and_then(Rule::from_protocol),
    };
    if let Some(rule) = named {
        return (rule, None);
    }
    // Drop the continuous-game bit (2) and anything unknown, keep what we can play.
    let known = u32::try_from(value).map_or(0, |v| v & 0b1101);
    let rule = Rule::from_protocol(known).unwrap_or(Rule::Freestyle);
    let why = if value >= 0 && value & 2 != 0 {
        "continuous games are not supported"
    } else {
        "supported: 0, 1, 2, 4, 5, 6, 8, 9"
    };
    // Not `INFO …` first: Yixin-Board takes `MESSAGE INFO` lines for settings and hides them.
    (
        rule,
        Some(format!(
            "unsupported rule {value} ({why}); playing {}",
            rule.name()
        )),
    )
}

/// Three opening stones for SWAP2 that the evaluation calls closest to even.
fn balanced_opening(size: BoardSize, rule: Rule) -> Vec<Pos> {
    let center = size.center();
    let at = |dx: i64, dy: i64| size.pos(center.x() as i64 + dx, center.y() as i64 + dy);
    let mut candidates: Vec<(i32, Vec<Pos>)> = Vec::new();
    for (dx1, dy1) in [(1, 0), (1, 1)] {
        for dx2 in -2..=2 {
            for dy2 in -2..=2 {
                let stones = [Some(center), at(dx1, dy1), at(dx2, dy2)];
                let stones: Option<Vec<Pos>> = stones.into_iter().collect();
                let stones = match stones {
                    Some(s) if s[2] != s[0] && s[2] != s[1] => s,
                    _ => continue,
                };
                let mut board = crate::game::Board::new(size, rule);
                for (i, &pos) in stones.iter().enumerate() {
                    board.play(pos, Color::to_move_after(i));
                }
                candidates.push((evaluate(&board, Color::White).abs(), stones));
            }
        }
    }
    candidates.sort();
    candidates
        .into_iter()
        .next()
        .map(|(_, s)| s)
        .unwrap_or_default()
}
