//! Every renju case in tests/data/renju/forbidden_cases.jsonl, judged by the fast
//! checker and by the naive one.

mod common;

use common::{naive_of, record_board, testdata};
use quinto::game::Foul;
use serde_json::Value;

/// Where the RIF text and the Gomocup referee disagree, Quinto follows the referee
/// (tests/data/README.md): (case id, point, the referee's verdict).
const REFEREE_OVERRIDES: [(&str, &str, Option<Foul>); 2] = [
    // A three formed together with a five: the file (RIF) says forbidden, the referee legal.
    ("realcore/BitBoardForbiddenTest#15", "i12", None),
    // The referee does not count a three whose straight-four point also makes a five, so
    // it sees a double three where the RIF text sees a legal move.
    (
        "realcore/BitBoardForbiddenTest#16",
        "h9",
        Some(Foul::DoubleThree),
    ),
];

/// Some forbidden queries name no kind (only a note does): any foul passes those.
fn kind(name: Option<&str>) -> Option<Foul> {
    match name? {
        "double_three" => Some(Foul::DoubleThree),
        "double_four" => Some(Foul::DoubleFour),
        "overline" => Some(Foul::Overline),
        other => panic!("unknown kind {other}"),
    }
}

fn assert_verdict(got: Option<Foul>, expected: Option<Foul>, any_foul: bool, what: &str) {
    if any_foul {
        assert!(got.is_some(), "{what}: expected a foul, got none");
    } else {
        assert_eq!(got, expected, "{what}");
    }
}

struct Tally {
    queries: usize,
    implied_legal: usize,
}

fn check_case(line: &str, tally: &mut Tally) {
    let case: Value = serde_json::from_str(line).expect("valid JSON");
    let id = case["id"].as_str().expect("id");
    let board = record_board(&case);
    let size = board.size();
    let mut naive = naive_of(&board);
    let mut queried = Vec::new();
    for query in case["queries"].as_array().expect("queries") {
        let name = query["point"].as_str().expect("point");
        let pos = size.parse_human(name).expect("query point");
        let xy = query["xy"].as_array().expect("xy");
        assert_eq!(
            (pos.x() as u64, pos.y() as u64),
            (xy[0].as_u64().unwrap(), xy[1].as_u64().unwrap())
        );
        queried.push(pos);
        let white_asks = query.get("color").and_then(Value::as_str) == Some("white");
        let fast = board.is_forbidden(
            pos,
            if white_asks {
                quinto::game::Color::White
            } else {
                quinto::game::Color::Black
            },
        );
        if white_asks {
            assert!(!fast, "{id} {name}: white is never forbidden");
            continue;
        }
        tally.queries += 1;
        let (expected, any_foul) = match REFEREE_OVERRIDES
            .iter()
            .find(|(i, p, _)| *i == id && *p == name)
        {
            Some((_, _, referee)) => (*referee, false),
            None if query["expect"] == "forbidden" => {
                let kind = kind(query.get("kind").and_then(Value::as_str));
                (kind, kind.is_none())
            }
            None => (None, false),
        };
        assert_verdict(
            board.foul(pos),
            expected,
            any_foul,
            &format!("{id} {name}: fast checker\n{board:?}"),
        );
        let naive_verdict = naive.foul(pos.x() as i32, pos.y() as i32);
        assert_verdict(
            naive_verdict,
            expected,
            any_foul,
            &format!("{id} {name}: naive checker"),
        );
    }
    if case["complete"] == true {
        for pos in size
            .points()
            .filter(|&p| board.is_empty(p) && !queried.contains(&p))
        {
            let name = size.to_human(pos);
            assert_eq!(
                board.foul(pos),
                None,
                "{id} {name}: implied legal (fast)\n{board:?}"
            );
            assert_eq!(
                naive.foul(pos.x() as i32, pos.y() as i32),
                None,
                "{id} {name}: implied legal (naive)"
            );
            tally.implied_legal += 1;
        }
    }
}

#[test]
fn every_forbidden_case_follows_the_referee_including_the_two_renju_world_five_cases() {
    let text =
        std::fs::read_to_string(testdata("renju/forbidden_cases.jsonl")).expect("testdata present");
    let mut tally = Tally {
        queries: 0,
        implied_legal: 0,
    };
    let mut cases = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        check_case(line, &mut tally);
        cases += 1;
    }
    assert_eq!(cases, 51);
    // tests/data/README.md: 4,865 black verdicts in all (queries and implied legal
    // points; the one query about a white move is checked apart).
    assert_eq!(
        tally.queries + tally.implied_legal,
        4865,
        "{} queries",
        tally.queries
    );
}
