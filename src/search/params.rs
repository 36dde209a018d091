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

/// Razoring: at depth up to `RAZOR_MAX_DEPTH`, a node whose static value is below alpha by
/// `RAZOR_MARGIN` per ply is settled by the quiescence.
pub const RAZOR_MAX_DEPTH: i32 = 2;
pub const RAZOR_MARGIN: i32 = 150;

/// Internal iterative reduction: a node this deep without a move from the table is searched
/// one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extension: at depth `SINGULAR_MIN_DEPTH` or more, a table move whose entry is
/// at most `SINGULAR_TABLE_DEPTH` plies shallower and not an upper bound is extended one ply
/// when every other move, searched to half the depth, stays below its score minus
/// `SINGULAR_MARGIN` per ply.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
pub const SINGULAR_TABLE_DEPTH: i32 = 3;
pub const SINGULAR_MARGIN: i32 = 1;

/// Quiescence: at most this many fours in a row, the strongest few at each step; after the
/// first, only fours on the lines of the side's previous four within this distance (a VCF
/// goes on where the last four left off).
pub const QUIESCENCE_FOURS: i32 = 10;
pub const QUIESCENCE_BRANCHES: usize = 4;
pub const QUIESCENCE_REACH: usize = 4;

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
/// With a match clock, plan for at least this many more moves of ours, and never spend more
/// than this share (percent) of what is left on one move.
pub const MIN_MOVES_TO_GO: u64 = 12;
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

/// Move ordering ("policy"): what a move is worth by the pair of the shape it makes for the
/// mover (attack, the row) and the shape it takes from the opponent (defence, the column),
/// by `Shape as usize` (None, Forbidden, Two, DoubleTwo, Three, ThreeTwo, DoubleThree, Four,
/// FourTwo, FourThree, OpenFour, Five), plus a value per line pattern of each side (by
/// `Pattern as usize`), and one by how far the move is from the opponent's last stone and
/// from the mover's own (king steps, 1 to `NEAR_DISTANCES`; farther counts as the farthest).
/// Only the order matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderingTables {
    pub shapes: [[i32; 12]; 12],
    pub line_attack: [i32; 11],
    pub line_defence: [i32; 11],
    pub near_opponent: [i32; NEAR_DISTANCES],
    pub near_own: [i32; NEAR_DISTANCES],
}
/// The distances the ordering tells apart from the last stones (see `OrderingTables`).
pub const NEAR_DISTANCES: usize = 6;

/// Freestyle, standard and caro: fitted by `quinto-policy` to the moves of 421 freestyle
/// games of Quinto against itself (tournaments/tuning/README.md, "Move ordering"); a
/// forbidden point keeps its set values, and so do a five and the block of one.
#[rustfmt::skip]
pub const ORDERING: OrderingTables = OrderingTables {
    shapes: [
        [-467, -9, -255, -206, 582, 660, 1379, 1136, 1227, 2022, 2580, 49991],
        [-1310, -1000, -1276, -1280, -479, -457, 259, 45, 101, 873, 1827, 49000],
        [-286, -15, -196, -170, 638, 680, 1334, 1176, 1220, 1965, 2562, 49985],
        [-127, -9, -104, -94, 655, 652, 1323, 1153, 1161, 1900, 2818, 49991],
        [432, 836, 504, 527, 1269, 1256, 1919, 1766, 1766, 2436, 3060, 50836],
        [566, 857, 562, 542, 1234, 1224, 1861, 1703, 1702, 2385, 3684, 50857],
        [1183, 1630, 1179, 1150, 1811, 1792, 2889, 2308, 1896, 2919, 4457, 51630],
        [897, 1141, 964, 983, 1714, 1737, 2378, 2197, 2241, 2912, 3443, 51141],
        [1029, 1189, 1042, 1026, 1737, 1748, 2322, 2233, 2279, 2969, 4016, 51189],
        [1941, 2750, 1951, 2800, 2474, 3704, 4009, 4238, 4313, 4623, 5577, 52750],
        [19708, 20000, 19720, 19685, 20333, 20308, 21259, 20962, 21611, 21873, 22827, 70000],
        [99690, 100000, 99724, 99720, 100521, 100543, 101259, 101045, 101101, 101873, 102827, 150000],
    ],
    line_attack: [57, 0, 75, 82, 110, 175, 190, -287, -748, -1725, 0],
    line_defence: [271, 0, 296, 297, 311, 336, 387, -235, -703, 60, 0],
    near_opponent: [47, 20, -2, 2, -19, -40],
    near_own: [31, 15, -6, -8, -20, -27],
};
/// Renju: fitted by `quinto-policy --rule 4` to the moves of 521 renju games of Quinto against
/// itself (tournaments/tuning/README.md, "Move ordering"); a forbidden point keeps its set
/// values, and so do a five and the block of one.
#[rustfmt::skip]
pub const RENJU_ORDERING: OrderingTables = OrderingTables {
    shapes: [
        [-387, 1693, -197, -167, 533, 627, 1230, 876, 964, 1672, 2800, 50000],
        [-1000, -1000, -980, -940, -840, -700, 400, -880, -800, 1500, 5000, 49000],
        [-239, 1542, -163, -117, 604, 639, 1156, 903, 951, 1574, 2830, 50030],
        [-72, 1720, -50, -39, 602, 628, 1144, 882, 898, 1469, 2969, 50090],
        [515, 79, 550, 557, 1210, 1213, 1683, 1495, 1522, 2073, 3755, 50240],
        [638, 212, 613, 589, 1191, 1174, 1599, 1474, 1469, 2066, 6420, 50420],
        [1181, 1474, 1079, 822, 1697, 1408, 3600, 1925, 2213, 4700, 8200, 52200],
        [372, 1983, 412, 426, 1055, 1030, 1468, 1322, 1365, 1974, 3000, 50200],
        [473, 79, 471, 442, 1076, 1033, 1514, 1348, 1341, 1817, 6300, 50300],
        [2691, 3270, 2719, 2737, 3006, 3274, 7400, 6120, 3344, 8500, 12000, 56000],
        [20157, 20000, 20069, 19849, 20394, 20403, 21400, 20990, 20329, 21137, 26000, 70000],
        [100000, 100000, 100020, 100060, 100160, 100300, 101400, 100120, 100200, 102500, 106000, 150000],
    ],
    line_attack: [6, 0, 20, 29, 56, 115, 138, -331, -176, 514, 0],
    line_defence: [237, -1845, 253, 260, 263, 296, 335, -186, -443, 60, 0],
    near_opponent: [55, 24, 2, -3, -16, -48],
    near_own: [30, 12, -3, -8, -20, -25],
};
/// Ordering bonus of the killer moves, and the cap of the history score.
pub const KILLER_BONUS: i32 = 400;
pub const HISTORY_MAX: i32 = 1 << 16;
pub const HISTORY_DIVISOR: i32 = 64;

/// Memory: transposition table size when `max_memory` is unlimited, and what the process
/// keeps for itself besides the table (bytes).
pub const DEFAULT_MEMORY: u64 = 350 << 20;
pub const MEMORY_MARGIN_BYTES: u64 = 6 << 20;
pub const MEMORY_MARGIN_PERCENT: u64 = 5;
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
