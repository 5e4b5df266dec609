//! The builtin framework verbs that write: `spec rules|skills|agents add|
//! remove|rename|restore|sync` and `spec system sync`.
//!
//! Every write goes through `vaultspec:verb/framework-write`, which the
//! host grants to builtins only and confines to the agents' rule, skill and
//! persona folders, their root files and the sources under `.vaultspec/`.
//! The model is `vaultspec_vault::framework`, the same one the host's
//! `install` and `sync` run. `spec rules edit` (an editor at a terminal)
//! stays in the host; the reading verbs are the `framework` component's.

mod sources;
mod sync;

use exports::vaultspec::framework_write::{spec_agents, spec_rules, spec_skills, spec_system};
use vaultspec_sdk::vault::framework::Kind;

/// What `add` was given, whatever the family.
pub struct Add {
    pub body: Option<String>,
    pub from_file: Option<String>,
    pub description: Option<String>,
    pub template: Option<String>,
    pub force: bool,
    pub dry_run: bool,
    pub json: bool,
}

/// What a family's or the system prompt's `sync` was given.
pub struct Sync {
    pub provider: Option<String>,
    pub dry_run: bool,
    pub force: bool,
    pub json: bool,
}

struct Verbs;

/// One family's verbs: the same for rules, skills and personas, but for
/// the interface they are exported from and what `--template` is.
macro_rules! family {
    ($iface:ident, $kind:expr, $template:expr) => {
        impl $iface::Guest for Verbs {
            fn add(options: $iface::AddOptions, name: String) -> u8 {
                let template: fn(&$iface::AddOptions) -> Option<String> = $template;
                let add = Add {
                    template: template(&options),
                    body: options.body,
                    from_file: options.from_file,
                    description: options.description,
                    force: options.force,
                    dry_run: options.dry_run,
                    json: options.json,
                };
                sources::add($kind, &name, &add)
            }

            fn remove(options: $iface::RemoveOptions, name: String) -> u8 {
                sources::remove($kind, &name, options.yes || options.force, options.json)
            }

            fn rename(options: $iface::RenameOptions, old_name: String, new_name: String) -> u8 {
                sources::rename($kind, &old_name, &new_name, options.json)
            }

            fn restore(options: $iface::RestoreOptions, filename: String) -> u8 {
                sources::restore($kind, &filename, options.json)
            }

            fn sync(options: $iface::SyncOptions, provider: Option<String>) -> u8 {
                sync::sync(
                    $kind,
                    Sync {
                        provider,
                        dry_run: options.dry_run,
                        force: options.force,
                        json: options.json,
                    },
                )
            }
        }
    };
}

family!(spec_rules, Kind::Rule, |_| None);
family!(spec_skills, Kind::Skill, |o| o.template.clone());
family!(spec_agents, Kind::Agent, |_| None);

impl spec_system::Guest for Verbs {
    fn sync(options: spec_system::SyncOptions, provider: Option<String>) -> u8 {
        sync::sync(
            Kind::System,
            Sync {
                provider,
                dry_run: options.dry_run,
                force: options.force,
                json: options.json,
            },
        )
    }
}

vaultspec_sdk::verb!(Verbs);
