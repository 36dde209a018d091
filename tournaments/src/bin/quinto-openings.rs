//! `quinto-openings`: makes a balanced opening suite with a brain's help (see
//! tournaments/README.md and `--help`).

use quinto::game::Color;
use quinto::rng::Rng;
use quinto_match::args::parse_size;
use quinto_match::engine::EngineSpec;
use quinto_match::openings::Opening;
use quinto_match::suite::{self, Base, Evaluator, Shape};
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: quinto-openings --engine name=NAME,cmd=PATH[,arg=ARG]... --rule R --size N
                       --count C --out FILE [options]

Draws random opening positions near the centre (or extends base openings), asks the brain
for an evaluation of each (INFO show_detail 1 and a depth or node limit, then BOARD: the
brain prints `MESSAGE depth D ev SCORE ...` before its move), and keeps the --count
positions with the smallest |SCORE| (at most --threshold), most balanced first, one per line
with the evaluation as a comment. Mirror images of a position are drawn only once.

  --engine SPEC        the brain, as for quinto-match
  --rule R             0, 1, 4, 8 or 9 (default 0)
  --size N             board size (default 15)
  --count C            positions to keep (default 40)
  --candidates M       distinct positions to evaluate (default 5 x count)
  --stones MIN-MAX     stones in a fresh candidate (default 3-5), or added to a base
  --from FILE          base openings to extend: an opening file, or a TSV table with a
                       moves_alg column (e.g. the 26 canonical renju openings)
  --radius R           every new stone within R points of the centre (default 3)
  --centre-first       fresh candidates start with black on the centre (always for renju)
  --max-depth D        INFO max_depth D for each evaluation (default 8)
  --max-nodes N        INFO max_node N for each evaluation
  --think-ms T         INFO timeout_turn per evaluation (default 10000)
  --threshold EV       never keep |SCORE| > EV (default 150, in the brain's units)
  --tries N            give up after N draws (default 50 x candidates)
  --seed S             random seed (default 1)
  --title TEXT         a first comment line for the file
  --comment TEXT       one more comment line in the header (repeatable)
  --out FILE           the suite (overwritten)";

struct Options {
    engine: Option<EngineSpec>,
    rule: quinto::game::Rule,
    size: quinto::game::BoardSize,
    count: usize,
    candidates: Option<usize>,
    stones: (usize, usize),
    from: Option<PathBuf>,
    radius: i64,
    centre_first: bool,
    max_depth: Option<u64>,
    max_nodes: Option<u64>,
    think_ms: u64,
    threshold: i64,
    tries: Option<usize>,
    seed: u64,
    title: Option<String>,
    comments: Vec<String>,
    out: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        engine: None,
        rule: quinto::game::Rule::Freestyle,
        size: parse_size("15")?,
        count: 40,
        candidates: None,
        stones: (3, 5),
        from: None,
        radius: 3,
        centre_first: false,
        max_depth: None,
        max_nodes: None,
        think_ms: 10_000,
        threshold: 150,
        tries: None,
        seed: 1,
        title: None,
        comments: Vec::new(),
        out: None,
    };
    let mut i = 0;
    while i < args.len() {
        let key = args[i].clone();
        i += 1;
        if key == "-h" || key == "--help" {
            return Ok(None);
        }
        if key == "--centre-first" {
            o.centre_first = true;
            continue;
        }
        let value = args
            .get(i)
            .cloned()
            .ok_or_else(|| format!("{key} needs a value"))?;
        i += 1;
        let num = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{key} {v}: not a whole number"))
        };
        match key.as_str() {
            "--engine" => o.engine = Some(EngineSpec::parse(&value)?),
            "--rule" => {
                o.rule = value
                    .parse::<u32>()
                    .ok()
                    .and_then(quinto::game::Rule::from_protocol)
                    .ok_or_else(|| format!("--rule {value}: use 0, 1, 4, 8 or 9"))?
            }
            "--size" => o.size = parse_size(&value)?,
            "--count" => o.count = num(&value)? as usize,
            "--candidates" => o.candidates = Some(num(&value)? as usize),
            "--stones" => {
                let (lo, hi) = value.split_once('-').unwrap_or((&value, &value));
                let (lo, hi) = (num(lo)? as usize, num(hi)? as usize);
                if lo > hi || hi > 40 {
                    return Err(format!("--stones {value}: MIN-MAX with MIN <= MAX <= 40"));
                }
                o.stones = (lo, hi);
            }
            "--from" => o.from = Some(PathBuf::from(value)),
            "--radius" => o.radius = num(&value)? as i64,
            "--max-depth" => o.max_depth = Some(num(&value)?),
            "--max-nodes" => o.max_nodes = Some(num(&value)?),
            "--think-ms" => o.think_ms = num(&value)?,
            "--threshold" => o.threshold = num(&value)? as i64,
            "--tries" => o.tries = Some(num(&value)? as usize),
            "--seed" => o.seed = num(&value)?,
            "--title" => o.title = Some(value),
            "--comment" => o.comments.push(value),
            "--out" => o.out = Some(PathBuf::from(value)),
            other => return Err(format!("unknown option {other} (see --help)")),
        }
    }
    if o.max_depth.is_none() && o.max_nodes.is_none() {
        o.max_depth = Some(8);
    }
    Ok(Some(o))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let o = match parse(&args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("quinto-openings: {e}\n(quinto-openings --help for the options)");
            return ExitCode::from(2);
        }
    };
    let (engine, out) = match (&o.engine, &o.out) {
        (Some(e), Some(out)) => (e.clone(), out.clone()),
        _ => {
            eprintln!("quinto-openings: --engine and --out are required\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match generate(&o, &engine, &out, &args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quinto-openings: {e}");
            ExitCode::from(1)
        }
    }
}

fn generate(
    o: &Options,
    engine: &EngineSpec,
    out: &PathBuf,
    args: &[String],
) -> Result<(), String> {
    let bases: Vec<Base> = match &o.from {
        Some(path) => suite::read_bases(path, o.size, o.rule)?,
        None => Vec::new(),
    };
    let settings = suite::search_limits(o.max_depth, o.max_nodes);
    let log = std::env::temp_dir().join(format!("quinto-openings-{}.stderr", std::process::id()));
    let mut evaluator = Evaluator::start(engine, o.size, o.rule, settings, o.think_ms, &log)?;
    let shape = Shape {
        stones: o.stones,
        radius: o.radius,
        centre_first: o.centre_first || o.rule == quinto::game::Rule::Renju,
    };
    let mut rng = Rng::new(o.seed);
    let mut seen = HashSet::new();
    let mut evaluated: Vec<(Vec<quinto::game::Pos>, suite::Evaluation, String)> = Vec::new();
    let candidates = o.candidates.unwrap_or(5 * o.count).max(o.count);
    let tries = o.tries.unwrap_or(50 * candidates);
    for _ in 0..tries {
        if evaluated.len() >= candidates {
            break;
        }
        let base = (!bases.is_empty()).then(|| &bases[rng.below(bases.len())]);
        let moves = match suite::candidate(&mut rng, o.size, o.rule, base, &shape) {
            Some(m) => m,
            None => continue,
        };
        if !seen.insert(suite::canonical_key(&moves, o.size)) {
            continue;
        }
        let eval = evaluator.evaluate(&moves)?;
        let opening = Opening { line: 0, moves };
        eprintln!(
            "{:>4}/{}  {:<36} ev {:>+6} depth {}",
            evaluated.len() + 1,
            candidates,
            opening.describe(o.size),
            eval.ev,
            eval.depth
        );
        let label = base.map(|b| b.label.clone()).unwrap_or_default();
        evaluated.push((opening.moves, eval, label));
    }
    let about = evaluator.about.clone();
    evaluator.finish();
    let _ = std::fs::remove_file(&log);
    // The most balanced first; ties keep the drawing order.
    let mut kept: Vec<_> = evaluated
        .iter()
        .filter(|(_, e, _)| e.ev.abs() <= o.threshold)
        .cloned()
        .collect();
    kept.sort_by_key(|(_, e, _)| e.ev.abs());
    kept.truncate(o.count);
    if kept.len() < o.count {
        eprintln!(
            "quinto-openings: only {} of {} positions within |ev| <= {} ({} evaluated)",
            kept.len(),
            o.count,
            o.threshold,
            evaluated.len()
        );
    }
    let worst = kept.iter().map(|(_, e, _)| e.ev.abs()).max().unwrap_or(0);

    let mut text = String::new();
    if let Some(t) = &o.title {
        text.push_str(&format!("# {t}\n"));
    }
    text.push_str(&format!(
        "# {} positions, rule {} ({}), board {}x{}: the most balanced of {} distinct candidates\n\
         # evaluated (|ev| <= {} here).\n",
        kept.len(),
        o.rule.protocol_value(),
        o.rule.name(),
        o.size.width(),
        o.size.height(),
        evaluated.len(),
        worst
    ));
    let mut command = String::from("quinto-openings");
    for a in args {
        command.push(' ');
        if a.is_empty() || a.contains([' ', '\'', '"']) {
            command.push_str(&format!("'{}'", a.replace('\'', "'\\''")));
        } else {
            command.push_str(a);
        }
    }
    text.push_str(&format!("# made by: {command}\n"));
    if !about.is_empty() {
        text.push_str(&format!("# brain: {about}\n"));
    }
    for c in &o.comments {
        text.push_str(&format!("# {c}\n"));
    }
    text.push_str(
        "# Each line: the stones in move order, black first (renju notation: column letter\n\
         # from the left, row from the bottom). The comment holds the brain's evaluation for\n\
         # the side to move, in its own units (positive: good for the side to move).\n",
    );
    for (moves, eval, label) in &kept {
        let opening = Opening {
            line: 0,
            moves: moves.clone(),
        };
        let to_move = match Color::to_move_after(moves.len()) {
            Color::Black => "black",
            Color::White => "white",
        };
        let from = if label.is_empty() {
            String::new()
        } else {
            format!(", from {label}")
        };
        text.push_str(&format!(
            "{:<32} # ev {:+} for {to_move} to move, depth {}{from}\n",
            opening.describe(o.size),
            eval.ev,
            eval.depth
        ));
    }
    std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!("wrote {} positions to {}", kept.len(), out.display());
    Ok(())
}
