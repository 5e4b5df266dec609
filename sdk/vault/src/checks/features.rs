//! The `features` checker (read-only): per feature, execution records
//! without a plan, a missing feature index, and an index whose `related:`
//! no longer counts the feature's documents. Findings are vault-wide
//! (`path: null`); `vault feature index` is the repair.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use crate::doc::{DocType, Document, name};
use crate::error::Result;

use super::context::{Options, Snapshot};
use super::model::{Check, CheckResult, Finding, Severity};

const NAME: &str = "features";

fn is_index(doc: &Document) -> bool {
    doc.doc_type == Some(DocType::Index) || doc.generated() || doc.stem().ends_with(".index")
}

/// Runs the checker.
pub fn run(snap: &Snapshot<'_>, opts: &Options) -> Result<CheckResult> {
    let mut result = CheckResult::new(Check::Features);
    let mut members: BTreeMap<Cow<'_, str>, Vec<&Document>> = BTreeMap::new();
    let mut tagged: HashMap<&str, usize> = HashMap::new();
    let mut indexes: HashMap<&str, &Document> = HashMap::new();
    // A document's tags, each counted once (a document has a few).
    let mut seen: Vec<&str> = Vec::new();
    for doc in snap.all_docs() {
        if is_index(doc) {
            indexes.insert(doc.path.as_str(), doc);
            continue;
        }
        seen.clear();
        for t in doc.meta().tags().iter().filter_map(|t| t.strip_prefix('#')) {
            if !seen.contains(&t) {
                seen.push(t);
                *tagged.entry(t).or_default() += 1;
            }
        }
        if let Some(f) = doc
            .feature_text()
            .filter(|f| !f.is_empty() && f != "uncategorized")
        {
            members.entry(f).or_default().push(doc);
        }
    }
    for (feature, docs) in members {
        if opts.feature.as_deref().is_some_and(|f| f != feature) {
            continue;
        }
        let has = |t: DocType| docs.iter().any(|d| d.doc_type == Some(t));
        let hint = format!("vaultspec vault feature index -f {feature}");
        if has(DocType::Exec) && !has(DocType::Plan) {
            result.findings.push(Finding::new(
                NAME,
                Severity::Warning,
                None,
                format!("Feature '{feature}' has execution records but no plan"),
            ));
        }
        let path = name::index_path(&feature);
        let count = tagged.get(&*feature).copied().unwrap_or(0);
        match indexes.get(path.as_str()) {
            None => result.findings.push(
                Finding::new(
                    NAME,
                    Severity::Warning,
                    None,
                    format!("Feature '{feature}' has no feature index: run `vaultspec vault feature index` to generate `index/{feature}.index.md`"),
                )
                .hint(hint),
            ),
            Some(index) if index.meta().related().len() != count => result.findings.push(
                Finding::new(
                    NAME,
                    Severity::Warning,
                    None,
                    format!(
                        "Feature '{feature}' index is stale: related: has {} links but feature has {count} documents",
                        index.meta().related().len()
                    ),
                )
                .hint(hint),
            ),
            Some(_) => {}
        }
    }
    Ok(result)
}
