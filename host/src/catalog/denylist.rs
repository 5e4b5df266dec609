//! The verb paths no tool call may reach, and the host's own command words.
//!
//! The MCP gateway refuses a denied path before anything runs
//! (`spec/gateway.md` §1): framework setup and teardown, writes outside the
//! workspace, anything whose purpose is to run or consent to a caller-chosen
//! command, and trust. The catalog applies the same list to third-party
//! components: none may declare a denied path, so a component can never
//! re-open what the list closes.

/// Verb paths the gateway refuses (`verb '…' is out of scope for the gateway
/// (denylisted)`): the 18 paths of the reference server, the writers of
/// hook and trigger files, then the host's trust and scaffolding commands. Trust must come from a person at a
/// terminal, never from a tool call; `verbs new` writes outside the
/// workspace.
pub const DENIED_VERBS: [&str; 26] = [
    "uninstall",
    "install",
    "sync",
    "spec reference generate",
    "spec reference snapshot",
    "spec hooks sync",
    "spec hooks trust",
    "spec hooks add",
    "spec hooks run",
    "spec triggers add",
    "spec triggers run",
    "spec triggers trust",
    "spec hooks edit",
    "spec hooks remove",
    "spec hooks rename",
    "spec triggers edit",
    "spec triggers remove",
    "spec triggers rename",
    "spec mcps add",
    "spec mcps remove",
    "spec mcps sync",
    "spec mcps trust",
    "spec mcps uninstall",
    "vault feature index",
    "verbs trust",
    "verbs new",
];

/// First words of the host's own commands (`vaultspec verbs …`,
/// `vaultspec mcp`, `vaultspec completions`, `vaultspec man`, `vaultspec
/// spec …`): no component may declare a verb under them.
pub const HOST_COMMANDS: [&str; 5] = ["verbs", "mcp", "completions", "man", "spec"];

/// Whether the gateway must refuse this verb path. Whitespace between words
/// does not matter (`"  verbs   trust "` is denied).
pub fn is_denied(path: &str) -> bool {
    let words: Vec<&str> = path.split_whitespace().collect();
    DENIED_VERBS
        .iter()
        .any(|denied| denied.split(' ').eq(words.iter().copied()))
}

/// Whether one verb path is a word-prefix of the other (`vault` and `vault
/// list`, or the same path): two such verbs cannot both be on the command
/// line, because one would be a group and a verb at once.
pub fn overlaps<A: AsRef<str>, B: AsRef<str>>(a: &[A], b: &[B]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.as_ref() == y.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_denylist_and_trust_are_denied() {
        assert!(is_denied("spec hooks trust"));
        assert!(is_denied("  verbs   trust "));
        assert!(is_denied("vault feature index"));
        assert!(!is_denied("vault feature list"));
        assert!(!is_denied("verbs list"));
    }

    #[test]
    fn a_path_overlaps_its_groups_and_itself() {
        let path = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert!(overlaps(&path("vault"), &["vault", "list"]));
        assert!(overlaps(&path("vault list"), &["vault", "list"]));
        assert!(overlaps(&path("vault list x"), &["vault", "list"]));
        assert!(!overlaps(&path("vault stats"), &["vault", "list"]));
    }
}
