//! The rest of MCP beside the tools: the vault's documents as resources
//! (paged, read back exactly, reached by template, subscribed to), the
//! skills as prompts, and completion, over stdio with rmcp's client.

use std::time::Duration;

use rmcp::model::{
    CompletionContext, GetPromptRequestParams, PaginatedRequestParams, ReadResourceRequestParams,
    ResourceContents, ResourceUpdatedNotificationParam, SubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use vaultspec_test_support::TestVault;

use crate::mcp::{Session, session_command};

/// The text of a read resource, and its `_meta`.
fn text_of(contents: &ResourceContents) -> (&str, Value) {
    match contents {
        ResourceContents::TextResourceContents { text, meta, .. } => (
            text,
            meta.as_ref()
                .map(|m| Value::Object(m.0.clone()))
                .unwrap_or_default(),
        ),
        other => panic!("not text: {other:?}"),
    }
}

fn read(session: &Session, uri: &str) -> Result<rmcp::model::ReadResourceResult, String> {
    session
        .runtime
        .block_on(
            session
                .client
                .read_resource(ReadResourceRequestParams::new(uri)),
        )
        .map_err(|e| e.to_string())
}

#[test]
fn documents_are_listed_a_page_at_a_time_and_read_by_uri_or_template() -> anyhow::Result<()> {
    let vault = TestVault::new();
    for i in 0..260 {
        vault.doc(
            "research",
            "2026-02-01",
            "alpha",
            Some(&format!("note-{i:03}")),
        );
    }
    let plan = vault.doc("plan", "2026-02-02", "alpha", None);
    vault.write(
        ".vault/index/alpha.index.md",
        "---\ntags:\n  - '#index'\n  - '#alpha'\n---\n# alpha\n",
    );
    let session = Session::start(&vault, &["--read-only"])?;
    let list = |cursor: Option<String>| {
        let mut params = PaginatedRequestParams::default();
        params.cursor = cursor;
        session
            .runtime
            .block_on(session.client.list_resources(Some(params)))
    };
    let first = list(None)?;
    assert_eq!(first.resources.len(), 250);
    let second = list(first.next_cursor.clone())?;
    assert_eq!(second.resources.len(), 12, "260 notes, a plan and an index");
    assert!(second.next_cursor.is_none());
    let bad = list(Some("999999".into())).unwrap_err().to_string();
    assert!(bad.contains("cursor '999999'"), "{bad}");

    let listed = first
        .resources
        .iter()
        .chain(&second.resources)
        .find(|r| r.uri.ends_with(&plan))
        .expect("the plan is listed");
    assert!(listed.uri.starts_with("file:///"), "{listed:?}");
    let stem = plan.rsplit('/').next().unwrap().trim_end_matches(".md");
    assert_eq!(listed.name, stem);
    assert_eq!(listed.mime_type.as_deref(), Some("text/markdown"));
    let exact = vault.read(&plan).unwrap();
    assert_eq!(listed.size, Some(exact.len() as u64));

    let by_uri = read(&session, &listed.uri).unwrap();
    let by_stem = read(&session, &format!("vault://document/{stem}")).unwrap();
    let (text, meta) = text_of(&by_stem.contents[0]);
    assert_eq!(text, exact);
    assert_eq!(text_of(&by_uri.contents[0]).0, exact);
    assert_eq!(meta["path"], plan);
    assert_eq!(meta["blob_hash"].as_str().unwrap().len(), 40);
    let index = read(&session, "vault://feature/alpha").unwrap();
    assert!(text_of(&index.contents[0]).0.contains("# alpha"));

    let root = vault.root().display().to_string();
    for (uri, says) in [
        (
            "vault://document/no-such-stem".to_owned(),
            "no document has the stem",
        ),
        (
            "vault://feature/beta".to_owned(),
            "feature 'beta' has no index",
        ),
        (
            "file:///etc/passwd".to_owned(),
            "is not a document of this vault",
        ),
        (
            format!("file://{root}/.vaultspec/config.toml"),
            "is not a document",
        ),
        (
            format!("file://{root}/.vault/../.vaultspec/config.toml"),
            "is not a document",
        ),
        ("https://example.com/x.md".to_owned(), "is not a document"),
    ] {
        let refused = read(&session, &uri).unwrap_err();
        assert!(refused.contains(says), "{uri}: {refused}");
    }
    Ok(())
}

#[test]
fn a_document_that_cannot_be_read_is_listed_with_its_problem_and_never_served() -> anyhow::Result<()>
{
    let vault = TestVault::new();
    vault.doc("adr", "2026-02-01", "alpha", None);
    std::fs::write(
        vault
            .root()
            .join(".vault/adr/2026-02-02-alpha-latin1-adr.md"),
        b"---\ntags: ['#adr']\n---\n# caf\xe9\n",
    )?;
    let secret = tempfile::NamedTempFile::new()?;
    std::fs::write(secret.path(), "a secret outside the workspace\n")?;
    std::os::unix::fs::symlink(
        secret.path(),
        vault
            .root()
            .join(".vault/adr/2026-02-03-alpha-linked-adr.md"),
    )?;
    let session = Session::start(&vault, &[])?;
    let listed = session
        .runtime
        .block_on(session.client.list_all_resources())?;
    for name in ["2026-02-02-alpha-latin1-adr", "2026-02-03-alpha-linked-adr"] {
        let resource = listed
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("{name} is listed: {listed:?}"));
        let description = resource.description.as_deref().unwrap_or("");
        assert!(description.starts_with("cannot be served"), "{description}");
        let refused = read(&session, &resource.uri).unwrap_err();
        assert!(!refused.contains("secret"), "{refused}");
        let by_stem = read(&session, &format!("vault://document/{name}")).unwrap_err();
        assert!(!by_stem.contains("secret"), "{by_stem}");
    }
    Ok(())
}

/// A client that hands on every change notification it hears.
#[derive(Clone)]
struct Listener(mpsc::UnboundedSender<String>);

impl ClientHandler for Listener {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(format!("updated {}", params.uri));
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send("resources changed".into());
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send("prompts changed".into());
    }
}

/// A listening client of `vaultspec mcp` on `vault`.
fn listening(
    vault: &TestVault,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<(
    RunningService<RoleClient, Listener>,
    mpsc::UnboundedReceiver<String>,
)> {
    let (tx, rx) = mpsc::unbounded_channel();
    let command = session_command(vault, &[], "error");
    let client = runtime.block_on(async {
        let transport = TokioChildProcess::new(command)?;
        anyhow::Ok(Listener(tx).serve(transport).await?)
    })?;
    Ok((client, rx))
}

/// The notifications heard within `wait`, in order.
fn heard(
    runtime: &tokio::runtime::Runtime,
    rx: &mut mpsc::UnboundedReceiver<String>,
    wait: Duration,
) -> Vec<String> {
    runtime.block_on(async {
        let mut out = Vec::new();
        let deadline = tokio::time::Instant::now() + wait;
        while let Ok(Some(said)) = tokio::time::timeout_at(deadline, rx.recv()).await {
            out.push(said);
        }
        out
    })
}

#[test]
#[allow(deprecated)] // `subscribe` is the 2025-11-25 way, which this client speaks
fn a_subscriber_hears_of_edits_made_behind_the_servers_back() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let adr = vault.doc("adr", "2026-02-01", "alpha", None);
    let other = vault.doc("research", "2026-02-02", "alpha", None);
    vault.write(
        ".vaultspec/skills/vaultspec-adr/SKILL.md",
        "---\nname: vaultspec-adr\ndescription: Decide.\n---\n# Decide\n",
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let (client, mut rx) = listening(&vault, &runtime)?;
    let stem = adr.rsplit('/').next().unwrap().trim_end_matches(".md");
    let by_stem = format!("vault://document/{stem}");
    runtime.block_on(client.subscribe(SubscribeRequestParams::new(&by_stem)))?;
    let refused = runtime
        .block_on(client.subscribe(SubscribeRequestParams::new("file:///etc/passwd")))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("not a resource of this server"),
        "{refused}"
    );
    // Let the watch settle before the first edit.
    std::thread::sleep(Duration::from_millis(300));

    let text = vault.read(&adr).unwrap();
    vault.write(&adr, &format!("{text}\nOne more line.\n"));
    let said = heard(&runtime, &mut rx, Duration::from_secs(2));
    assert_eq!(
        said,
        [format!("updated {by_stem}")],
        "an edit of the subscribed document"
    );

    vault.write(
        &other,
        "---\ntags: ['#research', '#alpha']\n---\n# changed\n",
    );
    let said = heard(&runtime, &mut rx, Duration::from_millis(800));
    assert!(said.is_empty(), "a document nobody subscribed to: {said:?}");

    vault.doc("plan", "2026-02-03", "alpha", None);
    let said = heard(&runtime, &mut rx, Duration::from_secs(2));
    assert_eq!(said, ["resources changed"], "a document came");

    std::fs::remove_file(vault.root().join(&adr))?;
    // rmcp sends, and the client handles, each notification on a task of
    // its own: two told at once may arrive in either order.
    let mut said = heard(&runtime, &mut rx, Duration::from_secs(2));
    said.sort();
    assert_eq!(
        said,
        ["resources changed".to_owned(), format!("updated {by_stem}")],
        "the subscribed document went"
    );

    vault.write(
        ".vaultspec/skills/vaultspec-plan/SKILL.md",
        "---\nname: vaultspec-plan\ndescription: Plan.\n---\n# Plan\n",
    );
    let said = heard(&runtime, &mut rx, Duration::from_secs(2));
    assert!(
        said.contains(&"prompts changed".to_owned()),
        "a skill came: {said:?}"
    );
    runtime.block_on(client.cancel())?;
    Ok(())
}

#[test]
fn skills_are_prompts_rendered_for_the_request() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let research = vault.doc("research", "2026-02-01", "alpha", Some("tokens"));
    vault.write(
        ".vaultspec/skills/vaultspec-adr/SKILL.md",
        "---\nname: vaultspec-adr\ndescription: Record a decision that is costly to undo.\n---\n\n# Record a decision\n\nLink the evidence first.\n",
    );
    let session = Session::start(&vault, &["--read-only"])?;
    let prompts = session
        .runtime
        .block_on(session.client.list_prompts(None))?;
    assert_eq!(prompts.prompts.len(), 1, "{prompts:?}");
    let prompt = &prompts.prompts[0];
    assert_eq!(prompt.name, "vaultspec-adr");
    assert_eq!(
        prompt.description.as_deref(),
        Some("Record a decision that is costly to undo.")
    );
    let arguments: Vec<&str> = prompt
        .arguments
        .iter()
        .flatten()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(arguments, ["task", "feature", "document", "step"]);

    let stem = research.rsplit('/').next().unwrap().trim_end_matches(".md");
    let get = |args: Value| {
        let mut params = GetPromptRequestParams::new("vaultspec-adr");
        params.arguments = args.as_object().cloned();
        session
            .runtime
            .block_on(session.client.get_prompt(params))
            .map_err(|e| e.to_string())
    };
    let got =
        get(json!({"task": "choose the token format", "feature": "#alpha", "document": stem}))
            .unwrap();
    let messages = serde_json::to_value(&got.messages)?;
    let first = messages[0]["content"]["text"].as_str().unwrap();
    assert!(first.contains("choose the token format"), "{first}");
    assert!(first.contains("`alpha`"), "{first}");
    assert!(first.contains("Link the evidence first."), "{first}");
    assert!(
        !first.contains("description:"),
        "the frontmatter stays out: {first}"
    );
    assert_eq!(
        messages[1]["content"]["resource"]["text"],
        vault.read(&research).unwrap(),
        "the document comes attached, exactly"
    );
    let refused = get(json!({"colour": "red"})).unwrap_err();
    assert!(refused.contains("no argument 'colour'"), "{refused}");
    let refused = get(json!({"document": "no-such-stem"})).unwrap_err();
    assert!(refused.contains("no document has the stem"), "{refused}");
    let mut params = GetPromptRequestParams::new("vaultspec-nothing");
    params.arguments = None;
    let refused = session
        .runtime
        .block_on(session.client.get_prompt(params))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("vaultspec-adr"),
        "names the prompts there are: {refused}"
    );
    Ok(())
}

#[test]
fn stems_features_and_step_ids_complete_from_the_vault() -> anyhow::Result<()> {
    let vault = TestVault::new();
    vault.doc("adr", "2026-02-01", "alpha", None);
    vault.doc("research", "2026-02-02", "alpha-two", None);
    vault.doc("research", "2026-03-01", "beta", None);
    let session = Session::start(&vault, &[])?;
    session.call(
        "create",
        json!({"documents": [{"feature": "alpha", "type": "plan", "date": "2026-02-05"}]}),
    )?;
    let added = session.call(
        "plan_edit",
        json!({"plan": "alpha", "operations": [
            {"operation": "add", "action": "write it", "scope": "src/a.rs"},
            {"operation": "add", "action": "test it", "scope": "tests/a.rs"}]}),
    )?;
    assert_ne!(added.is_error, Some(true), "{added:?}");
    let complete_stem = |value: &str| {
        session
            .runtime
            .block_on(session.client.complete_resource_argument(
                "vault://document/{stem}",
                "stem",
                value,
                None,
            ))
    };
    let two = complete_stem("2026-02")?;
    assert_eq!(
        two.values,
        [
            "2026-02-01-alpha-adr",
            "2026-02-02-alpha-two-research",
            "2026-02-05-alpha-plan"
        ]
    );
    assert_eq!((two.total, two.has_more), (Some(3), Some(false)));
    let features = session
        .runtime
        .block_on(session.client.complete_prompt_argument(
            "vaultspec-adr",
            "feature",
            "al",
            None,
        ))?;
    assert_eq!(features.values, ["alpha", "alpha-two"]);
    let mut context = std::collections::HashMap::new();
    context.insert("document".to_owned(), "2026-02-05-alpha-plan".to_owned());
    let steps = session
        .runtime
        .block_on(session.client.complete_prompt_argument(
            "vaultspec-execute",
            "step",
            "s",
            Some(CompletionContext::with_arguments(context)),
        ))?;
    assert_eq!(steps.values, ["S01", "S02"]);
    let refused = session
        .runtime
        .block_on(
            session
                .client
                .complete_resource_argument("vault://nowhere/{x}", "x", "", None),
        )
        .unwrap_err()
        .to_string();
    assert!(refused.contains("vault://document/{stem}"), "{refused}");
    Ok(())
}
