//! Transcript cases (`protocol-tests/cases/*.txt`, format in `protocol-tests/README.md`):
//! lines to send, replies expected, directives; and the runner that plays one against a
//! fresh brain.

use super::brain::timeout_scale;
use super::conversation::{once_more_if_silent_exit, Conversation, Tally};
use super::reply::{is_live, parse_move, Reply};
use quinto::game::{Color, Rule};
use quinto::rng::Rng;
use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::Duration;

/// How long a reply may take unless `! timeout` says otherwise.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// A reply pattern (`< …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// The line itself; `*` stands for any run of characters.
    Text(String),
    /// `~move [@name]`: one move.
    Move(Option<String>),
    /// `~moves N [@name]`: N moves on one line.
    Moves(usize, Option<String>),
    /// `~swap2`: `SWAP` or one or more moves on one line.
    Swap2,
    /// `~messages`: any number of `MESSAGE` lines (and live analysis lines), none included.
    Messages,
    Error,
    Unknown,
    Message,
    /// `~detail nodes<=N`: a `MESSAGE depth … n COUNT …` search line with COUNT at most N.
    DetailNodesAtMost(u64),
    /// `~shallower-blocks N`: any number of whole live `INFO PV` blocks whose `INFO DEPTH` is
    /// below N, and `MESSAGE REALTIME` lines: the reports of earlier iterations, which a
    /// slow machine shows before the answer and a fast one does not.
    ShallowerBlocks(u32),
    About,
    Forbid,
}

impl Pattern {
    /// Whether the pattern matches `MESSAGE` lines.
    fn is_about_messages(&self) -> bool {
        match self {
            Pattern::Messages | Pattern::Message | Pattern::DetailNodesAtMost(_) => true,
            Pattern::Text(text) => text.starts_with("MESSAGE") || text.starts_with('*'),
            _ => false,
        }
    }

    /// Whether a line comes before what the pattern is about: the search line before a
    /// move (managers skip MESSAGE lines) unless the case asks for MESSAGE lines, and the
    /// live analysis lines unless the case asks for them by their text: a `MESSAGE
    /// REALTIME` pattern passes over the INFO blocks and the root moves' marks (POS, DONE,
    /// REFRESH: their number depends on the machine's speed) unless it names one, and an
    /// `INFO` pattern over the `MESSAGE REALTIME` lines.
    fn passes_over(&self, line: &str) -> bool {
        let text = match self {
            Pattern::Text(text) => text.as_str(),
            _ => "",
        };
        let realtime = |l: &str| l.starts_with("MESSAGE REALTIME");
        let live_passed = if realtime(text) {
            line.starts_with("INFO") || (is_root_mark(line) && !is_root_mark(text))
        } else if text.starts_with("INFO") {
            realtime(line)
        } else {
            true
        };
        (is_search_line(line) && !self.is_about_messages()) || (is_live(line) && live_passed)
    }
}

/// A line that says what a search found, before the answer: `MESSAGE depth …`, or `MESSAGE
/// chose …` (the value of a Swap2 or balance answer).
fn is_search_line(line: &str) -> bool {
    line.starts_with("MESSAGE depth ") || line.starts_with("MESSAGE chose ")
}

/// `MESSAGE REALTIME POS …`, `DONE …` or `REFRESH`: the marks of the root moves searched.
fn is_root_mark(line: &str) -> bool {
    [
        "MESSAGE REALTIME POS ",
        "MESSAGE REALTIME DONE ",
        "MESSAGE REALTIME REFRESH",
    ]
    .iter()
    .any(|mark| line.starts_with(mark))
}

/// One step of a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Send(Vec<u8>),
    Expect(Pattern),
    Timeout(Duration),
    Silent(Duration),
    Sleep(Duration),
    Exits(Duration),
    Eof,
    Autoplay(usize),
    /// `! xfail why`: the case is known to fail (see `run_file`).
    Xfail(String),
    /// `! args WORDS`: the brain's command-line arguments (the case's first step only).
    Args(Vec<String>),
}

/// A step and its line number in the case file.
pub type Numbered = (usize, Step);

/// Reads a case file's text.
pub fn parse(text: &str) -> Result<Vec<Numbered>, String> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let step = parse_line(line).map_err(|why| format!("line {number}: {why}"))?;
        if let Some(step) = step {
            steps.push((number, step));
        }
    }
    Ok(steps)
}

fn parse_line(line: &str) -> Result<Option<Step>, String> {
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    if line == ">" {
        return Ok(Some(Step::Send(b"\n".to_vec())));
    }
    if let Some(text) = line.strip_prefix("> ") {
        let mut bytes = unescape(text)?;
        bytes.push(b'\n');
        return Ok(Some(Step::Send(bytes)));
    }
    if let Some(text) = line.strip_prefix("< ") {
        return parse_pattern(text).map(|p| Some(Step::Expect(p)));
    }
    if let Some(text) = line.strip_prefix("! ") {
        return parse_directive(text).map(Some);
    }
    Err(format!(
        "a case line starts with '> ', '< ', '! ' or '#': {line:?}"
    ))
}

fn parse_pattern(text: &str) -> Result<Pattern, String> {
    let keyword = match text.strip_prefix('~') {
        Some(keyword) => keyword,
        None => return Ok(Pattern::Text(text.to_string())),
    };
    let words: Vec<&str> = keyword.split_whitespace().collect();
    let name = |word: Option<&&str>| -> Result<Option<String>, String> {
        match word {
            None => Ok(None),
            Some(w) => w
                .strip_prefix('@')
                .map(|n| Some(n.to_string()))
                .ok_or_else(|| format!("expected @name, got {w:?}")),
        }
    };
    Ok(match words.as_slice() {
        ["move"] | ["move", _] => Pattern::Move(name(words.get(1))?),
        ["moves", n] | ["moves", n, _] => {
            let n = n.parse().map_err(|_| format!("bad count {n:?}"))?;
            Pattern::Moves(n, name(words.get(2))?)
        }
        ["swap2"] => Pattern::Swap2,
        ["messages"] => Pattern::Messages,
        ["error"] => Pattern::Error,
        ["unknown"] => Pattern::Unknown,
        ["message"] => Pattern::Message,
        ["detail", limit] => match limit.strip_prefix("nodes<=").map(str::parse) {
            Some(Ok(n)) => Pattern::DetailNodesAtMost(n),
            _ => return Err(format!("expected ~detail nodes<=N, got {limit:?}")),
        },
        ["shallower-blocks", depth] => match depth.parse() {
            Ok(depth) => Pattern::ShallowerBlocks(depth),
            Err(_) => return Err(format!("expected ~shallower-blocks DEPTH, got {depth:?}")),
        },
        ["about"] => Pattern::About,
        ["forbid"] => Pattern::Forbid,
        _ => return Err(format!("unknown pattern ~{keyword}")),
    })
}

fn parse_directive(text: &str) -> Result<Step, String> {
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    let ms = || -> Result<Duration, String> {
        rest.trim()
            .parse()
            .map(Duration::from_millis)
            .map_err(|_| format!("! {word} needs milliseconds, got {rest:?}"))
    };
    Ok(match word {
        "timeout" => Step::Timeout(ms()?),
        "silent" => Step::Silent(ms()?),
        "sleep" => Step::Sleep(ms()?),
        "exits" => Step::Exits(ms()?),
        "eof" => Step::Eof,
        "args" => Step::Args(rest.split_whitespace().map(String::from).collect()),
        "xfail" if !rest.trim().is_empty() => Step::Xfail(rest.trim().to_string()),
        "raw" => Step::Send(unescape(rest)?),
        "autoplay" => Step::Autoplay(
            rest.trim()
                .parse()
                .map_err(|_| format!("! autoplay needs a count, got {rest:?}"))?,
        ),
        "long-line" => {
            let mut parts = rest.splitn(3, ' ');
            let bytes: usize = parts
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or("! long-line needs a length")?;
            let fill = unescape(parts.next().unwrap_or(""))?
                .first()
                .copied()
                .ok_or("! long-line needs a fill character")?;
            let mut line = unescape(parts.next().unwrap_or(""))?;
            if line.len() < bytes {
                line.resize(bytes, fill);
            }
            line.push(b'\n');
            Step::Send(line)
        }
        _ => return Err(format!("unknown directive ! {word}")),
    })
}

/// `\r`, `\n`, `\t`, `\0`, `\\` and `\xHH`.
fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        let (&escape, tail) = rest.split_first().ok_or("a lone \\ at the end")?;
        rest = tail;
        bytes.push(match escape {
            b'r' => b'\r',
            b'n' => b'\n',
            b't' => b'\t',
            b'0' => 0,
            b'\\' => b'\\',
            b'x' if rest.len() >= 2 => {
                let hex = std::str::from_utf8(&rest[..2]).map_err(|_| "bad \\x escape")?;
                rest = &rest[2..];
                u8::from_str_radix(hex, 16).map_err(|_| format!("bad \\x{hex}"))?
            }
            other => return Err(format!("unknown escape \\{}", other as char)),
        });
    }
    Ok(bytes)
}

/// Whether `line` matches `pattern`, `*` standing for any run of characters.
pub fn glob(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut middle = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match middle.find(part) {
            Some(at) => middle = &middle[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// How a case went.
#[derive(Clone, Debug)]
pub enum Verdict {
    Passed(Tally),
    /// It failed as its `! xfail` line says it would; the failure is kept.
    KnownFailure {
        why: String,
        failure: String,
    },
    /// It has an `! xfail` line but passed: the line can go.
    UnexpectedPass(Tally),
    /// Not run: `QUINTO_SKIP_CASES` names it, for the reason kept here.
    Skipped(String),
}

/// Why `QUINTO_SKIP_CASES` skips the case file `name`, if it does. The variable holds
/// `NAME=WHY` entries separated by `;` (scripts/windows-test uses it for the cases that
/// cannot pass under Wine); every entry must give a reason.
fn skip_reason(name: &str) -> Option<String> {
    let list = std::env::var("QUINTO_SKIP_CASES").unwrap_or_default();
    list.split(';')
        .filter(|entry| !entry.trim().is_empty())
        .find_map(|entry| match entry.split_once('=') {
            Some((file, why)) if !why.trim().is_empty() => {
                (file.trim() == name).then(|| why.trim().to_string())
            }
            _ => panic!("QUINTO_SKIP_CASES: '{entry}' is not NAME=WHY"),
        })
}

/// Plays one case file against a fresh brain. A case with an `! xfail why` line is known
/// to fail (a bug reported, not yet fixed): its failure does not fail the suite.
pub fn run_file(path: &Path) -> Result<Verdict, String> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    if let Some(why) = skip_reason(&name) {
        return Ok(Verdict::Skipped(why));
    }
    let steps = parse(&text).map_err(|why| format!("{name}: {why}"))?;
    let xfail = steps.iter().find_map(|(_, step)| match step {
        Step::Xfail(why) => Some(why.clone()),
        _ => None,
    });
    let result = once_more_if_silent_exit(&name, || run_steps(&name, &steps));
    match (result, xfail) {
        (Ok(tally), None) => Ok(Verdict::Passed(tally)),
        (Err(failure), None) => Err(failure),
        (Ok(tally), Some(_)) => Ok(Verdict::UnexpectedPass(tally)),
        (Err(failure), Some(why)) => Ok(Verdict::KnownFailure { why, failure }),
    }
}

fn run_steps(name: &str, steps: &[Numbered]) -> Result<Tally, String> {
    let (args, steps) = match steps.split_first() {
        Some(((_, Step::Args(args)), rest)) => (args.as_slice(), rest),
        _ => (&[][..], steps),
    };
    let mut runner = Runner {
        conversation: Conversation::start(args),
        peeked: VecDeque::new(),
        timeout: DEFAULT_TIMEOUT,
        bound: HashMap::new(),
        rng: Rng::new(name.len() as u64),
    };
    for (number, step) in steps {
        let origin = format!("{name}:{number}");
        if let Err(why) = runner.step(step, &origin) {
            return Err(format!("{origin}: {why}"));
        }
    }
    if let Some(line) = runner.peeked.pop_front() {
        return Err(format!(
            "{name}: at the end: unexpected line '{}'",
            shorten(&line)
        ));
    }
    runner
        .conversation
        .finish()
        .map_err(|why| format!("{name}: at the end: {why}"))
}

struct Runner {
    conversation: Conversation,
    /// Lines read ahead by `~messages` and `~shallower-blocks`.
    peeked: VecDeque<String>,
    timeout: Duration,
    /// `@name` bindings.
    bound: HashMap<String, String>,
    rng: Rng,
}

impl Runner {
    fn step(&mut self, step: &Step, origin: &str) -> Result<(), String> {
        let reads = matches!(step, Step::Silent(_) | Step::Exits(_) | Step::Autoplay(_));
        if reads {
            if let Some(line) = self.peeked.pop_front() {
                return Err(format!("unexpected line '{}'", shorten(&line)));
            }
        }
        let talk = &mut self.conversation;
        match step {
            Step::Send(bytes) => {
                let wants_free = bytes.windows(6).any(|w| w == b"{free}");
                let free = if wants_free {
                    self.opponent_point().map(|(x, y)| format!("{x},{y}"))
                } else {
                    None
                };
                let bytes = substitute(bytes, &self.bound, free.as_deref())?;
                self.conversation.send(&bytes, origin)?;
            }
            Step::Expect(Pattern::Messages) => loop {
                let line = self.next_line(&Pattern::Messages)?;
                if Reply::parse(&line) != Reply::Message && !is_live(&line) {
                    self.peeked.push_front(line);
                    break;
                }
                self.conversation.mirror.received(&line)?;
            },
            Step::Expect(pattern @ Pattern::ShallowerBlocks(depth)) => loop {
                let line = self.next_line(pattern)?;
                if line.starts_with("MESSAGE REALTIME") {
                    self.conversation.mirror.received(&line)?;
                    continue;
                }
                if !line.starts_with("INFO PV ") || line == "INFO PV DONE" {
                    self.peeked.push_front(line);
                    break;
                }
                let mut block = vec![line];
                while block.last().map_or(false, |l| l != "INFO PV DONE") {
                    block.push(self.next_line(pattern)?);
                }
                let block_depth = block
                    .iter()
                    .find_map(|l| l.strip_prefix("INFO DEPTH ")?.parse::<u32>().ok());
                if block_depth.map_or(true, |d| d >= *depth) {
                    // The answer's own blocks: read again by the patterns that follow.
                    for line in block.into_iter().rev() {
                        self.peeked.push_front(line);
                    }
                    break;
                }
                for line in &block {
                    self.conversation.mirror.received(line)?;
                }
            },
            Step::Expect(pattern) => {
                let mut line = self.next_line(pattern)?;
                while pattern.passes_over(&line) {
                    self.conversation.mirror.received(&line)?;
                    line = self.next_line(pattern)?;
                }
                self.matches(pattern, &line)
                    .map_err(|why| format!("got '{}': {why}", shorten(&line)))?;
                self.conversation.mirror.received(&line)?;
            }
            Step::Timeout(timeout) => self.timeout = *timeout,
            Step::Silent(quiet) => {
                if let Ok(line) = talk.read_raw(*quiet, "") {
                    return Err(format!("expected no output, got '{}'", shorten(&line)));
                }
                if !talk.brain.is_running() {
                    return Err("the brain exited".into());
                }
            }
            Step::Sleep(pause) => std::thread::sleep(*pause),
            Step::Xfail(_) => {}
            Step::Args(_) => return Err("! args must be the first step".into()),
            Step::Eof => talk.close_input(origin),
            Step::Exits(within) => {
                // Under Wine the deadline also holds Wine's own teardown of the process,
                // which grows with the memory the search touched (30 to 100 ms for a
                // 350 MB table, against 2 ms natively): scaled like every other wait.
                let within = within.mul_f64(timeout_scale());
                let (status, _) = talk.brain.wait_exit(within).ok_or_else(|| {
                    format!(
                        "still running {} ms after the last input",
                        within.as_millis()
                    )
                })?;
                if !status.success() {
                    return Err(format!("exited with {status}"));
                }
                // What it printed before leaving (a move it was asked for) is still checked.
                while let Ok(line) = talk.read_raw(Duration::from_secs(2), "") {
                    talk.mirror.received(&line)?;
                }
            }
            Step::Autoplay(turns) => {
                for _ in 0..*turns {
                    let point = match self.opponent_point() {
                        Some(point) => point,
                        None => break,
                    };
                    let talk = &mut self.conversation;
                    talk.send(format!("TURN {},{}\n", point.0, point.1).as_bytes(), origin)?;
                    talk.answers(self.timeout)?;
                }
            }
        }
        Ok(())
    }

    fn next_line(&mut self, pattern: &Pattern) -> Result<String, String> {
        match self.peeked.pop_front() {
            Some(line) => Ok(line),
            None => self
                .conversation
                .read_raw(self.timeout, &format!("{pattern:?}")),
        }
    }

    /// An empty point the opponent may play (not a renju foul for black), at random.
    fn opponent_point(&mut self) -> Option<(usize, usize)> {
        let board = self.conversation.mirror.board()?;
        let color = board.side_to_move();
        let renju_black = board.rule() == Rule::Renju && color == Color::Black;
        let free: Vec<(usize, usize)> = board
            .size()
            .points()
            .filter(|&p| board.is_empty(p) && !(renju_black && board.foul(p).is_some()))
            .map(|p| (p.x(), p.y()))
            .collect();
        (!free.is_empty()).then(|| free[self.rng.below(free.len())])
    }

    fn matches(&mut self, pattern: &Pattern, line: &str) -> Result<(), String> {
        let reply = Reply::parse(line);
        let ok = match pattern {
            Pattern::Text(text) => glob(text, line),
            Pattern::Move(name) => parse_move(line).is_some() && self.bind(name, line)?,
            Pattern::Moves(n, name) => {
                matches!(&reply, Reply::Moves(m) if m.len() == *n) && self.bind(name, line)?
            }
            Pattern::Swap2 => matches!(reply, Reply::Swap | Reply::Moves(_)),
            Pattern::Messages => reply == Reply::Message,
            Pattern::Error => reply == Reply::Error,
            Pattern::Unknown => reply == Reply::Unknown,
            Pattern::Message => reply == Reply::Message,
            // Handled as a step of its own (`Runner::step`).
            Pattern::ShallowerBlocks(_) => false,
            Pattern::DetailNodesAtMost(limit) => {
                detail_nodes(line).map_or(false, |nodes| nodes <= *limit)
            }
            Pattern::About => reply == Reply::About,
            Pattern::Forbid => matches!(reply, Reply::Forbid(_)),
        };
        if ok {
            Ok(())
        } else {
            Err(format!("expected {pattern:?}"))
        }
    }

    /// Binds `@name` the first time, compares later.
    fn bind(&mut self, name: &Option<String>, line: &str) -> Result<bool, String> {
        let name = match name {
            Some(name) => name,
            None => return Ok(true),
        };
        match self.bound.get(name) {
            Some(earlier) if earlier != line => Err(format!("@{name} was '{earlier}' before")),
            Some(_) => Ok(true),
            None => {
                self.bound.insert(name.clone(), line.to_string());
                Ok(true)
            }
        }
    }
}

/// Replaces `{name}` by what `@name` matched, and `{free}` by `free`.
fn substitute(
    bytes: &[u8],
    bound: &HashMap<String, String>,
    free: Option<&str>,
) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(open) = rest.iter().position(|&b| b == b'{') {
        out.extend_from_slice(&rest[..open]);
        rest = &rest[open..];
        let name_len = rest[1..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if name_len > 0 && rest.get(name_len + 1) == Some(&b'}') {
            let name = String::from_utf8_lossy(&rest[1..=name_len]).into_owned();
            let value = match (name.as_str(), free) {
                ("free", Some(free)) => free,
                ("free", None) => return Err("{free}: no free point".into()),
                _ => bound
                    .get(&name)
                    .ok_or_else(|| format!("{{{name}}} is not bound"))?,
            };
            out.extend_from_slice(value.as_bytes());
            rest = &rest[name_len + 2..];
        } else {
            out.push(b'{');
            rest = &rest[1..];
        }
    }
    out.extend_from_slice(rest);
    Ok(out)
}

/// The node count `n` of a `MESSAGE depth … n COUNT …` search line.
fn detail_nodes(line: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"MESSAGE") || words.get(1) != Some(&"depth") {
        return None;
    }
    let at = words.iter().position(|&w| w == "n")?;
    words.get(at + 1)?.parse().ok()
}

/// A long line, cut for a message.
fn shorten(line: &str) -> String {
    if line.chars().count() > 200 {
        let head: String = line.chars().take(200).collect();
        format!("{head}…")
    } else {
        line.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("ERROR *", "ERROR x"));
        assert!(glob("a*b*c", "a123b45c"));
        assert!(!glob("a*b*c", "a123c"));
        assert!(!glob("OK", "OK "));
        assert!(glob("*", ""));
        assert!(!glob("ab*ba", "aba"));
    }

    #[test]
    fn case_lines() {
        let steps =
            parse("# c\n> A\\tB\\x41\n>\n< ~moves 3 @x\n! long-line 5 \\t P\n! silent 10\n")
                .unwrap();
        assert_eq!(steps[0], (2, Step::Send(b"A\tBA\n".to_vec())));
        assert_eq!(steps[1], (3, Step::Send(b"\n".to_vec())));
        assert_eq!(
            steps[2],
            (4, Step::Expect(Pattern::Moves(3, Some("x".into()))))
        );
        assert_eq!(steps[3], (5, Step::Send(b"P\t\t\t\t\n".to_vec())));
        assert_eq!(steps[4], (6, Step::Silent(Duration::from_millis(10))));
        assert!(parse("TURN 1,1\n").is_err());
        assert!(parse("< ~nonsense\n").is_err());
        assert_eq!(
            parse("< ~shallower-blocks 3\n").unwrap()[0],
            (1, Step::Expect(Pattern::ShallowerBlocks(3)))
        );
        assert!(parse("< ~shallower-blocks three\n").is_err());
    }

    #[test]
    fn bound_names_are_substituted() {
        let mut bound = HashMap::new();
        bound.insert("a".to_string(), "7,7".to_string());
        let sub = |text: &[u8]| substitute(text, &bound, Some("1,2"));
        assert_eq!(sub(b"TAKEBACK {a}\n").unwrap(), b"TAKEBACK 7,7\n");
        assert_eq!(sub(b"TURN {free}\n").unwrap(), b"TURN 1,2\n");
        assert_eq!(sub(b"{} {a\n").unwrap(), b"{} {a\n");
        assert!(sub(b"{b}").is_err());
    }
}
