//! `framework_flatten` (0.1.35): releases before it kept every framework
//! folder (skills, agents, system, templates, hooks, mcps, reference) and
//! the rules themselves one level down, in `.vaultspec/rules/`. Each is
//! moved up to `.vaultspec/<folder>/`; a file of the old layout replaces
//! the same file of the new one, as the reference merges them.

use vaultspec_vault::Storage;

use super::{Done, replace};

const RULES: &str = ".vaultspec/rules";

/// The folders the old layout nested, the rules themselves last.
const NESTED: [&str; 8] = [
    "skills",
    "agents",
    "system",
    "templates",
    "hooks",
    "mcps",
    "reference",
    "rules",
];

pub fn run(storage: &dyn Storage) -> Result<Done, String> {
    let files = storage.list(RULES).map_err(|e| e.to_string())?;
    let mut moved_folders = 0;
    let mut changes = Vec::new();
    for folder in NESTED {
        let prefix = format!("{RULES}/{folder}/");
        let inside: Vec<&str> = files
            .iter()
            .map(|e| e.path.as_str())
            .filter(|p| p.starts_with(&prefix))
            .collect();
        if inside.is_empty() {
            continue;
        }
        let target = if folder == "rules" {
            RULES.to_owned()
        } else {
            format!(".vaultspec/{folder}")
        };
        for path in inside {
            let to = format!("{target}/{}", &path[prefix.len()..]);
            replace(storage, path, &to)?;
            changes.push(path.to_owned());
        }
        moved_folders += 1;
    }
    let summary = match moved_folders {
        0 => "the framework folders are already flat; nothing to move".to_owned(),
        n => format!(
            "moved {n} framework folder{} up from .vaultspec/rules/ to .vaultspec/",
            if n == 1 { "" } else { "s" }
        ),
    };
    Ok(Done { summary, changes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vaultspec_vault::{MemStorage, WriteScope};

    #[test]
    fn nested_folders_move_up_and_replace_their_flat_copies() {
        let s = MemStorage::new().with_scope(WriteScope::Setup);
        s.insert(".vaultspec/rules/rules/mine.md", "nested rule");
        s.insert(".vaultspec/rules/skills/x/SKILL.md", "nested");
        s.insert(".vaultspec/skills/x/SKILL.md", "flat");
        s.insert(".vaultspec/skills/y/SKILL.md", "flat only");
        s.insert(".vaultspec/rules/notes.txt", "loose");
        let done = run(&s).unwrap();
        assert_eq!(
            done.summary,
            "moved 2 framework folders up from .vaultspec/rules/ to .vaultspec/"
        );
        assert_eq!(s.read(".vaultspec/skills/x/SKILL.md").unwrap(), b"nested");
        assert_eq!(
            s.read(".vaultspec/skills/y/SKILL.md").unwrap(),
            b"flat only"
        );
        assert_eq!(s.read(".vaultspec/rules/mine.md").unwrap(), b"nested rule");
        assert_eq!(s.read(".vaultspec/rules/notes.txt").unwrap(), b"loose");
        assert!(!s.exists(".vaultspec/rules/rules/mine.md").unwrap());
        assert!(run(&s).unwrap().changes.is_empty());
    }
}
