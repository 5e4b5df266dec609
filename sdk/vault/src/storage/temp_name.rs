//! The names of the temp files atomic writes make beside their targets
//! (`.{name}.vs-{pid}-{random}.tmp`, see the native storage's writes): told
//! apart on every platform, so no reader mistakes one, a live write's or a
//! crashed one's, for a file someone put in the vault.

/// The pid in a temp file's name, if the name is one of ours.
pub fn owner(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, random) = rest.rsplit_once('-')?;
    let (target, pid) = rest.rsplit_once(".vs-")?;
    let hex = !random.is_empty() && random.bytes().all(|b| b.is_ascii_hexdigit());
    let digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    (hex && digits && !target.is_empty())
        .then(|| pid.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_owner_is_read_from_our_temp_names_only() {
        assert_eq!(owner(".a.md.vs-42-00ff00ff00ff00ff.tmp"), Some(42));
        assert_eq!(
            owner(".a.md.vs-42-7.tmp"),
            Some(42),
            "the old counter names are ours too"
        );
        assert_eq!(owner(".x.vs-1.vs-9-ab.tmp"), Some(9));
        for other in [
            "a.md",
            ".a.md.tmp",
            ".vs-42-ab.tmp",
            ".a.vs-x-ab.tmp",
            ".a.vs-42-zz.tmp",
            ".a.vs-42-.tmp",
        ] {
            assert_eq!(owner(other), None, "{other}");
        }
    }
}
