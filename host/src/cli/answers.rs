//! The command line's answer cache: what a read-only builtin verb answered
//! (its output and exit code), kept in the user's cache folder and given
//! again, without running the verb, while nothing it read has changed.
//!
//! A listing, `status` or `check all` on a large vault reads and parses
//! every file; checking that none of them changed costs one `stat` each.
//! An answer is kept only when everything it depends on can be named:
//!
//! - the call: this very binary (its size, times and inode), the
//!   workspace's canonical path, the component's digest, the verb, its
//!   arguments, whether stdout and stderr are terminals; the UTC day, which
//!   builtin verbs read (as a date, never finer);
//! - `.vault/`: the [fingerprint](crate::workspace::survey::settled_print)
//!   of every file under it, taken before the call, with no file changed
//!   within [`RACY`](crate::workspace::survey::RACY) of it (a same-size
//!   edit in the same clock tick would leave the same stamp) and no
//!   symlink in it (what is read through one can change with no stamp
//!   under `.vault/` moving);
//! - every other folder the call listed (`vault check all` lists the whole
//!   workspace, for source files naming documents), fingerprinted the same
//!   way after the call, none of its files changed since `RACY` before the
//!   call began;
//! - every other path the call read or asked about (the call's
//!   [`Journal`](crate::sandbox::Journal), kept as an [`Outside`]): the
//!   type and inode of each folder on the way and the stamp of the path
//!   itself, taken after the call under the same rule.
//!
//! Only builtins are kept: their answers depend on nothing else (a
//! third-party verb might read the clock to the second). A call that
//! tried to write (`check all --fix`; `check all` alone writes nothing),
//! trapped, timed out, hit a limit or read files given at the command line
//! is never kept.
//!
//! Entries live in `<cache>/answers/`, a folder of this user's that nobody
//! else may write, one file per call (named by the hash of the call's
//! key), written atomically, opened without following a link. Each carries
//! the whole key and a SHA-256 of its own contents: a truncated, corrupt or
//! foreign entry is ignored and replaced, never trusted. Nothing is ever
//! written inside the workspace; `--no-cache` runs the verb and keeps
//! nothing.

use std::path::PathBuf;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use vaultspec_vault::Date;

use super::cache_files::{cache_folder, prune, seal, unseal};
use crate::catalog::{Origin, VerbComponent, VerbSpec};
use crate::invocation::Invocation;
use crate::sandbox::{
    Chunk, HostOutput, OUTPUT_LIMIT, Outcome, Outside, read_own_file, write_own_file,
};
use crate::workspace::Workspace;
use crate::workspace::survey::{Listed, is_real_folder, racy_after, settled_vault, stamp};

/// Entries kept in the answers folder; past it the oldest go.
pub const MAX_ENTRIES: usize = 256;

/// The first bytes of every entry (its format's version included).
const MAGIC: &[u8] = b"vaultspec-answer-1\n";

/// The kept answer to one call, and what it depended on.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    /// The call's whole key (the file name is only its hash).
    key: String,
    /// The UTC day the verb ran on.
    day: String,
    /// The fingerprint of `.vault/` before the call.
    vault: String,
    /// The paths outside `.vault/` the call listed or looked at, stamped.
    #[serde(flatten)]
    outside: Outside,
    /// The verb's exit code.
    exit: u8,
    /// The output, as (stderr?, length) runs of the bytes after the header.
    chunks: Vec<(bool, usize)>,
}

/// The cache as one call sees it.
pub struct Answers {
    root: PathBuf,
    key: String,
    entry: PathBuf,
    /// Whether this call's terminal takes colour (part of the key).
    colour: bool,
}

/// What a lookup that found nothing usable leaves for [`Answers::keep`]:
/// the state of `.vault/` before the call.
pub struct Before {
    started: SystemTime,
    day: String,
    vault: Option<String>,
    /// The listing of `.vault/` the fingerprint was taken from, for the
    /// call to list instead of walking the folder again.
    listing: Option<Listed>,
}

impl Before {
    /// The listing of `.vault/` walked for the fingerprint (once): the call
    /// lists it instead of walking the folder again, and so lists what a
    /// kept answer is keyed by.
    pub fn take_listing(&mut self) -> Option<Listed> {
        self.listing.take()
    }
}

/// A kept answer that still holds.
pub struct Answer {
    /// The verb's exit code.
    pub exit: u8,
    chunks: Vec<Chunk>,
    colour: bool,
}

impl Answer {
    /// Write the answer as the verb wrote it (escaped for a terminal, under
    /// the same cap, quiet on a closed pipe). Under `--json` (`json_verb`
    /// names the verb), stdout comes after stderr with the exit code folded
    /// in, as a fresh call gives it.
    pub fn replay(&self, json_verb: Option<&str>) -> std::io::Result<()> {
        let Some(verb) = json_verb else {
            return HostOutput::new(OUTPUT_LIMIT)
                .with_colour(self.colour)
                .replay(&self.chunks);
        };
        let (stdout, stderr): (Vec<Chunk>, Vec<Chunk>) =
            self.chunks.iter().cloned().partition(|chunk| !chunk.stderr);
        HostOutput::new(OUTPUT_LIMIT).replay(&stderr)?;
        let held: Vec<u8> = stdout.into_iter().flat_map(|chunk| chunk.bytes).collect();
        super::print_held_json(&held, self.exit, verb)
    }
}

impl Answers {
    /// The cache for this call (`colour`: whether the verb may print
    /// colour, part of the key), or `None` when its answer may not be kept:
    /// not a builtin, files given at the command line, no usable cache
    /// folder, or one inside the workspace. (A call that tries to write is
    /// not kept either: see [`Journal`](crate::sandbox::Journal).)
    pub fn for_call(
        component: &VerbComponent,
        verb: &VerbSpec,
        invocation: &Invocation,
        workspace: &Workspace,
        has_inputs: bool,
        colour: bool,
    ) -> Option<Self> {
        if component.origin != Origin::Builtin || has_inputs {
            return None;
        }
        let root = workspace.root().canonicalize().ok()?;
        let dir = cache_folder("answers", &root)?;
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .map(|m| stamp(&m))
            .ok()?;
        use std::io::IsTerminal;
        let key = format!(
            "binary {exe:?}\nworkspace {}\ncomponent {}\nverb {}\ninvocation {invocation:?}\nterminals {} {}\ncolour {colour}\n",
            root.display(),
            component.digest,
            verb.path_string(),
            std::io::stdout().is_terminal(),
            std::io::stderr().is_terminal(),
        );
        let entry = dir.join(hex::encode(Sha256::digest(key.as_bytes())));
        Some(Self {
            root,
            key,
            entry,
            colour,
        })
    }

    /// The kept answer when it still holds, else what [`Answers::keep`]
    /// needs to keep the answer of the run about to happen.
    pub fn lookup(&self) -> Result<Answer, Before> {
        let started = SystemTime::now();
        let day = Date::today_utc().to_string();
        let vault = self.root.join(".vault");
        // The listing holds even when the fingerprint cannot (a file edited
        // a moment ago): the call lists what was just walked.
        let (print, listing) = settled_vault(&vault, racy_after(started));
        let before = Before {
            started,
            day: day.clone(),
            vault: print.filter(|_| is_real_folder(&vault)).map(hex::encode),
            listing,
        };
        let Some((header, body)) = self.read() else {
            return Err(before);
        };
        let holds = header.key == self.key
            && header.day == day
            && before.vault.as_deref() == Some(header.vault.as_str())
            && header.outside.holds(&self.root, started);
        if !holds {
            tracing::debug!("the kept answer no longer holds");
            return Err(before);
        }
        tracing::debug!("answer given from `{}`", self.entry.display());
        // `parse` checked that the runs add up to the body.
        let mut at = 0;
        let chunks = header
            .chunks
            .iter()
            .map(|&(stderr, len)| {
                at += len;
                Chunk {
                    stderr,
                    bytes: body[at - len..at].to_vec(),
                }
            })
            .collect();
        Ok(Answer {
            exit: header.exit,
            chunks,
            colour: self.colour,
        })
    }

    /// Keep the answer of a call that ran after `before`, when everything
    /// it depended on can be named and none of it was changing.
    pub fn keep(&self, before: Before, outcome: &Outcome) {
        let header = match self.header(before, outcome) {
            Ok(header) => header,
            Err(why) => {
                tracing::debug!("answer not kept: {why}");
                return;
            }
        };
        match self.write(&header, &outcome.recorded) {
            Ok(()) => tracing::debug!("answer kept in `{}`", self.entry.display()),
            Err(err) => tracing::debug!(
                "could not keep the answer in `{}`: {err}",
                self.entry.display()
            ),
        }
    }

    /// The header of the answer to keep, or why there is none.
    fn header(&self, before: Before, outcome: &Outcome) -> Result<Header, &'static str> {
        let (Some(exit), None) = (outcome.exit_code, &outcome.failure) else {
            return Err("the verb did not finish by itself");
        };
        let journal = outcome.journal.as_ref().ok_or("the verb did not finish")?;
        let vault = before
            .vault
            .ok_or("`.vault/` was changing, holds a symlink, or is not a folder")?;
        if Date::today_utc().to_string() != before.day {
            return Err("the day changed during the call");
        }
        let outside = Outside::taken(&self.root, journal, before.started)?;
        Ok(Header {
            key: self.key.clone(),
            day: before.day,
            vault,
            outside,
            exit,
            chunks: outcome
                .recorded
                .iter()
                .map(|c| (c.stderr, c.bytes.len()))
                .collect(),
        })
    }

    /// The entry's header and the bytes after it, when it is this user's,
    /// whole, and of this format.
    fn read(&self) -> Option<(Header, Vec<u8>)> {
        let bytes = match read_own_file(&self.entry) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return None,
            Err(reason) => {
                tracing::debug!("ignoring the answer `{}`: {reason}", self.entry.display());
                return None;
            }
        };
        parse(&bytes)
    }

    fn write(&self, header: &Header, chunks: &[Chunk]) -> anyhow::Result<()> {
        write_own_file(&self.entry, &encode(header, chunks)?)?;
        prune(
            self.entry.parent().expect("entries live in a folder"),
            MAX_ENTRIES,
            u64::MAX,
        );
        Ok(())
    }
}

/// An entry, [`seal`]ed under [`MAGIC`]: the header's length (u32,
/// little-endian), the header (JSON) and the output bytes.
fn encode(header: &Header, chunks: &[Chunk]) -> anyhow::Result<Vec<u8>> {
    let json = serde_json::to_vec(header)?;
    let mut rest =
        Vec::with_capacity(4 + json.len() + chunks.iter().map(|c| c.bytes.len()).sum::<usize>());
    rest.extend_from_slice(&u32::try_from(json.len())?.to_le_bytes());
    rest.extend_from_slice(&json);
    for chunk in chunks {
        rest.extend_from_slice(&chunk.bytes);
    }
    Ok(seal(MAGIC, &rest))
}

/// [`encode`] undone, or `None` for anything else.
fn parse(bytes: &[u8]) -> Option<(Header, Vec<u8>)> {
    let rest = unseal(MAGIC, bytes)?;
    let (len, rest) = rest.split_at_checked(4)?;
    let len = u32::from_le_bytes(len.try_into().ok()?) as usize;
    let (json, body) = rest.split_at_checked(len)?;
    let header: Header = serde_json::from_slice(json).ok()?;
    let total: usize = header.chunks.iter().map(|(_, n)| n).sum();
    (total == body.len()).then(|| (header, body.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            key: "k".into(),
            day: "2026-12-04".into(),
            vault: "v".into(),
            outside: serde_json::from_value(serde_json::json!({
                "listed": [],
                "files": [[".vaultspec/workspace.json", [null]]],
            }))
            .unwrap(),
            exit: 1,
            chunks: vec![(false, 3), (true, 2)],
        }
    }

    #[test]
    fn an_entry_reads_back_whole_and_nothing_else_does() {
        let chunks = [
            Chunk {
                stderr: false,
                bytes: b"out".to_vec(),
            },
            Chunk {
                stderr: true,
                bytes: b"!!".to_vec(),
            },
        ];
        let bytes = encode(&header(), &chunks).unwrap();
        let (read, body) = parse(&bytes).expect("a whole entry parses");
        assert_eq!((read.key.as_str(), read.exit), ("k", 1));
        assert_eq!(body, b"out!!");
        for cut in [0, MAGIC.len(), MAGIC.len() + 31, bytes.len() - 1] {
            assert!(parse(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(parse(&flipped).is_none());
        let mut longer = bytes.clone();
        longer.push(b'x');
        assert!(parse(&longer).is_none());
    }
}
