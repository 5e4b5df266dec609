//! The reference's spellings that clash with the host's own flags, turned
//! into ours before the command line is parsed.
//!
//! `vault plan tier promote|demote` take the tier to reach as `--target L4`
//! in vaultspec-core, where `--target` is also the root's workspace flag.
//! The reference reads a `--target` after those words as the tier; so do we,
//! by spelling it `--to` (the verb's own flag, since `--target` is reserved
//! for the host). A `--target` before the words stays the workspace.

use std::ffi::OsString;

/// The command paths whose own `--target` is a tier, not the workspace.
const TIER_TARGET: [[&str; 4]; 2] = [
    ["vault", "plan", "tier", "promote"],
    ["vault", "plan", "tier", "demote"],
];

/// `args` with every `--target` after a tier verb's words spelled `--to`.
pub fn normalise(mut args: Vec<OsString>) -> Vec<OsString> {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let end = words.iter().position(|w| w == "--").unwrap_or(words.len());
    let Some(start) = (0..end).find(|&i| {
        TIER_TARGET
            .iter()
            .any(|path| words[i..end].starts_with(&path.map(String::from)))
    }) else {
        return args;
    };
    for (i, word) in words.iter().enumerate().take(end).skip(start + 4) {
        if word == "--target" {
            args[i] = "--to".into();
        } else if let Some(value) = word.strip_prefix("--target=") {
            args[i] = format!("--to={value}").into();
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn a_target_after_the_tier_verb_is_the_tier() {
        assert_eq!(
            normalise(args(&[
                "vs", "--target", "/w", "vault", "plan", "tier", "promote", "p", "--target", "L4"
            ])),
            args(&[
                "vs", "--target", "/w", "vault", "plan", "tier", "promote", "p", "--to", "L4"
            ])
        );
        assert_eq!(
            normalise(args(&[
                "vs",
                "vault",
                "plan",
                "tier",
                "demote",
                "p",
                "--target=L1"
            ])),
            args(&["vs", "vault", "plan", "tier", "demote", "p", "--to=L1"])
        );
    }

    #[test]
    fn other_verbs_and_words_after_a_double_dash_keep_their_target() {
        let list = args(&["vs", "vault", "list", "--target", "/w"]);
        assert_eq!(normalise(list.clone()), list);
        let list = args(&["vs", "vault", "plan", "tier", "promote", "--", "--target"]);
        assert_eq!(normalise(list.clone()), list);
    }
}
