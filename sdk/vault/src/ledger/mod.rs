//! Execution ledgers: the one `.vault/exec/<date>-<feature>/<date>-<feature>-ledger.md`
//! record per plan that logs what each Step changed (spec/exec-ledger.md).
//!
//! [`row`] is the row grammar (`A/M/D/R/T`, `verify:`, `by:`, notes);
//! [`section`] finds `## Changes` / `## Notes` and appends with the
//! idempotency rules; [`log()`] is the single writer behind `vault exec log`
//! and the MCP `log` tool; [`evidence`] reads coverage back for plan status;
//! [`fold`], [`recovery`] and [`mapping`] handle legacy per-Step records.

pub mod error;
pub mod evidence;
pub mod fold;
pub mod log;
pub mod mapping;
pub mod recovery;
pub mod row;
pub mod section;

pub use error::LedgerError;
pub use evidence::{
    ExecIndex, StepEvidence, covered_steps, exec_index, plan_status_with_evidence, step_evidence,
};
pub use fold::{FoldReport, FoldedRecord, fold};
pub use log::{
    LogOptions, LogRequest, LogResult, is_ledger_stem, ledger_path, log, parse_row_spec,
    parse_verify_spec,
};
pub use mapping::{MappingFinding, MappingMemo, exec_mapping, exec_mapping_kept};
pub use recovery::{RecoveryReport, detach, relink, retire};
pub use row::{LedgerRow, Op, RowKind, parse_note, parse_row, render_note};
pub use section::{append_notes, append_rows, find_section, malformed_rows, unclosed_fence};
