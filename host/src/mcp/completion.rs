//! `completion/complete`: values for the skill prompts' arguments and the
//! resource templates' variables, from the loaded vault: feature names,
//! document stems, and the step ids of the plan a prompt names.

use rmcp::ErrorData;
use rmcp::model::{CompleteRequestParams, CompleteResult, CompletionInfo, Reference};

use super::prompts;
use super::resources::{self, DOCUMENT_TEMPLATE, FEATURE_TEMPLATE};
use super::vault_cache::LoadedVault;

/// The values for one request: at most [`CompletionInfo::MAX_VALUES`], with
/// the total and whether more match.
pub fn complete(
    loaded: &LoadedVault,
    request: &CompleteRequestParams,
) -> Result<CompleteResult, ErrorData> {
    let argument = request.argument.name.as_str();
    let prefix = request.argument.value.as_str();
    let unknown = |what: String| ErrorData::invalid_params(what, None);
    let values: Vec<String> = match &request.r#ref {
        Reference::Prompt(prompt) => match argument {
            "feature" => resources::features(loaded, prefix),
            "document" => to_owned(resources::stems(loaded, prefix)),
            "step" => {
                let plan = request
                    .context
                    .as_ref()
                    .and_then(|c| c.get_argument("document"))
                    .map(String::as_str);
                prompts::steps(loaded, plan, prefix)
            }
            "task" => Vec::new(),
            other => {
                return Err(unknown(format!(
                    "prompt '{}' has no argument '{other}' to complete",
                    prompt.name
                )));
            }
        },
        Reference::Resource(template) => match (template.uri.as_str(), argument) {
            (DOCUMENT_TEMPLATE, "stem") => to_owned(resources::stems(loaded, prefix)),
            (FEATURE_TEMPLATE, "feature") => resources::features(loaded, prefix),
            (uri, other) => {
                return Err(unknown(format!(
                    "no template '{uri}' with a variable '{other}'; the templates are {DOCUMENT_TEMPLATE} and {FEATURE_TEMPLATE}"
                )));
            }
        },
        _ => {
            return Err(unknown(
                "only prompt and resource template references complete".into(),
            ));
        }
    };
    let total = values.len();
    let shown: Vec<String> = values
        .into_iter()
        .take(CompletionInfo::MAX_VALUES)
        .collect();
    let has_more = total > shown.len();
    let info = CompletionInfo::with_pagination(shown, u32::try_from(total).ok(), has_more)
        .map_err(|err| ErrorData::internal_error(err, None))?;
    Ok(CompleteResult::new(info))
}

fn to_owned(values: Vec<&str>) -> Vec<String> {
    values.into_iter().map(str::to_owned).collect()
}
