//! A warm server answers as a fresh one would: after each of a random
//! sequence of edits, renames, deletes and creations made behind its back,
//! its `check`, `status`, `find` and `invoke` of read verbs (whose replies
//! it keeps) equal a new server's, field for field. The edits include
//! those a warm server works out again only in part: a plan's step
//! checked (its status alone is read again), a ledger row added, and a
//! `modified:` date moved (the stale links from and to that document
//! alone are dated again).

use serde_json::{Value, json};
use vaultspec_test_support::TestVault;
use vaultspec_vault::testgen::XorShift as Numbers;

use crate::mcp::Session;

/// The answers a client relies on: each tool's structured result.
fn answers(session: &Session) -> anyhow::Result<Vec<Value>> {
    let mut out = Vec::new();
    for (tool, args) in [
        ("check", json!({})),
        ("check", json!({"feature": "alpha"})),
        ("status", json!({})),
        ("find", json!({})),
        ("invoke", json!({"verb": "vault list"})),
        (
            "invoke",
            json!({"verb": "vault list", "arguments": {"feature": "alpha"}}),
        ),
        ("invoke", json!({"verb": "vault check all"})),
    ] {
        let result = session.call(tool, args)?;
        out.push(
            json!({"tool": tool, "error": result.is_error, "result": result.structured_content}),
        );
    }
    Ok(out)
}

/// One change to the workspace, made straight on the files.
fn change(vault: &TestVault, numbers: &mut Numbers, step: usize) -> String {
    let docs: Vec<String> = walk(vault);
    let features = ["alpha", "beta"];
    let pick = |numbers: &mut Numbers| docs[numbers.below(docs.len())].clone();
    match numbers.below(13) {
        0..=2 if !docs.is_empty() => {
            // The same size, within the same second: only the bytes differ.
            let path = pick(numbers);
            let text = vault.read(&path).unwrap();
            let flipped = if text.contains("Some") {
                text.replacen("Some", "Mome", 1)
            } else {
                text.replacen("Mome", "Some", 1)
            };
            vault.write(&path, &flipped);
            format!("edited {path} in place")
        }
        3 if !docs.is_empty() => {
            let path = pick(numbers);
            std::fs::remove_file(vault.root().join(&path)).unwrap();
            format!("deleted {path}")
        }
        4 if !docs.is_empty() => {
            let path = pick(numbers);
            let to = path.replace(".md", &format!("-{step}.md"));
            std::fs::rename(vault.root().join(&path), vault.root().join(&to)).unwrap();
            format!("renamed {path} to {to}")
        }
        5 => {
            vault.write(&format!(".vaultspec/stray-{step}.txt"), "x");
            "a stray framework file".to_owned()
        }
        6 | 7 if !docs.is_empty() => {
            // The same files, but a document's links move.
            let path = pick(numbers);
            let target = pick(numbers);
            let stem = target.rsplit('/').next().unwrap().trim_end_matches(".md");
            let text = vault.read(&path).unwrap();
            vault.write(
                &path,
                &format!("{text}\nSee [[{stem}]] and [[ghost-{step}]].\n"),
            );
            format!("linked {path} to {stem}")
        }
        8 if !docs.is_empty() => {
            // Frontmatter that no longer parses, or parses again.
            let path = pick(numbers);
            let text = vault.read(&path).unwrap();
            let toggled = match text.strip_prefix("---\ntags: [broken\n") {
                Some(rest) => format!("---\n{rest}"),
                None => text.replacen("---\n", "---\ntags: [broken\n", 1),
            };
            vault.write(&path, &toggled);
            format!("toggled the frontmatter of {path}")
        }
        9 if !docs.is_empty() => {
            // Only the date moves: stale links appear and settle. Half the
            // time it is the plan's upstream, which the plan goes stale for.
            let path = match numbers.below(2) {
                0 if docs.iter().any(|d| d == UPSTREAM) => UPSTREAM.to_owned(),
                _ => pick(numbers),
            };
            let text = vault.read(&path).unwrap();
            let day = format!("modified: '2026-01-{:02}'", 1 + numbers.below(28));
            let Some(at) = text.find("modified: '") else {
                return format!("left {path} without a date");
            };
            let end = at + "modified: '2026-01-01'".len();
            vault.write(&path, &format!("{}{day}{}", &text[..at], &text[end..]));
            format!("dated {path} {day}")
        }
        10 => {
            // A step checked or unchecked, as `plan_edit` would.
            let Some(text) = vault.read(PLAN) else {
                return "no plan to toggle".to_owned();
            };
            let toggled = if numbers.below(2) == 0 && text.contains("- [ ]") {
                text.replacen("- [ ]", "- [x]", 1)
            } else {
                text.replacen("- [x]", "- [ ]", 1)
            };
            vault.write(PLAN, &toggled);
            "toggled a step of the plan".to_owned()
        }
        11 => {
            let Some(text) = vault.read(LEDGER) else {
                return "no ledger to add to".to_owned();
            };
            vault.write(
                LEDGER,
                &format!("{text}- `S0{}` `M` `src/x.rs`\n", 1 + step % 3),
            );
            "added a ledger row".to_owned()
        }
        _ => {
            let feature = features[numbers.below(2)];
            let kind = ["adr", "research", "plan"][numbers.below(3)];
            let path = vault.doc(
                kind,
                &format!("2026-01-{:02}", 1 + step % 28),
                feature,
                Some(&format!("t{step}")),
            );
            if let Some(other) = docs.first() {
                let stem = other.rsplit('/').next().unwrap().trim_end_matches(".md");
                let text = vault.read(&path).unwrap();
                vault.write(
                    &path,
                    &text.replace("related: []", &format!("related:\n  - '[[{stem}]]'")),
                );
            }
            format!("created {path}")
        }
    }
}

/// The documents directly in the folders of `.vault/`, in order.
fn walk(vault: &TestVault) -> Vec<String> {
    let mut out = Vec::new();
    let root = vault.root().join(".vault");
    for dir in std::fs::read_dir(&root).unwrap().flatten() {
        if !dir.path().is_dir() {
            continue;
        }
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            if file.path().is_dir() {
                continue;
            }
            let rel = file
                .path()
                .strip_prefix(vault.root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push(rel);
        }
    }
    out.sort();
    out
}

/// The plan with steps the changes check and uncheck.
const PLAN: &str = ".vault/plan/2026-01-07-alpha-steps-plan.md";

/// A document the plan was written from.
const UPSTREAM: &str = ".vault/adr/2026-01-01-alpha-adr.md";

/// The ledger that follows it.
const LEDGER: &str = ".vault/exec/2026-01-07-alpha/2026-01-07-alpha-ledger.md";

#[test]
fn a_warm_server_answers_as_a_fresh_one_after_every_change() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.doc("adr", "2026-01-01", "alpha", None);
    vault.doc("research", "2026-01-02", "beta", None);
    vault.doc("research", "2026-01-03", "alpha", Some("more"));
    vault.doc("adr", "2026-01-04", "beta", Some("other"));
    vault.doc("plan", "2026-01-05", "alpha", None);
    vault.doc("reference", "2026-01-06", "beta", None);
    vault.write(
        PLAN,
        "---\ntags:\n  - '#plan'\n  - '#alpha'\ndate: '2026-01-07'\nmodified: '2026-01-07'\ntier: L2\nrelated:\n  - '[[2026-01-01-alpha-adr]]'\n  - '[[2026-01-03-alpha-more-research]]'\n---\n\n# `alpha` steps\n\n## Steps\n\n### Phase `P01` - first\n\nSome work.\n\n- [ ] `P01.S01` - a; `src/x.rs`.\n- [x] `P01.S02` - b; `src/y.rs`.\n- [ ] `P01.S03` - c; `src/z.rs`.\n",
    );
    vault.write(
        LEDGER,
        "---\ntags:\n  - '#exec'\n  - '#alpha'\ndate: '2026-01-07'\nmodified: '2026-01-08'\nrelated:\n  - '[[2026-01-07-alpha-steps-plan]]'\n---\n\n# `alpha` ledger\n\n## Changes\n\n- `S02` `A` `src/y.rs`\n",
    );
    let warm = Session::start(&vault, &[])?;
    let mut numbers = Numbers::new(0x5eed);
    answers(&warm)?;
    for step in 0..40 {
        let what = change(&vault, &mut numbers, step);
        let fresh = Session::start(&vault, &[])?;
        let expected = answers(&fresh)?;
        assert_eq!(answers(&warm)?, expected, "after step {step}: {what}");
        // Asked again with nothing changed, the kept replies are the same.
        assert_eq!(answers(&warm)?, expected, "asked again after step {step}");
    }
    Ok(())
}
