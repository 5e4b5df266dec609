//! The mark vaultspec puts in every file it renders for an agent, so a
//! later sync can tell its own untouched files from edited or foreign ones
//! without keeping any record beside them.
//!
//! The mark is one comment line: the second line of a file that opens with
//! YAML frontmatter (`# vaultspec-digest:…`, a YAML comment every reader
//! skips), else the first line (`<!-- vaultspec-digest:… -->`). It holds a
//! digest of the rest of the file, so it travels with a clone and says, by
//! itself, whether anyone changed a byte since vaultspec wrote it.
//!
//! A mark proves only that the text is what vaultspec would have written
//! for it; it grants nothing. The worst a forged mark can do is let sync
//! replace that file with vaultspec's own rendering.

use sha2::{Digest, Sha256};

const KEY: &str = "vaultspec-digest:";

/// What a file's mark says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    /// No mark: vaultspec did not write it (or someone took the mark out).
    None,
    /// Marked, and unchanged since: the text without its mark.
    Intact(String),
    /// Marked, and changed since vaultspec wrote it: the text without its
    /// mark.
    Edited(String),
}

/// `text` with its mark; `source` is named in it for the person who opens
/// the file.
pub fn stamp(text: &str, source: &str) -> String {
    let digest = digest(text);
    let note = format!("made by `vaultspec sync` from {source}: change the source, not this file");
    match text.strip_prefix("---\n") {
        Some(rest) => format!("---\n# {KEY}{digest} {note}\n{rest}"),
        None => format!("<!-- {KEY}{digest} {note} -->\n{text}"),
    }
}

/// `text` with its mark as a `#` comment line (TOML), for the personas
/// region of Codex's configuration.
pub fn stamp_hash_comment(text: &str, source: &str) -> String {
    let digest = digest(text);
    format!(
        "# {KEY}{digest} made by `vaultspec sync` from {source}: change the source, not this\n{text}"
    )
}

/// Read the mark of `text`.
pub fn inspect(text: &str) -> Mark {
    let (line, unmarked) = if let Some(rest) = text.strip_prefix("---\n") {
        let Some((line, after)) = rest.split_once('\n') else {
            return Mark::None;
        };
        (line, format!("---\n{after}"))
    } else {
        let Some((line, after)) = text.split_once('\n') else {
            return Mark::None;
        };
        (line, after.to_owned())
    };
    let Some(claimed) = line
        .strip_prefix("# ")
        .or_else(|| line.strip_prefix("<!-- "))
        .and_then(|l| l.strip_prefix(KEY))
        .and_then(|l| l.split(' ').next())
    else {
        return Mark::None;
    };
    if claimed == digest(&unmarked) {
        Mark::Intact(unmarked)
    } else {
        Mark::Edited(unmarked)
    }
}

/// The first 16 hex digits of the SHA-256 of `text`: enough to notice an
/// edit, short enough to read.
fn digest(text: &str) -> String {
    hex::encode(&Sha256::digest(text.as_bytes())[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamped_file_is_intact_until_a_byte_changes() {
        for text in ["---\nname: x\n---\n\nBody\n", "# Plain\n\nBody\n"] {
            let stamped = stamp(text, ".vaultspec/rules/x.md");
            assert_eq!(inspect(&stamped), Mark::Intact(text.to_owned()));
            let edited = stamped.replace("Body", "Bodie");
            assert_eq!(
                inspect(&edited),
                Mark::Edited(text.replace("Body", "Bodie"))
            );
            assert_eq!(inspect(text), Mark::None);
        }
    }

    #[test]
    fn frontmatter_stays_first_and_parses() {
        let stamped = stamp("---\nname: x\n---\n\nB\n", "s");
        assert!(stamped.starts_with("---\n# vaultspec-digest:"));
        assert_eq!(
            super::super::front::Front::parse(&stamped).text("name"),
            "x"
        );
    }
}
