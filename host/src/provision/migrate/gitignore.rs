//! `gitignore_reversal` (0.1.20): releases before it kept rules out of git
//! and wrote a different managed block into `.gitignore`. The block is
//! rewritten to today's lines when it holds nothing a person added, and a
//! rules folder's own `.gitignore` that hid authored rules is neutralised.

use vaultspec_vault::Storage;

use super::{Done, read_text, write};
use crate::provision::setup::managed_block::{self, END, START};
use crate::provision::setup::{policy, scaffold};

const GITIGNORE: &str = ".gitignore";

/// Where releases before the flat layout kept the rules' own ignore file.
const NESTED_RULES_IGNORE: &str = ".vaultspec/rules/rules/.gitignore";

/// The lines any release of either tool put in the block; a block holding
/// anything else was edited by a person and is left to them.
const KNOWN: [&str; 9] = [
    "/.vaultspec/.env",
    "/.vaultspec/.env.*",
    ".vaultspec/",
    ".mcp.json",
    ".claude/",
    ".gemini/",
    ".agents/",
    ".codex/",
    "/.pre-commit-config.yml",
];

/// What a release wrote into the rules folder's `.gitignore`.
const OLD_RULES_IGNORE: [&str; 2] = ["*.md", "!*.builtin.md"];

/// What the rules folder's `.gitignore` says now.
const RULES_IGNORE: &str = "# Every rule here, builtin or written by the team, is committed, so\n\
# each clone gets the same rules.\n";

fn known(line: &str) -> bool {
    KNOWN.contains(&line)
        || managed_block::GITIGNORE.contains(&line)
        || [
            "AGENTS.md",
            "CLAUDE.md",
            "GEMINI.md",
            "/.pre-commit-config.yaml",
        ]
        .contains(&line)
        || (line.starts_with('/') && line.ends_with(".lock"))
}

pub fn run(storage: &dyn Storage) -> Result<Done, String> {
    let mut changes = Vec::new();
    if let Some(text) = read_text(storage, NESTED_RULES_IGNORE)? {
        let active: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if !active.is_empty() && active.iter().all(|l| OLD_RULES_IGNORE.contains(l)) {
            write(storage, NESTED_RULES_IGNORE, RULES_IGNORE)?;
            changes.push(NESTED_RULES_IGNORE.to_owned());
        }
    }
    let done = |summary: &str, changes: Vec<String>| Done {
        summary: summary.to_owned(),
        changes,
    };
    let Some(text) = read_text(storage, GITIGNORE)? else {
        return Ok(done("no .gitignore; nothing to change", changes));
    };
    let count = |marker: &str| text.lines().filter(|l| l.trim() == marker).count();
    if count(START) != 1 || count(END) != 1 {
        return Ok(done(
            "no single vaultspec block in .gitignore; nothing to change",
            changes,
        ));
    }
    let Some(lines) = managed_block::lines(&text) else {
        return Ok(done(
            "no single vaultspec block in .gitignore; nothing to change",
            changes,
        ));
    };
    if let Some(foreign) = lines
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !known(l))
    {
        return Ok(done(
            &format!(
                "the .gitignore block holds `{foreign}`, which vaultspec never wrote; left as it \
                 is (run `vaultspec install --upgrade` to replace it)"
            ),
            changes,
        ));
    }
    let policy = policy::read(storage)?;
    let Some(want) = scaffold::block_lines(GITIGNORE, &policy) else {
        return Ok(done(
            "the workspace declines vaultspec's .gitignore block; left as it is",
            changes,
        ));
    };
    let want: Vec<&str> = want.iter().map(String::as_str).collect();
    // The block takes the file's line ends, as the rest of the file has them.
    let crlf = text.matches("\r\n").count() * 2 > text.matches('\n').count();
    let plain = text.replace("\r\n", "\n");
    let mut new = managed_block::upsert(&plain, &want);
    if crlf {
        new = new.replace('\n', "\r\n");
    }
    if new == text {
        return Ok(done("the .gitignore block is already current", changes));
    }
    write(storage, GITIGNORE, &new)?;
    changes.push(GITIGNORE.to_owned());
    Ok(done(
        "rewrote vaultspec's .gitignore block to the lines it keeps today",
        changes,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vaultspec_vault::{MemStorage, WriteScope};

    #[test]
    fn an_old_block_is_rewritten_and_a_person_s_block_is_not() {
        let s = MemStorage::new().with_scope(WriteScope::Setup);
        s.insert(
            ".gitignore",
            format!("dist/\r\n{START}\r\n.vaultspec/\r\n.mcp.json\r\n{END}\r\n"),
        );
        let done = run(&s).unwrap();
        assert_eq!(done.changes, [".gitignore"]);
        let text = String::from_utf8(s.read(".gitignore").unwrap()).unwrap();
        assert!(text.starts_with("dist/\r\n# >>> vaultspec"), "{text}");
        assert!(text.contains(".vault/data/\r\n"), "{text}");
        assert!(!text.contains(".mcp.json\r\n"), "{text}");
        assert_eq!(run(&s).unwrap().changes, Vec::<String>::new());

        s.insert(".gitignore", format!("{START}\nbuild/\n{END}\n"));
        let done = run(&s).unwrap();
        assert!(done.summary.contains("`build/`"), "{}", done.summary);
        assert!(done.changes.is_empty());
    }

    #[test]
    fn a_rules_ignore_that_hid_authored_rules_is_neutralised() {
        let s = MemStorage::new().with_scope(WriteScope::Setup);
        s.insert(NESTED_RULES_IGNORE, "# old\n*.md\n!*.builtin.md\n");
        assert_eq!(run(&s).unwrap().changes, [NESTED_RULES_IGNORE]);
        s.insert(NESTED_RULES_IGNORE, "# mine\nsecret.md\n");
        assert!(run(&s).unwrap().changes.is_empty());
    }
}
