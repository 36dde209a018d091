//! Where a search's nodes go: the instrument behind `pbrain-quinto bench tactics --tree`.
//! Counted only when asked for (`Limits::tree_stats`), by the main thread; each count is one
//! branch on an `Option` when it is off.

use super::movegen::Move;
use super::params::MAX_PLY;
use crate::game::Shape;
use std::fmt;

/// What a searched move does, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A four or better (four-three, open four).
    Four,
    /// An open three or better short of a four.
    Three,
    /// Answers the opponent's open three or stronger threat (and makes no three itself).
    DefendThree,
    /// Blocks the opponent's four (a forced block, searched without using depth).
    BlockFour,
    /// Anything else.
    Quiet,
}

impl MoveKind {
    const ALL: [MoveKind; 5] = [
        MoveKind::Four,
        MoveKind::Three,
        MoveKind::DefendThree,
        MoveKind::BlockFour,
        MoveKind::Quiet,
    ];

    pub fn of(m: &Move) -> MoveKind {
        if m.attack >= Shape::Four {
            MoveKind::Four
        } else if m.attack >= Shape::Three {
            MoveKind::Three
        } else if m.defence >= Shape::Three {
            MoveKind::DefendThree
        } else {
            MoveKind::Quiet
        }
    }

    fn name(self) -> &'static str {
        match self {
            MoveKind::Four => "four",
            MoveKind::Three => "three",
            MoveKind::DefendThree => "defend-three",
            MoveKind::BlockFour => "block-four",
            MoveKind::Quiet => "quiet",
        }
    }
}

/// The kind of a node of the main search, as the search expects it to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Pv,
    Cut,
    All,
}

/// How a node or a move was cut short without a full search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// The table's bound decided the node.
    Table,
    Razor,
    ReverseFutility,
    ProbCut,
    MultiCut,
    /// A quiet move left out at a shallow node far below alpha.
    FutileMove,
    /// A move left out past the move-count limit.
    MoveCount,
    /// A quiescence node whose alpha was a proven win already: it stood pat instead of
    /// trying its fours for a faster one.
    ShorterMate,
}

impl Pruning {
    const ALL: [Pruning; 8] = [
        Pruning::Table,
        Pruning::Razor,
        Pruning::ReverseFutility,
        Pruning::ProbCut,
        Pruning::MultiCut,
        Pruning::FutileMove,
        Pruning::MoveCount,
        Pruning::ShorterMate,
    ];

    fn name(self) -> &'static str {
        match self {
            Pruning::Table => "table",
            Pruning::Razor => "razor",
            Pruning::ReverseFutility => "reverse-futility",
            Pruning::ProbCut => "probcut",
            Pruning::MultiCut => "multi-cut",
            Pruning::FutileMove => "futile-move",
            Pruning::MoveCount => "move-count",
            Pruning::ShorterMate => "shorter-mate",
        }
    }
}

/// Why a node searched deeper than its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extension {
    /// The table's move was singular.
    Singular,
    /// Forced blocks' credit made a whole ply.
    Blocks,
    /// An opponent's open three, or quick win, at the horizon.
    ThreatAtHorizon,
}

impl Extension {
    const ALL: [Extension; 3] = [
        Extension::Singular,
        Extension::Blocks,
        Extension::ThreatAtHorizon,
    ];

    fn name(self) -> &'static str {
        match self {
            Extension::Singular => "singular",
            Extension::Blocks => "blocks",
            Extension::ThreatAtHorizon => "threat-at-horizon",
        }
    }
}

/// The counts.
#[derive(Clone, Debug)]
pub struct TreeStats {
    /// Main-search nodes entered at each ply.
    pub main_by_ply: Vec<u64>,
    /// Quiescence nodes entered at each ply.
    pub quiesce_by_ply: Vec<u64>,
    /// Main-search nodes that reached their move loop, by kind (`NodeKind` order).
    pub node_kinds: [u64; 3],
    /// Moves searched, by kind (`MoveKind::ALL` order).
    pub moves: [u64; 5],
    /// Moves searched with a late-move reduction, and the plies taken off in all.
    pub reduced_moves: u64,
    pub reduced_plies: u64,
    /// Reduced moves that beat alpha and were searched again.
    pub re_searches: u64,
    pub extensions: [u64; 3],
    pub prunings: [u64; Pruning::ALL.len()],
    /// Table probes of the main search and quiescence; hits; hits with a proven score.
    pub table_probes: u64,
    pub table_hits: u64,
    pub table_proven_hits: u64,
    /// Nodes of the root's threat solver.
    pub solver_nodes: u64,
    /// Main-search nodes that failed high; of them, by their first move; and the move
    /// numbers of the cutting moves added up (for the mean).
    pub fail_highs: u64,
    pub first_move_fail_highs: u64,
    pub fail_high_move_numbers: u64,
    /// Main-search nodes answering an opponent's open three, and the moves they searched:
    /// their own fours, and the others (the stopping points).
    pub threatened_nodes: u64,
    pub threatened_own_fours: u64,
    pub threatened_stops: u64,
    /// The main search's nodes in each iteration (from depth 1), aspiration re-searches
    /// included.
    pub iteration_nodes: Vec<u64>,
    /// Root searches (one per aspiration window); those whose score fell outside their
    /// window, and the nodes they spent.
    pub windows: u64,
    pub failed_windows: u64,
    pub failed_window_nodes: u64,
}

impl Default for TreeStats {
    fn default() -> TreeStats {
        TreeStats {
            main_by_ply: vec![0; MAX_PLY + 2],
            quiesce_by_ply: vec![0; MAX_PLY + 2],
            node_kinds: [0; 3],
            moves: [0; 5],
            reduced_moves: 0,
            reduced_plies: 0,
            re_searches: 0,
            extensions: [0; 3],
            prunings: [0; Pruning::ALL.len()],
            table_probes: 0,
            table_hits: 0,
            table_proven_hits: 0,
            solver_nodes: 0,
            fail_highs: 0,
            first_move_fail_highs: 0,
            fail_high_move_numbers: 0,
            threatened_nodes: 0,
            threatened_own_fours: 0,
            threatened_stops: 0,
            iteration_nodes: Vec::new(),
            windows: 0,
            failed_windows: 0,
            failed_window_nodes: 0,
        }
    }
}

impl TreeStats {
    /// The counts of a search whose root threat solver spent `solver_nodes`.
    pub fn from_solver(solver_nodes: u64) -> TreeStats {
        TreeStats {
            solver_nodes,
            ..TreeStats::default()
        }
    }

    pub fn node(&mut self, ply: usize, quiescence: bool) {
        let row = match quiescence {
            true => &mut self.quiesce_by_ply,
            false => &mut self.main_by_ply,
        };
        row[ply.min(MAX_PLY + 1)] += 1;
    }

    pub fn node_kind(&mut self, kind: NodeKind) {
        self.node_kinds[kind as usize] += 1;
    }

    pub fn searched(&mut self, kind: MoveKind) {
        self.moves[kind as usize] += 1;
    }

    pub fn reduced(&mut self, plies: i32) {
        if plies > 0 {
            self.reduced_moves += 1;
            self.reduced_plies += plies as u64;
        }
    }

    pub fn extended(&mut self, why: Extension) {
        self.extensions[why as usize] += 1;
    }

    pub fn pruned(&mut self, how: Pruning) {
        self.prunings[how as usize] += 1;
    }

    /// A node failed high on its `move_number`th move (from 1).
    pub fn failed_high(&mut self, move_number: usize) {
        self.fail_highs += 1;
        self.first_move_fail_highs += u64::from(move_number == 1);
        self.fail_high_move_numbers += move_number as u64;
    }

    /// A node answering an open three searched a move: one of its own fours or not.
    pub fn threatened_move(&mut self, own_four: bool) {
        match own_four {
            true => self.threatened_own_fours += 1,
            false => self.threatened_stops += 1,
        }
    }

    /// A root search in an aspiration window spent `nodes`; `failed` when its score fell
    /// outside the window (it is searched again in a wider one).
    pub fn window(&mut self, nodes: u64, failed: bool) {
        self.windows += 1;
        if failed {
            self.failed_windows += 1;
            self.failed_window_nodes += nodes;
        }
    }

    pub fn probed(&mut self, hit: bool, proven: bool) {
        self.table_probes += 1;
        self.table_hits += u64::from(hit);
        self.table_proven_hits += u64::from(proven);
    }
}

/// A share of a total, in per cent.
fn percent(part: u64, total: u64) -> f64 {
    100.0 * mean(part, total)
}

/// `total` shared among `count` (0 for none).
fn mean(total: u64, count: u64) -> f64 {
    total as f64 / count.max(1) as f64
}

impl fmt::Display for TreeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let main: u64 = self.main_by_ply.iter().sum();
        let quiesce: u64 = self.quiesce_by_ply.iter().sum();
        let all = main + quiesce + self.solver_nodes;
        writeln!(
            f,
            "  nodes: main {main} ({:.0} %), quiescence {quiesce} ({:.0} %), root solver {} ({:.0} %)",
            percent(main, all),
            percent(quiesce, all),
            self.solver_nodes,
            percent(self.solver_nodes, all)
        )?;
        let deepest = self
            .main_by_ply
            .iter()
            .zip(&self.quiesce_by_ply)
            .rposition(|(m, q)| m + q > 0)
            .unwrap_or(0);
        write!(f, "  by ply (main+quiescence):")?;
        for ply in 0..=deepest {
            let (m, q) = (self.main_by_ply[ply], self.quiesce_by_ply[ply]);
            write!(f, " {ply}:{m}+{q}")?;
        }
        writeln!(f)?;
        let kinds: u64 = self.node_kinds.iter().sum();
        writeln!(
            f,
            "  node kinds: PV {:.1} %, cut {:.1} %, all {:.1} % of {kinds}",
            percent(self.node_kinds[NodeKind::Pv as usize], kinds),
            percent(self.node_kinds[NodeKind::Cut as usize], kinds),
            percent(self.node_kinds[NodeKind::All as usize], kinds)
        )?;
        let moves: u64 = self.moves.iter().sum();
        write!(f, "  moves searched ({moves}):")?;
        for kind in MoveKind::ALL {
            let n = self.moves[kind as usize];
            write!(f, " {} {n} ({:.0} %)", kind.name(), percent(n, moves))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "  reductions: {} moves, {:.2} plies each, {} re-searched",
            self.reduced_moves,
            mean(self.reduced_plies, self.reduced_moves),
            self.re_searches
        )?;
        write!(f, "  extensions:")?;
        for why in Extension::ALL {
            write!(f, " {} {}", why.name(), self.extensions[why as usize])?;
        }
        writeln!(f)?;
        write!(f, "  prunings:")?;
        for how in Pruning::ALL {
            write!(f, " {} {}", how.name(), self.prunings[how as usize])?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "  fail-highs: {}, {:.0} % on the first move, at move {:.2} on average",
            self.fail_highs,
            percent(self.first_move_fail_highs, self.fail_highs),
            mean(self.fail_high_move_numbers, self.fail_highs)
        )?;
        write!(f, "  iterations (nodes each):")?;
        for (depth, nodes) in self.iteration_nodes.iter().enumerate() {
            write!(f, " {}:{nodes}", depth + 1)?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "  aspiration: {} root searches, {} outside their window, {} nodes in those ({:.0} %)",
            self.windows,
            self.failed_windows,
            self.failed_window_nodes,
            percent(self.failed_window_nodes, main + quiesce)
        )?;
        let threatened_moves = self.threatened_own_fours + self.threatened_stops;
        writeln!(
            f,
            "  answering an open three: {} nodes, {:.2} moves each ({:.2} own fours, {:.2} stops)",
            self.threatened_nodes,
            mean(threatened_moves, self.threatened_nodes),
            mean(self.threatened_own_fours, self.threatened_nodes),
            mean(self.threatened_stops, self.threatened_nodes)
        )?;
        writeln!(
            f,
            "  table: {} probes, {:.0} % hits, {} proven",
            self.table_probes,
            percent(self.table_hits, self.table_probes),
            self.table_proven_hits
        )
    }
}
