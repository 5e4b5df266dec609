//! `edit`: body edits in a batch — replace a body, or replace or append to
//! one section — each guarded by an optional blob hash (`spec/mcp-tools.md`
//! §6.4). Frontmatter and file names never change here.

use serde::Deserialize;
use serde_json::{Map, Value, json};
use vaultspec_vault::frontmatter;
use vaultspec_vault::ops::edit::{EditRequest, plan_edit};
use vaultspec_vault::ops::section::{self, SectionOp};
use vaultspec_vault::ops::{self, Status};
use vaultspec_vault::{Corpus, Document, Error, Storage, resolve};

use super::parse;
use crate::mcp::batch::{Item, check_size, envelope};
use crate::mcp::context::ServerContext;
use crate::mcp::reply::{Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    operations: Vec<Operation>,
}

#[derive(Deserialize)]
struct Operation {
    target: String,
    operation: String,
    content: String,
    section: Option<String>,
    expected_blob_hash: Option<String>,
}

/// Apply each operation in order; one failure never stops the rest.
pub fn call(context: &ServerContext, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    check_size("edit", "operation", args.operations.len())?;
    let storage = context.storage()?;
    let _lock = context.lock_writes()?;
    let corpus = Corpus::load(&storage)?;
    let items: Vec<Item> = args
        .operations
        .iter()
        .enumerate()
        .map(|(index, op)| edit_one(context, &storage, &corpus, index, op))
        .collect();
    let (summary, value) = envelope(&items);
    Ok(Reply {
        summary,
        structured: value.into(),
    })
}

fn edit_one(
    context: &ServerContext,
    storage: &dyn Storage,
    corpus: &Corpus,
    index: usize,
    op: &Operation,
) -> Item {
    let target = Some(op.target.clone());
    let fail = |message: String| Item::failed(index, target.clone(), message);
    let Some(kind) = SectionOp::parse(&op.operation) else {
        return fail(format!("Unknown edit operation: {}", op.operation));
    };
    let section = op.section.as_deref().filter(|s| !s.trim().is_empty());
    if kind.needs_section() && section.is_none() {
        return fail(format!("'{}' requires a section heading", op.operation));
    }
    let path = match resolve::resolve(corpus, &op.target) {
        Ok(doc) => doc.path.clone(),
        Err(_) => return fail(format!("Cannot resolve document: '{}'", op.target)),
    };
    let _sentinel = match context.lock_document(&path) {
        Ok(sentinel) => sentinel,
        Err(err) => return with_path(fail(format!("{err:#}")), &path),
    };
    // Re-read: an earlier item of this batch may have changed the file.
    let doc = match storage
        .read(&path)
        .map_err(Error::from)
        .and_then(|b| Document::from_bytes(&path, b))
    {
        Ok(doc) => doc,
        Err(err) => return with_path(fail(err.to_string()), &path),
    };
    let body_start = frontmatter::split(&doc.text)
        .map(|s| s.close.end)
        .unwrap_or(0);
    let body = match section::apply(&doc.text[body_start..], kind, section, &op.content) {
        Ok(body) => body,
        Err(heading) => {
            let mut item = with_path(fail(format!("Section not found: '{heading}'")), &path);
            if let Some(error) = item.error.as_mut() {
                error.insert("section_not_found".into(), json!(true));
                error.insert("section".into(), json!(heading));
            }
            return item;
        }
    };
    let request = EditRequest {
        reference: path.clone(),
        body: Some(body),
        expected_blob_hash: op.expected_blob_hash.clone(),
        ..EditRequest::default()
    };
    let single = Corpus::from_docs(vec![doc], Vec::new());
    let planned = plan_edit(&single, &request, context.today())
        .and_then(|(edited, change)| ops::apply(storage, change.as_slice()).map(|()| edited));
    match planned {
        Ok(edited) => Item {
            index,
            target,
            status: if edited.status == Status::Unchanged {
                "unchanged"
            } else {
                "updated"
            },
            path: Some(path),
            blob_hash: Some(edited.blob_hash),
            error: None,
            warnings: Vec::new(),
        },
        Err(err) => {
            let mut item = with_path(fail(failure_message(&err)), &path);
            if let (Some(error), Some(extra)) = (item.error.as_mut(), error_keys(context, &err)) {
                error.extend(extra);
            }
            item
        }
    }
}

fn with_path(mut item: Item, path: &str) -> Item {
    item.path = Some(path.to_owned());
    item
}

fn failure_message(err: &Error) -> String {
    match err {
        Error::Conflict { .. } => {
            "Blob-hash conflict: document changed on disk since it was read".to_owned()
        }
        other => other.to_string(),
    }
}

/// The machine-readable keys of an edit-engine failure.
fn error_keys(context: &ServerContext, err: &Error) -> Option<Map<String, Value>> {
    let mut keys = Map::new();
    match err {
        Error::Conflict {
            path,
            expected,
            actual,
        } => {
            keys.insert("conflict".into(), json!(true));
            keys.insert("expected".into(), json!(expected));
            keys.insert("actual".into(), json!(actual));
            keys.insert(
                "path".into(),
                json!(context.workspace.root().join(path).display().to_string()),
            );
        }
        Error::Refused {
            findings, errors, ..
        } => {
            keys.insert("refused".into(), json!(true));
            keys.insert(
                "checks".into(),
                serde_json::to_value(findings).unwrap_or_default(),
            );
            if !errors.is_empty() {
                keys.insert("errors".into(), json!(errors));
            }
        }
        _ => return None,
    }
    Some(keys)
}
