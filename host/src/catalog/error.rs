//! Why a component was refused a place in the catalog.
//!
//! Every text here may carry what a component or its file name supplied (a
//! name, an import, a parser's quote of the declaration), so each message
//! prints it through [`Escaped`]: whoever shows a refusal, a terminal gets no
//! control or bidirectional character from it.

use crate::display::Escaped;

/// A refusal, naming the component and the reason.
#[derive(Debug, thiserror::Error)]
#[error("component `{}` refused: {reason}", Escaped::new(.component))]
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
    #[error("not a WebAssembly component: {}", Escaped::text(.0))]
    NotAComponent(String),
    /// No `vaultspec-wit` custom section.
    #[error("it carries no `vaultspec-wit` declaration (build it with `vaultspec_sdk::verb!`)")]
    MissingDeclaration,
    /// The declaration does not parse or resolve as WIT.
    #[error("its declaration is not valid WIT: {}", Escaped::text(.0))]
    MalformedDeclaration(String),
    /// The declaration parses but does not follow the verb contract.
    #[error("{}", Escaped::text(.0))]
    BadVerb(String),
    /// A flag name the host owns.
    #[error("verb `{}` declares the reserved flag `--{}` (the host owns `--target` and `--help`)", Escaped::new(.verb), Escaped::new(.flag))]
    ReservedFlag {
        /// The verb path.
        verb: String,
        /// The flag.
        flag: String,
    },
    /// An import the sandbox does not grant.
    #[error("it imports `{}`, which the sandbox does not grant (only WASI cli, io, clocks, random and the vaultspec:verb workspace interfaces are)", Escaped::new(.0))]
    ImportNotGranted(String),
    /// A component that is not a builtin imports a builtin-only interface.
    #[error("it imports `{}`, which only vaultspec's builtin verbs are granted: a third-party verb may not write the coding agents' files", Escaped::new(.0))]
    BuiltinOnly(String),
    /// The declaration does not describe the component's real exports.
    #[error("its declaration does not match the component: {}", Escaped::text(.0))]
    DeclarationMismatch(String),
    /// A third-party verb would take the place of a builtin one.
    #[error("its verb `{}` would shadow the builtin verb `{builtin_verb}` of `{builtin}`; a third-party component may not replace or nest under a builtin verb", Escaped::new(.verb))]
    ShadowsBuiltin {
        /// The component's verb path.
        verb: String,
        /// The builtin verb it collides with.
        builtin_verb: String,
        /// The builtin component that provides it.
        builtin: String,
    },
    /// A third-party verb would take a path the gateway denies.
    #[error("its verb `{}` would shadow the denied path `{denied}`; no component may declare a path on the gateway's denylist", Escaped::new(.verb))]
    ShadowsDenied {
        /// The component's verb path.
        verb: String,
        /// The denied path it collides with.
        denied: String,
    },
    /// A third-party verb would take the place of a host command.
    #[error("its verb `{}` would shadow the host command `vaultspec {command}`; choose another first word", Escaped::new(.verb))]
    ShadowsHost {
        /// The component's verb path.
        verb: String,
        /// The host command's word (`verbs`, `mcp`).
        command: String,
    },
    /// Two third-party components declare the same (or overlapping) verbs.
    #[error("its verb `{}` is also declared by `{}` (as `{}`); both are refused until one of them is removed", Escaped::new(.verb), Escaped::new(.other), Escaped::new(.other_verb))]
    Contested {
        /// The component's verb path.
        verb: String,
        /// The other third-party component.
        other: String,
        /// The other component's verb path.
        other_verb: String,
    },
    /// The component's file could not be read.
    #[error("its file could not be read: {}", Escaped::text(.0))]
    Unreadable(String),
    /// Two components declare the same verb.
    #[error("verb `{}` is already provided by `{}`", Escaped::new(.verb), Escaped::new(.other))]
    Duplicate {
        /// The verb path.
        verb: String,
        /// The component that has it already.
        other: String,
    },
}
