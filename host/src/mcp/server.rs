//! The MCP server: `tools/list` from the definitions, `tools/call` through the
//! argument checks to the tool, and the result packaged as the spec says.
//!
//! Order of a call: unknown tool (bare error) → read-only argument guard
//! (bare error) → schema validation (tool error) → the tool: a native one on
//! a blocking thread so concurrent calls keep flowing, under
//! [`TOOL_DEADLINE`]; `invoke` on the runtime, under its own timeout →
//! summary + structured payload, with the 128 KiB cap for `find`.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};

use super::context::ServerContext;
use super::instructions::{SERVER_NAME, instructions};
use super::progress::Progress;
use super::reply::{ToolError, ToolResult, cap_response, package};
use super::schema::validate;
use super::splice::Splice;
use super::tools::{self, ToolDef, definitions};

/// The longest a native tool may take. Past it the client gets a tool error
/// naming the tool and the deadline, and the server goes on serving; the
/// abandoned thread ends on its own (its lock waits give up by this deadline
/// too). `invoke` runs under its own per-call timeout instead.
pub const TOOL_DEADLINE: Duration = Duration::from_secs(60);

/// The vaultspec MCP server for one workspace.
#[derive(Clone)]
pub struct VaultServer {
    context: Arc<ServerContext>,
    tools: Arc<Vec<ToolDef>>,
    /// Where kept payloads go as stand-ins, when the transport splices.
    splice: Option<Arc<Splice>>,
}

impl VaultServer {
    /// A server over `context`, in its mode.
    pub fn new(context: ServerContext) -> Self {
        let tools = Arc::new(definitions(context.read_only));
        Self {
            context: Arc::new(context),
            tools,
            splice: None,
        }
    }

    /// This server, packaging kept payloads as stand-ins of `splice` (for
    /// a transport that writes through its [`SpliceWriter`](super::splice::SpliceWriter)).
    pub fn with_splice(mut self, splice: Arc<Splice>) -> Self {
        self.splice = Some(splice);
        self
    }

    /// Load the vault in the background (see [`super::vault_cache::preload`]),
    /// and have the rollup ready: an agent's first call is most often
    /// `status`. `then` runs after, on the same thread.
    pub fn preload(&self, then: impl FnOnce() + Send + 'static) {
        super::vault_cache::preload(
            self.context.clone(),
            |context| {
                let _ = super::tools::call(context, "status", serde_json::json!({}));
            },
            then,
        );
    }

    /// The `Tool` records `tools/list` returns.
    pub fn tool_list(&self) -> Vec<Tool> {
        #[allow(unused_mut)] // the fixtures join only in a conformance build
        let mut tools: Vec<Tool> = self.tools.iter().map(to_tool).collect();
        #[cfg(feature = "conformance-fixtures")]
        tools.extend(super::fixtures::tools());
        tools
    }

    /// Run one tool call to its packaged result.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
    ) -> rmcp::model::CallToolResult {
        let Some(def) = self.tools.iter().find(|t| t.name == name) else {
            return package(
                name,
                Err(ToolError::Bare(format!("Unknown tool: {name}"))),
                None,
            );
        };
        let args = Value::Object(arguments.unwrap_or_default());
        if let Err(guard) = read_only_guard(self.context.read_only, name, &args) {
            return package(name, Err(ToolError::Bare(guard)), None);
        }
        if let Err(problem) = validate(&def.input, &args) {
            return package(name, Err(ToolError::tool(problem)), None);
        }
        tracing::info!(tool = name, arguments = %args, "tool call");
        let context = self.context.clone();
        let tool = name.to_owned();
        let outcome: ToolResult = if name == "invoke" {
            // `invoke` bounds itself: its timeout covers the verb and every
            // wait of the call (see `Sandbox::call`).
            tools::invoke::call(&context, args).await
        } else {
            match tokio::time::timeout(TOOL_DEADLINE, run_blocking(context, tool, args)).await {
                Ok(outcome) => outcome,
                Err(_) => Err(ToolError::tool(format!(
                    "the `{name}` tool did not finish within its {} s deadline and was abandoned",
                    TOOL_DEADLINE.as_secs()
                ))),
            }
        };
        if let Err(ToolError::Tool(message) | ToolError::Bare(message)) = &outcome {
            tracing::info!("Tool '{name}' failed: \"{message}\"");
        }
        if name == "find" || name == "invoke" {
            // The cap weighs the whole payload: no stand-in.
            cap_response(name, package(name, outcome, None))
        } else {
            package(name, outcome, self.splice.as_deref())
        }
    }
}

/// Run one native tool on a blocking thread.
async fn run_blocking(context: Arc<ServerContext>, tool: String, args: Value) -> ToolResult {
    match tokio::task::spawn_blocking(move || tools::call(&context, &tool, args)).await {
        Ok(outcome) => outcome,
        Err(err) => Err(ToolError::tool(format!(
            "the tool stopped unexpectedly: {err}"
        ))),
    }
}

/// The read-only argument guard (`spec/mcp-tools.md` §5), run before schema
/// validation so it sees arguments the schema would ignore.
fn read_only_guard(read_only: bool, tool: &str, args: &Value) -> Result<(), String> {
    if !read_only {
        return Ok(());
    }
    let keys: Vec<&str> = args
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    match tool {
        "check" if keys.contains(&"fix") => {
            Err("read-only check does not accept the 'fix' argument".into())
        }
        "crossref" if keys.iter().any(|k| *k != "ref" && *k != "body") => {
            Err("read-only crossref judges one 'ref' and writes nothing".into())
        }
        _ => Ok(()),
    }
}

fn to_tool(def: &ToolDef) -> Tool {
    let object = |v: &Value| Arc::new(v.as_object().cloned().unwrap_or_default());
    let mut annotations = ToolAnnotations::default();
    annotations.read_only_hint = Some(def.hints.read_only);
    annotations.destructive_hint = def.hints.destructive;
    annotations.idempotent_hint = Some(def.hints.idempotent);
    // No tool of ours reaches outside the machine: search and crossref rank
    // locally (the reference's `true` there described its hosted search).
    annotations.open_world_hint = Some(false);
    let mut tool = Tool::new(def.name, def.description, object(&def.input));
    tool.output_schema = Some(object(&def.output));
    tool.annotations = Some(annotations);
    tool
}

impl ServerHandler for VaultServer {
    fn get_info(&self) -> ServerConfig {
        #[cfg(not(feature = "conformance-fixtures"))]
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        // The logging fixture sends log messages, which a client may only
        // receive from a server that says it logs.
        #[cfg(feature = "conformance-fixtures")]
        #[allow(deprecated)] // as `set_level` below
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        let mut config = ServerConfig::new(capabilities);
        config.server_info = Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"));
        config.instructions = Some(instructions(self.context.read_only));
        config
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tool_list()))
    }

    /// Accepted in a conformance build, whose logging fixture logs.
    #[cfg(feature = "conformance-fixtures")]
    #[allow(deprecated)] // 2026-07-28 deprecates logging; 2025-11-25 tests it
    async fn set_level(
        &self,
        _request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).map(to_tool)
    }

    /// Run the call, reporting its progress while it runs when the client
    /// sent a progress token. A client's `notifications/cancelled` drops
    /// the call: a verb `invoke` runs stops at its next epoch tick and frees
    /// its slot; a native tool's thread finishes its work unheard. No reply
    /// goes to a cancelled request.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let _progress = context
            .meta
            .get_progress_token()
            .map(|token| Progress::start(context.peer.clone(), token, &request.name));
        #[cfg(feature = "conformance-fixtures")]
        if let Some(result) =
            super::fixtures::call(&request.name, request.arguments.as_ref(), &context.peer).await
        {
            return Ok(result.into());
        }
        tokio::select! {
            result = self.call(&request.name, request.arguments) => Ok(result.into()),
            () = context.ct.cancelled() => {
                tracing::info!(tool = %request.name, "the client cancelled the call");
                Err(ErrorData::internal_error("the client cancelled the call", None))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_read_only_guard_refuses_fix_and_sweep_arguments() {
        assert!(read_only_guard(true, "check", &json!({"fix": false})).is_err());
        assert!(read_only_guard(true, "check", &json!({"feature": "x"})).is_ok());
        assert!(read_only_guard(true, "crossref", &json!({"ref": "a", "apply": true})).is_err());
        assert!(read_only_guard(true, "crossref", &json!({"ref": "a", "body": "b"})).is_ok());
        assert!(read_only_guard(false, "check", &json!({"fix": true})).is_ok());
    }
}
