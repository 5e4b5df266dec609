//! The gateway to the long tail: `discover` ranks the catalog by intent and
//! returns typed verb schemas; `invoke` checks a call against a verb's
//! declaration and runs it in the sandbox (`spec/gateway.md`).
//!
//! A front end that serves both (the MCP server) holds one [`Gateway`]: the
//! catalog, the sandbox the catalog's runnable verbs run in, and the ranking
//! index `discover` builds once. It reaches verbs through it alone.

pub mod discover;
mod host_verbs;
pub mod invoke;
pub mod kept;

use std::sync::OnceLock;

use serde_json::Value;

pub use host_verbs::{HostVerbs, Runner};

use crate::catalog::{Catalog, VerbComponent};
use crate::sandbox::{Allocation, CompileCache, Sandbox};
use crate::workspace::Workspace;

/// The catalog and the sandbox of one server, and `discover`'s index of the
/// catalog, built on first use.
pub struct Gateway {
    catalog: Catalog,
    sandbox: Sandbox,
    host: Option<HostVerbs>,
    index: OnceLock<discover::Index>,
    prepared: OnceLock<discover::Prepared>,
}

impl Gateway {
    /// A gateway to the verbs of `catalog`, run in `sandbox`.
    pub fn new(catalog: Catalog, sandbox: Sandbox) -> Self {
        Self {
            catalog,
            sandbox,
            host: None,
            index: OnceLock::new(),
            prepared: OnceLock::new(),
        }
    }

    /// This gateway with the host's own read-only verbs beside the
    /// catalog's (see [`HostVerbs`]).
    pub fn with_host_verbs(mut self, host: HostVerbs) -> anyhow::Result<Self> {
        self.catalog.add(VerbComponent::host(host.declaration)?)?;
        self.host = Some(host);
        self.index = OnceLock::new();
        self.prepared = OnceLock::new();
        Ok(self)
    }

    /// A gateway for a server, which makes call after call: pooled
    /// instances reuse the memory of the call before, `slots` calls at once
    /// (more wait for a slot). The pool reserves its address space up front;
    /// where that is refused (a `ulimit -v`), calls map fresh memory instead.
    /// Compiled components are cached where the environment says.
    pub fn pooled(catalog: Catalog, slots: u32) -> anyhow::Result<Self> {
        let sandbox = match Sandbox::with_allocation(
            CompileCache::from_env(),
            Allocation::Pooled { slots },
        ) {
            Ok(sandbox) => sandbox,
            Err(err) => {
                tracing::warn!(
                    "cannot reserve the verb instance pool, calls will map fresh memory: {err:#}"
                );
                Sandbox::new(CompileCache::from_env())?
            }
        };
        Ok(Self::new(catalog, sandbox))
    }

    /// Every verb `discover` can find and `invoke` can run.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// `discover`'s ranking index of the catalog, built on the first call.
    pub fn index(&self) -> &discover::Index {
        self.index
            .get_or_init(|| discover::Index::build(&self.catalog))
    }

    /// The `limit` verbs that best fit `query`, best first, each as the
    /// schema `discover` returns.
    pub fn discover(&self, query: &str, limit: usize) -> Vec<Value> {
        self.index()
            .rank(&self.catalog, query, limit)
            .into_iter()
            .map(|r| discover::schema(&self.catalog, &r))
            .collect()
    }

    /// The whole `discover` reply for `query` as JSON text
    /// (`{"query","count","verbs"}`), put together from each verb's schema
    /// written once ([`discover::Prepared`]), and how many verbs it holds.
    pub fn discover_reply(&self, query: &str, limit: usize) -> (usize, String) {
        let ranked = self.index().rank(&self.catalog, query, limit);
        let prepared = self
            .prepared
            .get_or_init(|| discover::Prepared::build(&self.catalog));
        let mut out = String::with_capacity(256 + ranked.len() * 2048);
        out.push_str("{\"query\":");
        out.push_str(&Value::from(query).to_string());
        out.push_str(&format!(",\"count\":{},\"verbs\":[", ranked.len()));
        for (i, r) in ranked.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            prepared.write(&self.catalog, r, &mut out);
        }
        out.push_str("]}");
        (ranked.len(), out)
    }

    /// Whether a reply to `request` could be kept (see
    /// [`invoke::may_keep`]).
    pub fn may_keep(&self, request: &invoke::Request) -> bool {
        let runners = invoke::Runners {
            sandbox: &self.sandbox,
            host: self.host.as_ref(),
        };
        invoke::may_keep(&self.catalog, runners, request)
    }

    /// Check `request` against its verb and run it on `workspace`, or give
    /// the reply `kept` holds for it ([`invoke::invoke`]); `Err` is a
    /// refusal, and then nothing ran.
    pub async fn invoke(
        &self,
        workspace: &Workspace,
        request: &invoke::Request,
        kept: Option<&kept::KeptReplies>,
    ) -> Result<invoke::Replied, String> {
        let runners = invoke::Runners {
            sandbox: &self.sandbox,
            host: self.host.as_ref(),
        };
        invoke::invoke_keeping(&self.catalog, runners, workspace, request, kept).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_written_discover_reply_is_the_one_built_from_values() {
        let catalog = crate::builtins::catalog().unwrap();
        let gateway = Gateway::new(catalog, Sandbox::new(CompileCache::new(None)).unwrap());
        for (query, limit) in [
            ("delete a step", 10),
            ("which rules do agents follow", 3),
            ("quote \" and \\ and ünïcode", 5),
            ("", 10),
            ("list", 50),
        ] {
            let (count, written) = gateway.discover_reply(query, limit);
            let built = json!({
                "query": query,
                "count": count,
                "verbs": gateway.discover(query, limit),
            });
            assert_eq!(written, built.to_string(), "{query}");
        }
    }
}
