//! The batch envelope of `create` and `edit` (`spec/mcp-tools.md` §6.3).
//!
//! Every submitted item is counted, but only the notable ones (failed, or
//! carrying a warning) and the first twenty plain successes are listed, so a
//! batch of 200 creations does not flood the reply.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// The most items a batch tool accepts in one call.
pub const MAX_BATCH_ITEMS: usize = 200;

/// How many plain successes are listed before the rest are only counted.
pub const MAX_ENUMERATED_SUCCESSES: usize = 20;

/// The outcome of one batch item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Position in the submitted batch.
    pub index: usize,
    /// What the item aimed at (`adr:cache-layer`, a document reference).
    pub target: Option<String>,
    /// `created`, `updated`, `unchanged` or `failed`.
    pub status: &'static str,
    /// Workspace-relative path of the document, when known.
    pub path: Option<String>,
    /// Git blob id of the written bytes, on success.
    pub blob_hash: Option<String>,
    /// The failure: `message` plus any machine-readable keys.
    pub error: Option<Map<String, Value>>,
    /// Things worth knowing about a success.
    pub warnings: Vec<String>,
}

impl Item {
    /// A failed item with `message`.
    pub fn failed(index: usize, target: Option<String>, message: impl Into<String>) -> Self {
        let mut error = Map::new();
        error.insert("message".into(), Value::from(message.into()));
        Self {
            index,
            target,
            status: "failed",
            path: None,
            blob_hash: None,
            error: Some(error),
            warnings: Vec::new(),
        }
    }

    fn notable(&self) -> bool {
        self.status == "failed" || !self.warnings.is_empty()
    }

    fn to_json(&self) -> Value {
        let mut item = Map::new();
        item.insert("index".into(), json!(self.index));
        if let Some(target) = &self.target {
            item.insert("target".into(), json!(target));
        }
        item.insert("status".into(), json!(self.status));
        if let Some(path) = &self.path {
            item.insert("path".into(), json!(path));
        }
        if let Some(hash) = &self.blob_hash {
            item.insert("blob_hash".into(), json!(hash));
        }
        if let Some(error) = &self.error {
            item.insert("error".into(), Value::Object(error.clone()));
        }
        item.insert("warnings".into(), json!(self.warnings));
        Value::Object(item)
    }
}

/// Refuse an empty or oversized batch before anything is written.
pub fn check_size(tool: &str, noun: &str, submitted: usize) -> Result<(), String> {
    if submitted == 0 {
        return Err(format!("{tool} requires at least one {noun}"));
    }
    if submitted > MAX_BATCH_ITEMS {
        return Err(format!(
            "{tool} accepts at most {MAX_BATCH_ITEMS} items per call; got {submitted}. Split the batch."
        ));
    }
    Ok(())
}

/// The envelope and its summary line for a finished batch.
pub fn envelope(items: &[Item]) -> (String, Value) {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for item in items {
        *counts.entry(item.status).or_default() += 1;
    }
    let failed = counts.get("failed").copied().unwrap_or(0);
    let status = if failed == 0 {
        "ok"
    } else if failed == items.len() {
        "failed"
    } else {
        "mixed"
    };
    let mut plain = 0;
    let kept: Vec<Value> = items
        .iter()
        .filter(|item| {
            if item.notable() {
                return true;
            }
            plain += 1;
            plain <= MAX_ENUMERATED_SUCCESSES
        })
        .map(Item::to_json)
        .collect();
    let summary_counts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
    let summary = format!("{status}: {}", summary_counts.join(", "));
    let value = json!({
        "status": status,
        "items": kept,
        "counts": counts,
        "submitted": items.len(),
        "items_omitted": items.len() - kept.len(),
    });
    (summary, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn success(index: usize) -> Item {
        Item {
            index,
            target: None,
            status: "created",
            path: Some(format!(".vault/adr/{index}.md")),
            blob_hash: None,
            error: None,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn notable_items_and_the_first_twenty_successes_are_listed() {
        let mut items: Vec<Item> = (0..30).map(success).collect();
        items[25] = Item::failed(25, None, "nope");
        items[27].warnings.push("careful".into());
        let (summary, value) = envelope(&items);
        assert_eq!(summary, "mixed: 29 created, 1 failed");
        let listed: Vec<u64> = value["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["index"].as_u64().unwrap())
            .collect();
        let mut expected: Vec<u64> = (0..20).collect();
        expected.extend([25, 27]);
        assert_eq!(listed, expected);
        assert_eq!(value["items_omitted"], 8);
        assert_eq!(value["counts"]["created"], 29);
    }

    #[test]
    fn empty_and_oversized_batches_are_refused() {
        assert_eq!(
            check_size("edit", "operation", 0).unwrap_err(),
            "edit requires at least one operation"
        );
        let err = check_size("create", "document spec", 201).unwrap_err();
        assert_eq!(
            err,
            "create accepts at most 200 items per call; got 201. Split the batch."
        );
    }
}
