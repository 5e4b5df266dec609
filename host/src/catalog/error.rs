//! Why a component was refused a place in the catalog.

/// A refusal, naming the component and the reason.
#[derive(Debug, thiserror::Error)]
#[error("component `{component}` refused: {reason}")]
pub struct Refusal {
    /// The component's name (its file stem, or the builtin's name).
    pub component: String,
    /// What is wrong with it.
    pub reason: Reason,
}

/// What is wrong with a component.
#[derive(Debug, thiserror::Error)]
pub enum Reason {
    /// The bytes are not a WebAssembly component.
    #[error("not a WebAssembly component: {0}")]
    NotAComponent(String),
    /// No `vaultspec-wit` custom section.
    #[error("it carries no `vaultspec-wit` declaration (build it with `vaultspec_sdk::verb!`)")]
    MissingDeclaration,
    /// The declaration does not parse or resolve as WIT.
    #[error("its declaration is not valid WIT: {0}")]
    MalformedDeclaration(String),
    /// The declaration parses but does not follow the verb contract.
    #[error("{0}")]
    BadVerb(String),
    /// A flag name the host owns.
    #[error("verb `{verb}` declares the reserved flag `--{flag}` (the host owns `--target` and `--help`)")]
    ReservedFlag {
        /// The verb path.
        verb: String,
        /// The flag.
        flag: String,
    },
    /// An import the sandbox does not grant.
    #[error("it imports `{0}`, which the sandbox does not grant (only WASI cli, io, clocks, random and the vaultspec:verb workspace interfaces are)")]
    ImportNotGranted(String),
    /// The declaration does not describe the component's real exports.
    #[error("its declaration does not match the component: {0}")]
    DeclarationMismatch(String),
    /// A third-party verb would take the place of a builtin one.
    #[error("its verb `{verb}` would shadow the builtin verb `{builtin_verb}` of `{builtin}`; a third-party component may not replace or nest under a builtin verb")]
    ShadowsBuiltin {
        /// The component's verb path.
        verb: String,
        /// The builtin verb it collides with.
        builtin_verb: String,
        /// The builtin component that provides it.
        builtin: String,
    },
    /// A third-party verb would take a path the gateway denies.
    #[error("its verb `{verb}` would shadow the denied path `{denied}`; no component may declare a path on the gateway's denylist")]
    ShadowsDenied {
        /// The component's verb path.
        verb: String,
        /// The denied path it collides with.
        denied: String,
    },
    /// A third-party verb would take the place of a host command.
    #[error("its verb `{verb}` would shadow the host command `vaultspec {command}`; choose another first word")]
    ShadowsHost {
        /// The component's verb path.
        verb: String,
        /// The host command's word (`verbs`, `mcp`).
        command: String,
    },
    /// Two third-party components declare the same (or overlapping) verbs.
    #[error("its verb `{verb}` is also declared by `{other}` (as `{other_verb}`); both are refused until one of them is removed")]
    Contested {
        /// The component's verb path.
        verb: String,
        /// The other third-party component.
        other: String,
        /// The other component's verb path.
        other_verb: String,
    },
    /// The component's file could not be read.
    #[error("its file could not be read: {0}")]
    Unreadable(String),
    /// Two components declare the same verb.
    #[error("verb `{verb}` is already provided by `{other}`")]
    Duplicate {
        /// The verb path.
        verb: String,
        /// The component that has it already.
        other: String,
    },
}
