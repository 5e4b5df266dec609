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
    CallToolResult, ContentBlock, CustomRequest, LoggingLevel, LoggingMessageNotificationParam,
    ServerRequest, Tool,
};
use rmcp::service::Peer;
use serde_json::json;

/// A 1×1 PNG.
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/// A WAV file of eight silent 8-bit samples at 8 kHz.
const WAV: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/// The fixtures, each with what it returns.
const FIXTURES: [(&str, &str); 12] = [
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
    (
        "test_sampling",
        "Asks the client's model to answer `prompt`.",
    ),
    (
        "test_elicitation",
        "Asks the user for a name and an e-mail address.",
    ),
    (
        "test_elicitation_sep1034_defaults",
        "Asks the user, with a default for every kind of field.",
    ),
    (
        "test_elicitation_sep1330_enums",
        "Asks the user to choose, in each kind of enum.",
    ),
];

/// The arguments each fixture takes, by name (none take others).
fn input(name: &str) -> serde_json::Value {
    let string = |key: &str| {
        json!({"type": "object", "required": [key],
               "properties": {key: {"type": "string"}}})
    };
    match name {
        "test_sampling" => string("prompt"),
        "test_elicitation" => string("message"),
        _ => json!({"type": "object", "properties": {}}),
    }
}

/// The fixture tools, for `tools/list`.
pub fn tools() -> Vec<Tool> {
    FIXTURES
        .iter()
        .map(|(name, description)| {
            let schema = input(name).as_object().cloned().unwrap_or_default();
            Tool::new(*name, *description, Arc::new(schema))
        })
        .collect()
}

/// Ask the client `method` with `params`; the answer as text, or the error.
async fn ask(
    peer: &Peer<RoleServer>,
    method: &str,
    params: serde_json::Value,
) -> Result<String, String> {
    let request = ServerRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    match peer.send_request(request).await {
        Ok(answer) => Ok(serde_json::to_string(&answer).unwrap_or_default()),
        Err(err) => Err(format!("the client did not answer `{method}`: {err}")),
    }
}

/// A form for the user: `properties`, none required unless `required`.
fn form(message: &str, properties: serde_json::Value, required: &[&str]) -> serde_json::Value {
    json!({"message": message, "requestedSchema":
        {"type": "object", "properties": properties, "required": required}})
}

/// The result of the fixture `name`, or `None` when it is no fixture.
pub async fn call(
    name: &str,
    arguments: Option<&serde_json::Map<String, serde_json::Value>>,
    peer: &Peer<RoleServer>,
) -> Option<CallToolResult> {
    let argument = |key: &str| {
        arguments
            .and_then(|a| a.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let asked = |answer: Result<String, String>, said: &str| match answer {
        Ok(answer) => {
            CallToolResult::success(vec![ContentBlock::text(format!("{said}: {answer}"))])
        }
        Err(err) => CallToolResult::error(vec![ContentBlock::text(err)]),
    };
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
        "test_sampling" => {
            let params = json!({"maxTokens": 100, "messages": [{"role": "user",
                "content": {"type": "text", "text": argument("prompt")}}]});
            asked(
                ask(peer, "sampling/createMessage", params).await,
                "LLM response",
            )
        }
        "test_elicitation" => {
            let fields = json!({
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            });
            let params = form(&argument("message"), fields, &["username", "email"]);
            asked(
                ask(peer, "elicitation/create", params).await,
                "User response",
            )
        }
        "test_elicitation_sep1034_defaults" => {
            let fields = json!({
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {"type": "string", "description": "User status",
                           "enum": ["active", "inactive", "pending"], "default": "active"},
                "verified": {"type": "boolean", "description": "Verification status", "default": true},
            });
            let params = form("Accept or change the defaults.", fields, &[]);
            asked(
                ask(peer, "elicitation/create", params).await,
                "Elicitation completed",
            )
        }
        "test_elicitation_sep1330_enums" => {
            let fields = json!({
                "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                "titledSingle": {"type": "string", "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}]},
                "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                               "enumNames": ["Option One", "Option Two", "Option Three"]},
                "untitledMulti": {"type": "array",
                                  "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                "titledMulti": {"type": "array", "items": {"anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"}]}},
            });
            let params = form("Choose in each kind of list.", fields, &[]);
            asked(
                ask(peer, "elicitation/create", params).await,
                "Elicitation completed",
            )
        }
        _ => return None,
    })
}

/// The text the fixture resources and prompts carry.
const FIXTURE_TEXT: &str = "This is the conformance suite's fixture content.";

/// A fixture resource's contents, for the URIs the suite reads.
pub fn read_resource(uri: &str) -> Option<rmcp::model::ReadResourceResult> {
    use rmcp::model::{ReadResourceResult, ResourceContents};
    let contents = match uri {
        "test://static-text" => ResourceContents::text(FIXTURE_TEXT, uri),
        "test://static-binary" => ResourceContents::blob(PNG, uri).with_mime_type("image/png"),
        "test://watched-resource" => ResourceContents::text(FIXTURE_TEXT, uri),
        _ => {
            let id = uri
                .strip_prefix("test://template/")?
                .strip_suffix("/data")?;
            ResourceContents::text(format!("{{\"id\":\"{id}\",\"data\":\"fixture\"}}"), uri)
                .with_mime_type("application/json")
        }
    };
    Some(ReadResourceResult::new(vec![contents]))
}

/// Whether `uri` is the fixture resource the suite subscribes to.
pub fn subscribable(uri: &str) -> bool {
    uri == "test://watched-resource"
}

/// The fixture prompts, with their arguments.
pub fn prompts() -> Vec<rmcp::model::Prompt> {
    use rmcp::model::{Prompt, PromptArgument};
    let argument = |name: &str| {
        PromptArgument::new(name)
            .with_description(format!("The fixture's {name}."))
            .with_required(true)
    };
    vec![
        Prompt::new("test_simple_prompt", Some("A prompt of one message."), None),
        Prompt::new(
            "test_prompt_with_arguments",
            Some("A prompt that repeats its two arguments."),
            Some(vec![argument("arg1"), argument("arg2")]),
        ),
        Prompt::new(
            "test_prompt_with_embedded_resource",
            Some("A prompt that embeds the resource it names."),
            Some(vec![argument("resourceUri")]),
        ),
        Prompt::new(
            "test_prompt_with_image",
            Some("A prompt with an image."),
            None,
        ),
    ]
}

/// A fixture prompt rendered for `args`.
pub fn get_prompt(
    name: &str,
    args: &serde_json::Map<String, serde_json::Value>,
) -> Option<rmcp::model::GetPromptResult> {
    use rmcp::model::{GetPromptResult, PromptMessage, Role};
    let arg = |key: &str| {
        args.get(key)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_owned()
    };
    let messages = match name {
        "test_simple_prompt" => vec![PromptMessage::new_text(Role::User, FIXTURE_TEXT)],
        "test_prompt_with_arguments" => vec![PromptMessage::new_text(
            Role::User,
            format!("First: {}; second: {}.", arg("arg1"), arg("arg2")),
        )],
        "test_prompt_with_embedded_resource" => vec![
            PromptMessage::new_resource(
                Role::User,
                arg("resourceUri"),
                Some("text/plain".into()),
                Some(FIXTURE_TEXT.into()),
                None,
                None,
                None,
            ),
            PromptMessage::new_text(Role::User, "Read the resource above."),
        ],
        "test_prompt_with_image" => vec![
            PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")),
            PromptMessage::new_text(Role::User, "Describe the image above."),
        ],
        _ => return None,
    };
    Some(GetPromptResult::new(messages))
}

/// Completion of the fixture prompt's arguments.
pub fn complete(
    request: &rmcp::model::CompleteRequestParams,
) -> Option<rmcp::model::CompleteResult> {
    use rmcp::model::{CompleteResult, CompletionInfo};
    if request.r#ref.as_prompt_name() != Some("test_prompt_with_arguments") {
        return None;
    }
    let values = ["testValue1", "testValue2", "test"]
        .into_iter()
        .filter(|v| v.starts_with(&request.argument.value))
        .map(str::to_owned)
        .collect();
    Some(CompleteResult::new(
        CompletionInfo::with_all_values(values).ok()?,
    ))
}
