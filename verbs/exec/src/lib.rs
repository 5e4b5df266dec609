//! The builtin `vault exec` verbs: logging what a plan Step changed to the
//! plan's execution ledger, folding legacy per-Step records into it, and
//! repairing records whose Step moved, retired or vanished.
//!
//! Every verb here writes, so the component imports write access.

mod dry_run;
mod log;
mod recovery;

use exports::vaultspec::exec::vault_exec::{
    DetachOptions, FoldOptions, Guest, LogOptions, RelinkOptions, RetireOptions,
};

struct Verbs;

impl Guest for Verbs {
    fn log(options: LogOptions) -> u8 {
        log::log(options)
    }
    fn fold(options: FoldOptions) -> u8 {
        log::fold(options)
    }
    fn relink(options: RelinkOptions) -> u8 {
        recovery::relink(options)
    }
    fn retire(options: RetireOptions) -> u8 {
        recovery::retire(options)
    }
    fn detach(options: DetachOptions) -> u8 {
        recovery::detach(options)
    }
}

vaultspec_sdk::verb!(Verbs);
