//! `spec rules|skills|agents|system sync`: render one family into the
//! agents' files through `framework-write`.

use vaultspec_sdk::FrameworkWorkspace;
use vaultspec_sdk::output::{self, fail, usage};
use vaultspec_sdk::vault::framework::Kind;
use vaultspec_sdk::vault::framework::run::{NOT_INSTALLED, chosen, run};
use vaultspec_sdk::vault::framework::sync::Overwrite;

use crate::Sync;

/// Sync the kinds `kind`'s family covers for the chosen agents. A link at an
/// agent's folder or root file cannot be seen from here; the host refuses
/// to write through it, and the report names each file it refused.
pub fn sync(kind: Kind, sync: Sync) -> u8 {
    let json = sync.json;
    let ws = FrameworkWorkspace::open();
    let provider = sync.provider.as_deref().unwrap_or("all");
    let providers = match chosen(&ws, provider, &[]) {
        Ok(providers) => providers,
        Err(message) => return usage(json, &message),
    };
    if providers.is_empty() {
        return fail(json, NOT_INSTALLED);
    }
    let overwrite = Overwrite {
        force: sync.force,
        builtins: false,
    };
    let report = run(
        &ws,
        &providers,
        kind.family(),
        overwrite,
        sync.dry_run,
        &|_| false,
    );
    let status = if sync.dry_run {
        "unchanged"
    } else {
        report.status()
    };
    let schema = output::schema(&format!("spec {} sync", kind.folder()), 1);
    output::done(json, &schema, status, report.data(sync.dry_run), || {
        for warning in report.warnings() {
            eprintln!("warning: {warning}");
        }
        print!("{}", report.text(sync.dry_run));
    });
    if report.failed() {
        output::EXIT_FAILURE
    } else {
        output::EXIT_OK
    }
}
