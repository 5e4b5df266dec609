//! `commit_gate` (0.2.5): releases before it ran several vaultspec hooks
//! on each commit (`vault-fix`, `spec-check`, …); now one hook, the commit
//! gate, does their work. A hook file that holds only vaultspec's hooks is
//! rewritten to the gate alone; vaultspec's block in `prek.toml` is brought
//! up to date; a file that mixes vaultspec's hooks with the team's own is
//! left to the team, with the hooks to replace named.

use vaultspec_vault::Storage;

use super::{Done, read_text, write};
use crate::provision::setup::hook_file::{self, FILES as YAML_FILES};
use crate::provision::setup::prek::{self, GATE_ID, MigrateArgs, PREK_FILE};
use crate::provision::setup::{policy, scaffold, shell_word};

/// Every hook id a release of vaultspec put into a hook file.
const OURS: [&str; 5] = [
    GATE_ID,
    "vault-sanitize-annotations",
    "vault-fix",
    "spec-check",
    "check-provider-artifacts",
];

pub fn run(storage: &dyn Storage) -> Result<Done, String> {
    if !policy::read(storage)?.pre_commit {
        return Ok(Done::said(
            "the workspace declined the commit gate; nothing to change",
        ));
    }
    if let Some(text) = read_text(storage, PREK_FILE)? {
        if !(text.contains(prek::BEGIN) && text.contains(prek::END)) {
            return Ok(Done::said(
                "prek.toml holds no vaultspec block; nothing to change",
            ));
        }
        let args = MigrateArgs {
            remove_yaml: false,
            dry_run: false,
            json: false,
        };
        let outcome = prek::migrate(storage, &args)?;
        let changes = if outcome.status == "migrated" {
            vec![PREK_FILE.to_owned()]
        } else {
            Vec::new()
        };
        return Ok(Done {
            summary: outcome.detail,
            changes,
        });
    }
    let Some(path) = YAML_FILES
        .into_iter()
        .find(|p| storage.exists(p).unwrap_or(false))
    else {
        return Ok(Done::said("no hook file; nothing to change"));
    };
    let text = read_text(storage, path)?.unwrap_or_default();
    let Some(hooks) = hook_file::hooks(&text) else {
        return Ok(Done::said(format!(
            "{path} does not read as a pre-commit file; left as it is (`vaultspec spec doctor` \
             says more)"
        )));
    };
    let ours: Vec<&String> = hooks
        .iter()
        .filter(|h| h.local && OURS.contains(&h.id.as_str()))
        .map(|h| &h.id)
        .collect();
    if ours.is_empty() {
        return Ok(Done::said(format!(
            "{path} runs no vaultspec hook; left as it is"
        )));
    }
    let only_ours = hooks
        .iter()
        .all(|h| h.local && OURS.contains(&h.id.as_str()));
    if !only_ours {
        let names: Vec<String> = ours.iter().map(|id| format!("`{id}`")).collect();
        return Ok(Done::said(format!(
            "{path} mixes the team's hooks with vaultspec's ({}); left as it is: replace those \
             with the `{GATE_ID}` hook by hand",
            names.join(", ")
        )));
    }
    let me = shell_word(&crate::provision::enroll::own_command());
    let want = scaffold::pre_commit(&me);
    if text == want {
        return Ok(Done::said(format!(
            "{path} already runs only the commit gate"
        )));
    }
    write(storage, path, &want)?;
    Ok(Done {
        summary: format!("{path} now runs the commit gate in place of vaultspec's older hooks"),
        changes: vec![path.to_owned()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vaultspec_vault::{MemStorage, WriteScope};

    #[test]
    fn only_a_file_of_vaultspec_s_own_hooks_is_rewritten() {
        let s = MemStorage::new().with_scope(WriteScope::Setup);
        s.insert(
            ".pre-commit-config.yaml",
            "repos:\n  - repo: local\n    hooks:\n      - id: vault-fix\n        entry: old\n      - id: spec-check\n        entry: old\n",
        );
        let done = run(&s).unwrap();
        assert_eq!(done.changes, [".pre-commit-config.yaml"]);
        let text = String::from_utf8(s.read(".pre-commit-config.yaml").unwrap()).unwrap();
        assert!(text.contains("id: vaultspec-commit-gate") && !text.contains("vault-fix"));
        assert!(run(&s).unwrap().changes.is_empty());

        let mixed = "repos:\n- repo: https://github.com/x/y\n  rev: v1\n  hooks:\n  - id: black\n- repo: local\n  hooks:\n  - id: vault-fix\n";
        s.insert(".pre-commit-config.yaml", mixed);
        let done = run(&s).unwrap();
        assert!(done.summary.contains("`vault-fix`"), "{}", done.summary);
        assert_eq!(s.read(".pre-commit-config.yaml").unwrap(), mixed.as_bytes());
    }
}
