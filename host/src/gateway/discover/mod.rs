//! `discover`: rank the catalog's verbs by intent and return their schemas
//! (`spec/gateway.md` §2).
//!
//! The score is the reference's token overlap (a query word that is a verb
//! word scores 3, part of one 2; a description word 1, part of one 0.5; the
//! whole query inside the verb path 2 more), plus typo tolerance: a query
//! word that matches nothing but is close to a verb word (Jaro–Winkler ≥
//! 0.88) scores 1.5, or to a description word (≥ 0.92) 0.5; two query words
//! side by side in the description score 2 more; and the share
//! of the verb's path words the query names is added, so the verb the query
//! covers most fully wins. Ties go to the verb path in byte order, so
//! results are deterministic.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::catalog::{Catalog, Entry, Scalar, Trust, VerbSpec, VerbWords, tokens};

/// Flags `discover` never lists: the gateway sets `--json` and `--target`
/// itself, and `--help` is for people at a terminal.
pub const RESERVED: [&str; 3] = ["target", "json", "help"];

/// Flags no tool call may pass: they run host commands or import files.
pub const BLOCKED: [&str; 4] = ["editor", "from-file", "body-file", "template"];

/// How well `spec` matches `query` (0: not at all).
pub fn score(query: &str, spec: &VerbSpec) -> f64 {
    score_tokens(query, &tokens(query), spec.words())
}

/// [`score`] with the query's words already taken apart.
fn score_tokens(query: &str, query_tokens: &[String], words: &VerbWords) -> f64 {
    if query_tokens.is_empty() {
        return 0.0;
    }
    let VerbWords {
        path,
        path_words,
        description_words,
        description_sequence,
    } = words;
    let mut score = 0.0;
    for t in query_tokens {
        let in_verb = if path_words.contains(t) {
            3.0
        } else if path_words.iter().any(|v| v.contains(t.as_str())) {
            2.0
        } else {
            0.0
        };
        let in_description = if description_words.contains(t) {
            1.0
        } else if description_words.iter().any(|d| d.contains(t.as_str())) {
            0.5
        } else {
            0.0
        };
        score += in_verb + in_description;
        if in_verb == 0.0 && in_description == 0.0 && t.len() >= 4 {
            let close = |words: &BTreeSet<String>, at: f64| {
                words
                    .iter()
                    .any(|w| w.len() >= 3 && strsim::jaro_winkler(t, w) >= at)
            };
            if close(path_words, 0.88) {
                score += 1.5;
            } else if close(description_words, 0.92) {
                score += 0.5;
            }
        }
    }
    let whole = query.trim().to_lowercase();
    if !whole.is_empty() && path.contains(&whole) {
        score += 2.0;
    }
    // Words of the query that appear side by side in the description, as in
    // "link nowhere", say more about intent than the same words apart.
    for pair in query_tokens.windows(2) {
        if description_sequence.windows(2).any(|d| d == pair) {
            score += 2.0;
        }
    }
    // Of two verbs matching the same words, the one the query covers more
    // fully ranks first (`vault list` before `vault link list` for "list").
    let covered = path_words
        .iter()
        .filter(|w| query_tokens.contains(w))
        .count();
    score + covered as f64 / path_words.len().max(1) as f64
}

/// The best `limit` verbs for `query`, best first.
pub fn rank<'c>(catalog: &'c Catalog, query: &str, limit: usize) -> Vec<(f64, &'c Entry)> {
    let query_tokens = tokens(query);
    let mut scored: Vec<(f64, &Entry)> = catalog
        .entries()
        .filter(|e| !crate::catalog::is_denied(&e.spec.path_string()))
        .map(|e| (score_tokens(query, &query_tokens, e.spec.words()), e))
        .filter(|(s, _)| *s > 0.0)
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| a.1.spec.path_string().cmp(&b.1.spec.path_string()))
    });
    scored.truncate(limit);
    scored
}

fn value_type(scalar: &Scalar) -> &'static str {
    match scalar {
        Scalar::String | Scalar::Choice(_) => "string",
        Scalar::Unsigned(_) | Scalar::Signed(_) => "integer",
        Scalar::Float(_) => "number",
    }
}

/// A verb's schema as `discover` shows it: typed flags (reserved and blocked
/// ones left out) and operands.
pub fn schema(spec: &VerbSpec, score: f64, trust: Trust) -> Value {
    let flags: Vec<Value> = spec
        .flags
        .iter()
        .filter(|f| !RESERVED.contains(&f.name.as_str()) && !BLOCKED.contains(&f.name.as_str()))
        .map(|f| {
            let mut flag = json!({
                "name": format!("--{}", f.name),
                "takes_value": f.takes_value(),
                "repeatable": f.repeatable(),
                "required": f.required(),
                "help": f.help,
            });
            if let Some(scalar) = f.scalar() {
                flag["type"] = json!(value_type(scalar));
            }
            if !f.choices().is_empty() {
                flag["choices"] = json!(f.choices());
            }
            flag
        })
        .collect();
    let arguments: Vec<Value> = spec
        .operands
        .iter()
        .map(|o| {
            let mut argument = json!({
                "name": o.name,
                "required": o.required,
                "variadic": o.variadic,
                "help": o.help,
            });
            if !o.choices.is_empty() {
                argument["choices"] = json!(o.choices);
            }
            argument
        })
        .collect();
    let mut verb = json!({
        "verb": spec.path_string(),
        "description": spec.summary(),
        "group": spec.group_summary(),
        "score": score,
        "supports_json": spec.supports_json,
        "flags": flags,
        "arguments": arguments,
    });
    if trust == Trust::Untrusted {
        verb["trusted"] = json!(false);
    }
    verb
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::parse;

    fn spec(source_interface: &str, func: &str, doc: &str) -> VerbSpec {
        let source = format!(
            "package t:t@0.1.0;\ninterface {source_interface} {{\n  /// {doc}\n  {func}: func() -> u8;\n}}\nworld w {{ export {source_interface}; }}\n"
        );
        parse(&source).unwrap().remove(0)
    }

    #[test]
    fn scores_follow_the_reference_weights() {
        let check = spec("vault-plan-step", "check", "Mark the step closed.");
        // plan 3 + step 3 + check 3 (verb words), whole query in the path +2;
        // `step` also in the description +1; three of four path words covered +0.75.
        assert_eq!(score("plan step check", &check), 12.75);
        let orphans = spec(
            "vault-check",
            "orphans",
            "Find documents that link nowhere.",
        );
        // link nowhere: description words +1 +1, side by side +2, no path word covered.
        assert_eq!(score("link nowhere", &orphans), 4.0);
        assert_eq!(score("", &check), 0.0);
        assert_eq!(score("zzzz", &check), 0.0);
    }

    #[test]
    fn a_misspelt_verb_word_still_scores() {
        let rename = spec(
            "vault-feature",
            "%rename",
            "Rename a feature tag everywhere.",
        );
        assert!(score("renmae", &rename) > 0.0);
        assert!(score("featrue", &rename) > 0.0);
    }
}
