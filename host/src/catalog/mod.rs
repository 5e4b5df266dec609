//! The catalog: every verb the host can run, read from component declarations.
//!
//! A [`VerbComponent`] is one component's bytes, digest, capabilities and the
//! verbs its declaration exports; the [`Catalog`] holds them all and looks
//! verbs up by path. Building it parses WIT and reads import names only: no
//! guest code runs and nothing is compiled.
//!
//! [`load_all`] builds the catalog the CLI and the MCP server use: the
//! builtins, then the third-party components of `.vaultspec/verbs/` and
//! `~/.vaultspec/verbs/`, each marked with its [`Trust`]. Run a verb only
//! through [`Catalog::runnable`], which refuses untrusted components.

mod component;
mod declaration;
mod denylist;
mod error;
mod file;
mod precompiled;
mod spec;
mod third_party;
mod trust_level;

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;
use sha2::{Digest, Sha256};

pub use component::{Capabilities, Inspection, WIT_SECTION, capabilities, inspect, validate};
pub use declaration::{INTENTS_HEADING, RESERVED_FLAGS, VERB_WIT, parse};
pub use denylist::{DENIED_VERBS, HOST_COMMANDS, is_denied};
pub use error::{Reason, Refusal};
pub use file::MAX_COMPONENT_BYTES;
pub use precompiled::Precompiled;

pub use spec::{ExportName, FlagShape, FlagSpec, OperandSpec, Param, Scalar, VerbSpec, summary};
pub use third_party::{
    LoadedCatalog, Scope, USER_VERBS_DIR, WORKSPACE_VERBS_DIR, conflicts, load_all, load_file,
    scope_of, verb_files,
};
pub use trust_level::{Trust, Untrusted, trust_command};

/// Where a component came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Built with vaultspec and embedded in the binary.
    Builtin,
    /// Loaded from a file.
    File(std::path::PathBuf),
    /// Verbs the host runs itself, declared in WIT like any other and
    /// reachable through the gateway only: no component code at all.
    Host,
}

/// One loaded component and the verbs it provides.
#[derive(Debug, Clone)]
pub struct VerbComponent {
    /// A short name: the builtin's name or the file stem.
    pub name: String,
    /// Where it came from.
    pub origin: Origin,
    /// The component's bytes (borrowed from the binary for a builtin).
    pub bytes: Bytes,
    /// `sha256:` + lowercase hex of the bytes.
    pub digest: String,
    /// What it may do to the workspace.
    pub capabilities: Capabilities,
    /// The verbs it exports, in declaration order.
    pub verbs: Vec<VerbSpec>,
    /// Its machine code compiled when the binary was built (builtins only);
    /// the sandbox compiles the bytes when there is none or it does not fit.
    pub precompiled: Option<Precompiled>,
}

impl VerbComponent {
    /// Read a component's declaration and imports; refuse it if either is
    /// not acceptable.
    pub fn load(name: &str, origin: Origin, bytes: Bytes) -> Result<Self, Refusal> {
        let digest = format!("sha256:{}", hex::encode(Sha256::digest(&bytes)));
        Self::load_digested(name, origin, bytes, digest)
    }

    /// [`VerbComponent::load`] for bytes whose digest is already known: the
    /// builtins, hashed once by `build.rs` rather than on every start.
    pub fn load_digested(
        name: &str,
        origin: Origin,
        bytes: Bytes,
        digest: String,
    ) -> Result<Self, Refusal> {
        let refuse = |reason| Refusal {
            component: name.to_owned(),
            reason,
        };
        let inspection = inspect(&bytes).map_err(refuse)?;
        let capabilities = capabilities(&inspection.imports).map_err(refuse)?;
        if capabilities.framework && origin != Origin::Builtin {
            return Err(refuse(Reason::BuiltinOnly(component::FRAMEWORK.to_owned())));
        }
        let source = inspection
            .declaration
            .ok_or_else(|| refuse(Reason::MissingDeclaration))?;
        let verbs = parse(&source).map_err(refuse)?;
        Ok(Self {
            name: name.to_owned(),
            origin,
            bytes,
            digest,
            capabilities,
            verbs,
            precompiled: None,
        })
    }

    /// The pseudo-component of the host's own gateway verbs, declared by
    /// `declaration` (a WIT world in the shape every verb uses). It has no
    /// code: the gateway runs its verbs natively, read-only.
    pub fn host(declaration: &str) -> Result<Self, Refusal> {
        let verbs = parse(declaration).map_err(|reason| Refusal {
            component: "host".to_owned(),
            reason,
        })?;
        Ok(Self {
            name: "host".to_owned(),
            origin: Origin::Host,
            bytes: Bytes::new(),
            digest: "host".to_owned(),
            capabilities: Capabilities::default(),
            verbs,
            precompiled: None,
        })
    }

    /// This component with machine code compiled ahead of time for it.
    pub fn with_precompiled(self, precompiled: Precompiled) -> Self {
        Self {
            precompiled: Some(precompiled),
            ..self
        }
    }
}

/// One verb of the catalog, with the component that provides it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The verb.
    pub spec: VerbSpec,
    /// Index of its component in [`Catalog::components`].
    pub component: usize,
}

/// Every verb the host knows, by path.
#[derive(Debug, Default)]
pub struct Catalog {
    components: Vec<Arc<VerbComponent>>,
    trust: Vec<Trust>,
    verbs: BTreeMap<String, Entry>,
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a component's verbs, runnable: [`Trust::Builtin`] for a builtin,
    /// else [`Trust::Trusted`] (the caller vouches for it). A verb path that
    /// is already taken refuses the whole component, naming the verb and the
    /// component that has it.
    pub fn add(&mut self, component: VerbComponent) -> Result<(), Refusal> {
        let trust = match component.origin {
            Origin::Builtin | Origin::Host => Trust::Builtin,
            Origin::File(_) => Trust::Trusted,
        };
        self.add_with_trust(component, trust)
    }

    /// Add a component's verbs with the given trust; see [`Catalog::add`].
    pub fn add_with_trust(
        &mut self,
        component: VerbComponent,
        trust: Trust,
    ) -> Result<(), Refusal> {
        for verb in &component.verbs {
            if let Some(existing) = self.verbs.get(&verb.path_string()) {
                return Err(Refusal {
                    component: component.name.clone(),
                    reason: Reason::Duplicate {
                        verb: verb.path_string(),
                        other: self.components[existing.component].name.clone(),
                    },
                });
            }
        }
        let index = self.components.len();
        for verb in &component.verbs {
            let entry = Entry {
                spec: verb.clone(),
                component: index,
            };
            self.verbs.insert(verb.path_string(), entry);
        }
        self.components.push(Arc::new(component));
        self.trust.push(trust);
        Ok(())
    }

    /// The verb with this path (`vault feature list`).
    pub fn get(&self, path: &str) -> Option<&Entry> {
        self.verbs.get(path)
    }

    /// Every verb, sorted by path.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.verbs.values()
    }

    /// Every component, in the order added.
    pub fn components(&self) -> &[Arc<VerbComponent>] {
        &self.components
    }

    /// The component that provides an entry.
    pub fn component_of(&self, entry: &Entry) -> &Arc<VerbComponent> {
        &self.components[entry.component]
    }

    /// How far the component that provides an entry is trusted
    /// (`discover` marks [`Trust::Untrusted`] entries).
    pub fn trust(&self, entry: &Entry) -> Trust {
        self.trust[entry.component]
    }

    /// How far the component at this index of [`Catalog::components`] is
    /// trusted.
    pub fn component_trust(&self, index: usize) -> Trust {
        self.trust[index]
    }

    /// The component to run an entry with, or the refusal to give when its
    /// component is not trusted (which names `vaultspec verbs trust NAME`).
    /// The sandbox runs nothing else: a [`Runnable`] is made only here.
    pub fn runnable(&self, entry: &Entry) -> Result<Runnable, Untrusted> {
        let component = self.component_of(entry);
        if self.trust(entry).runnable() {
            Ok(Runnable(component.clone()))
        } else {
            Err(Untrusted::new(&entry.spec.path_string(), component))
        }
    }
}

/// A component the catalog found runnable: a builtin, or one a person
/// trusted by digest. [`crate::sandbox::Sandbox::call`] takes only this, so
/// no caller can run a component without asking [`Catalog::runnable`]:
///
/// ```compile_fail
/// use std::sync::Arc;
/// use vaultspec_host::catalog::{Runnable, VerbComponent};
/// fn sneak(component: Arc<VerbComponent>) -> Runnable {
///     Runnable(component)
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Runnable(Arc<VerbComponent>);

impl std::ops::Deref for Runnable {
    type Target = VerbComponent;

    fn deref(&self) -> &VerbComponent {
        &self.0
    }
}
