//! The facade the front ends talk to: it owns the position and the settings, and answers
//! "what do you play?" without knowing about text protocols.

use crate::game::{Board, BoardSize, Color, Pos, Rule};
use crate::search::{search, Limits, SearchResult, Stop};

/// Yixin-Board's `MAX_HASH_SIZE`: log2 of the largest hash table, in entries.
pub const MAX_HASH_SIZE_LOG2: u32 = 24;

/// Everything a manager can set (`INFO …`), with the protocol's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub rule: Rule,
    /// Milliseconds per move; 0 means answer at once.
    pub turn_ms: u64,
    /// Milliseconds for the whole game; 0 means unlimited.
    pub match_ms: u64,
    /// Milliseconds left in the game (may be negative); `i64::from(i32::MAX)` is unlimited.
    pub time_left_ms: i64,
    /// Bytes for the whole process; 0 means unlimited.
    pub max_memory: u64,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rule: Rule::Freestyle,
            turn_ms: 30_000,
            match_ms: 0,
            time_left_ms: i64::from(i32::MAX),
            max_memory: 0,
            max_depth: None,
            max_nodes: None,
            threads: 1,
        }
    }
}

/// A game in progress and the means to choose moves in it.
#[derive(Debug)]
pub struct Engine {
    board: Board,
    settings: Settings,
}

impl Engine {
    /// A new, empty game.
    pub fn new(size: BoardSize, settings: Settings) -> Engine {
        Engine {
            board: Board::new(size, settings.rule),
            settings,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Applies new settings; a new rule re-judges the same stones under it.
    pub fn set_settings(&mut self, settings: Settings) {
        if settings.rule != self.board.rule() {
            let stones = self.stones();
            self.board = Board::new(self.board.size(), settings.rule);
            self.place(&stones);
        }
        self.settings = settings;
    }

    /// Empties the board for a new game (same size, same settings).
    pub fn new_game(&mut self) {
        self.board = Board::new(self.board.size(), self.settings.rule);
    }

    /// Plays the side to move's stone on an empty point.
    pub fn play(&mut self, pos: Pos) {
        let color = self.board.side_to_move();
        self.board.play(pos, color);
    }

    /// Replaces the position by these stones, placed in this order.
    pub fn set_position(&mut self, stones: &[(Pos, Color)]) {
        self.new_game();
        self.place(stones);
    }

    /// Removes one stone, wherever it is in the move order.
    pub fn remove(&mut self, pos: Pos) {
        let stones: Vec<(Pos, Color)> = self
            .stones()
            .into_iter()
            .filter(|&(p, _)| p != pos)
            .collect();
        self.set_position(&stones);
    }

    /// Chooses a move for the side to move, ranking `multipv` candidates.
    pub fn think(&mut self, multipv: usize, stop: &Stop) -> SearchResult {
        let limits = Limits {
            max_depth: self.settings.max_depth,
            max_nodes: self.settings.max_nodes,
            multipv,
        };
        search(&self.board, &limits, stop)
    }

    fn stones(&self) -> Vec<(Pos, Color)> {
        self.board
            .history()
            .iter()
            .filter_map(|&p| self.board.stone(p).map(|c| (p, c)))
            .collect()
    }

    fn place(&mut self, stones: &[(Pos, Color)]) {
        for &(pos, color) in stones {
            self.board.play(pos, color);
        }
    }
}
