//! Recovery of legacy per-Step exec records (spec/exec-ledger.md §6): relink
//! a record to a live Step, retire one whose Step was retired, or detach one
//! whose Step never existed. Only the `step_id:` line (and the stamp) changes.

use serde::Serialize;

use crate::date::Date;
use crate::frontmatter;
use crate::hash;
use crate::plan::{Plan, load_plan};
use crate::storage::Storage;

use super::error::LedgerError;
use super::evidence::exec_meta;

/// What a recovery operation did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecoveryReport {
    /// The record's path before the operation.
    pub path: String,
    /// Its path afterwards (differs for `retire`).
    pub new_path: String,
    /// Whether anything changed.
    pub changed: bool,
    /// The record's `step_id` before the operation.
    pub previous_step_id: Option<String>,
    /// The record's `step_id` after the operation.
    pub step_id: Option<String>,
}

struct Record {
    text: String,
    step_id: Option<String>,
    plan: Plan,
}

fn refuse(path: &str, reason: impl Into<String>) -> LedgerError {
    LedgerError::Recovery {
        path: path.to_string(),
        reason: reason.into(),
    }
}

fn wiki_stem(link: &str) -> &str {
    link.trim()
        .trim_start_matches("[[")
        .trim_end_matches("]]")
        .split('|')
        .next()
        .unwrap_or("")
        .trim()
}

/// Loads a live legacy record and its live, parseable parent plan.
fn load(storage: &dyn Storage, path: &str) -> Result<Record, LedgerError> {
    if !path.starts_with(".vault/exec/") {
        return Err(refuse(
            path,
            "only live records under `.vault/exec/` can be recovered",
        ));
    }
    let text = String::from_utf8(storage.read(path)?).map_err(|_| LedgerError::NotUtf8 {
        path: path.to_string(),
    })?;
    let meta = exec_meta(&text);
    let mut archived = false;
    // Every `related:` link to a live plan is a parent: with more than one,
    // which Step the record means is a guess, so nothing is recovered (as in
    // the reference).
    let mut parents = Vec::new();
    for link in &meta.related {
        let stem = wiki_stem(link);
        let live = format!(".vault/plan/{stem}.md");
        if storage.exists(&live)? {
            parents.push((stem, live));
        } else {
            archived |= storage.exists(&format!(".vault/_archive/plan/{stem}.md"))?;
        }
    }
    match parents.as_slice() {
        [(_, live)] => {
            let doc = load_plan(storage, live)?;
            return Ok(Record {
                text,
                step_id: meta.step_id,
                plan: doc.plan,
            });
        }
        [_, _, ..] => {
            let names: Vec<&str> = parents.iter().map(|(stem, _)| *stem).collect();
            return Err(refuse(
                path,
                format!(
                    "it links to several live plans ({}), so its Step cannot be told; keep one plan in its `related:`",
                    names.join(", ")
                ),
            ));
        }
        [] => {}
    }
    Err(refuse(
        path,
        if archived {
            "its parent plan is archived; unarchive it first"
        } else {
            "no `related:` link names a live plan"
        },
    ))
}

/// Rewrites (or with `None` removes) the `step_id:` line as the reference
/// does, keeping every other byte and each line's terminator: the value is
/// written single-quoted, and an absent key goes on the line after
/// `modified:`. `None` when the key must be added and the frontmatter has
/// no `modified:` to place it after.
fn set_step_id(text: &str, value: Option<&str>) -> Option<String> {
    let Some(split) = frontmatter::split(text) else {
        return Some(text.to_string());
    };
    let yaml = &text[split.yaml.clone()];
    let key_of = |content: &str| {
        content
            .split_once(':')
            .map(|(key, _)| key.trim().to_string())
    };
    let lines: Vec<&str> = yaml.split_inclusive('\n').collect();
    let render = |indent: &str, v: &str| format!("{indent}step_id: '{v}'");
    let mut out = String::with_capacity(text.len() + 24);
    out.push_str(&text[..split.yaml.start]);
    let existing = lines.iter().position(|line| {
        key_of(line.trim_end_matches(['\n', '\r'])).is_some_and(|k| k == "step_id")
    });
    match (existing, value) {
        (Some(at), value) => {
            for (n, line) in lines.iter().enumerate() {
                if n != at {
                    out.push_str(line);
                    continue;
                }
                let Some(v) = value else { continue };
                let content = line.trim_end_matches(['\n', '\r']);
                let indent = &content[..content.len() - content.trim_start().len()];
                out.push_str(&render(indent, v));
                out.push_str(&line[content.len()..]);
            }
        }
        (None, None) => out.push_str(yaml),
        (None, Some(v)) => {
            let after = lines.iter().position(|line| {
                key_of(line.trim_end_matches(['\n', '\r'])).is_some_and(|k| k == "modified")
            })?;
            for (n, line) in lines.iter().enumerate() {
                out.push_str(line);
                if n == after {
                    let content = line.trim_end_matches(['\n', '\r']);
                    let indent = &content[..content.len() - content.trim_start().len()];
                    out.push_str(&render(indent, v));
                    out.push_str(match &line[content.len()..] {
                        "" => "\n",
                        term => term,
                    });
                }
            }
        }
    }
    out.push_str(&text[split.yaml.end..]);
    Some(out)
}

/// Points a record at one live Step of its parent plan.
pub fn relink(
    storage: &dyn Storage,
    path: &str,
    step: &str,
    today: Date,
) -> Result<RecoveryReport, LedgerError> {
    crate::ops::begin(storage, false)?;
    let rec = load(storage, path)?;
    let id = rec.plan.steps[rec.plan.find_step(step)?].id.clone();
    let mut report = RecoveryReport {
        path: path.into(),
        new_path: path.into(),
        changed: false,
        previous_step_id: rec.step_id.clone(),
        step_id: Some(id.clone()),
    };
    if rec.step_id.as_deref() == Some(id.as_str()) {
        return Ok(report);
    }
    let Some(relinked) = set_step_id(&rec.text, Some(&id)) else {
        return Err(LedgerError::Recovery {
            path: path.into(),
            reason: "the record has no `modified:` stamp to put `step_id:` after; add `modified:` to its frontmatter first".into(),
        });
    };
    let out = hash::refresh_modified_stamp(&relinked, today);
    storage.write(path, out.as_bytes())?;
    report.changed = true;
    Ok(report)
}

/// Archives a record whose Step the parent plan retired.
pub fn retire(storage: &dyn Storage, path: &str) -> Result<RecoveryReport, LedgerError> {
    crate::ops::begin(storage, false)?;
    let rec = load(storage, path)?;
    let Some(id) = rec.step_id.clone() else {
        return Err(refuse(path, "the record has no `step_id:`"));
    };
    if !rec.plan.retired.steps.contains(&id) {
        return Err(refuse(
            path,
            format!("step `{id}` is not retired in the parent plan; use `relink` or `detach`"),
        ));
    }
    let dest = format!(".vault/_archive/{}", path.trim_start_matches(".vault/"));
    if storage.exists(&dest)? {
        return Err(refuse(path, format!("`{dest}` already exists")));
    }
    storage.rename(path, &dest)?;
    Ok(RecoveryReport {
        path: path.into(),
        new_path: dest,
        changed: true,
        previous_step_id: Some(id.clone()),
        step_id: Some(id),
    })
}

/// Drops the `step_id:` of a record whose Step is neither live nor retired.
pub fn detach(
    storage: &dyn Storage,
    path: &str,
    today: Date,
) -> Result<RecoveryReport, LedgerError> {
    crate::ops::begin(storage, false)?;
    let rec = load(storage, path)?;
    let mut report = RecoveryReport {
        path: path.into(),
        new_path: path.into(),
        changed: false,
        previous_step_id: rec.step_id.clone(),
        step_id: None,
    };
    let Some(id) = rec.step_id.clone() else {
        return Ok(report);
    };
    if rec.plan.steps.iter().any(|s| s.id == id) || rec.plan.retired.steps.contains(&id) {
        return Err(refuse(
            path,
            format!("step `{id}` is live or retired in the parent plan; use `relink` or `retire`"),
        ));
    }
    let out = hash::refresh_modified_stamp(
        &set_step_id(&rec.text, None).unwrap_or_else(|| rec.text.clone()),
        today,
    );
    storage.write(path, out.as_bytes())?;
    report.changed = true;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;

    const PLAN: &str = "---\ntags:\n  - '#plan'\n  - '#f'\ndate: '2026-03-01'\ntier: L1\n---\n\n<!-- RETIRED: S02 -->\n\n# p\n\n## Steps\n\n- [ ] `S01` - a; `x`.\n- [ ] `S03` - b; `y`.\n";

    fn record(step: &str) -> String {
        format!(
            "---\r\ntags:\r\n  - '#exec'\r\n  - '#f'\r\ndate: '2026-03-01'\r\nmodified: '2026-03-01'\r\nstep_id: '{step}'\r\nrelated:\r\n  - '[[2026-03-01-f-plan]]'\r\n---\r\n\r\n# r\r\n"
        )
    }

    fn setup(step: &str) -> MemStorage {
        let s = MemStorage::new();
        s.insert(".vault/plan/2026-03-01-f-plan.md", PLAN);
        s.insert(".vault/exec/2026-03-01-f/2026-03-01-f-S09.md", record(step));
        s
    }

    const REC: &str = ".vault/exec/2026-03-01-f/2026-03-01-f-S09.md";

    #[test]
    fn relink_edits_only_the_step_line() {
        let s = setup("S09");
        let d = Date::new(2026, 3, 2).unwrap();
        assert!(relink(&s, REC, "S03", d).unwrap().changed);
        let out = String::from_utf8(s.read(REC).unwrap()).unwrap();
        assert!(out.contains("step_id: 'S03'\r\n"));
        assert!(out.contains("modified: '2026-03-02'\r\n"));
        assert!(!relink(&s, REC, "S03", d).unwrap().changed);
        assert!(relink(&s, REC, "S99", d).is_err());
    }

    #[test]
    fn a_record_of_two_live_plans_is_not_recovered() {
        let s = setup("S09");
        s.insert(".vault/plan/2026-03-01-g-plan.md", PLAN);
        let two = record("S09").replace(
            "  - '[[2026-03-01-f-plan]]'\r\n",
            "  - '[[2026-03-01-f-plan]]'\r\n  - '[[2026-03-01-g-plan]]'\r\n",
        );
        s.insert(REC, two.clone());
        let d = Date::new(2026, 3, 2).unwrap();
        let err = relink(&s, REC, "S03", d).unwrap_err().to_string();
        assert!(
            err.contains("2026-03-01-f-plan, 2026-03-01-g-plan"),
            "{err}"
        );
        assert_eq!(String::from_utf8(s.read(REC).unwrap()).unwrap(), two);
    }

    #[test]
    fn retire_and_detach_check_the_step() {
        let s = setup("S02");
        let d = Date::new(2026, 3, 2).unwrap();
        assert!(detach(&s, REC, d).is_err());
        let r = retire(&s, REC).unwrap();
        assert_eq!(
            r.new_path,
            ".vault/_archive/exec/2026-03-01-f/2026-03-01-f-S09.md"
        );
        let s = setup("S42");
        assert!(retire(&s, REC).is_err());
        assert!(detach(&s, REC, d).unwrap().changed);
        assert!(
            !String::from_utf8(s.read(REC).unwrap())
                .unwrap()
                .contains("step_id")
        );
    }
}
