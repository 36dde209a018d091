//! The facade the front ends talk to: it owns the position and the settings, and answers
//! "what do you play?" without knowing about text protocols.

use crate::eval::evaluator::EvalKind;
use crate::game::{Board, BoardSize, Color, Pos, Rule};
use crate::memory::{physical_bytes, process_bytes};
use crate::replace_file::replace_file;
use crate::search::params::{
    DEFAULT_MEMORY, HELPER_STACK_BYTES, HELPER_STACK_SHARE_PERCENT, MAX_THREADS,
    MEMORY_MARGIN_BYTES, MEMORY_MARGIN_PERCENT, TABLE_MAX_PHYSICAL_PERCENT,
};
use crate::search::time::budget;
use crate::search::tt::Table;
use crate::search::{search, Limits, Reporter, SearchResult, Silent, Stop};
use std::io::BufReader;
use std::path::Path;
use std::time::{Duration, Instant};

/// The largest transposition table `INFO hash_size` may ask for.
pub const MAX_HASH_BYTES: u64 = 4 << 30;

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
    /// Yixin-Board's `INFO hash_size`: the table's size in bytes (within `max_memory`);
    /// `None` sizes it from `max_memory` alone.
    pub hash_bytes: Option<u64>,
    /// Yixin-Board's `INFO time_increment`: milliseconds added to the clock after each move.
    pub increment_ms: u64,
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
            hash_bytes: None,
            increment_ms: 0,
        }
    }
}

/// Limits a front end fixes for a whole session (command-line flags), whatever the manager
/// sets: for weaker sparring partners in matches, and the evaluation to play with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Handicap {
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// The best-looking move, no search.
    pub plain: bool,
    pub eval: EvalKind,
}

/// A game in progress and the means to choose moves in it.
#[derive(Debug)]
pub struct Engine {
    board: Board,
    settings: Settings,
    handicap: Handicap,
    /// Sized (and its pages faulted in, in the background) as soon as the settings that
    /// size it come, so that a search never waits for it; again when they change
    /// (GomocupJudge sends `INFO max_memory` after START).
    table: Table,
    table_sized: bool,
    /// The search threads whose stacks the table's size left room for.
    table_threads: usize,
    /// What the front end should tell the manager about the table (a smaller one than asked
    /// for), until it takes it.
    note: Option<String>,
}

impl Engine {
    /// A new, empty game.
    pub fn new(size: BoardSize, settings: Settings, handicap: Handicap) -> Engine {
        let mut engine = Engine {
            board: Board::new(size, settings.rule),
            table: Table::with_bytes(0),
            table_sized: false,
            table_threads: 1,
            note: None,
            settings,
            handicap,
        };
        engine.size_table();
        engine
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Applies new settings; a new rule re-judges the same stones under it.
    pub fn set_settings(&mut self, settings: Settings) {
        // More threads than the table left room for need a smaller table (their stacks);
        // another rule, room for its network.
        if settings.max_memory != self.settings.max_memory
            || settings.hash_bytes != self.settings.hash_bytes
            || search_threads(&settings) > self.table_threads
            || settings.rule != self.settings.rule
        {
            self.table_sized = false;
        }
        if settings.rule != self.board.rule() {
            let stones = self.stones();
            self.board = Board::new(self.board.size(), settings.rule);
            self.place(&stones);
        }
        self.settings = settings;
        self.size_table();
    }

    /// What the manager should be told about the table since the last call, if anything.
    pub fn take_note(&mut self) -> Option<String> {
        self.note.take()
    }

    /// Empties the board and forgets all search results (same size, same settings).
    pub fn new_game(&mut self) {
        self.board = Board::new(self.board.size(), self.settings.rule);
        self.table.clear();
    }

    /// An empty board with new settings, keeping the search results unless the rule
    /// changes (they hold for positions under one rule only).
    pub fn restart(&mut self, settings: Settings) {
        let rule_changed = settings.rule != self.board.rule();
        // Empty first: the new settings have no stones to re-judge.
        self.board = Board::new(self.board.size(), settings.rule);
        self.set_settings(settings);
        if rule_changed {
            self.table.clear();
        }
    }

    /// Forgets all search results, keeping the position (Yixin-Board's `yxhashclear`).
    pub fn clear_table(&mut self) {
        self.table.clear();
    }

    /// Writes the search results to `path` (`yxhashdump`; a temporary file renamed over
    /// it, so a crash never leaves half a file): how many entries.
    pub fn dump_table(&mut self, path: &Path) -> Result<u64, String> {
        self.size_table();
        replace_file(path, |out| self.table.dump(out))
            .map_err(|e| format!("hash table not written to {}: {e}", path.display()))
    }

    /// Reads search results written by [`Engine::dump_table`] (`yxhashload`) into the table
    /// the settings give: how many entries.
    pub fn load_table(&mut self, path: &Path) -> Result<u64, String> {
        self.size_table();
        let file = std::fs::File::open(path)
            .map_err(|e| format!("hash table not read from {}: {e}", path.display()))?;
        self.table
            .load(&mut BufReader::new(file))
            .map_err(|why| format!("hash table not read from {}: {why}", path.display()))
    }

    /// Searches the position, the opponent to move, without a time limit until `stop` ends
    /// it (the next input), filling the table for the answer to come.
    pub fn ponder(&mut self, stop: &Stop) {
        self.size_table();
        let limits = self.standing_limits();
        search(&mut self.board, &mut self.table, &limits, stop, &mut Silent);
    }

    /// Makes the table the settings ask for, unless it is made already, and starts faulting
    /// its pages in. A size the system cannot give falls back to the largest it can.
    fn size_table(&mut self) {
        if self.table_sized {
            return;
        }
        // Free the old table before measuring and making the new one: never hold both.
        self.table = Table::with_bytes(0);
        // The network's weights are read on first use: read them before measuring, so that
        // the table leaves room for them.
        self.handicap
            .eval
            .network(self.board.rule(), self.board.size());
        self.table_threads = search_threads(&self.settings);
        let bytes = table_bytes(&self.settings, self.table_threads);
        self.table = Table::with_bytes(bytes);
        let wanted = Table::fitting_bytes(bytes);
        if (self.table.bytes() as u64) < wanted {
            self.note = Some(format!(
                "hash table {} MiB: the system would not give the {} MiB asked for",
                self.table.bytes() >> 20,
                wanted >> 20
            ));
        }
        self.table.warm_up();
        self.table_sized = true;
    }

    /// Plays the side to move's stone on an empty point.
    pub fn play(&mut self, pos: Pos) {
        let color = self.board.side_to_move();
        self.board.play(pos, color);
    }

    /// Replaces the position by these stones, placed in this order.
    pub fn set_position(&mut self, stones: &[(Pos, Color)]) {
        self.board = Board::new(self.board.size(), self.settings.rule);
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

    /// Chooses a move for the side to move, ranking `multipv` candidates, none of them
    /// `blocked` (unless every point is), reporting each finished iteration.
    pub fn think_with(
        &mut self,
        multipv: usize,
        blocked: &[Pos],
        stop: &Stop,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        // The clock runs from here: sizing the table, when the settings did not, counts
        // against the move's time.
        let started = Instant::now();
        self.size_table();
        let s = &self.settings;
        let mut time = budget(s.turn_ms, s.time_left_ms, self.board.stone_count());
        if time.clock {
            // The increment comes back after this move: it may be spent on it, within the
            // maximum that keeps most of the clock.
            let increment = Duration::from_millis(s.increment_ms);
            time.optimum = (time.optimum + increment).min(time.maximum);
        }
        let limits = Limits {
            time: Some(time),
            multipv,
            started: Some(started),
            blocked: blocked.to_vec(),
            ..self.standing_limits()
        };
        search(&mut self.board, &mut self.table, &limits, stop, reporter)
    }

    /// What the manager's settings and the session's flags allow any search: no clock, one
    /// best move, nothing blocked.
    fn standing_limits(&self) -> Limits {
        let (s, h) = (&self.settings, &self.handicap);
        Limits {
            max_depth: tightest(s.max_depth, h.max_depth),
            max_nodes: tightest(s.max_nodes, h.max_nodes),
            time: None,
            multipv: 1,
            started: None,
            plain: h.plain,
            threads: search_threads(s),
            eval: h.eval,
            blocked: Vec::new(),
            tree_stats: false,
        }
    }

    /// Bytes of the transposition table.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Thousandths of the transposition table in use.
    pub fn table_usage_permille(&self) -> u32 {
        self.table.usage_permille()
    }

    /// The stones on the board, in the order they were placed.
    pub fn stones(&self) -> Vec<(Pos, Color)> {
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

/// The transposition table's size: `hash_bytes` when it is set, as far as `max_memory`
/// allows; else `max_memory`'s share. Never more than `MAX_HASH_BYTES` or
/// `TABLE_MAX_PHYSICAL_PERCENT` of the machine's memory, whatever the manager says.
fn table_bytes(settings: &Settings, threads: usize) -> u64 {
    let share = memory_share(settings.max_memory, threads);
    let asked = match settings.hash_bytes {
        Some(hash) if settings.max_memory == 0 => hash,
        Some(hash) => hash.min(share),
        None => share,
    };
    let machine =
        physical_bytes().map_or(u64::MAX, |bytes| bytes / 100 * TABLE_MAX_PHYSICAL_PERCENT);
    asked.min(MAX_HASH_BYTES).min(machine)
}

/// The largest table `INFO hash_size` may set under these settings.
pub fn max_table_bytes(settings: &Settings) -> u64 {
    table_bytes(
        &Settings {
            hash_bytes: Some(MAX_HASH_BYTES),
            ..settings.clone()
        },
        search_threads(settings),
    )
}

/// The transposition table's share of `max_memory` (0 = unlimited, then a default): what the
/// process does not already use, less a margin and the helper threads' stacks.
fn memory_share(max_memory: u64, threads: usize) -> u64 {
    let limit = if max_memory == 0 {
        DEFAULT_MEMORY
    } else {
        max_memory
    };
    let margin = MEMORY_MARGIN_BYTES.max(limit / 100 * MEMORY_MARGIN_PERCENT);
    let helper_stacks = if max_memory == 0 {
        0
    } else {
        (threads as u64 - 1) * HELPER_STACK_BYTES
    };
    limit
        .saturating_sub(process_bytes())
        .saturating_sub(margin)
        .saturating_sub(helper_stacks)
}

/// The most search threads `INFO thread_num` may give under these settings.
pub fn max_threads(settings: &Settings) -> usize {
    search_threads(&Settings {
        threads: MAX_THREADS,
        ..settings.clone()
    })
}

/// The threads a search may use: what the manager asked for, as far as their stacks fit in
/// `HELPER_STACK_SHARE_PERCENT` of `max_memory` (when it is set).
fn search_threads(settings: &Settings) -> usize {
    let wanted = settings.threads.clamp(1, MAX_THREADS);
    if settings.max_memory == 0 {
        return wanted;
    }
    let room = settings.max_memory / 100 * HELPER_STACK_SHARE_PERCENT / HELPER_STACK_BYTES;
    wanted.min(room as usize + 1)
}

/// The smaller of two optional limits.
fn tightest<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
