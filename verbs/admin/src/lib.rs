//! The builtin workspace verbs that write outside documents: `migrations
//! run`, `config set` and `config unset`.

mod config;
#[path = "../../orient/src/config_file.rs"]
#[allow(
    dead_code,
    reason = "shared with the orient component, which uses the reading half"
)]
mod config_file;
#[path = "../../orient/src/migration_table.rs"]
#[allow(dead_code, reason = "shared with the orient component")]
mod migration_table;
mod migrations;

use exports::vaultspec::admin::{config as config_iface, migrations as migrations_iface};

struct Verbs;

impl migrations_iface::Guest for Verbs {
    fn run(options: migrations_iface::RunOptions) -> u8 {
        migrations::run(options)
    }
}

impl config_iface::Guest for Verbs {
    fn set(options: config_iface::SetOptions, key: String, value: String) -> u8 {
        config::set(options.json, &key, Some(&value))
    }

    fn unset(options: config_iface::UnsetOptions, key: String) -> u8 {
        config::set(options.json, &key, None)
    }
}

vaultspec_sdk::verb!(Verbs);
