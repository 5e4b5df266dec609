//! Body schemas (spec/vault-format.md §7): the `## ` sections each document
//! type must carry under each registered schema id.

use crate::doc::DocType;

/// The current schema id, which every scaffold declares.
pub const CURRENT: &str = "body-v2";

const ADR: &[&str] = &[
    "Problem Statement",
    "Considerations",
    "Considered options",
    "Constraints",
    "Implementation",
    "Rationale",
    "Consequences",
];
const AUDIT: &[&str] = &["Scope", "Findings", "Recommendations"];
const PLAN: &[&str] = &["Description", "Steps", "Parallelization", "Verification"];
const RESEARCH: &[&str] = &["Findings", "Sources"];
const REFERENCE: &[&str] = &["Summary"];
const INDEX: &[&str] = &["Documents"];

/// The sections `doc_type` requires under the current schema (`body-v2`).
pub fn required_sections(doc_type: DocType) -> &'static [&'static str] {
    sections("body-v2", doc_type, false).unwrap_or(&[])
}

/// The sections a schema id requires of a type; `summary` selects the exec
/// phase-summary shape (a stem ending `-summary`). `None` for an unknown id.
pub fn sections(schema: &str, doc_type: DocType, summary: bool) -> Option<&'static [&'static str]> {
    use DocType::*;
    Some(match (schema, doc_type) {
        ("body-v2" | "body-v1", Adr) => ADR,
        ("body-v2" | "body-v1", Audit) => AUDIT,
        ("body-v2" | "body-v1" | "legacy-plan-v1", Plan) => PLAN,
        ("body-v2" | "body-v1", Research) => RESEARCH,
        ("body-v2" | "body-v1", Reference) => REFERENCE,
        ("body-v2" | "body-v1" | "legacy-index-v1", Index) => INDEX,
        ("body-v2", Exec) => &["Changes"],
        ("body-v1", Exec) if summary => &["Description"],
        ("body-v1", Exec) => &["Description", "Outcome", "Notes"],
        ("legacy-adr-v1", Adr) => &[
            "Problem Statement",
            "Considerations",
            "Constraints",
            "Implementation",
            "Rationale",
            "Consequences",
        ],
        ("legacy-adr-v2", Adr) => &[
            "Problem Statement",
            "Considerations",
            "Considered options",
            "Constraints",
            "Implementation",
            "Rationale",
            "Consequences",
            "Codification candidates",
        ],
        ("legacy-adr-v3", Adr) => ADR,
        ("legacy-audit-v1", Audit) => AUDIT,
        ("legacy-audit-v2", Audit) => &[
            "Scope",
            "Findings",
            "Recommendations",
            "Codification candidates",
        ],
        ("legacy-exec-v1", Exec) => &["Description", "Tests"],
        ("legacy-exec-v2", Exec) => &["Description", "Notes"],
        ("legacy-exec-v3", Exec) => &["Description", "Outcome", "Notes"],
        ("legacy-exec-v4", Exec) => &["Description"],
        ("legacy-plan-v2", Plan) => &[
            "Proposed Changes",
            "Steps",
            "Parallelization",
            "Verification",
        ],
        ("legacy-plan-v3", Plan) => &[
            "Proposed Changes",
            "Tasks",
            "Parallelization",
            "Verification",
        ],
        ("legacy-reference-v1", Reference) => REFERENCE,
        ("legacy-research-v1", Research) => &["Findings"],
        ("legacy-research-v2", Research) => RESEARCH,
        _ => return None,
    })
}

/// Whether `schema` is a registered id (current or legacy).
pub fn is_registered(schema: &str) -> bool {
    DocType::ALL
        .iter()
        .any(|t| sections(schema, *t, false).is_some())
}

/// The `## ` headings present in a body, outside fenced code, in order.
pub fn headings(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in body.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if !fenced && let Some(h) = line.strip_prefix("## ") {
            out.push(h.trim());
        }
    }
    out
}

/// The required sections of `doc_type` (current schema) missing from `body`.
pub fn missing_sections(body: &str, doc_type: DocType) -> Vec<&'static str> {
    let present = headings(body);
    required_sections(doc_type)
        .iter()
        .copied()
        .filter(|s| !present.contains(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_sections_are_named() {
        let body = "# t\n\n## Findings\n\n```\n## Sources\n```\n";
        assert_eq!(missing_sections(body, DocType::Research), ["Sources"]);
        assert!(is_registered("legacy-exec-v4"));
        assert!(!is_registered("body-v9"));
    }
}
