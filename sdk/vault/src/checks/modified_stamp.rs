//! The `modified-stamp` checker: one finding per document, first match wins
//! (missing stamp, unparseable stamp, stale body fingerprint, non-canonical
//! text, stamp older than `date:`), each fixed through
//! `refresh_modified_stamp` so `body_hash` is re-attested in the same write.
//! Under `--fix` a document that needed nothing and has no canonical
//! `body_hash` gets one seeded.

use crate::date::Date;
use crate::doc::Document;
use crate::error::Result;
use crate::hash;

use super::context::{Options, Snapshot, rewrite};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "modified-stamp";

/// What is wrong with one document's stamp, and the value a fix writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No `modified:`; the fix value comes from `date:` or the filename.
    Missing(Option<Date>),
    /// `modified:` is not a date (manual repair).
    Unparseable(String),
    /// The body changed since `body_hash` was recorded.
    Stale(String),
    /// A date, written in another form than `yyyy-mm-dd`.
    NotCanonical(String, Date),
    /// Older than the document's own `date:`.
    BeforeDate(String, Date),
    /// Nothing to fix.
    Fine,
}

fn filename_date(stem: &str) -> Option<Date> {
    stem.get(..10).and_then(|p| Date::parse_strict(p).ok())
}

/// Judges one document (`text` is its current content).
pub fn judge(doc: &Document, text: &str) -> Verdict {
    let date = doc.meta().date().and_then(|d| Date::parse_lenient(d).ok());
    let Some(m) = doc.meta().modified().map(str::to_owned) else {
        return Verdict::Missing(date.or_else(|| filename_date(doc.stem())));
    };
    let Ok(parsed) = Date::parse_lenient(&m) else {
        return Verdict::Unparseable(m);
    };
    if doc
        .meta()
        .body_hash()
        .is_some_and(|h| hash::is_canonical_body_hash(h) && h != hash::body_hash(text))
    {
        return Verdict::Stale(m);
    }
    if m != parsed.to_string() {
        return Verdict::NotCanonical(m, parsed);
    }
    match date {
        Some(d) if parsed < d => Verdict::BeforeDate(m, d),
        _ => Verdict::Fine,
    }
}

/// The stamp value the fix of `verdict` writes.
pub fn fix_value(verdict: &Verdict, today: Date) -> Option<Date> {
    match verdict {
        Verdict::Missing(v) => *v,
        Verdict::Stale(_) => Some(today),
        Verdict::NotCanonical(_, d) | Verdict::BeforeDate(_, d) => Some(*d),
        Verdict::Unparseable(_) | Verdict::Fine => None,
    }
}

fn report(
    doc: &Document,
    verdict: &Verdict,
    fixable: bool,
    value: Option<Date>,
) -> Option<Finding> {
    let (severity, message, fix) = match verdict {
        Verdict::Fine => return None,
        Verdict::Missing(_) => (
            Severity::Warning,
            "Missing modified stamp.".to_string(),
            value.map(|v| format!("add modified: '{v}'")),
        ),
        Verdict::Unparseable(m) => (
            Severity::Error,
            format!("Modified stamp '{m}' is not a date: expected `yyyy-mm-dd`"),
            None,
        ),
        Verdict::Stale(m) => (
            Severity::Warning,
            format!(
                "Modified stamp '{m}' is stale: the body changed after its fingerprint was recorded"
            ),
            value.map(|v| format!("refresh to '{v}'")),
        ),
        Verdict::NotCanonical(m, d) => (
            Severity::Warning,
            format!("Modified stamp '{m}' is not written `yyyy-mm-dd`"),
            Some(format!("rewrite as '{d}'")),
        ),
        Verdict::BeforeDate(m, d) => (
            Severity::Warning,
            format!(
                "Modified stamp '{m}' predates its own date '{d}'; a stamp cannot be older than the document it stamps."
            ),
            Some(format!("raise to '{d}'")),
        ),
    };
    let f =
        Finding::new(NAME, severity, Some(&doc.path), message).at_line(doc.key_line("modified"));
    Some(if fixable { f.fixable(fix) } else { f })
}

fn fixed_message(verdict: &Verdict, v: Date, old: Option<&str>) -> String {
    match verdict {
        Verdict::Missing(_) => format!("Added modified stamp '{v}'."),
        Verdict::Stale(m) => format!(
            "Refreshed stale modified stamp '{m}' -> '{v}' and re-attested the body fingerprint."
        ),
        Verdict::NotCanonical(m, _) => format!("Rewrote modified stamp '{m}' as '{v}'."),
        Verdict::BeforeDate(m, _) => {
            format!("Modified stamp '{m}' predated date '{v}'; raised to '{v}'.")
        }
        _ => format!("Set modified stamp '{}' -> '{v}'.", old.unwrap_or("")),
    }
}

/// Runs the checker (and its fixer under `opts.fix`).
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::ModifiedStamp);
    for doc in snap.scoped(opts) {
        let verdict = judge(doc, &doc.text);
        let value = fix_value(&verdict, opts.today);
        if !opts.fix {
            let fixable =
                value.is_some_and(|v| *hash::refresh_modified_stamp(&doc.text, v) != *doc.text);
            result
                .findings
                .extend(report(doc, &verdict, fixable, value));
            continue;
        }
        // Written as the reference writes: the whole file takes CRLF when it
        // has any (`rewrite`), so a mixed file comes out uniform.
        if let Some(v) = value
            && rewrite(snap.storage, &doc.path, |plain| {
                Some(hash::refresh_modified_stamp(plain, v))
            })?
        {
            result.fixed_count += 1;
            result.findings.push(Finding::fixed(
                NAME,
                &doc.path,
                fixed_message(&verdict, v, doc.meta().modified()),
            ));
            continue;
        }
        result.findings.extend(report(doc, &verdict, false, value));
        if !doc
            .meta()
            .body_hash()
            .is_some_and(hash::is_canonical_body_hash)
            && rewrite(snap.storage, &doc.path, |plain| {
                Some(hash::set_body_hash(plain, &hash::body_hash(plain)))
            })?
        {
            result.fixed_count += 1;
            result.findings.push(Finding::fixed(
                NAME,
                &doc.path,
                "Seeded body fingerprint; the modified stamp is left as it stands and staleness is tracked from here.",
            ));
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(fm: &str) -> Document {
        Document::from_text(
            ".vault/adr/2026-03-14-x-adr.md",
            format!("---\n{fm}---\n\nbody\n"),
        )
    }

    #[test]
    fn the_first_matching_row_wins() {
        let d = Date::new(2026, 3, 14).unwrap();
        assert_eq!(
            judge(&doc("date: '2026-03-14'\n"), ""),
            Verdict::Missing(Some(d))
        );
        assert_eq!(
            judge(&doc("modified: nope\n"), ""),
            Verdict::Unparseable("nope".into())
        );
        let stale = doc(
            "date: '2026-03-14'\nmodified: '2026/3/1'\nbody_hash: 'sha256:0000000000000000000000000000000000000000000000000000000000000000'\n",
        );
        assert_eq!(
            judge(&stale, &stale.text),
            Verdict::Stale("2026/3/1".into())
        );
        let nc = doc("date: '2026-03-14'\nmodified: '2026/3/15'\n");
        assert_eq!(
            judge(&nc, &nc.text),
            Verdict::NotCanonical("2026/3/15".into(), Date::new(2026, 3, 15).unwrap())
        );
        let old = doc("date: '2026-03-14'\nmodified: '2026-03-13'\n");
        assert_eq!(
            judge(&old, &old.text),
            Verdict::BeforeDate("2026-03-13".into(), d)
        );
        let fine = doc("date: '2026-03-14'\nmodified: '2026-03-14'\n");
        assert_eq!(judge(&fine, &fine.text), Verdict::Fine);
    }
}
