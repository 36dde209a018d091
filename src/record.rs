//! Game records in Piskvork's `.psq` format, written and read.
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0     header: the board size ("11:11, 0" as Piskvork writes it)
//! 8,8,0                         one line per stone, black first: x+1,y+1,ms (1-based, y from
//! 9,7,2153                      the top: protocol coordinates plus one), ms the move's time
//! …
//! human                         the black player's name
//! quinto-master                 the white player's name
//! 1-0 five: black made five d4-h8
//! rule renju
//! ```
//!
//! The one reader and writer of records: the terminal game (`play`) and the match runner
//! (`tournaments/`) both use it. The trailer's first three lines follow the moves: both
//! names and a result line (black's score first: `1-0`, `0-1`, `1/2-1/2`; `*` for a game
//! saved before its end). `rule NAME` is ours: the psq format has no place for the
//! rule, and a reader that does not know the line ignores it, as Piskvork ignores everything
//! after the moves.
//!
//! Reading is lenient where Piskvork's own files vary (moves as `x,y` or `x,y,ms`, any
//! trailer, blank lines, `\r\n`) and strict where a wrong answer would mislead: a header
//! without a size, a move off the board or on a taken point, and files that are not text are
//! refused with the line at fault.

use crate::game::{BoardSize, Pos, Rule};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Larger files are not records (a 32×32 game is about 12 KB).
const MAX_RECORD_BYTES: u64 = 1 << 20;

/// One game as a `.psq` file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub size: BoardSize,
    /// Every stone in move order (black first, colours alternating) with its move's ms.
    pub moves: Vec<(Pos, u64)>,
    pub black: String,
    pub white: String,
    /// The result line (`1-0 five: …`), empty when the file has none.
    pub result: String,
    /// The rule, when the file names it (files from other programs do not).
    pub rule: Option<Rule>,
}

impl Record {
    /// The file's text.
    pub fn to_psq(&self) -> String {
        let size = self.size;
        let mut out = format!("Piskvorky {}x{}, 11:11, 0\n", size.width(), size.height());
        for &(pos, ms) in &self.moves {
            out.push_str(&format!("{},{},{}\n", pos.x() + 1, pos.y() + 1, ms));
        }
        out.push_str(&format!(
            "{}\n{}\n{}\n",
            self.black, self.white, self.result
        ));
        if let Some(rule) = self.rule {
            out.push_str(&format!("rule {}\n", rule.name()));
        }
        out
    }

    /// Reads a record from its text; errors name the line at fault.
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty());
        let (_, header) = lines.next().ok_or("the file is empty")?;
        let size = parse_header(header)?;
        let mut moves: Vec<(Pos, u64)> = Vec::new();
        let mut trailer = Vec::new();
        for (number, line) in lines.by_ref() {
            match parse_move_line(line) {
                Some((x, y, ms)) if trailer.is_empty() => {
                    let pos = size.pos(x - 1, y - 1).ok_or_else(|| {
                        format!(
                            "line {number}: move {} at {x},{y} is off the {}x{} board",
                            moves.len() + 1,
                            size.width(),
                            size.height()
                        )
                    })?;
                    if moves.iter().any(|&(p, _)| p == pos) {
                        return Err(format!(
                            "line {number}: move {} ({}) is on a point already taken",
                            moves.len() + 1,
                            size.to_human(pos)
                        ));
                    }
                    moves.push((pos, ms.max(0) as u64));
                }
                _ => trailer.push((number, line)),
            }
        }
        let mut rule = None;
        let mut texts = Vec::new();
        for (number, line) in trailer {
            match line.strip_prefix("rule ") {
                Some(name) => {
                    rule =
                        Some(rule_by_name(name.trim()).ok_or_else(|| {
                            format!("line {number}: unknown rule '{}'", name.trim())
                        })?)
                }
                None => texts.push(line.to_string()),
            }
        }
        let mut texts = texts.into_iter();
        Ok(Record {
            size,
            moves,
            black: texts.next().unwrap_or_default(),
            white: texts.next().unwrap_or_default(),
            result: texts.next().unwrap_or_default(),
            rule,
        })
    }

    /// Reads a record file.
    pub fn read(path: &Path) -> Result<Record, String> {
        let shown = path.display();
        let length = fs::metadata(path)
            .map_err(|e| format!("cannot read {shown}: {e}"))?
            .len();
        if length > MAX_RECORD_BYTES {
            return Err(format!(
                "{shown} is not a game record: {length} bytes is far too long for one"
            ));
        }
        let bytes = fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{shown} is not a game record: it is not text"))?;
        Record::parse(&text).map_err(|why| format!("{shown} is not a usable record: {why}"))
    }

    /// Writes the record to `path` (creating its directory).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        fs::write(path, self.to_psq()).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Writes the record into `dir` under a new name from the current time (UTC) and the
    /// rule, such as `20250314-201502-renju.psq`; returns the path.
    pub fn write_new(&self, dir: &Path) -> Result<PathBuf, String> {
        let stem = format!(
            "{}-{}",
            timestamp(SystemTime::now()),
            self.rule.map_or("game", Rule::name)
        );
        let mut path = dir.join(format!("{stem}.psq"));
        let mut n = 2;
        while path.exists() {
            path = dir.join(format!("{stem}-{n}.psq"));
            n += 1;
        }
        self.write(&path)?;
        Ok(path)
    }
}

/// A rule by its [`Rule::name`].
pub fn rule_by_name(name: &str) -> Option<Rule> {
    Rule::ALL
        .iter()
        .copied()
        .find(|rule| rule.name().eq_ignore_ascii_case(name))
}

/// `Piskvorky 15x15, 11:11, 0` (anything after the size is ignored).
fn parse_header(header: &str) -> Result<BoardSize, String> {
    let not_psq = || {
        format!(
            "line 1 should be a Piskvork header like 'Piskvorky 15x15, 11:11, 0', not '{}'",
            clip(header)
        )
    };
    let rest = header.strip_prefix("Piskvorky ").ok_or_else(not_psq)?;
    let dims = rest.split(',').next().unwrap_or("").trim();
    let (w, h) = dims.split_once('x').ok_or_else(not_psq)?;
    let w: usize = w.trim().parse().map_err(|_| not_psq())?;
    let h: usize = h.trim().parse().map_err(|_| not_psq())?;
    BoardSize::new(w, h).map_err(|why| format!("line 1: {why}"))
}

/// `x,y,ms` or `x,y`: whole numbers only.
fn parse_move_line(line: &str) -> Option<(i64, i64, i64)> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<i64>().ok());
    match fields.len() {
        2 => Some((number(0)?, number(1)?, 0)),
        3 => Some((number(0)?, number(1)?, number(2)?)),
        _ => None,
    }
}

/// A line shortened for an error message.
fn clip(line: &str) -> String {
    let mut clipped: String = line.chars().take(40).collect();
    if clipped.len() < line.len() {
        clipped.push_str("...");
    }
    clipped
}

/// `YYYYMMDD-HHMMSS` in UTC.
fn timestamp(now: SystemTime) -> String {
    let seconds = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn size15() -> BoardSize {
        BoardSize::square(15).unwrap()
    }

    #[test]
    fn writes_the_match_runners_layout_and_reads_it_back() {
        let record = Record {
            size: size15(),
            moves: vec![
                (Pos::new(7, 7), 0),
                (Pos::new(8, 7), 120),
                (Pos::new(0, 14), 5),
            ],
            black: "alpha".into(),
            white: "beta".into(),
            result: "1-0 bad-output: white: 'hello, world' instead of a move".into(),
            rule: None,
        };
        let text = record.to_psq();
        assert_eq!(
            text,
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,120\n1,15,5\nalpha\nbeta\n\
             1-0 bad-output: white: 'hello, world' instead of a move\n"
        );
        assert_eq!(Record::parse(&text), Ok(record.clone()));
        let renju = Record {
            rule: Some(Rule::Renju),
            ..record
        };
        assert_eq!(Record::parse(&renju.to_psq()), Ok(renju));
    }

    #[test]
    fn reads_piskvork_variants() {
        let text = "Piskvorky 20x20, 11:11, 0\r\n10,10\r\n11,10,-3\r\n\r\npbrain-a.exe\r\n-1\r\n";
        let record = Record::parse(text).unwrap();
        assert_eq!(record.size, BoardSize::square(20).unwrap());
        assert_eq!(
            record.moves,
            vec![(Pos::new(9, 9), 0), (Pos::new(10, 9), 0)]
        );
        assert_eq!(record.black, "pbrain-a.exe");
        assert_eq!(record.white, "-1");
        assert_eq!(record.rule, None);
    }

    #[test]
    fn damaged_records_are_refused_with_the_line() {
        let cases = [
            ("", "empty"),
            ("hello\n8,8,0\n", "Piskvork header"),
            ("Piskvorky 40x40, 11:11, 0\n", "unsupported board size"),
            (
                "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n",
                "line 3: move 2 at 16,1 is off",
            ),
            ("Piskvorky 15x15, 11:11, 0\n8,8,0\n0,1,0\n", "off the 15x15"),
            (
                "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n",
                "line 3: move 2 (h8)",
            ),
            (
                "Piskvorky 15x15, 11:11, 0\nx\ny\nz\nrule chess\n",
                "unknown rule 'chess'",
            ),
        ];
        for (text, wanted) in cases {
            let why = Record::parse(text).unwrap_err();
            assert!(why.contains(wanted), "{text:?}: {why}");
        }
    }

    #[test]
    fn moves_after_the_trailer_starts_are_not_moves() {
        let record = Record::parse("Piskvorky 15x15, 11:11, 0\n8,8,0\nname\n9,9,0\n").unwrap();
        assert_eq!(record.moves.len(), 1);
        assert_eq!(record.white, "9,9,0");
    }

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(timestamp(UNIX_EPOCH), "19700101-000000");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3_723); // 2000-02-29 01:02:03
        assert_eq!(timestamp(t), "20000229-010203");
        let t = UNIX_EPOCH + Duration::from_secs(1_735_689_599); // 2024-12-31 23:59:59
        assert_eq!(timestamp(t), "20241231-235959");
    }
}
