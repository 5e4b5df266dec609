//! The search tokenizer of spec/graph-and-search.md §8: lowercase, runs of
//! `[a-z0-9]`, stopwords removed.

/// Words removed from documents and queries.
pub const STOPWORDS: [&str; 33] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "did", "do", "does", "for", "from",
    "how", "in", "is", "it", "no", "not", "of", "on", "or", "that", "the", "this", "to", "was",
    "were", "what", "which", "why", "with",
];

/// Whether `token` is a stopword.
pub fn is_stopword(token: &str) -> bool {
    STOPWORDS.contains(&token)
}

/// Call `f` with every token of `text`, in order, duplicates included.
///
/// The text is lowercased first (so a non-ASCII letter whose lowercase is
/// ASCII, like the Kelvin sign, still counts) and split on anything outside
/// `[a-z0-9]`: `config-merge` gives `config`, `merge`; `naïve` gives `na`, `ve`.
pub fn for_each_token(text: &str, mut f: impl FnMut(&str)) {
    let mut buf = String::with_capacity(32);
    let flush = |buf: &mut String, f: &mut dyn FnMut(&str)| {
        if !buf.is_empty() {
            if !is_stopword(buf) {
                f(buf);
            }
            buf.clear();
        }
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            let l = b.to_ascii_lowercase();
            if l.is_ascii_alphanumeric() {
                buf.push(char::from(l));
            } else {
                flush(&mut buf, &mut f);
            }
            i += 1;
            continue;
        }
        let c = text[i..]
            .chars()
            .next()
            .expect("a char starts at every boundary");
        for l in c.to_lowercase() {
            if l.is_ascii_lowercase() || l.is_ascii_digit() {
                buf.push(l);
            } else {
                flush(&mut buf, &mut f);
            }
        }
        i += c.len_utf8();
    }
    flush(&mut buf, &mut f);
}

/// Every token of `text`, in order, duplicates included.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |t| out.push(t.to_owned()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyphens_punctuation_and_case_split_tokens() {
        assert_eq!(
            tokens("Config-Merge of the v2 API!"),
            ["config", "merge", "v2", "api"]
        );
    }

    #[test]
    fn stopwords_go_and_duplicates_stay() {
        assert_eq!(tokens("what is the cache, the CACHE"), ["cache", "cache"]);
    }

    #[test]
    fn non_ascii_letters_split_tokens_unless_they_lowercase_to_ascii() {
        assert_eq!(tokens("naïve café"), ["na", "ve", "caf"]);
        // U+212A KELVIN SIGN lowercases to ASCII `k`.
        assert_eq!(tokens("\u{212A}ey"), ["key"]);
    }
}
