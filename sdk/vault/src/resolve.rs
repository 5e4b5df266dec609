//! Document addressing (spec/vault-format.md §10): a reference given as a
//! stem, a filename, a path or a `[[wiki-link]]` resolves to one document of
//! the corpus; one that does not is reported with the nearest stems.

use crate::doc::{Corpus, Document, stem_of};
use crate::error::{Error, Result, Unresolved};

/// The stem a reference names, before lookup: the wiki-link target, or the
/// input without `.md` (its last path component when it is a path).
fn candidates(input: &str) -> Vec<String> {
    let t = input.trim();
    if let Some(target) = crate::doc::wiki_target(t) {
        return vec![target.to_string()];
    }
    let t = t.strip_suffix(".md").unwrap_or(t);
    let mut out = vec![t.to_string()];
    if t.contains(['/', '\\']) {
        let last = t.rsplit(['/', '\\']).next().unwrap_or(t);
        out.push(stem_of(last).to_string());
    }
    out
}

/// Resolves one reference to its document.
pub fn resolve<'c>(corpus: &'c Corpus, input: &str) -> Result<&'c Document> {
    resolve_one(corpus, input).ok_or_else(|| Error::Unresolved(vec![unresolved(corpus, input)]))
}

fn resolve_one<'c>(corpus: &'c Corpus, input: &str) -> Option<&'c Document> {
    candidates(input)
        .iter()
        .find_map(|c| corpus.by_stem(c).into_iter().next())
}

/// The stem one reference resolves to: a readable document's, or that of a
/// corpus file that could not be read (it is still a document, so a link to
/// it is not dangling).
pub fn resolve_stem(corpus: &Corpus, input: &str) -> Option<String> {
    if let Some(d) = resolve_one(corpus, input) {
        return Some(d.stem().to_owned());
    }
    candidates(input)
        .iter()
        .find_map(|c| corpus.skipped_stem(c))
        .map(str::to_string)
}

/// Resolves every reference to `[[stem]]` items, deduplicated in input order;
/// all failures are reported together.
pub fn resolve_links(corpus: &Corpus, inputs: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut failed = Vec::new();
    for input in inputs {
        match resolve_stem(corpus, input) {
            Some(stem) => {
                let link = format!("[[{stem}]]");
                if !out.contains(&link) {
                    out.push(link);
                }
            }
            None => failed.push(unresolved(corpus, input)),
        }
    }
    if failed.is_empty() {
        Ok(out)
    } else {
        Err(Error::Unresolved(failed))
    }
}

/// The failure record of `input`, with up to three nearest stems.
pub fn unresolved(corpus: &Corpus, input: &str) -> Unresolved {
    let wanted = candidates(input).pop().unwrap_or_default().to_lowercase();
    let mut scored: Vec<(f64, &str)> = corpus
        .stems()
        .map(|s| (strsim::jaro_winkler(&wanted, &s.to_lowercase()), s))
        .filter(|(score, _)| *score > 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    Unresolved {
        input: input.to_string(),
        nearest: scored
            .into_iter()
            .take(3)
            .map(|(_, s)| s.to_string())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> Corpus {
        let docs = ["2026-01-01-a-research", "2026-01-02-b-adr"]
            .iter()
            .map(|s| Document::from_text(&format!(".vault/x/{s}.md"), "x"))
            .collect();
        Corpus::from_docs(docs, vec![])
    }

    #[test]
    fn a_file_that_could_not_be_read_still_resolves_as_a_link_target() {
        let skipped = crate::doc::Skipped {
            path: ".vault/research/2026-01-03-c-research.md".into(),
            reason: "not UTF-8".into(),
        };
        let c = Corpus::from_docs(Vec::new(), vec![skipped]);
        let links = resolve_links(&c, &["2026-01-03-C-research".into()]).unwrap();
        assert_eq!(links, ["[[2026-01-03-c-research]]"]);
    }

    #[test]
    fn every_reference_form_resolves() {
        let c = corpus();
        for r in [
            "2026-01-01-a-research",
            "2026-01-01-A-research.md",
            "[[2026-01-01-a-research]]",
            "[[2026-01-01-a-research|alias]]",
            ".vault/research/2026-01-01-a-research.md",
        ] {
            assert_eq!(
                resolve(&c, r).unwrap().stem(),
                "2026-01-01-a-research",
                "{r}"
            );
        }
    }

    #[test]
    fn an_unresolvable_reference_names_the_nearest_documents() {
        let c = corpus();
        let e = resolve_links(
            &c,
            &["2026-01-01-a-reserch".into(), "2026-01-02-b-adr".into()],
        )
        .unwrap_err();
        match e {
            Error::Unresolved(u) => {
                assert_eq!(u.len(), 1);
                assert_eq!(u[0].nearest[0], "2026-01-01-a-research");
            }
            other => panic!("{other}"),
        }
    }
}
