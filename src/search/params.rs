//! Every search constant, in one place. Naming: `*_DEPTH` in plies, `*_MS` in milliseconds.

/// Score of a win at the root; a win found `n` plies deep scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// Deepest ply the search may reach (forced lines extend past the nominal depth).
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;

/// Aspiration window half-width, from this depth on.
pub const ASPIRATION_DELTA: i32 = 60;
pub const ASPIRATION_MIN_DEPTH: u32 = 5;

/// Late move reductions: from this depth, after this many moves, reduce quiet moves by one ply.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 4;

/// Quiescence: at most this many fours in a row, and the strongest few at each step (the
/// root threat solver looks for long VCFs exhaustively).
pub const QUIESCENCE_FOURS: i32 = 10;
pub const QUIESCENCE_BRANCHES: usize = 4;

/// How often (in nodes) the search looks at the clock and the stop flag.
pub const CHECK_EVERY_NODES: u64 = 1_024;

/// Root threat search: the longest VCF tried (attacker moves), and the VCT limits (attacker
/// moves, and the longest VCF a quiet threat may threaten).
pub const ROOT_VCF_MOVES: u32 = 40;
pub const ROOT_VCT_MOVES: u32 = 8;
pub const ROOT_VCT_THREAT_DEPTH: u32 = 2;
/// Share of the optimum time the root threat search may use, in percent.
pub const ROOT_THREAT_TIME_PERCENT: u64 = 20;
/// Share of a node limit (`INFO max_node`) the root threat search may use, in percent; the
/// main search gets the rest.
pub const ROOT_THREAT_NODE_PERCENT: u64 = 50;

/// Time management: a share of the per-move time kept as a safety margin, plus a fixed margin
/// for process scheduling and output.
pub const TIME_MARGIN_PERCENT: u64 = 10;
pub const TIME_MARGIN_MS: u64 = 40;
/// With a match clock, plan for at least this many more moves of ours.
pub const MIN_MOVES_TO_GO: u64 = 12;
/// Start no new iteration after this share (percent) of the optimum time.
pub const NEW_ITERATION_PERCENT: u64 = 55;

/// Memory: transposition table size when `max_memory` is unlimited, and what the process
/// keeps for itself besides the table (bytes).
pub const DEFAULT_MEMORY: u64 = 350 << 20;
pub const MEMORY_MARGIN_BYTES: u64 = 6 << 20;
pub const MEMORY_MARGIN_PERCENT: u64 = 5;
/// How often (in nodes) the threat solver looks at the clock and the stop flag.
pub const SOLVER_CHECK_EVERY_NODES: u64 = 256;
/// The threat solver forgets its failed positions past this many (bounds its memory).
pub const SOLVER_MEMO_ENTRIES: usize = 1 << 16;

/// Root threat search node budgets: VCF always; VCT fixed when the search has no clock,
/// else a share of the time at about this many solver nodes per millisecond.
pub const ROOT_VCF_NODES: u64 = 20_000;
pub const ROOT_VCT_NODES: u64 = 20_000;
pub const SOLVER_NODES_PER_MS: u64 = 300;
