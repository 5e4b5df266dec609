//! The exit codes of `vaultspec`, in one place: the constants every part of
//! the command line returns, and the table `--help` prints.
//!
//! They follow the reference (`spec/cli-verbs.md` §0) where it has a code:
//! 1 for what the verb found or refused, 2 for input the command line or the
//! verb could not accept. A failure of the host itself (a verb that
//! crashed, ran out of time or memory, or a component that could not be
//! loaded) has a code of its own, so a script can tell "the vault has
//! problems" from "vaultspec broke".

/// It worked (also when there was nothing to do).
pub const OK: u8 = 0;
/// The verb found problems (`vault check` errors, pending migrations,
/// `commit-gate` blocking) or refused the request (no workspace, a document
/// that does not exist, an untrusted component).
pub const FINDINGS: u8 = 1;
/// The command line was wrong: an unknown verb or flag, a missing operand,
/// a value of the wrong type. (`doctor` also exits 2 when it found errors,
/// as the reference does.)
pub const USAGE: u8 = 2;
/// The editor `spec rules|skills|agents edit` started failed.
pub const EDITOR_FAILED: u8 = 3;
/// The edit was cancelled in the editor.
pub const EDITOR_CANCELLED: u8 = 4;
/// vaultspec itself failed: a verb crashed, ran past its time or memory, or
/// the host could not load or run it (`EX_SOFTWARE` of sysexits).
pub const INTERNAL: u8 = 70;

/// The table, as `vaultspec --help` shows it after the commands.
pub fn help_table() -> String {
    let rows = [
        (OK, "success, including nothing to do"),
        (
            FINDINGS,
            "the verb found problems or refused the request (check errors, no workspace, unknown document, plan or document type)",
        ),
        (
            USAGE,
            "bad command line: unknown verb or flag, missing operand or flag, a flag value of the wrong type or outside its choices",
        ),
        (
            EDITOR_FAILED,
            "the editor failed (spec rules|skills|agents edit)",
        ),
        (EDITOR_CANCELLED, "the edit was cancelled in the editor"),
        (
            INTERNAL,
            "vaultspec itself failed: a verb crashed or ran out of time or memory",
        ),
    ];
    let mut text = String::from("Exit codes:\n");
    for (code, meaning) in rows {
        text.push_str(&format!("  {code:>3}  {meaning}\n"));
    }
    text.push_str(
        "\nWith --json, every failure is one JSON document on stdout:\n  \
         {\"schema\":\"vaultspec.error.v1\",\"status\":\"failed\",\"data\":{\"message\":…,\"exit_code\":…}}",
    );
    text
}
