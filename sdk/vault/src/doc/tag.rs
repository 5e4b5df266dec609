//! Feature-tag names: the one rule for reading a tag's name and for taking a
//! feature the user typed, with or without its `#`.

/// The name a stored tag carries: the tag without its leading `#`s
/// (`#cache-layer` is `cache-layer`), as the reference's `tag.lstrip("#")`.
pub fn tag_name(tag: &str) -> &str {
    tag.trim_start_matches('#')
}

/// A feature as a user typed it (`cache-layer`, `#cache-layer`,
/// ` #cache-layer `): without surrounding whitespace and leading `#`s. Not
/// validated; [`crate::doc::name::normalize`] validates a name to write.
pub fn feature_arg(raw: &str) -> &str {
    tag_name(raw.trim()).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_feature_loses_its_hashes_and_surrounding_space() {
        assert_eq!(feature_arg(" ##cache-layer "), "cache-layer");
        assert_eq!(feature_arg("cache-layer"), "cache-layer");
        assert_eq!(feature_arg("#"), "");
        assert_eq!(tag_name("#adr"), "adr");
    }
}
