//! A deliberately plain second implementation of the rules: a grid and loops, no incremental
//! state, renju fouls written from the RIF definitions (plus the Gomocup referee's one
//! deviation). The fast code is tested against it; nothing else uses it.

use super::color::Color;
use super::coord::{BoardSize, Direction};
use super::forbidden::Foul;
use super::rule::Rule;

/// A grid of stones.
#[derive(Clone, Debug)]
pub struct NaiveBoard {
    size: BoardSize,
    cells: Vec<Option<Color>>,
}

impl NaiveBoard {
    pub fn new(size: BoardSize) -> NaiveBoard {
        NaiveBoard {
            size,
            cells: vec![None; size.area()],
        }
    }

    pub fn get(&self, x: i32, y: i32) -> Option<Color> {
        if self.size.contains(x, y) {
            self.cells[y as usize * self.size.width() + x as usize]
        } else {
            None
        }
    }

    pub fn set(&mut self, x: i32, y: i32, stone: Option<Color>) {
        let width = self.size.width();
        self.cells[y as usize * width + x as usize] = stone;
    }

    /// Whether a `color` stone at the empty point (x, y) makes a winning line under `rule`.
    pub fn wins(&mut self, rule: Rule, x: i32, y: i32, color: Color) -> bool {
        self.set(x, y, Some(color));
        let win = Direction::ALL.iter().any(|&dir| {
            let (first, last) = self.run(x, y, dir, color);
            let (dx, dy) = dir.delta();
            let length = (last - first + 1) as usize;
            let before = (x + dx * (first - 1), y + dy * (first - 1));
            let after = (x + dx * (last + 1), y + dy * (last + 1));
            let opponent = Some(color.opponent());
            let blocked =
                self.get(before.0, before.1) == opponent && self.get(after.0, after.1) == opponent;
            rule.is_win(color, length, blocked)
        });
        self.set(x, y, None);
        win
    }

    /// The renju foul of a black stone at the empty point (x, y), if any.
    pub fn foul(&mut self, x: i32, y: i32) -> Option<Foul> {
        self.set(x, y, Some(Color::Black));
        let verdict = self.foul_with_stone(x, y);
        self.set(x, y, None);
        verdict
    }

    /// The verdict on the black stone just put at (x, y).
    fn foul_with_stone(&mut self, x: i32, y: i32) -> Option<Foul> {
        let lengths: Vec<i32> = Direction::ALL
            .iter()
            .map(|&dir| {
                let (first, last) = self.run(x, y, dir, Color::Black);
                last - first + 1
            })
            .collect();
        // A move that makes an exact five wins, whatever else it makes.
        if lengths.contains(&5) {
            return None;
        }
        if lengths.iter().any(|&length| length >= 6) {
            return Some(Foul::Overline);
        }
        let fours: usize = Direction::ALL
            .iter()
            .map(|&dir| self.fours(x, y, dir))
            .sum();
        if fours >= 2 {
            return Some(Foul::DoubleFour);
        }
        let threes = Direction::ALL
            .iter()
            .filter(|&&dir| self.is_real_three(x, y, dir))
            .count();
        (threes >= 2).then_some(Foul::DoubleThree)
    }

    /// The offsets (first, last) of the run of `color` through (x, y) along `dir`.
    fn run(&self, x: i32, y: i32, dir: Direction, color: Color) -> (i32, i32) {
        let (dx, dy) = dir.delta();
        let at = |k: i32| self.get(x + dx * k, y + dy * k) == Some(color);
        let mut first = 0;
        while at(first - 1) {
            first -= 1;
        }
        let mut last = 0;
        while at(last + 1) {
            last += 1;
        }
        (first, last)
    }

    /// The empty points along `dir` near (x, y) where black would make an exact five that
    /// passes through (x, y), with the four stones that five would complete.
    fn five_points(&mut self, x: i32, y: i32, dir: Direction) -> Vec<(i32, Vec<i32>)> {
        let (dx, dy) = dir.delta();
        let mut found = Vec::new();
        for k in -4..=4 {
            let (qx, qy) = (x + dx * k, y + dy * k);
            if k == 0 || !self.size.contains(qx, qy) || self.get(qx, qy).is_some() {
                continue;
            }
            self.set(qx, qy, Some(Color::Black));
            let (first, last) = self.run(x, y, dir, Color::Black);
            if last - first + 1 == 5 && (first..=last).contains(&k) {
                found.push((k, (first..=last).filter(|&i| i != k).collect()));
            }
            self.set(qx, qy, None);
        }
        found
    }

    /// How many fours through (x, y) along `dir`: distinct sets of four stones that one more
    /// stone turns into an exact five (an open four is one four; `x.xxx.x` is two).
    fn fours(&mut self, x: i32, y: i32, dir: Direction) -> usize {
        let mut sets: Vec<Vec<i32>> = self
            .five_points(x, y, dir)
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        sets.sort();
        sets.dedup();
        sets.len()
    }

    /// Whether the line through (x, y) along `dir` holds a real three: a point that makes a
    /// straight four through (x, y) and is itself neither forbidden nor (the Gomocup
    /// referee's deviation from the RIF text) a five in another line.
    fn is_real_three(&mut self, x: i32, y: i32, dir: Direction) -> bool {
        let (dx, dy) = dir.delta();
        for k in -4..=4 {
            let (qx, qy) = (x + dx * k, y + dy * k);
            if k == 0 || !self.size.contains(qx, qy) || self.get(qx, qy).is_some() {
                continue;
            }
            self.set(qx, qy, Some(Color::Black));
            let straight = self.is_straight_four(x, y, dir, k);
            self.set(qx, qy, None);
            if straight && !self.makes_exact_five(qx, qy) && self.foul(qx, qy).is_none() {
                return true;
            }
        }
        false
    }

    /// Four in a row through (x, y) and the stone just put at offset `k`, with both ends
    /// empty and each end making an exact five.
    fn is_straight_four(&mut self, x: i32, y: i32, dir: Direction, k: i32) -> bool {
        let (first, last) = self.run(x, y, dir, Color::Black);
        if last - first + 1 != 4 || !(first..=last).contains(&k) {
            return false;
        }
        let five_points = self.five_points(x, y, dir);
        five_points.iter().any(|(k, _)| *k == first - 1)
            && five_points.iter().any(|(k, _)| *k == last + 1)
    }

    fn makes_exact_five(&mut self, x: i32, y: i32) -> bool {
        self.set(x, y, Some(Color::Black));
        let five = Direction::ALL.iter().any(|&dir| {
            let (first, last) = self.run(x, y, dir, Color::Black);
            last - first + 1 == 5
        });
        self.set(x, y, None);
        five
    }
}
