//! `vault link list|add|remove`: the `related:` edges of documents, edited
//! surgically (`related_surgery` of the reference): existing item lines are
//! kept verbatim, a new one is appended as `  - '[[stem]]'`.

use super::{Change, Status, apply};
use crate::date::Date;
use crate::doc::{Corpus, Document};
use crate::error::Result;
use crate::frontmatter::edit::{key_blocks, newline_of, set_key};
use crate::frontmatter::render::{Quote, list_lines, single};
use crate::graph::{Graph, NodeId};
use crate::storage::Storage;
use crate::{hash, resolve, text};

/// One `related:` edge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Edge {
    /// The linking document's stem.
    pub src: String,
    /// The linked stem.
    pub dst: String,
    /// `out` for an edge from the listed document, `in` for one to it.
    pub direction: &'static str,
}

/// The result of `link add` / `link remove`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LinkChange {
    /// `created`, `removed` or `unchanged`.
    #[serde(skip)]
    pub status: Status,
    /// The source stem.
    pub src: String,
    /// The target stem.
    pub dst: String,
    /// Whether nothing was written on purpose.
    pub dry_run: bool,
}

/// `vault link list`, as the reference lists its graph: without a source,
/// the outgoing links (`related:` and body wiki-links alike) of every
/// document node by key, each node's targets by key; with `src` (a node key:
/// the stem, or `<type>/<stem>` when stems collide), its outgoing links by
/// key, then the nodes linking to it (`direction: in`). A target whose stem
/// several documents share is every one of their keys; an unresolved one is
/// its phantom's key. `None` when `src` is no node of the graph.
pub fn list(graph: &Graph, src: Option<&str>, feature: Option<&str>) -> Option<Vec<Edge>> {
    let keys = |ids: &mut dyn Iterator<Item = NodeId>| -> Vec<&str> {
        let mut keys: Vec<&str> = ids.map(|id| graph.node(id).key.as_str()).collect();
        keys.sort_unstable();
        keys
    };
    let edge = |src: &str, dst: &str, direction| Edge {
        src: src.to_string(),
        dst: dst.to_string(),
        direction,
    };
    let Some(src) = src else {
        let mut nodes: Vec<NodeId> = (0..graph.nodes().len())
            .filter(|&id| !graph.node(id).is_phantom())
            .filter(|&id| feature.is_none_or(|f| graph.feature(id) == Some(f)))
            .collect();
        nodes.sort_unstable_by_key(|&id| graph.node(id).key.as_str());
        return Some(
            nodes
                .into_iter()
                .flat_map(|id| {
                    let key = graph.node(id).key.as_str();
                    keys(&mut graph.out_links(id))
                        .into_iter()
                        .map(move |t| edge(key, t, "out"))
                })
                .collect(),
        );
    };
    let id = graph.node_id(src)?;
    let mut edges: Vec<Edge> = keys(&mut graph.out_links(id))
        .into_iter()
        .map(|t| edge(src, t, "out"))
        .collect();
    edges.extend(
        keys(&mut graph.in_links(id).iter().copied())
            .into_iter()
            .map(|s| edge(s, src, "in")),
    );
    Some(edges)
}

fn target_stem(corpus: &Corpus, dst: &str, force: bool) -> Result<String> {
    match resolve::resolve_stem(corpus, dst) {
        Some(stem) => Ok(stem),
        None if !force => Err(crate::Error::Unresolved(vec![resolve::unresolved(
            corpus, dst,
        )])),
        None => {
            let t = dst.trim();
            let t = crate::doc::wiki_target(t).unwrap_or(t);
            Ok(crate::doc::stem_of(t.rsplit(['/', '\\']).next().unwrap_or(t)).to_string())
        }
    }
}

/// Appends `[[dst]]` to the `related:` of `text`, keeping existing lines.
pub fn append_related(text: &str, doc: &Document, dst: &str) -> String {
    let Some(s) = &doc.split else {
        return text.to_string();
    };
    let nl = newline_of(text);
    let block = key_blocks(text, s).into_iter().find(|b| b.key == "related");
    let item = format!("  - {}", single(&format!("[[{dst}]]")));
    match block {
        Some(b) if text::lines(&text[b.range.clone()]).len() > 1 => {
            let end = b.range.end;
            format!("{}{item}{nl}{}", &text[..end], &text[end..])
        }
        _ => {
            let mut items = doc.meta().related().to_vec();
            items.push(format!("[[{dst}]]"));
            set_key(
                text,
                "related",
                &list_lines("related", &items, Quote::Single),
            )
            .unwrap_or_else(|| text.to_string())
        }
    }
}

/// `vault link add`: appends `[[dst]]` to `src`'s related. An existing edge
/// is `unchanged` (nothing written); an unresolvable `dst` is refused unless
/// `force`.
pub fn add(
    storage: &dyn Storage,
    src: &str,
    dst: &str,
    force: bool,
    dry_run: bool,
    today: Date,
) -> Result<LinkChange> {
    super::begin(storage, dry_run)?;
    let corpus = Corpus::load(storage)?;
    let doc = resolve::resolve(&corpus, src)?;
    doc.require_frontmatter()?;
    let dst = target_stem(&corpus, dst, force)?;
    let mut result = LinkChange {
        status: Status::Unchanged,
        src: doc.stem().to_owned(),
        dst: dst.clone(),
        dry_run,
    };
    if doc
        .related_stems()
        .iter()
        .any(|t| t.eq_ignore_ascii_case(&dst))
    {
        return Ok(result);
    }
    let new = hash::refresh_modified_stamp(&append_related(&doc.text, doc, &dst), today);
    result.status = Status::Created;
    if !dry_run {
        apply(
            storage,
            &[Change::Write {
                path: doc.path.clone(),
                bytes: new.into_bytes(),
            }],
        )?;
    }
    Ok(result)
}

/// `vault link remove`: deletes the `related:` items pointing at `dst`;
/// removing the last leaves `related: []`. A missing edge is `unchanged`.
pub fn remove(
    storage: &dyn Storage,
    src: &str,
    dst: &str,
    dry_run: bool,
    today: Date,
) -> Result<LinkChange> {
    super::begin(storage, dry_run)?;
    let corpus = Corpus::load(storage)?;
    let doc = resolve::resolve(&corpus, src)?;
    doc.require_frontmatter()?;
    let dst = target_stem(&corpus, dst, true)?;
    let mut result = LinkChange {
        status: Status::Unchanged,
        src: doc.stem().to_owned(),
        dst: dst.clone(),
        dry_run,
    };
    let matches =
        |item: &str| crate::doc::wiki_target(item).is_some_and(|t| t.eq_ignore_ascii_case(&dst));
    let (new, removed) = remove_related(&doc.text, &matches);
    if removed == 0 {
        return Ok(result);
    }
    let new = hash::refresh_modified_stamp(&new, today);
    result.status = Status::Removed;
    if !dry_run {
        apply(
            storage,
            &[Change::Write {
                path: doc.path.clone(),
                bytes: new.into_bytes(),
            }],
        )?;
    }
    Ok(result)
}

/// Removes the `related:` items for which `matches` holds, keeping every
/// other line verbatim; removing the last item leaves `related: []`.
/// Returns the new text and how many items went. The one related-link
/// removal of `vault link remove` and the `dangling` fixer.
pub fn remove_related(text: &str, matches: &dyn Fn(&str) -> bool) -> (String, usize) {
    let Some(s) = crate::frontmatter::split(text) else {
        return (text.to_string(), 0);
    };
    let Some(b) = key_blocks(text, &s)
        .into_iter()
        .rfind(|b| b.key == "related")
    else {
        return (text.to_string(), 0);
    };
    let block = &text[b.range.clone()];
    let lines = text::lines(block);
    let items: Vec<String> = crate::frontmatter::scan::scan(s.yaml(text)).related;
    let removed = items.iter().filter(|i| matches(i)).count();
    if removed == 0 {
        return (text.to_string(), 0);
    }
    let kept: Vec<String> = items.into_iter().filter(|i| !matches(i)).collect();
    if kept.is_empty() || lines.len() == 1 {
        let new = set_key(
            text,
            "related",
            &list_lines("related", &kept, Quote::Single),
        )
        .unwrap_or_else(|| text.to_string());
        return (new, removed);
    }
    let mut out = String::from(&text[..b.range.start]);
    for (i, l) in lines.iter().enumerate() {
        let line = &block[l.content.clone()];
        let item = line
            .trim_start()
            .strip_prefix('-')
            .map(|v| crate::frontmatter::scan::strip_quotes(v.trim()));
        if i > 0 && item.is_some_and(matches) {
            continue;
        }
        out.push_str(&block[l.full.clone()]);
    }
    out.push_str(&text[b.range.end..]);
    (out, removed)
}
