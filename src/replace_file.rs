//! Writing a file so that a crash never leaves half of it: the bytes go to a temporary file
//! beside it (`NAME.PID.tmp`: two processes saving the same file at once each rename their
//! own), which is flushed to disk and then renamed over the old one.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` by what `write` writes; returns what `write` returns.
pub fn replace_file<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> io::Result<T> {
    let temporary = temporary_path(path);
    let mut out = BufWriter::new(File::create(&temporary)?);
    let value = write(&mut out)?;
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&temporary, path)?;
    Ok(value)
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    PathBuf::from(temporary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_whole_or_not_at_all() {
        let path = std::env::temp_dir().join(format!("quinto-replace-{}", std::process::id()));
        std::fs::write(&path, "old").unwrap();
        let written = replace_file(&path, |out| out.write_all(b"new").map(|_| 3));
        assert_eq!(written.unwrap(), 3);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let failed = replace_file(&path, |out| {
            out.write_all(b"half")?;
            Err::<(), _>(io::Error::new(io::ErrorKind::Other, "stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new", "untouched");
        let _ = std::fs::remove_file(temporary_path(&path));
        let _ = std::fs::remove_file(&path);
    }
}
