//! Multi-file operations are all or nothing: under a failing write, rename
//! or remove at every step, and under a kill at every step followed by
//! recovery (itself killed at every step), the vault ends byte for byte in
//! its old or its new state.

#[path = "../common/mod.rs"]
mod common;
mod disk;
mod faults;
mod harness;
mod memory;
mod recovery;
