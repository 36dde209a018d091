//! A brain and the harness's mirror of it, kept in step: everything written is shown to the
//! mirror, and every line read is checked by it.

use super::brain::{engine_is_wrapped, Brain, Output};
use super::mirror::Mirror;
use super::reply::Reply;
use std::collections::BTreeMap;
use std::time::Duration;

/// What a finished conversation amounted to.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub requests: usize,
    pub moves_checked: usize,
    /// Replies by kind (`move`, `ERROR`, …).
    pub replies: BTreeMap<&'static str, usize>,
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.requests += other.requests;
        self.moves_checked += other.moves_checked;
        for (kind, count) in &other.replies {
            *self.replies.entry(kind).or_default() += count;
        }
    }
}

#[derive(Debug)]
pub struct Conversation {
    pub brain: Brain,
    pub mirror: Mirror,
    /// Everything written, when kept for a replay (`keep_input`).
    input: Option<Vec<u8>>,
    /// Lines read so far.
    lines_read: usize,
}

/// How a failure begins when the brain exited before writing a single line.
const EXITED_SILENT: &str = "the brain exited before writing anything";

/// Runs `run` (a whole conversation), and once more when the brain went before its first
/// line under a wrapper: through Wine a process now and then dies at its start, which is
/// Wine's doing, not the brain's. The first failure is printed, never hidden; a brain that
/// dies that way every time still fails.
pub fn once_more_if_silent_exit<T>(
    what: &str,
    run: impl Fn() -> Result<T, String>,
) -> Result<T, String> {
    match run() {
        Err(first) if engine_is_wrapped() && first.contains(EXITED_SILENT) => {
            let again = run();
            if again.is_ok() {
                println!("RETRY {what}: passed on a second run; the first: {first}");
            }
            again
        }
        result => result,
    }
}

impl Conversation {
    /// A fresh brain started with `args` (see `Brain::spawn`).
    pub fn start(args: &[String]) -> Conversation {
        Conversation {
            brain: Brain::spawn(args),
            mirror: Mirror::new(),
            input: None,
            lines_read: 0,
        }
    }

    /// Keeps everything written from now on (see `input`).
    pub fn keep_input(&mut self) {
        self.input.get_or_insert_with(Vec::new);
    }

    /// Everything written since `keep_input`: `pbrain-quinto < file` replays it.
    pub fn input(&self) -> Option<&[u8]> {
        self.input.as_deref()
    }

    /// Writes bytes to the brain; `origin` names them in failure messages.
    pub fn send(&mut self, bytes: &[u8], origin: &str) -> Result<(), String> {
        self.mirror.sent(bytes, origin);
        if let Some(input) = self.input.as_mut() {
            input.extend_from_slice(bytes);
        }
        self.brain
            .write(bytes)
            .map_err(|why| match self.lines_read {
                0 => format!("{EXITED_SILENT} ({why})"),
                _ => why,
            })
    }

    /// Closes the brain's input.
    pub fn close_input(&mut self, origin: &str) {
        self.mirror.closed(origin);
        self.brain.close_input();
    }

    /// The next line, unchecked.
    pub fn read_raw(&mut self, timeout: Duration, waiting_for: &str) -> Result<String, String> {
        match self.brain.read(timeout) {
            Output::Line(line) => {
                self.lines_read += 1;
                Ok(line)
            }
            Output::Timeout => Err(format!(
                "no reply within {} ms (waiting for {waiting_for})",
                timeout.as_millis()
            )),
            Output::Closed => {
                let what = match self.lines_read {
                    0 => EXITED_SILENT,
                    _ => "the brain exited",
                };
                Err(format!(
                    "{what} ({}; waiting for {waiting_for})",
                    self.brain.exit_report()
                ))
            }
        }
    }

    /// The next line, checked by the mirror.
    pub fn read(&mut self, timeout: Duration, waiting_for: &str) -> Result<String, String> {
        let line = self.read_raw(timeout, waiting_for)?;
        self.mirror.received(&line)?;
        Ok(line)
    }

    /// Reads until every request sent has had its reply (`MESSAGE` lines included).
    pub fn answers(&mut self, timeout: Duration) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        while let Some(awaiting) = self.mirror.awaiting() {
            lines.push(self.read(timeout, &awaiting)?);
        }
        Ok(lines)
    }

    /// Sends `ABOUT` and reads up to its answer: every reply owed before it must have come,
    /// and nothing else. Returns the lines read, the ABOUT line last.
    pub fn sync(&mut self, timeout: Duration, origin: &str) -> Result<Vec<String>, String> {
        if self.mirror.in_block() {
            return Err("cannot sync inside a block".into());
        }
        self.send(b"ABOUT\n", origin)?;
        let waiting_for = format!("the replies up to an ABOUT sent after {origin}");
        let mut lines = Vec::new();
        loop {
            let line = self.read(timeout, &waiting_for)?;
            let done = Reply::parse(&line) == Reply::About && self.mirror.awaiting().is_none();
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// Ends the brain (END unless it has exited) and checks the end: no line left unread, no
    /// reply still owed (unless END cut it short), nothing on stderr.
    pub fn finish(self) -> Result<Tally, String> {
        let tally = Tally {
            requests: self.mirror.requests(),
            moves_checked: self.mirror.moves_checked(),
            replies: self.mirror.replies().clone(),
        };
        let owed = if self.mirror.end_sent() {
            None
        } else {
            self.mirror.awaiting()
        };
        let (leftover, stderr) = self.brain.finish();
        if !stderr.is_empty() {
            return Err(format!("the brain wrote on stderr: {stderr:?}"));
        }
        if !leftover.is_empty() {
            return Err(format!("unread output at the end: {leftover:?}"));
        }
        if let Some(owed) = owed {
            return Err(format!("no reply came for {owed}"));
        }
        Ok(tally)
    }
}
