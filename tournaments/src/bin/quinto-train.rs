//! `quinto-train`: trains the evaluation network from self-play data (quinto-selfplay) and
//! writes the weight file the engine loads; prints the held-out loss beside that of the
//! linear evaluation refitted to the same positions.

use quinto::checksum::fnv1a;
use quinto::eval::net::features::LineFeatures;
use quinto::eval::net::{Network, VALUE_SCALE};
use quinto::eval::weights;
use quinto::eval::Weights;
use quinto::search::params::WIN_THRESHOLD;
use quinto_match::netdata::{positions, Position};
use quinto_match::nettrain::{evaluate, train, Params, TrainOptions};
use quinto_match::selfplay::read;
use quinto_match::tool::{self, flag_pairs};
use quinto_match::tuning::{cross_entropy, fit_all, loss, sigmoid, FitOptions, TABLE_NAMES};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage: quinto-train --data FILE... --out FILE [options]

Reads self-play games (quinto-selfplay), takes every quiet position (no five point for
either side; no proven score, unless --proven-score) with the target
W x sigmoid(search score / 150) + (1 - W) x the game's result for the side to move, holds
every tenth game out, trains the network (Adam, cosine learning-rate decay) and writes its
int16 weights to FILE. Prints the held-out value loss of the float net, of the int16 net
the engine runs, and of the linear evaluation refitted to the same positions (quinto-tune's
fit, from the weights compiled in), in all and per board size; then a hash of the weight
file: the same data, seed and options give the same hash.

  --data FILE         self-play games (repeatable)
  --out FILE          the weight file to write
  --epochs N          passes over the data (6)
  --batch N           positions a step (256)
  --learning-rate R   Adam step size at the start (0.002)
  --policy-weight P   the policy's share of the loss (0.1)
  --score-weight W    the search score's share of the target (0.7)
  --proven-score S    a proven score (a forced win the search found) stands as ±S in
                      the target instead of leaving its position out
  --seed S            initial weights and shuffle (1)
  --init FILE         start from this weight file (a network to train further on new
                      data, the next generation) instead of random weights; its line
                      features and tables count, not --features and --tables, decide
  --threads N         (2; the result does not depend on it)
  --linear-iterations N   Adam steps of the linear refit (1000; 0 skips it)
  --tables 1|2        feature tables: 1 shared by both sides (freestyle), 2 where white
                      has its own (renju: black's lines mean other things) (1)
  --features window|renju   how the net reads a line: the window of four cells a side
                      (window), or the window with the renju patterns both sides would
                      make at the point, read on five cells a side (renju) (window)";

fn main() -> ExitCode {
    tool::main("quinto-train", USAGE, run)
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut data = Vec::new();
    let mut out = None;
    let mut options = TrainOptions {
        epochs: 6,
        batch: 256,
        learning_rate: 0.002,
        policy_weight: 0.1,
        seed: 1,
        threads: 2,
    };
    let mut score_weight = 0.7;
    let mut proven = None;
    let mut linear_iterations = 1000;
    let mut tables = 1;
    let mut features = LineFeatures::Window;
    let mut init = None;
    for (flag, value) in flag_pairs(args, USAGE)? {
        let number = |v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{flag}: not a number ≥ 0: {v}"))
        };
        match flag.as_str() {
            "--data" => data.push(PathBuf::from(value)),
            "--out" => out = Some(PathBuf::from(value)),
            "--init" => init = Some(PathBuf::from(value)),
            "--epochs" => options.epochs = number(&value)? as usize,
            "--batch" => options.batch = (number(&value)? as usize).max(1),
            "--learning-rate" => options.learning_rate = number(&value)? as f32,
            "--policy-weight" => options.policy_weight = number(&value)? as f32,
            "--score-weight" => score_weight = number(&value)?.min(1.0),
            "--proven-score" => {
                proven = Some(number(&value)?.min(WIN_THRESHOLD as f64 - 1.0) as i32)
            }
            "--seed" => options.seed = number(&value)? as u64,
            "--threads" => options.threads = (number(&value)? as usize).max(1),
            "--linear-iterations" => linear_iterations = number(&value)? as usize,
            "--tables" => {
                tables = match value.as_str() {
                    "1" => 1,
                    "2" => 2,
                    _ => return Err(format!("--tables is 1 or 2: {value}")),
                }
            }
            "--features" => {
                features = match value.as_str() {
                    "window" => LineFeatures::Window,
                    "renju" => LineFeatures::RenjuWindow,
                    _ => return Err(format!("--features is window or renju: {value}")),
                }
            }
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    let out = out.ok_or_else(|| format!("--out is required\n{USAGE}"))?;
    if data.is_empty() {
        return Err(format!("at least one --data FILE is required\n{USAGE}"));
    }
    let started = Instant::now();
    let start = match &init {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let net =
                Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            (features, tables) = (net.features, net.tables);
            println!(
                "starting from {} (weights hash {:016x})",
                path.display(),
                fnv1a(&bytes)
            );
            Params::from_network(&net)
        }
        None => Params::initial(options.seed, features, tables),
    };
    let mut games = Vec::new();
    for path in &data {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut more = read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{}: {} games", path.display(), more.len());
        games.append(&mut more);
    }
    let all = positions(&games, score_weight, proven, features, tables);
    let (held, fitted): (Vec<&Position>, Vec<&Position>) = all.iter().partition(|p| p.held_out());
    if fitted.is_empty() || held.is_empty() {
        return Err(format!(
            "too little data: {} positions to train on, {} held out",
            fitted.len(),
            held.len()
        ));
    }
    println!(
        "{} games, {} quiet positions: {} to train on, {} held out (every tenth game); read in {:.1} s",
        games.len(),
        all.len(),
        fitted.len(),
        held.len(),
        started.elapsed().as_secs_f64()
    );
    let linear = if linear_iterations > 0 {
        Some(linear_refit(&all, linear_iterations))
    } else {
        None
    };
    let before = evaluate(&start, &held);
    println!(
        "epoch 0: held-out value {:.4}, policy {:.3}",
        before.value, before.policy
    );
    let params = train(start, &fitted, options, |epoch, p| {
        let l = evaluate(p, &held);
        println!(
            "epoch {epoch}: held-out value {:.4}, policy {:.3} ({:.0} s)",
            l.value,
            l.policy,
            started.elapsed().as_secs_f64()
        );
    });
    let net = params.quantize();
    let float = evaluate(&params, &held);
    let (int16, entropy) = int16_loss(&net, &held);
    println!("held-out value cross-entropy ({} positions; the targets' own entropy, the floor, is {entropy:.4}):", held.len());
    println!("  network, f32:    {:.4}", float.value);
    println!("  network, int16:  {int16:.4} (what the engine runs)");
    if let Some(tables) = &linear {
        println!("  linear, refitted: {:.4}", linear_loss(tables, &held));
    }
    let mut by_size: BTreeMap<(usize, usize), Vec<&Position>> = BTreeMap::new();
    for p in &held {
        let (_, width, height) = p.linear.position;
        by_size.entry((width, height)).or_default().push(p);
    }
    for ((width, height), positions) in &by_size {
        let (loss, floor) = int16_loss(&net, positions);
        let refitted = match &linear {
            Some(tables) => format!(", linear refitted {:.4}", linear_loss(tables, positions)),
            None => String::new(),
        };
        println!(
            "  {width}x{height}: network, int16 {loss:.4}{refitted} (floor {floor:.4}, {} positions)",
            positions.len()
        );
    }
    println!("held-out policy cross-entropy: {:.3}", float.policy);
    let bytes = net.to_bytes();
    std::fs::write(&out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "wrote {} ({} bytes), weights hash {:016x}, in {:.0} s",
        out.display(),
        bytes.len(),
        fnv1a(&bytes),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The value cross-entropy of the int16 net the engine runs (its value rounded to evaluation
/// units) over `held`, and the targets' own entropy there (the floor).
fn int16_loss(net: &Network, held: &[&Position]) -> (f64, f64) {
    let count = held.len().max(1) as f64;
    let loss = held
        .iter()
        .map(|p| {
            let z = net.value_of_points(&p.points, p.black_to_move);
            let eval = (z * VALUE_SCALE).round() / VALUE_SCALE;
            cross_entropy(p.target, sigmoid(f64::from(eval)))
        })
        .sum::<f64>();
    let entropy = held
        .iter()
        .map(|p| {
            let t = p.target.clamp(1e-9, 1.0 - 1e-9);
            cross_entropy(t, t)
        })
        .sum::<f64>();
    (loss / count, entropy / count)
}

/// The linear evaluation's loss over `held` with the (refitted) `tables`.
fn linear_loss(tables: &[Weights], held: &[&Position]) -> f64 {
    let total: f64 = held
        .iter()
        .map(|p| loss(&[&p.linear], &tables[p.linear.features.table]))
        .sum();
    total / held.len().max(1) as f64
}

/// The linear evaluation's tables refitted to the same positions and targets (each table's
/// held-out loss before and after printed).
fn linear_refit(all: &[Position], iterations: usize) -> Vec<Weights> {
    let samples: Vec<_> = all.iter().map(|p| p.linear.clone()).collect();
    let options = FitOptions {
        iterations,
        learning_rate: 2.0,
        l2: 1e-7,
        step: 1.0,
    };
    let (tables, reports) = fit_all(&samples, &weights::TABLES, options);
    for r in &reports {
        println!(
            "linear refit, {}: {} positions, held-out {} {:.4} -> {:.4}",
            TABLE_NAMES[r.table], r.positions, r.held_out, r.held_out_before, r.held_out_after
        );
    }
    tables
}
