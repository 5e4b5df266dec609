//! Snapshots of documents about to be removed, under `.vault/.trash/`, in
//! the reference's layout so a person can restore them with either tool.
//!
//! One [`Snapshot`] per operation: its folder,
//! `.vault/.trash/<YYYYmmdd-HHMMSS>-<label>` (with `-1`, `-2`… when taken),
//! is made on the first capture, keeps each copy at its path beneath
//! `.vault/`, and carries a `RESTORE.txt` that lists every copy beside the
//! place it came from.

use crate::date::Date;
use crate::storage::{Storage, StorageError};

/// Where snapshots live.
pub const TRASH_DIR: &str = ".vault/.trash";

/// The index file of every snapshot folder.
pub const RESTORE_FILE: &str = "RESTORE.txt";

/// A snapshot being written (see the module docs).
#[derive(Debug, Clone)]
pub struct Snapshot {
    label: String,
    /// `YYYYmmdd-HHMMSS`.
    stamp: String,
    /// `YYYY-MM-DD HH:MM:SS`.
    created: String,
    dir: Option<String>,
    /// (path in the snapshot, path in the workspace, size), in capture
    /// order.
    entries: Vec<(String, String, u64)>,
}

impl Snapshot {
    /// A snapshot for the operation `label`, taken at `day` plus `seconds`
    /// (the caller's clock: the system's, or a fixed one in tests).
    pub fn new(label: &str, day: Date, seconds: u32) -> Snapshot {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
        let (y, mo, d) = (day.year(), day.month(), day.day());
        Snapshot {
            label: label.to_owned(),
            stamp: format!("{y:04}{mo:02}{d:02}-{h:02}{m:02}{s:02}"),
            created: format!("{day} {h:02}:{m:02}:{s:02}"),
            dir: None,
            entries: Vec::new(),
        }
    }

    /// The snapshot folder, once something was captured.
    pub fn dir(&self) -> Option<&str> {
        self.dir.as_deref()
    }

    /// How many files were copied.
    pub fn files(&self) -> usize {
        self.entries.len()
    }

    /// Their bytes together.
    pub fn total_bytes(&self) -> u64 {
        self.entries.iter().map(|(_, _, n)| n).sum()
    }

    /// Copies each of `paths` that exists into the snapshot (read back and
    /// compared before it counts) and rewrites `RESTORE.txt`. A document
    /// keeps its path beneath `.vault/`, any other file its workspace path.
    pub fn capture(&mut self, storage: &dyn Storage, paths: &[String]) -> Result<(), StorageError> {
        for path in paths {
            if !storage.exists(path)? {
                continue;
            }
            let inner = path.strip_prefix(".vault/").unwrap_or(path);
            let bytes = storage.read(path)?;
            let dir = self.ensure_dir(storage)?;
            let copy = format!("{dir}/{inner}");
            storage.write(&copy, &bytes)?;
            if storage.read(&copy)? != bytes {
                return Err(StorageError::InvalidPath {
                    path: copy,
                    reason: "the snapshot copy did not read back as written".into(),
                });
            }
            self.entries
                .push((inner.to_owned(), path.clone(), bytes.len() as u64));
        }
        if let Some(dir) = &self.dir {
            storage.write(
                &format!("{dir}/{RESTORE_FILE}"),
                self.restore_text().as_bytes(),
            )?;
        }
        Ok(())
    }

    fn ensure_dir(&mut self, storage: &dyn Storage) -> Result<String, StorageError> {
        if let Some(dir) = &self.dir {
            return Ok(dir.clone());
        }
        let taken =
            |dir: &str| -> Result<bool, StorageError> { Ok(!storage.list(dir)?.is_empty()) };
        let mut dir = format!("{TRASH_DIR}/{}-{}", self.stamp, self.label);
        let mut n = 1;
        while taken(&dir)? {
            dir = format!("{TRASH_DIR}/{}-{}-{n}", self.stamp, self.label);
            n += 1;
        }
        self.dir = Some(dir.clone());
        Ok(dir)
    }

    /// The text of `RESTORE.txt`: the reference's keys and listing, our
    /// words around them.
    fn restore_text(&self) -> String {
        let width = self
            .entries
            .iter()
            .map(|(copy, _, _)| copy.chars().count())
            .max()
            .unwrap_or(0);
        let mut lines = vec![
            "vaultspec snapshot".to_owned(),
            format!("created:   {}", self.created),
            format!("operation: {}", self.label),
            format!(
                "contents:  {} file(s), {}",
                self.files(),
                human_bytes(self.total_bytes())
            ),
            String::new(),
            "Each file here is an exact copy of one vaultspec removed, made just".to_owned(),
            "before it went. They stay until you delete this folder yourself.".to_owned(),
            String::new(),
            "To put one back, copy it to the path on its right:".to_owned(),
            String::new(),
        ];
        let mut sorted: Vec<(&String, &String)> = self
            .entries
            .iter()
            .map(|(copy, origin, _)| (copy, origin))
            .collect();
        sorted.sort();
        for (copy, origin) in sorted {
            let pad = width - copy.chars().count();
            lines.push(format!("  {copy}{}  ->  {origin}", " ".repeat(pad)));
        }
        lines.push(String::new());
        lines.join("\n")
    }
}

/// `512 B`, `4.5 KB`, `1.2 MB`, `3.0 GB`.
pub fn human_bytes(count: u64) -> String {
    if count < 1024 {
        return format!("{count} B");
    }
    let mut size = count as f64;
    for unit in ["KB", "MB"] {
        size /= 1024.0;
        if size < 1024.0 {
            return format!("{size:.1} {unit}");
        }
    }
    format!("{:.1} GB", size / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    #[test]
    fn a_snapshot_keeps_each_copy_and_says_how_to_restore_it() {
        let s = MemStorage::new();
        s.insert(".vault/exec/f/a-long-name.md", "abc");
        s.insert(".vault/exec/f/b.md", "de");
        s.insert(".vault/.trash/20261206-204358-x/old.md", "taken");
        let mut snap = Snapshot::new(
            "x",
            Date::new(2026, 12, 6).unwrap(),
            20 * 3600 + 43 * 60 + 58,
        );
        snap.capture(
            &s,
            &[".vault/exec/f/b.md".into(), ".vault/exec/f/gone.md".into()],
        )
        .unwrap();
        snap.capture(&s, &[".vault/exec/f/a-long-name.md".into()])
            .unwrap();
        let dir = snap.dir().unwrap().to_owned();
        assert_eq!(dir, ".vault/.trash/20261206-204358-x-1");
        assert_eq!(s.read(&format!("{dir}/exec/f/b.md")).unwrap(), b"de");
        let restore = String::from_utf8(s.read(&format!("{dir}/RESTORE.txt")).unwrap()).unwrap();
        assert!(restore.starts_with(
            "vaultspec snapshot\ncreated:   2026-12-06 20:43:58\noperation: x\ncontents:  2 file(s), 5 B\n"
        ), "{restore}");
        assert!(restore.ends_with(
            "  exec/f/a-long-name.md  ->  .vault/exec/f/a-long-name.md\n  exec/f/b.md            ->  .vault/exec/f/b.md\n"
        ), "{restore}");
    }

    #[test]
    fn sizes_read_as_the_reference_prints_them() {
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(4608), "4.5 KB");
        assert_eq!(human_bytes(7168), "7.0 KB");
        assert_eq!(human_bytes(3 * 1024 * 1024 * 1024), "3.0 GB");
    }
}
