//! Helpers the end-to-end tests share: one sandbox, guest loading, calls.

use std::sync::OnceLock;
use std::time::Duration;

use vaultspec_host::catalog::{Catalog, Origin, Refusal, Runnable, VerbComponent};
use vaultspec_host::invocation::{Invocation, arguments};
use vaultspec_host::sandbox::{CallOptions, CompileCache, Outcome, Sandbox};
use vaultspec_host::workspace::Workspace;
use vaultspec_test_support::{TestVault, cache_dir};

/// One sandbox for every test, with the shared compile cache.
pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        Sandbox::new(CompileCache::new(Some(cache_dir()))).expect("creating the sandbox")
    })
}

/// Load a test guest component from its path.
pub fn load(path: &str) -> Result<VerbComponent, Refusal> {
    let bytes = std::fs::read(path).expect("the test guest was built");
    let name = std::path::Path::new(path)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    VerbComponent::load(&name, Origin::File(path.into()), bytes.into())
}

/// `component` admitted to a catalog of its own (the test vouches for it):
/// the sandbox runs only what a catalog found runnable.
pub fn runnable(component: &VerbComponent) -> Runnable {
    let mut catalog = Catalog::new();
    let verb = component.verbs[0].path_string();
    catalog
        .add(component.clone())
        .expect("a catalog of one admits it");
    catalog
        .runnable(catalog.get(&verb).expect("its verb"))
        .expect("an added component is trusted")
}

/// Run `verb` of `component` on `vault` with these operands and options.
pub fn call(
    component: &VerbComponent,
    verb: &str,
    operands: &[&str],
    vault: &TestVault,
    options: CallOptions,
) -> anyhow::Result<Outcome> {
    let spec = component
        .verbs
        .iter()
        .find(|v| v.path_string() == verb)
        .unwrap_or_else(|| panic!("no verb `{verb}`"));
    let invocation = Invocation {
        operands: operands.iter().map(|s| s.to_string()).collect(),
        ..Invocation::default()
    };
    let workspace = Workspace::open(vault.root())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(sandbox().call(
        &runnable(component),
        &arguments(spec, &invocation).expect("the arguments fit"),
        &workspace,
        &options,
    ))?)
}

/// Options with a short timeout, for calls expected to end quickly.
pub fn quick() -> CallOptions {
    CallOptions {
        timeout: Some(Duration::from_secs(20)),
        ..CallOptions::default()
    }
}

/// The captured stdout as text.
pub fn stdout(outcome: &Outcome) -> String {
    String::from_utf8_lossy(&outcome.stdout).into_owned()
}

/// After a hostile call, an ordinary write and read must still work on the
/// same host.
pub fn assert_host_still_serves(vault: &TestVault) -> anyhow::Result<()> {
    let probe = load(vaultspec_test_support::guests::PROBE)?;
    let outcome = call(
        &probe,
        "probe write",
        &[".vault/notes/ok.md", "fine"],
        vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    let outcome = call(
        &probe,
        "probe read",
        &[".vault/notes/ok.md"],
        vault,
        quick(),
    )?;
    assert_eq!(outcome.exit_code, Some(0), "{}", stdout(&outcome));
    Ok(())
}

/// The guest component at `wasm` installed in `vault`'s workspace as
/// `.vaultspec/verbs/<name>.wasm`, and trusted by the user whose home folder
/// is `home`, as `vaultspec verbs trust` would record it.
pub fn install_trusted(
    vault: &TestVault,
    home: &std::path::Path,
    name: &str,
    wasm: &str,
) -> anyhow::Result<()> {
    use vaultspec_host::trust::{Grant, TrustStore};
    let bytes = std::fs::read(wasm)?;
    let installed = vault.root().join(format!(".vaultspec/verbs/{name}.wasm"));
    std::fs::create_dir_all(installed.parent().unwrap())?;
    std::fs::write(&installed, &bytes)?;
    let digest = VerbComponent::load(name, Origin::File(installed.clone()), bytes.into())?.digest;
    TrustStore::update(home, |grants| {
        grants.push(Grant::new(vault.root(), &installed, &digest))
    })?;
    Ok(())
}
