//! What a match writes: a Piskvork `.psq` record per game, a line per game in `games.csv`,
//! and the summary tables (W/D/L, Elo, LOS, failures, SPRT).

use crate::matches::game::{Fault, GameRecord};
use crate::matches::procmem::Memory;
use crate::matches::stats::{describe_elo, fmt_elo, Penta, Sample, Sprt, SprtVerdict, Wdl};
use quinto::game::{BoardSize, Color, Pos, Rule};
use quinto::record::Record;
use std::collections::HashSet;

/// A game's `.psq` record (`quinto::record`, the format the terminal game reads too). The
/// result line is `<black's score> <ending>: <explanation>`, such as
/// `1-0 five: black made five with h8 (7,7)`: the ending is `five`, `timeout`, `crash`,
/// `illegal`, `forbidden`, `bad-output`, `memory`, `full-board` or `stone-limit`. Opening
/// stones carry 0 ms; a last move the referee refused is not in the move list (it was never
/// on the board).
pub fn psq(record: &GameRecord, black: &str, white: &str, rule: Rule) -> String {
    Record {
        size: record.size,
        moves: record.moves.clone(),
        black: black.to_string(),
        white: white.to_string(),
        result: format!(
            "{} {}: {}",
            record.score_text(),
            record.ending.name(),
            record.detail
        ),
        rule: Some(rule),
    }
    .to_psq()
}

/// The header of `games.csv`.
pub const CSV_HEADER: &str = "game,round,opening_line,opening,black,white,result,ending,\
fault_side,detail,moves,black_ms,white_ms,black_max_ms,white_max_ms,\
black_peak_vmsize,black_peak_rss,white_peak_vmsize,white_peak_rss,psq";

/// One game's line of `games.csv` (fields quoted where needed).
#[allow(clippy::too_many_arguments)]
pub fn csv_line(
    number: usize,
    round: usize,
    opening_line: usize,
    opening: &str,
    black: &str,
    white: &str,
    record: &GameRecord,
    psq_name: &str,
) -> String {
    let fault_side = match record.fault() {
        Some((Color::Black, _)) => "black",
        Some((Color::White, _)) => "white",
        None => "",
    };
    let b = Color::Black.index();
    let w = Color::White.index();
    let fields: Vec<String> = vec![
        number.to_string(),
        round.to_string(),
        opening_line.to_string(),
        opening.to_string(),
        black.to_string(),
        white.to_string(),
        record.score_text().to_string(),
        record.ending.name().to_string(),
        fault_side.to_string(),
        record.detail.clone(),
        (record.moves.len() - record.opening_len).to_string(),
        record.time_ms[b].to_string(),
        record.time_ms[w].to_string(),
        record.max_move_ms[b].to_string(),
        record.max_move_ms[w].to_string(),
        record.peak[b].vms.to_string(),
        record.peak[b].rss.to_string(),
        record.peak[w].vms.to_string(),
        record.peak[w].rss.to_string(),
        psq_name.to_string(),
    ];
    fields
        .iter()
        .map(|f| csv_field(f))
        .collect::<Vec<_>>()
        .join(",")
}

fn csv_field(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

/// Results of one pair, from the first engine's side.
#[derive(Clone, Debug, Default)]
pub struct PairTally {
    pub a: usize,
    pub b: usize,
    pub all: Wdl,
    /// `a`'s results in the games where it had black / white.
    pub a_black: Wdl,
    pub a_white: Wdl,
    /// `a`'s results by opening pair (both games of a round), and the rounds whose first
    /// game is in with `a`'s half points from it.
    pub penta: Penta,
    pub unpaired: Vec<(usize, u8)>,
    /// The LLR and verdict when an SPRT decided, if one did.
    pub sprt_stop: Option<(f64, SprtVerdict, u32)>,
}

impl PairTally {
    /// Counts a game of `round` in which engine `black` had black and scored `black_points`
    /// half points.
    pub fn record(&mut self, round: usize, black: usize, black_points: u8) {
        let a_black = self.a == black;
        let a_points = if a_black {
            black_points
        } else {
            2 - black_points
        };
        self.all.record(a_points);
        match self.unpaired.iter().position(|&(r, _)| r == round) {
            Some(i) => {
                let (_, first) = self.unpaired.swap_remove(i);
                self.penta.record(first + a_points);
            }
            None => self.unpaired.push((round, a_points)),
        }
        if a_black {
            self.a_black.record(a_points);
        } else {
            self.a_white.record(a_points);
        }
    }

    /// Adds another run's results of the same pair (its rounds are other openings: a round
    /// left unpaired in either stays so).
    pub fn merge(&mut self, other: &PairTally) {
        self.all.add(other.all);
        self.a_black.add(other.a_black);
        self.a_white.add(other.a_white);
        self.penta.add(other.penta);
    }
}

/// One engine over the whole match.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    pub all: Wdl,
    pub as_black: Wdl,
    pub as_white: Wdl,
    /// Games lost on each [`Fault`] (indexed by `Fault::index`).
    pub faults: [u32; 6],
    pub peak: Memory,
    pub time_ms: u64,
    pub moves: u64,
    pub max_move_ms: u64,
    pub ignored_lines: u32,
}

/// Everything counted so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub names: Vec<String>,
    pub pairs: Vec<PairTally>,
    pub engines: Vec<EngineTally>,
    pub games: u32,
    /// Games per ending name, in first-seen order.
    pub endings: Vec<(&'static str, u32)>,
    /// Every game so far as (black engine, white engine, moves): a node-limited engine plays
    /// the same game again from the same opening, and a repeat adds no information.
    pub seen: HashSet<(usize, usize, Vec<Pos>)>,
}

impl Tally {
    pub fn new(names: Vec<String>, pairs: &[(usize, usize)]) -> Tally {
        Tally {
            engines: vec![EngineTally::default(); names.len()],
            names,
            pairs: pairs
                .iter()
                .map(|&(a, b)| PairTally {
                    a,
                    b,
                    ..PairTally::default()
                })
                .collect(),
            games: 0,
            endings: Vec::new(),
            seen: HashSet::new(),
        }
    }

    /// Counts a game of `pair` in `round` where engine `black` had black and `white` white.
    pub fn add(
        &mut self,
        pair: usize,
        round: usize,
        black: usize,
        white: usize,
        record: &GameRecord,
    ) {
        self.games += 1;
        let moves = record.moves.iter().map(|&(pos, _)| pos).collect();
        self.seen.insert((black, white, moves));
        let name = record.ending.name();
        match self.endings.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => self.endings.push((name, 1)),
        }
        let black_points = match record.winner {
            Some(Color::Black) => 2,
            Some(Color::White) => 0,
            None => 1,
        };
        self.pairs[pair].record(round, black, black_points);
        for (engine, color, points) in [
            (black, Color::Black, black_points),
            (white, Color::White, 2 - black_points),
        ] {
            let e = &mut self.engines[engine];
            e.all.record(points);
            match color {
                Color::Black => e.as_black.record(points),
                Color::White => e.as_white.record(points),
            }
            let i = color.index();
            e.peak = e.peak.max(record.peak[i]);
            e.time_ms += record.time_ms[i];
            e.max_move_ms = e.max_move_ms.max(record.max_move_ms[i]);
            e.ignored_lines += record.ignored_lines[i];
            let played = record.moves.len() - record.opening_len;
            let first = Color::to_move_after(record.opening_len);
            // Moves made by this colour: alternate from the first mover after the opening.
            e.moves += if color == first {
                (played + 1) / 2
            } else {
                played / 2
            } as u64;
        }
        if let Some((color, fault)) = record.fault() {
            let loser = if color == Color::Black { black } else { white };
            self.engines[loser].faults[fault.index()] += 1;
        }
    }

    pub fn failures(&self) -> u32 {
        self.engines.iter().flat_map(|e| e.faults.iter()).sum()
    }
}

/// Facts about the match for the summary's head.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub lines: Vec<String>,
}

/// The summary: settings, pair results, engine results and failures, SPRT, method.
pub fn summary(
    settings: &Settings,
    tally: &Tally,
    planned: usize,
    elapsed_s: u64,
    sprt: Option<&Sprt>,
) -> String {
    let mut s = String::from("quinto-match summary\n");
    for line in &settings.lines {
        s.push_str(&format!("  {line}\n"));
    }
    s.push_str(&format!(
        "  games: {} of {} played, elapsed {}; {} distinct (a game played again move for \
         move counts twice in the results below, but tells nothing new)\n",
        tally.games,
        planned,
        clock(elapsed_s),
        tally.seen.len()
    ));
    let endings: Vec<String> = tally
        .endings
        .iter()
        .map(|(n, c)| format!("{n} {c}"))
        .collect();
    if !endings.is_empty() {
        s.push_str(&format!("  endings: {}\n", endings.join(", ")));
    }

    s.push_str("\nPairs (W/D/L, score and Elo from the first engine's side):\n");
    for p in &tally.pairs {
        s.push_str(&pair_lines(&tally.names, p));
    }

    s.push_str("\nEngines (all games):\n");
    let width = tally
        .names
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(4)
        .max(6);
    s.push_str(&format!(
        "  {:<width$} {:>5} {:>14} {:>7} {:>14} {:>14}  {:>9} {:>9}\n",
        "engine", "games", "W/D/L", "score", "black W/D/L", "white W/D/L", "ms/move", "max ms"
    ));
    for (name, e) in tally.names.iter().zip(&tally.engines) {
        let per_move = e.time_ms.checked_div(e.moves).unwrap_or(0);
        s.push_str(&format!(
            "  {:<width$} {:>5} {:>14} {:>7} {:>14} {:>14}  {:>9} {:>9}\n",
            name,
            e.all.games(),
            wdl_slash(&e.all),
            percent(e.all.score()),
            wdl_slash(&e.as_black),
            wdl_slash(&e.as_white),
            per_move,
            e.max_move_ms
        ));
    }

    s.push_str("\nFailures (games lost on each fault) and peak memory:\n");
    let mut head = format!("  {:<width$}", "engine");
    for f in Fault::ALL {
        head.push_str(&format!(" {:>10}", f.name()));
    }
    head.push_str(&format!(" {:>12} {:>12}", "VmSize MiB", "VmRSS MiB"));
    s.push_str(&head);
    s.push('\n');
    for (name, e) in tally.names.iter().zip(&tally.engines) {
        let mut row = format!("  {name:<width$}");
        for f in Fault::ALL {
            row.push_str(&format!(" {:>10}", e.faults[f.index()]));
        }
        row.push_str(&format!(
            " {:>12.1} {:>12.1}",
            e.peak.vms as f64 / 1048576.0,
            e.peak.rss as f64 / 1048576.0
        ));
        if e.ignored_lines > 0 {
            row.push_str(&format!("  ({} stray lines ignored)", e.ignored_lines));
        }
        s.push_str(&row);
        s.push('\n');
    }
    s.push_str(&format!("  total failures: {}\n", tally.failures()));

    if let (Some(sprt), Some(p)) = (sprt, tally.pairs.first()) {
        s.push_str(&sprt_line(sprt, &tally.names, p));
    }
    s.push_str(METHOD);
    if sprt.is_some() {
        s.push_str(SPRT_METHOD);
    }
    s.push('\n');
    s
}

/// A pair's results: by game, by opening pair, by colour.
pub fn pair_lines(names: &[String], p: &PairTally) -> String {
    let (a, b) = (&names[p.a], &names[p.b]);
    let mut s = format!(
        "  {a} vs {b}: {} games, {}, score {}, {}, LOS {}\n",
        p.all.games(),
        p.all.short(),
        percent(p.all.score()),
        describe_elo(p.all.sample()),
        percent(p.all.los())
    );
    s.push_str(&format!(
        "    by opening pair: {} pairs, {}, {}\n",
        p.penta.pairs(),
        p.penta.short(),
        describe_elo(p.penta.sample())
    ));
    s.push_str(&format!(
        "    {a} with black {} ({}), with white {} ({})\n",
        p.a_black.short(),
        percent(p.a_black.score()),
        p.a_white.short(),
        percent(p.a_white.score())
    ));
    s
}

/// The SPRT's state for pair `p`: its LLR and bounds, and the verdict it stopped on (or
/// that its games reach, when they were not played under the test: runs pooled).
pub fn sprt_line(sprt: &Sprt, names: &[String], p: &PairTally) -> String {
    let llr = sprt.llr(p.penta.sprt_sample());
    let mut s = format!(
        "\nSPRT ({}): LLR {:.2}, bounds [{:.2}, {:.2}] after {} games ({} pairs)",
        sprt.describe(),
        llr,
        sprt.lower(),
        sprt.upper(),
        p.all.games(),
        p.penta.pairs()
    );
    match p.sprt_stop {
        Some((at, verdict, games)) => s.push_str(&format!(
            "; stopped at game {games} with LLR {at:.2}: {}\n",
            verdict_text(verdict, &names[p.a])
        )),
        None => s.push_str(&format!(
            "; {}\n",
            verdict_text(sprt.verdict(p.penta.sprt_sample()), &names[p.a])
        )),
    }
    s
}

/// What an SPRT verdict says about engine `a`.
fn verdict_text(verdict: SprtVerdict, a: &str) -> String {
    match verdict {
        SprtVerdict::H1 => format!("H1 accepted ({a} is stronger by elo1 or more)"),
        SprtVerdict::H0 => format!("H0 accepted ({a} is not stronger by more than elo0)"),
        SprtVerdict::Continue => "undecided".to_string(),
    }
}

/// How the figures are computed.
pub const METHOD: &str = "\nMethod: score s = (W + D/2)/N; Elo = -400 log10(1/s - 1) \
    (logistic); 95 % interval = Elo of s ± 1.96·σ/√N with σ² the per-item variance of the \
    scores, the items being games (the pair line) or opening pairs, the two games of one \
    opening with colours swapped, each scored by its mean (the 'by opening pair' line: \
    pentanomial, which does not count the openings' colour bias as noise); \
    LOS = ½(1 + erf((W - L)/√(2(W + L)))).";

/// How the SPRT is computed.
pub const SPRT_METHOD: &str = " SPRT: GSPRT on the logistic model over the opening pairs \
    (and a prior of one pair lost and one won), normal approximation \
    LLR = N(s1 - s0)(2s - s0 - s1)/(2σ²), bounds ln(β/(1-α)) and ln((1-β)/α).";

/// `+W =D -L, 55.0 %, Elo +35 ± 40` for the progress line, the interval from `sample` (the
/// opening pairs when there are some).
pub fn short_result(wdl: &Wdl, sample: Option<Sample>) -> String {
    let elo = match sample.map(|s| (s.elo(), s.elo_interval())) {
        Some((e, (lo, hi))) if lo.is_finite() && hi.is_finite() => {
            format!("Elo {} ± {:.0}", fmt_elo(e), (hi - lo) / 2.0)
        }
        Some((e, _)) => format!("Elo {}", fmt_elo(e)),
        None => "Elo n/a".into(),
    };
    format!("{} {} {}", wdl.short(), percent(wdl.score()), elo)
}

fn wdl_slash(w: &Wdl) -> String {
    format!("{}/{}/{}", w.wins, w.draws, w.losses)
}

fn percent(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:.1}%", v * 100.0),
        None => "-".into(),
    }
}

/// `hh:mm:ss`.
pub fn clock(seconds: u64) -> String {
    format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Board size as `15x15`.
pub fn size_text(size: BoardSize) -> String {
    format!("{}x{}", size.width(), size.height())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::game::Ending;

    fn record(winner: Option<Color>, ending: Ending) -> GameRecord {
        GameRecord {
            size: BoardSize::square(15).unwrap(),
            moves: vec![
                (Pos::new(7, 7), 0),
                (Pos::new(8, 7), 120),
                (Pos::new(0, 14), 5),
            ],
            opening_len: 1,
            winner,
            ending,
            detail: "white: 'hello, world' instead of a move".into(),
            time_ms: [5, 120],
            max_move_ms: [5, 120],
            peak: [Memory { vms: 10, rss: 5 }, Memory { vms: 20, rss: 8 }],
            ignored_lines: [0, 0],
        }
    }

    #[test]
    fn psq_is_one_based_with_names_and_result() {
        let r = record(Some(Color::Black), Ending::Fault(Fault::BadOutput));
        let text = psq(&r, "alpha", "beta", Rule::Renju);
        assert_eq!(
            text,
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,120\n1,15,5\nalpha\nbeta\n\
             1-0 bad-output: white: 'hello, world' instead of a move\nrule renju\n"
        );
        let read = Record::parse(&text).expect("the terminal game's reader takes it");
        assert_eq!((read.moves, read.rule), (r.moves, Some(Rule::Renju)));
    }

    #[test]
    fn csv_quotes_fields_with_commas() {
        let r = record(Some(Color::Black), Ending::Fault(Fault::BadOutput));
        let line = csv_line(3, 2, 7, "h8", "alpha", "beta", &r, "games/game-0003.psq");
        assert!(line.starts_with("3,2,7,h8,alpha,beta,1-0,bad-output,white,\"white: 'hello, world' instead of a move\",2,5,120,"), "{line}");
        assert_eq!(
            line.matches(',').count() - 1,
            CSV_HEADER.matches(',').count(),
            "one quoted comma"
        );
    }

    #[test]
    fn tally_counts_pairs_colours_and_faults() {
        let mut t = Tally::new(vec!["a".into(), "b".into()], &[(0, 1)]);
        t.add(0, 1, 0, 1, &record(Some(Color::Black), Ending::Five));
        t.add(
            0,
            2,
            1,
            0,
            &record(Some(Color::Black), Ending::Fault(Fault::Timeout)),
        );
        t.add(0, 1, 1, 0, &record(None, Ending::FullBoard));
        let p = &t.pairs[0];
        assert_eq!(p.all, Wdl::new(1, 1, 1));
        // Round 1 is complete (a won with black, drew with white: 1½ points); round 2 waits.
        assert_eq!(p.penta.counts, [0, 0, 0, 1, 0]);
        assert_eq!(p.unpaired, vec![(2, 0)]);
        assert_eq!(p.a_black, Wdl::new(1, 0, 0));
        assert_eq!(p.a_white, Wdl::new(0, 1, 1));
        assert_eq!(t.engines[0].faults[Fault::Timeout.index()], 1);
        assert_eq!(t.engines[1].faults.iter().sum::<u32>(), 0);
        assert_eq!(t.engines[1].all, Wdl::new(1, 1, 1));
        // After a 1-stone opening white moves first: 2 moves played, one each.
        assert_eq!(t.engines[0].moves, 3);
        assert_eq!(t.failures(), 1);
        let text = summary(&Settings::default(), &t, 4, 65, None);
        assert!(
            text.contains("a vs b: 3 games, +1 =1 -1, score 50.0%"),
            "{text}"
        );
        // The second and third games have the same colours and moves: one distinct game.
        assert!(
            text.contains("games: 3 of 4 played, elapsed 00:01:05; 2 distinct"),
            "{text}"
        );
        assert!(text.contains("total failures: 1"), "{text}");
        assert!(
            text.contains("by opening pair: 1 pairs, 0/½/1/1½/2: 0 0 0 1 0, Elo +190.8 ± 0.0"),
            "{text}"
        );
    }
}
