//! The harness's mirror of the brain's game: it follows every request sent and every reply
//! received, says what each request must be answered with, and checks each reply against
//! it — in particular that every move the brain plays is on the board, on an empty point
//! and, for black under renju, not forbidden (colours by stone parity: black moves when the
//! stone count is even).
//!
//! Requests are answered in order, so the mirror keeps a queue: a request's expectation is
//! worked out when every earlier request has been answered, against the position as it is
//! then. Requests that get no reply (INFO, YXBOARD, STOP, …) take effect as soon as they
//! reach the front.

use super::reply::{parse_move, Reply};
use super::request::{number, Request, RequestReader, Stone};
use quinto::game::{Board, BoardSize, Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use std::collections::{BTreeMap, VecDeque};

/// What a request must be answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    Ok,
    Error,
    Unknown,
    About,
    /// A legal move for the side to move; `or_error` when there may be none; `forced` for
    /// PLAY, which must echo its point.
    Move {
        or_error: bool,
        forced: Option<Pos>,
    },
    /// `FORBID …`; the exact set when the rule is known.
    Forbid(Option<Vec<(usize, usize)>>),
    /// A SWAP2 answer to a board of this many stones.
    Swap2(usize),
    /// A balance: `count` legal moves on one line (or an `ERROR` when `or_error`: too few
    /// points are left).
    Balance {
        count: usize,
        or_error: bool,
    },
}

/// The rule in force, as far as the harness can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RuleState {
    Known(Rule),
    /// `INFO rule` with a value `exact_rule` does not name: the brain falls back to a rule of its
    /// choice, so only the rule-independent checks apply.
    Fallback,
}

/// The mirror of one brain process.
#[derive(Debug)]
pub struct Mirror {
    reader: RequestReader,
    /// Requests not yet answered, with where they came from.
    queue: VecDeque<(Request, String)>,
    /// The front request's expectation, once worked out.
    front: Option<Expect>,
    rule: RuleState,
    /// The position, under the rule in force (freestyle for a fallback rule).
    game: Option<Board>,
    ended: bool,
    requests: usize,
    moves_checked: usize,
    /// Replies received, by kind.
    replies: BTreeMap<&'static str, usize>,
    /// `INFO show_detail 0` is in force: no search line (`MESSAGE depth …`) before a move.
    detail_off: bool,
    /// `INFO show_detail`'s bits in force: 1 allows `MESSAGE REALTIME …` lines, 2 `INFO …`
    /// analysis lines, and only while a move is searched.
    live_bits: i64,
    /// Points blocked by `yxblock` (kept across games): a searched move avoids them while
    /// any other legal point is left.
    blocked: Vec<(i64, i64)>,
    /// The last `MESSAGE nbest` line's rank and value: a ranking goes 1, 2, … in the order
    /// of its values.
    last_nbest: Option<(u64, i64)>,
    /// A `MESSAGE DATABASE TEXT "…` comment runs on: the lines up to its closing quote are
    /// its text (Yixin-Board reads them so).
    open_comment: bool,
}

impl Default for Mirror {
    fn default() -> Mirror {
        Mirror {
            reader: RequestReader::new(),
            queue: VecDeque::new(),
            front: None,
            rule: RuleState::Known(Rule::Freestyle),
            game: None,
            ended: false,
            requests: 0,
            moves_checked: 0,
            replies: BTreeMap::new(),
            detail_off: false,
            live_bits: 0,
            blocked: Vec::new(),
            last_nbest: None,
            open_comment: false,
        }
    }
}

impl Mirror {
    pub fn new() -> Mirror {
        Mirror::default()
    }

    /// Records bytes written to the brain; `origin` names them in failure messages.
    pub fn sent(&mut self, bytes: &[u8], origin: &str) {
        for request in self.reader.write(bytes) {
            self.requests += 1;
            self.queue.push_back((request, origin.to_string()));
        }
        self.advance();
    }

    /// Records that the brain's input was closed (end of input means END).
    pub fn closed(&mut self, origin: &str) {
        for request in self.reader.close() {
            self.queue.push_back((request, origin.to_string()));
        }
        self.queue.push_back((Request::End, origin.to_string()));
        self.advance();
    }

    /// Whether a block is open (the brain waits for `DONE`).
    pub fn in_block(&self) -> bool {
        self.reader.in_block()
    }

    /// Whether END has been processed.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Whether END has been sent (processed or still queued): replies still owed may then
    /// never come.
    pub fn end_sent(&self) -> bool {
        self.ended || self.queue.iter().any(|(r, _)| *r == Request::End)
    }

    /// How many replies of each kind have come.
    pub fn replies(&self) -> &BTreeMap<&'static str, usize> {
        &self.replies
    }

    /// How many requests have been sent.
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// How many engine moves have been checked for legality.
    pub fn moves_checked(&self) -> usize {
        self.moves_checked
    }

    /// The unanswered request at the front, if any.
    pub fn awaiting(&self) -> Option<String> {
        if self.ended {
            return None;
        }
        self.front.as_ref().map(|expect| {
            let (request, origin) = &self.queue[0];
            format!("{request:?} ({origin}) awaits {expect:?}")
        })
    }

    /// The position (None before START).
    pub fn board(&self) -> Option<&Board> {
        self.game.as_ref()
    }

    /// Checks one line the brain printed and follows its effect.
    pub fn received(&mut self, line: &str) -> Result<(), String> {
        if self.open_comment {
            self.open_comment = !closes_quote(line);
            return Ok(());
        }
        if let Some(comment) = line.strip_prefix("MESSAGE DATABASE TEXT \"") {
            self.open_comment = !closes_quote(comment);
        }
        let reply = Reply::parse(line);
        *self.replies.entry(reply.kind()).or_default() += 1;
        if reply == Reply::Message {
            if self.detail_off && line.starts_with("MESSAGE depth ") {
                return Err(format!("'{line}' after INFO show_detail 0"));
            }
            if let Some(rest) = line.strip_prefix("MESSAGE REALTIME ") {
                return self.check_realtime(rest);
            }
            if let Some(rest) = line.strip_prefix("MESSAGE nbest ") {
                return self.check_nbest(rest);
            }
            return check_message(line);
        }
        if reply == Reply::Analysis {
            return self.check_analysis(line);
        }
        if self.ended {
            return Err(format!("printed '{line}' after END"));
        }
        let expect = match self.front.take() {
            Some(expect) => expect,
            None => return Err(format!("printed '{line}' when no reply was due")),
        };
        let (request, origin) = self.queue.pop_front().expect("a front request");
        let checked = self.check(&expect, &reply, &request);
        self.advance();
        checked.map_err(|why| format!("'{line}' answering {request:?} ({origin}): {why}"))
    }

    /// Works out expectations until a request needs a reply.
    fn advance(&mut self) {
        while self.front.is_none() && !self.ended {
            let request = match self.queue.front() {
                Some((request, _)) => request.clone(),
                None => return,
            };
            match self.activate(&request) {
                Some(expect) => self.front = Some(expect),
                None => {
                    self.queue.pop_front();
                }
            }
        }
    }

    /// Applies what a request does before its reply and says what the reply must be.
    fn activate(&mut self, request: &Request) -> Option<Expect> {
        let needs_game = !matches!(
            request,
            Request::Start { .. }
                | Request::Info { .. }
                | Request::End
                | Request::About
                | Request::Stop
                | Request::ShowInfo
                | Request::Bench
                | Request::Quiet
                | Request::Block { .. }
                | Request::BlockReset
                | Request::Malformed(_)
                | Request::Unknown
                | Request::Nbest(_)
        );
        if needs_game && self.game.is_none() {
            return Some(Expect::Error);
        }
        match request {
            Request::Start { width, height } => {
                let side = |n: i64| {
                    usize::try_from(n)
                        .ok()
                        .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
                };
                match (side(*width), side(*height)) {
                    (Some(w), Some(h)) => {
                        let size = BoardSize::new(w, h).expect("a supported size");
                        self.game = Some(Board::new(size, self.board_rule()));
                        Some(Expect::Ok)
                    }
                    _ => Some(Expect::Error),
                }
            }
            Request::Restart => {
                self.set_stones(&[]);
                Some(Expect::Ok)
            }
            Request::Begin => {
                if self.game_ref().stone_count() == 0 {
                    Some(self.move_expected(None))
                } else {
                    Some(Expect::Error)
                }
            }
            Request::Turn(x, y) => match self.empty_point(*x, *y) {
                Some(pos) => {
                    self.place(pos);
                    Some(self.move_expected(None))
                }
                None => Some(Expect::Error),
            },
            Request::Play(x, y) => match self.empty_point(*x, *y) {
                Some(pos) => Some(self.move_expected(Some(pos))),
                None => Some(Expect::Error),
            },
            Request::Takeback(x, y) => {
                let board = self.game_ref();
                match board.size().pos(*x, *y).filter(|&p| !board.is_empty(p)) {
                    Some(pos) => {
                        let kept: Vec<(Pos, Color)> = stones_of(board)
                            .into_iter()
                            .filter(|&(p, _)| p != pos)
                            .collect();
                        self.set_stones(&kept);
                        Some(Expect::Ok)
                    }
                    None => Some(Expect::Error),
                }
            }
            Request::Board { stones, then_move } => match self.board_stones(stones) {
                Some(placed) => {
                    self.set_stones(&placed);
                    then_move.then(|| self.move_expected(None))
                }
                None => Some(Expect::Error),
            },
            Request::Swap2(points) => match self.swap2_stones(points) {
                Some(placed) => {
                    self.set_stones(&placed);
                    Some(Expect::Swap2(placed.len()))
                }
                None => Some(Expect::Error),
            },
            Request::Info { key, value } => {
                if let Some(level) = number(value).filter(|_| key == "show_detail") {
                    self.detail_off = level == 0;
                    self.live_bits = if level > 0 { level & 3 } else { 0 };
                }
                if key == "rule" {
                    if let Some(value) = number(value) {
                        self.rule = match u32::try_from(value).ok().and_then(exact_rule) {
                            Some(rule) => RuleState::Known(rule),
                            None => RuleState::Fallback,
                        };
                        let rule = self.board_rule();
                        let stale = self.game.as_ref().filter(|b| b.rule() != rule);
                        if let Some(stones) = stale.map(stones_of) {
                            self.set_stones(&stones);
                        }
                    }
                }
                None
            }
            Request::End => {
                self.ended = true;
                None
            }
            Request::About => Some(Expect::About),
            Request::Stop | Request::ShowInfo | Request::Bench | Request::Quiet => None,
            Request::Block { points, undo } => {
                for point in points {
                    self.blocked.retain(|p| p != point);
                    if !undo {
                        self.blocked.push(*point);
                    }
                }
                None
            }
            Request::BlockReset => {
                self.blocked.clear();
                None
            }
            // A MESSAGE accepting or refusing the draw.
            Request::Draw => None,
            Request::Swap2Step(1) => {
                self.set_stones(&[]);
                None
            }
            Request::Swap2Step(step) => {
                let wanted = if *step == 2 { 3 } else { 5 };
                (self.game_ref().stone_count() != wanted).then_some(Expect::Error)
            }
            Request::ShowForbid => Some(Expect::Forbid(match self.rule {
                RuleState::Known(_) => Some(forbidden_points(self.game_ref())),
                RuleState::Fallback => None,
            })),
            Request::Balance(count) => {
                let board = self.game_ref();
                let color = board.side_to_move();
                let legal = board
                    .size()
                    .points()
                    .filter(|&p| board.is_empty(p) && !self.forbids(board, p, color))
                    .count();
                Some(Expect::Balance {
                    count: *count,
                    or_error: legal <= *count || self.rule == RuleState::Fallback,
                })
            }
            Request::Nbest(count) if *count >= 1 && self.game.is_some() => {
                Some(self.move_expected(None))
            }
            Request::Nbest(_) | Request::Malformed(_) => Some(Expect::Error),
            Request::Unknown => Some(Expect::Unknown),
        }
    }

    fn check(&mut self, expect: &Expect, reply: &Reply, request: &Request) -> Result<(), String> {
        match (expect, reply) {
            (Expect::Ok, Reply::Ok)
            | (Expect::Error, Reply::Error)
            | (Expect::Unknown, Reply::Unknown)
            | (Expect::About, Reply::About) => Ok(()),
            (Expect::Move { or_error: true, .. }, Reply::Error) => Ok(()),
            (Expect::Move { forced, .. }, Reply::Moves(moves)) if moves.len() == 1 => {
                let pos = self.legal(moves[0], forced.is_none())?;
                if forced.map_or(false, |f| f != pos) {
                    return Err(format!("PLAY must answer its own point, {forced:?}"));
                }
                if forced.is_none() && self.is_blocked(pos) && self.any_free_point() {
                    return Err(format!(
                        "{pos:?} is blocked (yxblock), and other points are free"
                    ));
                }
                self.place(pos);
                Ok(())
            }
            (Expect::Forbid(expected), Reply::Forbid(points)) => {
                let size = self.game_ref().size();
                if let Some(&(x, y)) = points
                    .iter()
                    .find(|&&(x, y)| size.pos(x as i64, y as i64).is_none())
                {
                    return Err(format!("{x},{y} is off the board"));
                }
                match expected {
                    Some(expected) if sorted(points) != sorted(expected) => {
                        Err(format!("the forbidden points are {expected:?}"))
                    }
                    _ => Ok(()),
                }
            }
            (Expect::Swap2(count), reply) => self.check_swap2(*count, reply),
            (Expect::Balance { or_error: true, .. }, Reply::Error) => Ok(()),
            (Expect::Balance { count, .. }, Reply::Moves(moves)) if moves.len() == *count => {
                for &point in moves {
                    let pos = self.legal(point, true)?;
                    self.place(pos);
                }
                Ok(())
            }
            _ => {
                let _ = request;
                Err(format!("expected {expect:?}"))
            }
        }
    }

    /// A live line needs its `show_detail` bit and a search running for a move.
    fn live_allowed(&self, bit: i64, line: &str) -> Result<(), String> {
        if self.live_bits & bit == 0 {
            return Err(format!(
                "'{line}' without INFO show_detail bit {bit}: tournament mode must not get it"
            ));
        }
        match self.front {
            Some(Expect::Move { .. }) => Ok(()),
            _ => Err(format!("'{line}' while no move is searched")),
        }
    }

    /// `MESSAGE REALTIME BEST x,y`, `LOSE x,y`, `POS x,y` (a root move being searched) or
    /// `DONE x,y` (searched): a move the brain could play now; or `REFRESH` (the marks
    /// cleared).
    fn check_realtime(&self, rest: &str) -> Result<(), String> {
        let line = format!("MESSAGE REALTIME {rest}");
        self.live_allowed(1, &line)?;
        match rest.split_once(' ') {
            _ if rest == "REFRESH" => Ok(()),
            Some(("BEST" | "LOSE" | "POS" | "DONE", point)) => self.playable(point),
            _ => Err(format!(
                "'{line}': expected BEST, LOSE, POS or DONE x,y, or REFRESH"
            )),
        }
        .map_err(|why| format!("'{line}': {why}"))
    }

    /// `MESSAGE nbest K POINT ev VALUE`: rank 1, or the rank after the last line's with a
    /// value no higher (`+M n` above every number, `-M n` below).
    fn check_nbest(&mut self, rest: &str) -> Result<(), String> {
        let words: Vec<&str> = rest.split(' ').collect();
        let rank = words.first().and_then(|w| w.parse::<u64>().ok());
        let value = match words.as_slice() {
            [_, _, "ev", value] => ranked_value(value),
            _ => None,
        };
        let (rank, value) = match (rank, value) {
            (Some(rank), Some(value)) => (rank, value),
            _ => return Err(format!("'MESSAGE nbest {rest}': expected K POINT ev VALUE")),
        };
        let follows = match self.last_nbest {
            _ if rank == 1 => true,
            Some((last_rank, last_value)) => rank == last_rank + 1 && value <= last_value,
            None => false,
        };
        self.last_nbest = Some((rank, value));
        if follows {
            Ok(())
        } else {
            Err(format!(
                "'MESSAGE nbest {rest}' after {:?}: a ranking goes 1, 2, ... by value",
                self.last_nbest
            ))
        }
    }

    /// `INFO KEY VALUE` of a block Yixin-Board reads: numbers, a value, a win rate, a line
    /// of empty points starting with a move the brain could play now.
    fn check_analysis(&self, line: &str) -> Result<(), String> {
        self.live_allowed(2, line)?;
        let mut words = line.splitn(3, ' ').skip(1);
        let (key, value) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let count = |v: &str| v.parse::<u64>().is_ok();
        let valid = match key {
            "PV" => value == "DONE" || count(value),
            "NUMPV" | "DEPTH" | "TOTALNODES" | "TOTALTIME" => count(value),
            "EVAL" => {
                let mate = value
                    .strip_prefix("+M")
                    .or_else(|| value.strip_prefix("-M"));
                mate.map_or(value.parse::<i32>().is_ok(), count)
            }
            "WINRATE" => value
                .parse::<f64>()
                .map_or(false, |w| (0.0..=1.0).contains(&w)),
            "BESTLINE" => {
                return self
                    .check_line(value)
                    .map_err(|why| format!("'{line}': {why}"))
            }
            _ => false,
        };
        if valid {
            Ok(())
        } else {
            Err(format!("'{line}': not an analysis line Yixin-Board reads"))
        }
    }

    /// A principal variation: distinct empty points, the first one playable.
    fn check_line(&self, value: &str) -> Result<(), String> {
        let points: Vec<&str> = value.split(' ').collect();
        self.playable(points[0])?;
        let board = self.game_ref();
        let mut seen = Vec::new();
        for text in points {
            let pos = parse_move(text)
                .and_then(|(x, y)| board.size().pos(x as i64, y as i64))
                .filter(|&p| board.is_empty(p) && !seen.contains(&p))
                .ok_or_else(|| format!("{text} is not a new empty point"))?;
            seen.push(pos);
        }
        Ok(())
    }

    /// A point the side to move may play now.
    fn playable(&self, text: &str) -> Result<(), String> {
        let board = self.game_ref();
        let pos = parse_move(text)
            .and_then(|(x, y)| board.size().pos(x as i64, y as i64))
            .ok_or_else(|| format!("{text} is not a point on the board"))?;
        if !board.is_empty(pos) || self.forbids(board, pos, board.side_to_move()) {
            return Err(format!("{text} cannot be played now\n{board:?}"));
        }
        Ok(())
    }

    fn check_swap2(&mut self, count: usize, reply: &Reply) -> Result<(), String> {
        let moves = match reply {
            Reply::Swap if count > 0 => return Ok(()),
            Reply::Moves(moves) => moves,
            _ => return Err(format!("not a SWAP2 answer to {count} stones")),
        };
        let allowed: &[usize] = match count {
            0 => &[3],
            3 => &[1, 2],
            _ => &[1],
        };
        if !allowed.contains(&moves.len()) {
            return Err(format!("{} moves answering {count} stones", moves.len()));
        }
        for &point in moves {
            let pos = self.legal(point, true)?;
            self.place(pos);
        }
        Ok(())
    }

    /// The expectation for a move by the side to move.
    fn move_expected(&self, forced: Option<Pos>) -> Expect {
        let board = self.game_ref();
        let color = board.side_to_move();
        let any_legal = board
            .size()
            .points()
            .any(|p| board.is_empty(p) && !self.forbids(board, p, color));
        Expect::Move {
            or_error: !any_legal || self.rule == RuleState::Fallback,
            forced,
        }
    }

    /// A move the brain printed, if it may play it.
    fn legal(&mut self, (x, y): (usize, usize), judge_fouls: bool) -> Result<Pos, String> {
        self.moves_checked += 1;
        let board = self.game_ref();
        let pos = board
            .size()
            .pos(x as i64, y as i64)
            .ok_or_else(|| format!("{x},{y} is off the board"))?;
        if !board.is_empty(pos) {
            return Err(format!("{x},{y} is taken\n{board:?}"));
        }
        if judge_fouls && self.forbids(board, pos, board.side_to_move()) {
            let blocking = if board.makes_five(pos, Color::White) {
                ", where it blocks white's five"
            } else {
                ""
            };
            return Err(format!(
                "{x},{y} is forbidden for black under renju ({:?}){blocking}\n{board:?}",
                board.foul(pos)
            ));
        }
        Ok(pos)
    }

    fn is_blocked(&self, pos: Pos) -> bool {
        self.blocked
            .iter()
            .any(|&(x, y)| self.game_ref().size().pos(x, y) == Some(pos))
    }

    /// Whether the side to move has a legal point that is not blocked.
    fn any_free_point(&self) -> bool {
        let board = self.game_ref();
        let color = board.side_to_move();
        board
            .size()
            .points()
            .any(|p| board.is_empty(p) && !self.forbids(board, p, color) && !self.is_blocked(p))
    }

    fn forbids(&self, board: &Board, pos: Pos, color: Color) -> bool {
        self.rule == RuleState::Known(Rule::Renju) && board.is_forbidden(pos, color)
    }

    fn empty_point(&self, x: i64, y: i64) -> Option<Pos> {
        let board = self.game_ref();
        board.size().pos(x, y).filter(|&p| board.is_empty(p))
    }

    /// Plays the side to move's stone.
    fn place(&mut self, pos: Pos) {
        let board = self.game_mut();
        let color = board.side_to_move();
        board.play(pos, color);
    }

    /// Replaces the position (same size), under the rule in force.
    fn set_stones(&mut self, stones: &[(Pos, Color)]) {
        let mut board = Board::new(self.game_ref().size(), self.board_rule());
        for &(pos, color) in stones {
            board.play(pos, color);
        }
        self.game = Some(board);
    }

    fn board_rule(&self) -> Rule {
        match self.rule {
            RuleState::Known(rule) => rule,
            RuleState::Fallback => Rule::Freestyle,
        }
    }

    /// A BOARD's stones with colours from the counts (equal: the brain is black).
    fn board_stones(&self, stones: &[Stone]) -> Option<Vec<(Pos, Color)>> {
        let mine = stones.iter().filter(|s| s.2 == 1).count();
        let theirs = stones.len() - mine;
        let my_color = if mine == theirs {
            Color::Black
        } else if theirs == mine + 1 {
            Color::White
        } else {
            return None;
        };
        let points: Vec<(i64, i64)> = stones.iter().map(|&(x, y, _)| (x, y)).collect();
        let positions = self.distinct_points(&points)?;
        Some(
            positions
                .into_iter()
                .zip(stones)
                .map(|(pos, s)| {
                    (
                        pos,
                        if s.2 == 1 {
                            my_color
                        } else {
                            my_color.opponent()
                        },
                    )
                })
                .collect(),
        )
    }

    /// A SWAP2BOARD's stones: 0, 3 or 5, black first.
    fn swap2_stones(&self, points: &[(i64, i64)]) -> Option<Vec<(Pos, Color)>> {
        let positions = self.distinct_points(points)?;
        if ![0, 3, 5].contains(&positions.len()) {
            return None;
        }
        Some(
            positions
                .into_iter()
                .enumerate()
                .map(|(i, pos)| (pos, Color::to_move_after(i)))
                .collect(),
        )
    }

    fn distinct_points(&self, points: &[(i64, i64)]) -> Option<Vec<Pos>> {
        let size = self.game_ref().size();
        let mut positions: Vec<Pos> = Vec::with_capacity(points.len());
        for &(x, y) in points {
            let pos = size.pos(x, y)?;
            if positions.contains(&pos) {
                return None;
            }
            positions.push(pos);
        }
        Some(positions)
    }

    fn game_ref(&self) -> &Board {
        self.game.as_ref().expect("a game in progress")
    }

    fn game_mut(&mut self) -> &mut Board {
        self.game.as_mut().expect("a game in progress")
    }
}

/// The rules the protocol names exactly: Gomocup's 0, 1, 4, 8, 9, and Yixin-Board's 2
/// (renju), 5 and 6 (freestyle opened by swap1 or swap2, which Rapfi reads so too).
fn exact_rule(value: u32) -> Option<Rule> {
    match value {
        0 | 1 | 4 | 8 | 9 => Rule::from_protocol(value),
        2 => Some(Rule::Renju),
        5 | 6 => Some(Rule::Freestyle),
        _ => None,
    }
}

/// Yixin-Board upper-cases a line before it compares: it reads a `MESSAGE INFO …` line as an
/// engine setting and never shows it (only the settings YXSHOWINFO reports may start so,
/// never a warning the user should see), and it takes a `MESSAGE DATABASE …` line that is
/// none of its forms for a point's entry, which it reads past the board: it crashes.
/// Whether a comment's text (after its opening quote) ends on this line: a quote not
/// escaped by a backslash.
fn closes_quote(text: &str) -> bool {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '"' => return true,
            _ => {}
        }
    }
    false
}

/// An nbest line's value in one order: `+M n` (a win in n plies) above every evaluation,
/// sooner wins higher; `-M n` below, later losses higher.
fn ranked_value(text: &str) -> Option<i64> {
    const MATE: i64 = 1 << 40;
    if let Some(plies) = text.strip_prefix("+M") {
        return plies.parse::<i64>().ok().map(|n| MATE - n);
    }
    if let Some(plies) = text.strip_prefix("-M") {
        return plies.parse::<i64>().ok().map(|n| n - MATE);
    }
    text.parse().ok()
}

fn check_message(line: &str) -> Result<(), String> {
    let upper = line.to_ascii_uppercase();
    let settings = [
        "MESSAGE INFO MAX_THREAD_NUM ",
        "MESSAGE INFO MAX_HASH_SIZE ",
    ];
    if upper.starts_with("MESSAGE INFO") && !settings.iter().any(|s| upper.starts_with(s)) {
        return Err(format!(
            "'{line}': Yixin-Board swallows a MESSAGE INFO line, the user never sees it"
        ));
    }
    if let Some(rest) = upper.strip_prefix("MESSAGE DATABASE") {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let known = matches!(
            words.first(),
            Some(&"REFRESH") | Some(&"DONE") | Some(&"ONE") | Some(&"TEXT")
        );
        let entry = words.len() >= 7 && words[..7].iter().all(|w| w.parse::<i64>().is_ok());
        if !(rest.starts_with(' ') && (known || entry)) {
            return Err(format!(
                "'{line}': Yixin-Board reads it as a database entry and crashes"
            ));
        }
    }
    Ok(())
}

/// Every point forbidden for black with black to move (none otherwise, or off renju).
pub fn forbidden_points(board: &Board) -> Vec<(usize, usize)> {
    if board.side_to_move() != Color::Black {
        return Vec::new();
    }
    board
        .size()
        .points()
        .filter(|&p| board.is_empty(p) && board.is_forbidden(p, Color::Black))
        .map(|p| (p.x(), p.y()))
        .collect()
}

/// The stones in the order played, with their colours.
fn stones_of(board: &Board) -> Vec<(Pos, Color)> {
    board
        .history()
        .iter()
        .filter_map(|&p| board.stone(p).map(|c| (p, c)))
        .collect()
}

fn sorted(points: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut points = points.to_vec();
    points.sort_unstable();
    points
}

#[cfg(test)]
mod tests {
    use super::Mirror;

    /// A mirror after these lines were sent and these replies received (all accepted).
    fn after(sent: &str, replies: &[&str]) -> Mirror {
        let mut mirror = Mirror::new();
        mirror.sent(sent.as_bytes(), "test");
        for reply in replies {
            mirror.received(reply).unwrap();
        }
        mirror
    }

    const DOUBLE_THREE: &str = "START 15\nINFO rule 4\nYXBOARD\n5,7,1\n0,0,2\n6,7,1\n14,0,2\n7,5,1\n0,14,2\n7,6,1\n14,14,2\nDONE\n";

    #[test]
    fn a_comment_runs_on_to_its_closing_quote() {
        let mut mirror = after(DOUBLE_THREE, &["OK"]);
        mirror
            .received(r#"MESSAGE DATABASE TEXT "two \"lines\" \\"#)
            .unwrap();
        mirror.received("7,7 is not a move here").unwrap();
        mirror.received(r#"\"quoted\" end""#).unwrap();
        assert!(mirror.received("7,7").is_err(), "no move was asked for");
    }

    #[test]
    fn a_ranking_goes_in_order_of_rank_and_value() {
        let mut mirror = after(DOUBLE_THREE, &["OK"]);
        for line in [
            "1 [7,8] ev +M5",
            "2 h8 ev +M7",
            "3 [1,1] ev 20",
            "4 j8 ev 20",
        ] {
            mirror.received(&format!("MESSAGE nbest {line}")).unwrap();
        }
        mirror.received("MESSAGE nbest 5 j9 ev -M4").unwrap();
        assert!(mirror.received("MESSAGE nbest 6 j9 ev -M6").is_err());
        mirror.received("MESSAGE nbest 1 j9 ev -6").unwrap();
        assert!(mirror.received("MESSAGE nbest 2 j8 ev -5").is_err());
        assert!(mirror.received("MESSAGE nbest 4 j8 ev -50").is_err());
        assert!(mirror.received("MESSAGE nbest 1 7,8").is_err());
    }

    #[test]
    fn a_forbidden_black_move_is_caught() {
        let mut mirror = after(DOUBLE_THREE, &["OK"]);
        mirror.sent(b"YXNBEST 1\n", "test");
        mirror.received("MESSAGE nbest 1 [7,7] ev 0").unwrap();
        let why = mirror.received("7,7").unwrap_err();
        assert!(why.contains("forbidden"), "{why}");
        let mut mirror = after(DOUBLE_THREE, &["OK"]);
        mirror.sent(b"YXNBEST 1\n", "test");
        mirror.received("7,8").unwrap();
    }

    #[test]
    fn taken_and_off_board_moves_are_caught() {
        let mut mirror = after("START 15\nBEGIN\n", &["OK", "7,7"]);
        mirror.sent(b"TURN 8,8\n", "test");
        assert!(mirror.received("8,8").unwrap_err().contains("taken"));
        let mut mirror = after("START 15\n", &["OK"]);
        mirror.sent(b"BEGIN\n", "test");
        assert!(mirror
            .received("15,0")
            .unwrap_err()
            .contains("off the board"));
    }

    #[test]
    fn replies_of_the_wrong_kind_are_caught() {
        let mut mirror = after("", &[]);
        mirror.sent(b"START 15\n", "test");
        assert!(mirror.received("7,7").is_err());
        let mut mirror = after("START 15\n", &["OK"]);
        mirror.sent(b"TURN 7,7\n", "test");
        assert!(mirror.received("ERROR no").is_err());
        let mut mirror = after("START 15\n", &["OK"]);
        assert!(mirror.received("OK").is_err(), "a reply nobody asked for");
        mirror.sent(b"TURN 7,7\n", "test");
        assert!(mirror.received("7, 8").is_err(), "not a move");
        let mut mirror = after("START 15\nEND\n", &["OK"]);
        assert!(mirror.received("OK").is_err(), "after END");
    }

    #[test]
    fn silent_requests_need_no_reply_and_messages_are_free() {
        let mut mirror = after(
            "INFO rule 1\nSTOP\nYXSHOWINFO\nSTART 15\n",
            &["MESSAGE x", "OK"],
        );
        mirror.sent(b"YXBOARD\n7,7,2\nDONE\nINFO timeout_turn 5\n", "test");
        assert_eq!(mirror.awaiting(), None);
        mirror.sent(b"YXBOARD\n7,7,1\nDONE\n", "test");
        assert!(mirror.awaiting().is_some());
        mirror.received("ERROR counts").unwrap();
    }

    #[test]
    fn hidden_settings_lines_and_search_lines_after_show_detail_0_are_caught() {
        let mut mirror = after("START 15\n", &["OK"]);
        mirror.sent(b"BEGIN\n", "test");
        mirror.received("MESSAGE depth 1 ev 0 n 0 tm 0").unwrap();
        mirror.received("MESSAGE INFO MAX_THREAD_NUM 4").unwrap();
        assert!(mirror.received("MESSAGE INFO rule 2: renju").is_err());
        assert!(mirror.received("MESSAGE info rule 2: renju").is_err());
        assert!(mirror
            .received("MESSAGE database x.db: 3 positions")
            .is_err());
        mirror.received("MESSAGE DATABASE 7 7 -1 0 0 0 0").unwrap();
        mirror.received("MESSAGE DATABASE TEXT \"\"").unwrap();
        mirror
            .received("MESSAGE analysis database x.db: 3 positions")
            .unwrap();
        mirror.received("7,7").unwrap();
        mirror.sent(b"INFO show_detail 0\nTURN 0,0\n", "test");
        assert!(mirror.received("MESSAGE depth 1 ev 0 n 0 tm 0").is_err());
        mirror.received("MESSAGE other").unwrap();
    }

    #[test]
    fn live_lines_need_their_show_detail_bit_a_search_and_playable_points() {
        let mut mirror = after("START 15\nBEGIN\n", &["OK", "7,7"]);
        mirror.sent(b"TURN 3,9\n", "test");
        assert!(mirror.received("MESSAGE REALTIME BEST 7,8").is_err());
        assert!(mirror.received("INFO PV 0").is_err());
        mirror.received("7,8").unwrap();
        mirror.sent(b"INFO show_detail 3\nTURN 0,0\n", "test");
        mirror.received("MESSAGE REALTIME BEST 8,8").unwrap();
        assert!(
            mirror.received("MESSAGE REALTIME BEST 3,9").is_err(),
            "taken"
        );
        assert!(mirror.received("MESSAGE REALTIME BEST 15,0").is_err());
        mirror.received("INFO EVAL -M4").unwrap();
        mirror.received("INFO WINRATE 0.25").unwrap();
        mirror.received("INFO BESTLINE 8,8 9,9").unwrap();
        assert!(mirror.received("INFO BESTLINE 8,8 8,8").is_err());
        assert!(mirror.received("INFO BESTLINE 7,7").is_err());
        assert!(mirror.received("INFO WINRATE 2").is_err());
        assert!(mirror.received("INFO COLOUR 2").is_err());
        mirror.received("8,8").unwrap();
        assert!(
            mirror.received("INFO PV DONE").is_err(),
            "no search running"
        );
        mirror.sent(b"INFO show_detail 1\nTURN 0,1\n", "test");
        mirror.received("MESSAGE REALTIME LOSE 9,9").unwrap();
        mirror.received("MESSAGE REALTIME POS 9,9").unwrap();
        mirror.received("MESSAGE REALTIME DONE 9,9").unwrap();
        mirror.received("MESSAGE REALTIME REFRESH").unwrap();
        assert!(mirror.received("MESSAGE REALTIME REFRESH 9,9").is_err());
        assert!(mirror.received("INFO PV 0").is_err());
    }

    #[test]
    fn yixin_commands_are_answered_once_after_what_follows_them() {
        let mut mirror = after("START 15\n", &["OK"]);
        mirror.sent(
            b"yxquerydatabaseallt\n7,7\nEND of a comment\ndone\n",
            "test",
        );
        assert_eq!(mirror.awaiting(), None);
        mirror.sent(b"yxdbtotxt\n", "test");
        assert!(mirror.in_block());
        mirror.sent(b"done\n", "test");
        assert!(mirror.awaiting().is_some());
        mirror.received("ERROR yxdbtotxt: no").unwrap();
        mirror.sent(b"yxhashdump\n", "test");
        assert!(mirror.in_block());
        mirror.sent(b"somewhere.hash\n", "test");
        assert_eq!(mirror.awaiting(), None);
        mirror.sent(b"yxblock\n7,7\n", "test");
        assert_eq!(mirror.awaiting(), None);
        mirror.sent(b"done\n", "test");
        assert!(mirror.received("UNKNOWN yxblock").is_err());
    }

    #[test]
    fn a_blocked_point_is_played_only_when_no_other_is_free() {
        let blocked = "START 15\nyxblock\n7,7\ndone\nBEGIN\n";
        assert!(after(blocked, &["OK"]).received("7,7").is_err());
        after(blocked, &["OK", "7,8"]);
        after(
            "START 15\nyxblock\n7,7\ndone\nyxblockreset\nBEGIN\n",
            &["OK", "7,7"],
        );
        let everything: String = (0..25).map(|i| format!("{},{}\n", i / 5, i % 5)).collect();
        after(
            &format!("START 5\nyxblock\n{everything}done\nBEGIN\n"),
            &["OK", "2,2"],
        );
    }

    #[test]
    fn forbid_lists_are_checked() {
        let mut mirror = after(DOUBLE_THREE, &["OK"]);
        mirror.sent(b"YXSHOWFORBID\n", "test");
        assert!(mirror.received("FORBID .").is_err());
        mirror.sent(b"YXSHOWFORBID\n", "test");
        mirror.received("FORBID 0707.").unwrap();
    }

    #[test]
    fn swap2_answers_are_checked() {
        let five = "START 15\nSWAP2BOARD\n7,7\n8,8\n6,6\n9,7\n7,5\nDONE\n";
        let mut mirror = after(five, &["OK"]);
        assert!(
            mirror.received("1,1 2,2").is_err(),
            "two moves to five stones"
        );
        let mut mirror = after(five, &["OK"]);
        assert!(mirror.received("7,7").is_err(), "a taken point");
        let mut mirror = after(five, &["OK"]);
        mirror.received("SWAP").unwrap();
        let mut mirror = after("START 15\nSWAP2BOARD\nDONE\n", &["OK"]);
        mirror.received("7,7 8,8 9,9").unwrap();
    }

    #[test]
    fn requests_take_effect_in_order() {
        // The rule changes after the TURN is answered, not when INFO is sent.
        let mut mirror = after("START 15\n", &["OK"]);
        // Black (the opponent) has the double-three shape; white (the brain) to move.
        mirror.sent(
            b"YXBOARD\n5,7,2\n0,0,1\n6,7,2\n14,0,1\n7,5,2\n0,14,1\n7,6,2\nDONE\n",
            "test",
        );
        // TURN puts a white stone (by parity); black answers 7,7, legal in freestyle.
        mirror.sent(b"TURN 14,14\nINFO rule 4\nYXSHOWFORBID\n", "test");
        mirror.received("7,7").unwrap();
        mirror.received("FORBID .").unwrap();
    }
}
