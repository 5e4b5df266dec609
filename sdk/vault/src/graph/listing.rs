//! The graph's listings: the rows of `vault list`, orphans, dangling links
//! and the figures of `vault stats` (spec/graph-and-search.md §2, §3, §6).

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::{Graph, GraphDoc, NodeId};

/// Which documents a listing takes (`vault list [DOC_TYPE]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DocSelect<'a> {
    /// Every document.
    #[default]
    All,
    /// Documents of one type (directory name, or `unknown`).
    Type(&'a str),
    /// The pseudo type `orphaned`: documents that are orphans.
    Orphaned,
    /// The pseudo type `invalid`: documents with a dangling link.
    Invalid,
}

impl<'a> DocSelect<'a> {
    /// Read the `DOC_TYPE` operand: `orphaned` and `invalid` are pseudo types.
    pub fn parse(doc_type: Option<&'a str>) -> DocSelect<'a> {
        match doc_type {
            None => DocSelect::All,
            Some("orphaned") => DocSelect::Orphaned,
            Some("invalid") => DocSelect::Invalid,
            Some(t) => DocSelect::Type(t),
        }
    }
}

/// One row of `vault list` (`vaultspec.vault.list.v2` `documents[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocRow {
    /// Workspace-relative path.
    pub path: String,
    /// Directory type, or `unknown`.
    pub doc_type: String,
    /// Listing feature (first non-directory tag), if any.
    pub feature: Option<String>,
    /// `date:` or the filename's date prefix, if any.
    pub date: Option<String>,
    /// Why the document cannot be used as text (unreadable, not UTF-8,
    /// malformed frontmatter); absent for a sound document. The reference
    /// leaves unreadable files out of the listing; we list them so nothing
    /// in the vault goes unseen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The filename stem (not in the JSON of `vault list`).
    #[serde(skip)]
    pub name: String,
    /// The graph node of the document.
    #[serde(skip)]
    pub node: NodeId,
}

/// The figures of `vault stats` (`vaultspec.vault.stats.v1` data).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Documents selected by the filters.
    pub total_docs: usize,
    /// Distinct features among them.
    pub total_features: usize,
    /// Documents per type, in order of first appearance (path order).
    #[serde(serialize_with = "ordered_map")]
    pub counts_by_type: Vec<(String, usize)>,
    /// Orphans of the whole, unfiltered vault.
    pub orphaned_count: usize,
    /// Dangling `(source, target)` pairs of the whole, unfiltered vault.
    pub dangling_link_count: usize,
}

fn ordered_map<S: serde::Serializer>(pairs: &[(String, usize)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

impl Graph {
    /// The graph feature of every node, by node id.
    pub(crate) fn node_features(&self) -> Vec<Option<&str>> {
        (0..self.nodes.len()).map(|id| self.feature(id)).collect()
    }

    /// Orphans (spec §3), in node order: real documents other than `readme`
    /// with no in- or out-links whose feature is absent or carried by no
    /// other document.
    pub fn orphans(&self) -> Vec<NodeId> {
        let features = self.node_features();
        let mut members: HashMap<&str, usize> = HashMap::new();
        for f in features.iter().flatten() {
            *members.entry(f).or_default() += 1;
        }
        (0..self.docs.len())
            .filter(|&id| {
                // Only ASCII letters lower-case to those of `readme`.
                !self.nodes[id].key.eq_ignore_ascii_case("readme")
                    && self.in_links(id).is_empty()
                    && self.out_edges(id).is_empty()
                    && features[id].is_none_or(|f| members[f] <= 1)
            })
            .collect()
    }

    /// Dangling links: `(source, target)` where the target is a phantom that
    /// does not stand for an archived document, in edge order.
    pub fn dangling_links(&self) -> Vec<(NodeId, NodeId)> {
        self.edges
            .iter()
            .filter(|e| {
                let t = &self.nodes[e.target];
                t.is_phantom() && !t.archived
            })
            .map(|e| (e.source, e.target))
            .collect()
    }

    /// Feature weight as `find` reports it (spec §4): per non-directory tag
    /// `#f`, the sum over documents carrying it of their distinct in-link
    /// sources; sorted by score descending, ties in order of first
    /// appearance; the top `limit`.
    pub fn feature_rankings(&self, limit: usize) -> Vec<(String, usize)> {
        // Names borrowed from the documents: one string per feature, made
        // for the answer, not one per tag of every document.
        let mut order: Vec<&str> = Vec::new();
        let mut scores: HashMap<&str, usize> = HashMap::new();
        let mut seen: Vec<&str> = Vec::new();
        for (id, doc) in self.docs.iter().enumerate() {
            seen.clear();
            for tag in doc.meta().tags() {
                if super::is_directory_tag(tag) || seen.contains(&tag) {
                    continue;
                }
                seen.push(tag);
                let name = crate::doc::tag_name(tag);
                let score = scores.entry(name).or_insert_with(|| {
                    order.push(name);
                    0
                });
                *score += self.in_links(id).len();
            }
        }
        let mut ranked: Vec<(String, usize)> = order
            .into_iter()
            .map(|f| (f.to_owned(), scores[f]))
            .collect();
        ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
        ranked.truncate(limit);
        ranked
    }

    /// The documents of `vault list` (and of `vault stats`): in path order,
    /// selected by type or pseudo type, exact listing feature (a leading `#`
    /// ignored) and exact listing date. A document with a problem is listed
    /// with it (its feature and `date:` unknown when it has no text).
    pub fn list_documents(
        &self,
        select: DocSelect<'_>,
        feature: Option<&str>,
        date: Option<&str>,
    ) -> Vec<DocRow> {
        rows(self.selected(select, feature, date))
    }

    /// The documents [`list_documents`](Self::list_documents) lists, each
    /// with its listing feature.
    fn selected<'f>(
        &self,
        select: DocSelect<'f>,
        feature: Option<&'f str>,
        date: Option<&'f str>,
    ) -> impl Iterator<Item = (NodeId, &GraphDoc, Option<&str>)> + use<'_, 'f> {
        let keep: Option<HashSet<NodeId>> = match select {
            DocSelect::Orphaned => Some(self.orphans().into_iter().collect()),
            DocSelect::Invalid => Some(self.dangling_links().into_iter().map(|(s, _)| s).collect()),
            _ => None,
        };
        select_docs(&self.docs, keep, select, feature, date)
    }

    /// `vault stats`: totals over the filtered documents; orphan and
    /// dangling counts over the whole vault.
    pub fn stats(&self, select: DocSelect<'_>, feature: Option<&str>, date: Option<&str>) -> Stats {
        let mut total_docs = 0;
        let mut counts_by_type: Vec<(String, usize)> = Vec::new();
        let mut features = HashSet::new();
        for (_, doc, feature) in self.selected(select, feature, date) {
            total_docs += 1;
            let doc_type = doc.type_name();
            match counts_by_type.iter_mut().find(|(t, _)| *t == doc_type) {
                Some((_, n)) => *n += 1,
                None => counts_by_type.push((doc_type.to_owned(), 1)),
            }
            if let Some(f) = feature {
                features.insert(f);
            }
        }
        Stats {
            total_docs,
            total_features: features.len(),
            counts_by_type,
            orphaned_count: self.orphans().len(),
            dangling_link_count: self.dangling_links().len(),
        }
    }
}

/// [`Graph::list_documents`] for a selection that needs no links (every
/// document, or those of one type), from the rows of the corpus documents
/// alone ([`DocRow::of`] each, in path order as a load gives them): the
/// same rows without building the graph. `None` for `orphaned` and
/// `invalid`, which are read from the links.
pub fn select_rows(
    rows: Vec<DocRow>,
    select: DocSelect<'_>,
    feature: Option<&str>,
    date: Option<&str>,
) -> Option<Vec<DocRow>> {
    if matches!(select, DocSelect::Orphaned | DocSelect::Invalid) {
        return None;
    }
    let filter = Filter::new(select, feature, date);
    Some(
        rows.into_iter()
            .filter(|r| filter.takes(&r.doc_type, r.date.as_deref(), r.feature.as_deref()))
            .collect(),
    )
}

/// What a listing filters on besides the links: the type, the listing date
/// and the listing feature.
#[derive(Clone, Copy)]
struct Filter<'a> {
    select: DocSelect<'a>,
    feature: Option<&'a str>,
    date: Option<&'a str>,
}

impl<'a> Filter<'a> {
    fn new(select: DocSelect<'a>, feature: Option<&'a str>, date: Option<&'a str>) -> Self {
        Self {
            select,
            feature: feature
                .map(crate::doc::feature_arg)
                .filter(|f| !f.is_empty()),
            date: date.filter(|d| !d.is_empty()),
        }
    }

    /// Whether a document of this type, listing date and listing feature
    /// is listed.
    fn takes(&self, doc_type: &str, date: Option<&str>, feature: Option<&str>) -> bool {
        self.takes_kind(doc_type, date) && self.takes_feature(feature)
    }

    /// [`Filter::takes`] on the type and date alone.
    fn takes_kind(&self, doc_type: &str, date: Option<&str>) -> bool {
        (match self.select {
            DocSelect::Type(t) => doc_type == t,
            _ => true,
        }) && self.date.is_none_or(|d| date == Some(d))
    }

    /// [`Filter::takes`] on the feature alone.
    fn takes_feature(&self, feature: Option<&str>) -> bool {
        self.feature.is_none_or(|w| feature == Some(w))
    }
}

/// The documents of `docs` (a document's node is its place there, as in a
/// graph) in `keep` when given, of the selected type, listing feature and
/// listing date, each with its listing feature.
fn select_docs<'d, 'f>(
    docs: &'d [GraphDoc],
    keep: Option<HashSet<NodeId>>,
    select: DocSelect<'f>,
    feature: Option<&'f str>,
    date: Option<&'f str>,
) -> impl Iterator<Item = (NodeId, &'d GraphDoc, Option<&'d str>)> + use<'d, 'f> {
    let filter = Filter::new(select, feature, date);
    docs.iter()
        .enumerate()
        .filter(move |(id, doc)| {
            keep.as_ref().is_none_or(|k| k.contains(id))
                && filter.takes_kind(doc.type_name(), doc.listing_date())
        })
        .map(|(id, doc)| (id, doc, doc.listing_feature()))
        .filter(move |(_, _, f)| filter.takes_feature(*f))
}

/// The `vault list` rows of the selected documents.
fn rows<'d>(
    selected: impl Iterator<Item = (NodeId, &'d GraphDoc, Option<&'d str>)>,
) -> Vec<DocRow> {
    selected.map(|(id, doc, _)| DocRow::of(id, doc)).collect()
}

impl DocRow {
    /// The row of `doc`, node `node` of its graph.
    pub fn of(node: NodeId, doc: &GraphDoc) -> DocRow {
        DocRow {
            path: doc.path.clone(),
            doc_type: doc.type_name().to_owned(),
            feature: doc.listing_feature().map(str::to_owned),
            date: doc.listing_date().map(str::to_owned),
            problem: doc.problem.as_ref().map(ToString::to_string),
            name: doc.stem().to_owned(),
            node,
        }
    }

    /// What a verb keeps of the row between runs: the fields not read from
    /// the path (feature, date, problem), each a presence byte, then its
    /// length (u32, little-endian) and bytes. [`DocRow::from_kept`] reads it.
    pub fn kept_form(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        for field in [&self.feature, &self.date, &self.problem] {
            match field {
                None => bytes.push(0),
                Some(text) => {
                    bytes.push(1);
                    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
                    bytes.extend_from_slice(text.as_bytes());
                }
            }
        }
        bytes
    }

    /// The row of the document at `path`, node `node`, from its
    /// [`kept_form`](Self::kept_form); `None` for bytes of any other shape.
    pub fn from_kept(path: &str, node: NodeId, mut bytes: &[u8]) -> Option<DocRow> {
        let mut field = || -> Option<Option<String>> {
            let (&present, rest) = bytes.split_first()?;
            bytes = rest;
            if present == 0 {
                return Some(None);
            }
            let (len, rest) = bytes.split_at_checked(4)?;
            let (text, rest) =
                rest.split_at_checked(u32::from_le_bytes(len.try_into().ok()?) as usize)?;
            bytes = rest;
            Some(Some(std::str::from_utf8(text).ok()?.to_owned()))
        };
        let (feature, date, problem) = (field()?, field()?, field()?);
        if !bytes.is_empty() {
            return None;
        }
        Some(DocRow {
            path: path.to_owned(),
            doc_type: crate::doc::DocType::of_path(path)
                .map_or("unknown", |t| t.as_str())
                .to_owned(),
            feature,
            date,
            problem,
            name: crate::doc::stem_of(path).to_owned(),
            node,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(path: &str, feature: &str, related: &[&str], body: &str) -> GraphDoc {
        let parts: Vec<&str> = path.split('/').collect();
        let dir = if parts.len() > 2 { parts[1] } else { "adr" };
        let mut text = format!(
            "---\ntags:\n  - '#{dir}'\n  - '#{feature}'\ndate: '2026-01-0{}'\nrelated:\n",
            related.len() + 1
        );
        for r in related {
            text.push_str(&format!("  - '[[{r}]]'\n"));
        }
        text.push_str("---\n\n");
        text.push_str(body);
        GraphDoc::from_text(path, &text)
    }

    fn keys(g: &Graph, ids: impl IntoIterator<Item = NodeId>) -> Vec<String> {
        ids.into_iter().map(|id| g.node(id).key.clone()).collect()
    }

    fn sample() -> Graph {
        Graph::build(
            vec![
                doc(".vault/adr/a.md", "f", &["b", "missing"], ""),
                doc(".vault/adr/b.md", "f", &[], ""),
                doc(".vault/research/lone.md", "solo", &[], "no links"),
                doc(".vault/research/pair1.md", "duo", &[], ""),
                doc(".vault/research/pair2.md", "duo", &["old"], ""),
                doc(".vault/readme.md", "x", &[], ""),
            ],
            &["research/old.md".to_owned()],
        )
    }

    #[test]
    fn a_listing_read_from_the_documents_alone_is_the_graphs() {
        let g = sample();
        let selections = [
            (DocSelect::All, None, None),
            (DocSelect::Type("research"), None, None),
            (DocSelect::Type("unknown"), None, None),
            (DocSelect::All, Some("#duo"), None),
            (DocSelect::Type("adr"), Some("f"), Some("2026-01-03")),
            (DocSelect::All, None, Some("2026-01-01")),
        ];
        let read: Vec<DocRow> = (g.docs().iter().enumerate())
            .map(|(id, d)| DocRow::of(id, d))
            .collect();
        // Each document's row as a verb recalls it from its kept form.
        let recalled: Vec<DocRow> = (read.iter())
            .map(|r| DocRow::from_kept(&r.path, r.node, &r.kept_form()).unwrap())
            .collect();
        assert_eq!(recalled, read);
        for (select, feature, date) in selections {
            assert_eq!(
                select_rows(read.clone(), select, feature, date),
                Some(g.list_documents(select, feature, date)),
                "{select:?} {feature:?} {date:?}"
            );
        }
        assert_eq!(
            select_rows(read.clone(), DocSelect::All, None, None).map(|r| r.len()),
            Some(6)
        );
        for links in [DocSelect::Orphaned, DocSelect::Invalid] {
            assert_eq!(select_rows(read.clone(), links, None, None), None);
        }
    }

    #[test]
    fn a_rows_kept_form_gives_the_row_back_and_nothing_else_does() {
        let docs = [
            GraphDoc::from_text(
                ".vault/adr/2026-02-03-x-adr.md",
                "---\ntags: [#adr, #x]\n---\n# X\n",
            ),
            GraphDoc::from_text(
                ".vault/plan/p.md",
                "---\ndate: 2026-01-01\ntags: [\n---\nbroken\n",
            ),
            GraphDoc::from_text(".vault/notes.md", "no frontmatter, ünïcode"),
            GraphDoc::from_vec(".vault/adr/bad.md", vec![0xff, 0xfe]),
        ];
        for (id, doc) in docs.iter().enumerate() {
            let row = DocRow::of(id, doc);
            let form = row.kept_form();
            assert_eq!(DocRow::from_kept(&doc.path, id, &form).as_ref(), Some(&row));
            for cut in 0..form.len() {
                assert_eq!(
                    DocRow::from_kept(&doc.path, id, &form[..cut]),
                    None,
                    "cut at {cut}"
                );
            }
            let mut longer = form.clone();
            longer.push(0);
            assert_eq!(DocRow::from_kept(&doc.path, id, &longer), None);
        }
        assert!(
            DocRow::of(1, &docs[1]).problem.is_some(),
            "a malformed one keeps its problem"
        );
    }

    #[test]
    fn an_isolated_document_alone_in_its_feature_is_an_orphan() {
        let g = sample();
        // pair1 is isolated but shares its feature; readme is exempt.
        assert_eq!(keys(&g, g.orphans()), ["lone"]);
    }

    #[test]
    fn a_link_to_a_missing_document_dangles_but_one_to_an_archived_document_does_not() {
        let g = sample();
        let dangling: Vec<(String, String)> = g
            .dangling_links()
            .into_iter()
            .map(|(s, t)| (g.node(s).key.clone(), g.node(t).key.clone()))
            .collect();
        assert_eq!(dangling, [("a".to_owned(), "missing".to_owned())]);
        let old = g.node_id("research/old").unwrap();
        assert!(g.node(old).is_phantom() && g.node(old).archived);
    }

    #[test]
    fn feature_weight_sums_distinct_in_link_sources() {
        let g = Graph::build(
            vec![
                doc(".vault/adr/a.md", "f", &["b", "b"], "[[b]]"),
                doc(".vault/adr/b.md", "f", &[], ""),
                doc(".vault/adr/c.md", "g", &["b", "d"], ""),
                doc(".vault/adr/d.md", "h", &[], ""),
            ],
            &[],
        );
        let ranks = g.feature_rankings(100);
        assert_eq!(ranks, [("f".into(), 2), ("h".into(), 1), ("g".into(), 0)]);
        assert_eq!(g.feature_rankings(1).len(), 1);
    }

    #[test]
    fn stats_filter_documents_but_count_orphans_over_the_whole_vault() {
        let g = sample();
        let all = g.stats(DocSelect::All, None, None);
        assert_eq!(all.total_docs, 6);
        assert_eq!(all.total_features, 4);
        assert_eq!(
            all.counts_by_type,
            [
                ("adr".into(), 2),
                ("unknown".into(), 1),
                ("research".into(), 3)
            ]
        );
        let duo = g.stats(DocSelect::All, Some("#duo"), None);
        assert_eq!((duo.total_docs, duo.total_features), (2, 1));
        assert_eq!((duo.orphaned_count, duo.dangling_link_count), (1, 1));
        let json = serde_json::to_string(&duo).unwrap();
        assert!(
            json.contains(r#""counts_by_type":{"research":2}"#),
            "{json}"
        );
    }

    #[test]
    fn list_pseudo_types_select_orphans_and_documents_with_dangling_links() {
        let g = sample();
        let names = |rows: Vec<DocRow>| rows.into_iter().map(|r| r.name).collect::<Vec<_>>();
        assert_eq!(
            names(g.list_documents(DocSelect::parse(Some("orphaned")), None, None)),
            ["lone"]
        );
        assert_eq!(
            names(g.list_documents(DocSelect::parse(Some("invalid")), None, None)),
            ["a"]
        );
        assert_eq!(
            names(g.list_documents(DocSelect::Type("adr"), None, Some("2026-01-01"))),
            ["b"]
        );
    }
}
