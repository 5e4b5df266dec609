//! The variables through which the host hands a builtin component what
//! only the host can know. A builtin reads them; a third-party component
//! never gets them, and without them each builtin still answers on its own.

/// What the host's `migrations run` pass did before the component runs: a
/// JSON object, migration name → `{ "detail": …, "changes": […] }`.
pub const MIGRATIONS_DONE: &str = "VAULTSPEC_HOST_MIGRATIONS";

/// The host's `spec doctor` report for the root `doctor`: a JSON object
/// `{ "exit": <its exit code>, "data": <its data> }`.
pub const SPEC_DOCTOR: &str = "VAULTSPEC_SPEC_DOCTOR";
