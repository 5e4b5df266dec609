//! The filename grammar of spec/vault-format.md §4: normalising feature tags
//! and topics, building document filenames and paths, and the validation
//! patterns the structure check applies.

use super::DocType;
use crate::date::Date;
use crate::error::{Error, Result};
use crate::pattern::Pattern;

/// Windows device names refused as feature tags and topics.
const DEVICE_NAMES: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// Which input is being normalised, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// A `--feature` value.
    Feature,
    /// A `--topic` value.
    Topic,
}

impl Token {
    /// How messages name this input.
    pub fn noun(self) -> &'static str {
        match self {
            Token::Feature => "feature tag",
            Token::Topic => "topic",
        }
    }
}

fn is_kebab(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

/// Normalises a feature tag or topic: strip every leading `#`, trim,
/// lowercase, turn `/` and `\` into `-`, then require kebab-case and refuse
/// Windows device names.
pub fn normalize(raw: &str, token: Token) -> Result<String> {
    let v = super::tag_name(raw)
        .trim()
        .to_lowercase()
        .replace(['/', '\\'], "-");
    if v.is_empty() {
        return Err(Error::EmptyName { what: token.noun() });
    }
    if !is_kebab(&v) {
        return Err(Error::InvalidName {
            what: token.noun(),
            raw: raw.to_string(),
            reason: None,
        });
    }
    if DEVICE_NAMES.contains(&v.as_str()) {
        return Err(Error::InvalidName {
            what: token.noun(),
            raw: raw.to_string(),
            reason: Some(
                "it is a reserved device name on Windows (CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9)",
            ),
        });
    }
    Ok(v)
}

/// `{date}-{feature}[-{topic}]-{type}.md` for the authored types, or the
/// ledger / index filename for `exec` / `index`.
pub fn filename(doc_type: DocType, date: Date, feature: &str, topic: Option<&str>) -> String {
    match (doc_type, topic) {
        (DocType::Index, _) => format!("{feature}.index.md"),
        (DocType::Exec, _) => format!("{date}-{feature}-ledger.md"),
        (t, Some(topic)) if t.takes_topic() => format!("{date}-{feature}-{topic}-{t}.md"),
        (t, _) => format!("{date}-{feature}-{t}.md"),
    }
}

/// The workspace-relative path of a document with that filename.
pub fn doc_path(doc_type: DocType, date: Date, feature: &str, topic: Option<&str>) -> String {
    let name = filename(doc_type, date, feature, topic);
    match doc_type {
        DocType::Exec => format!("{}/{date}-{feature}/{name}", doc_type.dir()),
        t => format!("{}/{name}", t.dir()),
    }
}

/// The path of a feature's index.
pub fn index_path(feature: &str) -> String {
    format!("{}/{feature}.index.md", super::INDEX_DIR)
}

/// The path of the ledger of a plan dated `plan_date` for `feature`.
pub fn ledger_path(plan_date: Date, feature: &str) -> String {
    doc_path(DocType::Exec, plan_date, feature, None)
}

static INDEX_RE: Pattern = Pattern::new(r"^[a-z0-9-]+\.index\.md$");
static STEP_RE: Pattern =
    Pattern::new(r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+-(W\d{2,}[a-z]?-)?(P\d{2,}[a-z]?-)?S\d{2,}\.md$");
static SUMMARY_RE: Pattern =
    Pattern::new(r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+-(W\d{2,}[a-z]?-)?P\d{2,}[a-z]?-summary\.md$");
static LEDGER_RE: Pattern = Pattern::new(r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+-ledger\.md$");
static GENERIC_RE: Pattern = Pattern::new(
    r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+-(adr|audit|exec|plan|reference|research)(-[a-z0-9-]+)*\.md$",
);

/// Validates a filename for a type (`VaultConstants.validate_filename`);
/// returns what is wrong, or `None` when the name is acceptable.
pub fn filename_problem(name: &str, doc_type: DocType) -> Option<String> {
    if !name.ends_with(".md") {
        return Some(format!("`{name}` does not end in `.md`"));
    }
    if doc_type == DocType::Index || name.ends_with(".index.md") {
        return (!INDEX_RE.is_match(name))
            .then(|| format!("`{name}` is not `<feature>.index.md` in kebab-case"));
    }
    if doc_type == DocType::Exec
        && (STEP_RE.is_match(name) || SUMMARY_RE.is_match(name) || LEDGER_RE.is_match(name))
    {
        return None;
    }
    if !GENERIC_RE.is_match(name) {
        return Some(format!(
            "`{name}` does not match `yyyy-mm-dd-<feature>[-<topic>]-<type>.md` in kebab-case"
        ));
    }
    match doc_type {
        DocType::Exec => (!name.contains("-exec"))
            .then(|| format!("`{name}` is in `exec/` but does not contain `-exec`")),
        // `-<type>.md`, asked without writing it out: every file of a
        // vault is checked.
        t => (!name
            .strip_suffix(".md")
            .and_then(|stem| stem.strip_suffix(t.as_str()))
            .is_some_and(|rest| rest.ends_with('-')))
        .then(|| format!("`{name}` is in `{t}/` but does not end in `-{t}.md`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_follows_the_spec_examples() {
        let f = |s| normalize(s, Token::Feature).ok();
        assert_eq!(f("Cache").as_deref(), Some("cache"));
        assert_eq!(f("#cache-two").as_deref(), Some("cache-two"));
        assert_eq!(f("##x").as_deref(), Some("x"));
        assert_eq!(f("a/b").as_deref(), Some("a-b"));
        assert_eq!(f("a\\b").as_deref(), Some("a-b"));
        assert_eq!(f(" sp ").as_deref(), Some("sp"));
        assert_eq!(f("ab-").as_deref(), Some("ab-"));
        assert_eq!(f("a--b").as_deref(), Some("a--b"));
        for bad in ["con", "com1", "a.b", "..", "-x", "x_y", "ÄB", ""] {
            assert_eq!(f(bad), None, "{bad}");
        }
        assert_eq!(normalize("My Topic", Token::Topic).ok(), None);
    }

    #[test]
    fn filenames_and_their_validation_agree() {
        let d = Date::new(2026, 3, 1).unwrap();
        assert_eq!(
            doc_path(DocType::Research, d, "f", Some("t")),
            ".vault/research/2026-03-01-f-t-research.md"
        );
        assert_eq!(
            doc_path(DocType::Plan, d, "f", None),
            ".vault/plan/2026-03-01-f-plan.md"
        );
        assert_eq!(
            ledger_path(d, "f"),
            ".vault/exec/2026-03-01-f/2026-03-01-f-ledger.md"
        );
        assert_eq!(
            filename_problem("2026-03-01-f-t-research.md", DocType::Research),
            None
        );
        assert!(filename_problem("2026-03-01-f-research.md", DocType::Reference).is_some());
        assert_eq!(
            filename_problem("2026-03-01-f-ledger.md", DocType::Exec),
            None
        );
        assert_eq!(filename_problem("f.index.md", DocType::Index), None);
    }
}
