//! The fast and naive renju checkers against the Gomocup referee (the PyPI `renju`
//! package), on positions and verdicts that `scripts/renju-oracle` wrote.
//!
//! Run by `scripts/test`, which makes the data first: `QUINTO_RENJU_ORACLE=FILE cargo test
//! --test renju_oracle -- --ignored`.

mod common;

use common::{board_with, naive_of};
use quinto::game::{BoardSize, Foul, Pos, Rule};
use serde_json::Value;

fn stones(list: &Value) -> Vec<Pos> {
    list.as_array()
        .expect("a list of [x, y]")
        .iter()
        .map(|xy| {
            Pos::new(
                xy[0].as_u64().expect("x") as usize,
                xy[1].as_u64().expect("y") as usize,
            )
        })
        .collect()
}

#[test]
#[ignore = "needs the referee's verdicts: run scripts/test"]
fn every_verdict_and_kind_matches_the_gomocup_referee() {
    let path =
        std::env::var("QUINTO_RENJU_ORACLE").expect("QUINTO_RENJU_ORACLE names the oracle file");
    let text = std::fs::read_to_string(&path).expect("oracle file readable");
    let (mut pairs, mut positions) = (0usize, 0usize);
    let mut by_kind = [0usize; 4];
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).expect("valid JSON");
        let size =
            BoardSize::square(record["size"].as_u64().expect("size") as usize).expect("size");
        let board = board_with(
            size,
            Rule::Renju,
            &stones(&record["black"]),
            &stones(&record["white"]),
        );
        let mut naive = naive_of(&board);
        let verdicts = record["foul"].as_str().expect("foul string").as_bytes();
        assert_eq!(verdicts.len(), size.area());
        for pos in size.points() {
            let mark = verdicts[pos.y() * size.width() + pos.x()];
            if mark == b'.' {
                assert!(!board.is_empty(pos), "oracle says occupied at {pos:?}");
                continue;
            }
            let referee = mark - b'0';
            let fast = board.foul(pos).map_or(0, Foul::referee_code);
            let slow = naive
                .foul(pos.x() as i32, pos.y() as i32)
                .map_or(0, Foul::referee_code);
            let at = size.to_human(pos);
            assert_eq!(fast, referee, "fast checker at {at} ({pos:?})\n{board:?}");
            assert_eq!(slow, referee, "naive checker at {at} ({pos:?})\n{board:?}");
            by_kind[referee as usize] += 1;
            pairs += 1;
        }
        positions += 1;
    }
    println!("{positions} positions, {pairs} pairs, verdicts none/3-3/4-4/overline = {by_kind:?}");
    assert!(pairs >= 200_000, "only {pairs} pairs");
    assert!(
        by_kind.iter().all(|&n| n > 100),
        "every verdict kind must occur often: {by_kind:?}"
    );
}
