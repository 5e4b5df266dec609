//! Packaging tool results the way every hot tool answers (`spec/mcp-tools.md`
//! §2–3): one short summary line plus the structured payload, or a tool error.
//!
//! Beyond the reference, `content` also carries the payload as JSON text,
//! after the summary: the protocol asks a tool that returns structured
//! content to send it as text too, for clients that show only `content`.
//! The summary stays the first block, and the response cap weighs the
//! reply as the reference sends it (the copy is not counted twice).

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use super::splice::Splice;

/// The longest summary line a tool sends.
pub const SUMMARY_LIMIT: usize = 200;

/// The largest serialized reply `find` and `invoke` may send.
pub const RESPONSE_LIMIT: usize = 128 * 1024;

/// A tool's successful answer: a summary for people, the payload for programs.
#[derive(Debug, Clone)]
pub struct Reply {
    /// One line, at most [`SUMMARY_LIMIT`] characters once sent.
    pub summary: String,
    /// The structured payload (always an object).
    pub structured: Payload,
}

/// A reply's structured payload, as made or as kept.
#[derive(Debug, Clone)]
pub enum Payload {
    /// Made for this call.
    Value(Value),
    /// A kept reply's payload, written as JSON when it was made: shared by
    /// every call that asks for it again instead of copied into each.
    Written(Arc<str>),
}

impl From<Value> for Payload {
    fn from(value: Value) -> Self {
        Self::Value(value)
    }
}

impl Payload {
    /// The payload as a JSON value (a written one is read back).
    pub fn into_value(self) -> Value {
        match self {
            Self::Value(value) => value,
            Self::Written(json) => {
                serde_json::from_str(&json).expect("a kept payload is the JSON it was written as")
            }
        }
    }
}

/// Why a whole call failed or was refused, as the client is told it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolError {
    /// A handler refusal: sent as `Error executing tool <name>: <message>`.
    Tool(String),
    /// Sent as the bare text (unknown tool, read-only guard).
    Bare(String),
}

impl ToolError {
    /// A handler refusal with this message.
    pub fn tool(message: impl Into<String>) -> Self {
        Self::Tool(message.into())
    }
}

impl<E: std::fmt::Display> From<E> for ToolError {
    fn from(err: E) -> Self {
        Self::Tool(err.to_string())
    }
}

/// The result of one tool call.
pub type ToolResult = Result<Reply, ToolError>;

/// Cut a summary to [`SUMMARY_LIMIT`] characters.
pub fn clip_summary(summary: &str) -> String {
    let line = summary.lines().next().unwrap_or("");
    line.chars().take(SUMMARY_LIMIT).collect()
}

/// Turn a tool's outcome into the wire result. A written payload goes as
/// a stand-in `splice` puts it back for, when the transport has one.
pub fn package(tool: &str, result: ToolResult, splice: Option<&Splice>) -> CallToolResult {
    match result {
        Ok(reply) => {
            // Not `CallToolResult::structured`, which would also write the
            // whole payload out as text only for it to be replaced.
            let summary = ContentBlock::text(clip_summary(&reply.summary));
            let (structured, copy) = match (reply.structured, splice) {
                (Payload::Written(json), Some(splice)) => {
                    let copy = json.to_string();
                    (splice.stand_in(json), copy)
                }
                (payload, _) => {
                    let value = payload.into_value();
                    let copy = value.to_string();
                    (value, copy)
                }
            };
            let mut result = CallToolResult::success(vec![summary, ContentBlock::text(copy)]);
            result.structured_content = Some(structured);
            result
        }
        Err(ToolError::Tool(message)) => CallToolResult::error(vec![ContentBlock::text(format!(
            "Error executing tool {tool}: {message}"
        ))]),
        Err(ToolError::Bare(message)) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

/// The size of a result as the response cap counts it: its JSON with
/// non-ASCII characters escaped.
pub fn wire_size(result: &CallToolResult) -> usize {
    let json = serde_json::to_string(result).unwrap_or_default();
    json.chars()
        .map(|c| {
            if c.is_ascii() {
                1
            } else if (c as u32) > 0xFFFF {
                12
            } else {
                6
            }
        })
        .sum()
}

/// Replace a result over [`RESPONSE_LIMIT`] with the refusal the spec names
/// (the work it reports has already happened). `result` must carry its
/// whole payload (no stand-in), or its size would not count it; its text
/// copy of the payload is left out of the count, as the reference sends
/// none.
pub fn cap_response(tool: &str, result: CallToolResult) -> CallToolResult {
    let mut counted = result.clone();
    counted.content.truncate(1);
    if wire_size(&counted) > RESPONSE_LIMIT {
        package(
            tool,
            Err(ToolError::tool(format!(
                "Response exceeds {RESPONSE_LIMIT} bytes; tool already ran"
            ))),
            None,
        )
    } else {
        result
    }
}

/// `"1 row"` / `"3 rows"`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_carries_the_tool_prefix_but_a_bare_one_does_not() {
        let result = package("find", Err(ToolError::tool("limit too high")), None);
        assert_eq!(result.is_error, Some(true));
        let text = serde_json::to_value(&result.content).unwrap();
        assert_eq!(text[0]["text"], "Error executing tool find: limit too high");
        let result = package(
            "edit",
            Err(ToolError::Bare("Unknown tool: edit".into())),
            None,
        );
        assert_eq!(
            serde_json::to_value(&result.content).unwrap()[0]["text"],
            "Unknown tool: edit"
        );
    }

    #[test]
    fn summaries_are_one_line_of_at_most_200_characters() {
        assert_eq!(clip_summary(&"x".repeat(300)).len(), 200);
        assert_eq!(clip_summary("first\nsecond"), "first");
    }

    #[test]
    fn a_success_carries_its_summary_then_its_payload_as_json_text() {
        let payload = serde_json::json!({"result": [{"path": ".vault/adr/a.md"}]});
        let reply = Reply {
            summary: "1 row".into(),
            structured: payload.clone().into(),
        };
        let result = package("find", Ok(reply), None);
        let content = serde_json::to_value(&result.content).unwrap();
        assert_eq!(content[0]["text"], "1 row");
        let copy: Value = serde_json::from_str(content[1]["text"].as_str().unwrap()).unwrap();
        assert_eq!(copy, payload);
        assert_eq!(result.structured_content, Some(payload));
    }

    #[test]
    fn the_text_copy_does_not_count_against_the_response_cap() {
        // 100 KB of payload: under the cap once, over it if counted twice.
        let reply = Reply {
            summary: "rows".into(),
            structured: serde_json::json!({"text": "x".repeat(100_000)}).into(),
        };
        let result = cap_response("find", package("find", Ok(reply), None));
        assert_ne!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 2);
    }

    #[test]
    fn an_oversized_reply_becomes_the_response_cap_refusal() {
        let big = Reply {
            summary: "big".into(),
            structured: serde_json::json!({"text": "é".repeat(30_000)}).into(),
        };
        let result = cap_response("find", package("find", Ok(big), None));
        let text = serde_json::to_value(&result.content).unwrap();
        assert_eq!(
            text[0]["text"],
            "Error executing tool find: Response exceeds 131072 bytes; tool already ran"
        );
    }
}
