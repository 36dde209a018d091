//! One engine: how it is started (`--engine name=…,cmd=…`), and a running brain process with
//! piped stdin/stdout, its stderr in a log file, a reader thread that turns stdout into
//! time-stamped lines, an optional transcript of the conversation, and memory sampling.

use crate::matches::procmem::{self, Memory};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in results and file names.
    pub name: String,
    /// The executable: absolute, or found on `PATH` when given without a `/`.
    pub cmd: PathBuf,
    pub args: Vec<String>,
    /// Working directory of the process (default: the runner's).
    pub dir: Option<PathBuf>,
}

impl EngineSpec {
    /// Parses `name=NAME,cmd=PATH[,arg=ARG]…[,dir=DIR]`. A comma inside a value is written
    /// `\,`. Relative `cmd` paths with a `/` are taken from the current directory, bare names
    /// are looked up on `PATH`; the executable must exist.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut cmd = None;
        let mut args = Vec::new();
        let mut dir = None;
        for field in split_escaped(text) {
            let (key, value) = match field.split_once('=') {
                Some(kv) => kv,
                None => {
                    return Err(format!(
                        "--engine '{text}': '{field}' is not key=value (keys: name, cmd, arg, dir)"
                    ))
                }
            };
            match key.trim() {
                "name" => name = Some(value.to_string()),
                "cmd" => cmd = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "dir" => dir = Some(PathBuf::from(value)),
                other => {
                    return Err(format!(
                        "--engine '{text}': unknown key '{other}' (keys: name, cmd, arg, dir)"
                    ))
                }
            }
        }
        let cmd = cmd.ok_or_else(|| format!("--engine '{text}': cmd=PATH is missing"))?;
        let cmd = resolve_executable(&cmd)?;
        let name = match name {
            Some(n) if !n.trim().is_empty() => n.trim().to_string(),
            Some(_) => return Err(format!("--engine '{text}': empty name")),
            None => cmd
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| "engine".into()),
        };
        if let Some(d) = &dir {
            if !d.is_dir() {
                return Err(format!(
                    "--engine '{text}': dir {} is not a directory",
                    d.display()
                ));
            }
        }
        Ok(EngineSpec {
            name,
            cmd,
            args,
            dir,
        })
    }

    /// The command line, for reports.
    pub fn command_line(&self) -> String {
        let mut s = self.cmd.display().to_string();
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}

/// Splits on commas not preceded by a backslash; `\,` becomes `,` and `\\` becomes `\`.
fn split_escaped(text: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next @ (',' | '\\')) => fields.last_mut().unwrap().push(next),
                Some(next) => {
                    let f = fields.last_mut().unwrap();
                    f.push('\\');
                    f.push(next);
                }
                None => fields.last_mut().unwrap().push('\\'),
            },
            ',' => fields.push(String::new()),
            _ => fields.last_mut().unwrap().push(c),
        }
    }
    fields.retain(|f| !f.is_empty());
    fields
}

/// An absolute path to an existing executable file.
pub fn resolve_executable(cmd: &str) -> Result<PathBuf, String> {
    if cmd.is_empty() {
        return Err("empty engine command".into());
    }
    let path = Path::new(cmd);
    if cmd.contains('/') || cmd.contains(std::path::MAIN_SEPARATOR) {
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir()
                .map_err(|e| format!("current directory: {e}"))?
                .join(path)
        };
        return if is_executable(&absolute) {
            Ok(absolute)
        } else if absolute.exists() {
            Err(format!("engine {cmd}: not an executable file"))
        } else {
            Err(format!("engine {cmd}: no such file"))
        };
    }
    let search = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&search) {
        let candidate = dir.join(cmd);
        if is_executable(&candidate) {
            return Ok(candidate);
        }
    }
    Err(format!("engine {cmd}: not found on PATH"))
}

fn is_executable(path: &Path) -> bool {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(_) => return false,
    };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// What the reader thread saw.
enum Event {
    Line(String, Instant),
    Eof,
}

/// The result of waiting for a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A line (without the line end) and when it arrived.
    Line(String, Instant),
    /// stdout closed: the engine exited or crashed.
    Eof,
    /// Nothing before the deadline.
    Timeout,
}

/// Longest line kept whole; anything longer is cut (a runaway engine cannot eat memory).
const MAX_LINE: usize = 64 * 1024;

/// A running engine process.
#[derive(Debug)]
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    transcript: Option<BufWriter<File>>,
    born: Instant,
    line_end: &'static str,
    eof: bool,
    /// The largest memory figures seen so far.
    pub peak: Memory,
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Line(l, _) => write!(f, "Line({l:?})"),
            Event::Eof => write!(f, "Eof"),
        }
    }
}

impl EngineProcess {
    /// Starts the engine with its stderr going to `stderr_log` and, if given, a transcript
    /// of every line sent (`>`) and received (`<`) with milliseconds since start.
    pub fn spawn(
        spec: &EngineSpec,
        stderr_log: &Path,
        transcript: Option<&Path>,
        crlf: bool,
    ) -> Result<EngineProcess, String> {
        let log = File::create(stderr_log)
            .map_err(|e| format!("cannot create {}: {e}", stderr_log.display()))?;
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log));
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", spec.command_line()))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name(format!("read-{}", spec.name))
            .spawn(move || {
                let mut stdout = stdout;
                let mut buf = [0u8; 8192];
                let mut line: Vec<u8> = Vec::new();
                loop {
                    let n = match stdout.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    let now = Instant::now();
                    for &b in &buf[..n] {
                        if b == b'\n' || line.len() >= MAX_LINE {
                            let text = String::from_utf8_lossy(&line)
                                .trim_end_matches(['\r', ' ', '\t'])
                                .to_string();
                            line.clear();
                            if tx.send(Event::Line(text, now)).is_err() {
                                return;
                            }
                            if b == b'\n' {
                                continue;
                            }
                        }
                        line.push(b);
                    }
                }
                if !line.is_empty() {
                    let text = String::from_utf8_lossy(&line).trim_end().to_string();
                    let _ = tx.send(Event::Line(text, Instant::now()));
                }
                let _ = tx.send(Event::Eof);
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let transcript = match transcript {
            Some(path) => {
                Some(BufWriter::new(File::create(path).map_err(|e| {
                    format!("cannot create {}: {e}", path.display())
                })?))
            }
            None => None,
        };
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
            transcript,
            born: Instant::now(),
            line_end: if crlf { "\r\n" } else { "\n" },
            eof: false,
            peak: Memory::default(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (the line end is added) and flushes. An error means the engine has
    /// closed its stdin: it is gone.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.note('>', line);
        let end = self.line_end;
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| "stdin already closed".to_string())?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(end.as_bytes()))
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Received {
        if self.eof {
            return Received::Eof;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        let event = if wait.is_zero() {
            self.lines.try_recv().map_err(|e| match e {
                mpsc::TryRecvError::Empty => RecvTimeoutError::Timeout,
                mpsc::TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
            })
        } else {
            self.lines.recv_timeout(wait)
        };
        match event {
            Ok(Event::Line(text, at)) => {
                self.note('<', &text);
                Received::Line(text, at)
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                self.note('<', "(end of output)");
                Received::Eof
            }
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
        }
    }

    /// Writes a runner remark into the transcript.
    pub fn remark(&mut self, text: &str) {
        self.note('#', text);
    }

    fn note(&mut self, dir: char, text: &str) {
        let ms = self.born.elapsed().as_millis();
        if let Some(t) = self.transcript.as_mut() {
            let _ = writeln!(t, "{ms:>8} {dir} {text}");
        }
    }

    /// Measures the process tree's memory now and keeps the peak. `None` if not measurable.
    pub fn sample_memory(&mut self) -> Option<Memory> {
        let m = procmem::tree_memory(self.pid())?;
        self.peak = self.peak.max(m);
        Some(m)
    }

    /// How the process ended, if it has: `exit code 3`, `killed by signal 9`.
    pub fn exit_status(&mut self) -> Option<String> {
        let status = self.child.try_wait().ok()??;
        Some(describe_status(status))
    }

    /// Waits up to `patience` for the process to end on its own; returns its exit status.
    pub fn wait_exit(&mut self, patience: Duration) -> Option<String> {
        let until = Instant::now() + patience;
        loop {
            if let Some(s) = self.exit_status() {
                return Some(s);
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends `END` (if it still listens), closes stdin.
    pub fn send_end(&mut self) {
        if self.exit_status().is_none() {
            let _ = self.send("END");
        }
        self.stdin = None;
    }

    /// Ends the engine: `END` and up to `patience` to exit, then kill. Reaps the process.
    pub fn finish(mut self, patience: Duration) {
        self.send_end();
        self.kill_after(patience);
    }

    /// Kills the process unless it exits within `patience` (after [`Self::send_end`]).
    pub fn kill_after(&mut self, patience: Duration) {
        if self.wait_exit(patience).is_none() {
            self.remark("killed: no exit after END");
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(t) = self.transcript.as_mut() {
            let _ = t.flush();
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(t) = self.transcript.as_mut() {
            let _ = t.flush();
        }
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    "ended".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse_with_repeated_args_and_escapes() {
        let spec = EngineSpec::parse("name=a,cmd=/bin/sh,arg=-c,arg=echo 1\\,2,dir=/").unwrap();
        assert_eq!(spec.name, "a");
        assert_eq!(spec.cmd, PathBuf::from("/bin/sh"));
        assert_eq!(spec.args, vec!["-c".to_string(), "echo 1,2".to_string()]);
        assert_eq!(spec.dir, Some(PathBuf::from("/")));
        assert_eq!(EngineSpec::parse("cmd=sh").unwrap().name, "sh");
    }

    #[test]
    fn bad_engine_specs_say_why() {
        let e = EngineSpec::parse("name=a").unwrap_err();
        assert!(e.contains("cmd=PATH is missing"), "{e}");
        let e = EngineSpec::parse("name=a,cmd=/no/such/engine").unwrap_err();
        assert!(e.contains("no such file"), "{e}");
        let e = EngineSpec::parse("name=a,cmd=no-such-engine-on-path-xyz").unwrap_err();
        assert!(e.contains("not found on PATH"), "{e}");
        let e = EngineSpec::parse("name=a,cmd=/bin/sh,speed=11").unwrap_err();
        assert!(e.contains("unknown key 'speed'"), "{e}");
        let e = EngineSpec::parse("name=a,cmd=/bin/sh,oops").unwrap_err();
        assert!(e.contains("not key=value"), "{e}");
        let e = EngineSpec::parse("name=a,cmd=/etc").unwrap_err();
        assert!(e.contains("not an executable"), "{e}");
    }
}
