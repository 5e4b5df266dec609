//! Code that two builtin verb components share, as a plain library each of
//! them links: the settings file and migration table (`orient`, `admin`),
//! running and printing checks (`check`, `check-write`), and what every plan
//! verb does (`plan`, `plan-write`). It is not a component itself.

pub mod check_run;
pub mod config_file;
pub mod migration_table;
pub mod plan_common;
