//! One `pbrain-quinto` process speaking the protocol: bytes in, lines out through a reader
//! thread (so a hung brain makes a read time out instead of hanging the test), and
//! everything it writes on stderr kept for the check that there is none.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The binary under test.
pub const BINARY: &str = env!("CARGO_BIN_EXE_pbrain-quinto");

/// The command line that starts the brain: `QUINTO_ENGINE` when it is set and not blank (a
/// command line split at blanks, e.g. `/usr/lib/wine/wine64 /path/pbrain-quinto.exe`, as
/// scripts/windows-test sets it), else `BINARY`.
pub fn engine_command() -> Vec<String> {
    let words: Vec<String> = std::env::var("QUINTO_ENGINE")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    if words.is_empty() {
        vec![BINARY.to_string()]
    } else {
        words
    }
}

/// Whether the brain runs through `QUINTO_ENGINE` (a wrapper such as Wine) rather than as
/// the native `BINARY`.
pub fn engine_is_wrapped() -> bool {
    engine_command() != [BINARY.to_string()]
}

/// `QUINTO_TIMEOUT_SCALE` (default 1): every wait for a line is multiplied by it, for a
/// brain that answers more slowly than the native build (under Wine). A `! silent` wait
/// grows too, which only makes it stricter; so do exit deadlines (`! exits`): 100 ms become
/// 300 ms under Wine, still within the protocol's 0.5 s for END.
pub fn timeout_scale() -> f64 {
    match std::env::var("QUINTO_TIMEOUT_SCALE") {
        Err(_) => 1.0,
        Ok(text) => match text.trim().parse::<f64>() {
            Ok(scale) if scale.is_finite() && scale >= 1.0 => scale,
            _ => panic!("QUINTO_TIMEOUT_SCALE={text:?}: want a number >= 1"),
        },
    }
}

/// `QUINTO_THREAD_NUM` (unset: the brain's default): sent as `INFO thread_num N` to every
/// brain as it starts, before the transcript's first line.
pub fn thread_num() -> Option<u32> {
    let text = std::env::var("QUINTO_THREAD_NUM").ok()?;
    match text.trim().parse::<u32>() {
        Ok(threads) if threads >= 1 => Some(threads),
        _ => panic!("QUINTO_THREAD_NUM={text:?}: want a number >= 1"),
    }
}

/// What a read gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// One line, without its `\n` (a `\r` stays, so it fails every pattern).
    Line(String),
    /// Nothing within the time allowed.
    Timeout,
    /// The brain closed its standard output (it exited).
    Closed,
}

/// A running brain.
#[derive(Debug)]
pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
    last_write: Instant,
    status: Option<ExitStatus>,
}

impl Brain {
    /// Starts the brain in protocol mode (no command, logging off), with `args` after the
    /// engine's command line (what a GUI adds).
    pub fn spawn(args: &[String]) -> Brain {
        let command = engine_command();
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .args(args)
            .env_remove("QUINTO_LOG")
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", command.join(" ")));
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut raw = Vec::new();
            loop {
                raw.clear();
                match reader.read_until(b'\n', &mut raw) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if raw.ends_with(b"\n") {
                            raw.pop();
                        }
                        let line = String::from_utf8(raw.clone()).unwrap_or_else(|_| {
                            format!("<not UTF-8: {}>", String::from_utf8_lossy(&raw))
                        });
                        if sender.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buffer) {
                if n == 0 {
                    return;
                }
                sink.lock()
                    .expect("stderr buffer")
                    .extend_from_slice(&buffer[..n]);
            }
        });
        let mut brain = Brain {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            stderr_reader: Some(stderr_reader),
            last_write: Instant::now(),
            status: None,
        };
        if let Some(threads) = thread_num() {
            // A setting with no reply: every transcript then runs with that many threads.
            let line = format!("INFO thread_num {threads}\n");
            brain
                .write(line.as_bytes())
                .unwrap_or_else(|e| panic!("cannot set thread_num: {e}"));
        }
        brain
    }

    /// Writes bytes (and flushes).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| "the brain's input is already closed".to_string())?;
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the brain (has it exited?): {e}"))?;
        self.last_write = Instant::now();
        Ok(())
    }

    /// Closes the brain's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
        self.last_write = Instant::now();
    }

    /// The next line, waiting at most `timeout`.
    pub fn read(&self, timeout: Duration) -> Output {
        match self.lines.recv_timeout(timeout.mul_f64(timeout_scale())) {
            Ok(line) => Output::Line(line),
            Err(RecvTimeoutError::Timeout) => Output::Timeout,
            Err(RecvTimeoutError::Disconnected) => Output::Closed,
        }
    }

    /// Waits until the process exits, at most `within` after the last write; returns its
    /// status and how long after that write it exited (to the millisecond).
    pub fn wait_exit(&mut self, within: Duration) -> Option<(ExitStatus, Duration)> {
        let deadline = self.last_write + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.status = Some(status);
                return Some((status, self.last_write.elapsed()));
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// How the brain ended, for a failure message once its output has closed: its exit
    /// status (waiting up to a second for it) and anything it wrote on stderr. A brain that
    /// dies before its first line (a crash, or Wine failing to start it) is told apart this way.
    pub fn exit_report(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(1);
        while self.status.is_none() {
            match self.child.try_wait() {
                Ok(Some(status)) => self.status = Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => break,
            }
        }
        let status = match self.status {
            Some(status) => status.to_string(),
            None => "still running a second after closing its output".to_string(),
        };
        let stderr = self.stderr.lock().expect("stderr buffer");
        let stderr = String::from_utf8_lossy(&stderr);
        match stderr.trim() {
            "" => format!("{status}, nothing on stderr"),
            text => format!("{status}, stderr: {text:?}"),
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ends the process (END, then a kill if it does not go), and returns the lines it
    /// printed that nobody read and everything it wrote on stderr.
    pub fn finish(mut self) -> (Vec<String>, String) {
        if self.status.is_none() && self.is_running() {
            let _ = self.write(b"END\n");
            self.close_input();
            if self.wait_exit(Duration::from_secs(5)).is_none() {
                let _ = self.child.kill();
                let _ = self.child.wait();
            }
        }
        let mut leftover = Vec::new();
        while let Output::Line(line) = self.read(Duration::from_secs(2)) {
            leftover.push(line);
        }
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        let stderr =
            String::from_utf8_lossy(&self.stderr.lock().expect("stderr buffer")).into_owned();
        (leftover, stderr)
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
