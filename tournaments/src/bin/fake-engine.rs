//! `fake-engine BEHAVIOUR[:N]`: a tiny brain for the match runner's tests. It speaks just
//! enough of the protocol (START/RECTSTART, INFO rule, BEGIN, TURN, BOARD…DONE, ABOUT, END)
//! and, by default, plays the first legal point (row by row from the top left). The
//! behaviour makes it misbehave on purpose:
//!
//! | behaviour        | what it does when asked for a move                                 |
//! |------------------|--------------------------------------------------------------------|
//! | `legal`          | the first legal point                                              |
//! | `message`        | `MESSAGE …` and `DEBUG …` lines, then the first legal point        |
//! | `judge`          | `MESSAGE depth 1 ev E` (E: 10 × the stones), then the first legal point |
//! | `timeout[:N]`    | after N legal moves (default 0), never answers                     |
//! | `crash[:N]`      | after N legal moves, exits with code 3                             |
//! | `occupied`       | the first occupied point (legal on an empty board)                 |
//! | `offboard`       | `W,H`, just off the board                                          |
//! | `forbidden`      | renju black: the first forbidden point, if there is one            |
//! | `garbage`        | `hello there`                                                      |
//! | `error`          | `ERROR cannot move`                                                |
//! | `stray-ok`       | `OK`, then the first legal point                                   |
//! | `slow:MS`        | waits MS ms, then the first legal point                            |
//! | `memory:MB`      | allocates and touches MB MiB once, then the first legal point      |
//! | `no-start`       | never answers START (and so never gets a move request)             |
//! | `start-exit`     | exits on START                                                     |

use quinto::game::{Board, BoardSize, Color, Pos, Rule};
use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "legal".into());
    let (behaviour, n) = match arg.split_once(':') {
        Some((b, n)) => (b.to_string(), n.parse::<u64>().unwrap_or(0)),
        None => (arg.clone(), 0),
    };
    let mut fake = Fake {
        behaviour,
        n,
        size: BoardSize::square(15).expect("15"),
        rule: Rule::Freestyle,
        stones: Vec::new(),
        moves_made: 0,
        hoard: Vec::new(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(Ok(raw)) = lines.next() {
        let line = raw.trim().to_string();
        let upper = line.to_ascii_uppercase();
        let word = upper.split_whitespace().next().unwrap_or("").to_string();
        match word.as_str() {
            "START" | "RECTSTART" => {
                match fake.behaviour.as_str() {
                    "no-start" => continue,
                    "start-exit" => std::process::exit(4),
                    _ => {}
                }
                let rest = line[word.len()..].trim();
                let (w, h) = match rest.split_once(',') {
                    Some((w, h)) => (w.trim().parse().unwrap_or(0), h.trim().parse().unwrap_or(0)),
                    None => {
                        let n = rest.parse().unwrap_or(0);
                        (n, n)
                    }
                };
                match BoardSize::new(w, h) {
                    Ok(size) => {
                        fake.size = size;
                        fake.stones.clear();
                        say("OK");
                    }
                    Err(e) => say(&format!("ERROR {e}")),
                }
            }
            "INFO" => {
                let mut parts = line.split_whitespace().skip(1);
                if let (Some(key), Some(value)) = (parts.next(), parts.next()) {
                    if key.eq_ignore_ascii_case("rule") {
                        if let Some(rule) = value.parse().ok().and_then(Rule::from_protocol) {
                            fake.rule = rule;
                        }
                    }
                }
            }
            "BEGIN" => fake.reply(),
            "TURN" => {
                if let Some(p) = point(&line[4..]) {
                    let color = Color::to_move_after(fake.stones.len());
                    fake.stones.push((p, color));
                }
                fake.reply();
            }
            "BOARD" => {
                let mut own = Vec::new();
                let mut other = Vec::new();
                for raw in lines.by_ref() {
                    let l = match raw {
                        Ok(l) => l.trim().to_string(),
                        Err(_) => return,
                    };
                    if l.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    let f: Vec<&str> = l.split(',').collect();
                    if f.len() == 3 {
                        if let (Some(p), Ok(who)) = (point(&l), f[2].trim().parse::<u8>()) {
                            if who == 1 {
                                own.push(p);
                            } else {
                                other.push(p);
                            }
                        }
                    }
                }
                // Equal counts: we are black.
                let (black, white) = if own.len() == other.len() {
                    (own, other)
                } else {
                    (other, own)
                };
                fake.stones = black
                    .into_iter()
                    .map(|p| (p, Color::Black))
                    .chain(white.into_iter().map(|p| (p, Color::White)))
                    .collect();
                fake.reply();
            }
            "ABOUT" => say("name=\"fake-engine\", version=\"1\", author=\"quinto-match tests\""),
            "END" => return,
            "" => {}
            _ => say(&format!("UNKNOWN {line}")),
        }
    }
}

/// `x,y` (ignoring anything after a second comma).
fn point(text: &str) -> Option<Pos> {
    let mut f = text.trim().split(',');
    let x: usize = f.next()?.trim().parse().ok()?;
    let y: usize = f.next()?.trim().parse().ok()?;
    (x < 32 && y < 32).then(|| Pos::new(x, y))
}

fn say(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

struct Fake {
    behaviour: String,
    n: u64,
    size: BoardSize,
    rule: Rule,
    /// Stones on the board (order irrelevant: the checks depend on the stones only).
    stones: Vec<(Pos, Color)>,
    moves_made: u64,
    hoard: Vec<Vec<u8>>,
}

impl Fake {
    fn board(&self) -> Board {
        let mut board = Board::new(self.size, self.rule);
        for &(p, c) in &self.stones {
            board.play(p, c);
        }
        board
    }

    fn me(&self) -> Color {
        let blacks = self.stones.iter().filter(|s| s.1 == Color::Black).count();
        let whites = self.stones.len() - blacks;
        if blacks == whites {
            Color::Black
        } else {
            Color::White
        }
    }

    fn first_legal(&self) -> Option<Pos> {
        let board = self.board();
        let me = self.me();
        self.size
            .points()
            .find(|&p| board.is_empty(p) && !board.is_forbidden(p, me))
    }

    fn play(&mut self, p: Pos) {
        let me = self.me();
        self.stones.push((p, me));
        self.moves_made += 1;
        say(&format!("{},{}", p.x(), p.y()));
    }

    fn play_legal(&mut self) {
        match self.first_legal() {
            Some(p) => self.play(p),
            None => say("ERROR no legal move"),
        }
    }

    fn reply(&mut self) {
        match self.behaviour.as_str() {
            "message" => {
                say("MESSAGE fake engine thinking");
                say("DEBUG nothing to see");
                self.play_legal();
            }
            "judge" => {
                say(&format!("MESSAGE depth 1 ev {}", 10 * self.stones.len()));
                self.play_legal();
            }
            "timeout" if self.moves_made >= self.n => {
                std::thread::sleep(Duration::from_secs(60));
                std::process::exit(0);
            }
            "crash" if self.moves_made >= self.n => std::process::exit(3),
            "occupied" => match self.stones.first() {
                Some(&(p, _)) => say(&format!("{},{}", p.x(), p.y())),
                None => self.play_legal(),
            },
            "offboard" => say(&format!("{},{}", self.size.width(), self.size.height())),
            "forbidden" => {
                let board = self.board();
                let me = self.me();
                let foul = self
                    .size
                    .points()
                    .find(|&p| board.is_empty(p) && board.is_forbidden(p, me));
                match foul {
                    Some(p) => self.play(p),
                    None => self.play_legal(),
                }
            }
            "garbage" => say("hello there"),
            "error" => say("ERROR cannot move"),
            "stray-ok" => {
                say("OK");
                self.play_legal();
            }
            "slow" => {
                std::thread::sleep(Duration::from_millis(self.n));
                self.play_legal();
            }
            "memory" => {
                if self.hoard.is_empty() {
                    // Touch every page so that the resident size grows too.
                    let bytes = (self.n as usize) << 20;
                    let mut block = vec![0u8; bytes];
                    for i in (0..bytes).step_by(4096) {
                        block[i] = 1;
                    }
                    self.hoard.push(block);
                }
                self.play_legal();
            }
            _ => self.play_legal(),
        }
    }
}
