//! One case: build a layout, snapshot what must not change, make the calls
//! on a `CapStorage` with the sandbox's write scope, check the storage still
//! serves, and list every broken promise.

use std::sync::atomic::Ordering;

use vaultspec_vault::{CapStorage, Storage, WriteScope};

use super::layout::{self, Layout, RootSwap};
use super::ops::{self, Breach, Call, Promise, WRITES_DONE};
use super::snapshot;

/// Whether `promise` is checked: all are, unless `CONTAINMENT_PROPERTY`
/// names some (`returns`, `reads`, `writes`, `protected`, comma-separated).
pub fn selected(promise: Promise) -> bool {
    std::env::var("CONTAINMENT_PROPERTY").map_or(true, |only| {
        only.is_empty() || only == "all" || only.split(',').any(|one| one.trim() == promise.name())
    })
}

/// Run `calls` over a fresh build of `layout`, with hard links planted at
/// `trap_window` temp names from the count of successful writes on, and
/// return the selected broken promises, one line each.
pub fn run(layout: &Layout, calls: &[Call], trap_window: u64) -> Result<Vec<String>, String> {
    let done = WRITES_DONE.load(Ordering::Relaxed);
    let built = layout::build(layout, done..done + trap_window)
        .map_err(|e| format!("building the layout: {e}"))?;
    let guarded = snapshot::guarded(&built.root, &built.outside);
    let protected = snapshot::protected(&built.root);
    let storage = CapStorage::open(&built.root)
        .map_err(|e| format!("opening the workspace: {e}"))?
        .with_scope(WriteScope::Vault);
    let mut breaches: Vec<Breach> = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        for mut breach in ops::run(&storage, &built, call) {
            breach.what = format!("call {i}: {}", breach.what);
            breaches.push(breach);
        }
    }
    let vault_swapped = matches!(
        layout.swap,
        RootSwap::ToSrc(0) | RootSwap::ToGit(0) | RootSwap::ToOutside(0) | RootSwap::ToMoved(0)
    );
    if !vault_swapped {
        let after = ".vault/zz-after.md";
        let served = storage
            .write(after, b"after")
            .and_then(|()| storage.read(after));
        if served.as_deref() != Ok(&b"after"[..]) {
            breaches.push(Breach {
                promise: Promise::Returns,
                what: format!("after the calls, writing and reading {after} gave {served:?}"),
            });
        }
    }
    for line in snapshot::diff(&guarded, &snapshot::guarded(&built.root, &built.outside)) {
        breaches.push(Breach {
            promise: Promise::Writes,
            what: format!("changed outside the vault folders: {line}"),
        });
    }
    for line in snapshot::diff(&protected, &snapshot::protected(&built.root)) {
        breaches.push(Breach {
            promise: Promise::Protected,
            what: format!("protected path changed: {line}"),
        });
    }
    Ok(breaches
        .into_iter()
        .filter(|b| selected(b.promise))
        .map(|b| format!("[{}] {}", b.promise.name(), b.what))
        .collect())
}
