//! The threat solver: victory by continuous fours (VCF) and by threats — fours and threes —
//! (VCT), for either side, renju-aware: black's threats must be legal, black cannot block on a
//! forbidden point (so white may win by forcing black there), and a black three only counts
//! if its open-four point is legal.
//!
//! Depth-first with a budget of attacker moves (the final five included) and of threes; the
//! defender answers a four at its five point and a three with every point that could matter
//! (its own fours, and every point where the attacker would make a four or an open four) —
//! a superset, so a win found is a win.

use super::Stop;
use crate::game::{Board, Color, Direction, Pattern, Pos, Threat};
use std::collections::HashMap;

/// A proven win: the line, attacker first, ending with the attacker's five.
pub type Line = Vec<Pos>;

/// Solver limits.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Attacker moves, the final five included.
    pub moves: u32,
    /// Threes the attacker may use (0: VCF).
    pub threes: u32,
    /// Nodes before giving up.
    pub nodes: u64,
}

/// Searches a win for the side to move within `budget`. `None` means no win was found
/// (none exists within the budget, or the node budget or `stop` cut the search short).
/// `nodes` grows by the nodes searched.
pub fn solve(board: &mut Board, budget: Budget, stop: &Stop, nodes: &mut u64) -> Option<Line> {
    let attacker = board.side_to_move();
    let mut solver = Solver {
        board,
        attacker,
        nodes: 0,
        node_limit: budget.nodes,
        stop,
        failed: HashMap::new(),
    };
    let mut line = Vec::new();
    let won = solver.attack(budget.moves, budget.threes, &mut line);
    *nodes += solver.nodes;
    won.then_some(line)
}

struct Solver<'a> {
    board: &'a mut Board,
    attacker: Color,
    nodes: u64,
    node_limit: u64,
    stop: &'a Stop,
    /// Positions (by hash) the attacker failed in, with the largest budget that failed.
    failed: HashMap<u64, (u32, u32)>,
}

impl Solver<'_> {
    fn defender(&self) -> Color {
        self.attacker.opponent()
    }

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        self.nodes > self.node_limit || (self.nodes % 1024 == 0 && self.stop.is_set())
    }

    /// The attacker to move: can it win within `moves` moves and `threes` threes?
    fn attack(&mut self, moves: u32, threes: u32, line: &mut Line) -> bool {
        if moves == 0 {
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
        if let Some(&(m, t)) = self.failed.get(&hash) {
            if m >= moves && t >= threes {
                return false;
            }
        }
        let their_fives = self.board.five_points(d);
        let forced = !their_fives.is_empty();
        let candidates = match their_fives.len() {
            0 => self.attacking_moves(threes > 0),
            1 => their_fives,
            _ => Vec::new(),
        };
        for pos in candidates {
            let threat = self.board.threat(pos, a);
            if threat == Threat::Forbidden {
                continue;
            }
            let cost = u32::from(!forced && !threat.is_four());
            if cost > threes {
                continue;
            }
            let mark = line.len();
            line.push(pos);
            self.board.play(pos, a);
            let won = self.defend(moves - 1, threes - cost, line);
            self.board.undo();
            if won {
                return true;
            }
            line.truncate(mark);
        }
        let entry = self.failed.entry(hash).or_insert((0, 0));
        *entry = (entry.0.max(moves), entry.1.max(threes));
        false
    }

    /// The defender to move: does the attacker win whatever it does?
    fn defend(&mut self, moves: u32, threes: u32, line: &mut Line) -> bool {
        let (a, d) = (self.attacker, self.defender());
        if self.board.has_five_point(d) {
            return false;
        }
        let fives = self.board.five_points(a);
        if fives.len() >= 2 {
            // Two five points: block one, the attacker plays the other.
            if moves == 0 {
                return false;
            }
            line.extend_from_slice(&fives[..2]);
            return true;
        }
        if fives.len() == 1 && self.board.is_forbidden(fives[0], d) {
            // Black cannot block on a forbidden point: the four forces a foul.
            return true;
        }
        let defences = match fives.first() {
            Some(&block) => vec![block],
            None if self.has_real_open_four_point() => self.defences(),
            None => return false,
        };
        if defences.is_empty() {
            return moves > 0;
        }
        let mark = line.len();
        for (i, &pos) in defences.iter().enumerate() {
            let branch = line.len();
            line.push(pos);
            self.board.play(pos, d);
            let won = self.attack(moves, threes, line);
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

    /// Whether the attacker could make an open four with a legal move.
    fn has_real_open_four_point(&self) -> bool {
        let a = self.attacker;
        self.board.has_open_four_point(a)
            && self.candidates().any(|p| {
                Direction::ALL
                    .into_iter()
                    .any(|d| self.board.pattern(p, d, a) == Pattern::F4)
                    && !self.board.is_forbidden(p, a)
            })
    }

    /// The attacker's fours (and threes when allowed), strongest first.
    fn attacking_moves(&self, with_threes: bool) -> Vec<Pos> {
        let a = self.attacker;
        let weakest = if with_threes {
            Threat::Three
        } else {
            Threat::Four
        };
        let mut moves: Vec<(Threat, Pos)> = self
            .candidates()
            .map(|p| (self.board.threat(p, a), p))
            .filter(|&(t, _)| t >= weakest)
            .collect();
        moves.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        moves.into_iter().map(|(_, p)| p).collect()
    }

    /// Every defender move that might stop an open-four threat: its own fours, and the points
    /// where the attacker would make a four or an open four.
    fn defences(&self) -> Vec<Pos> {
        let (a, d) = (self.attacker, self.defender());
        let mut moves: Vec<(Threat, Pos)> = self
            .candidates()
            .filter_map(|p| {
                let own = self.board.threat(p, d);
                if own == Threat::Forbidden {
                    return None;
                }
                let blocks = Direction::ALL
                    .into_iter()
                    .any(|dir| matches!(self.board.pattern(p, dir, a), Pattern::F4 | Pattern::B4));
                (own.is_four() || blocks).then_some((own, p))
            })
            .collect();
        moves.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        moves.into_iter().map(|(_, p)| p).collect()
    }

    fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        self.board
            .size()
            .points()
            .filter(move |&p| self.board.is_empty(p) && self.board.is_candidate(p))
    }
}
