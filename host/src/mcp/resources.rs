//! The vault's documents as MCP resources: listed a page at a time, read
//! back whole with their blob hash, and reached by stem or by feature
//! through two templates.
//!
//! **URIs.** A document is listed under the `file://` URI of its file,
//! percent-encoded as Python's `Path.as_uri` writes it: the locator the
//! reference's `find` hands out, so a `find` row's `resource_uri` is a
//! resource this server reads. Two templates name documents without their
//! folder or date: `vault://document/{stem}` (one document by stem) and
//! `vault://feature/{feature}` (the feature's index document). The server
//! reads exactly these three forms, and only files under its own
//! `.vault/`; anything else is "resource not found".
//!
//! **Reads** go through the same storage as every tool (no link followed,
//! the per-call read budget) and return the file's exact text. A document
//! that cannot be read, or is not UTF-8, is listed with its problem in its
//! description and refused on read with that problem: never served half.

use std::sync::Arc;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, MetaObject, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use serde_json::json;
use vaultspec_vault::Storage;
use vaultspec_vault::graph::GraphDoc;
use vaultspec_vault::hash::blob_oid;

use super::context::ServerContext;
use super::vault_cache::LoadedVault;

/// Documents per page of `resources/list`.
pub const PAGE: usize = 250;

/// The template of one document by stem.
pub const DOCUMENT_TEMPLATE: &str = "vault://document/{stem}";

/// The template of a feature's index document.
pub const FEATURE_TEMPLATE: &str = "vault://feature/{feature}";

const DOCUMENT_PREFIX: &str = "vault://document/";
const FEATURE_PREFIX: &str = "vault://feature/";

/// What `Path.as_uri` leaves as it is: letters, digits, `_.-~` and `/`.
const KEPT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'_')
    .remove(b'.')
    .remove(b'-')
    .remove(b'~')
    .remove(b'/');

const MARKDOWN: &str = "text/markdown";

/// The `file://` URI of the workspace file at `path` (relative).
pub fn file_uri(context: &ServerContext, path: &str) -> String {
    let absolute = context.workspace.root().join(path);
    format!(
        "file://{}",
        utf8_percent_encode(&absolute.to_string_lossy(), KEPT)
    )
}

/// The workspace-relative path a `file://` URI names, when it is a file
/// under this workspace's `.vault/`.
fn vault_path(context: &ServerContext, uri: &str) -> Option<String> {
    let encoded = uri.strip_prefix("file://")?;
    let decoded = percent_encoding::percent_decode_str(encoded)
        .decode_utf8()
        .ok()?;
    let root = context.workspace.root().to_string_lossy();
    let relative = decoded.strip_prefix(root.as_ref())?.strip_prefix('/')?;
    let plain = relative
        .split('/')
        .all(|part| !matches!(part, "" | "." | ".."));
    (plain && relative.starts_with(".vault/")).then(|| relative.to_owned())
}

/// One page of documents, from the opaque `cursor` of the page before.
pub fn list(
    context: &ServerContext,
    loaded: &LoadedVault,
    cursor: Option<&str>,
) -> Result<ListResourcesResult, ErrorData> {
    let docs = loaded.graph.docs();
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|&at| at <= docs.len())
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!("cursor '{cursor}' is not one this server gave; list again without it"),
                    None,
                )
            })?,
    };
    let end = docs.len().min(start + PAGE);
    let sizes = |path: &str| {
        loaded
            .listing
            .binary_search_by(|e| e.path.as_str().cmp(path))
            .ok()
            .map(|i| loaded.listing[i].size)
    };
    let resources = docs[start..end]
        .iter()
        .map(|doc| resource(context, doc, sizes(&doc.path)))
        .collect();
    let mut result = ListResourcesResult::with_all_items(resources);
    result.next_cursor = (end < docs.len()).then(|| end.to_string());
    Ok(result)
}

/// The listing of one document.
fn resource(context: &ServerContext, doc: &GraphDoc, size: Option<u64>) -> Resource {
    let mut resource = Resource::new(file_uri(context, &doc.path), doc.stem().to_owned());
    resource.title = doc.title().map(str::to_owned);
    resource.mime_type = Some(MARKDOWN.into());
    resource.size = size;
    resource.description = Some(match &doc.problem {
        Some(problem) => format!("cannot be served: {problem}"),
        None => describe(doc),
    });
    resource
}

/// `adr · feature auth-tokens · 2026-01-05`.
fn describe(doc: &GraphDoc) -> String {
    let mut parts = vec![doc.doc_type.map_or("document", |t| t.as_str()).to_owned()];
    if let Some(feature) = doc.feature() {
        parts.push(format!("feature {feature}"));
    }
    if let Some(date) = doc.date() {
        parts.push(date.to_string());
    }
    parts.join(" · ")
}

/// The two templates.
pub fn templates() -> ListResourceTemplatesResult {
    let template = |uri: &str, name: &str, description: &str| {
        let mut template = ResourceTemplate::new(uri, name);
        template.description = Some(description.into());
        template.mime_type = Some(MARKDOWN.into());
        template
    };
    ListResourceTemplatesResult::with_all_items(vec![
        template(
            DOCUMENT_TEMPLATE,
            "document",
            "One vault document by its stem (the file name without .md), whatever its folder or date.",
        ),
        template(
            FEATURE_TEMPLATE,
            "feature-index",
            "The index document of a feature (written by `vaultspec vault feature index`).",
        ),
    ])
}

/// The path of a feature's index document.
pub fn feature_index(feature: &str) -> String {
    format!(".vault/index/{feature}.index.md")
}

/// The workspace path `uri` stands for, by the loaded vault.
fn resolve(context: &ServerContext, loaded: &LoadedVault, uri: &str) -> Result<String, ErrorData> {
    let not_found = |why: String| ErrorData::resource_not_found(why, Some(json!({ "uri": uri })));
    if let Some(stem) = uri.strip_prefix(DOCUMENT_PREFIX) {
        return by_stem(loaded, stem)
            .map(|doc| doc.path.clone())
            .map_err(not_found);
    }
    if let Some(feature) = uri.strip_prefix(FEATURE_PREFIX) {
        let feature = vaultspec_vault::doc::feature_arg(feature);
        let path = feature_index(feature);
        let docs = loaded.graph.docs();
        return match vaultspec_vault::graph::position(docs, &path) {
            Some(_) => Ok(path),
            None => Err(not_found(format!(
                "feature '{feature}' has no index document; `vaultspec vault feature index -f {feature}` writes one"
            ))),
        };
    }
    vault_path(context, uri).ok_or_else(|| {
        not_found(format!(
            "'{uri}' is not a document of this vault; read a file:// URI from resources/list, \
             {DOCUMENT_TEMPLATE} or {FEATURE_TEMPLATE}"
        ))
    })
}

/// The exact text of the document `uri` names, with its blob hash.
pub fn read(
    context: &ServerContext,
    loaded: &LoadedVault,
    storage: &dyn Storage,
    uri: &str,
) -> Result<ReadResourceResult, ErrorData> {
    let path = resolve(context, loaded, uri)?;
    let bytes = storage.read(&path).map_err(|err| {
        let data = Some(json!({ "uri": uri, "path": path }));
        match err {
            vaultspec_vault::StorageError::NotFound { .. } => {
                ErrorData::resource_not_found(format!("`{path}` does not exist"), data)
            }
            other => ErrorData::internal_error(format!("`{path}` cannot be read: {other}"), data),
        }
    })?;
    let hash = blob_oid(&bytes);
    let text = String::from_utf8(bytes).map_err(|err| {
        ErrorData::internal_error(
            format!(
                "`{path}` is not UTF-8 text (invalid byte at offset {}); it is not served",
                err.utf8_error().valid_up_to()
            ),
            Some(json!({ "uri": uri, "path": path })),
        )
    })?;
    let mut meta = MetaObject::new();
    meta.0.insert("blob_hash".into(), json!(hash));
    meta.0.insert("path".into(), json!(path));
    let contents = ResourceContents::TextResourceContents {
        uri: uri.to_owned(),
        mime_type: Some(MARKDOWN.into()),
        text,
        meta: Some(meta),
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

/// The one document whose stem is `stem`, or why there is not one (none
/// has it, or several share it, named by path).
pub fn by_stem<'v>(loaded: &'v LoadedVault, stem: &str) -> Result<&'v GraphDoc, String> {
    match loaded.graph.docs_with_stem(stem).as_slice() {
        [doc] => Ok(doc),
        [] => Err(format!("no document has the stem '{stem}'")),
        several => Err(format!(
            "the stem '{stem}' is shared by {}; name one by its file:// URI",
            several
                .iter()
                .map(|d| d.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Every document stem beginning with `prefix` (case-insensitive), sorted.
pub fn stems<'v>(loaded: &'v LoadedVault, prefix: &str) -> Vec<&'v str> {
    let prefix = prefix.to_lowercase();
    let mut stems: Vec<&str> = loaded
        .graph
        .docs()
        .iter()
        .map(|d| d.stem())
        .filter(|s| s.to_lowercase().starts_with(&prefix))
        .collect();
    stems.sort_unstable();
    stems.dedup();
    stems
}

/// Every feature beginning with `prefix` (case-insensitive), sorted.
pub fn features(loaded: &LoadedVault, prefix: &str) -> Vec<String> {
    let prefix = prefix.trim_start_matches('#').to_lowercase();
    let mut features: Vec<String> = loaded
        .graph
        .docs()
        .iter()
        .filter_map(|d| d.feature())
        .filter(|f| f.starts_with(&prefix))
        .collect();
    features.sort_unstable();
    features.dedup();
    features
}

/// Whether `uri` is one a client may subscribe to: a document URI of this
/// vault (which need not exist yet) or a template form.
pub fn subscribable(context: &ServerContext, uri: &str) -> bool {
    uri.starts_with(DOCUMENT_PREFIX)
        || uri.starts_with(FEATURE_PREFIX)
        || vault_path(context, uri).is_some()
}

/// Shared by the handlers: the loaded vault and a storage for one request.
pub fn loaded(
    context: &ServerContext,
) -> Result<(Arc<LoadedVault>, vaultspec_vault::CapStorage), ErrorData> {
    let storage = context.storage().map_err(|err| {
        ErrorData::internal_error(format!("opening the workspace: {err:#}"), None)
    })?;
    let loaded = context
        .vault
        .get(context.workspace.root(), &storage)
        .map_err(|err| ErrorData::internal_error(format!("reading the vault: {err}"), None))?;
    Ok((loaded, storage))
}
