//! `quinto-policy`: fits the move-ordering tables of `src/search/ordering_tables.rs`
//! (`ORDERING` or `RENJU_ORDERING`: shape pair, point code and nearness values) to the moves
//! of recorded games: a softmax over each position's candidates, the ordering score as the
//! logit, the move played as the target. The search orders, prunes and reduces by these
//! scores, so a move a full search chooses should score high.

use quinto::game::{point_code, Board, Color, Pos, Rule, Shape, POINT_CODES, SHAPE_KINDS};
use quinto::record::Record;
use quinto::search::params::{OrderingTables, NEAR_DISTANCES, RENJU_ORDERING};
use quinto_match::tuning::record_files;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: quinto-policy --games DIR [--games DIR]... [options]

Replays every .psq record of the --rule's family under the DIRs and takes, from the --min-stones-th stone on, each
position where neither side has a five point and the mover faces no open three (there the
search restricts the moves anyway) with the move played in it; fits the ordering tables by
full-batch Adam on the cross-entropy of a softmax over the candidates (logit: the ordering
score / --temperature), starting from the family's tables compiled in (renju has its own;
freestyle, standard and caro share one); every tenth game is held out.
Prints the tables as Rust source, with the held-out loss and how often the move played
ranks first and in the first three, before and after.

  --games DIR        a directory of records, searched recursively (repeatable)
  --rule N           the protocol rule whose tables to fit (default 0, freestyle)
  --player NAME      only the moves of this player (its name in the records)
  --min-stones N     the first stone count to take positions from (default 4)
  --iterations N     Adam steps (default 400)
  --learning-rate R  Adam step size in ordering units (default 4)
  --temperature T    ordering units per logit unit (default 100)";

/// Weights: the (attack, defence) shape pairs, row by row, the mover's point codes, the
/// opponent's, the distances from the opponent's last stone and from the mover's, and a last
/// one that stays 0 (the distance of a move with no stone before it).
const CODES: usize = SHAPE_KINDS * SHAPE_KINDS;
const NEAR: usize = CODES + 2 * POINT_CODES;
const ABSENT: usize = NEAR + 2 * NEAR_DISTANCES;
const WEIGHTS: usize = ABSENT + 1;
/// The pairs whose move makes one of these shapes keep their weights: a five (never a sample:
/// positions with five points are left out) and renju's forbidden points (never legal); so
/// do the pairs whose move takes the opponent's five (never a sample either).
const FIXED_SHAPES: [Shape; 2] = [Shape::Five, Shape::Forbidden];

/// One candidate: the indices of its active weights (its shape pair, the point's code for
/// each side, two distances).
type Candidate = [u16; 5];

struct Position {
    candidates: Vec<Candidate>,
    played: usize,
    held_out: bool,
}

struct Options {
    dirs: Vec<PathBuf>,
    player: Option<String>,
    rule: Rule,
    min_stones: usize,
    iterations: usize,
    learning_rate: f64,
    temperature: f64,
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1).collect()).and_then(|o| run(&o)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("quinto-policy: {why}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: Vec<String>) -> Result<Options, String> {
    let mut options = Options {
        dirs: Vec::new(),
        player: None,
        rule: Rule::Freestyle,
        min_stones: 4,
        iterations: 400,
        learning_rate: 4.0,
        temperature: 100.0,
    };
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
        let number = |text: String| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or(format!("{flag}: not a positive number: {text}"))
        };
        let count = |text: String| {
            text.parse::<usize>()
                .map_err(|_| format!("{flag}: not a whole number: {text}"))
        };
        match flag.as_str() {
            "--games" => options.dirs.push(PathBuf::from(value()?)),
            "--player" => options.player = Some(value()?),
            "--rule" => {
                let text = value()?;
                options.rule = text
                    .parse::<u32>()
                    .ok()
                    .and_then(Rule::from_protocol)
                    .ok_or(format!("--rule: no such rule: {text}"))?;
            }
            "--min-stones" => options.min_stones = count(value()?)?,
            "--iterations" => options.iterations = count(value()?)?,
            "--learning-rate" => options.learning_rate = number(value()?)?,
            "--temperature" => options.temperature = number(value()?)?,
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    if options.dirs.is_empty() {
        return Err(format!("no --games\n{USAGE}"));
    }
    Ok(options)
}

fn run(options: &Options) -> Result<(), String> {
    let files = record_files(&options.dirs)?;
    let mut positions = Vec::new();
    let mut games = 0;
    for path in &files {
        let record = Record::read(path)?;
        if record.rule.map(OrderingTables::for_rule) == Some(OrderingTables::for_rule(options.rule))
        {
            game_positions(&record, options, games % 10 == 9, &mut positions);
            games += 1;
        }
    }
    let held = positions.iter().filter(|p| p.held_out).count();
    println!(
        "// {games} of {} records of the rule's family, {} positions ({held} held out)",
        files.len(),
        positions.len()
    );
    let tables = OrderingTables::for_rule(options.rule);
    let start = compiled_weights(tables);
    report("compiled", &positions, &start, options.temperature);
    let fitted = fit(&positions, &start, options);
    report("fitted", &positions, &fitted, options.temperature);
    print_tables(tables_name(tables), &fitted);
    Ok(())
}

/// The samples of one game (none when its rule is unknown or a move cannot be replayed).
fn game_positions(record: &Record, options: &Options, held_out: bool, out: &mut Vec<Position>) {
    let rule = match record.rule {
        Some(rule) => rule,
        None => return,
    };
    let mut board = Board::new(record.size, rule);
    for (index, &(played, _)) in record.moves.iter().enumerate() {
        let me = board.side_to_move();
        if !board.is_empty(played) {
            return;
        }
        let name = if me == Color::Black {
            &record.black
        } else {
            &record.white
        };
        let wanted = options.player.as_ref().map_or(true, |p| p == name);
        let opponent = me.opponent();
        let quiet = !board.has_five_point(me)
            && !board.has_five_point(opponent)
            && !board.has_open_four_point(opponent);
        if wanted && quiet && index >= options.min_stones {
            let mut candidates = Vec::new();
            let mut played_index = None;
            for pos in board.candidates() {
                if board.is_forbidden(pos, me) {
                    continue;
                }
                if pos == played {
                    played_index = Some(candidates.len());
                }
                candidates.push(candidate(&board, pos, me));
            }
            if let Some(played) = played_index {
                out.push(Position {
                    candidates,
                    played,
                    held_out,
                });
            }
        }
        board.play(played, me);
    }
}

fn candidate(board: &Board, pos: Pos, me: Color) -> Candidate {
    let opponent = me.opponent();
    let [from_opponent, from_own] = OrderingTables::nearness(board, pos);
    [
        shape_pair(board.shape(pos, me), board.shape(pos, opponent)),
        CODES + point_code(board, pos, me),
        CODES + POINT_CODES + point_code(board, pos, opponent),
        from_opponent.map_or(ABSENT, |i| NEAR + i),
        from_own.map_or(ABSENT, |i| NEAR + NEAR_DISTANCES + i),
    ]
    .map(|i| i as u16)
}

/// The weight of the pair of shapes a move makes (`attack`) and takes (`defence`).
fn shape_pair(attack: Shape, defence: Shape) -> usize {
    attack as usize * SHAPE_KINDS + defence as usize
}

fn compiled_weights(tables: &OrderingTables) -> Vec<f64> {
    tables
        .shapes
        .iter()
        .flatten()
        .chain(tables.code_attack.iter())
        .chain(tables.code_defence.iter())
        .chain(tables.near_opponent.iter())
        .chain(tables.near_own.iter())
        .chain(&[0])
        .map(|&w| f64::from(w))
        .collect()
}

/// Whether a weight stays as compiled: the absent distance, and a pair with a fixed shape
/// made or a five taken.
fn is_fixed(index: usize) -> bool {
    let (attack, defence) = (index / SHAPE_KINDS, index % SHAPE_KINDS);
    index == ABSENT
        || index < CODES
            && (FIXED_SHAPES.iter().any(|&s| attack == s as usize)
                || defence == Shape::Five as usize)
}

fn score(c: &Candidate, weights: &[f64]) -> f64 {
    c.iter().map(|&i| weights[i as usize]).sum()
}

/// The softmax probabilities of a position's candidates.
fn probabilities(p: &Position, weights: &[f64], temperature: f64) -> Vec<f64> {
    let logits: Vec<f64> = p
        .candidates
        .iter()
        .map(|c| score(c, weights) / temperature)
        .collect();
    let top = logits.iter().cloned().fold(f64::MIN, f64::max);
    let exps: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

fn fit(positions: &[Position], start: &[f64], options: &Options) -> Vec<f64> {
    let mut weights = start.to_vec();
    let (mut m, mut v) = (vec![0.0; WEIGHTS], vec![0.0; WEIGHTS]);
    let (beta1, beta2) = (0.9, 0.999);
    let train: Vec<&Position> = positions.iter().filter(|p| !p.held_out).collect();
    for step in 1..=options.iterations {
        let mut gradient = vec![0.0; WEIGHTS];
        for p in &train {
            let probs = probabilities(p, &weights, options.temperature);
            for (k, c) in p.candidates.iter().enumerate() {
                let g = (probs[k] - f64::from(u8::from(k == p.played))) / options.temperature;
                for &i in c {
                    gradient[i as usize] += g;
                }
            }
        }
        for i in 0..WEIGHTS {
            if is_fixed(i) {
                continue;
            }
            let g = gradient[i] / train.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            weights[i] -= options.learning_rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    weights
}

/// Held-out loss, and how often the move played ranks first and in the first three by the
/// scores the search would use (the weights rounded), ties broken at random.
fn report(what: &str, positions: &[Position], weights: &[f64], temperature: f64) {
    let held: Vec<&Position> = positions.iter().filter(|p| p.held_out).collect();
    let rounded: Vec<f64> = weights.iter().map(|w| w.round()).collect();
    let (mut loss, mut first, mut top3) = (0.0, 0.0, 0.0);
    for p in &held {
        let probs = probabilities(p, weights, temperature);
        loss -= probs[p.played].max(1e-300).ln();
        let scores: Vec<f64> = p.candidates.iter().map(|c| score(c, &rounded)).collect();
        first += chance_of_rank_within(&scores, p.played, 1);
        top3 += chance_of_rank_within(&scores, p.played, 3);
    }
    let n = held.len().max(1) as f64;
    println!(
        "// {what}: held-out loss {:.4}, the move played first {:.1} %, in the first three {:.1} %",
        loss / n,
        100.0 * first / n,
        100.0 * top3 / n
    );
}

/// The chance that candidate `played` is among the first `places` when the candidates are
/// sorted by `scores`, best first, and ties fall at random.
fn chance_of_rank_within(scores: &[f64], played: usize, places: usize) -> f64 {
    let mine = scores[played];
    let better = scores.iter().filter(|&&s| s > mine).count();
    let tied = scores.iter().filter(|&&s| s == mine).count();
    (places.saturating_sub(better) as f64 / tied as f64).min(1.0)
}

/// The name of the constant in `src/search/ordering_tables.rs` that holds `tables`.
fn tables_name(tables: &OrderingTables) -> &'static str {
    if *tables == RENJU_ORDERING {
        "RENJU_ORDERING"
    } else {
        "ORDERING"
    }
}

fn print_tables(name: &str, weights: &[f64]) {
    let values = |from: usize, len: usize, per_line: usize, indent: &str| {
        let rows: Vec<String> = weights[from..from + len]
            .chunks(per_line)
            .map(|row| {
                let row: Vec<String> = row
                    .iter()
                    .map(|w| format!("{}", w.round() as i64))
                    .collect();
                row.join(", ")
            })
            .collect();
        rows.join(&format!(",\n{indent}"))
    };
    println!("#[rustfmt::skip]");
    println!("pub const {name}: OrderingTables = OrderingTables {{");
    println!("    shapes: [");
    for attack in 0..SHAPE_KINDS {
        println!(
            "        [{}],",
            values(attack * SHAPE_KINDS, SHAPE_KINDS, SHAPE_KINDS, "")
        );
    }
    println!("    ],");
    for (table, from) in [
        ("code_attack", CODES),
        ("code_defence", CODES + POINT_CODES),
    ] {
        println!(
            "    {table}: [\n        {},\n    ],",
            values(from, POINT_CODES, 16, "        ")
        );
    }
    for (table, from) in [("near_opponent", NEAR), ("near_own", NEAR + NEAR_DISTANCES)] {
        println!(
            "    {table}: [{}],",
            values(from, NEAR_DISTANCES, NEAR_DISTANCES, "")
        );
    }
    println!("}};");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions where the move played always makes an open three and the others nothing:
    /// the fit must learn to rank it first, from tables that rank it last.
    #[test]
    fn the_fit_learns_which_candidate_is_played() {
        let three = shape_pair(Shape::Three, Shape::None);
        let none = shape_pair(Shape::None, Shape::None);
        // Never played, but its weight is fixed.
        let blocks_five = shape_pair(Shape::None, Shape::Five);
        let plain =
            |pair: usize| [pair, CODES, CODES + POINT_CODES, NEAR, ABSENT].map(|i| i as u16);
        let positions: Vec<Position> = (0..40)
            .map(|k| Position {
                candidates: vec![plain(none), plain(blocks_five), plain(three), plain(none)],
                played: 2,
                held_out: k % 10 == 9,
            })
            .collect();
        let mut start = vec![0.0; WEIGHTS];
        start[three] = -300.0;
        let options = Options {
            dirs: Vec::new(),
            player: None,
            rule: Rule::Freestyle,
            min_stones: 4,
            iterations: 300,
            learning_rate: 4.0,
            temperature: 100.0,
        };
        let fitted = fit(&positions, &start, &options);
        assert!(fitted[three] > fitted[none] + 200.0, "{fitted:?}");
        let probs = probabilities(&positions[9], &fitted, 100.0);
        assert!(probs[2] > 0.9, "{probs:?}");
        // The fixed pairs are left alone.
        assert_eq!(fitted[blocks_five], 0.0);
        assert_eq!(fitted[ABSENT], 0.0);
    }

    /// A tie shares its places: a move tied with two others for first is first one time
    /// in three and in the first three always; one behind two better, tied with one, is
    /// third half the time.
    #[test]
    fn ties_share_their_places() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(
            chance_of_rank_within(&[5.0, 5.0, 5.0, 1.0], 1, 1),
            1.0 / 3.0
        ));
        assert!(close(
            chance_of_rank_within(&[5.0, 5.0, 5.0, 1.0], 1, 3),
            1.0
        ));
        assert!(close(
            chance_of_rank_within(&[9.0, 8.0, 5.0, 5.0], 3, 3),
            0.5
        ));
        assert!(close(
            chance_of_rank_within(&[9.0, 8.0, 7.0, 5.0], 3, 3),
            0.0
        ));
        assert!(close(chance_of_rank_within(&[1.0, 8.0], 1, 1), 1.0));
    }

    /// `--rule` picks the family whose tables are fitted and printed; unknown rules are refused.
    #[test]
    fn the_rule_picks_the_tables() {
        let args = |rule: &str| -> Vec<String> {
            ["--games", "dir", "--rule", rule]
                .iter()
                .map(|s| s.to_string())
                .collect()
        };
        let renju = parse(args("4")).expect("rule 4 parses");
        assert_eq!(renju.rule, Rule::Renju);
        assert_eq!(
            tables_name(OrderingTables::for_rule(renju.rule)),
            "RENJU_ORDERING"
        );
        let caro = parse(args("8")).expect("caro parses");
        assert_eq!(tables_name(OrderingTables::for_rule(caro.rule)), "ORDERING");
        assert!(parse(args("7")).is_err());
        assert!(parse(args("renju")).is_err());
    }

    /// The fit's model is the search's: with the compiled weights, every candidate of a
    /// position scores what the move ordering gives it.
    #[test]
    fn the_features_give_the_search_s_ordering_score() {
        use quinto::game::BoardSize;
        use quinto::search::params::ORDERING;
        let size = BoardSize::square(15).expect("a size");
        let mut board = Board::new(size, Rule::Freestyle);
        // Every distance valued apart, so that a wrong index shows.
        let tables = OrderingTables {
            near_opponent: [600, 500, 400, 300, 200, 100],
            near_own: [60, 50, 40, 30, 20, 10],
            ..ORDERING
        };
        let weights = compiled_weights(&tables);
        for text in [
            "h8", "i9", "j8", "i8", "i7", "j6", "g9", "h10", "k9", "a1", "o15",
        ] {
            let me = board.side_to_move();
            for pos in board.candidates() {
                let (attack, defence) = (board.shape(pos, me), board.shape(pos, me.opponent()));
                let expected = tables.score(&board, pos, me, attack, defence);
                assert_eq!(
                    score(&candidate(&board, pos, me), &weights),
                    f64::from(expected)
                );
            }
            board.play(size.parse_human(text).expect("a point"), me);
        }
    }
}
