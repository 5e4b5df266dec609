//! The documents a fixer cannot see into: before a fixer moves a document
//! (renames it and re-points the links to it), it asks whether a file it
//! could not parse might link to it, since that link could not be re-pointed
//! and would be left dangling.

use crate::doc::DocProblem;
use crate::error::Result;

use super::context::Snapshot;

/// The first document with a problem that does or may refer to `stem`: a
/// malformed or undecodable one whose text mentions it (case-insensitively),
/// or an unreadable one, whose links nobody can know. `None` when moving
/// `stem` cannot strand a link the fixers cannot rewrite.
pub fn unseen_referrer(snap: &Snapshot<'_>, stem: &str) -> Result<Option<String>> {
    let needle = stem.to_lowercase();
    for doc in snap.graph.problems() {
        let mentions = match doc.problem.as_deref() {
            Some(DocProblem::Malformed { .. }) => doc.text.to_lowercase().contains(&needle),
            Some(DocProblem::NotUtf8 { .. }) => match snap.storage.read(&doc.path) {
                Ok(bytes) => String::from_utf8_lossy(&bytes)
                    .to_lowercase()
                    .contains(&needle),
                Err(_) => true,
            },
            _ => true,
        };
        if mentions && doc.stem().to_lowercase() != needle {
            return Ok(Some(doc.path.clone()));
        }
    }
    Ok(None)
}
