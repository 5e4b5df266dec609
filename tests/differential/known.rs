//! The reference's own bugs the differential run meets, each with the
//! reason vaultspec keeps its behaviour. A divergence one of these explains
//! is counted apart and the workspaces are re-synchronised from the
//! reference before the next operation.

use serde_json::Value;

/// One run of one tool: exit code and parsed stdout.
pub struct Run {
    pub code: i32,
    pub json: Option<Value>,
}

fn status(run: &Run) -> Option<&str> {
    run.json.as_ref()?.get("status")?.as_str()
}

/// The known reference bug that explains this divergence, if one does.
pub fn explain(args: &[String], reference: &Run, ours: &Run) -> Option<&'static str> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let has = |flag: &str| words.contains(&flag);
    // `plan check --fix` with nothing to fix: the reference re-stamps
    // `modified:` and re-serialises while it reports "unchanged".
    if words.starts_with(&["vault", "plan", "check"])
        && has("--fix")
        && status(reference) == Some("unchanged")
        && reference.code == ours.code
    {
        return Some(
            "plan check --fix with nothing to fix re-stamps `modified:` while saying unchanged",
        );
    }
    // `vault rename --to` a stem that breaks the naming rules, or one that
    // another document already has: the reference renames anyway.
    if words.starts_with(&["vault", "rename"]) && reference.code == 0 && ours.code != 0 {
        return Some("rename to an invalid or duplicate stem is accepted by the reference");
    }
    // A `yyyy-mm-dd`-shaped date that is no day (`2026-13-01`): the
    // reference only checks the shape and writes it.
    if (words.starts_with(&["vault", "set-frontmatter"]) || words.starts_with(&["vault", "edit"]))
        && words.contains(&"2026-13-01")
        && reference.code == 0
        && ours.code == 1
    {
        return Some("a date that is no day (2026-13-01) is written by the reference");
    }
    // The same `--row` given twice: the reference logs the row twice.
    if words.starts_with(&["vault", "exec", "log"]) {
        let rows: Vec<&&str> = words
            .iter()
            .filter(|w| w.contains(':') && !w.contains('='))
            .collect();
        let repeated = rows.iter().enumerate().any(|(i, r)| rows[..i].contains(r));
        if repeated && reference.code == ours.code {
            return Some("a repeated --row is written twice by the reference");
        }
    }
    // `exec fold` of a feature whose records were all archived: the
    // reference leaves the emptied exec folder behind and folds nothing out
    // of it (exit 0); our storage prunes a folder a move empties, so there
    // is no folder, and a fold with none exits 1 in both tools.
    if words.starts_with(&["vault", "exec", "fold"])
        && reference.code == 0
        && ours.code == 1
        && reference
            .json
            .as_ref()
            .and_then(|j| j.pointer("/data/folded"))
            .and_then(Value::as_u64)
            == Some(0)
        && ours
            .json
            .as_ref()
            .and_then(|j| j.pointer("/data/message"))
            .and_then(Value::as_str)
            .is_some_and(|m| m.contains("no execution folder"))
    {
        return Some("the reference folds an exec folder it emptied itself; ours prunes it");
    }
    None
}
