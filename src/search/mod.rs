//! Choosing a move. No stdin/stdout here: the caller passes the position, limits, a stop
//! signal and a reporter, and gets a result back.
//!
//! The steps, in order (see each module):
//! 1. a five on the board is played at once;
//! 2. the threat solver looks for a forced win — VCF, then VCT — within a node budget
//!    (`threats`);
//! 3. iterative deepening of a principal variation search with aspiration windows, a
//!    transposition table and a VCF quiescence (`alphabeta`, `tt`), stopped by the clock
//!    (`time`), the node limit or the stop signal.
//!
//! With more than one thread (lazy SMP), helper threads search the same root on their own
//! copies of the board, a ply ahead of each other, sharing only the transposition table:
//! what they store steers and shortens the main thread's search. The main thread alone
//! decides the move and the time, and stops the helpers when it is done.

pub mod alphabeta;
mod movegen;
mod ordering_tables;
pub mod params;
mod quick_win;
mod quiesce;
pub mod threats;
pub mod time;
pub mod tree_stats;
pub mod tt;
mod tt_memory;

use crate::eval::evaluator::EvalKind;
use crate::game::{Board, Pos};
use alphabeta::{Cutoff, Searcher};
use params::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};
use threats::{solve, vcf_defences, Budget};
use time::TimeBudget;
use tree_stats::TreeStats;
use tt::Table;

/// How a running search is told to stop: "move now" (a GUI's STOP, `INFO timeout_turn 0`) or
/// "quit" (END, which also cuts every later search short). Shared with the input thread.
#[derive(Debug, Default)]
pub struct Stop {
    state: AtomicU8,
    searching: AtomicBool,
    /// Thinking on the opponent's time: `PONDER_OFF`, `PONDERING`, or `INTERRUPTED` once
    /// an input came.
    ponder: AtomicU8,
}

const RUN: u8 = 0;
const MOVE_NOW: u8 = 1;
const QUIT: u8 = 2;

const PONDER_OFF: u8 = 0;
const PONDERING: u8 = 1;
const INTERRUPTED: u8 = 2;

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Called as a search starts: forgets an old "move now", never a "quit".
    pub fn begin(&self) {
        let _ = self
            .state
            .compare_exchange(MOVE_NOW, RUN, Ordering::SeqCst, Ordering::SeqCst);
        self.searching.store(true, Ordering::SeqCst);
    }

    pub fn end(&self) {
        self.searching.store(false, Ordering::SeqCst);
    }

    /// "Move now", if a search is running (otherwise there is nothing to cut short).
    pub fn move_now(&self) {
        if self.searching.load(Ordering::SeqCst) {
            let _ = self
                .state
                .compare_exchange(RUN, MOVE_NOW, Ordering::SeqCst, Ordering::SeqCst);
        }
    }

    /// Stop this search and every later one at once.
    pub fn quit(&self) {
        self.state.store(QUIT, Ordering::SeqCst);
    }

    /// From now on any input ends the search (`Stop::input`): a ponder search is about to
    /// start. Set before looking for input already waiting, so that none is missed.
    pub fn ponder_begin(&self) {
        self.ponder.store(PONDERING, Ordering::SeqCst);
    }

    /// Inputs no longer end searches.
    pub fn ponder_end(&self) {
        self.ponder.store(PONDER_OFF, Ordering::SeqCst);
    }

    /// The input thread got a line: a ponder search ends.
    pub fn input(&self) {
        let _ = self.ponder.compare_exchange(
            PONDERING,
            INTERRUPTED,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// Whether the running search must return now.
    #[inline]
    pub fn is_set(&self) -> bool {
        self.state.load(Ordering::Relaxed) != RUN
            || self.ponder.load(Ordering::Relaxed) == INTERRUPTED
    }
}

/// What the caller allows the search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (`INFO max_depth`).
    pub max_depth: Option<u32>,
    /// Node budget (`INFO max_node`).
    pub max_nodes: Option<u64>,
    /// Thinking time; `None` searches until a depth or node limit (or the stop signal).
    pub time: Option<TimeBudget>,
    /// How many best moves to rank (`YXNBEST`); at least 1.
    pub multipv: usize,
    /// When the clock started (the command's arrival), if before the search itself.
    pub started: Option<Instant>,
    /// Play the best-looking move without searching (a weak sparring partner): a five, else
    /// a block of the opponent's five, else the first move in search order.
    pub plain: bool,
    /// Search threads (`INFO thread_num`); 0 counts as 1. A node limit is shared out
    /// evenly among them.
    pub threads: usize,
    /// The evaluation (`--eval`).
    pub eval: EvalKind,
    /// Points the answer must not be (Yixin-Board's `yxblock`): left out of the root's
    /// moves, unless they leave no legal point at all.
    pub blocked: Vec<Pos>,
    /// Count where the main thread's nodes go (`SearchResult::tree`; the tactics bench's
    /// `--tree`).
    pub tree_stats: bool,
}

impl Limits {
    /// Whether the clock, and no node or depth limit, ends the search: a node or depth limit
    /// that can bind promises the same answer every time (Yixin-Board's "unlimited" ones,
    /// a billion nodes or depth 100, cannot bind within the time).
    pub fn clock_only(&self) -> bool {
        let time = match self.time {
            Some(time) => time,
            None => return false,
        };
        let reachable = time.maximum.as_millis() as u64 * NODES_PER_MS_AT_MOST;
        self.max_nodes.map_or(true, |n| n > reachable)
            && self.max_depth.map_or(true, |d| d >= MAX_DEPTH)
    }

    /// No time at all (a 0 ms turn, an empty clock): one ply, no threat search, no helpers.
    pub fn no_time(&self) -> bool {
        self.time.map_or(false, |t| t.maximum.is_zero())
    }
}

/// A search's answer.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The best move, or `None` when there is no legal move.
    pub best: Option<Pos>,
    /// From the mover's side; beyond ±`WIN_THRESHOLD` a proven win or loss.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Pos>,
    /// The best moves with their scores, best first (`multipv` of them at most).
    pub ranked: Vec<(Pos, i32)>,
    /// Where the main thread's nodes went, when `Limits::tree_stats` asked.
    pub tree: Option<Box<TreeStats>>,
    /// When a win was proven: the nodes searched by then (the threat solver's and the main
    /// thread's; the search may go on for a shorter mate).
    pub proof_nodes: Option<u64>,
}

impl SearchResult {
    /// Moves to a proven win (positive) or loss (negative), counting both sides' moves.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score > WIN_THRESHOLD {
            Some(WIN - self.score)
        } else if self.score < -WIN_THRESHOLD {
            Some(-(WIN + self.score))
        } else {
            None
        }
    }
}

/// Receives progress as the search deepens (a GUI's analysis view, the terminal game).
pub trait Reporter {
    fn iteration(&mut self, result: &SearchResult);
    /// A root move's search in the iteration of `depth` begins or ends (the main thread's
    /// search for a move only). Ignored unless a reporter wants it.
    fn root_move(&mut self, _depth: u32, _event: RootEvent) {}
}

/// What the root's move loop is doing, for a GUI that marks each move as it is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEvent {
    Enter(Pos),
    /// Its search ended with `score` (a bound when it did not raise the best), `new_best`
    /// when it became the iteration's best so far.
    Leave {
        pos: Pos,
        score: i32,
        new_best: bool,
    },
}

/// A reporter that ignores everything.
#[derive(Debug, Default)]
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&mut self, _result: &SearchResult) {}
}

/// Picks a move for the side to move.
pub fn search(
    board: &mut Board,
    table: &mut Table,
    limits: &Limits,
    stop: &Stop,
    reporter: &mut dyn Reporter,
) -> SearchResult {
    let start = limits.started.unwrap_or_else(Instant::now);
    table.new_search(limits.clock_only());
    let table: &Table = table;
    // No thread without a node of its own under a node limit.
    let threads = limits.threads.clamp(1, MAX_THREADS).min(
        limits
            .max_nodes
            .map_or(MAX_THREADS, |n| n.clamp(1, MAX_THREADS as u64) as usize),
    );
    if threads == 1 || limits.no_time() || limits.plain || board.stone_count() == 0 {
        let mut alone = Helpers {
            main_depth: &AtomicU32::new(0),
            nodes: &|| 0,
            finish: &mut Vec::new,
        };
        return main_search(board, table, limits, stop, reporter, start, &mut alone);
    }
    // Every thread gets an even share of a node limit.
    let limits = Limits {
        max_nodes: limits.max_nodes.map(|n| n / threads as u64),
        ..limits.clone()
    };
    let cutoff = Cutoff {
        deadline: limits.time.map(|t| t.maximum),
        max_nodes: limits.max_nodes,
    };
    let max_depth = deepest_iteration(&limits);
    let helpers_stop = Stop::new();
    // Each helper's nodes so far, which it publishes as it searches.
    let helper_counts: Vec<AtomicU64> = (1..threads).map(|_| AtomicU64::new(0)).collect();
    let main_depth = AtomicU32::new(0);
    let blocked = &limits.blocked;
    std::thread::scope(|scope| {
        let mut helpers: Vec<_> = (1..threads)
            .zip(&helper_counts)
            .filter_map(|(id, count)| {
                let mut board = board.clone();
                let (stop, main_depth) = (&helpers_stop, &main_depth);
                std::thread::Builder::new()
                    .stack_size(HELPER_STACK_BYTES as usize)
                    .spawn_scoped(scope, move || {
                        let mut helper =
                            Searcher::new(&mut board, table, stop, cutoff, start, limits.eval);
                        helper.root_blocked = blocked.clone();
                        helper.published_nodes = Some(count);
                        deepen_helper(&mut helper, id, max_depth, main_depth)
                    })
                    // A thread the system refuses is a helper less, not a failed search.
                    .ok()
            })
            .collect();
        let mut helper_nodes = 0;
        let mut finish_helpers = || {
            helpers_stop.quit();
            let mut completed = Vec::new();
            for helper in helpers.drain(..) {
                if let Ok((nodes, last)) = helper.join() {
                    helper_nodes += nodes;
                    completed.extend(last);
                }
            }
            completed
        };
        let helper_nodes_so_far = || {
            helper_counts
                .iter()
                .map(|count| count.load(Ordering::Relaxed))
                .sum()
        };
        let mut crew = Helpers {
            main_depth: &main_depth,
            nodes: &helper_nodes_so_far,
            finish: &mut finish_helpers,
        };
        let mut result = main_search(board, table, &limits, stop, reporter, start, &mut crew);
        // Stops them when the main search returned early (a five, a forced win).
        finish_helpers();
        result.nodes += helper_nodes;
        result
    })
}

/// A legal empty point that is not blocked; when the blocks cover every one, any legal
/// point (an answer is owed).
fn free_point(board: &Board, blocked: &[Pos]) -> Option<Pos> {
    let me = board.side_to_move();
    let mut legal = board
        .size()
        .points()
        .filter(|&p| board.is_empty(p) && !board.is_forbidden(p, me));
    let first = legal.clone().next();
    legal.find(|p| !blocked.contains(p)).or(first)
}

/// A helper's last finished iteration.
#[derive(Clone, Debug)]
struct Completed {
    depth: u32,
    score: i32,
    pv: Vec<Pos>,
}

/// What the main thread shares with its helper threads (none, with one thread).
struct Helpers<'a> {
    /// The depth of the main thread's running iteration: helpers keep a ply ahead of it.
    main_depth: &'a AtomicU32,
    /// The helpers' nodes so far (while they run: the iterations' reports count every
    /// thread's nodes, as the final result does).
    nodes: &'a dyn Fn() -> u64,
    /// Stops the helpers and gives their last finished iterations.
    finish: &'a mut dyn FnMut() -> Vec<Completed>,
}

/// The main thread's search: a five or a forced win first, then iterative deepening; it
/// decides the move and when to stop. When its iterations end, it stops the helpers: a
/// helper's last finished iteration deeper than the main thread's own gives the move (lazy
/// SMP's "best thread").
fn main_search(
    board: &mut Board,
    table: &Table,
    limits: &Limits,
    stop: &Stop,
    reporter: &mut dyn Reporter,
    start: Instant,
    helpers: &mut Helpers,
) -> SearchResult {
    let me = board.side_to_move();
    let mut result = SearchResult::default();
    let center = board.size().center();
    if board.stone_count() == 0 && limits.multipv <= 1 && !limits.blocked.contains(&center) {
        // The empty board: the centre, as every opening theory starts (and renju requires).
        result.best = Some(center);
        result.depth = 1;
        result.pv = vec![center];
        result.ranked = vec![(center, 0)];
        result.elapsed = start.elapsed();
        return result;
    }
    let unblocked = |p: &Pos| !limits.blocked.contains(p);
    if let Some(&five) = board.five_points(me).iter().find(|p| unblocked(p)) {
        result.best = Some(five);
        result.score = WIN - 1;
        result.proof_nodes = Some(0);
        result.depth = 1;
        result.pv = vec![five];
        result.ranked = vec![(five, result.score)];
        result.elapsed = start.elapsed();
        return result;
    }
    let at_once = limits.no_time();
    let mut solver_nodes = 0;
    if !at_once && !limits.plain && !board.has_five_point(me.opponent()) && limits.multipv <= 1 {
        let line = root_threat_search(board, limits, stop, &mut solver_nodes)
            .filter(|line| line.first().map_or(true, unblocked));
        if let Some(line) = line {
            let plies = line.len() as i32;
            result.best = line.first().copied();
            result.score = WIN - plies;
            result.depth = plies as u32;
            result.pv = line;
            result.nodes = solver_nodes;
            result.proof_nodes = Some(solver_nodes);
            result.tree = limits
                .tree_stats
                .then(|| Box::new(TreeStats::from_solver(solver_nodes)));
            result.ranked = result
                .best
                .map(|b| vec![(b, result.score)])
                .unwrap_or_default();
            result.elapsed = start.elapsed();
            reporter.iteration(&result);
            return result;
        }
    }

    // The threat solver's nodes count against the limit: the search gets what is left.
    let max_nodes = limits.max_nodes.map(|n| n.saturating_sub(solver_nodes));
    let cutoff = Cutoff {
        deadline: limits.time.map(|t| t.maximum),
        max_nodes,
    };
    // The opponent's VCF, if it has one, leaves only the moves that may stop it.
    let root_allowed =
        if at_once || limits.plain || limits.max_nodes.is_some() || limits.multipv > 1 {
            None
        } else {
            let budget = Budget {
                moves: ROOT_VCF_MOVES,
                threat_depth: 0,
                nodes: ROOT_DEFENCE_VCF_NODES,
                deadline: limits
                    .time
                    .map(|t| start + t.optimum * ROOT_THREAT_TIME_PERCENT as u32 / 100),
            };
            vcf_defences(board, me.opponent(), budget, stop, &mut solver_nodes)
        };
    let mut searcher = Searcher::new(board, table, stop, cutoff, start, limits.eval);
    searcher.root_allowed = root_allowed;
    searcher.root_blocked = limits.blocked.clone();
    if limits.tree_stats {
        searcher.stats = Some(Box::new(TreeStats::from_solver(solver_nodes)));
    }
    let root_moves = searcher.root_moves();
    let first = match root_moves.first() {
        Some(&first) => first,
        None if limits.blocked.is_empty() => return result,
        None => {
            // The blocks took every move worth searching: any other legal point, unsearched.
            result.best = free_point(searcher.board, &limits.blocked);
            result.pv = result.best.into_iter().collect();
            result.ranked = result.best.map(|b| vec![(b, 0)]).unwrap_or_default();
            result.elapsed = start.elapsed();
            return result;
        }
    };
    result.best = Some(first);
    result.pv = vec![first];
    if limits.plain {
        let board = &searcher.board;
        let block = board
            .five_points(me.opponent())
            .iter()
            .copied()
            .find(|&p| !board.is_forbidden(p, me) && unblocked(&p));
        result.best = block.or(Some(first));
        result.pv = result.best.into_iter().collect();
        result.ranked = result.best.map(|b| vec![(b, 0)]).unwrap_or_default();
        result.elapsed = start.elapsed();
        return result;
    }
    if max_nodes == Some(0) {
        // The threat solver used the whole node budget: the move comes from ordering alone.
        result.nodes = solver_nodes;
        result.elapsed = start.elapsed();
        return result;
    }
    searcher.reporter = Some(reporter);
    deepen(
        &mut searcher,
        limits,
        &root_moves,
        start,
        solver_nodes,
        helpers,
        &mut result,
    );
    // The ranking's searches start below the root: no root moves of ours to report.
    searcher.reporter = None;
    adopt_deeper_helper(&searcher, (helpers.finish)(), limits, &mut result);
    // Several moves were ranked with each iteration (see `deepen`); one only now.
    if limits.multipv <= 1 || result.ranked.is_empty() {
        result.ranked = rank(&mut searcher, &root_moves, &result, limits.multipv.max(1));
    }
    result.nodes = searcher.nodes + solver_nodes;
    result.proof_nodes = searcher
        .first_proof_nodes
        .filter(|_| result.score > WIN_THRESHOLD)
        .map(|n| n + solver_nodes);
    result.tree = searcher.stats.take();
    result.elapsed = start.elapsed();
    result
}

/// The main thread's iterative deepening: each finished iteration updates `result` and is
/// reported; the clock, the best move's stability and a proven result decide when to stop.
/// Ranking several moves (`multipv`), each iteration ranks them at its depth before it is
/// reported, so that a GUI shows every ranked move's value while the search goes on; an
/// iteration whose ranking the clock cuts short counts as unfinished.
fn deepen(
    searcher: &mut Searcher,
    limits: &Limits,
    root_moves: &[Pos],
    start: Instant,
    solver_nodes: u64,
    helpers: &Helpers,
    result: &mut SearchResult,
) {
    let main_depth = helpers.main_depth;
    let max_depth = deepest_iteration(limits);
    let mut previous = 0;
    let mut stable_iterations = 0;
    for depth in 1..=max_depth {
        main_depth.store(depth, Ordering::Relaxed);
        let score = aspiration(searcher, previous, depth as i32);
        if searcher.aborted {
            // A root move that beat the last iteration's best before the cut is better (not
            // when ranking: the ranking's first move stays the move played).
            // A proven win beats any last score, the same move's too.
            if let Some((best, score)) = searcher.root_best.filter(|_| limits.multipv <= 1) {
                let me = searcher.board.side_to_move();
                let better = result.best != Some(best) || score > WIN_THRESHOLD;
                if better && !searcher.board.is_forbidden(best, me) {
                    result.best = Some(best);
                    result.pv = vec![best];
                    result.score = score;
                }
            }
            break;
        }
        let finished = (limits.multipv > 1).then(|| result.clone());
        let best_before = result.best;
        let dropped = depth > 1 && score <= previous - SCORE_DROP;
        previous = score;
        result.score = score;
        result.depth = depth;
        result.pv = searcher.principal_variation().to_vec();
        let me = searcher.board.side_to_move();
        match result.pv.first() {
            Some(&best)
                if searcher.board.is_empty(best) && !searcher.board.is_forbidden(best, me) =>
            {
                result.best = Some(best)
            }
            // A lost position's line may start with no legal move: keep the best-looking one.
            _ => result.pv = result.best.into_iter().collect(),
        }
        if let Some(finished) = finished {
            // The ranking's searches start below the root: no root moves to report.
            let reporter = searcher.reporter.take();
            result.ranked = rank(searcher, root_moves, result, limits.multipv);
            searcher.reporter = reporter;
            if searcher.aborted && !finished.ranked.is_empty() {
                *result = SearchResult {
                    nodes: searcher.nodes + solver_nodes + (helpers.nodes)(),
                    elapsed: start.elapsed(),
                    ..finished
                };
                break;
            }
        }
        result.nodes = searcher.nodes + solver_nodes + (helpers.nodes)();
        result.elapsed = start.elapsed();
        if let Some(reporter) = searcher.reporter.as_mut() {
            reporter.iteration(result);
        }
        if score.abs() > WIN_THRESHOLD {
            break;
        }
        let changed = depth > 1 && result.best != best_before;
        stable_iterations = if changed { 0 } else { stable_iterations + 1 };
        if let Some(time) = limits.time {
            let stability_percent = if changed || dropped {
                UNSTABLE_PERCENT
            } else if stable_iterations >= STABLE_ITERATIONS {
                STABLE_PERCENT
            } else {
                100
            };
            if !time.next_iteration_starts(start.elapsed(), stability_percent) {
                break;
            }
        }
    }
}

/// Takes the deepest helper iteration that went deeper than the main thread's, when its move
/// is one the main thread could play (legal, and among the root moves an opponent's VCF
/// leaves) and the main thread has not proven a win.
fn adopt_deeper_helper(
    searcher: &Searcher,
    completed: Vec<Completed>,
    limits: &Limits,
    result: &mut SearchResult,
) {
    if limits.multipv > 1 || result.score > WIN_THRESHOLD {
        return;
    }
    let board = &*searcher.board;
    let me = board.side_to_move();
    let playable = |pos: Pos| {
        board.is_empty(pos)
            && !board.is_forbidden(pos, me)
            && !searcher.root_blocked.contains(&pos)
            && searcher
                .root_allowed
                .as_ref()
                .map_or(true, |allowed| allowed.contains(&pos))
    };
    let deepest = completed
        .into_iter()
        .filter(|c| c.depth > result.depth && c.pv.first().map_or(false, |&p| playable(p)))
        .max_by_key(|c| c.depth);
    if let Some(helper) = deepest {
        result.best = helper.pv.first().copied();
        result.depth = helper.depth;
        result.score = helper.score;
        result.pv = helper.pv;
    }
}

/// The last iteration: `max_depth`, or one ply when there is no time at all.
fn deepest_iteration(limits: &Limits) -> u32 {
    if limits.no_time() {
        1
    } else {
        limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

/// A helper thread's iterative deepening, starting `id` plies deep and then always ahead of
/// the main thread's iteration (so that helpers fill the table for the depths it will
/// search), until the main thread stops it; returns its node count and its last finished
/// iteration.
fn deepen_helper(
    searcher: &mut Searcher,
    id: usize,
    max_depth: u32,
    main_depth: &AtomicU32,
) -> (u64, Option<Completed>) {
    let mut previous = 0;
    let mut last = None;
    let mut depth = 1 + id as u32;
    while depth <= max_depth {
        let score = aspiration(searcher, previous, depth as i32);
        if searcher.aborted {
            break;
        }
        last = Some(Completed {
            depth,
            score,
            pv: searcher.principal_variation().to_vec(),
        });
        if score.abs() > WIN_THRESHOLD {
            break;
        }
        previous = score;
        // A helper searching what the main thread searches adds little: keep ahead of it
        // (odd and even helpers one and two plies).
        let ahead = 1 + (id as u32 - 1) % 2;
        depth = (depth + 1).max(main_depth.load(Ordering::Relaxed) + ahead);
    }
    (searcher.nodes, last)
}

/// One iteration (`aspiration_windows`): its `root_best` starts empty and lasts through all
/// its windows; its nodes are counted in the tree statistics.
fn aspiration(searcher: &mut Searcher, previous: i32, depth: i32) -> i32 {
    searcher.root_best = None;
    let start = searcher.nodes;
    let score = aspiration_windows(searcher, previous, depth);
    let nodes = searcher.nodes - start;
    searcher.count(|s| s.iteration_nodes.push(nodes));
    score
}

/// One iteration inside a window around the last score, widened until the score falls inside;
/// once a proven win (loss) beats the window, its upper (lower) side opens at once instead of
/// doubling a dozen times. The re-search only finds the shortest mate: the move that beat the
/// window is already a proven win (`Searcher::first_proof_nodes` records when; `root_best`
/// keeps it if a limit cuts the re-search short). Each root search is counted in the tree
/// statistics, with whether its score fell outside its window.
fn aspiration_windows(searcher: &mut Searcher, previous: i32, depth: i32) -> i32 {
    let root = |searcher: &mut Searcher, alpha: i32, beta: i32| {
        let start = searcher.nodes;
        let score = searcher.root(alpha, beta, depth);
        let failed = !searcher.aborted && (score <= alpha || score >= beta);
        let nodes = searcher.nodes - start;
        searcher.count(|s| s.window(nodes, failed));
        if !searcher.aborted && score > WIN_THRESHOLD && searcher.first_proof_nodes.is_none() {
            searcher.first_proof_nodes = Some(searcher.nodes);
        }
        score
    };
    if depth < ASPIRATION_MIN_DEPTH as i32 || previous.abs() > WIN_THRESHOLD {
        return root(searcher, -WIN, WIN);
    }
    let mut delta = ASPIRATION_DELTA;
    // A side of the window that a proven score has passed stays open.
    let (mut won, mut lost) = (false, false);
    loop {
        let alpha = if lost {
            -WIN
        } else {
            (previous - delta).max(-WIN)
        };
        let beta = if won {
            WIN
        } else {
            (previous + delta).min(WIN)
        };
        let score = root(searcher, alpha, beta);
        if searcher.aborted || (score > alpha && score < beta) {
            return score;
        }
        if delta > WIN || (alpha == -WIN && beta == WIN) {
            return score;
        }
        won |= score > WIN_THRESHOLD;
        lost |= score < -WIN_THRESHOLD;
        delta *= ASPIRATION_GROWTH;
    }
}

/// VCF, then (time allowing) VCT for the side to move. A node limit gives the solver at most
/// `ROOT_THREAT_NODE_PERCENT` of it; a depth limit keeps its lines within what the search
/// itself could see at that depth (its quiescence adds up to `QUIESCENCE_FOURS` fours).
fn root_threat_search(
    board: &mut Board,
    limits: &Limits,
    stop: &Stop,
    nodes: &mut u64,
) -> Option<Vec<Pos>> {
    let started = limits.started.unwrap_or_else(Instant::now);
    // The solver's nodes cost very different times (crowded boards are slow): with a clock
    // it stops at its share of the optimum, whatever its node budget says.
    let deadline = limits
        .time
        .map(|t| started + (t.optimum * ROOT_THREAT_TIME_PERCENT as u32 / 100).min(t.maximum));
    let node_cap = limits.max_nodes.map_or(u64::MAX, |n| {
        (n as u128 * ROOT_THREAT_NODE_PERCENT as u128 / 100) as u64
    });
    let (vcf_moves, vct_moves) = match limits.max_depth {
        Some(depth) => (
            ROOT_VCF_MOVES.min(depth.saturating_add(QUIESCENCE_FOURS as u32)),
            ROOT_VCT_MOVES.min(depth.saturating_add(1) / 2),
        ),
        None => (ROOT_VCF_MOVES, ROOT_VCT_MOVES),
    };
    let vcf = Budget {
        moves: vcf_moves,
        threat_depth: 0,
        nodes: ROOT_VCF_NODES.min(node_cap),
        deadline,
    };
    if vcf.nodes > 0 {
        if let Some(line) = solve(board, board.side_to_move(), vcf, stop, nodes) {
            return Some(line);
        }
    }
    // A timed search gives VCT what is left of the solver's share of the time; a depth- or
    // node-limited one a fixed budget, so that it stays deterministic. A VCT of one move is an open four: the
    // search's own move generation sees those.
    let vct_nodes = match limits.time {
        Some(time) => {
            time.optimum.as_millis() as u64 * ROOT_THREAT_TIME_PERCENT / 100 * SOLVER_NODES_PER_MS
        }
        None => ROOT_VCT_NODES,
    }
    .min(node_cap.saturating_sub(*nodes));
    if vct_nodes == 0 || vct_moves < 2 {
        return None;
    }
    let vct = Budget {
        moves: vct_moves,
        threat_depth: ROOT_VCT_THREAT_DEPTH,
        nodes: vct_nodes,
        deadline,
    };
    solve(board, board.side_to_move(), vct, stop, nodes)
}

/// The `count` best root moves, best first: the search's choice, then the others searched
/// to the same depth — or, once time is up, by the static evaluation — so that `count`
/// moves come back whenever that many are legal. None scores above the search's choice:
/// the search itself found each below it at this depth, and the list stays in the order
/// of the values it gives.
fn rank(
    searcher: &mut Searcher,
    root_moves: &[Pos],
    result: &SearchResult,
    count: usize,
) -> Vec<(Pos, i32)> {
    let best = match result.best {
        Some(best) => best,
        None => return Vec::new(),
    };
    let mut ranked = vec![(best, result.score)];
    if count <= 1 {
        return ranked;
    }
    let depth = result.depth.max(1) as i32;
    let me = searcher.board.side_to_move();
    // The search's own moves first; when they are too few (only the answers to a threat are
    // searched), any other legal move near the stones makes up the count.
    let board = &*searcher.board;
    let others: Vec<Pos> = board
        .candidates()
        .filter(|p| {
            !root_moves.contains(p)
                && !board.is_forbidden(*p, me)
                && !searcher.root_blocked.contains(p)
        })
        .collect();
    let tried: Vec<Pos> = root_moves
        .iter()
        .chain(others.iter())
        .copied()
        .filter(|&p| p != best)
        .take(count * 2)
        .collect();
    for pos in tried {
        searcher.board.play(pos, me);
        // Above the search's choice only the bound matters: a window up to just past it.
        let searched = if searcher.aborted {
            0
        } else {
            -searcher.root(-(result.score + 1), WIN, depth - 1)
        };
        let score = if searcher.aborted {
            -searcher.eval.evaluate(searcher.board, me.opponent())
        } else {
            searched
        };
        searcher.board.undo();
        ranked.push((pos, score.min(result.score)));
    }
    // Stable: the search's choice stays first among equal values.
    ranked.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    ranked.truncate(count);
    ranked
}
