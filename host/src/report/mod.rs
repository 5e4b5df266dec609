//! How every command of the host speaks to its caller: the exit codes and
//! their table ([`exit`]), failures as text or one JSON document
//! ([`Reporter`]), and writes to stdout that a closed pipe does not break.
//!
//! It sits below the command line and the provisioning commands alike, so
//! both report the same way without either reaching into the other.

pub mod exit;
mod folded;
mod printed;
mod reporter;

pub use folded::fold_exit_code;
pub use printed::Printed;
pub use reporter::{Reporter, json_requested, print_envelope, write_stdout};
