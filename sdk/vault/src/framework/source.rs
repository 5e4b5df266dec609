//! The framework's sources under `.vaultspec/`: rules, skills, personas and
//! system-prompt parts, read through a [`Storage`] and checked one by one.
//!
//! A source that cannot be used (too large, not UTF-8, not a regular file,
//! a name with characters no provider folder should hold) is reported as a
//! [`Problem`] and left out whole: nothing is ever rendered from half a
//! file.

use std::collections::BTreeMap;

use super::front::Front;
use crate::storage::{FileEntry, Storage, StorageError};

/// The four kinds of framework source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `.vaultspec/rules/*.md`: always-on instructions.
    Rule,
    /// `.vaultspec/skills/<name>/SKILL.md` and the files beside it.
    Skill,
    /// `.vaultspec/agents/*.md`: personas an agent can hand work to.
    Agent,
    /// `.vaultspec/system/NN-*.md`: parts of the system prompt.
    System,
}

impl Kind {
    /// Every kind, in the order they are rendered and reported.
    pub const ALL: [Kind; 4] = [Kind::Rule, Kind::Skill, Kind::Agent, Kind::System];

    /// The folder under `.vaultspec/`, which is also the command word
    /// (`spec rules …`).
    pub fn folder(self) -> &'static str {
        match self {
            Kind::Rule => "rules",
            Kind::Skill => "skills",
            Kind::Agent => "agents",
            Kind::System => "system",
        }
    }

    /// The workspace-relative folder of this kind's sources.
    pub fn dir(self) -> String {
        format!(".vaultspec/{}", self.folder())
    }

    /// One source of this kind, for messages: `rule`, `skill`, `agent`,
    /// `system part`.
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Rule => "rule",
            Kind::Skill => "skill",
            Kind::Agent => "agent",
            Kind::System => "system part",
        }
    }

    /// The workspace-relative path of the main file of source `name`.
    pub fn path(self, name: &str) -> String {
        match self {
            Kind::Skill => format!(".vaultspec/skills/{name}/SKILL.md"),
            _ => format!("{}/{name}.md", self.dir()),
        }
    }

    /// The kinds one family's `sync` and `status` cover: the rules folder
    /// carries the system rule too.
    pub fn family(self) -> &'static [Kind] {
        match self {
            Kind::Rule => &[Kind::Rule, Kind::System],
            Kind::Skill => &[Kind::Skill],
            Kind::Agent => &[Kind::Agent],
            Kind::System => &[Kind::System],
        }
    }

    /// The source name a person typed (`team-style`, or for a file-backed
    /// kind `team-style.md`), checked; the error says what a name may hold.
    pub fn typed_name(self, typed: &str) -> Result<String, String> {
        let name = match self {
            Kind::Skill => typed,
            _ => typed.strip_suffix(".md").unwrap_or(typed),
        };
        if valid_name(name) {
            Ok(name.to_owned())
        } else {
            Err(format!(
                "`{}` cannot name a {}: use letters, digits, `.`, `_` and `-` (not first)",
                shown(typed),
                self.noun()
            ))
        }
    }

    /// Every file of source `name` as it stands, workspace-relative: a
    /// skill's whole folder, else the one file (none when it is missing).
    pub fn files(self, storage: &dyn Storage, name: &str) -> Vec<String> {
        match self {
            Kind::Skill => storage
                .list(&format!(".vaultspec/skills/{name}"))
                .map(|entries| entries.into_iter().map(|e| e.path).collect())
                .unwrap_or_default(),
            _ => {
                let path = self.path(name);
                match storage.exists(&path) {
                    Ok(true) => vec![path],
                    _ => Vec::new(),
                }
            }
        }
    }
}

/// One usable source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Its kind.
    pub kind: Kind,
    /// Its name: the file name without `.md` (a rule keeps `.builtin`), or
    /// a skill's folder name.
    pub name: String,
    /// The workspace-relative path of its main file.
    pub path: String,
    /// The main file's text.
    pub text: String,
    /// The main file's frontmatter and body.
    pub front: Front,
    /// A skill's other files: path relative to the skill's folder, text.
    pub extra: Vec<(String, String)>,
}

impl Source {
    /// The description to show: the `description` key, else the first
    /// heading or line of the body.
    pub fn description(&self) -> String {
        let given = self.front.text("description");
        if !given.is_empty() {
            return given;
        }
        self.front
            .body
            .lines()
            .map(|l| l.trim_start_matches('#').trim())
            .find(|l| !l.is_empty())
            .unwrap_or_default()
            .to_owned()
    }
}

/// A source left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The workspace-relative path of the file.
    pub path: String,
    /// What is wrong, naming the path.
    pub message: String,
}

/// Every source of a workspace, and the files that could not be used.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The usable sources, by kind, each sorted by name.
    pub by_kind: BTreeMap<Kind, Vec<Source>>,
    /// The files left out.
    pub problems: Vec<Problem>,
}

impl Sources {
    /// The sources of one kind, sorted by name (system parts by `order`,
    /// then name).
    pub fn of(&self, kind: Kind) -> &[Source] {
        self.by_kind.get(&kind).map_or(&[], Vec::as_slice)
    }

    /// One source by kind and name.
    pub fn find(&self, kind: Kind, name: &str) -> Option<&Source> {
        self.of(kind).iter().find(|s| s.name == name)
    }

    /// Read every source of the workspace.
    pub fn read(storage: &dyn Storage) -> Sources {
        let mut sources = Sources::default();
        for kind in Kind::ALL {
            let found = read_kind(storage, kind, &mut sources.problems);
            sources.by_kind.insert(kind, found);
        }
        sources
    }
}

/// Whether `name` can name a source: letters, digits, `.`, `_` and `-`,
/// not starting with `.` or `-`. Anything else (a space, an escape
/// character, a slash) could not be shown or placed safely.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && !name.starts_with(['.', '-'])
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// `name` as it may be shown at a terminal: control characters escaped.
pub fn shown(name: &str) -> String {
    name.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

fn read_kind(storage: &dyn Storage, kind: Kind, problems: &mut Vec<Problem>) -> Vec<Source> {
    let dir = kind.dir();
    let entries = match storage.list(&dir) {
        Ok(entries) => entries,
        Err(StorageError::NotFound { .. }) => Vec::new(),
        Err(err) => {
            problems.push(Problem {
                path: dir,
                message: err.to_string(),
            });
            return Vec::new();
        }
    };
    let mut found = match kind {
        Kind::Skill => read_skills(storage, &dir, &entries, problems),
        _ => entries
            .iter()
            .filter_map(|entry| {
                let file = entry.path.strip_prefix(&dir)?.strip_prefix('/')?;
                // Flat folders: nothing nested, only markdown.
                if file.contains('/') || !file.ends_with(".md") {
                    return None;
                }
                let name = file.trim_end_matches(".md");
                read_one(storage, kind, name, &entry.path, problems)
            })
            .collect(),
    };
    if kind == Kind::System {
        found.sort_by_key(|s| (order(s), s.name.clone()));
    } else {
        found.sort_by(|a, b| a.name.cmp(&b.name));
    }
    found
}

/// A system part's `order` (missing or not a number: last).
pub fn order(source: &Source) -> i64 {
    source
        .front
        .text("order")
        .trim()
        .parse()
        .unwrap_or(i64::MAX)
}

fn read_skills(
    storage: &dyn Storage,
    dir: &str,
    entries: &[FileEntry],
    problems: &mut Vec<Problem>,
) -> Vec<Source> {
    let mut skills: BTreeMap<&str, Vec<&FileEntry>> = BTreeMap::new();
    for entry in entries {
        let Some(rest) = entry
            .path
            .strip_prefix(dir)
            .and_then(|r| r.strip_prefix('/'))
        else {
            continue;
        };
        if let Some((skill, _)) = rest.split_once('/') {
            skills.entry(skill).or_default().push(entry);
        }
    }
    let mut found = Vec::new();
    for (name, files) in skills {
        let main = format!("{dir}/{name}/SKILL.md");
        if !files.iter().any(|f| f.path == main) {
            continue;
        }
        let Some(mut skill) = read_one(storage, Kind::Skill, name, &main, problems) else {
            continue;
        };
        let mut whole = true;
        for file in files.iter().filter(|f| f.path != main) {
            let relative = &file.path[dir.len() + name.len() + 2..];
            if !relative.ends_with(".md") {
                continue;
            }
            match read_text(storage, &file.path) {
                Ok(text) => skill.extra.push((relative.to_owned(), text)),
                Err(message) => {
                    problems.push(Problem {
                        path: file.path.clone(),
                        message,
                    });
                    whole = false;
                }
            }
        }
        if whole {
            found.push(skill);
        } else {
            problems.push(Problem {
                path: main,
                message: format!(
                    "skill `{}` is left out: one of its files cannot be read",
                    shown(name)
                ),
            });
        }
    }
    found
}

fn read_one(
    storage: &dyn Storage,
    kind: Kind,
    name: &str,
    path: &str,
    problems: &mut Vec<Problem>,
) -> Option<Source> {
    if !valid_name(name) {
        problems.push(Problem {
            path: shown(path),
            message: format!(
                "{} name `{}` is left out: a name may hold only letters, digits, `.`, `_` and `-`",
                kind.noun(),
                shown(name)
            ),
        });
        return None;
    }
    match read_text(storage, path) {
        Ok(text) => Some(Source {
            kind,
            name: name.to_owned(),
            path: path.to_owned(),
            front: Front::parse(&text),
            text,
            extra: Vec::new(),
        }),
        Err(message) => {
            problems.push(Problem {
                path: path.to_owned(),
                message,
            });
            None
        }
    }
}

/// A scalar as frontmatter writes it (quoted when it must be).
pub fn yaml_scalar(value: &str) -> String {
    super::front::scalar(value)
}

/// A file's text, or why it cannot be had (the storage refuses non-regular
/// files and files over its limit before reading them).
pub fn read_text(storage: &dyn Storage, path: &str) -> Result<String, String> {
    let bytes = storage.read(path).map_err(|err| err.to_string())?;
    String::from_utf8(bytes).map_err(|_| format!("`{}` is not UTF-8 text", shown(path)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;

    #[test]
    fn sources_of_each_kind_are_read_and_bad_ones_reported() {
        let storage = MemStorage::new();
        storage.insert(".vaultspec/rules/b.md", "---\nname: b\n---\n\nB\n");
        storage.insert(".vaultspec/rules/a.builtin.md", "A\n");
        storage.insert(".vaultspec/rules/nested/x.md", "ignored\n");
        storage.insert(".vaultspec/rules/bad\u{1b}[31m.md", "x\n");
        storage.insert(".vaultspec/agents/p.md", b"\xff\xfe".to_vec());
        storage.insert(
            ".vaultspec/skills/s/SKILL.md",
            "---\nname: s\ndescription: d\n---\nS\n",
        );
        storage.insert(".vaultspec/skills/s/references/r.md", "R\n");
        storage.insert(".vaultspec/system/90-custom.md", "---\norder: 90\n---\n");
        storage.insert(".vaultspec/system/01-core.md", "---\norder: 1\n---\nC\n");
        let sources = Sources::read(&storage);
        let names = |k| {
            sources
                .of(k)
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(Kind::Rule), ["a.builtin", "b"]);
        assert_eq!(names(Kind::System), ["01-core", "90-custom"]);
        assert_eq!(names(Kind::Agent), Vec::<&str>::new());
        let skill = sources.find(Kind::Skill, "s").unwrap();
        assert_eq!(skill.description(), "d");
        assert_eq!(
            skill.extra,
            [("references/r.md".to_owned(), "R\n".to_owned())]
        );
        let problems: Vec<&str> = sources
            .problems
            .iter()
            .map(|p| p.message.as_str())
            .collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems.iter().any(|m| m.contains("\\u{1b}")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|m| m.contains("not UTF-8")),
            "{problems:?}"
        );
    }
}
