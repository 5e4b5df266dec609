//! The block of lines vaultspec keeps in `.gitignore` and `.gitattributes`,
//! between two marker lines, with everything around it left byte for byte.
//!
//! The markers and the lines are the reference's, so a file that either tool
//! set up is recognised by the other and never gets a second block.

/// The line that opens the block.
pub const START: &str = "# >>> vaultspec-managed (do not edit this block) >>>";
/// The line that closes the block.
pub const END: &str = "# <<< vaultspec-managed <<<";

/// What the block holds in `.gitignore`: the vault's machine-local folders
/// (locks, logs, editor state), lock and ownership files, and secrets.
pub const GITIGNORE: &[&str] = &[
    ".env",
    ".env.*",
    ".vault/.obsidian/",
    ".vault/.trash/",
    ".vault/data/",
    ".vault/logs/",
    ".vaultspec/*.lock",
    ".vaultspec/_snapshots/",
    ".vaultspec/mcp-ownership.json",
    ".vaultspec/providers.json",
    "/.gitignore.lock",
    "/.mcp.json.lock",
    "/.pre-commit-config.yaml.lock",
    "/.vaultspec/.env",
    "/.vaultspec/.env.*",
    "!.env.example",
];

/// What the block holds in `.gitattributes`: LF line ends, and execution
/// ledgers merged by union so that two branches' rows both survive.
pub const GITATTRIBUTES: &[&str] = &[
    "* text=auto eol=lf",
    "*.bat text eol=crlf",
    "*.cmd text eol=crlf",
    ".vault/exec/**/*-ledger.md merge=union",
];

/// Where an existing block sits in a file: the byte range from the start of
/// its opening line to the end of its closing line (newline included).
fn find(text: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    let mut start = None;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if start.is_none() && bare == START {
            start = Some(offset);
        } else if let Some(start) = start
            && bare == END
        {
            return Some((start, offset + line.len()));
        }
        offset += line.len();
    }
    None
}

/// The block with `lines`, markers included, ending with a newline.
fn render(lines: &[&str]) -> String {
    let mut block = format!("{START}\n");
    for line in lines {
        block.push_str(line);
        block.push('\n');
    }
    block.push_str(END);
    block.push('\n');
    block
}

/// The lines inside the block `text` carries, markers left out.
pub fn lines(text: &str) -> Option<Vec<&str>> {
    let (start, end) = find(text)?;
    let mut lines: Vec<&str> = text[start..end]
        .lines()
        .map(|line| line.trim_end_matches('\r'))
        .collect();
    lines.remove(0);
    lines.pop();
    Some(lines)
}

/// Whether `text` already carries a block (whatever is in it).
pub fn present(text: &str) -> bool {
    find(text).is_some()
}

/// `text` with a block of `lines`: an existing block's content replaced,
/// else a new block appended after a blank line.
pub fn upsert(text: &str, lines: &[&str]) -> String {
    let block = render(lines);
    if let Some((start, end)) = find(text) {
        return format!("{}{block}{}", &text[..start], &text[end..]);
    }
    let mut out = text.to_owned();
    if !out.is_empty() {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    out.push_str(&block);
    out
}

/// `text` without its block, and without the blank line [`upsert`] put
/// before it; `None` when there is no block.
pub fn remove(text: &str) -> Option<String> {
    let (start, end) = find(text)?;
    let before = &text[..start];
    let before = before.strip_suffix('\n').map_or(before, |rest| {
        if rest.is_empty() || rest.ends_with('\n') {
            rest
        } else {
            before
        }
    });
    Some(format!("{before}{}", &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_appended_after_a_blank_line_and_the_rest_is_kept() {
        let mine = "target/\n# mine";
        let text = upsert(mine, &["a", "b"]);
        assert_eq!(text, format!("target/\n# mine\n\n{START}\na\nb\n{END}\n"));
        assert_eq!(upsert("", &["a"]), format!("{START}\na\n{END}\n"));
    }

    #[test]
    fn an_existing_block_is_replaced_in_place() {
        let text = format!("top\n\n{START}\nold\n{END}\nbottom\n");
        assert!(present(&text));
        assert_eq!(
            upsert(&text, &["new"]),
            format!("top\n\n{START}\nnew\n{END}\nbottom\n")
        );
        assert_eq!(
            upsert(&upsert(&text, &["new"]), &["new"]),
            upsert(&text, &["new"])
        );
    }

    #[test]
    fn removing_restores_what_upsert_started_from() {
        for original in ["target/\n# mine\n", "", "x\n"] {
            let with = upsert(original, GITIGNORE);
            assert_eq!(remove(&with).as_deref(), Some(original), "{original:?}");
        }
        assert_eq!(remove("no block\n"), None);
        let between = format!("a\n{START}\nx\n{END}\nb\n");
        assert_eq!(remove(&between).as_deref(), Some("a\nb\n"));
    }

    #[test]
    fn an_unclosed_block_is_not_a_block() {
        let text = format!("{START}\nx\n");
        assert!(!present(&text));
        assert!(upsert(&text, &["y"]).starts_with(&text));
    }
}
