//! Components the catalog or the sandbox must refuse, and typed declarations.

use vaultspec_host::catalog::{FlagShape, Reason, Scalar};
use vaultspec_host::invocation::{FlagValue, Invocation, arguments};
use vaultspec_host::workspace::Workspace;
use vaultspec_test_support::{TestVault, guests};

use crate::binary::vaultspec;
use crate::support::{load, runnable, sandbox};

#[test]
fn a_component_importing_sockets_is_refused_at_load() {
    let refusal = load(guests::SOCKETS).unwrap_err();
    assert!(
        matches!(&refusal.reason, Reason::ImportNotGranted(i) if i.starts_with("wasi:sockets/")),
        "{refusal}"
    );
    assert!(refusal.to_string().contains("guest_sockets"));
}

#[test]
fn a_third_party_component_importing_framework_write_is_refused_at_load() {
    let refusal = load(guests::INTRUDER).unwrap_err();
    assert!(
        matches!(&refusal.reason, Reason::BuiltinOnly(i) if i == "vaultspec:verb/framework-write"),
        "{refusal}"
    );
    assert!(refusal.to_string().contains("builtin"), "{refusal}");
}

#[test]
fn a_third_party_framework_writer_in_the_workspace_never_runs_and_claude_md_is_kept() {
    let vault = TestVault::new();
    let verbs = vault.root().join(".vaultspec/verbs");
    std::fs::create_dir_all(&verbs).unwrap();
    std::fs::copy(guests::INTRUDER, verbs.join("intruder.wasm")).unwrap();
    std::fs::write(vault.root().join("CLAUDE.md"), "The person's own text.\n").unwrap();
    let listed = vaultspec(&vault, &["verbs", "list", "--json"]);
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.contains("intruder") && listed.contains("vaultspec:verb/framework-write"),
        "{listed}"
    );
    let out = vaultspec(&vault, &["intruder", "plant"]);
    assert_ne!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(vault.root().join("CLAUDE.md")).unwrap(),
        "The person's own text.\n"
    );
}

#[test]
fn a_component_importing_the_wasi_filesystem_is_refused_at_load() {
    let refusal = load(guests::FSREAD).unwrap_err();
    assert!(
        matches!(&refusal.reason, Reason::ImportNotGranted(i) if i.starts_with("wasi:filesystem/")),
        "{refusal}"
    );
}

#[test]
fn a_declaration_that_lies_about_its_types_is_refused_before_it_runs() {
    let liar = load(guests::LIAR).expect("the declaration itself is well formed");
    let refusal = sandbox().prepare(&liar).unwrap_err();
    assert!(
        matches!(refusal.reason, Reason::DeclarationMismatch(_)),
        "{refusal}"
    );
    assert!(
        refusal.to_string().contains("vault plan step check"),
        "{refusal}"
    );
}

#[test]
fn flags_and_operands_are_read_from_the_declaration() {
    let echo = load(guests::ECHO).unwrap();
    let say = echo
        .verbs
        .iter()
        .find(|v| v.path_string() == "echo say")
        .unwrap();
    assert_eq!(
        say.summary(),
        "Print the operands and flags back, as text or as JSON."
    );
    assert!(say.supports_json);
    let word = say.flag("word").unwrap();
    assert_eq!((word.short, word.repeatable()), (Some('w'), true));
    assert_eq!(
        say.flag("mood").unwrap().shape,
        FlagShape::Optional(Scalar::Choice(vec!["calm".into(), "loud".into()]))
    );
    assert!(echo.verbs.iter().any(|v| v.path_string() == "noop"));
}

#[test]
fn typed_values_reach_the_guest_intact() -> anyhow::Result<()> {
    let vault = TestVault::new();
    let echo = load(guests::ECHO)?;
    let say = echo
        .verbs
        .iter()
        .find(|v| v.path_string() == "echo say")
        .unwrap();
    let invocation = Invocation {
        flags: [
            ("times".to_owned(), FlagValue::Values(vec!["3".into()])),
            (
                "word".to_owned(),
                FlagValue::Values(vec!["a b".into(), "c".into()]),
            ),
            ("mood".to_owned(), FlagValue::Values(vec!["LOUD".into()])),
            ("shout".to_owned(), FlagValue::Switch(true)),
        ]
        .into(),
        operands: vec!["one".into(), "two".into(), "three".into()],
        json: true,
    };
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let outcome = runtime.block_on(sandbox().call(
        &runnable(&echo),
        &arguments(say, &invocation).expect("the arguments fit"),
        &workspace,
        &Default::default(),
    ))?;
    let envelope: serde_json::Value = serde_json::from_slice(&outcome.stdout)?;
    assert_eq!(envelope["schema"], "vaultspec.echo.say.v1");
    let data = &envelope["data"];
    assert_eq!(data["first"], "one");
    assert_eq!(data["rest"], serde_json::json!(["two", "three"]));
    assert_eq!(data["times"], 3);
    assert_eq!(data["words"], serde_json::json!(["a b", "c"]));
    assert_eq!(data["mood"], "loud");
    assert_eq!(data["shout"], true);
    Ok(())
}
