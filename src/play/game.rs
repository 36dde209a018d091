//! One game as the referee sees it: the moves and their times, undo and redo, and the
//! result. No clocks, threads or text output here: the session drives it.

use crate::game::{
    gomocup_stone_limit, judge_move, Board, BoardSize, Color, Direction, Foul, Pos, Rule, Verdict,
};
use crate::record::Record;
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A winning line under the rule.
    Five,
    FullBoard,
    /// Renju's 200-stone draw on 15×15 ([`gomocup_stone_limit`]).
    StoneLimit,
    Resignation,
    Time,
    /// The side to move had no legal point (renju: every empty point forbidden to black).
    NoMove,
}

impl Ending {
    /// The word in a record's result line (the match runner's words where they overlap).
    pub fn name(self) -> &'static str {
        match self {
            Ending::Five => "five",
            Ending::FullBoard => "full-board",
            Ending::StoneLimit => "stone-limit",
            Ending::Resignation => "resign",
            Ending::Time => "timeout",
            Ending::NoMove => "no-move",
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub ending: Ending,
    /// What happened, in words: `black made five d4-h8`, `white resigned`.
    pub detail: String,
}

impl GameResult {
    /// Black's score first: `1-0`, `0-1`, `1/2-1/2`.
    pub fn score_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// One line for people: `black wins: black made five d4-h8`.
    pub fn summary(&self) -> String {
        match self.winner {
            Some(color) => format!("{} wins: {}", color_name(color), self.detail),
            None => format!("draw: {}", self.detail),
        }
    }

    /// The result line of a `.psq` record.
    pub fn record_line(&self) -> String {
        format!(
            "{} {}: {}",
            self.score_text(),
            self.ending.name(),
            self.detail
        )
    }
}

/// Why a move was not played (the board is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    Over(String),
    OffBoard(String),
    Taken(String),
    Forbidden(String, Foul),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Over(summary) => write!(
                f,
                "the game is over ({summary}): type undo, new, save or quit"
            ),
            MoveError::OffBoard(why) => write!(f, "{why}"),
            MoveError::Taken(point) => write!(f, "{point} is taken: choose an empty point"),
            MoveError::Forbidden(point, foul) => write!(
                f,
                "{point} is forbidden for black in renju: {} (choose another point)",
                foul.describe()
            ),
        }
    }
}

/// `black` or `white`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A game in progress or over.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    stone_limit: Option<usize>,
    /// Milliseconds each move took, parallel to the board's history.
    times: Vec<u64>,
    /// Moves taken back, the next to redo last.
    redo: Vec<(Pos, u64)>,
    result: Option<GameResult>,
}

impl Game {
    pub fn new(size: BoardSize, rule: Rule) -> Game {
        Game {
            board: Board::new(size, rule),
            // Gomocup's renju draw at size² − 25 stones is meant for 15×15 (200 stones); on
            // small boards it would end games at once (0 stones on 5×5), so elsewhere a game
            // goes on until the board is full.
            stone_limit: gomocup_stone_limit(rule, size).filter(|_| is_15x15(size)),
            times: Vec::new(),
            redo: Vec::new(),
            result: None,
        }
    }

    /// A game with a record's moves, each judged as it is played.
    pub fn from_record(record: &Record, rule: Rule) -> Result<Game, String> {
        let mut game = Game::new(record.size, rule);
        for (i, &(pos, ms)) in record.moves.iter().enumerate() {
            let point = record.size.to_human(pos);
            if game.result.is_some() {
                return Err(format!(
                    "move {} ({point}) comes after the end of the game",
                    i + 1
                ));
            }
            game.play(pos, ms)
                .map_err(|why| format!("move {} ({point}): {why}", i + 1))?;
        }
        Ok(game)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    pub fn move_count(&self) -> usize {
        self.board.stone_count()
    }

    pub fn last_move(&self) -> Option<Pos> {
        self.board.history().last().copied()
    }

    /// The stones in move order with their colours.
    pub fn stones(&self) -> Vec<(Pos, Color)> {
        self.board
            .history()
            .iter()
            .enumerate()
            .map(|(i, &pos)| (pos, Color::to_move_after(i)))
            .collect()
    }

    /// Renju notation of a point on this board.
    pub fn name(&self, pos: Pos) -> String {
        self.size().to_human(pos)
    }

    /// Plays the side to move's stone at `pos` if the referee allows it.
    pub fn play(&mut self, pos: Pos, ms: u64) -> Result<(), MoveError> {
        if let Some(result) = &self.result {
            return Err(MoveError::Over(result.summary()));
        }
        let color = self.side_to_move();
        let point = self.name(pos);
        let verdict = judge_move(
            &mut self.board,
            pos.x() as i64,
            pos.y() as i64,
            color,
            self.stone_limit,
        );
        match verdict {
            Verdict::OffBoard => {
                return Err(MoveError::OffBoard(format!("{point} is off the board")))
            }
            Verdict::Occupied => return Err(MoveError::Taken(point)),
            Verdict::Forbidden(foul) => return Err(MoveError::Forbidden(point, foul)),
            Verdict::Win => {
                let line = self.winning_line();
                let run = match (line.first(), line.last()) {
                    (Some(&a), Some(&b)) => format!(" {}-{}", self.name(a), self.name(b)),
                    _ => String::new(),
                };
                let what = if line.len() == 5 {
                    "five"
                } else {
                    "a winning line"
                };
                self.finish(
                    Some(color),
                    Ending::Five,
                    format!("{} made {what}{run}", color_name(color)),
                );
            }
            Verdict::Draw if self.board.is_full() => {
                self.finish(None, Ending::FullBoard, "the board is full".into())
            }
            Verdict::Draw => self.finish(
                None,
                Ending::StoneLimit,
                format!(
                    "{} stones on the board, the Gomocup renju limit",
                    self.board.stone_count()
                ),
            ),
            Verdict::Continue => {}
        }
        self.times.push(ms);
        // Replaying the move that was taken back keeps the rest of the redo line.
        if self.redo.last().map(|&(p, _)| p) == Some(pos) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        // A win or draw set the result before the time was pushed: fine, it only reads the board.
        Ok(())
    }

    /// Takes back the last move; a five or a draw is undone with it. A game lost on time or
    /// by resignation stays over.
    pub fn undo(&mut self) -> Result<Pos, String> {
        if let Some(result) = &self.result {
            if matches!(
                result.ending,
                Ending::Resignation | Ending::Time | Ending::NoMove
            ) {
                return Err(format!(
                    "the game is over ({}): type new for another",
                    result.summary()
                ));
            }
        }
        let pos = self.board.undo().ok_or("nothing to undo")?;
        let ms = self.times.pop().unwrap_or(0);
        self.redo.push((pos, ms));
        self.result = None;
        Ok(pos)
    }

    /// Plays the last move taken back again.
    pub fn redo(&mut self) -> Result<Pos, String> {
        if let Some(result) = &self.result {
            return Err(MoveError::Over(result.summary()).to_string());
        }
        let &(pos, ms) = self.redo.last().ok_or("nothing to redo")?;
        let mut keep = std::mem::take(&mut self.redo);
        keep.pop();
        let played = self.play(pos, ms).map_err(|why| why.to_string());
        self.redo = keep;
        played.map(|_| pos)
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// `color` gives up.
    pub fn resign(&mut self, color: Color) {
        self.finish(
            Some(color.opponent()),
            Ending::Resignation,
            format!("{} resigned", color_name(color)),
        );
    }

    /// `color`'s clock ran out.
    pub fn lose_on_time(&mut self, color: Color) {
        self.finish(
            Some(color.opponent()),
            Ending::Time,
            format!("{} ran out of time", color_name(color)),
        );
    }

    /// `color` had no legal move.
    pub fn lose_without_move(&mut self, color: Color) {
        self.finish(
            Some(color.opponent()),
            Ending::NoMove,
            format!("{} had no legal move", color_name(color)),
        );
    }

    fn finish(&mut self, winner: Option<Color>, ending: Ending, detail: String) {
        if self.result.is_none() {
            self.result = Some(GameResult {
                winner,
                ending,
                detail,
            });
        }
    }

    /// The stones of the winning line through the last move, from one end to the other
    /// (empty unless the game ended with one).
    pub fn winning_line(&self) -> Vec<Pos> {
        winning_line(&self.board)
    }

    /// Black's forbidden points with their reasons, when black is to move in renju.
    pub fn forbidden_points(&self) -> Vec<(Pos, Foul)> {
        if self.is_over() {
            return Vec::new();
        }
        forbidden_points(&self.board)
    }

    /// The game as a record, with the players' names.
    pub fn to_record(&self, black: &str, white: &str) -> Record {
        let result = match &self.result {
            Some(result) => result.record_line(),
            None => format!("* unfinished: {} to move", color_name(self.side_to_move())),
        };
        Record {
            size: self.size(),
            moves: self
                .board
                .history()
                .iter()
                .copied()
                .zip(self.times.iter().copied())
                .collect(),
            black: black.into(),
            white: white.into(),
            result,
            rule: Some(self.rule()),
        }
    }
}

fn is_15x15(size: BoardSize) -> bool {
    size.width() == 15 && size.height() == 15
}

/// The winning line through the board's last move, if that move made one.
pub fn winning_line(board: &Board) -> Vec<Pos> {
    let last = match board.history().last() {
        Some(&last) => last,
        None => return Vec::new(),
    };
    let color = match board.stone(last) {
        Some(color) => color,
        None => return Vec::new(),
    };
    for dir in Direction::ALL {
        if let Some((first, length)) = board.winning_run(last, dir, color) {
            return (0..length as i32)
                .filter_map(|k| last.step(dir, first + k, board.size()))
                .collect();
        }
    }
    Vec::new()
}

/// The empty points the side to move may not play, with the reasons (renju, black to move).
pub fn forbidden_points(board: &Board) -> Vec<(Pos, Foul)> {
    if !board.rule().has_forbidden(board.side_to_move()) {
        return Vec::new();
    }
    board
        .size()
        .points()
        .filter(|&p| board.is_empty(p))
        .filter_map(|p| board.foul(p).map(|foul| (p, foul)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rule: Rule, moves: &str) -> Game {
        let mut game = Game::new(BoardSize::square(15).unwrap(), rule);
        for word in moves.split_whitespace() {
            let pos = game.size().parse_human(word).unwrap();
            game.play(pos, 0).unwrap();
        }
        game
    }

    fn at(game: &Game, text: &str) -> Pos {
        game.size().parse_human(text).unwrap()
    }

    #[test]
    fn five_wins_and_names_the_line() {
        let g = game(Rule::Freestyle, "d4 d5 e4 e5 f4 f5 g4 g5 h4");
        let result = g.result().unwrap();
        assert_eq!(result.winner, Some(Color::Black));
        assert_eq!(result.detail, "black made five d4-h4");
        assert_eq!(result.record_line(), "1-0 five: black made five d4-h4");
        let names: Vec<String> = g.winning_line().iter().map(|&p| g.name(p)).collect();
        assert_eq!(names, ["d4", "e4", "f4", "g4", "h4"]);
    }

    #[test]
    fn refusals_leave_the_board_alone() {
        let mut g = game(Rule::Renju, "h8 a1 i8 c1 j9 e1 j10 g1");
        let before = g.board().hash();
        let taken = g.play(at(&g, "h8"), 0).unwrap_err();
        assert_eq!(taken.to_string(), "h8 is taken: choose an empty point");
        let foul = g.play(at(&g, "j8"), 0).unwrap_err();
        assert!(
            matches!(foul, MoveError::Forbidden(_, Foul::DoubleThree)),
            "{foul:?}"
        );
        assert_eq!(
            foul.to_string(),
            "j8 is forbidden for black in renju: double three (choose another point)"
        );
        assert!(g.forbidden_points().iter().any(|&(p, _)| p == at(&g, "j8")));
        assert_eq!((g.move_count(), g.board().hash()), (8, before));
        // The same point is fine for white, and under other rules.
        let mut free = game(Rule::Freestyle, "h8 a1 i8 c1 j9 e1 j10 g1");
        assert_eq!(free.play(at(&free, "j8"), 0), Ok(()));
    }

    #[test]
    fn undo_and_redo_walk_the_same_line() {
        let mut g = game(Rule::Freestyle, "h8 h9 i9");
        assert_eq!(g.undo(), Ok(at(&g, "i9")));
        assert_eq!(g.undo(), Ok(at(&g, "h9")));
        assert_eq!(g.redo(), Ok(at(&g, "h9")));
        assert_eq!(g.redo(), Ok(at(&g, "i9")));
        assert_eq!(g.redo(), Err("nothing to redo".into()));
        g.undo().unwrap();
        g.play(at(&g, "a1"), 0).unwrap();
        assert!(!g.can_redo());
        for _ in 0..3 {
            g.undo().unwrap();
        }
        assert_eq!(g.undo(), Err("nothing to undo".into()));
    }

    #[test]
    fn a_five_can_be_taken_back_a_resignation_cannot() {
        let mut g = game(Rule::Standard, "d4 d5 e4 e5 f4 f5 g4 g5 h4");
        assert!(g.is_over());
        g.undo().unwrap();
        assert!(!g.is_over());
        g.resign(Color::Black);
        assert_eq!(g.result().unwrap().winner, Some(Color::White));
        assert!(g.undo().unwrap_err().contains("black resigned"));
        assert!(g
            .play(at(&g, "a1"), 0)
            .unwrap_err()
            .to_string()
            .starts_with("the game is over"));
    }

    #[test]
    fn renju_stops_at_200_stones_on_15x15_only() {
        let mut g = game(Rule::Renju, "");
        assert_eq!(g.stone_limit, Some(200));
        let mut small = Game::new(BoardSize::square(5).unwrap(), Rule::Renju);
        small.play(Pos::new(2, 2), 0).unwrap();
        assert!(!small.is_over());
        g.play(Pos::new(7, 7), 0).unwrap();
        assert!(!g.is_over());
    }

    #[test]
    fn records_round_trip() {
        let g = game(Rule::Caro, "h8 h9 i9");
        let record = g.to_record("human", "quinto");
        assert_eq!(record.result, "* unfinished: white to move");
        let again = Game::from_record(&record, Rule::Caro).unwrap();
        assert_eq!(again.board().hash(), g.board().hash());
        let mut bad = record;
        bad.moves.push((Pos::new(7, 7), 0));
        assert!(Game::from_record(&bad, Rule::Caro).is_err());
    }
}
