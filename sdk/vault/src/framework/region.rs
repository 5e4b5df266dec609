//! vaultspec's region inside a file a person also writes: the lines from an
//! opening marker through the first closing marker after it. Everything
//! outside stays byte for byte.

/// `text` with the region between `open` and `close` holding `body`, or
/// taken out when `body` is `None`; a missing region is appended (after a
/// blank line). `None` when nothing but whitespace would be left, so the
/// caller removes the file instead of leaving it empty.
pub fn splice(text: &str, open: &str, close: &str, body: Option<&str>) -> Option<String> {
    let region = body.map(|body| {
        let body = if body.is_empty() || body.ends_with('\n') {
            body.to_owned()
        } else {
            format!("{body}\n")
        };
        format!("{open}\n{body}{close}\n")
    });
    let out = match (find(text, open, close), region) {
        (Some((start, end)), Some(region)) => format!("{}{region}{}", &text[..start], &text[end..]),
        (Some((start, end)), None) => {
            let mut before = &text[..start];
            // Take back the blank line an append put before the region.
            if end == text.len() && before.ends_with("\n\n") {
                before = &before[..before.len() - 1];
            }
            format!("{before}{}", &text[end..])
        }
        (None, Some(region)) => {
            let mut out = text.to_owned();
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            if !out.is_empty() && !out.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(&region);
            out
        }
        (None, None) => text.to_owned(),
    };
    (!out.trim().is_empty()).then_some(out)
}

/// What the region holds between its marker lines, if `text` has one.
pub fn body<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let (start, end) = find(text, open, close)?;
    let region = &text[start..end];
    let inner = region.split_once('\n').map_or("", |(_, rest)| rest);
    let close_at = inner
        .trim_end_matches('\n')
        .rfind('\n')
        .map_or(0, |i| i + 1);
    Some(&inner[..close_at])
}

/// The byte range of the region, both marker lines and their line ends
/// included.
fn find(text: &str, open: &str, close: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    let mut start = None;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']).trim_end();
        match start {
            None if bare == open => start = Some(offset),
            Some(s) if bare == close => return Some((s, offset + line.len())),
            _ => {}
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPEN: &str = "<vaultspec type=\"config\">";
    const CLOSE: &str = "</vaultspec>";

    #[test]
    fn the_persons_text_stays_around_the_region() {
        let mine = "# My notes\n\nKeep this.";
        let with = splice(mine, OPEN, CLOSE, Some("a\n")).unwrap();
        assert_eq!(
            with,
            "# My notes\n\nKeep this.\n\n<vaultspec type=\"config\">\na\n</vaultspec>\n"
        );
        let changed = splice(&with, OPEN, CLOSE, Some("b")).unwrap();
        assert!(changed.starts_with("# My notes\n\nKeep this.\n\n") && changed.contains("\nb\n"));
        assert_eq!(
            splice(&changed, OPEN, CLOSE, None).unwrap(),
            "# My notes\n\nKeep this.\n"
        );
        let ours_only = splice("", OPEN, CLOSE, Some("a")).unwrap();
        assert_eq!(splice(&ours_only, OPEN, CLOSE, None), None);
    }

    #[test]
    fn text_after_the_region_is_kept_too() {
        let text = "top\n<vaultspec type=\"config\">\nold\n</vaultspec>\nbottom\n";
        assert_eq!(
            splice(text, OPEN, CLOSE, Some("new")).unwrap(),
            "top\n<vaultspec type=\"config\">\nnew\n</vaultspec>\nbottom\n"
        );
        assert_eq!(splice(text, OPEN, CLOSE, None).unwrap(), "top\nbottom\n");
        assert_eq!(body(text, OPEN, CLOSE), Some("old\n"));
        assert_eq!(body("no region\n", OPEN, CLOSE), None);
    }
}
