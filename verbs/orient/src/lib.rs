//! The builtin read-only workspace verbs: `status`, `doctor`, `migrations
//! status`, `config get` and `config list`.
//!
//! None of them writes, so the component imports no write access; `migrations
//! run` and `config set|unset` live in the `admin` component.

mod config;
mod doctor;
mod report;
mod status;
mod table;

use exports::vaultspec::orient::{config as config_iface, migrations};

struct Verbs;

impl Guest for Verbs {
    fn status(options: StatusOptions, target: Option<String>) -> u8 {
        status::status(options, target)
    }

    fn doctor(options: DoctorOptions) -> u8 {
        doctor::doctor(options)
    }
}

impl migrations::Guest for Verbs {
    fn status(options: migrations::StatusOptions) -> u8 {
        config::migrations_status(options)
    }
}

impl config_iface::Guest for Verbs {
    fn get(options: config_iface::GetOptions, key: String) -> u8 {
        config::get(options, key)
    }

    fn list(options: config_iface::ListOptions) -> u8 {
        config::list(options)
    }
}

vaultspec_sdk::verb!(Verbs);
