//! Command streams for the fuzz test: valid sessions (`session`), damaged (`mutate`), then
//! tamed (`tame`) so that a stream never ends the brain early or makes it think long.

pub mod mutate;
pub mod session;
pub mod tame;

use quinto::rng::Rng;

/// `true` with probability `percent` / 100.
pub fn chance(rng: &mut Rng, percent: usize) -> bool {
    rng.below(100) < percent
}

/// One of `items`.
pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// One stream: lines without their line ends.
pub fn stream(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut lines = if chance(rng, 10) {
        mutate::random_lines(rng)
    } else {
        session::lines(rng)
    };
    if chance(rng, 80) {
        let rounds = 1 + rng.below(4);
        for _ in 0..rounds {
            mutate::apply(rng, &mut lines);
        }
    }
    tame::lines(&mut lines);
    lines
}

/// A line for a failure report: printable, escapes for the rest, long lines cut.
pub fn show(line: &[u8]) -> String {
    let mut text = String::new();
    for &b in line.iter().take(120) {
        match b {
            b'\\' => text.push_str("\\\\"),
            b' '..=b'~' => text.push(b as char),
            b'\r' => text.push_str("\\r"),
            b'\t' => text.push_str("\\t"),
            _ => text.push_str(&format!("\\x{b:02x}")),
        }
    }
    if line.len() > 120 {
        text.push_str(&format!("… ({} bytes)", line.len()));
    }
    text
}
