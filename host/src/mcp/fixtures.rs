//! The MCP conformance suite's fixture tools (`test_simple_text`,
//! `test_image_content`, …), served beside the hot tools only in a build
//! with the `conformance-fixtures` feature, which `tests/conformance/run.sh`
//! makes; the shipped binary never has them.
//!
//! Each answers as the suite's scenario asks. The progress fixture only
//! waits: the notifications it is judged on come from the server's own
//! reporter ([`super::progress`]), the one every long call uses.
// The 2025-11-25 scenarios test logging, which 2026-07-28 deprecates.
#![allow(deprecated)]

use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolResult, ContentBlock, LoggingLevel, LoggingMessageNotificationParam, Tool,
};
use rmcp::service::Peer;
use serde_json::json;

/// A 1×1 PNG.
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/// A WAV file of eight silent 8-bit samples at 8 kHz.
const WAV: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/// The fixtures, each with what it returns.
const FIXTURES: [(&str, &str); 8] = [
    ("test_simple_text", "Returns one text block."),
    ("test_image_content", "Returns one PNG image block."),
    ("test_audio_content", "Returns one WAV audio block."),
    (
        "test_embedded_resource",
        "Returns one embedded text resource.",
    ),
    (
        "test_multiple_content_types",
        "Returns text, an image and a resource.",
    ),
    (
        "test_tool_with_logging",
        "Logs three messages, then returns text.",
    ),
    (
        "test_tool_with_progress",
        "Runs 1.7 s, so its progress is reported three times.",
    ),
    ("test_error_handling", "Always fails with a tool error."),
];

/// The fixture tools, for `tools/list`.
pub fn tools() -> Vec<Tool> {
    let schema = Arc::new(
        json!({"type": "object", "properties": {}})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    FIXTURES
        .iter()
        .map(|(name, description)| Tool::new(*name, *description, schema.clone()))
        .collect()
}

/// The result of the fixture `name`, or `None` when it is no fixture.
pub async fn call(name: &str, peer: &Peer<RoleServer>) -> Option<CallToolResult> {
    let text = |t: &str| ContentBlock::text(t);
    let image = || ContentBlock::image(PNG, "image/png");
    let resource =
        || ContentBlock::embedded_text("test://embedded-resource", "An embedded resource.");
    Some(match name {
        "test_simple_text" => CallToolResult::success(vec![text("A simple text reply.")]),
        "test_image_content" => CallToolResult::success(vec![image()]),
        "test_audio_content" => {
            CallToolResult::success(vec![ContentBlock::audio(WAV, "audio/wav")])
        }
        "test_embedded_resource" => CallToolResult::success(vec![resource()]),
        "test_multiple_content_types" => {
            CallToolResult::success(vec![text("Three kinds of content."), image(), resource()])
        }
        "test_tool_with_logging" => {
            for step in ["starting", "working", "done"] {
                let note = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(step));
                let _ = peer.notify_logging_message(note).await;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            CallToolResult::success(vec![text("Logged three messages.")])
        }
        "test_tool_with_progress" => {
            tokio::time::sleep(Duration::from_millis(1700)).await;
            CallToolResult::success(vec![text("Done after 1.7 s.")])
        }
        "test_error_handling" => CallToolResult::error(vec![text("This tool always fails.")]),
        _ => return None,
    })
}
