//! The builtin read-only framework verbs: `spec rules|skills|agents list|
//! show|status` and `spec system show`.
//!
//! The sources live under `.vaultspec/`; `sync` (in the `framework-write`
//! component) renders them into each coding agent's files. These verbs
//! import no write access, so `discover` marks them read-only. The model is
//! `vaultspec_vault::framework`, the same one the host's `install` and
//! `sync` run.

mod sources;
mod standing;

use exports::vaultspec::framework::{spec_agents, spec_rules, spec_skills, spec_system};
use vaultspec_sdk::vault::framework::Kind;

struct Verbs;

/// One family's verbs, the same for rules, skills and personas.
macro_rules! family {
    ($iface:ident, $kind:expr) => {
        impl $iface::Guest for Verbs {
            fn list(options: $iface::ListOptions) -> u8 {
                sources::list($kind, options.json)
            }

            fn show(options: $iface::ShowOptions, name: String) -> u8 {
                sources::show($kind, &name, options.json)
            }

            fn status(options: $iface::StatusOptions) -> u8 {
                standing::status($kind, options.json)
            }
        }
    };
}

family!(spec_rules, Kind::Rule);
family!(spec_skills, Kind::Skill);
family!(spec_agents, Kind::Agent);

impl spec_system::Guest for Verbs {
    fn show(options: spec_system::ShowOptions) -> u8 {
        standing::system_show(options.json)
    }
}

vaultspec_sdk::verb!(Verbs);
