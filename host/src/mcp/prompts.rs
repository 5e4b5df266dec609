//! The framework's skills as MCP prompts: each skill installed under
//! `.vaultspec/skills/` is a prompt of the same name and description, with
//! four optional arguments; `prompts/get` renders the skill's instructions
//! for the request, the named document attached as an embedded resource.
//!
//! A skill that cannot be read (see [`Sources::read`]) is not listed; the
//! framework's own checks (`spec doctor`) name it.

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage, Role,
};
use serde_json::{Map, Value};
use vaultspec_vault::Storage;
use vaultspec_vault::framework::source::{Kind, Source, Sources};

use super::context::ServerContext;
use super::resources::{self, file_uri};
use super::vault_cache::LoadedVault;

/// Each argument every skill prompt takes, with what it means.
pub const ARGUMENTS: [(&str, &str); 4] = [
    ("task", "What to do with this skill, in a sentence or two."),
    (
        "feature",
        "The feature tag the work belongs to (kebab-case).",
    ),
    (
        "document",
        "The stem of a vault document to work from; its text comes attached.",
    ),
    (
        "step",
        "A step id of the plan named by `document` (S03), when the work is one step.",
    ),
];

/// The installed skills.
fn skills(storage: &dyn Storage) -> Vec<Source> {
    let mut sources = Sources::read(storage);
    sources.by_kind.remove(&Kind::Skill).unwrap_or_default()
}

/// Every skill, as a prompt.
pub fn list(storage: &dyn Storage) -> ListPromptsResult {
    let arguments: Vec<PromptArgument> = ARGUMENTS
        .iter()
        .map(|(name, description)| {
            PromptArgument::new(*name)
                .with_description(*description)
                .with_required(false)
        })
        .collect();
    let prompts = skills(storage)
        .iter()
        .map(|skill| {
            Prompt::new(
                &skill.name,
                Some(skill.description()),
                Some(arguments.clone()),
            )
        })
        .collect();
    ListPromptsResult::with_all_items(prompts)
}

/// The argument `name` of `args` as text; a non-string is refused.
fn text<'a>(args: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, ErrorData> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim())),
        Some(other) => Err(ErrorData::invalid_params(
            format!("prompt argument '{name}' must be a string, not {other}"),
            None,
        )),
    }
}

/// The skill `name` rendered for `args`.
pub fn get(
    context: &ServerContext,
    loaded: &LoadedVault,
    storage: &dyn Storage,
    name: &str,
    args: &Map<String, Value>,
) -> Result<GetPromptResult, ErrorData> {
    let skills = skills(storage);
    let skill = skills.iter().find(|s| s.name == name).ok_or_else(|| {
        let known: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        ErrorData::invalid_params(
            format!(
                "unknown prompt '{name}'; the prompts are the installed skills: {}",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ),
            None,
        )
    })?;
    if let Some(unknown) = args
        .keys()
        .find(|k| !ARGUMENTS.iter().any(|(name, _)| name == k))
    {
        return Err(ErrorData::invalid_params(
            format!(
                "prompt '{name}' takes no argument '{unknown}'; it takes task, feature, document and step"
            ),
            None,
        ));
    }
    let document = match text(args, "document")? {
        None => None,
        Some(stem) => Some(resources::by_stem(loaded, stem).map_err(|why| {
            ErrorData::invalid_params(format!("prompt argument 'document': {why}"), None)
        })?),
    };
    let mut request = Vec::new();
    if let Some(task) = text(args, "task")? {
        request.push(format!("Task: {task}"));
    }
    if let Some(feature) = text(args, "feature")? {
        request.push(format!(
            "Feature: `{}`",
            vaultspec_vault::doc::feature_arg(feature)
        ));
    }
    if let Some(doc) = document {
        request.push(format!("Work from `{}` (attached below).", doc.stem()));
    }
    if let Some(step) = text(args, "step")? {
        request.push(format!("Step: {step}"));
    }
    let mut text = format!(
        "Follow the `{}` skill below for this request.\n\n",
        skill.name
    );
    if !request.is_empty() {
        text.push_str(&request.join("\n"));
        text.push_str("\n\n");
    }
    text.push_str(skill.front.body.trim_start());
    let mut messages = vec![PromptMessage::new_text(Role::User, text)];
    if let Some(doc) = document {
        let bytes = storage.read(&doc.path).map_err(|err| {
            ErrorData::internal_error(format!("`{}` cannot be read: {err}", doc.path), None)
        })?;
        let body = String::from_utf8(bytes).map_err(|_| {
            ErrorData::internal_error(format!("`{}` is not UTF-8 text", doc.path), None)
        })?;
        messages.push(PromptMessage::new_resource(
            Role::User,
            file_uri(context, &doc.path),
            Some("text/markdown".into()),
            Some(body),
            None,
            None,
            None,
        ));
    }
    let mut result = GetPromptResult::new(messages);
    result.description = Some(skill.description());
    Ok(result)
}

/// The step ids of the plan whose stem is `plan`, beginning with `prefix`.
pub fn steps(loaded: &LoadedVault, plan: Option<&str>, prefix: &str) -> Vec<String> {
    let Some(doc) = plan.and_then(|stem| resources::by_stem(loaded, stem).ok()) else {
        return Vec::new();
    };
    let prefix = prefix.to_uppercase();
    vaultspec_vault::plan::parse_plan(&doc.text)
        .map(|plan| {
            plan.steps
                .into_iter()
                .map(|s| s.id)
                .filter(|id| id.to_uppercase().starts_with(&prefix))
                .collect()
        })
        .unwrap_or_default()
}
