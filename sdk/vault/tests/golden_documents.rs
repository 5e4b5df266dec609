//! The golden vectors of the document layer (01–39), replayed through the
//! model operations: each command runs against a `MemStorage` copy of
//! `before/`, and the whole `.vault/` tree must equal `after/.vault` byte for
//! byte; exit codes and the JSON values our results carry must match.

mod common;

use std::collections::BTreeMap;

use common::{Vector, golden_today, json_mismatches};
use serde_json::{Value, json};
use vaultspec_vault::ops::{self, Status};
use vaultspec_vault::{CapStorage, Error, Storage, adr};

/// A parsed command line: positional words and flag values.
struct Cmd {
    words: Vec<String>,
    flags: BTreeMap<String, Vec<String>>,
}

const SWITCHES: [&str; 5] = [
    "--json",
    "--force",
    "--dry-run",
    "--no-check",
    "--deduplicate-identical",
];

fn parse(args: &[String]) -> Cmd {
    let mut words = Vec::new();
    let mut flags: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if a.starts_with('-') {
            let name = if a == "-r" {
                "--related".to_string()
            } else {
                a.clone()
            };
            let value = if SWITCHES.contains(&name.as_str()) {
                String::new()
            } else {
                it.next().cloned().unwrap_or_default()
            };
            flags.entry(name).or_default().push(value);
        } else {
            words.push(a.clone());
        }
    }
    Cmd { words, flags }
}

impl Cmd {
    fn one(&self, f: &str) -> Option<String> {
        self.flags.get(f).and_then(|v| v.last().cloned())
    }
    fn many(&self, f: &str) -> Vec<String> {
        self.flags.get(f).cloned().unwrap_or_default()
    }
    fn has(&self, f: &str) -> bool {
        self.flags.contains_key(f)
    }
}

fn word(s: Status) -> &'static str {
    match s {
        Status::Created => "created",
        Status::Updated => "updated",
        Status::Unchanged => "unchanged",
        Status::Removed => "removed",
        Status::Restored => "restored",
    }
}

fn out<T: serde::Serialize>(status: Status, v: &T) -> (String, Value) {
    (
        word(status).to_string(),
        serde_json::to_value(v).expect("serialisable"),
    )
}

/// Runs one command line through the model; `Err` is a refusal (exit 1).
fn run(v: &Vector, s: &dyn Storage, line: &[String]) -> Result<(String, Value), Error> {
    let c = parse(line);
    let today = golden_today();
    let w: Vec<&str> = c.words.iter().map(String::as_str).collect();
    match w.as_slice() {
        ["vault", "add", ty] => {
            let req = ops::add::AddRequest {
                doc_type: ty.to_string(),
                feature: c.one("--feature").unwrap_or_default(),
                date: c.one("--date"),
                title: c.one("--title"),
                topic: c.one("--topic"),
                related: c.many("--related"),
                tags: c.many("--tags"),
                tier: c.one("--tier"),
                force: c.has("--force"),
                dry_run: c.has("--dry-run"),
            };
            let a = ops::add::add(s, &req, today)?;
            Ok(out(Status::Created, &a))
        }
        [
            "vault",
            verb @ ("set-frontmatter" | "set-body" | "edit"),
            reference,
        ] => {
            let req = ops::edit::EditRequest {
                reference: reference.to_string(),
                body: c.one("--body-file").map(|f| v.input(&f)),
                frontmatter: ops::edit::FrontmatterEdit {
                    date: c.one("--date"),
                    tags: c.has("--tags").then(|| c.many("--tags")),
                    related: c.has("--related").then(|| c.many("--related")),
                },
                expected_blob_hash: c.one("--expected-blob-hash"),
                no_check: c.has("--no-check"),
                dry_run: c.has("--dry-run"),
            };
            let _ = verb;
            let e = ops::edit::edit(s, &req, today)?;
            Ok(out(e.status, &e))
        }
        ["vault", "link", "add", src, dst] => {
            let r = ops::link::add(s, src, dst, c.has("--force"), c.has("--dry-run"), today)?;
            Ok(out(r.status, &r))
        }
        ["vault", "link", "remove", src, dst] => {
            let r = ops::link::remove(s, src, dst, c.has("--dry-run"), today)?;
            Ok(out(r.status, &r))
        }
        ["vault", "rename", reference] => {
            let to = c.one("--to").unwrap_or_default();
            let r = ops::rename::rename(
                s,
                reference,
                &to,
                c.one("--expected-blob-hash").as_deref(),
                c.has("--dry-run"),
                today,
            )?;
            Ok(out(r.status, &r))
        }
        ["vault", "feature", "rename", old, new] => {
            let r = ops::feature::rename_feature(
                s,
                old,
                new,
                c.has("--force"),
                c.has("--dry-run"),
                today,
            )?;
            Ok(out(r.status, &r))
        }
        ["vault", "feature", "index"] => {
            let r = ops::feature::index_features(s, c.one("--feature").as_deref(), today)?;
            Ok(out(r.status, &r))
        }
        ["vault", "feature", "archive", tag] => {
            let r = ops::archive::archive_feature(s, tag, c.has("--dry-run"))?;
            let mut v = serde_json::to_value(&r).expect("serialisable");
            v["cross_links"] = v["cross_link_paths"].take();
            Ok((word(r.status).into(), v))
        }
        ["vault", "feature", "unarchive", tag] => {
            let r = ops::archive::unarchive_feature(s, tag, c.has("--dry-run"))?;
            let mut v = serde_json::to_value(&r).expect("serialisable");
            v["unarchived_count"] = v["restored_count"].take();
            Ok((word(r.status).into(), v))
        }
        ["vault", "archive", "documents"] => {
            let refs: Vec<String> = v
                .input(&c.one("--manifest").unwrap_or_default())
                .lines()
                .map(str::to_string)
                .collect();
            let r = ops::archive::archive_documents(s, &refs, c.has("--dry-run"))?;
            Ok(out(r.status, &r))
        }
        ["vault", "archive", "restore"] => {
            let paths: Vec<String> = v
                .input(&c.one("--manifest").unwrap_or_default())
                .lines()
                .map(str::to_string)
                .collect();
            let r = ops::archive::restore_documents(
                s,
                &paths,
                c.has("--deduplicate-identical"),
                c.has("--dry-run"),
            )?;
            Ok(out(r.status, &r))
        }
        ["vault", "adr", "supersede", old] => {
            let r = adr::supersede(s, old, &c.one("--by").unwrap_or_default(), today)?;
            Ok(out(r.status, &r))
        }
        other => panic!("{}: no model operation for {other:?}", v.name),
    }
}

/// Replays a vector in memory; returns every mismatch (empty = pass).
fn replay(name: &str) -> Vec<String> {
    let v = Vector::load(name);
    let s = v.before_storage();
    let mut problems = run_all(&v, &s);
    let files = v.expected_vault().len();
    problems.extend(v.vault_differences(&s));
    eprintln!(
        "{name}: {} commands, {files} expected files, {} problems",
        v.commands.len(),
        problems.len()
    );
    problems
}

/// Replays a vector on a real folder through [`CapStorage`].
fn replay_on_disk(name: &str) -> Vec<String> {
    let v = Vector::load(name);
    let dir = v.before_dir();
    let s = CapStorage::open(dir.path()).expect("open workspace");
    let mut problems = run_all(&v, &s);
    problems.extend(v.dir_differences(dir.path()));
    problems
}

/// Runs every command of `v`, comparing exit codes and JSON values.
fn run_all(v: &Vector, s: &dyn Storage) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, line) in v.commands.iter().enumerate() {
        let expected_exit = v.exits.get(i).map(String::as_str).unwrap_or("0");
        let expected = v.stdout.get(i).cloned().unwrap_or(Value::Null);
        match run(v, s, line) {
            Ok((status, data)) => {
                if expected_exit != "0" {
                    problems.push(format!(
                        "command {i}: succeeded ({status}), expected exit {expected_exit}"
                    ));
                    continue;
                }
                if let Some(es) = expected.get("status").and_then(Value::as_str)
                    && es != status
                {
                    problems.push(format!("command {i}: status `{status}`, expected `{es}`"));
                }
                if let Some(ed) = expected.get("data") {
                    problems.extend(json_mismatches(&data, ed, &format!("command {i}")));
                }
            }
            Err(e) => {
                if expected_exit != "1" {
                    problems.push(format!(
                        "command {i}: failed with `{e}`, expected exit {expected_exit}"
                    ));
                }
                if let (
                    Error::Conflict {
                        expected: ex,
                        actual,
                        ..
                    },
                    Some(ed),
                ) = (&e, expected.get("data"))
                {
                    problems.extend(json_mismatches(
                        &json!({"expected": ex, "actual": actual, "conflict": true}),
                        ed,
                        "conflict",
                    ));
                }
                if let (Error::Refused { findings, .. }, Some(ed)) = (&e, expected.get("data")) {
                    let checks: Vec<Value> = findings
                        .iter()
                        .map(|f| json!({"severity": "error", "check": f.check}))
                        .collect();
                    problems.extend(json_mismatches(
                        &json!({"refused": true, "checks": checks}),
                        ed,
                        "refused",
                    ));
                    let n = ed
                        .get("checks")
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len);
                    if n != findings.len() {
                        problems.push(format!(
                            "refused with {} findings, expected {n}",
                            findings.len()
                        ));
                    }
                }
            }
        }
    }
    problems
}

/// Every vector this layer covers.
const VECTORS: &[&str] = &[
    "01-add-research-topic",
    "02-add-research-title-no-topic",
    "03-add-reference-bare",
    "04-add-reference-topic-related",
    "05-add-audit-two-related",
    "05b-add-audit-topic",
    "06-add-adr-related",
    "07-add-adr-topic-no-title",
    "08-add-plan-each-tier",
    "09-add-plan-related",
    "10-add-with-existing-index",
    "11-add-lenient-date-and-tags",
    "12-add-refusals",
    "20-set-frontmatter-date",
    "21-set-frontmatter-tags",
    "22-set-frontmatter-related",
    "23-set-frontmatter-related-on-plan",
    "24-link-add",
    "25-link-remove",
    "26-set-body",
    "27-set-body-missing-section",
    "27b-set-body-refused-wiki-link",
    "28-edit-body-and-frontmatter",
    "29-edit-blob-conflict",
    "30-rename",
    "31-feature-rename",
    "32-feature-index-one",
    "33-feature-index-all-and-rerun",
    "34-feature-index-refresh",
    "35-adr-supersede",
    "36-adr-supersede-needs-accepted",
    "37-feature-archive",
    "38-feature-unarchive",
    "39-archive-documents-and-restore",
];

#[test]
fn document_vectors_reproduce_the_reference_byte_for_byte() {
    let mut failed = Vec::new();
    for name in VECTORS {
        let problems = replay(name);
        if !problems.is_empty() {
            failed.push(format!("== {name}\n{}", problems.join("\n")));
        }
    }
    assert!(
        failed.is_empty(),
        "{} vectors differ:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn moving_vectors_reproduce_on_a_real_folder() {
    let mut failed = Vec::new();
    for name in [
        "30-rename",
        "31-feature-rename",
        "37-feature-archive",
        "38-feature-unarchive",
        "39-archive-documents-and-restore",
        "35-adr-supersede",
    ] {
        let problems = replay_on_disk(name);
        if !problems.is_empty() {
            failed.push(format!("== {name}\n{}", problems.join("\n")));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
