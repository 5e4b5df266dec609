//! `check`: the whole check suite, optionally fixing (`spec/mcp-tools.md` §6.6).

use serde::Deserialize;
use serde_json::Value;
use vaultspec_vault::checks::{self, Options, report};

use super::parse;
use crate::mcp::context::Context;
use crate::mcp::reply::{Reply, ToolResult};

#[derive(Deserialize)]
struct Args {
    feature: Option<String>,
    #[serde(default)]
    fix: bool,
}

/// Run `check all` over the workspace, fixing under the write lock if asked.
pub fn call(context: &Context, args: Value) -> ToolResult {
    let args: Args = parse(args)?;
    let storage = context.storage()?;
    let mut options = Options::check(context.today()).with_feature(args.feature.as_deref());
    options.fix = args.fix;
    let results = if args.fix {
        let _lock = context.lock_writes()?;
        let _sentinel = context.lock_docs_domain()?;
        checks::run_all(&storage, &options)?
    } else {
        checks::run_all(&storage, &options)?
    };
    Ok(Reply {
        summary: report::mcp_summary(&results),
        structured: report::mcp_result(&results, args.fix),
    })
}
