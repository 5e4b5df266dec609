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
    /// Two components declare the same verb.
    #[error("verb `{verb}` is already provided by `{other}`")]
    Duplicate {
        /// The verb path.
        verb: String,
        /// The component that has it already.
        other: String,
    },
}
