//! Every search constant, in one place. Naming: `*_DEPTH` in plies, `*_MS` in milliseconds.

/// Score of a win at the root; a win found `n` plies deep scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// Deepest ply the search may reach (forced lines extend past the nominal depth).
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;

/// Aspiration windows: from depth `ASPIRATION_MIN_DEPTH` on, an iteration searches within
/// `ASPIRATION_DELTA` of the last score, and a window it falls outside of grows
/// `ASPIRATION_GROWTH` times on both sides.
pub const ASPIRATION_MIN_DEPTH: u32 = 5;
pub const ASPIRATION_DELTA: i32 = 25;
pub const ASPIRATION_GROWTH: i32 = 2;

/// Late move reductions: from this depth, for moves after the first `LMR_MIN_MOVES`, a
/// reduction of `LMR_BASE + ln(depth)·ln(move number) / LMR_DIVISOR` plies (a table built
/// once), one less in PV nodes and for killers, one more in expected cut nodes.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 2;
pub const LMR_BASE: f64 = 0.25;
pub const LMR_DIVISOR: f64 = 1.9;
/// ... and `LMR_TRIVIAL` more for a move that makes no shape for either side, `LMR_DISTANT`
/// more for one farther than `DISTANT_MOVE` from both sides' last moves.
pub const LMR_TRIVIAL: i32 = 1;
pub const LMR_DISTANT: i32 = 1;
pub const DISTANT_MOVE: usize = 4;

/// Move-count pruning: a non-PV node at depth `d` searches at most
/// `MOVE_COUNT_BIAS + MOVE_COUNT_SCALE·√d` moves (times `MOVE_COUNT_NOT_IMPROVING` when the
/// static value is not improving; at most `MOVE_COUNT_MAX`), and after them only fours.
pub const MOVE_COUNT_BIAS: f64 = -12.0;
pub const MOVE_COUNT_SCALE: f64 = 15.0;
pub const MOVE_COUNT_NOT_IMPROVING: f64 = 0.67;
pub const MOVE_COUNT_MAX: usize = 32;

/// Futility: at depth up to `FUTILITY_MAX_DEPTH`, a node whose static value beats beta by
/// `FUTILITY_MARGIN` per ply returns it; a quiet move at a node whose static value plus
/// that margin cannot reach alpha is not searched.
pub const FUTILITY_MAX_DEPTH: i32 = 5;
pub const FUTILITY_MARGIN: i32 = 70;

/// ProbCut: a non-PV node from `PROBCUT_MIN_DEPTH` tries its best `PROBCUT_MOVES` threat
/// moves (an open three or better) `PROBCUT_REDUCTION` plies shallower against beta +
/// `PROBCUT_MARGIN`, and cuts when one beats it.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_REDUCTION: i32 = 4;
pub const PROBCUT_MOVES: usize = 3;
pub const PROBCUT_MARGIN: i32 = 150;

/// The network evaluates a node only where the classical value (put on the network's scale
/// by `StandIn`) lies within `NET_LAZY_MARGIN` of the window; elsewhere that value stands.
pub const NET_LAZY_MARGIN: i32 = 100;

/// The network's policy orders the moves of nodes this deep (its state is brought to the
/// position there), weighted `POLICY_ORDER_WEIGHT` ordering units a logistic unit (the
/// ordering tables' own scale is 100 a unit: `quinto-policy --temperature`).
pub const POLICY_MIN_DEPTH: i32 = 4;
pub const POLICY_ORDER_WEIGHT: i32 = 100;

/// Razoring: at depth up to `RAZOR_MAX_DEPTH`, a node whose static value is below alpha by
/// `RAZOR_MARGIN` per ply is settled by the quiescence.
pub const RAZOR_MAX_DEPTH: i32 = 2;
pub const RAZOR_MARGIN: i32 = 150;

/// Internal iterative reduction: a node this deep without a move from the table is searched
/// one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 3;
/// A PV node whose table move was stored by a search `k` plies shallower than its own depth
/// is searched `k / PV_STALE_TT_DIVISOR` plies shallower, at most `PV_STALE_TT_MAX`.
pub const PV_STALE_TT_DIVISOR: i32 = 4;
pub const PV_STALE_TT_MAX: i32 = 3;

/// Singular extension: at depth `SINGULAR_MIN_DEPTH` or more, a table move whose entry is
/// at most `SINGULAR_TABLE_DEPTH` plies shallower and not an upper bound is extended one ply
/// when every other move, searched to half the depth, stays below its score minus
/// `SINGULAR_MARGIN` per ply.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
pub const SINGULAR_TABLE_DEPTH: i32 = 3;
pub const SINGULAR_MARGIN: i32 = 1;

/// The forced block of a four is searched at the four's depth plus `BLOCK_EXTENSION` /
/// `BLOCK_EXTENSION_UNITS` of a ply (a fraction carried along the line until it makes a
/// whole ply), so that attacks of fours are read to their end.
pub const BLOCK_EXTENSION: i32 = 3;
pub const BLOCK_EXTENSION_UNITS: i32 = 10;

/// Quiescence: at most this many fours in a row, the strongest few at each step; after the
/// first, only fours on the lines of the side's previous four within this distance (a VCF
/// goes on where the last four left off).
pub const QUIESCENCE_FOURS: i32 = 10;
pub const QUIESCENCE_BRANCHES: usize = 4;
pub const QUIESCENCE_REACH: usize = 4;

/// More nodes a millisecond than any search of ours reaches, threads together: a node limit
/// beyond this many a millisecond of the time cannot bind before the clock does.
pub const NODES_PER_MS_AT_MOST: u64 = 20_000;

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
pub const TIME_MARGIN_PERCENT: u64 = 6;
pub const TIME_MARGIN_MS: u64 = 30;
/// With a match clock, plan for `MOVES_TO_GO_AT_START` more moves of ours on an empty board,
/// one fewer for every `STONES_PER_MOVE_TO_GO` stones on it, and never fewer than
/// `MIN_MOVES_TO_GO`: games between engines of this strength end after about 22 moves a side
/// from the opening, 14 more after 20 stones, 10 more from 30 on, on 15×15 and 20×20 alike
/// (tournaments/results.md). Never spend more than `CLOCK_MAXIMUM_PERCENT` of what is left on
/// one move.
pub const MOVES_TO_GO_AT_START: u64 = 24;
pub const STONES_PER_MOVE_TO_GO: u64 = 4;
pub const MIN_MOVES_TO_GO: u64 = 10;
pub const CLOCK_MAXIMUM_PERCENT: u64 = 25;
/// The optimum, as a share (percent) of the maximum.
pub const OPTIMUM_PERCENT: u64 = 75;
/// With a game clock, a new iteration starts while the elapsed time is below this share
/// (percent) of the optimum, scaled by the best move's stability: by `UNSTABLE_PERCENT` when
/// the last iteration changed the best move or its score fell by `SCORE_DROP` or more, by
/// `STABLE_PERCENT` once the best move held `STABLE_ITERATIONS` iterations. Without a clock
/// iterations start until the maximum. Past the maximum the search stops at once, keeping a
/// better root move found in the unfinished iteration.
pub const NEW_ITERATION_PERCENT: u64 = 60;
pub const UNSTABLE_PERCENT: u64 = 150;
pub const STABLE_PERCENT: u64 = 70;
pub const STABLE_ITERATIONS: u32 = 4;
pub const SCORE_DROP: i32 = 40;

/// Move ordering: the tables' shape and their fitted values (`ordering_tables`).
pub use super::ordering_tables::{OrderingTables, NEAR_DISTANCES, ORDERING, RENJU_ORDERING};

/// A node picks its first this many generated moves one at a time and sorts the rest only
/// when it gets to them (most cut nodes stop before): speed only, the order is the same.
pub const PICKED_ONE_BY_ONE: usize = 6;

/// Ordering bonus of the killer moves, and the cap of the history score.
pub const KILLER_BONUS: i32 = 400;
pub const HISTORY_MAX: i32 = 1 << 16;
pub const HISTORY_DIVISOR: i32 = 64;

/// Memory: transposition table size when `max_memory` is unlimited, and what the process
/// keeps for itself besides the table (bytes).
pub const DEFAULT_MEMORY: u64 = 350 << 20;
pub const MEMORY_MARGIN_BYTES: u64 = 6 << 20;
pub const MEMORY_MARGIN_PERCENT: u64 = 5;
/// The transposition table takes at most this share (percent) of the machine's memory,
/// whatever `max_memory` allows: its pages are all faulted in, and a table near the
/// machine's size would leave the system swapping or kill the engine.
pub const TABLE_MAX_PHYSICAL_PERCENT: u64 = 50;
/// Search threads at most (`INFO thread_num` asks for more at its peril).
pub const MAX_THREADS: usize = 256;
/// Stack of each helper search thread, as big as the main thread's (reserved address space:
/// it counts against a `max_memory`, so the table shrinks by this much per helper, and the
/// helpers' stacks may take at most `HELPER_STACK_SHARE_PERCENT` of it: fewer threads, else).
pub const HELPER_STACK_BYTES: u64 = 8 << 20;
pub const HELPER_STACK_SHARE_PERCENT: u64 = 50;
/// How often (in nodes) the threat solver looks at the clock and the stop flag.
pub const SOLVER_CHECK_EVERY_NODES: u64 = 256;
/// The threat solver forgets its failed positions past this many (bounds its memory).
pub const SOLVER_MEMO_ENTRIES: usize = 1 << 16;

/// When the opponent, were it to move, would have a VCF found within this many solver nodes,
/// the root searches only the moves that may stop it (its breaking points and our fours).
pub const ROOT_DEFENCE_VCF_NODES: u64 = 10_000;

/// Root threat search node budgets: VCF always; VCT fixed when the search has no clock,
/// else a share of the time at about this many solver nodes per millisecond.
pub const ROOT_VCF_NODES: u64 = 20_000;
pub const ROOT_VCT_NODES: u64 = 20_000;
pub const SOLVER_NODES_PER_MS: u64 = 300;
