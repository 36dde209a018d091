//! The threat solver on the published VCF and VCT problems of
//! tests/data/tactics/quintet_mate_tests.jsonl: every win is found within the
//! shortest known number of attacker moves, none with one move fewer, none where the
//! problem's own limits allow none; and the line found is a real win under the rules. As in
//! the problems, a line ends with a move the defender cannot answer (a five, an open or a
//! double four, or a four black may only block on a forbidden point).

mod common;

use common::{record_board, testdata};
use quinto::game::{judge_move, Board, Color, Pos, Verdict};
use quinto::search::threats::{solve, Budget};
use quinto::search::Stop;
use serde_json::Value;
use std::time::Instant;

fn budget(moves: u64, threat_depth: u64) -> Budget {
    Budget {
        moves: moves.min(255) as u32,
        threat_depth: threat_depth.min(255) as u32,
        nodes: 20_000_000,
        deadline: None,
    }
}

/// Plays the line out on a copy and checks it ends in a win for the attacker: a five, or a
/// position the defender cannot hold (two five points, or one that black may not block).
fn assert_line_wins(board: &Board, attacker: Color, line: &[Pos], id: &str) {
    let mut board = board.clone();
    let mut color = attacker;
    for (i, &pos) in line.iter().enumerate() {
        let verdict = judge_move(&mut board, pos.x() as i64, pos.y() as i64, color, None);
        let last = i + 1 == line.len();
        match verdict {
            Verdict::Win => {
                assert!(
                    last && color == attacker,
                    "{id}: early or wrong win at move {i}"
                );
                return;
            }
            Verdict::Continue => {}
            other => panic!("{id}: move {i} {pos:?} judged {other:?}"),
        }
        color = color.opponent();
    }
    let fives = board.five_points(attacker);
    let defender = attacker.opponent();
    let unstoppable =
        fives.len() >= 2 || (fives.len() == 1 && board.is_forbidden(fives[0], defender));
    assert!(
        unstoppable && !board.has_five_point(defender),
        "{id}: line {line:?} does not end in a win"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "seconds in release, minutes with debug checks: scripts/test runs it"
)]
fn solves_every_published_problem_within_its_shortest_win_and_not_sooner() {
    let text =
        std::fs::read_to_string(testdata("tactics/quintet_mate_tests.jsonl")).expect("testdata");
    let stop = Stop::new();
    let mut solved = 0;
    let mut slowest_vcf = (0.0f64, String::new());
    let all = Instant::now();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("JSON");
        let id = case["id"].as_str().expect("id");
        let board = record_board(&case);
        let attacker = if case["to_move"] == "black" {
            Color::Black
        } else {
            Color::White
        };
        let started = Instant::now();
        let mut nodes = 0;
        // The threat depth of the check that finds the shortest win.
        let mut winning_depth = 0;
        for check in case["checks"].as_array().expect("checks") {
            let mode = check["mode"].as_str().expect("mode");
            if !mode.ends_with("DFS") {
                continue; // the same problems under other search orders
            }
            let limit = check["limit"].as_u64().expect("limit");
            // VCF problems carry threat limits that VCF ignores.
            let depth = if mode.starts_with("VCF") {
                0
            } else {
                check["threat_limit"].as_u64().expect("threat limit")
            };
            let mut scratch = board.clone();
            let found = solve(
                &mut scratch,
                attacker,
                budget(limit, depth),
                &stop,
                &mut nodes,
            );
            let expected = !check["result"].is_null();
            assert_eq!(
                found.is_some(),
                expected,
                "{id}: {mode} limit {limit} threat depth {depth}"
            );
            if let Some(line) = found {
                winning_depth = winning_depth.max(depth);
                assert_line_wins(&board, attacker, &line, id);
                // A VCF line is forced all the way; a VCT line shows one defence only.
                if let (Some(min), 0) = (case["min_attacker_moves"].as_u64(), depth) {
                    let attacker_moves = (line.len() as u64 + 1) / 2;
                    assert!(
                        attacker_moves >= min,
                        "{id}: a win in {attacker_moves} < {min} attacker moves: {line:?}"
                    );
                }
            }
        }
        if let Some(min) = case["min_attacker_moves"].as_u64() {
            let mut scratch = board.clone();
            let sooner = solve(
                &mut scratch,
                attacker,
                budget(min - 1, winning_depth),
                &stop,
                &mut nodes,
            );
            assert!(
                sooner.is_none(),
                "{id}: 'won' in fewer than {min} attacker moves: {sooner:?}"
            );
        }
        let ms = started.elapsed().as_secs_f64() * 1e3;
        println!("{id}: {nodes} nodes, {ms:.1} ms");
        if case["kind"] == "VCF" && ms > slowest_vcf.0 {
            slowest_vcf = (ms, id.to_string());
        }
        solved += 1;
    }
    println!(
        "tactics: {solved} problems solved in {:.0} ms; slowest VCF {:.1} ms ({})",
        all.elapsed().as_secs_f64() * 1e3,
        slowest_vcf.0,
        slowest_vcf.1
    );
    assert_eq!(solved, 11);
}
