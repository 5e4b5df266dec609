//! The names `verbs new` accepts: kebab case, valid at once as a WIT
//! identifier, a Cargo package name and (with `-` as `_`) a Rust identifier.

use anyhow::bail;

/// Words a name may not be: Rust keywords (the generated module and crate
/// names) and the names of Rust's built-in crates, which Cargo refuses.
const RESERVED: &[&str] = &[
    "abstract",
    "alloc",
    "as",
    "async",
    "await",
    "become",
    "box",
    "break",
    "const",
    "continue",
    "core",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "proc-macro",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "std",
    "struct",
    "super",
    "test",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "union",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
];

/// What a well-formed name looks like, for error messages.
pub const ACCEPTED: &str = "lowercase words of letters and digits joined by single `-`, starting with a letter (`notes`, `my-notes`)";

/// Check that `name` is kebab case: words of `a-z` and `0-9` joined by single
/// `-`, the first starting with a letter (WIT lets later words start with a
/// digit), and not a reserved word. `what` names it in the error.
pub fn check_kebab(what: &str, name: &str) -> anyhow::Result<()> {
    let words_ok = name.split('-').enumerate().all(|(i, word)| {
        let mut chars = word.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || (i > 0 && c.is_ascii_digit()))
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    });
    if !words_ok {
        let hint = suggestion(name)
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        bail!("`{name}` is not a valid {what}: use {ACCEPTED}{hint}");
    }
    if RESERVED.contains(&name) {
        bail!(
            "`{name}` is a reserved word in Rust or Cargo and cannot be a {what}: choose another"
        );
    }
    Ok(())
}

/// The name as a Rust identifier (`my-notes` → `my_notes`): the crate's
/// library, its `.wasm` file and the generated bindings' modules.
pub fn rust_ident(name: &str) -> String {
    name.replace('-', "_")
}

/// The kebab-case form of a near miss (`My_Notes` → `my-notes`), if that is
/// valid (never for a name with other than ASCII letters in it).
fn suggestion(name: &str) -> Option<String> {
    if !name.is_ascii() {
        return None;
    }
    let kebab: String = name
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .chars()
        .map(|c| match c {
            '_' | ' ' | '.' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    let kebab = kebab
        .split('-')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    (kebab != name && check_kebab("name", &kebab).is_ok()).then_some(kebab)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case_names_are_accepted() {
        for name in ["notes", "my-notes", "notes2", "team-2-notes", "a"] {
            check_kebab("verb group name", name).unwrap();
        }
        assert_eq!(rust_ident("my-notes"), "my_notes");
    }

    #[test]
    fn other_names_are_refused_with_what_is_accepted() {
        for (name, hint) in [
            ("My_Notes", Some("my-notes")),
            ("my_notes", Some("my-notes")),
            ("my--notes", Some("my-notes")),
            ("-notes", Some("notes")),
            ("notes-", Some("notes")),
            ("2notes", None),
            ("", None),
            ("über", None),
        ] {
            let err = check_kebab("verb group name", name)
                .unwrap_err()
                .to_string();
            assert!(err.contains("lowercase words"), "{name}: {err}");
            match hint {
                Some(hint) => assert!(err.contains(&format!("did you mean `{hint}`")), "{err}"),
                None => assert!(!err.contains("did you mean"), "{err}"),
            }
        }
        let err = check_kebab("verb group name", "type")
            .unwrap_err()
            .to_string();
        assert!(err.contains("reserved"), "{err}");
    }
}
