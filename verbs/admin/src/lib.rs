//! The builtin workspace verbs that write outside documents: `migrations
//! run`, `config set` and `config unset`.

mod config;
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
