//! The one place replies are written: a line, a newline, a flush; and how much the line before
//! each move says.

use std::io::Write;

/// What the `MESSAGE` line before each move says (`INFO show_detail`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// `INFO show_detail 0`: no line.
    Off,
    /// Until the manager says: depth, value, nodes and time, which managers that never send
    /// show_detail (Piskvork) show in their logs.
    #[default]
    Short,
    /// `INFO show_detail` not 0: nodes per millisecond and the principal variation too.
    Full,
}

/// Where replies go.
pub trait Sink {
    fn line(&mut self, text: &str);
}

/// Standard output. A manager that closed our stdout is gone, so we leave too.
#[derive(Debug, Default)]
pub struct Stdout;

impl Sink for Stdout {
    fn line(&mut self, text: &str) {
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        let written = writeln!(lock, "{text}").and_then(|_| lock.flush());
        if written.is_err() {
            std::process::exit(0);
        }
    }
}

/// Collects replies (tests).
#[derive(Debug, Default)]
pub struct Lines(pub Vec<String>);

impl Sink for Lines {
    fn line(&mut self, text: &str) {
        self.0.push(text.to_string());
    }
}
