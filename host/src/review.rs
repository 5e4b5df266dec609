//! `review context OBJECTIVE --base REV [--head REV] --candidate
//! PATH[:START[-END]]…`: the passages a reviewer named, read exactly and
//! bounded, in the reference's `vaultspec.review.context.v1` shape. No
//! verdict, no writes.
//!
//! Each candidate is read from the commit `--head` names, or without it
//! from the working tree, but only a file the index tracks (one stage-0
//! entry, a regular file), through the workspace storage (no link
//! followed). A candidate that cannot be served is listed by its id and
//! a reason, never echoed. The repository is read in process (gitoxide);
//! no `git` runs, so the diff itself is not produced here: `scope` names
//! the two commits, and `diff_reason` says the diff was not collected.
//! Ranking is local and plain: candidates keep the order they were given
//! (`discovery_order`); no hosted service is asked.

use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use vaultspec_vault::{CapStorage, Storage};

use crate::report::Printed;

/// The most candidates one call takes.
pub const MAX_CANDIDATES: usize = 12;
/// The most lines of one passage.
pub const MAX_LINES: usize = 120;
/// The most bytes of one passage.
pub const MAX_BYTES: usize = 4_000;
/// The most bytes of a file a passage is read from.
pub const MAX_FILE_BYTES: usize = 1_000_000;
/// The most passages shown whole.
pub const MAX_LIMIT: u32 = 6;

const SCHEMA: &str = "vaultspec.review.context.v1";

/// What the caller asked.
#[derive(Debug, Clone)]
pub struct Request {
    /// What the change under review is meant to do.
    pub objective: String,
    /// The commit the change starts from.
    pub base: String,
    /// The commit the change ends at; the working tree when absent.
    pub head: Option<String>,
    /// The passages to read, `PATH[:START[-END]]`.
    pub candidates: Vec<String>,
    /// How many passages to show whole (default 3).
    pub limit: Option<u32>,
    /// Ask no hosted ranker (none is ever asked).
    pub no_hosted: bool,
}

/// Run it on the repository at `root`.
pub fn run(root: &Path, request: &Request, json: bool) -> Printed {
    let started = Instant::now();
    let result = collect(root, request).map(|mut data| {
        data["elapsed_ms"] = json!((started.elapsed().as_secs_f64() * 100_000.0).round() / 100.0);
        data
    });
    Printed::answer(result, SCHEMA, json, text)
}

/// The `data` of the reply, or the message of a refusal.
fn collect(root: &Path, request: &Request) -> Result<Value, String> {
    let objective = request.objective.trim();
    if objective.is_empty() || objective.len() > 1000 {
        return Err("objective must contain 1..1000 UTF-8 bytes".into());
    }
    let limit = request.limit.unwrap_or(3);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(format!("limit must be 1..{MAX_LIMIT}"));
    }
    if request.candidates.is_empty() || request.candidates.len() > MAX_CANDIDATES {
        return Err(format!("supply 1..{MAX_CANDIDATES} candidate locators"));
    }
    match crate::git_history::contained_git_dir(root) {
        Ok(_) => {}
        Err(crate::git_history::HistoryError::NoRepository) => {
            return Err("target must be the Git repository root".into());
        }
        Err(refused) => return Err(refused.to_string()),
    }
    let repo = gix::open_opts(root, gix::open::Options::isolated())
        .map_err(|_| "git_read_failed".to_owned())?;
    let base = commit_id(&repo, &request.base)?;
    let head = match &request.head {
        Some(head) => Some(commit_id(&repo, head)?),
        None => None,
    };
    let storage = CapStorage::open(root).map_err(|e| e.to_string())?;
    let index = match head {
        Some(_) => None,
        None => Some(
            repo.index_or_empty()
                .map_err(|_| "git_read_failed".to_owned())?,
        ),
    };
    let mut snippets: Vec<Value> = Vec::new();
    let mut excluded = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (n, raw) in request.candidates.iter().enumerate() {
        let id = format!("c{n}");
        let read = |path: &str| match (head, &index) {
            (Some(head), _) => at_commit(&repo, head, path),
            (None, Some(index)) => in_worktree(&storage, index, path),
            (None, None) => Err("read_unavailable"),
        };
        match passage(raw, read) {
            Ok((locator, content)) => {
                if !seen.insert(locator.clone()) {
                    excluded.push(json!({"candidate": id, "reason": "duplicate_locator"}));
                    continue;
                }
                let sha = hex::encode(Sha256::digest(content.as_bytes()));
                snippets
                    .push(json!({"id": id, "locator": locator, "content": content, "sha256": sha}));
            }
            Err(reason) => excluded.push(json!({"candidate": id, "reason": reason})),
        }
    }
    let split = snippets.len().min(limit as usize);
    let unselected: Vec<Value> = snippets[split..]
        .iter()
        .map(|s| json!({"id": s["id"], "locator": s["locator"], "sha256": s["sha256"]}))
        .collect();
    let selected: Vec<Value> = snippets[..split]
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s["relevance"] = Value::Null;
            s
        })
        .collect();
    let hosted = if request.no_hosted {
        "disabled"
    } else {
        "not_configured"
    };
    Ok(json!({
        "objective": objective,
        "scope": {
            "base": base.to_string(),
            "head": head.map(|h| h.to_string()),
            "source": if head.is_some() { "commit" } else { "tracked_working_tree" },
            "diff_sha256": null,
            "diff_reason": "not_collected",
        },
        "selected": selected,
        "unselected": unselected,
        "excluded": excluded,
        "ordering": "discovery_order",
        "hosted": {"status": hosted, "reason": null, "requests": 0, "input_tokens": 0,
                   "output_tokens": 0, "elapsed_ms": 0.0},
        "judgment": {},
        "bounds": {"candidates": MAX_CANDIDATES, "lines_per_snippet": MAX_LINES,
                   "bytes_per_snippet": MAX_BYTES, "diff_bytes": 24_000,
                   "collection_seconds": 10.0, "hosted_seconds": 15.0},
        "next_action": "Read the whole change and the decisions it answers to; open more of the code where these passages are not enough. Being chosen here says nothing of correctness, testing or coverage; untracked files were not considered, and the working tree was read file by file, not at one instant.",
    }))
}

/// The full id of the commit `rev` names.
fn commit_id(repo: &gix::Repository, rev: &str) -> Result<gix::ObjectId, String> {
    if rev.is_empty() || rev.len() > 256 || rev.chars().any(|c| (c as u32) < 0x20) {
        return Err("base and head must be Git commit references".into());
    }
    let id = repo
        .rev_parse_single(rev)
        .map_err(|_| "git_read_failed".to_owned())?;
    let commit = id
        .object()
        .and_then(|o| o.peel_to_commit())
        .map_err(|_| "git_read_failed".to_owned())?;
    Ok(commit.id)
}

/// Whether a path is one no passage may come from (credentials, the
/// repository itself).
pub fn private_path(path: &str) -> bool {
    path.replace('\\', "/").split('/').any(|part| {
        let part = part.to_lowercase();
        part == ".git"
            || part == ".env"
            || part.starts_with(".env.")
            || [".pem", ".key", ".p12", ".pfx"]
                .iter()
                .any(|x| part.ends_with(x))
            || part == "id_rsa"
            || part == "id_ed25519"
    })
}

/// A locator's lines: the first, and the last when given.
type Range = Option<(usize, Option<usize>)>;

/// `PATH[:START[-END]]` split, or `invalid_locator`.
fn parse_locator(raw: &str) -> Result<(String, Range), &'static str> {
    if raw.len() > 512 {
        return Err("invalid_locator");
    }
    let number = |s: &str| {
        (s.starts_with(|c: char| ('1'..='9').contains(&c)) && s.chars().all(|c| c.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    let (name, range) = match raw.rsplit_once(':') {
        Some((name, suffix)) if !name.is_empty() => match suffix.split_once('-') {
            None => match number(suffix) {
                Some(n) => (name, Some((n, None))),
                None => (raw, None),
            },
            Some((a, b)) => match (number(a), number(b)) {
                (Some(a), Some(b)) => (name, Some((a, Some(b)))),
                _ => (raw, None),
            },
        },
        _ => (raw, None),
    };
    let name = name.replace('\\', "/");
    let bad = name.starts_with('/')
        || name.contains(':')
        || name.chars().any(|c| (c as u32) < 0x20)
        || name.split('/').any(|p| matches!(p, "" | "." | ".."));
    if bad {
        return Err("invalid_locator");
    }
    Ok((name, range))
}

/// The locator and content of one candidate, read with `read`.
fn passage(
    raw: &str,
    read: impl Fn(&str) -> Result<Vec<u8>, &'static str>,
) -> Result<(String, String), &'static str> {
    let (path, range) = parse_locator(raw)?;
    if private_path(&path) {
        return Err("private_path");
    }
    if let Some((start, Some(end))) = range
        && (end < start || end - start + 1 > MAX_LINES)
    {
        return Err("line_limit");
    }
    let bytes = read(&path)?;
    let text = String::from_utf8(bytes).map_err(|_| "not_utf8")?;
    if text.contains('\0') {
        return Err("binary_file");
    }
    let lines = split_lines(&text);
    let (start, end) = match range {
        None => (1, lines.len()),
        Some((start, None)) => (start, start),
        Some((start, Some(end))) => (start, end),
    };
    if start < 1 || start > end || end > lines.len() {
        return Err("line_range_unavailable");
    }
    let content: String = lines[start - 1..end].concat();
    if end - start + 1 > MAX_LINES || content.len() > MAX_BYTES {
        return Err("narrower_range_required");
    }
    Ok((format!("{path}:{start}-{end}"), content))
}

/// Lines with their endings, split where Python's `str.splitlines` splits.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let end = match c {
            '\r' => match chars.peek() {
                Some((_, '\n')) => {
                    chars.next();
                    at + 2
                }
                _ => at + 1,
            },
            '\n' | '\u{0b}' | '\u{0c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' => at + 1,
            '\u{85}' | '\u{2028}' | '\u{2029}' => at + c.len_utf8(),
            _ => continue,
        };
        lines.push(&text[start..end]);
        start = end;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// The bytes of `path` in commit `head`: one regular file there.
fn at_commit(
    repo: &gix::Repository,
    head: gix::ObjectId,
    path: &str,
) -> Result<Vec<u8>, &'static str> {
    let commit = repo.find_commit(head).map_err(|_| "git_read_failed")?;
    let tree = commit.tree().map_err(|_| "git_read_failed")?;
    let entry = tree
        .lookup_entry_by_path(path)
        .map_err(|_| "git_read_failed")?
        .ok_or("not_one_tracked_file")?;
    let mode = entry.mode();
    if !mode.is_blob() || mode.is_link() {
        return Err("not_regular_file");
    }
    // The size from the object's header, before anything is inflated.
    let header = repo
        .find_header(entry.object_id())
        .map_err(|_| "git_read_failed")?;
    if header.size() > MAX_FILE_BYTES as u64 {
        return Err("byte_limit");
    }
    let object = entry.object().map_err(|_| "git_read_failed")?;
    Ok(object.data.clone())
}

/// The working-tree bytes of `path`, tracked by `index` as one regular,
/// merged file.
fn in_worktree(
    storage: &CapStorage,
    index: &gix::worktree::Index,
    path: &str,
) -> Result<Vec<u8>, &'static str> {
    let under = format!("{path}/");
    let entries: Vec<_> = index
        .entries()
        .iter()
        .filter(|e| {
            let p = e.path(index);
            p == path.as_bytes() || p.starts_with(under.as_bytes())
        })
        .collect();
    let [entry] = entries.as_slice() else {
        return Err("not_one_tracked_file");
    };
    if entry.path(index) != path.as_bytes() {
        return Err("not_one_tracked_file");
    }
    use gix::index::entry::{Mode, Stage};
    if !matches!(entry.mode, Mode::FILE | Mode::FILE_EXECUTABLE) {
        return Err("not_regular_file");
    }
    if entry.stage() != Stage::Unconflicted {
        return Err("unmerged_file");
    }
    match storage.read(path) {
        Ok(bytes) if bytes.len() > MAX_FILE_BYTES => Err("byte_limit"),
        Ok(bytes) => Ok(bytes),
        Err(vaultspec_vault::StorageError::TooLarge { .. }) => Err("byte_limit"),
        Err(err) if err.to_string().contains("symbolic link") => Err("linked_path"),
        Err(_) => Err("read_unavailable"),
    }
}

/// The text report.
fn text(data: &Value) -> String {
    let mut out = format!(
        "Review context: {}; hosted {}\n",
        data["ordering"].as_str().unwrap_or(""),
        data["hosted"]["status"].as_str().unwrap_or("")
    );
    let scope = &data["scope"];
    out.push_str(&format!(
        "Scope: {} -> {}\n",
        scope["base"].as_str().unwrap_or(""),
        scope["head"]
            .as_str()
            .or(scope["source"].as_str())
            .unwrap_or("")
    ));
    if let Some(reason) = scope["diff_reason"].as_str() {
        out.push_str(&format!("Diff unavailable: {reason}\n"));
    }
    for s in data["selected"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "\n{}: {} ({})\n{}\n",
            s["id"].as_str().unwrap_or(""),
            s["locator"].as_str().unwrap_or(""),
            s["sha256"].as_str().unwrap_or(""),
            s["content"].as_str().unwrap_or("")
        ));
    }
    for s in data["unselected"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "Unselected: {}: {}\n",
            s["id"].as_str().unwrap_or(""),
            s["locator"].as_str().unwrap_or("")
        ));
    }
    for e in data["excluded"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "Excluded: {}: {}\n",
            e["candidate"].as_str().unwrap_or(""),
            e["reason"].as_str().unwrap_or("")
        ));
    }
    out.push_str(data["next_action"].as_str().unwrap_or(""));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locators_parse_as_the_reference_reads_them() {
        assert_eq!(parse_locator("src/a.rs"), Ok(("src/a.rs".into(), None)));
        assert_eq!(
            parse_locator("src/a.rs:4"),
            Ok(("src/a.rs".into(), Some((4, None))))
        );
        assert_eq!(
            parse_locator("src\\a.rs:4-9"),
            Ok(("src/a.rs".into(), Some((4, Some(9)))))
        );
        for bad in [
            "f:0",
            "f:x",
            "f:1-x",
            "src/a:b.py",
            "/etc/passwd",
            "../x",
            "a//b",
            "./a",
            "a/",
        ] {
            assert_eq!(parse_locator(bad), Err("invalid_locator"), "{bad}");
        }
        assert!(private_path(".env.example") && private_path("keys/server.PEM"));
        assert!(!private_path("src/environment.rs"));
    }

    #[test]
    fn lines_split_where_python_splits_them() {
        assert_eq!(
            split_lines("a\nb\r\nc\rd\u{2028}e"),
            ["a\n", "b\r\n", "c\r", "d\u{2028}", "e"]
        );
        assert!(split_lines("").is_empty());
    }
}
