//! Approval of third-party verb components by a person, kept per user.
//!
//! A [`Grant`] binds a workspace, a component's file and the sha256 of its
//! bytes: the same file in another workspace, or changed bytes at the same
//! path, need a fresh approval. Grants live in `~/.vaultspec/verb-trust.json`
//! ([`TrustStore`]), written only by `vaultspec verbs trust`, and only after a
//! person answered at a terminal ([`Terminal`]). No tool call can grant trust:
//! `verbs trust` is on the gateway's denylist ([`crate::catalog::DENIED_VERBS`]).

mod grant;
mod prompt;
mod store;

pub use grant::{Grant, identity};
pub use prompt::{Terminal, cannot_ask, stdin_is_terminal};
pub use store::{TRUST_FILE, TrustStore};
