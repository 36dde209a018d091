//! Plausible sessions: the commands a manager or a GUI sends, mostly valid for the board
//! in play, with the odd point off the board or taken.

use super::{chance, pick};
use quinto::rng::Rng;

const SIDES: [i64; 8] = [5, 6, 9, 15, 15, 15, 20, 32];

const INFO_KEYS: [&str; 18] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "game_type",
    "rule",
    "evaluate",
    "folder",
    "max_depth",
    "max_node",
    "thread_num",
    "show_detail",
    "TIMEOUT_TURN",
    "Rule",
    "caution",
    "pondering",
    "hash_size",
    "time_increment",
];

/// Yixin-Board's commands that a stone list and `done` follow, …
const YIXIN_STONES: [&str; 11] = [
    "yxquerydatabaseallt",
    "yxquerydatabaseall",
    "yxquerydatabaseone",
    "yxquerydatabasetext",
    "yxeditlabeldatabase 7,7 A",
    "yxedittvddatabase 7 87 -35 12",
    "yxedittextdatabase \"a \\\"comment\\\"\"",
    "yxdeletedatabaseall wl",
    "yxblock",
    "yxblockundo",
    "yxsoosorvstep3",
];
/// … a file name line, …
/// (Not `yxhashdump`: it writes a file named by whatever line a mutation puts after it.)
const YIXIN_FILE: [&str; 3] = ["yxsetdatabase", "yxhashload", "yxdbtotxt"];
/// … or nothing.
const YIXIN_ALONE: [&str; 15] = [
    "yxsavedatabase",
    "yxhashclear",
    "yxshowhashusage",
    "yxdraw",
    "yxresign",
    "yxblockreset",
    "yxbalanceone 0",
    "yxsearchdefend",
    "yxswap2step1",
    "yxswap2step2",
    "yxswap2step3",
    "yxprintfeature",
    "traceboard",
    "tracesearch",
    "reloadconfig config.toml",
];

const RULES: [&str; 11] = ["0", "1", "4", "4", "4", "8", "9", "2", "3", "6", "12"];

/// The board the session believes it is on, for plausible coordinates.
struct Shape {
    width: i64,
    height: i64,
}

impl Shape {
    /// A point, usually on the board.
    fn point(&self, rng: &mut Rng) -> (i64, i64) {
        if chance(rng, 5) {
            return (rng.below(40) as i64 - 4, rng.below(40) as i64 - 4);
        }
        // Near the centre more often than not, where the stones are.
        let near = |rng: &mut Rng, n: i64| {
            if chance(rng, 60) {
                (n / 2 + rng.below(7) as i64 - 3).clamp(0, n - 1)
            } else {
                rng.below(n as usize) as i64
            }
        };
        (near(rng, self.width), near(rng, self.height))
    }

    fn points(&self, rng: &mut Rng, count: usize) -> Vec<(i64, i64)> {
        let mut points = Vec::new();
        while points.len() < count {
            let p = self.point(rng);
            if !points.contains(&p) || chance(rng, 3) {
                points.push(p);
            }
        }
        points
    }
}

/// A session: a few games' worth of commands.
pub fn lines(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out: Vec<String> = Vec::new();
    let mut shape = Shape {
        width: 15,
        height: 15,
    };
    if chance(rng, 70) {
        let side = *pick(rng, &SIDES);
        shape = Shape {
            width: side,
            height: side,
        };
        out.push(format!("START {side}"));
    }
    let length = 3 + rng.below(25);
    for _ in 0..length {
        command(rng, &mut shape, &mut out);
    }
    out.into_iter().map(String::into_bytes).collect()
}

fn command(rng: &mut Rng, shape: &mut Shape, out: &mut Vec<String>) {
    let (x, y) = shape.point(rng);
    match rng.below(110) {
        0..=29 => out.push(format!("TURN {x},{y}")),
        30..=35 => out.push("BEGIN".into()),
        36..=43 => {
            let n = rng.below(12);
            let own = if chance(rng, 85) { n } else { rng.below(12) };
            let theirs = if chance(rng, 50) { own } else { own + 1 };
            let kind = if chance(rng, 80) { "BOARD" } else { "YXBOARD" };
            out.push(kind.into());
            let points = shape.points(rng, own + theirs);
            for (i, (px, py)) in points.into_iter().enumerate() {
                let field = if i % 2 == 1 || i >= 2 * own { 2 } else { 1 };
                out.push(format!("{px},{py},{field}"));
            }
            out.push("DONE".into());
        }
        44..=47 => {
            let count = *pick(rng, &[0, 0, 3, 3, 5, 5, 1, 4]);
            out.push("SWAP2BOARD".into());
            for (px, py) in shape.points(rng, count) {
                out.push(format!("{px},{py}"));
            }
            out.push("DONE".into());
        }
        48..=52 => out.push(format!("TAKEBACK {x},{y}")),
        53..=55 => out.push(format!("PLAY {x},{y}")),
        56..=59 => out.push("RESTART".into()),
        60..=63 => {
            let side = *pick(rng, &SIDES);
            if chance(rng, 70) {
                *shape = Shape {
                    width: side,
                    height: side,
                };
                out.push(format!("START {side}"));
            } else {
                let other = *pick(rng, &SIDES);
                *shape = Shape {
                    width: side,
                    height: other,
                };
                out.push(format!("RECTSTART {side},{other}"));
            }
        }
        64..=79 => {
            let key = *pick(rng, &INFO_KEYS);
            let value = match key.to_ascii_lowercase().as_str() {
                "rule" => pick(rng, &RULES).to_string(),
                "timeout_turn" => rng.below(20).to_string(),
                "time_left" => pick(rng, &["-5", "0", "1000", "2147483647", "15"]).to_string(),
                "folder" => "/tmp/some dir/x".into(),
                "evaluate" => format!("{x},{y}"),
                "max_memory" => pick(rng, &["40000000", "20000000", "0"]).to_string(),
                _ => rng.below(5000).to_string(),
            };
            out.push(format!("INFO {key} {value}"));
        }
        80..=83 => out.push("ABOUT".into()),
        84..=86 => out.push(pick(rng, &["STOP", "YXSTOP"]).to_string()),
        87..=90 => out.push("YXSHOWFORBID".into()),
        91..=94 => out.push(format!("YXNBEST {}", rng.below(6))),
        95 => out.push("YXSHOWINFO".into()),
        96..=99 => {
            out.push(pick(rng, &YIXIN_STONES).to_string());
            let count = rng.below(6);
            for (px, py) in shape.points(rng, count) {
                out.push(format!("{px},{py}"));
            }
            out.push("done".into());
        }
        100..=101 => {
            out.push(pick(rng, &YIXIN_FILE).to_string());
            out.push("/tmp/some dir/quinto.db".into());
        }
        102..=106 => out.push(pick(rng, &YIXIN_ALONE).to_string()),
        _ => out.push(String::new()),
    }
}
