//! Commit trailers that tie a commit to a plan Step (spec/plan-format.md §10):
//! `Vaultspec-Step:` and `Vaultspec-Feature:`, advisory and never blocking.

use serde::Serialize;

use crate::pattern::Pattern;

static LINE: Pattern = Pattern::new(r"^([A-Za-z][A-Za-z0-9-]*):[ \t]*(.*?)[ \t]*$");
static STEP: Pattern =
    Pattern::new(r"^(?:(?:W\d{2,}\.)?(?:P\d{2,}[a-z]?\.)?S\d{2,}|(?:W\d{2,}\.)?P\d{2,}[a-z]?)$");
static FEATURE: Pattern = Pattern::new(r"^#?[a-z0-9][a-z0-9-]*$");

/// One recognised trailer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trailer {
    /// `Vaultspec-Step` or `Vaultspec-Feature` (canonical spelling).
    pub key: &'static str,
    /// The value (`#` stripped from a feature).
    pub value: String,
    /// 1-based line in the message.
    pub line_number: usize,
}

/// A trailer whose value does not fit its grammar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrailerProblem {
    /// The canonical key.
    pub key: &'static str,
    /// The value found.
    pub value: String,
    /// 1-based line in the message.
    pub line_number: usize,
    /// What would be accepted.
    pub reason: String,
}

fn scan(message: &str) -> Vec<(&'static str, String, usize)> {
    message
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let c = LINE.captures(line)?;
            let key = match c[1].to_ascii_lowercase().as_str() {
                "vaultspec-step" => "Vaultspec-Step",
                "vaultspec-feature" => "Vaultspec-Feature",
                _ => return None,
            };
            Some((key, c[2].to_string(), i + 1))
        })
        .collect()
}

/// The valid trailers of a commit message, in order.
pub fn parse_trailers(message: &str) -> Vec<Trailer> {
    scan(message)
        .into_iter()
        .filter_map(|(key, value, line_number)| {
            let ok = if key == "Vaultspec-Step" {
                STEP.is_match(&value)
            } else {
                FEATURE.is_match(&value)
            };
            ok.then(|| Trailer {
                key,
                value: crate::doc::tag_name(&value).to_string(),
                line_number,
            })
        })
        .collect()
}

/// The trailers whose values do not fit their grammar.
pub fn validate_trailers(message: &str) -> Vec<TrailerProblem> {
    scan(message)
        .into_iter()
        .filter_map(|(key, value, line_number)| {
            let (ok, reason) = if key == "Vaultspec-Step" {
                (
                    STEP.is_match(&value),
                    "use a step path such as `S06`, `P02.S06`, `W01.P02.S06` or a phase `P02`",
                )
            } else {
                (
                    FEATURE.is_match(&value),
                    "use a feature handle such as `cache-layer` (lowercase, digits, `-`)",
                )
            };
            (!ok).then(|| TrailerProblem {
                key,
                value,
                line_number,
                reason: reason.to_string(),
            })
        })
        .collect()
}

/// The trailer lines for `vault plan trailer emit`, one per value given;
/// a value outside its grammar is refused with what would be accepted.
pub fn emit_trailers(
    step: Option<&str>,
    feature: Option<&str>,
) -> Result<String, super::error::PlanError> {
    let mut lines = Vec::new();
    if let Some(s) = step {
        let s = s.trim();
        if !STEP.is_match(s) {
            return Err(super::error::PlanError::Usage(format!(
                "step `{s}` is not a trailer value; use `S06`, `P02.S06`, `W01.P02.S06` or a phase `P02`"
            )));
        }
        lines.push(format!("Vaultspec-Step: {s}"));
    }
    if let Some(f) = feature {
        let f = f.trim();
        if !FEATURE.is_match(f) {
            return Err(super::error::PlanError::Usage(format!(
                "feature `{f}` is not a trailer value; use lowercase letters, digits and `-`"
            )));
        }
        lines.push(format!("Vaultspec-Feature: {}", crate::doc::tag_name(f)));
    }
    Ok(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailers_are_found_case_insensitively() {
        let msg = "fix\n\nvaultspec-step: W01.P02.S06\nVaultspec-Feature: #cache-layer\nVaultspec-Step: S1\n";
        let t = parse_trailers(msg);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].value, "cache-layer");
        let p = validate_trailers(msg);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].line_number, 5);
        assert_eq!(
            emit_trailers(Some("P01.S02"), Some("#x")).unwrap(),
            "Vaultspec-Step: P01.S02\nVaultspec-Feature: x"
        );
        assert!(emit_trailers(Some("S1"), None).is_err());
    }
}
