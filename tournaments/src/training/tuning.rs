//! Fitting the evaluation's weights to game results (a logistic, "Texel" fit): every quiet
//! position of the recorded games becomes (the evaluation's features, the result for the
//! side to move), and the weights are moved by Adam until `sigmoid(eval / K)` predicts the
//! results as well as it can (cross-entropy, with a little L2 pull towards zero). Positions
//! labelled by a teacher engine (`labels`) fit to its expectation instead, or to a blend of
//! it and the result.

use crate::training::labels::{quiet_positions, Label};
use quinto::eval::{
    evaluate_features, features, Features, Weights, COUNT_FEATURES, TABLES, THREAT_MASKS,
    WEIGHT_SCALE,
};
use quinto::game::Board;
use quinto::record::Record;
use std::collections::hash_map::{Entry, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The weight tables, in order (see `quinto::eval::table_index`).
pub const TABLE_NAMES: [&str; TABLES] = [
    "freestyle, black to move",
    "freestyle, white to move",
    "standard, black to move",
    "standard, white to move",
    "renju, black to move",
    "renju, white to move",
];

/// Evaluation units per logistic unit: an evaluation of `K` is a 73 % expectation.
pub const K: f64 = 150.0;

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Features,
    /// The result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    /// Which game it came from (in file order): every tenth game is held out of the fit.
    pub game: usize,
    /// The position itself (stones, board size): the same position met again is one sample.
    pub position: PositionKey,
}

/// What makes two samples the same position: the board's hash, its width and height.
pub type PositionKey = (u64, usize, usize);

fn position_key(board: &Board) -> PositionKey {
    let size = board.size();
    (board.hash(), size.width(), size.height())
}

impl Sample {
    /// Every tenth game is held out of the fit.
    pub fn held_out(&self) -> bool {
        self.game % 10 == 9
    }
}

/// What was read.
#[derive(Clone, Debug, Default)]
pub struct DataSummary {
    pub files: usize,
    pub games: usize,
    /// Records left out: no rule line, or a game decided by a fault (timeout, crash, …).
    pub skipped_games: usize,
    pub positions: usize,
}

/// Every `.psq` file under `dirs`, sorted (so a fit is reproducible).
pub fn record_files(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = dirs.to_vec();
    while let Some(dir) = pending.pop() {
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().map_or(false, |e| e == "psq") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The quiet positions of the games in `files`, from the `min_stones`-th stone on: no five
/// point for either side (the result is then not a matter of one move).
pub fn samples(files: &[PathBuf], min_stones: usize) -> Result<(Vec<Sample>, DataSummary), String> {
    let mut summary = DataSummary {
        files: files.len(),
        ..DataSummary::default()
    };
    let mut samples = Vec::new();
    for path in files {
        let record = Record::read(path)?;
        match game_samples(&record, min_stones) {
            Some(mut game) => {
                for sample in &mut game {
                    sample.game = summary.games;
                }
                summary.games += 1;
                samples.append(&mut game);
            }
            None => summary.skipped_games += 1,
        }
    }
    summary.positions = samples.len();
    Ok((samples, summary))
}

fn game_samples(record: &Record, min_stones: usize) -> Option<Vec<Sample>> {
    let mut samples = Vec::new();
    let complete = quiet_positions(record, min_stones, |board, _, result| {
        samples.push(Sample {
            features: features(board, board.side_to_move()),
            result,
            game: 0,
            position: position_key(board),
        })
    });
    complete.then_some(samples)
}

/// Samples from teacher labels: the target for the side to move is `teacher_weight` times
/// the teacher's expectation, `sigmoid(ev / teacher_scale)`, plus the rest times the game's
/// result.
pub fn label_samples(
    labels: &[Label],
    teacher_scale: f64,
    teacher_weight: f64,
) -> Result<Vec<Sample>, String> {
    labels
        .iter()
        .map(|label| {
            let p = &label.position;
            let board = p.board()?;
            let teacher = sigmoid(label.ev as f64 / teacher_scale);
            Ok(Sample {
                features: features(&board, board.side_to_move()),
                result: teacher_weight * teacher + (1.0 - teacher_weight) * p.result,
                game: p.game,
                position: position_key(&board),
            })
        })
        .collect()
}

/// One sample per position (and table): a position met in several games or label files
/// keeps the first one's features and game, and the mean of their targets. Without this,
/// repeated games weigh their positions many times over, and a held-out game that repeats a
/// fitted one measures memory, not generalisation. Returns the samples and how many were merged.
pub fn merge_duplicates(samples: Vec<Sample>) -> (Vec<Sample>, usize) {
    let total = samples.len();
    let mut first: HashMap<(PositionKey, usize), usize> = HashMap::new();
    let mut merged: Vec<(Sample, usize)> = Vec::new();
    for sample in samples {
        match first.entry((sample.position, sample.features.table)) {
            Entry::Occupied(at) => {
                let (kept, count) = &mut merged[*at.get()];
                kept.result += sample.result;
                *count += 1;
            }
            Entry::Vacant(slot) => {
                slot.insert(merged.len());
                merged.push((sample, 1));
            }
        }
    }
    let distinct = merged.len();
    let samples = merged
        .into_iter()
        .map(|(mut sample, count)| {
            sample.result /= count as f64;
            sample
        })
        .collect();
    (samples, total - distinct)
}

/// How a fit went for one table.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub table: usize,
    /// Positions fitted to, and held out.
    pub positions: usize,
    pub held_out: usize,
    /// Cross-entropy on the fitted positions before and after, and on the held-out ones.
    pub loss_before: f64,
    pub loss_after: f64,
    pub held_out_before: f64,
    pub held_out_after: f64,
}

/// Fitting options (in evaluation units).
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    pub iterations: usize,
    pub learning_rate: f64,
    /// L2 pull towards zero, per weight and position.
    pub l2: f64,
    /// How far along the fitted change the written weights go: 1 is the fit, 0 the start,
    /// −1 as far from the start the other way.
    pub step: f64,
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of predicting `p` where the target is `target` (both in 0..=1; `p` kept
/// off 0 and 1): the loss every fit here measures, the linear one and the network's alike.
pub fn cross_entropy(target: f64, p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// Mean cross-entropy of `weights` on `samples`.
pub fn loss(samples: &[&Sample], weights: &Weights) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(evaluate_features(&s.features, weights) as f64 / K);
            cross_entropy(s.result, p)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits `start` to `samples` (all of one table), stopping early: every `CHECK_EVERY` steps the
/// loss on the `held` positions is measured, and the weights where it was lowest are kept.
pub fn fit(samples: &[&Sample], held: &[&Sample], start: &Weights, options: FitOptions) -> Weights {
    const CHECK_EVERY: usize = 100;
    let params = COUNT_FEATURES + THREAT_MASKS;
    let mut w: Vec<f64> = start
        .counts
        .iter()
        .chain(start.threat.iter())
        .map(|&v| v as f64 / WEIGHT_SCALE as f64)
        .collect();
    let (mut m, mut v) = (vec![0.0; params], vec![0.0; params]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let n = samples.len().max(1) as f64;
    let mut best = (loss(held, start), start.clone());
    for step in 1..=options.iterations {
        let mut grad = vec![0.0; params];
        for s in samples {
            let f = &s.features;
            let linear: f64 = f
                .counts
                .iter()
                .zip(&w[..COUNT_FEATURES])
                .map(|(&c, &wi)| c as f64 * wi)
                .sum::<f64>()
                + w[COUNT_FEATURES + f.threat_mask];
            // d(cross-entropy)/d(eval) = (p - y) / K.
            let g = (sigmoid(linear / K) - s.result) / K;
            for (gi, &c) in grad.iter_mut().zip(f.counts.iter()) {
                *gi += g * c as f64;
            }
            grad[COUNT_FEATURES + f.threat_mask] += g;
        }
        for i in 0..params {
            let gi = grad[i] / n + options.l2 * w[i];
            m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
            v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            w[i] -= options.learning_rate * m_hat / (v_hat.sqrt() + eps);
        }
        if step % CHECK_EVERY == 0 || step == options.iterations {
            let current = to_weights(&w, start);
            let held_loss = if held.is_empty() {
                -(step as f64)
            } else {
                loss(held, &current)
            };
            if held_loss < best.0 {
                best = (held_loss, current);
            }
        }
    }
    best.1
}

/// Weights from the fitted values in evaluation units.
fn to_weights(w: &[f64], start: &Weights) -> Weights {
    let mut fitted = start.clone();
    for (i, c) in fitted.counts.iter_mut().enumerate() {
        *c = (w[i] * WEIGHT_SCALE as f64).round() as i32;
    }
    for (i, t) in fitted.threat.iter_mut().enumerate() {
        *t = (w[COUNT_FEATURES + i] * WEIGHT_SCALE as f64).round() as i32;
    }
    fitted
}

/// Fits every table that has samples; the others keep their weights.
pub fn fit_all(
    samples: &[Sample],
    start: &[Weights; TABLES],
    options: FitOptions,
) -> (Vec<Weights>, Vec<FitReport>) {
    let mut tables = start.to_vec();
    let mut reports = Vec::new();
    for (table, weights) in tables.iter_mut().enumerate() {
        let (held, fitted): (Vec<&Sample>, Vec<&Sample>) = samples
            .iter()
            .filter(|s| s.features.table == table)
            .partition(|s| s.held_out());
        if fitted.is_empty() {
            continue;
        }
        let (before, held_before) = (loss(&fitted, weights), loss(&held, weights));
        *weights = step_along(
            weights,
            &fit(&fitted, &held, weights, options),
            options.step,
        );
        reports.push(FitReport {
            table,
            positions: fitted.len(),
            held_out: held.len(),
            loss_before: before,
            loss_after: loss(&fitted, weights),
            held_out_before: held_before,
            held_out_after: loss(&held, weights),
        });
    }
    (tables, reports)
}

/// `start + step · (fitted − start)`, weight by weight (counts, then threats), rounded.
fn step_along(start: &Weights, fitted: &Weights, step: f64) -> Weights {
    let mut stepped = start.clone();
    let pairs = start
        .counts
        .iter()
        .chain(&start.threat)
        .zip(fitted.counts.iter().chain(&fitted.threat));
    for (w, (&from, &to)) in stepped
        .counts
        .iter_mut()
        .chain(stepped.threat.iter_mut())
        .zip(pairs)
    {
        *w = from.saturating_add((step * (f64::from(to) - f64::from(from))).round() as i32);
    }
    stepped
}

/// The text of `src/eval/weights.rs` for these tables, with `source` lines (what was fitted
/// to, how) in its header.
pub fn weights_source(tables: &[Weights], source: &[String]) -> String {
    let mut out = String::from(
        "//! The evaluation's weights. Written by `quinto-tune` (tournaments/tuning/README.md says how\n\
         //! to make them again); edit the tuner or its data, not this file.\n//!\n",
    );
    for line in source {
        let _ = writeln!(out, "{}", format!("//! {line}").trim_end());
    }
    out.push_str(
        "\nuse super::{Weights, TABLES as TABLE_COUNT};\n\n\
         /// Per table (see `table_index`): freestyle, standard, renju; each with black to move, then\n\
         /// white to move.\n#[rustfmt::skip]\npub static TABLES: [Weights; TABLE_COUNT] = [\n",
    );
    let names = TABLE_NAMES;
    for (table, name) in tables.iter().zip(names) {
        let _ = writeln!(out, "    // {name}\n    Weights {{\n        counts: [");
        write_numbers(&mut out, &table.counts, 12);
        out.push_str("        ],\n        threat: [\n");
        write_numbers(&mut out, &table.threat, 16);
        out.push_str("        ],\n    },\n");
    }
    out.push_str("];\n");
    out
}

fn write_numbers(out: &mut String, values: &[i32], per_line: usize) {
    for chunk in values.chunks(per_line) {
        let line: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(out, "            {},", line.join(", "));
    }
}

/// A path shown relative to `base` when it lies below it.
pub fn shown(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use quinto::eval::weights;
    use quinto::game::{BoardSize, Pos, Rule};

    /// Black plays h8-l8 in a row while white wastes moves on the edge: five on move 9.
    pub(crate) const BLACK_FIVE_IN_A_ROW: [(usize, usize); 9] = [
        (7, 7),
        (0, 0),
        (8, 7),
        (0, 2),
        (9, 7),
        (0, 4),
        (10, 7),
        (0, 6),
        (11, 7),
    ];

    pub(crate) fn record(moves: &[(usize, usize)], result: &str) -> Record {
        Record {
            size: BoardSize::square(15).unwrap(),
            moves: moves.iter().map(|&(x, y)| (Pos::new(x, y), 0)).collect(),
            black: "a".into(),
            white: "b".into(),
            result: result.into(),
            rule: Some(Rule::Freestyle),
        }
    }

    #[test]
    fn positions_carry_the_result_for_the_side_to_move_and_faults_are_skipped() {
        let won = record(&BLACK_FIVE_IN_A_ROW, "1-0 five: black made five");
        let samples = game_samples(&won, 0).unwrap();
        // Quiet positions: before the four (b), i.e. 7 of the 9; the last two have a five point.
        assert_eq!(samples.len(), 7);
        assert_eq!(samples[0].result, 1.0);
        assert_eq!(samples[1].result, 0.0);
        assert!(game_samples(
            &record(&BLACK_FIVE_IN_A_ROW, "0-1 timeout: black: no move"),
            0
        )
        .is_none());
        let no_rule = Record { rule: None, ..won };
        assert!(game_samples(&no_rule, 0).is_none());
    }

    #[test]
    fn labelled_positions_fit_to_the_teacher_blended_with_the_result() {
        let won = record(&BLACK_FIVE_IN_A_ROW, "1-0 five: black made five");
        let labels: Vec<Label> =
            crate::training::labels::positions(std::slice::from_ref(&won), 0, 1)
                .into_iter()
                .map(|position| Label { position, ev: 200 })
                .collect();
        let teacher = label_samples(&labels, 200.0, 1.0).unwrap();
        assert!((teacher[1].result - sigmoid(1.0)).abs() < 1e-12);
        let blend = label_samples(&labels, 200.0, 0.5).unwrap();
        // White to move lost the game: half the teacher's 73 %, half nothing.
        assert!((blend[1].result - sigmoid(1.0) / 2.0).abs() < 1e-12);
        assert_eq!(
            blend[1].features,
            game_samples(&won, 0).unwrap()[1].features
        );
        let mut bad = labels[1].clone();
        bad.position.moves.push(bad.position.moves[0]);
        assert!(label_samples(&[bad], 200.0, 1.0).is_err());
    }

    #[test]
    fn a_repeated_position_is_one_sample_with_the_mean_target() {
        let won = game_samples(&record(&BLACK_FIVE_IN_A_ROW, "1-0 five: x"), 0).unwrap();
        let mut lost = game_samples(&record(&BLACK_FIVE_IN_A_ROW, "0-1 five: x"), 0).unwrap();
        for sample in &mut lost {
            sample.game = 9;
        }
        let (merged, repeats) = merge_duplicates(won.iter().chain(&lost).cloned().collect());
        assert_eq!((merged.len(), repeats), (won.len(), won.len()));
        for (kept, first) in merged.iter().zip(&won) {
            // The first game's features and game number (so not held out), the mean result.
            assert_eq!((kept.game, &kept.features), (0, &first.features));
            assert_eq!(kept.result, 0.5);
        }
        // Different positions stay apart.
        let (apart, none) = merge_duplicates(won.clone());
        assert_eq!((apart.len(), none), (won.len(), 0));
    }

    #[test]
    fn a_fit_lowers_the_loss_and_the_source_has_every_weight() {
        let samples = game_samples(&record(&BLACK_FIVE_IN_A_ROW, "1-0 five: x"), 0).unwrap();
        let start = weights::TABLES.clone();
        let options = FitOptions {
            iterations: 50,
            learning_rate: 1.0,
            l2: 0.0,
            step: 1.0,
        };
        let (tables, reports) = fit_all(&samples, &start, options);
        assert_eq!(reports.len(), 2, "black to move and white to move");
        for r in &reports {
            assert!(r.loss_after < r.loss_before, "{reports:?}");
        }
        let text = weights_source(&tables, &["test".into()]);
        assert!(text.contains("//! test"));
        let numbers = text.matches(',').count();
        assert!(numbers >= TABLES * (COUNT_FEATURES + THREAT_MASKS));
    }

    #[test]
    fn a_step_scales_the_fitted_change() {
        let samples = game_samples(&record(&BLACK_FIVE_IN_A_ROW, "1-0 five: x"), 0).unwrap();
        let start = weights::TABLES.clone();
        let with_step = |step| {
            let options = FitOptions {
                iterations: 50,
                learning_rate: 1.0,
                l2: 0.0,
                step,
            };
            fit_all(&samples, &start, options).0
        };
        let (fitted, none, back) = (with_step(1.0), with_step(0.0), with_step(-1.0));
        assert_eq!(none, start.to_vec());
        assert_ne!(fitted, none);
        let all = |w: &Weights| {
            w.counts
                .iter()
                .chain(&w.threat)
                .copied()
                .collect::<Vec<_>>()
        };
        for ((s, f), b) in start.iter().zip(&fitted).zip(&back) {
            for ((s, f), b) in all(s).into_iter().zip(all(f)).zip(all(b)) {
                assert_eq!(b - s, s - f);
            }
        }
    }
}
