//! The generated vault: a workspace as the reference's `install` leaves it
//! (bundled `*.builtin.md` rules, templates) plus documents in the shapes
//! real vaults collect over months: current and older frontmatter, legacy
//! `## Status` sections, comments in bodies, hand-edited ledgers, per-Step
//! exec records (one tagged `#uncategorized`), audits with findings, plans
//! of every tier, some with an em dash in their prose.

use std::path::Path;

use crate::rng::Rng;

/// Feature names a vault draws from.
const FEATURES: [&str; 5] = [
    "cache-layer",
    "entry-store",
    "auth-flow",
    "sync-queue",
    "audit-trail",
];

/// Writes `text` at `root/relative`, making folders.
fn put(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The frontmatter block for a document, in one of the shapes seen in the
/// wild: current (quoted stamps, `body_hash`), older (no stamps, unquoted
/// date, double-quoted tags), or hand-written (a stale hash).
fn frontmatter(
    rng: &mut Rng,
    kind: &str,
    feature: &str,
    date: &str,
    extra: &[String],
    related: &[String],
    body: &str,
) -> String {
    let hash = vaultspec_vault::hash::digest_of_body(body);
    let mut out = String::from("---\ntags:\n");
    let shape = rng.below(10);
    if shape < 6 {
        out += &format!("  - '#{kind}'\n  - '#{feature}'\ndate: '{date}'\n");
        for line in extra {
            out += line;
        }
        out += "modified: '2026-03-20'\nbody_schema: 'body-v2'\n";
        if shape < 5 {
            out += &format!("body_hash: '{hash}'\n");
        } else {
            out += "body_hash: 'sha256:0000000000000000000000000000000000000000000000000000000000000000'\n";
        }
    } else if shape < 8 {
        out += &format!("  - \"#{kind}\"\n  - \"#{feature}\"\ndate: {date}\n");
        for line in extra {
            out += line;
        }
    } else {
        out += &format!("  - '#{kind}'\n  - '#{feature}'\ndate: '{date}'\n");
        for line in extra {
            out += line;
        }
        out += "modified: '2026-03-18'\n";
    }
    if related.is_empty() {
        if rng.chance(50) {
            out += "related: []\n";
        }
    } else {
        out += "related:\n";
        for stem in related {
            if rng.chance(70) {
                out += &format!("  - \"[[{stem}]]\"\n");
            } else {
                out += &format!("  - '[[{stem}]]'\n");
            }
        }
    }
    out += "---\n";
    out
}

/// A short paragraph, sometimes with a reviewer's comment or an em dash.
fn prose(rng: &mut Rng, topic: &str) -> String {
    let mut text = format!("Notes on {topic}, kept short.");
    if rng.chance(25) {
        text += " It holds up \u{2014} mostly.";
    }
    if rng.chance(25) {
        text += "\n\n<!-- reviewed by the storage team -->";
    }
    text
}

/// One plan body of `tier`, with Steps, some closed; returns the body.
fn plan_body(rng: &mut Rng, feature: &str, tier: u8) -> String {
    let mut body = format!("\n# `{feature}` plan\n\n## Description\n\n");
    if rng.chance(30) {
        body += "Approved 2026-03-05\n\n";
    }
    body += &prose(rng, feature);
    body += "\n\n## Steps\n\n";
    let mut step = 0;
    let row = |rng: &mut Rng, path: &str, step: &mut u32| {
        *step += 1;
        let mark = if rng.chance(40) { "x" } else { " " };
        let sep = if rng.chance(10) { "\u{2014}" } else { "-" };
        format!(
            "- [{mark}] `{path}S{:02}` {sep} write part {}; `src/part{}.rs`.\n",
            *step, *step, *step
        )
    };
    match tier {
        1 => {
            for _ in 0..2 + rng.below(3) {
                body += &row(rng, "", &mut step);
            }
            body += "\n";
        }
        2 => {
            for phase in 1..=1 + rng.below(3) {
                body +=
                    &format!("### Phase `P{phase:02}` - part {phase}\n\nBuild part {phase}.\n\n");
                for _ in 0..1 + rng.below(3) {
                    body += &row(rng, &format!("P{phase:02}."), &mut step);
                }
                body += "\n";
            }
        }
        _ => {
            if tier == 4 {
                body += "## Epic intent\n\nShip the store; tracked on the board as STORE-1.\n\n";
            }
            let mut phase = 0;
            for wave in 1..=1 + rng.below(2) {
                body += &format!(
                    "## Wave `W{wave:02}` - stage {wave}\n\nStage {wave} of the rollout.\n\n"
                );
                for _ in 0..1 + rng.below(2) {
                    phase += 1;
                    body += &format!(
                        "### Phase `W{wave:02}.P{phase:02}` - part {phase}\n\nBuild part {phase}.\n\n"
                    );
                    for _ in 0..1 + rng.below(2) {
                        body += &row(rng, &format!("W{wave:02}.P{phase:02}."), &mut step);
                    }
                    body += "\n";
                }
            }
        }
    }
    body += "## Parallelization\n\nOne at a time.\n\n## Verification\n\nThe tests pass.\n";
    body
}

/// Fill `root` (already holding the install fixture) with documents.
pub fn generate(rng: &mut Rng, root: &Path) {
    for folder in vaultspec_vault::DocType::NAMES {
        std::fs::create_dir_all(root.join(".vault").join(folder)).unwrap();
    }
    let count = 2 + rng.below(2);
    let mut features: Vec<&str> = FEATURES.to_vec();
    for i in 0..count {
        let pick = i + rng.below(features.len() - i);
        features.swap(i, pick);
    }
    for (n, &feature) in features[..count].iter().enumerate() {
        let day = 2 + n * 5;
        let date = |offset: usize| format!("2026-03-{:02}", day + offset);
        // research
        let research = format!("{}-{feature}-options-research", date(0));
        let body = format!(
            "\n# `{feature}` research: options\n\n## Findings\n\n{}\n",
            prose(rng, "the options")
        );
        let fm = frontmatter(rng, "research", feature, &date(0), &[], &[], &body);
        put(
            root,
            &format!(".vault/research/{research}.md"),
            &(fm + &body),
        );
        // adr, sometimes with the legacy status section
        let adr = format!("{}-{feature}-storage-adr", date(1));
        let status = *rng.pick(&["accepted", "proposed", "accepted"]);
        let mut body = format!(
            "\n# `{feature}` adr: `storage` | (**status:** `{status}`)\n\n## Problem Statement\n\n{}\n\n",
            prose(rng, "storage")
        );
        if rng.chance(40) {
            body += "## Status\n\nAccepted 2026-03-04.\n\n";
        }
        body += "## Considerations\n\nMemory is tight.\n\n## Implementation\n\nCap the size.\n\n## Rationale\n\nSimple.\n\n## Consequences\n\nFew.\n";
        let fm = frontmatter(
            rng,
            "adr",
            feature,
            &date(1),
            &[],
            std::slice::from_ref(&research),
            &body,
        );
        put(root, &format!(".vault/adr/{adr}.md"), &(fm + &body));
        // plan
        let tier = 1 + rng.below(4) as u8;
        let plan = format!("{}-{feature}-plan", date(2));
        let body = plan_body(rng, feature, tier);
        let tier_line = if rng.chance(85) {
            vec![format!("tier: L{tier}\n")]
        } else {
            Vec::new()
        };
        let related = if rng.chance(70) {
            vec![adr.clone()]
        } else {
            Vec::new()
        };
        let fm = frontmatter(rng, "plan", feature, &date(2), &tier_line, &related, &body);
        put(root, &format!(".vault/plan/{plan}.md"), &(fm + &body));
        // ledger, sometimes hand-edited
        let folder = format!(".vault/exec/{}-{feature}", date(2));
        if rng.chance(70) {
            let mut body =
                format!("\n# `{feature}` ledger\n\n## Changes\n\n- `S01` `A` `src/part1.rs`\n");
            if rng.chance(50) {
                body += "- `S02` `M` `src/part2.rs`\n- `S02` `verify:` `cargo test` -> `pass`\n";
            }
            if rng.chance(40) {
                body += "\n<!-- fixed by hand after the rebase -->\n- `S01` `M` `src/part1.rs`\n";
            }
            if rng.chance(30) {
                body += "\n## Notes\n\n- `S01` one stub left\n";
            }
            let fm = frontmatter(
                rng,
                "exec",
                feature,
                &date(2),
                &[],
                std::slice::from_ref(&plan),
                &body,
            );
            put(
                root,
                &format!("{folder}/{}-{feature}-ledger.md", date(2)),
                &(fm + &body),
            );
        }
        // per-Step exec records from before the ledger
        if rng.chance(60) {
            let step = format!("S{:02}", 1 + rng.below(2));
            let body =
                format!("\n# `{feature}` exec: `{step}`\n\n## Changes\n\n- `M` `src/part1.rs`\n");
            let extra = if rng.chance(70) {
                vec![format!("step_id: '{step}'\n")]
            } else {
                Vec::new()
            };
            let tag = if rng.chance(30) {
                "uncategorized"
            } else {
                feature
            };
            let fm = frontmatter(
                rng,
                "exec",
                tag,
                &date(3),
                &extra,
                std::slice::from_ref(&plan),
                &body,
            );
            put(
                root,
                &format!(
                    "{folder}/{}-{feature}-{}-exec.md",
                    date(3),
                    step.to_lowercase()
                ),
                &(fm + &body),
            );
        }
        // an audit with a finding
        let body = format!(
            "\n# `{feature}` audit: `first pass`\n\n## Scope\n\nThe store.\n\n## Findings\n\n- Writes are not atomic.\n\n## Recommendations\n\n{}\n",
            prose(rng, "atomic writes")
        );
        let fm = frontmatter(
            rng,
            "audit",
            feature,
            &date(3),
            &[],
            std::slice::from_ref(&research),
            &body,
        );
        put(
            root,
            &format!(".vault/audit/{}-{feature}-first-pass-audit.md", date(3)),
            &(fm + &body),
        );
        // a reference, sometimes with a CRLF body
        let mut body = format!(
            "\n# `{feature}` reference: `api`\n\n## Summary\n\n{}\n",
            prose(rng, "the api")
        );
        if rng.chance(20) {
            body = body.replace('\n', "\r\n");
        }
        let fm = frontmatter(rng, "reference", feature, &date(0), &[], &[], &body);
        put(
            root,
            &format!(".vault/reference/{}-{feature}-api-reference.md", date(0)),
            &(fm + &body),
        );
    }
}
