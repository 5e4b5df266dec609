//! The MCP server: `tools/list` from the definitions, `tools/call` through the
//! argument checks to the tool, and the result packaged as the spec says;
//! beside the tools, the vault's documents as resources ([`super::resources`]),
//! the skills as prompts ([`super::prompts`]), completion of their
//! arguments ([`super::completion`]) and notifications of changes
//! ([`super::notify`]). Every mode serves all of them: none writes.
//!
//! Order of a call: unknown tool (bare error) → read-only argument guard
//! (bare error) → schema validation (tool error) → the tool: a native one on
//! a blocking thread so concurrent calls keep flowing, under
//! [`TOOL_DEADLINE`]; `invoke` on the runtime, under its own timeout →
//! summary + structured payload, with the 128 KiB cap for `find`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, Tool, ToolAnnotations, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};

use super::context::ServerContext;
use super::instructions::{SERVER_NAME, instructions};
use super::notify::{Change, Notifier, Session, uris_of};
use super::progress::Progress;
use super::reply::{ToolError, ToolResult, cap_response, package};
use super::schema::validate;
use super::splice::Splice;
use super::tools::{self, ToolDef, definitions};
use super::{completion, prompts, resources};

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
    /// The watcher that tells clients of changes, when the system has one.
    notifier: Option<Arc<Notifier>>,
    /// This client's subscriptions (one per HTTP session).
    session: Arc<Session>,
    /// Work that waits for a client to be answered ([`VaultServer::start_once_answered`]).
    startup: Arc<Mutex<Option<Startup>>>,
}

/// Start-up work, run once.
type Startup = Box<dyn FnOnce() + Send>;

impl VaultServer {
    /// A server over `context`, in its mode.
    pub fn new(context: ServerContext) -> Self {
        let tools = Arc::new(definitions(context.read_only));
        Self {
            context: Arc::new(context),
            tools,
            splice: None,
            notifier: None,
            session: Arc::default(),
            startup: Arc::default(),
        }
    }

    /// This server, telling its clients of changes `notifier` sees.
    pub fn with_notifier(mut self, notifier: Option<Arc<Notifier>>) -> Self {
        self.notifier = notifier;
        self
    }

    /// The same server for another client: shared vault, gateway and
    /// watcher, subscriptions of its own.
    pub fn for_session(&self) -> Self {
        Self {
            session: Arc::default(),
            ..self.clone()
        }
    }

    /// Run `work` on the context on a blocking thread (it reads files).
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&ServerContext) -> Result<T, ErrorData> + Send + 'static,
    ) -> Result<T, ErrorData> {
        let context = self.context.clone();
        tokio::task::spawn_blocking(move || work(&context))
            .await
            .map_err(|err| ErrorData::internal_error(format!("the request stopped: {err}"), None))?
    }

    /// This server, packaging kept payloads as stand-ins of `splice` (for
    /// a transport that writes through its [`SpliceWriter`](super::splice::SpliceWriter)).
    pub fn with_splice(mut self, splice: Arc<Splice>) -> Self {
        self.splice = Some(splice);
        self
    }

    /// This server, starting its background work once the first client has
    /// its `initialize` answer (at its `initialized` notification, or at its
    /// first call, subscription or listen if it sends none): the watcher
    /// ([`Notifier::watch`]) and the load of the vault
    /// ([`super::vault_cache::preload`]), with the rollup made ready (an
    /// agent's first call is most often `status`), then `then` on the same
    /// thread. Both read every document; begun at spawn, they would take the
    /// cores of a small machine from the `initialize` the client waits for.
    pub fn start_once_answered(self, then: impl FnOnce() + Send + 'static) -> Self {
        let context = self.context.clone();
        let notifier = self.notifier.clone();
        let work: Startup = Box::new(move || {
            if let Some(notifier) = notifier {
                notifier.watch();
            }
            super::vault_cache::preload(
                context,
                |context| {
                    let _ = super::tools::call(context, "status", serde_json::json!({}));
                },
                then,
            );
        });
        *self.startup.lock().unwrap_or_else(|e| e.into_inner()) = Some(work);
        self
    }

    /// Run the start-up work, the first time only.
    fn start_up(&self) {
        let work = self
            .startup
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(work) = work {
            work();
        }
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
        let builder = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_completions();
        // The logging fixture sends log messages, which a client may only
        // receive from a server that says it logs.
        #[cfg(feature = "conformance-fixtures")]
        #[allow(deprecated)] // as `set_level` below
        let builder = builder.enable_logging();
        let mut capabilities = builder.build();
        // Subscriptions and list changes only where a watcher tells them.
        if self.notifier.is_some() {
            if let Some(resources) = &mut capabilities.resources {
                resources.subscribe = Some(true);
                resources.list_changed = Some(true);
            }
            if let Some(prompts) = &mut capabilities.prompts {
                prompts.list_changed = Some(true);
            }
        }
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

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.start_up();
        if let Some(notifier) = &self.notifier {
            self.session
                .forward(self.context.clone(), notifier, context.peer);
        }
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let cursor = request.and_then(|r| r.cursor);
        self.blocking(move |context| {
            let (loaded, _) = resources::loaded(context)?;
            resources::list(context, &loaded, cursor.as_deref())
        })
        .await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        #[cfg(feature = "conformance-fixtures")]
        if let Some(result) = super::fixtures::read_resource(&request.uri) {
            return Ok(result.into());
        }
        let uri = request.uri;
        self.blocking(move |context| {
            let (loaded, storage) = resources::loaded(context)?;
            resources::read(context, &loaded, &storage, &uri)
        })
        .await
        .map(Into::into)
    }

    #[allow(deprecated)] // the 2025-11-25 way; 2026-07-28 clients `listen`
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.start_up();
        let known = resources::subscribable(&self.context, &request.uri);
        #[cfg(feature = "conformance-fixtures")]
        let known = known || super::fixtures::subscribable(&request.uri);
        if !known {
            return Err(ErrorData::resource_not_found(
                format!("'{}' is not a resource of this server", request.uri),
                None,
            ));
        }
        self.session.subscribe(request.uri);
        Ok(())
    }

    #[allow(deprecated)] // as `subscribe`
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.unsubscribe(&request.uri);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.notifier.as_ref()?;
        let mut accepted = SubscriptionFilter::new();
        accepted.resources_list_changed = requested.resources_list_changed;
        accepted.prompts_list_changed = requested.prompts_list_changed;
        accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
            uris.iter()
                .filter(|uri| resources::subscribable(&self.context, uri))
                .cloned()
                .collect()
        });
        Some(accepted)
    }

    /// A 2026-07-28 subscription: every change it accepted, until the
    /// client cancels it.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.start_up();
        let Some(notifier) = &self.notifier else {
            context.cancelled().await;
            return Ok(());
        };
        let mut changes = notifier.listen();
        let sink = context.sink();
        loop {
            let change = tokio::select! {
                () = context.cancelled() => return Ok(()),
                change = changes.recv() => change,
            };
            // A change the filter did not accept is not sent: not an error.
            match change {
                Ok(Change::Documents)
                | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    let _ = sink.notify_resource_list_changed().await;
                }
                Ok(Change::Skills) => {
                    let _ = sink.notify_prompt_list_changed().await;
                }
                Ok(Change::Document(path)) => {
                    for uri in uris_of(&self.context, &path) {
                        let _ = sink.notify_resource_updated(uri).await;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
            }
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        #[allow(unused_mut)] // the fixtures join only in a conformance build
        let mut listed = self
            .blocking(|context| {
                let storage = resources::loaded(context)?.1;
                Ok(prompts::list(&storage))
            })
            .await?;
        #[cfg(feature = "conformance-fixtures")]
        listed.prompts.extend(super::fixtures::prompts());
        Ok(listed)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        #[cfg(feature = "conformance-fixtures")]
        if let Some(result) = super::fixtures::get_prompt(&request.name, &arguments) {
            return Ok(result.into());
        }
        let name = request.name;
        self.blocking(move |context| {
            let (loaded, storage) = resources::loaded(context)?;
            prompts::get(context, &loaded, &storage, &name, &arguments)
        })
        .await
        .map(Into::into)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        #[cfg(feature = "conformance-fixtures")]
        if let Some(result) = super::fixtures::complete(&request) {
            return Ok(result);
        }
        self.blocking(move |context| {
            let (loaded, _) = resources::loaded(context)?;
            completion::complete(&loaded, &request)
        })
        .await
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
        self.start_up();
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
