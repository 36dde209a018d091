//! The threat solver: victory by continuous fours (VCF) and by threats (VCT), for either
//! side, renju-aware: black's moves must be legal, black cannot block on a forbidden point
//! (so white may win by forcing black there), and a black threat only counts if the win it
//! threatens is made of legal moves.
//!
//! Depth-first, with a budget of attacker moves. A line ends with the attacker's five, or
//! earlier with a move the defender cannot answer: two five points (an open or a double four)
//! or a five point black may not block — the convention of the published problems.
//!
//! In a VCT a quiet attacker move counts as a threat when, were the defender to pass, the
//! attacker would win by VCF within `threat_depth` moves (depth 1: an open four or a double
//! four next — an open three and its kin). The defender then has to break that VCF: it may
//! play any of its own fours, any point of the VCF line, one of the line's final five
//! points, or a point that would turn one of its forced blocks into a four of its own. That
//! set holds every move that can defend, so a win found is a win.

use super::params::{SOLVER_CHECK_EVERY_NODES, SOLVER_MEMO_ENTRIES};
use super::Stop;
use crate::game::{Board, Color, Direction, Pattern, Pos, Threat};
use std::collections::HashMap;
use std::time::Instant;

/// How long a defender's VCF the solver looks for when it checks a counter-attack.
const DEFENDER_VCF_MOVES: u32 = 30;

/// A proven win: the line, attacker first, ending with the attacker's winning move.
pub type Line = Vec<Pos>;

/// Solver limits.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Attacker moves, the winning one included.
    pub moves: u32,
    /// 0 for VCF; otherwise the longest VCF a quiet move may threaten (see the module text).
    pub threat_depth: u32,
    /// Nodes before giving up.
    pub nodes: u64,
    /// When to give up (timed searches).
    pub deadline: Option<Instant>,
}

/// Searches a win for `attacker`, to move, within `budget`. `None` means no win was found
/// (none exists within the budget, or the node budget, the deadline or `stop` cut the search
/// short). `nodes` grows by the nodes searched.
pub fn solve(
    board: &mut Board,
    attacker: Color,
    budget: Budget,
    stop: &Stop,
    nodes: &mut u64,
) -> Option<Line> {
    let mut solver = Solver {
        board,
        attacker,
        threat_depth: budget.threat_depth,
        nodes: 0,
        node_limit: budget.nodes,
        next_check: 0,
        aborted: false,
        deadline: budget.deadline,
        stop,
        failed: HashMap::new(),
    };
    let mut line = Vec::new();
    let won = solver.attack(budget.moves, &mut line);
    *nodes += solver.nodes;
    won.then_some(line)
}

/// When `attacker`, not to move, has a VCF within `budget` (as if the side to move passed):
/// every move of the side to move that might stop it — the line's breaking points and the
/// side's own fours (the module text says why that set holds every defence). `None` when no
/// VCF was found.
pub fn vcf_defences(
    board: &mut Board,
    attacker: Color,
    budget: Budget,
    stop: &Stop,
    nodes: &mut u64,
) -> Option<Vec<Pos>> {
    let line = solve(board, attacker, budget, stop, nodes)?;
    let mut solver = Solver {
        board,
        attacker,
        threat_depth: 0,
        nodes: 0,
        node_limit: 0,
        next_check: 0,
        aborted: false,
        deadline: None,
        stop,
        failed: HashMap::new(),
    };
    let defender = attacker.opponent();
    let mut points = solver.breaking_points(attacker, &line);
    points.extend(
        solver
            .board
            .candidates()
            .filter(|&p| solver.board.threat(p, defender).is_four()),
    );
    Some(solver.ordered_legal(points, defender))
}

struct Solver<'a> {
    board: &'a mut Board,
    attacker: Color,
    threat_depth: u32,
    nodes: u64,
    node_limit: u64,
    /// When to look at the clock and the stop signal next (the node count can jump: nested
    /// solves add theirs).
    next_check: u64,
    /// Once out of budget, out for good.
    aborted: bool,
    deadline: Option<Instant>,
    stop: &'a Stop,
    /// Positions (by hash) the attacker failed in, with the largest move budget that failed.
    failed: HashMap<u64, u32>,
}

impl Solver<'_> {
    fn defender(&self) -> Color {
        self.attacker.opponent()
    }

    /// Counts a node unless that would pass the node limit (then the solver is out for good),
    /// so a solve never counts more nodes than its budget.
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        // The stop signal is one relaxed load: read it always; the clock now and then.
        self.aborted |= self.stop.is_set();
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + SOLVER_CHECK_EVERY_NODES;
            self.aborted |= self.deadline.map_or(false, |d| Instant::now() >= d);
        }
        self.aborted
    }

    /// The attacker to move: can it win within `moves` moves?
    fn attack(&mut self, moves: u32, line: &mut Line) -> bool {
        if moves == 0 || self.aborted {
            return false;
        }
        let (a, d) = (self.attacker, self.defender());
        if let Some(&five) = self.board.five_points(a).first() {
            line.push(five);
            return true;
        }
        if self.out_of_budget() {
            return false;
        }
        let hash = self.board.hash();
        if self.failed.get(&hash).map_or(false, |&m| m >= moves) {
            return false;
        }
        let their_fives = self.board.five_points(d);
        let forced = !their_fives.is_empty();
        let candidates = match their_fives.len() {
            0 => self.attacking_moves(moves),
            1 => their_fives.to_vec(),
            _ => Vec::new(),
        };
        for pos in candidates {
            let threat = self.board.threat(pos, a);
            if threat == Threat::Forbidden {
                continue;
            }
            let mark = line.len();
            line.push(pos);
            self.board.play(pos, a);
            // A quiet move must threaten a win that fits the moves left (a forced block
            // needs no threat of its own: the defender node checks that one remains).
            let threatens =
                forced || threat.is_four() || self.threatened_win(a, moves - 1).is_some();
            let won = threatens && self.defend(moves - 1, line);
            self.board.undo();
            if won {
                return true;
            }
            line.truncate(mark);
        }
        // A failure caused by running out proves nothing: do not remember it.
        if self.aborted {
            return false;
        }
        if self.failed.len() >= SOLVER_MEMO_ENTRIES {
            self.failed.clear();
        }
        let entry = self.failed.entry(hash).or_insert(0);
        *entry = (*entry).max(moves);
        false
    }

    /// The defender to move: does the attacker win whatever it does?
    fn defend(&mut self, moves: u32, line: &mut Line) -> bool {
        let (a, d) = (self.attacker, self.defender());
        if self.board.has_five_point(d) {
            return false;
        }
        let fives = self.board.five_points(a);
        if fives.len() >= 2 || (fives.len() == 1 && self.board.is_forbidden(fives[0], d)) {
            // Nothing stops the attacker's five: the line ends here.
            return true;
        }
        let defences = match fives.first() {
            Some(&block) => vec![block],
            None => match self.threatened_win(a, moves) {
                Some(threat) => {
                    let mut points = self.breaking_points(a, &threat);
                    points.extend(
                        self.board
                            .candidates()
                            .filter(|&p| self.board.threat(p, d).is_four()),
                    );
                    self.ordered_legal(points, d)
                }
                None => return false,
            },
        };
        if defences.is_empty() {
            return true;
        }
        let mark = line.len();
        for (i, &pos) in defences.iter().enumerate() {
            let branch = line.len();
            line.push(pos);
            self.board.play(pos, d);
            let won = self.attack(moves, line);
            self.board.undo();
            if !won {
                line.truncate(mark);
                return false;
            }
            // Keep the first defence's line as the principal one.
            if i > 0 {
                line.truncate(branch);
            }
        }
        true
    }

    /// The VCF `threatener` would have if it moved again now: the attacker's within the threat
    /// depth and `moves`, the defender's within the solver's VCF reach.
    fn threatened_win(&mut self, threatener: Color, moves: u32) -> Option<Line> {
        let reach = if threatener == self.attacker {
            self.threat_depth.min(moves)
        } else {
            DEFENDER_VCF_MOVES
        };
        if reach == 0 {
            return None;
        }
        let budget = Budget {
            moves: reach,
            threat_depth: 0,
            nodes: self.node_limit.saturating_sub(self.nodes),
            deadline: self.deadline,
        };
        let found = solve(self.board, threatener, budget, self.stop, &mut self.nodes);
        // A nested solve that ran out of time or nodes leaves this one out too.
        self.next_check = 0;
        if self.out_of_budget() {
            return None;
        }
        found
    }

    /// Every move of the other side that might break `threat`, a VCF line of `threatener`'s
    /// (see the module text) — its own fours aside, which callers add.
    fn breaking_points(&mut self, threatener: Color, threat: &[Pos]) -> Vec<Pos> {
        let mut points: Vec<Pos> = threat.to_vec();
        let mut color = threatener;
        for &pos in threat {
            self.board.play(pos, color);
            if color != threatener {
                points.extend(self.counter_points(pos, color));
            }
            color = color.opponent();
        }
        let fives = self.board.five_points(threatener);
        if let [five] = &*fives {
            if self.board.is_forbidden(*five, threatener.opponent()) {
                // The line ends by forcing black onto a forbidden point: a stone that changes
                // that point's verdict breaks it too.
                points.extend(self.line_neighbours(*five, 5));
            }
        }
        points.extend_from_slice(&fives);
        for _ in threat {
            self.board.undo();
        }
        points
    }

    /// The points up to `reach` cells from `pos` along its four lines.
    fn line_neighbours(&self, pos: Pos, reach: i32) -> Vec<Pos> {
        let size = self.board.size();
        Direction::ALL
            .into_iter()
            .flat_map(|dir| {
                (-reach..=reach)
                    .filter(|&o| o != 0)
                    .filter_map(move |o| pos.step(dir, o, size))
            })
            .collect()
    }

    /// The empty, legal ones of `points` for `color`, strongest own threats first.
    fn ordered_legal(&self, points: Vec<Pos>, color: Color) -> Vec<Pos> {
        let mut moves: Vec<(Threat, Pos)> = points
            .into_iter()
            .filter(|&p| self.board.is_empty(p))
            .map(|p| (self.board.threat(p, color), p))
            .filter(|&(t, _)| t != Threat::Forbidden)
            .collect();
        moves.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        moves.dedup_by_key(|m| m.1);
        moves.into_iter().map(|(_, p)| p).collect()
    }

    /// With a `d` stone just put at `block`: the points on its lines where one more `d`
    /// stone would make a four through it.
    fn counter_points(&self, block: Pos, d: Color) -> Vec<Pos> {
        self.line_neighbours(block, 4)
            .into_iter()
            .filter(|&p| self.board.is_empty(p) && self.board.makes_four(p, d))
            .collect()
    }

    /// The attacker's fours, and with a threat depth its promising quiet moves, strongest
    /// first. When the defender has a VCF of its own, only quiet moves that might break it
    /// can work.
    fn attacking_moves(&mut self, moves: u32) -> Vec<Pos> {
        let a = self.attacker;
        let quiet = self.threat_depth > 0 && moves >= 2;
        let allowed = match quiet {
            true => self
                .threatened_win(self.defender(), moves)
                .map(|t| self.breaking_points(self.defender(), &t)),
            false => None,
        };
        let mut moves: Vec<(Threat, i32, Pos)> = self
            .board
            .candidates()
            .filter_map(|p| {
                let threat = self.board.threat(p, a);
                if threat.is_four() {
                    return Some((threat, 0, p));
                }
                if !quiet
                    || threat == Threat::Forbidden
                    || allowed.as_ref().map_or(false, |a| !a.contains(&p))
                {
                    return None;
                }
                // Quiet candidates make at least an open three; deeper threats may start from
                // a blocked three, and the deepest from a two (a "fukumi" move).
                let weakest = match self.threat_depth {
                    1 => Pattern::F3,
                    2 => Pattern::B3,
                    _ => Pattern::B2,
                };
                let promise: i32 = Direction::ALL
                    .into_iter()
                    .map(|dir| self.board.pattern(p, dir, a))
                    .filter(|&pattern| pattern >= weakest && pattern != Pattern::Overline)
                    .map(|pattern| pattern as i32)
                    .sum();
                (promise > 0).then_some((threat, promise, p))
            })
            .collect();
        moves.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)).then(x.2.cmp(&y.2)));
        moves.into_iter().map(|(_, _, p)| p).collect()
    }
}
