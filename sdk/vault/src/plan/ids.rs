//! Plan identifiers: parsing, ordering and allocation of `S##`, `P##` and
//! `W##` ids (spec/plan-format.md §5).
//!
//! Ids are flat per document and append-only: the next id of a kind is one
//! past the highest number ever used by a live or retired id of that kind, and
//! inserted Phases and Waves take the first free lowercase suffix of a base.

use std::fmt;

/// The three kinds of plan identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A Wave (`W##`).
    Wave,
    /// A Phase (`P##`).
    Phase,
    /// A Step (`S##`).
    Step,
}

impl Kind {
    /// The id letter of the kind.
    pub fn letter(self) -> char {
        match self {
            Kind::Wave => 'W',
            Kind::Phase => 'P',
            Kind::Step => 'S',
        }
    }

    /// The kind's name as written in messages (`Step`, `Phase`, `Wave`).
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Wave => "Wave",
            Kind::Phase => "Phase",
            Kind::Step => "Step",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.noun())
    }
}

/// The parts of an id such as `P02a`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdParts {
    /// The kind, from the leading letter.
    pub kind: Kind,
    /// The numeric part.
    pub number: u64,
    /// How many digits the number was written with.
    pub digits: usize,
    /// The optional lowercase suffix letter.
    pub suffix: Option<char>,
}

/// Parses `[SPW]\d+[a-z]?` (lenient width); `None` for anything else.
pub fn parse_id(id: &str) -> Option<IdParts> {
    let mut chars = id.chars();
    let kind = match chars.next()? {
        'S' => Kind::Step,
        'P' => Kind::Phase,
        'W' => Kind::Wave,
        _ => return None,
    };
    let rest = chars.as_str();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 18 {
        return None;
    }
    let tail = &rest[digits..];
    let suffix = match tail.len() {
        0 => None,
        1 if tail.as_bytes()[0].is_ascii_lowercase() => Some(tail.as_bytes()[0] as char),
        _ => return None,
    };
    Some(IdParts {
        kind,
        number: rest[..digits].parse().ok()?,
        digits,
        suffix,
    })
}

/// Whether `id` is a canonical id of `kind`: at least two digits, a suffix
/// only on Phases and Waves.
pub fn is_canonical(id: &str, kind: Kind) -> bool {
    parse_id(id).is_some_and(|p| {
        p.kind == kind && p.digits >= 2 && (kind != Kind::Step || p.suffix.is_none())
    })
}

/// The sort key of an id: number, then suffix (none first), then text.
pub fn sort_key(id: &str) -> (u64, u32, String) {
    match parse_id(id) {
        Some(p) => (p.number, p.suffix.map_or(0, |c| c as u32), id.to_string()),
        None => (u64::MAX, u32::MAX, id.to_string()),
    }
}

/// Formats `kind` + `number`, zero-padded to at least two digits.
pub fn format_id(kind: Kind, number: u64) -> String {
    format!("{}{number:02}", kind.letter())
}

/// The next id of `kind` given every id used so far (live and retired):
/// one past the highest number, or 1.
pub fn next_id<'a>(kind: Kind, used: impl IntoIterator<Item = &'a str>) -> String {
    let max = used
        .into_iter()
        .filter_map(parse_id)
        .filter(|p| p.kind == kind)
        .map(|p| p.number)
        .max()
        .unwrap_or(0);
    format_id(kind, max + 1)
}

/// The numeric base of an id: the id without its suffix (`P01a` -> `P01`).
pub fn base_of(id: &str) -> &str {
    match id.as_bytes().last() {
        Some(b) if b.is_ascii_lowercase() => &id[..id.len() - 1],
        _ => id,
    }
}

/// The first free suffixed id on `base` (`P01` -> `P01a`, `P01b`, ...), given
/// every id used so far; `None` when `a`..`z` are all taken.
pub fn suffixed_id<'a>(
    base: &str,
    used: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<String> {
    let base_number = parse_id(base)?.number;
    let base_kind = parse_id(base)?.kind;
    ('a'..='z').find_map(|c| {
        let taken = used
            .clone()
            .into_iter()
            .filter_map(parse_id)
            .any(|p| p.kind == base_kind && p.number == base_number && p.suffix == Some(c));
        (!taken).then(|| format!("{base}{c}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_id_skips_every_used_number() {
        assert_eq!(next_id(Kind::Step, ["S01", "S03"]), "S04");
        assert_eq!(next_id(Kind::Phase, []), "P01");
        assert_eq!(next_id(Kind::Step, ["S99"]), "S100");
        assert_eq!(next_id(Kind::Phase, ["P02a", "S09"]), "P03");
    }

    #[test]
    fn suffixes_are_allocated_in_order() {
        assert_eq!(suffixed_id("P01", ["P01", "P02"]).as_deref(), Some("P01a"));
        assert_eq!(suffixed_id("P01", ["P01", "P01a"]).as_deref(), Some("P01b"));
        assert_eq!(base_of("W01a"), "W01");
    }

    #[test]
    fn canonical_ids_need_two_digits() {
        assert!(is_canonical("S01", Kind::Step));
        assert!(!is_canonical("S1", Kind::Step));
        assert!(!is_canonical("S01a", Kind::Step));
        assert!(is_canonical("P01a", Kind::Phase));
        assert!(sort_key("P01") < sort_key("P01a"));
        assert!(sort_key("P01a") < sort_key("P02"));
    }
}
