//! The random operations: each one a command line both tools run, drawn
//! from what the vault holds now, with the odd bad argument a user types.

use crate::rng::Rng;
use crate::state::State;

/// One operation: its command line (after `--target WS`), whether its JSON
/// is a read to compare field by field, and an input file to lay down in
/// both workspaces first (workspace-relative path, bytes).
pub struct Op {
    pub args: Vec<String>,
    pub read: bool,
    pub input: Option<(String, String)>,
}

fn op(args: &[&str]) -> Op {
    Op {
        args: args.iter().map(|s| s.to_string()).collect(),
        read: false,
        input: None,
    }
}

fn read(args: &[&str]) -> Op {
    Op {
        read: true,
        ..op(args)
    }
}

/// The name of the body/manifest file laid in the workspace root.
pub const INPUT: &str = "diff-input.txt";

/// Draw the next operation, reading documents under `root`. An absolute
/// input path is written `{WS}/...`: each tool's run puts its own
/// workspace there.
pub fn next(rng: &mut Rng, state: &State, root: &str) -> Op {
    let abs = format!("{{WS}}/{INPUT}");
    let docs: Vec<&crate::state::Doc> = state.docs.iter().filter(|d| d.kind != "index").collect();
    if docs.is_empty() || state.plans.is_empty() {
        return read(&["vault", "list", "--json"]);
    }
    let doc = *rng.pick(&docs);
    let plan = rng.pick(&state.plans);
    let step = if plan.steps.is_empty() {
        "S01".to_owned()
    } else {
        rng.pick(&plan.steps).clone()
    };
    let other_step = if plan.steps.is_empty() {
        "S02".to_owned()
    } else {
        rng.pick(&plan.steps).clone()
    };
    let feature = if state.features.is_empty() {
        "cache-layer".to_owned()
    } else {
        rng.pick(&state.features).clone()
    };
    let p = plan.stem.as_str();
    let date = *rng.pick(&[
        "2026-03-21",
        "2026-04-02",
        "2026/11/30",
        "2026-3-9",
        "2026-13-01",
    ]);
    match rng.below(34) {
        0 => op(&["vault", "plan", "step", "check", p, &step, "--json"]),
        1 => op(&["vault", "plan", "step", "uncheck", p, &step, "--json"]),
        2 => op(&["vault", "plan", "step", "toggle", p, &step, "--json"]),
        3 => {
            let mut args = vec![
                "vault",
                "plan",
                "step",
                "add",
                p,
                "--action",
                "wire the cache",
                "--scope",
                "`src/cache.rs`",
                "--json",
            ];
            let phase;
            if plan.tier >= 2 && !plan.phases.is_empty() {
                phase = rng.pick(&plan.phases).clone();
                args.extend(["--phase", phase.as_str()]);
            }
            op(&args)
        }
        4 => {
            let place = if rng.chance(50) {
                "--before"
            } else {
                "--after"
            };
            op(&[
                "vault",
                "plan",
                "step",
                "move",
                p,
                &step,
                place,
                &other_step,
                "--json",
            ])
        }
        5 => op(&["vault", "plan", "step", "remove", p, &step, "--json"]),
        6 => op(&[
            "vault",
            "plan",
            "step",
            "edit",
            p,
            &step,
            "--action",
            "tidy the store",
            "--json",
        ]),
        7 => {
            let mut args = vec![
                "vault",
                "plan",
                "phase",
                "add",
                p,
                "--title",
                "extra part",
                "--intent",
                "Build the extra part.",
                "--json",
            ];
            let wave;
            if plan.tier >= 3 && !plan.waves.is_empty() {
                wave = rng.pick(&plan.waves).clone();
                args.extend(["--wave", wave.as_str()]);
            }
            op(&args)
        }
        8 => op(&[
            "vault",
            "plan",
            "wave",
            "add",
            p,
            "--title",
            "late stage",
            "--intent",
            "The late stage.",
            "--json",
        ]),
        9 => match plan.waves.first() {
            Some(wave) => op(&["vault", "plan", "wave", "remove", p, wave, "--json"]),
            None => op(&["vault", "plan", "step", "check", p, &step, "--json"]),
        },
        10 => {
            let target = *rng.pick(&["L2", "L3", "L4"]);
            op(&[
                "vault",
                "plan",
                "tier",
                "promote",
                p,
                "--target",
                target,
                "--phase-title",
                "all of it",
                "--phase-intent",
                "Everything so far.",
                "--wave-title",
                "first stage",
                "--wave-intent",
                "The first stage.",
                "--epic-intent",
                "Ship it; tracked on the board as STORE-2.",
                "--json",
            ])
        }
        11 => op(&["vault", "plan", "check", p, "--fix", "--json"]),
        12 => op(&[
            "vault",
            "set-frontmatter",
            &doc.stem,
            "--date",
            date,
            "--json",
        ]),
        13 => {
            let target = *rng.pick(&docs);
            op(&[
                "vault",
                "set-frontmatter",
                &doc.stem,
                "-r",
                &target.stem,
                "--json",
            ])
        }
        14 => {
            let text = std::fs::read_to_string(format!("{root}/{}", doc.path)).unwrap_or_default();
            let body = text
                .splitn(3, "---\n")
                .nth(2)
                .unwrap_or("\n# Body\n")
                .to_owned();
            let body = if rng.chance(30) {
                body.replace('\n', "\r\n")
            } else {
                body
            };
            let file = if rng.chance(50) {
                abs.clone()
            } else {
                INPUT.to_owned()
            };
            Op {
                input: Some((INPUT.to_owned(), body)),
                ..op(&[
                    "vault",
                    "set-body",
                    &doc.stem,
                    "--body-file",
                    &file,
                    "--json",
                ])
            }
        }
        15 => {
            let target = *rng.pick(&docs);
            op(&[
                "vault",
                "edit",
                &doc.stem,
                "--date",
                date,
                "-r",
                &target.stem,
                "--json",
            ])
        }
        16 => {
            let target = *rng.pick(&docs);
            if rng.chance(50) {
                op(&["vault", "link", "add", &doc.stem, &target.stem, "--json"])
            } else {
                op(&["vault", "link", "remove", &doc.stem, &target.stem, "--json"])
            }
        }
        17 => {
            let to = if rng.chance(40) {
                doc.stem.clone()
            } else {
                doc.stem
                    .replacen("-", "-x", 1)
                    .replacen("2026-x", "2026-", 1)
            };
            let to = if to == doc.stem || rng.chance(50) {
                to
            } else {
                format!(
                    "{}-renamed",
                    doc.stem.trim_end_matches(&format!("-{}", doc.kind))
                ) + &format!("-{}", doc.kind)
            };
            op(&["vault", "rename", &doc.stem, "--to", &to, "--json"])
        }
        18 => {
            let to = if state.features.is_empty() {
                "entry-store".to_owned()
            } else {
                rng.pick(&state.features).clone()
            };
            let mut args = vec![
                "vault",
                "feature",
                "rename",
                feature.as_str(),
                to.as_str(),
                "--json",
            ];
            if rng.chance(40) {
                args.push("--force");
            }
            if rng.chance(40) {
                args.push("--dry-run");
            }
            op(&args)
        }
        19 => op(&[
            "vault",
            "feature",
            "rename",
            &feature,
            "fresh-name",
            "--json",
        ]),
        20 => match state.of("audit").first() {
            Some(audit) => op(&[
                "vault",
                "rule",
                "promote",
                "--from",
                &audit.stem,
                "--as",
                "atomic-writes",
                "--json",
            ]),
            None => read(&["vault", "list", "--json"]),
        },
        21 => {
            let mut args = vec![
                "vault",
                "exec",
                "log",
                "--feature",
                plan.feature.as_str(),
                "--related",
                p,
                "--step",
                step.as_str(),
                "--json",
            ];
            if rng.chance(60) {
                args.extend(["--row", "M:src/lib.rs"]);
                if rng.chance(20) {
                    args.extend(["--row", "M:src/lib.rs"]);
                }
            }
            if rng.chance(30) {
                args.extend(["--verify", "cargo test=pass"]);
            }
            op(&args)
        }
        22 => {
            let records: Vec<_> = state
                .docs
                .iter()
                .filter(|d| d.kind == "exec" && !d.stem.ends_with("-ledger"))
                .collect();
            match records.first() {
                Some(record) => op(&[
                    "vault",
                    "exec",
                    "relink",
                    "--record",
                    &record.path,
                    "--step",
                    &step,
                    "--json",
                ]),
                None => op(&[
                    "vault",
                    "exec",
                    "fold",
                    "--feature",
                    &feature,
                    "--force",
                    "--json",
                ]),
            }
        }
        23 => op(&[
            "vault",
            "exec",
            "fold",
            "--feature",
            &feature,
            "--force",
            "--json",
        ]),
        24 => op(&["vault", "check", "all", "--fix", "--json"]),
        25 => op(&["vault", "repair", "--json"]),
        26 => {
            let check = *rng.pick(&[
                "rename-integrity",
                "orphans",
                "features",
                "frontmatter",
                "modified-stamp",
                "markdown",
                "structure",
            ]);
            op(&["vault", "check", check, "--fix", "--json"])
        }
        27 => {
            let file = if rng.chance(50) {
                abs.clone()
            } else {
                INPUT.to_owned()
            };
            Op {
                input: Some((INPUT.to_owned(), format!("{}\n", doc.path))),
                ..op(&[
                    "vault",
                    "archive",
                    "documents",
                    "--manifest",
                    &file,
                    "--json",
                ])
            }
        }
        28 => read(&["vault", "list", "--json"]),
        29 => read(&["vault", "plan", "status", p, "--json"]),
        30 => read(&["vault", "plan", "query", p, "--open", "--json"]),
        31 => read(&["vault", "link", "list", "--json"]),
        32 => read(&["vault", "feature", "list", "--json"]),
        _ => read(&["vault", "plan", "tier", "show", p, "--json"]),
    }
}
