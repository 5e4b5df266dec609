//! The test that the host's layers hold: a part uses only the parts below
//! it or beside it (the table in the crate's documentation), and the vault
//! model never uses the host.
//!
//! It reads the sources: every `crate::<part>` outside comments and test
//! modules is a use of that part.

use std::path::Path;

/// Each part of the host and its layer, lowest first.
const LAYERS: [(&str, u8); 25] = [
    ("env", 0),
    ("checked_file", 0),
    ("git_index", 0),
    ("git_history", 0),
    ("journal_key", 0),
    ("display", 0),
    ("logging", 0),
    ("file_lock", 0),
    ("workspace", 0),
    ("sentinel", 0),
    ("sdk", 0),
    ("report", 0),
    ("bounded_command", 0),
    ("catalog", 1),
    ("coherence", 1),
    ("review", 1),
    ("project", 1),
    ("trust", 1),
    ("builtins", 1),
    ("invocation", 1),
    ("sandbox", 2),
    ("gateway", 3),
    ("provision", 4),
    ("mcp", 5),
    ("cli", 5),
];

/// Uses against the layers that are known and wait for their fix, each
/// with the reason. Remove a line when its use goes.
const KNOWN: [(&str, &str, &str); 0] = [];

/// Parts that may not use a part their layer could reach, each with the
/// reason: the first may not name the second.
const APART: [(&str, &str, &str); 1] = [(
    "mcp",
    "sandbox",
    "MCP tools reach verbs only through the gateway",
)];

fn layer(part: &str) -> Option<u8> {
    LAYERS.iter().find(|(p, _)| *p == part).map(|(_, l)| *l)
}

/// Every `(file, part used)` in the non-test code of `file`.
fn uses(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        for (at, _) in code.match_indices("crate::") {
            let part: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `vaultspec_vault::crate::…` does not occur; `$crate::` in a
            // macro names the crate of the macro.
            if !code[..at].ends_with('$') && !part.is_empty() {
                found.push(part);
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_part_uses_only_the_parts_below_or_beside_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let part = first.to_str().unwrap().trim_end_matches(".rs");
        if matches!(part, "lib" | "main" | "layers") {
            continue;
        }
        let own =
            layer(part).unwrap_or_else(|| panic!("`{part}` is in no layer: add it to LAYERS"));
        let text = std::fs::read_to_string(&file).unwrap();
        for used in uses(&text) {
            let Some(theirs) = layer(&used) else { continue };
            let known = KNOWN.iter().any(|(a, b, _)| *a == part && *b == used);
            if theirs > own && !known {
                wrong.push(format!("{} uses crate::{used}", relative.display()));
            }
            if let Some((_, _, why)) = APART.iter().find(|(a, b, _)| *a == part && *b == used) {
                wrong.push(format!(
                    "{} uses crate::{used}, but {why}",
                    relative.display()
                ));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "uses against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_known_exceptions_are_still_there() {
    // A fixed exception left in KNOWN would hide its return.
    for (part, used, why) in KNOWN {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(part);
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        let still = files.iter().any(|f| {
            uses(&std::fs::read_to_string(f).unwrap())
                .iter()
                .any(|u| u == used)
        });
        assert!(
            still,
            "`{part}` no longer uses `{used}` ({why}): remove it from KNOWN"
        );
    }
}

#[test]
fn the_vault_model_and_the_verb_sdk_never_use_the_host() {
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk");
    for krate in ["vault", "verb"] {
        let manifest = std::fs::read_to_string(sdk.join(krate).join("Cargo.toml")).unwrap();
        assert!(
            !manifest.contains("vaultspec-host"),
            "sdk/{krate} depends on the host"
        );
        let mut files = Vec::new();
        rust_files(&sdk.join(krate).join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(
                !text.contains("vaultspec_host"),
                "{} uses the host",
                file.display()
            );
        }
    }
}

#[test]
fn the_scan_sees_uses_and_skips_comments_and_tests() {
    let text = "use crate::mcp::Server;\n// crate::cli\nfn f() { crate::gateway::x(); $crate::y }\n#[cfg(test)]\nuse crate::setup;\n";
    assert_eq!(uses(text), ["mcp", "gateway"]);
}

#[test]
fn the_readme_walks_vault_list_through_at_most_eight_real_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme
        .find("Follow `vault list` from its")
        .expect("the README walks `vault list`");
    // The intro paragraph, then the numbered steps up to the next blank line.
    let after_intro = &readme[start..][readme[start..].find("\n\n").unwrap() + 2..];
    let steps = &after_intro[..after_intro.find("\n\n").unwrap()];
    // Each step opens with the file it is about.
    let files: Vec<&str> = steps
        .lines()
        .filter(|line| {
            line.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .filter_map(|line| line.split('`').nth(1))
        .collect();
    assert!(
        (2..=8).contains(&files.len()),
        "the walk names {} files: {files:?}",
        files.len()
    );
    for file in files {
        assert!(
            root.join(file).is_file(),
            "the README's walk names `{file}`, which is not a file"
        );
    }
}
