//! The vault checks: every validator of spec/checks.md with its severity,
//! fixability and fix, `vault check all`, `vault repair`, `commit-gate`, and
//! the pre-write checks of the edit verbs.
//!
//! A run reads the vault once into a [`Snapshot`] (graph plus parsed
//! documents); each checker (one module per checker) turns it into a
//! [`CheckResult`] of [`Finding`]s. Under [`Options::fix`] a checker also
//! repairs what it can, computing each file's new text before writing it,
//! and records each repair as an INFO finding. Fixes never drop authored
//! prose, and a second fixing run changes nothing. [`report`] shapes the
//! results as the CLI and the MCP `check` tool print them.
//!
//! ```
//! use vaultspec_vault::checks::{Check, Options, run_check};
//! use vaultspec_vault::{Date, MemStorage};
//! let s = MemStorage::new();
//! s.insert(".vault/research/2026-01-05-x-research.md", "---\ntags:\n  - '#research'\n  - 'x'\ndate: '2026-01-05'\n---\n\nb\n");
//! let today = Date::new(2026, 11, 30).unwrap();
//! let r = run_check(&s, Check::Frontmatter, &Options::fix(today)).unwrap();
//! assert_eq!(r.fixed_count, 1);
//! assert!(run_check(&s, Check::Frontmatter, &Options::check(today)).unwrap().is_clean());
//! ```

pub mod adr_status;
pub mod annotations;
pub mod body_links;
pub mod body_sections;
pub mod code_boundary;
mod context;
pub mod dangling;
pub mod encoding;
pub mod exec_mapping;
pub mod feature_rename;
pub mod features;
pub mod foreign;
pub mod frontmatter;
pub mod gate;
pub mod links;
pub mod markdown;
mod memo;
mod model;
pub mod modified_stamp;
pub mod orphans;
pub mod placeholders;
mod prewrite;
pub mod references;
pub mod rename_integrity;
pub mod repair;
pub mod report;
mod run;
pub mod schema;
pub mod structure;
mod unseen;
mod view;

pub use context::{Options, Snapshot};
pub use gate::{GateReport, commit_gate};
pub use memo::{DocFindings, PER_DOCUMENT};
pub use model::{Check, CheckResult, Finding, Severity, UnknownCheck};
pub use prewrite::{body_links, frontmatter, prewrite, prose};
pub use repair::{RepairOptions, RepairRun, repair};
pub use run::{check_all_on, dispatch, has_errors, run_all, run_check, run_these, total};
pub use view::SnapshotStorage;
