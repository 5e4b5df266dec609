//! The gateway to the long tail: `discover` ranks the catalog by intent and
//! returns typed verb schemas; `invoke` checks a call against a verb's
//! declaration and runs it in the sandbox (`spec/gateway.md`).

pub mod discover;
pub mod invoke;
