//! A deterministic vault generator for tests and benchmarks.
//!
//! [`generate`] writes `docs` documents over `features` features into any
//! [`Storage`]: research, ADRs, references, audits, L1 plans with a few steps
//! and their exec ledgers, plus one generated index per feature, all in the
//! canonical scaffold form of spec/vault-format.md §5.4 (index form of §9).
//! Documents link to earlier documents of their feature through `related:`,
//! a few through body wiki-links, and a few links dangle. The same seed gives
//! the same bytes.
//!
//! ```
//! use vaultspec_vault::{MemStorage, testgen::{GenSpec, generate}};
//! let storage = MemStorage::new();
//! let report = generate(&storage, &GenSpec { docs: 200, features: 5, seed: 7 }).unwrap();
//! assert_eq!(report.docs, 200);
//! ```

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::storage::{Storage, StorageError};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenSpec {
    /// Corpus documents in all, the feature indexes included.
    pub docs: usize,
    /// Distinct features (at least 1).
    pub features: usize,
    /// Seed of the pseudo-random choices.
    pub seed: u64,
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenReport {
    /// Documents written.
    pub docs: usize,
    /// Bytes written.
    pub bytes: u64,
    /// Feature names, in order.
    pub features: Vec<String>,
    /// `related:` and body links that point at nothing.
    pub dangling: usize,
}

/// xorshift64*: tiny, fast and good enough to pick words and links.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a seed (0 is replaced by a fixed odd constant).
    pub fn new(seed: u64) -> XorShift {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

const SYLLABLES: [&str; 24] = [
    "ka", "lo", "mi", "ren", "tas", "vo", "zel", "pra", "gun", "dor", "fi", "bel", "cor", "nix",
    "sul", "tra", "quo", "wen", "yar", "hol", "jin", "mar", "ost", "pel",
];

fn vocabulary(rng: &mut XorShift) -> Vec<String> {
    (0..600)
        .map(|_| {
            (0..2 + rng.below(2))
                .map(|_| SYLLABLES[rng.below(SYLLABLES.len())])
                .collect()
        })
        .collect()
}

/// The civil date `days` after 2024-01-01, as `yyyy-mm-dd`.
fn date(days: usize) -> String {
    const FROM_EPOCH: i64 = 19_723;
    crate::date::Date::from_days(days as i64 + FROM_EPOCH)
        .expect("a generated date is in range")
        .to_string()
}

struct Doc {
    stem: String,
    doc_type: &'static str,
    title: String,
    date: String,
}

fn body_hash(body: &str) -> String {
    format!(
        "sha256:{}",
        hex::encode(Sha256::digest(body.trim().as_bytes()))
    )
}

fn frontmatter(
    doc_type: &str,
    feature: &str,
    date: &str,
    body: &str,
    related: &[String],
    tier: bool,
) -> String {
    let mut fm = format!(
        "---\ntags:\n  - '#{doc_type}'\n  - '#{feature}'\ndate: '{date}'\nmodified: '{date}'\nbody_schema: 'body-v2'\nbody_hash: '{}'\n",
        body_hash(body)
    );
    if tier {
        fm.push_str("tier: L1\n");
    }
    if related.is_empty() {
        fm.push_str("related: []\n");
    } else {
        fm.push_str("related:\n");
        for r in related {
            let _ = writeln!(fm, "  - \"[[{r}]]\"");
        }
    }
    fm.push_str("---\n\n");
    fm
}

struct Gen<'v> {
    rng: XorShift,
    words: &'v [String],
}

impl Gen<'_> {
    fn sentence(&mut self, n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&self.words[self.rng.below(self.words.len())]);
        }
        s.push('.');
        s
    }

    fn paragraph(&mut self) -> String {
        let n = 6 + self.rng.below(10);
        let mut p = self.sentence(n);
        p.push_str(&format!(
            " See `src/{}.rs`. ",
            self.words[self.rng.below(40)]
        ));
        let n = 5 + self.rng.below(8);
        p.push_str(&self.sentence(n));
        p
    }

    fn sections(&mut self, title: &str, names: &[&str], extra: &str) -> String {
        let mut body = format!("# {title}\n");
        for name in names {
            let _ = write!(body, "\n## {name}\n\n{}\n", self.paragraph());
            if self.rng.below(3) == 0 {
                let _ = write!(body, "\n{}\n", self.paragraph());
            }
        }
        body.push_str(extra);
        body
    }
}

/// Write a generated vault into `storage`.
pub fn generate(storage: &dyn Storage, spec: &GenSpec) -> Result<GenReport, StorageError> {
    let nf = spec.features.max(1);
    let mut rng = XorShift::new(spec.seed);
    let words = vocabulary(&mut rng);
    let features: Vec<String> = (0..nf)
        .map(|i| format!("{}-{i:02}", words[i % words.len()]))
        .collect();
    let mut g = Gen { rng, words: &words };
    let mut report = GenReport {
        features: features.clone(),
        ..GenReport::default()
    };
    let mut members: Vec<Vec<Doc>> = (0..nf).map(|_| Vec::new()).collect();
    let content = spec.docs.saturating_sub(nf.min(spec.docs));
    const CYCLE: [&str; 10] = [
        "research",
        "adr",
        "reference",
        "plan",
        "exec",
        "adr",
        "research",
        "audit",
        "adr",
        "reference",
    ];
    let mut i = 0;
    while i < content {
        let f = i % nf;
        let feature = &features[f];
        let day = i / nf;
        let date_s = date(day);
        let mut doc_type = CYCLE[(i / nf) % CYCLE.len()];
        if doc_type == "exec" && members[f].last().is_none_or(|d| d.doc_type != "plan") {
            doc_type = "research";
        }
        let earlier = &members[f];
        let mut related = Vec::new();
        for _ in 0..g.rng.below(3).min(earlier.len()) {
            let stem = &earlier[earlier.len() - 1 - g.rng.below(earlier.len().min(20))].stem;
            if !related.contains(stem) {
                related.push(stem.clone());
            }
        }
        if g.rng.below(100) == 0 {
            related.push(format!("{date_s}-{feature}-missing-research"));
            report.dangling += 1;
        }
        let topic = words[g.rng.below(words.len())].clone();
        let (path, stem, title, body) = match doc_type {
            "plan" => {
                let stem = format!("{date_s}-{feature}-plan");
                let title = format!("`{feature}` plan");
                let mut steps = String::from("\n## Steps\n\n");
                for s in 1..=3 + g.rng.below(4) {
                    let mark = if g.rng.below(2) == 0 { 'x' } else { ' ' };
                    let _ = writeln!(
                        steps,
                        "- [{mark}] `S{s:02}` - {}; `src/{topic}_{s}.rs`.",
                        g.sentence(4).trim_end_matches('.')
                    );
                }
                let body = g.sections(&title, &["Description"], &steps);
                let body = body
                    + &format!(
                        "\n## Parallelization\n\n{}\n\n## Verification\n\n{}\n",
                        g.sentence(8),
                        g.sentence(6)
                    );
                (format!(".vault/plan/{stem}.md"), stem, title, body)
            }
            "exec" => {
                let plan = members[f].last().expect("a plan precedes its ledger");
                let plan_date = plan.date.clone();
                let stem = format!("{plan_date}-{feature}-ledger");
                related = vec![plan.stem.clone()];
                let title = format!("`{feature}` ledger");
                let mut rows = String::from("\n## Changes\n\n");
                for s in 1..=2 + g.rng.below(3) {
                    let _ = writeln!(rows, "- `S{s:02}` `M` `src/{topic}_{s}.rs`");
                    let _ = writeln!(rows, "- `S{s:02}` `verify:` `cargo test` -> `pass`");
                }
                let body = format!("# {title}\n{rows}");
                (
                    format!(".vault/exec/{plan_date}-{feature}/{stem}.md"),
                    stem,
                    title,
                    body,
                )
            }
            t => {
                let stem = format!("{date_s}-{feature}-{topic}-{i}-{t}");
                let (title, names): (String, &[&str]) = match t {
                    "adr" => (
                        format!(
                            "`{feature}` adr: `{}` | (**status:** `accepted`)",
                            g.sentence(3).trim_end_matches('.')
                        ),
                        &[
                            "Problem Statement",
                            "Considerations",
                            "Considered options",
                            "Constraints",
                            "Implementation",
                            "Rationale",
                            "Consequences",
                        ],
                    ),
                    "audit" => (
                        format!("`{feature}` audit: `{topic}`"),
                        &["Scope", "Findings", "Recommendations"],
                    ),
                    "reference" => (format!("`{feature}` reference: `{topic}`"), &["Summary"]),
                    _ => (
                        format!("`{feature}` research: `{topic}`"),
                        &["Findings", "Sources"],
                    ),
                };
                let mut extra = String::new();
                if g.rng.below(10) == 0 && !members[f].is_empty() {
                    let target = &members[f][g.rng.below(members[f].len())].stem;
                    let _ = write!(extra, "\nAlso see [[{target}]].\n");
                }
                if g.rng.below(200) == 0 {
                    extra.push_str("\nAn old link to [[2020-01-01-gone-research]].\n");
                    report.dangling += 1;
                }
                let body = g.sections(&title, names, &extra);
                (format!(".vault/{t}/{stem}.md"), stem, title, body)
            }
        };
        let text = frontmatter(
            doc_type,
            feature,
            &date_s,
            &body,
            &related,
            doc_type == "plan",
        ) + &body;
        storage.write(&path, text.as_bytes())?;
        report.bytes += text.len() as u64;
        report.docs += 1;
        members[f].push(Doc {
            stem,
            doc_type,
            title,
            date: date_s,
        });
        i += 1;
    }
    for (f, feature) in features.iter().enumerate().take(spec.docs.min(nf)) {
        let text = index_text(feature, &members[f]);
        storage.write(&format!(".vault/index/{feature}.index.md"), text.as_bytes())?;
        report.bytes += text.len() as u64;
        report.docs += 1;
    }
    Ok(report)
}

/// The generated index of a feature, as spec/vault-format.md §9 renders it.
fn index_text(feature: &str, members: &[Doc]) -> String {
    let mut types: Vec<&str> = members.iter().map(|d| d.doc_type).collect();
    types.sort_unstable();
    types.dedup();
    let mut body = format!(
        "# `{feature}` feature index\n\nAuto-generated index of all documents tagged with `#{feature}`.\n\n## Documents\n"
    );
    for t in types {
        let _ = write!(body, "\n### {t}\n\n");
        let mut of_type: Vec<&Doc> = members.iter().filter(|d| d.doc_type == t).collect();
        of_type.sort_by(|a, b| (&a.date, &a.stem).cmp(&(&b.date, &b.stem)));
        for d in of_type {
            let _ = writeln!(body, "- `{}` - {}", d.stem, d.title);
        }
    }
    let body = format!("{}\n", body.trim_end());
    let date = members
        .iter()
        .map(|d| d.date.as_str())
        .min()
        .unwrap_or("2024-01-01");
    let mut related: Vec<String> = members.iter().map(|d| format!("[[{}]]", d.stem)).collect();
    related.sort();
    let mut fm = format!(
        "---\ngenerated: true\ntags:\n  - '#index'\n  - '#{feature}'\ndate: '{date}'\nmodified: '{date}'\nbody_schema: 'body-v2'\nbody_hash: '{}'\nrelated:\n",
        body_hash(&body)
    );
    for r in related {
        let _ = writeln!(fm, "  - '{r}'");
    }
    fm.push_str("---\n\n");
    fm + &body
}

/// The seed [`long_plan`] grows from: an L2 plan with one phase and step.
const SEED_PLAN: &str = "---\ntags:\n  - '#plan'\n  - '#long-work'\ndate: '2026-03-11'\ntier: L2\n\
modified: '2026-03-20'\nbody_schema: body-v2\n---\n\n# `long-work` plan\n\n## Description\n\nA long plan.\n\n\
## Steps\n\n### Phase `P01` - phase 1\n\nMore work.\n\n- [ ] `P01.S01` - do part 0; `src/part_0.rs`.\n\n\
## Parallelization\n\nNone.\n\n## Verification\n\nThe tests pass.\n";

/// The text of an L2 plan of feature `long-work` with `steps` open steps
/// over 20 phases, grown with the operations of `vault plan phase add` and
/// `step add` (so it is written exactly as our tools write plans).
pub fn long_plan(steps: usize) -> String {
    use crate::plan::{PlanOp, parse_plan, serialise_plan};
    let mut plan = parse_plan(SEED_PLAN).expect("the seed plan parses");
    for p in 2..=20 {
        let op = PlanOp::PhaseAdd {
            title: format!("phase {p}"),
            intent: "More work.".into(),
            wave: None,
        };
        plan.apply(&op).expect("a phase can be added");
    }
    for i in 1..steps {
        let phase = format!("P{:02}", i * 20 / steps.max(1) + 1);
        let op = PlanOp::StepAdd {
            action: format!("do part {i}"),
            scope: format!("src/part_{i}.rs"),
            phase: Some(phase),
        };
        plan.apply(&op).expect("a step can be added");
    }
    serialise_plan(&plan, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemStorage;
    use crate::graph::load_graph;

    #[test]
    fn dates_count_from_2024() {
        assert_eq!(date(0), "2024-01-01");
        assert_eq!(date(59), "2024-02-29");
        assert_eq!(date(366), "2025-01-01");
    }

    #[test]
    fn the_same_seed_writes_the_same_vault() {
        let spec = GenSpec {
            docs: 120,
            features: 4,
            seed: 42,
        };
        let (a, b) = (MemStorage::new(), MemStorage::new());
        generate(&a, &spec).unwrap();
        generate(&b, &spec).unwrap();
        assert_eq!(a.snapshot(), b.snapshot());
        let c = MemStorage::new();
        generate(&c, &GenSpec { seed: 43, ..spec }).unwrap();
        assert_ne!(a.snapshot(), c.snapshot());
    }

    #[test]
    fn a_generated_vault_has_every_type_links_and_one_index_per_feature() {
        let s = MemStorage::new();
        let report = generate(
            &s,
            &GenSpec {
                docs: 400,
                features: 5,
                seed: 1,
            },
        )
        .unwrap();
        let g = load_graph(&s).unwrap();
        assert_eq!(g.docs().len(), 400);
        assert_eq!(report.docs, 400);
        let stats = g.stats(crate::graph::DocSelect::All, None, None);
        let types: Vec<&str> = stats
            .counts_by_type
            .iter()
            .map(|(t, _)| t.as_str())
            .collect();
        assert_eq!(
            types,
            [
                "adr",
                "audit",
                "exec",
                "index",
                "plan",
                "reference",
                "research"
            ]
        );
        assert_eq!(stats.total_features, 5);
        assert_eq!(stats.dangling_link_count, report.dangling);
        let rows = g.feature_list(&Default::default());
        assert_eq!(rows.iter().map(|r| r.doc_count).sum::<usize>(), 400);
        assert!(
            rows.iter()
                .all(|r| r.has_plan && r.types.contains(&"index".to_owned()))
        );
        // Every ledger links to its plan, and every index to all its members.
        assert!(g.edges().len() > 400);
        let ledger = g.docs().iter().find(|d| d.type_name() == "exec").unwrap();
        assert!(ledger.meta().related().get(0).unwrap().ends_with("-plan]]"));
    }

    #[test]
    fn a_long_plan_has_every_step_and_passes_plan_check() {
        let text = long_plan(1000);
        let plan = crate::plan::parse_plan(&text).unwrap();
        assert_eq!(plan.steps.len(), 1000);
        assert_eq!(plan.phases.len(), 20);
        assert!(
            !crate::plan::has_errors(&crate::plan::check_plan(&text)),
            "{:?}",
            crate::plan::check_plan(&text)
        );
    }
}
