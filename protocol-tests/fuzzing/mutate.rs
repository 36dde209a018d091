//! Damage to a stream: the kinds of wrong a manager, a pipe or a person can produce.

use super::{chance, pick};
use quinto::rng::Rng;

/// Numbers that break things.
const BAD_NUMBERS: [&str; 16] = [
    "99999999999999999999",
    "-99999999999999999999",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "2147483647",
    "4294967296",
    "-1",
    "-0",
    "+5",
    " 7 ",
    "1e3",
    "0x10",
    "",
    "x",
    "٣",
];

/// Words and tokens to splice in.
const TOKENS: [&str; 24] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "DONE",
    "TAKEBACK",
    "PLAY",
    "INFO",
    "ABOUT",
    "STOP",
    "YXSTOP",
    "YXSHOWFORBID",
    "YXNBEST",
    "YXSHOWINFO",
    "rule",
    "timeout_turn",
    ",",
    ",,",
    "1,2",
    "3,3,1",
];

/// Lines of noise.
pub fn random_lines(rng: &mut Rng) -> Vec<Vec<u8>> {
    (0..1 + rng.below(20)).map(|_| random_bytes(rng)).collect()
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let longest = if chance(rng, 3) { 5000 } else { 40 };
    let length = rng.below(longest);
    (0..length)
        .map(|_| {
            let byte = rng.next_u64() as u8;
            // No line breaks inside a line (those are the stream's business).
            if byte == b'\n' {
                b' '
            } else {
                byte
            }
        })
        .collect()
}

/// One random change somewhere in the stream.
pub fn apply(rng: &mut Rng, lines: &mut Vec<Vec<u8>>) {
    if lines.is_empty() {
        lines.push(random_bytes(rng));
        return;
    }
    let i = rng.below(lines.len());
    match rng.below(15) {
        0 => swap_tokens(rng, &mut lines[i]),
        1 => {
            let j = rng.below(lines.len());
            lines.swap(i, j);
        }
        2 => {
            let copy = lines[i].clone();
            lines.insert(i, copy);
        }
        3 => {
            lines.remove(i);
        }
        4 => replace_number(rng, &mut lines[i]),
        5 => {
            let cut = rng.below(lines[i].len() + 1);
            lines[i].truncate(cut);
        }
        6 => {
            let at = rng.below(lines[i].len() + 1);
            let noise = random_bytes(rng);
            let noise = &noise[..noise.len().min(6)];
            lines[i].splice(at..at, noise.iter().copied());
        }
        7 => lines.insert(i, random_bytes(rng)),
        8 => {
            // CR LF from here on.
            for line in &mut lines[i..] {
                line.push(b'\r');
            }
        }
        9 => random_case(rng, &mut lines[i]),
        10 => {
            // A block left open: its DONE goes (a later one, or the harness, closes it).
            if let Some(done) = lines[i..]
                .iter()
                .position(|l| l.eq_ignore_ascii_case(b"DONE"))
            {
                lines.remove(i + done);
            }
        }
        11 => lines.insert(
            i,
            pick(rng, &[&b"DONE"[..], b"BOARD", b"SWAP2BOARD", b"YXBOARD"]).to_vec(),
        ),
        12 => {
            let token = pick(rng, &TOKENS).as_bytes();
            let at = rng.below(lines[i].len() + 1);
            lines[i].splice(at..at, token.iter().copied());
        }
        13 => {
            // Blanks and tabs around the pieces.
            let line: Vec<u8> = lines[i]
                .iter()
                .flat_map(|&b| {
                    if b == b',' || b == b' ' {
                        vec![b' ', b, b'\t']
                    } else {
                        vec![b]
                    }
                })
                .collect();
            lines[i] = line;
        }
        _ => lines.insert(i, Vec::new()),
    }
}

fn swap_tokens(rng: &mut Rng, line: &mut Vec<u8>) {
    let mut tokens: Vec<Vec<u8>> = line
        .split(|&b| b == b' ' || b == b',')
        .map(<[u8]>::to_vec)
        .collect();
    if tokens.len() < 2 {
        return;
    }
    let (a, b) = (rng.below(tokens.len()), rng.below(tokens.len()));
    tokens.swap(a, b);
    let separator: &[u8] = if chance(rng, 50) { b" " } else { b"," };
    *line = tokens.join(separator);
}

fn replace_number(rng: &mut Rng, line: &mut Vec<u8>) {
    let starts: Vec<usize> = (0..line.len())
        .filter(|&k| line[k].is_ascii_digit() && (k == 0 || !line[k - 1].is_ascii_digit()))
        .collect();
    if starts.is_empty() {
        return;
    }
    let start = *pick(rng, &starts);
    let end = (start..line.len())
        .find(|&k| !line[k].is_ascii_digit())
        .unwrap_or(line.len());
    let with = pick(rng, &BAD_NUMBERS).as_bytes();
    line.splice(start..end, with.iter().copied());
}

fn random_case(rng: &mut Rng, line: &mut [u8]) {
    for b in line.iter_mut() {
        if b.is_ascii_alphabetic() && chance(rng, 50) {
            *b ^= 0x20;
        }
    }
}
