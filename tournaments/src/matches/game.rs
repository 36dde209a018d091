//! One game between two engine processes, refereed by Quinto's rules core.
//!
//! The conversation is the manager side of the Gomocup protocol: `START` (or `RECTSTART`)
//! answered by `OK`, the `INFO` settings, then for every move `INFO time_left` and a request —
//! `BEGIN` on the empty board, `BOARD … DONE` for an engine's first move in a set-up
//! position, `TURN x,y` afterwards — and `END` at the close.

use crate::matches::engine::{EngineProcess, EngineSpec, Received};
use crate::matches::procmem::{Memory, MemoryKind};
use quinto::game::{gomocup_stone_limit, judge_move, Board, BoardSize, Color, Pos, Rule, Verdict};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `INFO time_left` when the game time is unlimited.
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// Time and resource limits of a game.
#[derive(Clone, Debug)]
pub struct Limits {
    /// `INFO timeout_turn`, ms; 0 means "answer at once" (only the tolerance is allowed).
    pub turn_ms: u64,
    /// `INFO timeout_match`, ms; 0 = unlimited.
    pub match_ms: u64,
    /// Grace past `min(turn, time_left)` before a reply counts as late.
    pub tolerance_ms: u64,
    /// How long `START` may take to be answered with `OK` (not counted as game time).
    pub start_ms: u64,
    /// `INFO max_memory`, bytes; 0 = no limit (and no memory adjudication).
    pub max_memory: u64,
    /// Which figure is compared with `max_memory`.
    pub memory_kind: MemoryKind,
    /// Also sample memory every this many ms while the engine thinks (0: after moves only).
    pub memory_poll_ms: u64,
    /// `INFO max_node`, if set.
    pub max_nodes: Option<u64>,
    /// `INFO max_depth`, if set.
    pub max_depth: Option<u64>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            turn_ms: 5000,
            match_ms: 0,
            tolerance_ms: 1000,
            start_ms: 5000,
            max_memory: 0,
            memory_kind: MemoryKind::Vms,
            memory_poll_ms: 0,
            max_nodes: None,
            max_depth: None,
        }
    }
}

/// Everything a game needs besides the players and the opening.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub size: BoardSize,
    pub rule: Rule,
    pub limits: Limits,
    /// Ignore stray output lines instead of losing the game on them (as GomocupJudge does).
    pub lenient: bool,
    /// Send lines ending in CR LF (Piskvork, GomocupJudge on Windows) instead of LF.
    pub crlf: bool,
}

/// Where one engine's files for one game go.
#[derive(Clone, Debug)]
pub struct EngineLogs {
    /// The engine's stderr.
    pub stderr: PathBuf,
    /// The conversation, if wanted.
    pub transcript: Option<PathBuf>,
}

/// What an engine did wrong; the side at fault loses the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// No move within `min(turn, time_left) + tolerance` (or no `OK` to `START` in time).
    Timeout,
    /// The process could not start, exited, or closed its output.
    Crash,
    /// A move on an occupied point or off the board.
    Illegal,
    /// Renju: black played a forbidden point.
    Forbidden,
    /// A line a strict manager rejects (anything but a move, `MESSAGE …`, `DEBUG …` where a
    /// move is due; anything but `OK` to `START`), `ERROR`/`UNKNOWN` included.
    BadOutput,
    /// Memory over `max_memory`.
    Memory,
}

impl Fault {
    pub const ALL: [Fault; 6] = [
        Fault::Timeout,
        Fault::Crash,
        Fault::Illegal,
        Fault::Forbidden,
        Fault::BadOutput,
        Fault::Memory,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fault::Timeout => "timeout",
            Fault::Crash => "crash",
            Fault::Illegal => "illegal",
            Fault::Forbidden => "forbidden",
            Fault::BadOutput => "bad-output",
            Fault::Memory => "memory",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The winner made five (as the rule counts it).
    Five,
    /// The loser (the other side) committed this fault.
    Fault(Fault),
    /// Draw: no empty point left.
    FullBoard,
    /// Draw: the renju stone limit (Gomocup: size² − 25 stones).
    StoneLimit,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Five => "five",
            Ending::Fault(f) => f.name(),
            Ending::FullBoard => "full-board",
            Ending::StoneLimit => "stone-limit",
        }
    }
}

/// The record of one game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub size: BoardSize,
    /// Every stone on the final board in move order with the ms its move took (opening
    /// stones: 0). A last move the referee refused (illegal, forbidden) is not in the list.
    pub moves: Vec<(Pos, u64)>,
    /// How many of `moves` came from the opening.
    pub opening_len: usize,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub ending: Ending,
    /// Human explanation: `black played h8 (7,7): double three`, `white: no move in 1200 ms`.
    pub detail: String,
    /// Per colour (index `Color::index()`): total thinking time, ms.
    pub time_ms: [u64; 2],
    /// Per colour: longest single move, ms.
    pub max_move_ms: [u64; 2],
    /// Per colour: peak memory seen (zero where it could not be measured).
    pub peak: [Memory; 2],
    /// Per colour: output lines ignored (in lenient mode).
    pub ignored_lines: [u32; 2],
}

impl GameRecord {
    /// The loser's colour and fault, if the game ended on one.
    pub fn fault(&self) -> Option<(Color, Fault)> {
        match (self.ending, self.winner) {
            (Ending::Fault(f), Some(w)) => Some((w.opponent(), f)),
            _ => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` (black's score first).
    pub fn score_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A line from the engine, as a strict manager sorts it.
#[derive(Debug, PartialEq, Eq)]
pub enum LineKind {
    /// `x,y` (two decimal integers, possibly negative or huge: the referee rules on them).
    Move(i64, i64),
    /// `MESSAGE …` or `DEBUG …`: allowed before a reply.
    Info,
    /// An empty line: ignored.
    Blank,
    /// Anything else.
    Other,
}

pub fn classify(line: &str) -> LineKind {
    if line.trim().is_empty() {
        return LineKind::Blank;
    }
    for prefix in ["MESSAGE", "DEBUG"] {
        if line == prefix || line.starts_with(&format!("{prefix} ")) {
            return LineKind::Info;
        }
    }
    match line.split_once(',') {
        Some((x, y)) => match (integer(x), integer(y)) {
            (Some(x), Some(y)) => LineKind::Move(x, y),
            _ => LineKind::Other,
        },
        None => LineKind::Other,
    }
}

/// A decimal integer with an optional minus sign, saturated to i64 (a huge coordinate is
/// still off the board).
fn integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if negative { -value } else { value })
}

/// A reason the game ends on one side's fault, with the explanation.
struct Failure(Fault, String);

/// Plays one game: `players[0]` is black (moves first on the empty board), `players[1]`
/// white; `opening` holds stones already played (black first). Never fails: whatever goes
/// wrong with an engine is adjudicated against it.
pub fn play_game(
    players: [&EngineSpec; 2],
    opening: &[Pos],
    config: &GameConfig,
    logs: [&EngineLogs; 2],
) -> GameRecord {
    let mut game = Game::new(config, opening);
    let first = game.board.side_to_move();
    let order = [first, first.opponent()];
    let mut procs: [Option<EngineProcess>; 2] = [None, None];

    let result = (|| -> Result<(), (Color, Failure)> {
        for color in order {
            let i = color.index();
            let p = EngineProcess::spawn(
                players[i],
                &logs[i].stderr,
                logs[i].transcript.as_deref(),
                config.crlf,
            )
            .map_err(|e| (color, Failure(Fault::Crash, e)))?;
            procs[i] = Some(p);
        }
        // START to both first, so that they load in parallel; then each one's OK.
        for color in order {
            let p = procs[color.index()].as_mut().expect("spawned");
            Game::send(p, &game.start_line()).map_err(|f| (color, f))?;
        }
        for color in order {
            let p = procs[color.index()].as_mut().expect("spawned");
            game.start(p).map_err(|f| (color, f))?;
        }
        loop {
            let color = game.board.side_to_move();
            let p = procs[color.index()].as_mut().expect("spawned");
            match game.one_move(p, color) {
                Ok(true) => continue,
                Ok(false) => return Ok(()),
                Err(f) => return Err((color, f)),
            }
        }
    })();
    if let Err((color, Failure(fault, why))) = result {
        game.winner = Some(color.opponent());
        game.ending = Some(Ending::Fault(fault));
        game.detail = format!("{}: {why}", color_name(color));
    }

    // Close both: END to each, then half a second (as the judges allow) before a kill.
    for p in procs.iter_mut().flatten() {
        p.send_end();
    }
    let mut peak = [Memory::default(); 2];
    for (i, slot) in procs.iter_mut().enumerate() {
        if let Some(p) = slot.as_mut() {
            p.kill_after(Duration::from_millis(500));
            peak[i] = p.peak;
        }
    }
    GameRecord {
        size: config.size,
        opening_len: opening.len(),
        winner: game.winner,
        ending: game.ending.unwrap_or(Ending::FullBoard),
        detail: game.detail,
        time_ms: game.used,
        max_move_ms: game.max_move,
        peak,
        ignored_lines: game.ignored,
        moves: game.moves,
    }
}

/// The referee's state during a game.
struct Game<'a> {
    config: &'a GameConfig,
    board: Board,
    stone_limit: Option<usize>,
    opening_len: usize,
    moves: Vec<(Pos, u64)>,
    /// Per colour: how many stones of the current board the engine has been told about.
    told: [usize; 2],
    used: [u64; 2],
    max_move: [u64; 2],
    ignored: [u32; 2],
    winner: Option<Color>,
    ending: Option<Ending>,
    detail: String,
}

impl<'a> Game<'a> {
    fn new(config: &'a GameConfig, opening: &[Pos]) -> Game<'a> {
        let mut board = Board::new(config.size, config.rule);
        for (i, &pos) in opening.iter().enumerate() {
            board.play(pos, Color::to_move_after(i));
        }
        Game {
            config,
            stone_limit: gomocup_stone_limit(config.rule, config.size),
            board,
            opening_len: opening.len(),
            moves: opening.iter().map(|&p| (p, 0)).collect(),
            told: [0; 2],
            used: [0; 2],
            max_move: [0; 2],
            ignored: [0; 2],
            winner: None,
            ending: None,
            detail: String::new(),
        }
    }

    fn point(&self, x: i64, y: i64) -> String {
        match self.config.size.pos(x, y) {
            Some(p) => format!("{} ({x},{y})", self.config.size.to_human(p)),
            None => format!("{x},{y}"),
        }
    }

    fn send(p: &mut EngineProcess, line: &str) -> Result<(), Failure> {
        p.send(line).map_err(|e| {
            let status = p.wait_exit(Duration::from_millis(100));
            Failure(
                Fault::Crash,
                match status {
                    Some(s) => format!("engine gone ({s}) before '{line}'"),
                    None => format!("{e} ('{line}')"),
                },
            )
        })
    }

    fn crashed(p: &mut EngineProcess, waiting_for: &str) -> Failure {
        let status = p.wait_exit(Duration::from_millis(200));
        Failure(
            Fault::Crash,
            format!(
                "output closed while waiting for {waiting_for} ({})",
                status.unwrap_or_else(|| "process still running".into())
            ),
        )
    }

    /// `START n`, or `RECTSTART w,h` for a rectangular board.
    fn start_line(&self) -> String {
        let size = self.config.size;
        if size.width() == size.height() {
            format!("START {}", size.width())
        } else {
            format!("RECTSTART {},{}", size.width(), size.height())
        }
    }

    /// After `START` was sent: its `OK`, then the `INFO` settings.
    fn start(&mut self, p: &mut EngineProcess) -> Result<(), Failure> {
        let start = self.start_line();
        let limits = &self.config.limits;
        let deadline = Instant::now() + Duration::from_millis(limits.start_ms);
        loop {
            match p.recv(deadline) {
                Received::Line(line, _) => match line.as_str() {
                    "OK" => break,
                    l if classify(l) == LineKind::Info || classify(l) == LineKind::Blank => {}
                    l if l.starts_with("ERROR") => {
                        return Err(Failure(Fault::BadOutput, format!("{start}: '{l}'")))
                    }
                    l => {
                        if !self.config.lenient {
                            return Err(Failure(
                                Fault::BadOutput,
                                format!("'{l}' instead of OK to {start}"),
                            ));
                        }
                    }
                },
                Received::Eof => return Err(Self::crashed(p, "OK to START")),
                Received::Timeout => {
                    return Err(Failure(
                        Fault::Timeout,
                        format!("no OK to {start} within {} ms", limits.start_ms),
                    ))
                }
            }
        }
        let infos = [
            format!("INFO timeout_turn {}", limits.turn_ms),
            format!("INFO timeout_match {}", limits.match_ms),
            format!("INFO max_memory {}", limits.max_memory),
            "INFO game_type 1".to_string(),
            format!("INFO rule {}", self.config.rule.protocol_value()),
        ];
        for line in infos.iter() {
            Self::send(p, line)?;
        }
        if let Some(n) = limits.max_nodes {
            Self::send(p, &format!("INFO max_node {n}"))?;
        }
        if let Some(d) = limits.max_depth {
            Self::send(p, &format!("INFO max_depth {d}"))?;
        }
        p.sample_memory();
        Ok(())
    }

    /// Asks `color` for a move, referees it. `Ok(true)`: the game goes on.
    fn one_move(&mut self, p: &mut EngineProcess, color: Color) -> Result<bool, Failure> {
        let limits = self.config.limits.clone();
        let time_left = if limits.match_ms == 0 {
            UNLIMITED_TIME_LEFT
        } else {
            limits.match_ms as i64 - self.used[color.index()] as i64
        };
        Self::send(p, &format!("INFO time_left {time_left}"))?;
        for line in self.request(color) {
            Self::send(p, &line)?;
        }
        let sent = Instant::now();
        let allowed = limits.turn_ms.min(time_left.max(0) as u64) + limits.tolerance_ms;
        let deadline = sent + Duration::from_millis(allowed);
        let poll =
            (limits.memory_poll_ms > 0).then(|| Duration::from_millis(limits.memory_poll_ms));

        let (x, y, at) = loop {
            let wake = match poll {
                Some(every) => deadline.min(Instant::now() + every),
                None => deadline,
            };
            match p.recv(wake) {
                Received::Line(line, at) => match classify(&line) {
                    LineKind::Move(x, y) => break (x, y, at),
                    LineKind::Info | LineKind::Blank => {}
                    LineKind::Other if self.config.lenient => {
                        self.ignored[color.index()] += 1;
                        p.remark("ignored (lenient)");
                    }
                    LineKind::Other => {
                        return Err(Failure(
                            Fault::BadOutput,
                            format!("'{}' instead of a move", shorten(&line)),
                        ))
                    }
                },
                Received::Eof => return Err(Self::crashed(p, "a move")),
                Received::Timeout => {
                    if Instant::now() >= deadline {
                        return Err(Failure(
                            Fault::Timeout,
                            format!(
                                "no move within {allowed} ms (turn {} ms, time left {} ms, tolerance {} ms)",
                                limits.turn_ms,
                                time_left,
                                limits.tolerance_ms
                            ),
                        ));
                    }
                    self.check_memory(p)?;
                }
            }
        };
        let ms = at.saturating_duration_since(sent).as_millis() as u64;
        let i = color.index();
        self.used[i] += ms;
        self.max_move[i] = self.max_move[i].max(ms);
        self.check_memory(p)?;

        let verdict = judge_move(&mut self.board, x, y, color, self.stone_limit);
        let where_ = self.point(x, y);
        let refused = |what: String| format!("played {where_}: {what}");
        match verdict {
            Verdict::OffBoard => {
                return Err(Failure(Fault::Illegal, refused("off the board".into())))
            }
            Verdict::Occupied => {
                return Err(Failure(Fault::Illegal, refused("point occupied".into())))
            }
            Verdict::Forbidden(foul) => {
                return Err(Failure(
                    Fault::Forbidden,
                    refused(format!("forbidden ({})", foul.describe())),
                ))
            }
            _ => {}
        }
        let pos = self
            .config
            .size
            .pos(x, y)
            .expect("the referee played it on the board");
        self.moves.push((pos, ms));
        self.told[i] = self.board.stone_count();
        match verdict {
            Verdict::Win => {
                self.winner = Some(color);
                self.ending = Some(Ending::Five);
                self.detail = format!("{} made five with {where_}", color_name(color));
                Ok(false)
            }
            Verdict::Draw => {
                self.winner = None;
                if self.board.is_full() {
                    self.ending = Some(Ending::FullBoard);
                    self.detail = "the board is full".into();
                } else {
                    self.ending = Some(Ending::StoneLimit);
                    self.detail =
                        format!("{} stones: the renju stone limit", self.board.stone_count());
                }
                Ok(false)
            }
            _ => Ok(true),
        }
    }

    /// The lines that ask `color` for its move.
    fn request(&mut self, color: Color) -> Vec<String> {
        let i = color.index();
        let history = self.board.history().to_vec();
        let told = self.told[i];
        if told == 0 && history.is_empty() {
            return vec!["BEGIN".into()];
        }
        if told + 1 == history.len() && (told > 0 || self.opening_len == 0) {
            let last = history[told];
            return vec![format!("TURN {},{}", last.x(), last.y())];
        }
        // First move in a set-up position: the whole board, stones in move order, 1 = own.
        let mut lines = vec!["BOARD".to_string()];
        for (k, pos) in history.iter().enumerate() {
            let owner = if Color::to_move_after(k) == color {
                1
            } else {
                2
            };
            lines.push(format!("{},{},{owner}", pos.x(), pos.y()));
        }
        lines.push("DONE".into());
        lines
    }

    fn check_memory(&mut self, p: &mut EngineProcess) -> Result<(), Failure> {
        let limits = &self.config.limits;
        let m = match p.sample_memory() {
            Some(m) => m,
            None => return Ok(()),
        };
        let used = limits.memory_kind.of(m);
        if limits.max_memory > 0 && used > limits.max_memory {
            return Err(Failure(
                Fault::Memory,
                format!(
                    "{} {} bytes over max_memory {}",
                    limits.memory_kind.name(),
                    used,
                    limits.max_memory
                ),
            ));
        }
        Ok(())
    }
}

/// At most 80 characters of an engine's line, for messages.
fn shorten(line: &str) -> String {
    if line.chars().count() <= 80 {
        line.to_string()
    } else {
        let cut: String = line.chars().take(77).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_sorted_as_a_strict_manager_does() {
        assert_eq!(classify("7,7"), LineKind::Move(7, 7));
        assert_eq!(classify("-1,20"), LineKind::Move(-1, 20));
        assert_eq!(
            classify("99999999999999999999,0"),
            LineKind::Move(i64::MAX, 0)
        );
        assert_eq!(classify("MESSAGE depth 3"), LineKind::Info);
        assert_eq!(classify("DEBUG x"), LineKind::Info);
        assert_eq!(classify("MESSAGE"), LineKind::Info);
        assert_eq!(classify(""), LineKind::Blank);
        for other in [
            "OK",
            "ERROR no",
            "UNKNOWN x",
            "7, 7",
            " 7,7",
            "7,7,1",
            "MESSAGEx",
            "message hi",
            "h8",
            "7;7",
            "-,3",
        ] {
            assert_eq!(classify(other), LineKind::Other, "{other:?}");
        }
    }

    #[test]
    fn endings_and_scores() {
        let rec = GameRecord {
            size: BoardSize::square(15).unwrap(),
            moves: vec![],
            opening_len: 0,
            winner: Some(Color::White),
            ending: Ending::Fault(Fault::Timeout),
            detail: String::new(),
            time_ms: [0; 2],
            max_move_ms: [0; 2],
            peak: [Memory::default(); 2],
            ignored_lines: [0; 2],
        };
        assert_eq!(rec.fault(), Some((Color::Black, Fault::Timeout)));
        assert_eq!(rec.score_text(), "0-1");
        assert_eq!(Ending::StoneLimit.name(), "stone-limit");
    }
}
