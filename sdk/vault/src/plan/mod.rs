//! Plans: the `.vault/plan/<date>-<feature>-plan.md` documents whose checkbox
//! rows are the work breakdown (spec/plan-format.md).
//!
//! [`parse_plan`] reads a document into a [`Plan`] (frontmatter, Waves,
//! Phases, Steps, the RETIRED ledger and the authored prose around them);
//! [`serialise_plan`] writes it back in the reference's fixed layout. Every
//! verb is a [`PlanOp`] applied in memory by [`Plan::apply`];
//! [`mutate_plan`] and [`mutate_plan_batch`] run ops against a [`Storage`]
//! with the write guard, the `modified`/`body_hash` stamp and optimistic
//! concurrency. [`check_plan`] and [`fix_plan`] are `vault plan check`;
//! [`plan_progress`] and [`plan_edit`] back the MCP tools of the same names.
//!
//! ```
//! use vaultspec_vault::{Date, MemStorage, Storage};
//! use vaultspec_vault::plan::{PlanOp, WriteOptions, mutate_plan};
//!
//! let vault = MemStorage::new();
//! let path = ".vault/plan/2026-03-10-fix-plan.md";
//! vault.insert(path, "---\ntags:\n  - '#plan'\n  - '#fix'\ndate: '2026-03-10'\ntier: L1\n---\n\n# `fix` plan\n\n## Steps\n\n- [ ] `S01` - patch; `src/a.rs`.\n");
//! let today = Date::new(2026, 3, 11).unwrap();
//! let done = mutate_plan(&vault, path, &PlanOp::StepCheck { step: "S01".into() }, &WriteOptions::new(today)).unwrap();
//! assert!(done.write.changed);
//! let text = String::from_utf8(vault.read(path).unwrap()).unwrap();
//! assert!(text.contains("- [x] `S01` - patch; `src/a.rs`."));
//! assert!(text.contains("modified: '2026-03-11'"));
//! ```
//!
//! [`Storage`]: crate::Storage

mod address;
mod batch;
mod check;
mod contract;
mod error;
mod fix;
mod frontmatter;
mod ids;
mod markdown;
mod model;
mod op;
mod parse;
mod phase_ops;
mod query;
mod resolve;
mod row;
mod serialise;
mod status;
mod step_ops;
mod store;
mod tier_ops;
mod trailer;
mod wave_ops;
pub mod yaml;

pub use address::nearest;
pub use batch::{
    EditItem, EditReport, EditRequest, ItemError, ProgressItem, ProgressReport, StepChange,
    plan_edit, plan_progress,
};
pub use check::{Finding, Severity, check_plan, has_errors};
pub use error::PlanError;
pub use fix::{FixReport, fix_plan, fix_plan_text};
pub use frontmatter::{PlanFrontmatter, Tier};
pub use ids::{Kind, base_of, format_id, is_canonical, next_id, parse_id, sort_key, suffixed_id};
pub use model::{EpicIntent, Key, Outline, Phase, Plan, Retired, Step, UnknownBlock, Wave};
pub use op::{Anchor, OpOutcome, PlanOp, PromoteTexts};
pub use parse::parse_plan;
pub use query::{StepQuery, StepView, query_steps};
pub use resolve::{
    PLAN_DIR, PlanEntry, list_plans, live_plan_paths, plan_entry, read_plans, resolve_plan,
};
pub use serialise::{LINK_RULES, serialise_plan};
pub use status::{PlanStatus, completion_percent, plan_status};
pub use store::{
    PlanBatch, PlanDoc, PlanMutation, PlanSession, PlanWrite, WriteOptions, edit_plan, load_plan,
    mutate_plan, mutate_plan_batch,
};
pub use trailer::{Trailer, TrailerProblem, emit_trailers, parse_trailers, validate_trailers};
