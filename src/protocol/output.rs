//! The one place replies are written: a line, a newline, a flush.

use std::io::Write;

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
