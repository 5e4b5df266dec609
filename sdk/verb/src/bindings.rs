//! The SDK's own bindings to the host's workspace interfaces.
//!
//! Generated once here so that every verb shares one [`Workspace`]
//! implementation; an interface the verb's code never calls is dropped from
//! the built component, so a verb that only reads imports no write access.
//!
//! [`Workspace`]: crate::Workspace

wit_bindgen::generate!({
    path: "../../wit",
    world: "vaultspec:verb/capabilities",
});

pub use vaultspec::verb::{
    framework_write, kept_results, vault_history, workspace_read, workspace_write,
};
