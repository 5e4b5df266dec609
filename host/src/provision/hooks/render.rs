//! Writing hooks into one agent's file, keeping every group and key a
//! person wrote there.
//!
//! Claude and Gemini read hooks from the `hooks` member of their
//! `settings.json`, Codex from `.codex/hooks.json`: vaultspec adds its
//! groups to each event's list and records which ones it added in an
//! ownership receipt in the person's home
//! (`~/.vaultspec/hook-ownership/<sha256 of the file's path>.json`, the
//! reference's layout). The next sync takes back only those groups, and
//! only while the receipt still matches the file: once a person edited the
//! `hooks` member, every group there is theirs. A record of what was
//! rendered sits beside the file (`.vaultspec-hooks.json`). Antigravity
//! reads named hook sets from `.agents/hooks.json`; vaultspec's is the
//! `vaultspec` set, replaced whole.
//!
//! Only vaultspec's member is rewritten ([`json_file::set`]): the bytes of
//! every other key stay as the person wrote them. A file that is not a JSON
//! object is never overwritten; it is reported and left for a person.

use std::path::Path;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use vaultspec_vault::WriteScope;

use crate::provision::enroll::files::Place;
use crate::provision::enroll::json_file;
use crate::provision::enroll::pyjson::{self, Style};
use crate::provision::enroll::sync::Outcome;
use crate::provision::enroll::targets::Homes;

/// The file `provider` reads hooks from, in the workspace.
pub fn native_file(provider: &str) -> &'static str {
    match provider {
        "claude" => ".claude/settings.json",
        "gemini" => ".gemini/settings.json",
        "codex" => ".codex/hooks.json",
        _ => ".agents/hooks.json",
    }
}

/// What one file's sync did, if anything.
pub struct Rendered {
    /// The file's workspace path.
    pub file: &'static str,
    /// Created, updated or removed; `None` when it stays as it is.
    pub outcome: Option<Outcome>,
    /// What a person should know.
    pub warnings: Vec<String>,
}

/// Bring `provider`'s file in the workspace at `root` in line with
/// `payload` (see [`super::spec::payload`]); with `dry_run`, only say what
/// would change.
pub fn render(
    root: &Path,
    homes: &Homes,
    provider: &str,
    payload: &Map<String, Value>,
    dry_run: bool,
) -> anyhow::Result<Rendered> {
    let file = native_file(provider);
    let place = Place {
        base: root.to_path_buf(),
        relative: file.to_owned(),
        scope: WriteScope::Hooks,
    };
    let mut rendered = Rendered {
        file,
        outcome: None,
        warnings: Vec::new(),
    };
    let before = place.read()?;
    let doc = match before.as_deref().map(json_file::parse) {
        None => Value::Object(Map::new()),
        Some(Ok(doc)) if doc.is_object() => doc,
        Some(_) => {
            rendered.warnings.push(format!(
                "{file} is not a JSON object, so its hooks were not synced; fix it by hand, then \
                 run `vaultspec spec hooks sync {provider}`"
            ));
            return Ok(rendered);
        }
    };
    // What is recorded once the file is written: the receipt of the groups
    // vaultspec added, and the record of what was rendered.
    let mut records = None;
    let after = if provider == "antigravity" {
        hook_set(before.as_deref(), &doc, payload)
    } else {
        let Some(hooks) = hooks_member(&doc) else {
            rendered.warnings.push(format!(
                "`hooks` in {file} is not an object, so its hooks were not synced; fix it by hand"
            ));
            return Ok(rendered);
        };
        let receipt = Receipt::place(homes, &root.join(file));
        let managed = match receipt.read() {
            Receipts::None => Map::new(),
            Receipts::Matching(managed) if managed.digest == digest(&doc["hooks"]) => {
                managed.groups
            }
            Receipts::Matching(_) | Receipts::Stale => {
                rendered.warnings.push(format!(
                    "Hook ownership no longer matches {file}; the groups there are kept as a \
                     person's own."
                ));
                Map::new()
            }
        };
        let (hooks_after, added) = compose(&hooks, &managed, payload);
        let text = hooks_text(before.as_deref(), &doc, &hooks, &hooks_after);
        records = Some((receipt, added));
        text
    };
    if after.as_deref() != before.as_deref() {
        rendered.outcome = Some(match (&before, &after) {
            (None, _) => Outcome::Created,
            (_, None) => Outcome::Removed,
            _ => Outcome::Updated,
        });
        if !dry_run {
            place.write(after.as_deref())?;
        }
    }
    // Recorded only after the file holds what the records claim.
    if let Some((receipt, added)) = records
        && !dry_run
    {
        let hooks_now = after
            .as_deref()
            .and_then(|t| json_file::parse(t).ok())
            .and_then(|doc| doc.get("hooks").cloned())
            .unwrap_or(Value::Null);
        receipt.write(&root.join(file), &hooks_now, &added)?;
        sidecar(root, provider, payload)?;
    }
    Ok(rendered)
}

/// The `hooks` member of `doc` as an object (empty when missing); `None`
/// when it is something else.
fn hooks_member(doc: &Value) -> Option<Map<String, Value>> {
    match doc.get("hooks") {
        None | Some(Value::Null) => Some(Map::new()),
        Some(Value::Object(hooks)) => Some(hooks.clone()),
        Some(_) => None,
    }
}

/// `hooks` without the groups vaultspec added last time (`managed`), with
/// `payload`'s added where no equal group is already there; and the
/// groups added, by event.
fn compose(
    hooks: &Map<String, Value>,
    managed: &Map<String, Value>,
    payload: &Map<String, Value>,
) -> (Map<String, Value>, Map<String, Value>) {
    let mut out = hooks.clone();
    for (event, groups) in managed {
        let Some(Value::Array(list)) = out.get_mut(event) else {
            continue;
        };
        for group in groups.as_array().into_iter().flatten() {
            if let Some(at) = list.iter().position(|g| g == group) {
                list.remove(at);
            }
        }
    }
    let mut added = Map::new();
    for (event, groups) in payload {
        let list = out
            .entry(event.clone())
            .or_insert_with(|| Value::Array(Vec::new()));
        if !list.is_array() {
            // A person's non-list value under an event is theirs to fix.
            continue;
        }
        let Value::Array(list) = list else {
            unreachable!("checked above")
        };
        for group in groups.as_array().into_iter().flatten() {
            if !list.contains(group) {
                list.push(group.clone());
                added
                    .entry(event.clone())
                    .or_insert_with(|| Value::Array(Vec::new()))
                    .as_array_mut()
                    .expect("made an array")
                    .push(group.clone());
            }
        }
    }
    out.retain(|_, v| !v.as_array().is_some_and(Vec::is_empty));
    (out, added)
}

/// The file's new text with its `hooks` member made `after` (laid out
/// afresh; every other member keeps its bytes); `None` when nothing is
/// left in it (the file goes).
fn hooks_text(
    before: Option<&str>,
    doc: &Value,
    hooks: &Map<String, Value>,
    after: &Map<String, Value>,
) -> Option<String> {
    let mut text = before.map(str::to_owned);
    if hooks != after {
        let value = (!after.is_empty()).then(|| Value::Object(after.clone()));
        text = json_file::set(text.as_deref().unwrap_or(""), &[], "hooks", value.as_ref());
    }
    // The reference's own key of older releases, never a person's.
    if doc.get("_vaultspecManagedHooks").is_some() {
        text = json_file::set(
            text.as_deref().unwrap_or(""),
            &[],
            "_vaultspecManagedHooks",
            None,
        );
    }
    text
}

/// Antigravity's file with the `vaultspec` hook set made of `payload`, or
/// without one when it is empty.
fn hook_set(before: Option<&str>, doc: &Value, payload: &Map<String, Value>) -> Option<String> {
    let wanted = (!payload.is_empty()).then(|| {
        let mut set = Map::new();
        set.insert("enabled".into(), json!(true));
        set.extend(payload.clone());
        Value::Object(set)
    });
    if doc.get("vaultspec") == wanted.as_ref() {
        return before.map(str::to_owned);
    }
    json_file::set(before.unwrap_or(""), &[], "vaultspec", wanted.as_ref())
}

/// Write (or remove) the record of what was rendered for `provider`.
fn sidecar(root: &Path, provider: &str, payload: &Map<String, Value>) -> anyhow::Result<()> {
    let file = native_file(provider);
    let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
    let place = Place {
        base: root.to_path_buf(),
        relative: format!("{dir}/.vaultspec-hooks.json"),
        scope: WriteScope::Hooks,
    };
    let text = (!payload.is_empty()).then(|| {
        format!(
            "{}\n",
            pyjson::dumps(&Value::Object(payload.clone()), Style::INDENTED)
        )
    });
    if place.read()? != text {
        place.write(text.as_deref())?;
    }
    Ok(())
}

/// sha256 (hex) of `hooks` as the reference fingerprints the member.
fn digest(hooks: &Value) -> String {
    hex::encode(Sha256::digest(
        pyjson::dumps(hooks, Style::SORTED_COMPACT).as_bytes(),
    ))
}

/// The groups a receipt says vaultspec added, and the member it saw.
struct Managed {
    groups: Map<String, Value>,
    digest: String,
}

/// What the receipt of a file holds.
enum Receipts {
    /// No receipt: vaultspec added nothing there.
    None,
    /// A receipt for this file.
    Matching(Managed),
    /// A receipt that cannot be read, or is of another file.
    Stale,
}

/// The ownership receipt of one agent file.
struct Receipt {
    place: Place,
    path: String,
}

impl Receipt {
    fn place(homes: &Homes, file: &Path) -> Receipt {
        let path = file.to_string_lossy().into_owned();
        Receipt {
            place: Place {
                base: homes.vaultspec(),
                relative: format!(
                    "hook-ownership/{}.json",
                    hex::encode(Sha256::digest(path.as_bytes()))
                ),
                scope: WriteScope::Beneath,
            },
            path,
        }
    }

    fn read(&self) -> Receipts {
        let Ok(text) = self.place.read() else {
            return Receipts::Stale;
        };
        let Some(text) = text else {
            return Receipts::None;
        };
        let Ok(doc) = serde_json::from_str::<Value>(&text) else {
            return Receipts::Stale;
        };
        match (
            doc.get("version"),
            doc.get("path").and_then(Value::as_str),
            doc.get("hooks_digest").and_then(Value::as_str),
            doc.get("managed").and_then(Value::as_object),
        ) {
            (Some(v), Some(path), Some(digest), Some(groups))
                if *v == json!(1) && path == self.path =>
            {
                Receipts::Matching(Managed {
                    groups: groups.clone(),
                    digest: digest.to_owned(),
                })
            }
            _ => Receipts::Stale,
        }
    }

    /// Record `added` against the member as it now is; no receipt when
    /// vaultspec added nothing.
    fn write(&self, file: &Path, hooks: &Value, added: &Map<String, Value>) -> anyhow::Result<()> {
        if added.is_empty() {
            return self.place.write(None);
        }
        let doc = json!({
            "version": 1,
            "path": file.to_string_lossy(),
            "hooks_digest": digest(hooks),
            "managed": added,
        });
        self.place
            .write(Some(&format!("{}\n", pyjson::dumps(&doc, Style::INDENTED))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(command: &str) -> Value {
        json!({"hooks": [{"type": "command", "command": command}]})
    }

    #[test]
    fn a_persons_groups_stay_and_only_ours_are_taken_back() {
        let mine = group("mine");
        let ours_before = group("old");
        let hooks = json!({"Stop": [mine.clone(), ours_before.clone()]});
        let managed = json!({"Stop": [ours_before]});
        let payload = json!({"Stop": [group("new")], "PreToolUse": [mine.clone()]});
        let (after, added) = compose(
            hooks.as_object().unwrap(),
            managed.as_object().unwrap(),
            payload.as_object().unwrap(),
        );
        assert_eq!(
            Value::Object(after),
            json!({"Stop": [mine.clone(), group("new")], "PreToolUse": [mine]})
        );
        // A group equal to one already there is not taken as ours.
        assert_eq!(
            Value::Object(added),
            json!({"Stop": [group("new")], "PreToolUse": [group("mine")]})
        );
    }

    #[test]
    fn editing_the_member_keeps_every_other_byte() {
        let before =
            "{\n    \"model\": \"x\",\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}\n";
        let doc = json_file::parse(before).unwrap();
        let after = json!({"Stop": [group("s")]});
        let text = hooks_text(Some(before), &doc, &Map::new(), after.as_object().unwrap()).unwrap();
        assert!(text.starts_with(
            "{\n    \"model\": \"x\",\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},"
        ));
        assert_eq!(json_file::parse(&text).unwrap()["hooks"], after);
        // Taking the hooks out again gives the person's file back.
        let doc = json_file::parse(&text).unwrap();
        let back = hooks_text(Some(&text), &doc, after.as_object().unwrap(), &Map::new()).unwrap();
        assert_eq!(
            json_file::parse(&back).unwrap(),
            json_file::parse(before).unwrap()
        );
    }
}
