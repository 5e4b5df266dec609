//! `create`: scaffold several documents from the workspace templates in one
//! call (`spec/mcp-tools.md` §6.2), then regenerate each affected feature's
//! index once.

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::Value;
use vaultspec_vault::doc::name::{self, Token};
use vaultspec_vault::ops::add::{self, AddRequest};
use vaultspec_vault::ops::edit::{EditRequest, plan_edit};
use vaultspec_vault::ops::{self, feature};
use vaultspec_vault::{Corpus, DocType, Document, Error, Storage, frontmatter};

use super::parse;
use crate::mcp::batch::{Item, check_size, envelope};
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    documents: Vec<Spec>,
}

#[derive(Deserialize)]
struct Spec {
    feature: String,
    #[serde(rename = "type")]
    doc_type: Option<String>,
    title: Option<String>,
    date: Option<String>,
    content: Option<String>,
    #[serde(default)]
    related: Vec<String>,
    #[serde(default)]
    tags: Vec<String>,
    tier: Option<String>,
    topic: Option<String>,
}

/// Create each document in order; one failure never stops the rest.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    check_size("create", "document spec", args.documents.len())?;
    let storage = context.storage()?;
    let _lock = context.lock_writes()?;
    let mut features = BTreeSet::new();
    let mut items = Vec::with_capacity(args.documents.len());
    for (index, spec) in args.documents.iter().enumerate() {
        let item = create_one(context, &storage, index, spec);
        // The feature as the created document's tag spells it.
        if item.status == "created"
            && let Ok(feature) = name::normalize(&spec.feature, Token::Feature)
        {
            features.insert(feature);
        }
        items.push(item);
    }
    for name in &features {
        let regenerated = context.lock_feature_index(name).and_then(|_sentinel| {
            Ok(feature::index_features(
                &storage,
                Some(name),
                context.today(),
            )?)
        });
        if let Err(err) = regenerated {
            tracing::warn!("regenerating the index of `{name}` failed: {err:#}");
        }
    }
    let (summary, value) = envelope(&items);
    Ok(Reply {
        summary,
        structured: value.into(),
    })
}

fn create_one(context: &ServerContext, storage: &dyn Storage, index: usize, spec: &Spec) -> Item {
    let doc_type = spec
        .doc_type
        .clone()
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| "research".to_owned());
    let target = Some(format!("{doc_type}:{}", spec.feature));
    let fail = |message: String| Item::failed(index, target.clone(), message);
    match doc_type.trim() {
        "index" => {
            return fail(
                "'index' documents are auto-generated. Use 'vaultspec vault feature index', not create.".to_owned(),
            );
        }
        "exec" => return fail("exec ledgers are not scaffolded; use the `log` tool.".to_owned()),
        _ => {}
    }
    if doc_type.trim().parse::<DocType>().is_err() {
        return fail(format!("Invalid document type: {doc_type}"));
    }
    let request = AddRequest {
        doc_type: doc_type.clone(),
        feature: spec.feature.clone(),
        date: spec.date.clone(),
        title: spec.title.clone(),
        topic: spec.topic.clone(),
        related: spec.related.clone(),
        tags: spec.tags.clone(),
        tier: spec.tier.clone(),
        force: false,
        dry_run: false,
    };
    // `vault add`'s operation; the reference's writers take the new
    // document's sentinel too (one of theirs may have made the file since
    // the corpus was read), so it is held between planning and writing.
    // Earlier items of this batch count as existing documents.
    let added = match add::add_holding(storage, &request, context.today(), |path| {
        context.lock_document(path)
    }) {
        Ok(added) => added,
        Err(err) => {
            return fail(match err.downcast::<Error>() {
                Ok(refused) => refused.to_string(),
                Err(other) => format!("{other:#}"),
            });
        }
    };
    let mut item = Item {
        index,
        target: target.clone(),
        status: "created",
        path: Some(added.path.clone()),
        blob_hash: Some(added.blob_hash.clone()),
        error: None,
        warnings: Vec::new(),
    };
    if let Some(content) = spec.content.as_deref().filter(|c| !c.trim().is_empty()) {
        match seed_context(context, storage, &added.path, content) {
            Ok(hash) => item.blob_hash = Some(hash),
            Err(message) => item
                .warnings
                .push(format!("Seed content not applied: {message}")),
        }
    }
    item
}

/// Append `content` under a new `## Context` heading; returns the new blob hash.
fn seed_context(
    context: &ServerContext,
    storage: &dyn Storage,
    path: &str,
    content: &str,
) -> Result<String, String> {
    let bytes = storage.read(path).map_err(|e| e.to_string())?;
    let doc = Document::from_bytes(path, bytes).map_err(|e| e.to_string())?;
    let start = frontmatter::split(&doc.text)
        .map(|s| s.close.end)
        .unwrap_or(0);
    let content = content.replace("\r\n", "\n");
    let body = format!(
        "{}\n\n## Context\n\n{}\n",
        doc.text[start..].trim_end_matches(['\n', '\r']),
        content.trim_matches('\n')
    );
    let request = EditRequest {
        reference: path.to_owned(),
        body: Some(body),
        ..EditRequest::default()
    };
    let single = Corpus::from_docs(vec![doc], Vec::new());
    let (edited, change) =
        plan_edit(&single, &request, context.today()).map_err(|e| e.to_string())?;
    ops::apply(storage, change.as_slice()).map_err(|e| e.to_string())?;
    Ok(edited.blob_hash)
}
