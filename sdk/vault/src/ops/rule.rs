//! `vault rule promote`: the files a promotion writes, as the reference
//! writes them — a rule template that names the audit it came from
//! (`derived_from`), and the audit with the rule added to its `promoted_to`.

use crate::date::Date;
use crate::doc::Document;
use crate::frontmatter::render::{Rerender, rerender};
use crate::hash;

/// The rule file a promotion scaffolds: a `derived_from` link to the audit
/// and the three sections a team fills in. (The reference's template,
/// byte for byte: a rule promoted by either tool is the same file.)
pub fn rule_scaffold(audit_stem: &str) -> String {
    format!(
        "---\nderived_from:\n  - \"audit:{audit_stem}\"\n---\n\n# Rule\n\n\
         <!-- Describe the positive or negative obligation in one sentence. -->\n\n\
         ## Why\n\n<!-- Explain the constraint's origin in 2-3 sentences. -->\n\n\
         ## How\n\n<!-- Provide concrete examples of the rule applied and the rule violated. -->\n"
    )
}

/// The audit text after promoting it to rule `name`: `rule:<name>` added
/// to `promoted_to` (once), the frontmatter rebuilt in canonical key order
/// as the reference's promote does, line ends kept, and `modified:` /
/// `body_hash:` re-stamped. `None` when the audit has no frontmatter.
pub fn promoted_audit(path: &str, text: &str, name: &str, today: Date) -> Option<String> {
    let crlf = text.contains("\r\n");
    let lf = text.replace("\r\n", "\n");
    let mut meta = Document::from_text(path, lf.clone()).meta().to_owned();
    let link = format!("rule:{name}");
    if !meta.promoted_to.contains(&link) {
        meta.promoted_to.push(link);
    }
    let rendered = rerender(&lf, &meta, Rerender::Supersede)?;
    let rendered = if crlf {
        rendered.replace('\n', "\r\n")
    } else {
        rendered
    };
    Some(hash::refresh_modified_stamp(&rendered, today))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audit_gains_the_rule_once_and_is_restamped() {
        let today = Date::new(2026, 12, 1).unwrap();
        let audit = "---\ntags:\n  - '#audit'\n  - '#f'\ndate: '2026-03-04'\nmodified: '2026-03-04'\nbody_schema: 'body-v2'\nbody_hash: 'sha256:00'\nrelated: []\n---\n\n# a\n";
        let once = promoted_audit(".vault/audit/a.md", audit, "atomic-writes", today).unwrap();
        assert!(
            once.contains("promoted_to:\n  - 'rule:atomic-writes'\n"),
            "{once}"
        );
        assert!(once.contains("modified: '2026-12-01'"), "{once}");
        let twice = promoted_audit(".vault/audit/a.md", &once, "atomic-writes", today).unwrap();
        assert_eq!(once, twice);
        assert!(rule_scaffold("a").starts_with("---\nderived_from:\n  - \"audit:a\"\n---\n"));
    }
}
