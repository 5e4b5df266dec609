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
}

impl Gateway {
    /// A gateway to the verbs of `catalog`, run in `sandbox`.
    pub fn new(catalog: Catalog, sandbox: Sandbox) -> Self {
        Self {
            catalog,
            sandbox,
            host: None,
            index: OnceLock::new(),
        }
    }

    /// This gateway with the host's own read-only verbs beside the
    /// catalog's (see [`HostVerbs`]).
    pub fn with_host_verbs(mut self, host: HostVerbs) -> anyhow::Result<Self> {
        self.catalog.add(VerbComponent::host(host.declaration)?)?;
        self.host = Some(host);
        self.index = OnceLock::new();
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

    /// Check `request` against its verb and run it on `workspace`
    /// ([`invoke::invoke`]); `Err` is a refusal, and then nothing ran.
    pub async fn invoke(
        &self,
        workspace: &Workspace,
        request: &invoke::Request,
    ) -> Result<Value, String> {
        let runners = invoke::Runners {
            sandbox: &self.sandbox,
            host: self.host.as_ref(),
        };
        invoke::invoke(&self.catalog, runners, workspace, request).await
    }
}
