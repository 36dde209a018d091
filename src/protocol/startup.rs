//! The settings file beside the executable, for GUIs that send neither `INFO thread_num`
//! nor command-line arguments (Piskvork): `pbrain-quinto.ini`, lines `key = value`, `#` or
//! `;` starting a comment. Keys: `threads` (search threads), `hash` (the transposition table
//! in MiB), `detail` (`off`, `short` or `full`: the MESSAGE line before each move), `eval`
//! (`auto`, `classical`, `net` or `policy`: the evaluation, as `--eval`). The command line's
//! `--threads` and `--eval` and the manager's INFO commands override it. A missing file
//! says nothing; a line that cannot be used is logged and skipped, never fatal.

use super::output::Detail;
use crate::eval::evaluator::EvalKind;
use crate::search::params::MAX_THREADS;
use std::path::{Path, PathBuf};

/// The file's name, in the executable's directory.
pub const FILE_NAME: &str = "pbrain-quinto.ini";

/// The running executable's directory, where the files a GUI cannot name live (this one,
/// the default analysis database).
pub fn executable_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.parent().map(Path::to_path_buf)
}

/// What the file sets (nothing where it says nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Startup {
    pub threads: Option<usize>,
    pub hash_bytes: Option<u64>,
    pub detail: Option<Detail>,
    pub eval: Option<EvalKind>,
}

impl Startup {
    /// The file beside the running executable, if there is one.
    pub fn beside_executable() -> Startup {
        match executable_dir() {
            Some(dir) => Startup::read_in(&dir),
            None => Startup::default(),
        }
    }

    /// The file in `dir`, if there is one.
    pub fn read_in(dir: &Path) -> Startup {
        let path = dir.join(FILE_NAME);
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(_) => return Startup::default(),
        };
        let (startup, complaints) = Startup::parse(&text);
        for complaint in complaints {
            log::warn!("{}: {complaint}", path.display());
        }
        log::info!("{}: {startup:?}", path.display());
        startup
    }

    /// The settings in `text`, and a complaint for each line skipped.
    pub fn parse(text: &str) -> (Startup, Vec<String>) {
        let mut startup = Startup::default();
        let mut complaints = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split(&['#', ';'][..]).next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Err(why) = startup.set(line) {
                complaints.push(format!("line {} ignored: {why}", i + 1));
            }
        }
        (startup, complaints)
    }

    fn set(&mut self, line: &str) -> Result<(), String> {
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("'{line}' is not key = value"))?;
        let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
        let count = |most: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=most).contains(n))
                .ok_or_else(|| format!("{key} takes 1 to {most}, not '{value}'"))
        };
        match key.as_str() {
            "threads" => self.threads = Some(count(MAX_THREADS as u64)? as usize),
            // Up to 4 GiB, as INFO hash_size; max_memory still bounds it.
            "hash" => self.hash_bytes = Some(count(4096)? << 20),
            "detail" => {
                self.detail = Some(match value.to_ascii_lowercase().as_str() {
                    "off" => Detail::Off,
                    "short" => Detail::Short,
                    "full" => Detail::Full,
                    _ => return Err(format!("detail is off, short or full, not '{value}'")),
                })
            }
            "eval" => {
                self.eval = Some(
                    EvalKind::parse(&value.to_ascii_lowercase())
                        .ok_or_else(|| format!("eval is {}, not '{value}'", EvalKind::CHOICES))?,
                )
            }
            _ => return Err(format!("unknown key '{key}'")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_comments_and_bad_lines() {
        let text = "# Quinto\n threads = 4 ; for Piskvork\nHASH=64\r\ndetail = Full\n\n\
                    threads 3\nhash = 0\nhash = lots\ncolour = red\ndetail = loud\nthreads = 999\n\
                    eval = Net\neval = neural\n";
        let (startup, complaints) = Startup::parse(text);
        assert_eq!(
            startup,
            Startup {
                threads: Some(4),
                hash_bytes: Some(64 << 20),
                detail: Some(Detail::Full),
                eval: Some(EvalKind::Net),
            }
        );
        assert_eq!(complaints.len(), 7, "{complaints:?}");
        assert!(
            complaints[0].starts_with("line 6 ignored"),
            "{complaints:?}"
        );
    }

    #[test]
    fn a_missing_or_unreadable_file_sets_nothing() {
        let dir = std::env::temp_dir().join(format!("quinto-startup-{}", std::process::id()));
        assert_eq!(Startup::read_in(&dir), Startup::default());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(FILE_NAME), b"threads = 2\n\xff\xfe = 1\n").unwrap();
        assert_eq!(Startup::read_in(&dir).threads, Some(2));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
