//! Yixin-Board's analysis database: positions (one key for all the images of a position
//! under the board's symmetries, and for one rule), each with what the user recorded, in a
//! text file of its own format.
//!
//! The file (UTF-8): the first line `Quinto analysis database 1`, then one record a line,
//! its fields separated by tabs: `RULE WxH STONES TAG VALUE DEPTH BOUND TEXT [X,Y=LABEL]…`
//! - RULE: the `INFO rule` value (0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro exact);
//! - STONES: `-` for the empty board, else `Bx,y` and `Wx,y` separated by blanks, the
//!   position in its canonical orientation (the least of its symmetric images);
//! - TAG: Yixin-Board's label as a character code (0: none); VALUE, DEPTH, BOUND (0 none,
//!   1 upper, 2 lower, 3 exact): numbers;
//! - TEXT, the comment, and each LABEL, the text on point X,Y (canonical orientation) of the
//!   board: `\\`, `\t`, `\n` and `\r` escaped.
//!
//! Saving writes a temporary file beside it and renames it over the old one, so a crash
//! leaves the old file or the new one, never half of one.

use super::plural::counted;
use crate::game::{BoardSize, Pos, Rule};
use crate::replace_file::replace_file;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const HEADER: &str = "Quinto analysis database 1";

/// A position's stones: (colour, 0 black and 1 white; x; y), sorted.
type Stones = Vec<(u8, u8, u8)>;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    rule: u32,
    width: u8,
    height: u8,
    stones: Stones,
}

/// What is known of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub tag: i32,
    pub value: i32,
    pub depth: i32,
    pub bound: i32,
    pub text: String,
    /// Texts on the board's points, by point of the canonical orientation.
    pub labels: BTreeMap<(u8, u8), String>,
}

/// A position in its canonical orientation, and the way there from the caller's.
#[derive(Clone, Debug)]
pub struct Canonical {
    pub key: Key,
    symmetry: u8,
}

impl Canonical {
    /// The position after `moves` (black first) under `rule`.
    pub fn new(rule: Rule, size: BoardSize, moves: &[Pos]) -> Canonical {
        let (width, height) = (size.width() as u8, size.height() as u8);
        // A transposition keeps only a square board square.
        let symmetries = if width == height { 8 } else { 4 };
        let image = |symmetry: u8| {
            let mut stones: Stones = moves
                .iter()
                .enumerate()
                .map(|(i, &pos)| {
                    let (x, y) = transform(symmetry, width, height, pos);
                    ((i % 2) as u8, x, y)
                })
                .collect();
            stones.sort_unstable();
            stones
        };
        let (symmetry, stones) = (0..symmetries)
            .map(|s| (s, image(s)))
            .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
            .unwrap_or((0, Vec::new()));
        Canonical {
            key: Key {
                rule: rule.protocol_value(),
                width,
                height,
                stones,
            },
            symmetry,
        }
    }

    /// A point of the caller's orientation in the canonical one.
    pub fn point(&self, pos: Pos) -> (u8, u8) {
        transform(self.symmetry, self.key.width, self.key.height, pos)
    }
}

/// One of the board's symmetries: bit 0 mirrors x, bit 1 mirrors y, bit 2 transposes.
fn transform(symmetry: u8, width: u8, height: u8, pos: Pos) -> (u8, u8) {
    let (mut x, mut y) = (pos.x() as u8, pos.y() as u8);
    if symmetry & 1 != 0 {
        x = width - 1 - x;
    }
    if symmetry & 2 != 0 {
        y = height - 1 - y;
    }
    if symmetry & 4 != 0 {
        (y, x)
    } else {
        (x, y)
    }
}

/// The records of one file.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    records: BTreeMap<Key, Record>,
    /// False when the file could not be read: it is never written over.
    writable: bool,
    /// Changed since the last save.
    changed: bool,
}

impl Database {
    /// The database in `path` (empty when there is no such file yet), and a line saying what
    /// was read; a damaged file gives an empty database that leaves the file as it is.
    pub fn open(path: &Path) -> (Database, String) {
        let mut database = Database {
            path: path.to_path_buf(),
            records: BTreeMap::new(),
            writable: true,
            changed: false,
        };
        let shown = path.display();
        let note = match std::fs::read(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                format!("analysis database {shown}: a new file, written at the first change")
            }
            Err(e) => {
                database.writable = false;
                format!(
                    "analysis database {shown} cannot be read ({e}): empty, and the file is left as it is"
                )
            }
            Ok(bytes) => match parse_file(&String::from_utf8_lossy(&bytes)) {
                Ok(records) => {
                    database.records = records;
                    let count = database.records.len() as u64;
                    format!(
                        "analysis database {shown}: {}",
                        counted(count, "position", "positions")
                    )
                }
                Err(why) => {
                    database.writable = false;
                    format!("analysis database {shown} is damaged ({why}): empty, and the file is left as it is")
                }
            },
        };
        (database, note)
    }

    pub fn get(&self, key: &Key) -> Option<&Record> {
        self.records.get(key)
    }

    /// Changes a position's record (made empty if there was none); a record left empty is
    /// dropped.
    pub fn edit(&mut self, key: &Key, change: impl FnOnce(&mut Record)) {
        self.changed = true;
        let mut record = self.records.remove(key).unwrap_or_default();
        change(&mut record);
        if record != Record::default() {
            self.records.insert(key.clone(), record);
        }
    }

    /// Forgets a position; with `extensions`, every position that adds stones to it too
    /// (seen in any orientation).
    pub fn delete(&mut self, key: &Key, extensions: bool) {
        self.changed = true;
        self.records.remove(key);
        if extensions {
            self.records.retain(|other, _| !extends(other, key));
        }
    }

    /// Writes the file (a temporary file renamed over it) if anything changed.
    pub fn save(&mut self) -> Result<(), String> {
        if !self.changed {
            return Ok(());
        }
        if !self.writable {
            return Err(format!(
                "analysis database {} was not read: not written over",
                self.path.display()
            ));
        }
        let text = format_file(&self.records);
        replace_file(&self.path, |out| out.write_all(text.as_bytes()))
            .map_err(|e| format!("analysis database {} not saved: {e}", self.path.display()))?;
        self.changed = false;
        Ok(())
    }
}

/// Whether `longer` is `shorter` with stones added, in some orientation of `shorter`.
fn extends(longer: &Key, shorter: &Key) -> bool {
    if (longer.rule, longer.width, longer.height) != (shorter.rule, shorter.width, shorter.height)
        || longer.stones.len() <= shorter.stones.len()
    {
        return false;
    }
    let symmetries = if shorter.width == shorter.height {
        8
    } else {
        4
    };
    (0..symmetries).any(|s| {
        shorter.stones.iter().all(|&(c, x, y)| {
            let (x, y) = transform(
                s,
                shorter.width,
                shorter.height,
                Pos::new(x.into(), y.into()),
            );
            longer.stones.binary_search(&(c, x, y)).is_ok()
        })
    })
}

fn format_file(records: &BTreeMap<Key, Record>) -> String {
    let mut text = format!("{HEADER}\n");
    for (key, record) in records {
        let stones: Vec<String> = key
            .stones
            .iter()
            .map(|&(c, x, y)| format!("{}{x},{y}", if c == 0 { 'B' } else { 'W' }))
            .collect();
        let stones = if stones.is_empty() {
            "-".to_string()
        } else {
            stones.join(" ")
        };
        text.push_str(&format!(
            "{}\t{}x{}\t{stones}\t{}\t{}\t{}\t{}\t{}",
            key.rule,
            key.width,
            key.height,
            record.tag,
            record.value,
            record.depth,
            record.bound,
            escape(&record.text)
        ));
        for (&(x, y), label) in &record.labels {
            text.push_str(&format!("\t{x},{y}={}", escape(label)));
        }
        text.push('\n');
    }
    text
}

fn parse_file(text: &str) -> Result<BTreeMap<Key, Record>, String> {
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some(HEADER) {
        return Err(format!("its first line is not '{HEADER}'"));
    }
    let mut records = BTreeMap::new();
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (key, record) = parse_record(line.trim_end_matches('\r'))
            .map_err(|why| format!("line {}: {why}", i + 2))?;
        records.insert(key, record);
    }
    Ok(records)
}

fn parse_record(line: &str) -> Result<(Key, Record), String> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() < 8 {
        return Err(format!("{} fields, at least 8 expected", fields.len()));
    }
    let number = |text: &str| {
        text.parse::<i32>()
            .map_err(|_| format!("'{text}' is not a number"))
    };
    let rule = fields[0]
        .parse::<u32>()
        .ok()
        .filter(|&r| Rule::from_protocol(r).is_some())
        .ok_or_else(|| format!("'{}' is not a rule", fields[0]))?;
    let size = fields[1]
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u8>().ok()?, h.parse::<u8>().ok()?)))
        .filter(|&(w, h)| BoardSize::new(w.into(), h.into()).is_ok())
        .ok_or_else(|| format!("'{}' is not a board size", fields[1]))?;
    let on_board = |x: u8, y: u8| x < size.0 && y < size.1;
    let point = |text: &str| {
        text.split_once(',')
            .and_then(|(x, y)| Some((x.parse::<u8>().ok()?, y.parse::<u8>().ok()?)))
            .filter(|&(x, y)| on_board(x, y))
            .ok_or_else(|| format!("'{text}' is not a point on the board"))
    };
    let mut stones = Stones::new();
    if fields[2] != "-" {
        for stone in fields[2].split(' ') {
            let colour = match stone.chars().next() {
                Some('B') => 0,
                Some('W') => 1,
                _ => return Err(format!("'{stone}' is not a stone")),
            };
            let (x, y) = point(&stone[1..])?;
            stones.push((colour, x, y));
        }
    }
    stones.sort_unstable();
    let mut record = Record {
        tag: number(fields[3])?,
        value: number(fields[4])?,
        depth: number(fields[5])?,
        bound: number(fields[6])?,
        text: unescape(fields[7]),
        labels: BTreeMap::new(),
    };
    for label in &fields[8..] {
        let (at, text) = label
            .split_once('=')
            .ok_or_else(|| format!("'{label}' is not X,Y=LABEL"))?;
        record.labels.insert(point(at)?, unescape(text));
    }
    let key = Key {
        rule,
        width: size.0,
        height: size.1,
        stones,
    };
    Ok((key, record))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(size: BoardSize, points: &[(i64, i64)]) -> Vec<Pos> {
        points
            .iter()
            .map(|&(x, y)| size.pos(x, y).expect("on the board"))
            .collect()
    }

    #[test]
    fn the_images_of_a_position_share_one_key_and_their_points_follow() {
        let size = BoardSize::square(15).expect("a size");
        let one = Canonical::new(Rule::Renju, size, &at(size, &[(7, 7), (8, 6), (9, 9)]));
        // Mirrored left to right, in another move order of the same colours.
        let other = Canonical::new(Rule::Renju, size, &at(size, &[(7, 7), (6, 6), (5, 9)]));
        assert_eq!(one.key, other.key);
        let p = size.pos(3, 2).expect("on the board");
        let q = size.pos(11, 2).expect("on the board");
        assert_eq!(one.point(p), other.point(q));
        let freestyle = Canonical::new(Rule::Freestyle, size, &at(size, &[(7, 7)]));
        assert_ne!(
            freestyle.key,
            Canonical::new(Rule::Renju, size, &at(size, &[(7, 7)])).key
        );
    }

    #[test]
    fn records_survive_the_file_and_damage_is_reported_not_overwritten() {
        let size = BoardSize::square(15).expect("a size");
        let key = Canonical::new(Rule::Freestyle, size, &at(size, &[(7, 7), (7, 8)])).key;
        let mut records = BTreeMap::new();
        let mut record = Record {
            tag: 'W' as i32,
            value: -35,
            depth: 12,
            bound: 3,
            text: "two\nlines\t\\ \"quoted\"".into(),
            labels: BTreeMap::new(),
        };
        record.labels.insert((3, 4), "A b".into());
        records.insert(key.clone(), record);
        let empty = Canonical::new(Rule::Renju, size, &[]).key;
        records.insert(
            empty,
            Record {
                tag: 'a' as i32,
                ..Record::default()
            },
        );
        let text = format_file(&records);
        assert_eq!(parse_file(&text), Ok(records));
        assert!(parse_file("garbage").is_err());
        assert!(parse_file(&format!("{HEADER}\n0\t15x15\tB7,7\t1\t2\n")).is_err());
        assert!(parse_file(&format!("{HEADER}\n0\t15x15\tB7,99\t0\t0\t0\t0\t\n")).is_err());
        // A damaged file: an empty database, said so, and the file never written over.
        let path = std::env::temp_dir().join(format!("quinto-damaged-{}.db", std::process::id()));
        std::fs::write(&path, "not a database\n").expect("a temporary file");
        let (mut damaged, note) = Database::open(&path);
        assert!(note.contains("damaged"), "{note}");
        assert!(damaged.get(&key).is_none());
        damaged.edit(&key, |r| r.tag = 1);
        assert!(damaged.save().is_err());
        assert_eq!(
            std::fs::read_to_string(&path).ok().as_deref(),
            Some("not a database\n")
        );
        let _ = std::fs::remove_file(&path);
        let bigger = Canonical::new(Rule::Freestyle, size, &at(size, &[(7, 7), (7, 6), (0, 0)]));
        assert!(extends(&bigger.key, &key));
        assert!(!extends(&key, &bigger.key));
    }
}
