//! Plan frontmatter: reading the YAML block into tier, tags, related, date and
//! the ordered extra keys, and writing it back in the plan writer's order
//! (spec/plan-format.md §1, §4; golden vector 23).
//!
//! Only the YAML the vault uses is understood: top-level `key: value` lines,
//! block and inline lists of scalars, single- and double-quoted scalars. A
//! value of any other shape (nested maps, block scalars) is kept as its raw
//! lines and re-emitted verbatim.

use std::fmt;

use super::error::PlanError;
use super::yaml::{self, Value};

/// The plan tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Steps only.
    L1,
    /// Phase > Step.
    L2,
    /// Wave > Phase > Step.
    L3,
    /// Epic intent + Wave > Phase > Step.
    L4,
}

impl Tier {
    /// Every tier, lowest first.
    pub const ALL: [Tier; 4] = [Tier::L1, Tier::L2, Tier::L3, Tier::L4];

    /// Parses `L1`..`L4`.
    pub fn parse(s: &str) -> Option<Tier> {
        match s {
            "L1" => Some(Tier::L1),
            "L2" => Some(Tier::L2),
            "L3" => Some(Tier::L3),
            "L4" => Some(Tier::L4),
            _ => None,
        }
    }

    /// The tier's level number (1..=4).
    pub fn level(self) -> u8 {
        self as u8 + 1
    }

    /// The tier one above, if any.
    pub fn up(self) -> Option<Tier> {
        Tier::ALL.get(self.level() as usize).copied()
    }

    /// The tier one below, if any.
    pub fn down(self) -> Option<Tier> {
        (self.level() >= 2).then(|| Tier::ALL[self.level() as usize - 2])
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.level())
    }
}

impl serde::Serialize for Tier {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The parsed frontmatter of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFrontmatter {
    /// The declared tier (L2 when absent).
    pub tier: Tier,
    /// Whether `tier:` was absent and defaulted to L2 (PLAN001).
    pub legacy_tier_default: bool,
    /// The tags, in order.
    pub tags: Vec<String>,
    /// The related links, in order.
    pub related: Vec<String>,
    /// The date as written (YAML dates normalised to `yyyy-mm-dd`).
    pub date: String,
    /// Every other key with its value, in source order.
    pub extra: Vec<(String, Value)>,
}

impl PlanFrontmatter {
    /// Reads the YAML text between the fences.
    pub fn parse(yaml_text: &str) -> Result<PlanFrontmatter, PlanError> {
        let map = yaml::parse_mapping(yaml_text);
        let mut fm = PlanFrontmatter {
            tier: Tier::L2,
            legacy_tier_default: true,
            tags: Vec::new(),
            related: Vec::new(),
            date: String::new(),
            extra: Vec::new(),
        };
        for (key, value) in map {
            match key.as_str() {
                "tier" => match &value {
                    Value::Str(s) => {
                        fm.tier = Tier::parse(s)
                            .ok_or_else(|| PlanError::InvalidTier { value: s.clone() })?;
                        fm.legacy_tier_default = false;
                    }
                    other => {
                        return Err(PlanError::InvalidTier {
                            value: other.render_inline(),
                        });
                    }
                },
                "tags" => fm.tags = string_list(&key, &value)?,
                "related" => fm.related = string_list(&key, &value)?,
                "date" => {
                    fm.date = match &value {
                        Value::Str(s) | Value::Plain(s) if !s.contains('\n') => s.clone(),
                        Value::Null => String::new(),
                        other => {
                            return Err(PlanError::Frontmatter {
                                key: key.clone(),
                                reason: format!(
                                    "`{}` is not a one-line date such as `2026-03-10`",
                                    other.render_inline()
                                ),
                            });
                        }
                    }
                }
                _ => fm.extra.push((key, value)),
            }
        }
        Ok(fm)
    }

    /// The feature of the plan: the first tag that is neither `#plan` nor a
    /// directory tag, without its `#`.
    pub fn feature(&self) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| crate::doc::DocType::from_exact_tag(t).is_none())
            .map(|t| crate::doc::tag_name(t))
    }

    /// The value of an extra key.
    pub fn extra_value(&self, key: &str) -> Option<&Value> {
        self.extra.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Writes the frontmatter block (fences included, no trailing newline) in
    /// the plan writer's order: tags, date, tier, related, then every other
    /// key YAML-dumped in source order. Empty lists and an empty date are
    /// omitted.
    pub fn render(&self) -> String {
        let mut lines = vec!["---".to_string()];
        if !self.tags.is_empty() {
            lines.push("tags:".into());
            lines.extend(self.tags.iter().map(|t| format!("  - '{}'", quote(t))));
        }
        if !self.date.is_empty() {
            lines.push(format!("date: '{}'", quote(&self.date)));
        }
        lines.push(format!("tier: {}", self.tier));
        if !self.related.is_empty() {
            lines.push("related:".into());
            lines.extend(self.related.iter().map(|r| format!("  - '{}'", quote(r))));
        }
        for (key, value) in &self.extra {
            lines.push(yaml::dump_entry(key, value));
        }
        lines.push("---".into());
        lines.join("\n")
    }
}

/// A value inside single quotes: `'` doubled (the reference writes it raw,
/// which no YAML reader accepts; real tags, dates and links never hold one).
fn quote(s: &str) -> String {
    s.replace('\'', "''")
}

fn string_list(key: &str, value: &Value) -> Result<Vec<String>, PlanError> {
    match value {
        Value::List(items) => items
            .iter()
            .map(|v| match v {
                Value::Str(s) | Value::Plain(s) => Ok(s.clone()),
                other => Err(PlanError::Frontmatter {
                    key: key.to_string(),
                    reason: format!("item `{}` is not a string", other.render_inline()),
                }),
            })
            .collect(),
        Value::Null => Ok(Vec::new()),
        Value::Str(s) if s.is_empty() => Ok(Vec::new()),
        other => Err(PlanError::Frontmatter {
            key: key.to_string(),
            reason: format!("`{}` is not a list of strings", other.render_inline()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_frontmatter_is_rewritten_in_writer_order() {
        let yaml = "tags:\n  - '#plan'\n  - '#x'\ndate: '2026-03-13'\nmodified: '2026-03-13'\nbody_schema: 'body-v2'\nbody_hash: 'sha256:ab'\ntier: L4\nrelated: []\n";
        let fm = PlanFrontmatter::parse(yaml).unwrap();
        assert_eq!(fm.tier, Tier::L4);
        assert_eq!(fm.feature(), Some("x"));
        assert_eq!(
            fm.render(),
            "---\ntags:\n  - '#plan'\n  - '#x'\ndate: '2026-03-13'\ntier: L4\nmodified: '2026-03-13'\nbody_schema: body-v2\nbody_hash: sha256:ab\n---"
        );
    }

    #[test]
    fn an_unknown_tier_is_refused() {
        assert!(PlanFrontmatter::parse("tier: L5\n").is_err());
        assert!(PlanFrontmatter::parse("tier: 2\n").is_err());
        // A date spilling over several lines is refused, not re-quoted forever
        // (found by fuzzing).
        assert!(PlanFrontmatter::parse("date: '2026-03-10 x\n- [ ] y'\ntier: L1\n").is_err());
        let fm = PlanFrontmatter::parse("tags:\n  - \"#it's\"\n").unwrap();
        assert!(fm.render().contains("  - '#it''s'"));
        let fm = PlanFrontmatter::parse("date: 2026-01-01\n").unwrap();
        assert!(fm.legacy_tier_default);
        assert_eq!(fm.tier, Tier::L2);
    }
}
