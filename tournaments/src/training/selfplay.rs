//! Training data made by Quinto itself: games of Quinto against itself, played in-process at
//! a fixed node count a move, from random balanced openings, with a little randomness early
//! so that games differ (`quinto-selfplay` plays them, `quinto-train` learns from them).
//!
//! A data file holds one game a line (lines starting with `#` are comments), tab-separated:
//! the seed and the game's index (together they name the game: game `i` of seed `s` is the
//! same game on every machine and every run, so a run that stopped resumes, and shards made
//! with other seeds merge by concatenation), the rule (protocol number), the board width
//! (boards are square), the result for black (`1`, `0.5`, `0`), and then the moves, one word
//! each: `x,y` for an opening stone, `x,y/score` for a searched move (the search's score for
//! the mover, in evaluation units; mate scores beyond ±29000) where the move played was the
//! search's best, `x,y/score/bx,by` where an early random pick played `x,y` instead of the
//! search's best `bx,by`.

use crate::training::labels::black_result;
use crate::training::tuning::K;
use quinto::eval::evaluator::EvalKind;
use quinto::game::{judge_move, Board, BoardSize, Color, Pos, Rule, Verdict};
use quinto::record::Record;
use quinto::rng::Rng;
use quinto::search::params::{WIN, WIN_THRESHOLD};
use quinto::search::tt::Table;
use quinto::search::{search, Limits, SearchResult, Silent, Stop};
use std::collections::HashSet;

/// One move of a game and what the search said before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub pos: Pos,
    /// The search's score for the mover and its best move; `None` for an opening stone.
    pub searched: Option<(i32, Pos)>,
}

/// A whole game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub seed: u64,
    pub index: u64,
    pub rule: Rule,
    pub size: BoardSize,
    /// The result for black: 1 a win, 0.5 a draw, 0 a loss.
    pub black_result: f64,
    pub moves: Vec<Move>,
}

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Config {
    pub rule: Rule,
    pub size: BoardSize,
    /// Search nodes a move.
    pub nodes: u64,
    /// Random stones of the opening (the least and the most).
    pub opening_stones: (usize, usize),
    /// How far from the centre the opening stones lie (Chebyshev distance).
    pub opening_radius: usize,
    /// An opening whose quick search scores beyond this (evaluation units) is drawn again.
    pub balance_margin: i32,
    /// For this many moves after the opening, a move may be drawn among the near-best.
    pub random_moves: usize,
    /// How far below the best (evaluation units) a random pick may be.
    pub random_margin: i32,
    /// Transposition table bytes of each game's search.
    pub table_bytes: u64,
    /// The evaluation the games are played with (data for the next network generation).
    pub eval: EvalKind,
}

/// Nodes of the quick search that judges an opening's balance.
const BALANCE_NODES: u64 = 3_000;
/// Moves ranked for a random pick.
const RANDOM_CANDIDATES: usize = 4;
/// Openings drawn at most before the last one is taken however unbalanced.
const OPENING_TRIES: usize = 50;

impl Game {
    /// Game `index` of `seed`, played under `config`'s rule and size.
    fn of(config: &Config, seed: u64, index: u64, black_result: f64, moves: Vec<Move>) -> Game {
        Game {
            seed,
            index,
            rule: config.rule,
            size: config.size,
            black_result,
            moves,
        }
    }

    /// The result for the side to move after `stones` stones.
    pub fn result_for_mover(&self, stones: usize) -> f64 {
        match Color::to_move_after(stones) {
            Color::Black => self.black_result,
            Color::White => 1.0 - self.black_result,
        }
    }

    pub fn to_line(&self) -> String {
        let mut line = format!(
            "{}\t{}\t{}\t{}\t{}",
            self.seed,
            self.index,
            self.rule.protocol_value(),
            self.size.width(),
            self.black_result
        );
        for m in &self.moves {
            line.push('\t');
            line.push_str(&format!("{},{}", m.pos.x(), m.pos.y()));
            if let Some((score, best)) = m.searched {
                line.push_str(&format!("/{score}"));
                if best != m.pos {
                    line.push_str(&format!("/{},{}", best.x(), best.y()));
                }
            }
        }
        line
    }

    /// Reads a line of [`Game::to_line`], checking that every move is legal.
    pub fn parse(line: &str) -> Result<Game, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 5 {
            return Err(format!("{} fields, fewer than 5", fields.len()));
        }
        let number = |i: usize, what: &str| {
            fields[i]
                .parse::<u64>()
                .map_err(|_| format!("{what} '{}' is not a number", fields[i]))
        };
        let seed = number(0, "seed")?;
        let index = number(1, "game index")?;
        let rule = u32::try_from(number(2, "rule")?)
            .ok()
            .and_then(Rule::from_protocol)
            .ok_or_else(|| format!("unknown rule {}", fields[2]))?;
        let size = BoardSize::square(number(3, "board width")? as usize)?;
        let black_result = match fields[4] {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(format!("result '{other}' is not 1, 0.5 or 0")),
        };
        let mut board = Board::new(size, rule);
        let mut moves = Vec::with_capacity(fields.len() - 5);
        for word in &fields[5..] {
            let mut parts = word.split('/');
            let pos = parse_point(parts.next().unwrap_or(""), size)?;
            let searched = match parts.next() {
                None => None,
                Some(score) => {
                    let score = score
                        .parse::<i32>()
                        .map_err(|_| format!("score '{score}' is not a number"))?;
                    let best = match parts.next() {
                        Some(best) => parse_point(best, size)?,
                        None => pos,
                    };
                    Some((score, best))
                }
            };
            if parts.next().is_some() {
                return Err(format!("move '{word}' has too many parts"));
            }
            if !board.is_empty(pos) {
                return Err(format!("move '{word}' is on a taken point"));
            }
            board.play(pos, board.side_to_move());
            moves.push(Move { pos, searched });
        }
        Ok(Game {
            seed,
            index,
            rule,
            size,
            black_result,
            moves,
        })
    }
}

fn parse_point(text: &str, size: BoardSize) -> Result<Pos, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("point '{text}' is not x,y"))?;
    let coordinate = |v: &str| {
        v.parse::<i64>()
            .map_err(|_| format!("point '{text}' is not x,y"))
    };
    size.pos(coordinate(x)?, coordinate(y)?)
        .ok_or_else(|| format!("point '{text}' is off the board"))
}

/// Reads a data file's games (comments and blank lines skipped), naming the line of an error.
pub fn read(text: &str) -> Result<Vec<Game>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| Game::parse(line).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// The games of several files, each (seed, index) once: what `quinto-selfplay merge` keeps.
pub fn merge(files: Vec<Vec<Game>>) -> (Vec<Game>, usize) {
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let mut repeats = 0;
    for game in files.into_iter().flatten() {
        if seen.insert((game.seed, game.index)) {
            kept.push(game);
        } else {
            repeats += 1;
        }
    }
    kept.sort_by_key(|g| (g.seed, g.index));
    (kept, repeats)
}

/// Plays game `index` of `seed`: the same game whenever it is played with the same config.
pub fn play(config: &Config, seed: u64, index: u64) -> Game {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03));
    let mut table = Table::with_bytes(config.table_bytes);
    let mut board = Board::new(config.size, config.rule);
    let mut moves = Vec::new();
    for attempt in 0..OPENING_TRIES {
        board = Board::new(config.size, config.rule);
        moves = random_opening(config, &mut board, &mut rng);
        let verdict = think(config, &mut board, &mut table, BALANCE_NODES, 1).score;
        if verdict.abs() <= config.balance_margin || attempt + 1 == OPENING_TRIES {
            break;
        }
    }
    let stone_limit = quinto::game::gomocup_stone_limit(config.rule, config.size);
    let opening = moves.len();
    let black_result = loop {
        let mover = board.side_to_move();
        let random = moves.len() < opening + config.random_moves && rng.below(2) == 0;
        let multipv = if random { RANDOM_CANDIDATES } else { 1 };
        let result = think(config, &mut board, &mut table, config.nodes, multipv);
        let best = match result.best {
            Some(best) => best,
            None => break 0.5,
        };
        let played = if random {
            let near: Vec<Pos> = result
                .ranked
                .iter()
                .filter(|&&(_, score)| score >= result.score - config.random_margin)
                .map(|&(pos, _)| pos)
                .collect();
            near.get(rng.below(near.len().max(1)))
                .copied()
                .unwrap_or(best)
        } else {
            best
        };
        moves.push(Move {
            pos: played,
            searched: Some((result.score, best)),
        });
        let verdict = judge_move(
            &mut board,
            played.x() as i64,
            played.y() as i64,
            mover,
            stone_limit,
        );
        let mover_result = match verdict {
            Verdict::Win => Some(1.0),
            Verdict::Draw => Some(0.5),
            Verdict::Continue if played == best && result.score > WIN_THRESHOLD => Some(1.0),
            Verdict::Continue if played == best && result.score < -WIN_THRESHOLD => Some(0.0),
            Verdict::Continue => None,
            // The search never plays a taken, off-board or forbidden point; were it to, the
            // mover loses as a referee would rule.
            _ => Some(0.0),
        };
        if let Some(r) = mover_result {
            break if mover == Color::Black { r } else { 1.0 - r };
        }
    };
    Game::of(config, seed, index, black_result, moves)
}

/// Replays a recorded game (one played by other engines, say) as game `index` of `seed`:
/// its moves stay the record's, and before each the search says what it would score and
/// play, as in [`play`]'s games, so that other players' games become training data.
/// `None` for a record of another rule or size than `config`'s, one not decided on the
/// board, or one with a move on a taken point.
pub fn replay(config: &Config, record: &Record, seed: u64, index: u64) -> Option<Game> {
    let mut table = Table::with_bytes(config.table_bytes);
    let searched = replay_with(config, record, seed, index, |board, _| {
        let result = think(config, board, &mut table, config.nodes, 1);
        Ok(result.best.map(|best| (result.score, best)))
    });
    searched.ok().flatten()
}

/// [`replay`] with another judge of the positions: `label` gets the board and the moves
/// that led to it and gives the score for the mover and the best move, or `None` to leave
/// the position unsearched (a teacher asked about some positions only); its error ends the
/// replay.
pub fn replay_with(
    config: &Config,
    record: &Record,
    seed: u64,
    index: u64,
    mut label: impl FnMut(&mut Board, &[Pos]) -> Result<Option<(i32, Pos)>, String>,
) -> Result<Option<Game>, String> {
    if record.rule != Some(config.rule) || record.size != config.size {
        return Ok(None);
    }
    let black_result = match black_result(record) {
        Some(result) => result,
        None => return Ok(None),
    };
    let mut board = Board::new(config.size, config.rule);
    let mut played = Vec::with_capacity(record.moves.len());
    let mut moves = Vec::with_capacity(record.moves.len());
    for &(pos, _) in &record.moves {
        if !board.is_empty(pos) {
            return Ok(None);
        }
        let searched = label(&mut board, &played)?;
        moves.push(Move { pos, searched });
        board.play(pos, board.side_to_move());
        played.push(pos);
    }
    Ok(Some(Game::of(config, seed, index, black_result, moves)))
}

/// A teacher engine's evaluation (its units, `scale` of them a logistic unit; a mate
/// ±`mate`) as a score in Quinto's units: the network's targets read scores as
/// `sigmoid(score / K)`, so the teacher's win probability carries over; a mate becomes a
/// proven score (beyond `WIN_THRESHOLD`), which training leaves out as it does Quinto's.
pub fn teacher_score(ev: i64, scale: f64, mate: i64) -> i32 {
    if ev.abs() >= mate {
        return if ev > 0 { WIN - 1 } else { 1 - WIN };
    }
    let limit = f64::from(WIN_THRESHOLD - 1);
    (ev as f64 * K / scale).round().clamp(-limit, limit) as i32
}

/// A fresh search of `nodes` nodes, single-threaded, with `config`'s evaluation.
fn think(
    config: &Config,
    board: &mut Board,
    table: &mut Table,
    nodes: u64,
    multipv: usize,
) -> SearchResult {
    table.clear();
    let limits = Limits {
        max_nodes: Some(nodes),
        multipv,
        threads: 1,
        eval: config.eval,
        ..Limits::default()
    };
    search(board, table, &limits, &Stop::new(), &mut Silent)
}

/// A few stones near the centre, colours alternating from black.
fn random_opening(config: &Config, board: &mut Board, rng: &mut Rng) -> Vec<Move> {
    let (least, most) = config.opening_stones;
    let count = least + rng.below(most - least + 1);
    let centre = config.size.center();
    let r = config.opening_radius as i64;
    let mut moves = Vec::new();
    while moves.len() < count {
        let x = centre.x() as i64 + rng.below(2 * r as usize + 1) as i64 - r;
        let y = centre.y() as i64 + rng.below(2 * r as usize + 1) as i64 - r;
        let pos = match config.size.pos(x, y) {
            Some(pos) if board.is_empty(pos) => pos,
            _ => continue,
        };
        let color = board.side_to_move();
        if board.rule().has_forbidden(color) && board.is_forbidden(pos, color) {
            continue;
        }
        board.play(pos, color);
        if board.makes_five(pos, color) {
            board.undo();
            continue;
        }
        moves.push(Move {
            pos,
            searched: None,
        });
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(rule: Rule) -> Config {
        Config {
            rule,
            size: BoardSize::square(15).unwrap(),
            nodes: 300,
            opening_stones: (2, 4),
            opening_radius: 3,
            balance_margin: 150,
            random_moves: 6,
            random_margin: 60,
            table_bytes: 1 << 20,
            eval: EvalKind::Classical,
        }
    }

    #[test]
    fn a_game_is_the_same_every_time_and_its_line_reads_back() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let first = play(&config(rule), 7, 3);
            assert_eq!(first, play(&config(rule), 7, 3), "{rule:?}");
            assert_ne!(first.moves, play(&config(rule), 7, 4).moves);
            assert_eq!(Game::parse(&first.to_line()), Ok(first.clone()));
            assert!(first.moves.iter().filter(|m| m.searched.is_none()).count() >= 2);
        }
    }

    #[test]
    fn damaged_lines_are_refused_with_a_reason() {
        let good = "5\t1\t0\t15\t1\t7,7\t8,8/12\t9,9/-40/1,1";
        assert!(Game::parse(good).is_ok());
        for (bad, why) in [
            ("5\t1\t0\t15", "fields"),
            ("5\t1\t3\t15\t1", "rule"),
            ("5\t1\t0\t15\t2", "result"),
            ("5\t1\t0\t15\t1\t7,7\t7,7/3", "taken"),
            ("5\t1\t0\t15\t1\t7,99", "off the board"),
            ("5\t1\t0\t15\t1\t7,7/x", "score"),
            ("5\t1\t0\t15\t1\t7,7/1/2,2/3", "too many"),
        ] {
            let err = Game::parse(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert!(read(&format!("# c\n{good}\nnot a game\n"))
            .unwrap_err()
            .starts_with("line 3"));
    }

    #[test]
    fn a_teachers_evaluation_keeps_its_win_probability_on_quintos_scale() {
        // 200 units a logistic unit for the teacher, K (150) for Quinto.
        assert_eq!(teacher_score(200, 200.0, 30_000), 150);
        assert_eq!(teacher_score(-41, 200.0, 30_000), -31);
        assert_eq!(teacher_score(0, 200.0, 30_000), 0);
        // Mates become proven scores, which training leaves out; no ordinary value is one.
        assert!(teacher_score(30_000, 200.0, 30_000) > WIN_THRESHOLD);
        assert!(teacher_score(-30_000, 200.0, 30_000) < -WIN_THRESHOLD);
        assert!(teacher_score(29_999, 1.0, 30_000) < WIN_THRESHOLD);
    }

    #[test]
    fn a_replayed_record_keeps_its_moves_and_result_and_gets_the_same_searches() {
        let plain = Config {
            random_moves: 0,
            ..config(Rule::Freestyle)
        };
        let game = play(&plain, 9, 1);
        let result = if game.black_result > 0.75 {
            "1-0 five:"
        } else if game.black_result < 0.25 {
            "0-1 five:"
        } else {
            "1/2-1/2 full-board:"
        };
        let mut record = Record {
            size: plain.size,
            moves: game.moves.iter().map(|m| (m.pos, 0)).collect(),
            black: "a".into(),
            white: "b".into(),
            result: result.into(),
            rule: Some(Rule::Freestyle),
        };
        let replayed = replay(&plain, &record, 4, 2).expect("a decided record replays");
        assert_eq!((replayed.seed, replayed.index), (4, 2));
        assert_eq!(replayed.black_result, game.black_result);
        assert_eq!(replayed.moves.len(), game.moves.len());
        for (new, old) in replayed.moves.iter().zip(&game.moves) {
            assert_eq!(new.pos, old.pos);
            assert!(new.searched.is_some());
            if old.searched.is_some() {
                assert_eq!(new.searched, old.searched);
            }
        }
        assert_eq!(replay(&config(Rule::Renju), &record, 4, 2), None);
        record.result = "0-1 timeout:".into();
        assert_eq!(replay(&plain, &record, 4, 2), None);
        record.result = result.into();
        record.moves.push(record.moves[0]);
        assert_eq!(replay(&plain, &record, 4, 2), None);
    }

    #[test]
    fn merging_keeps_each_game_once() {
        let a = play(&config(Rule::Freestyle), 1, 0);
        let b = play(&config(Rule::Freestyle), 2, 0);
        let (kept, repeats) = merge(vec![vec![b.clone(), a.clone()], vec![a.clone()]]);
        assert_eq!((kept, repeats), (vec![a, b], 1));
    }
}
