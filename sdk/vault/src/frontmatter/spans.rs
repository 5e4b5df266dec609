//! The modelled frontmatter as a document keeps it: where each value lies
//! in the document's own YAML, not a copy of it.
//!
//! Every value the line scanner reads is a slice of the YAML (trimmed,
//! quotes stripped), so a document that holds its text needs only the
//! places. A server holds one of these for every document of the vault;
//! as copies (a `String` per tag, link and date, each its own allocation,
//! and 360 bytes of fields) they raised its peak at 100,000 documents from
//! 385 to 459 MiB. [`MetaRef`] reads them back as `&str`, and
//! [`MetaRef::to_owned`] gives the editable [`Metadata`].

use super::scan::{Entry, LIST_KEYS, Metadata, scan_lines, strip_quotes};

/// The scalar keys, in the order of [`MetaSpans`]' slots.
const SCALAR_KEYS: [&str; 10] = [
    "date",
    "modified",
    "superseded_by",
    "archived",
    "step_id",
    "body_schema",
    "body_hash",
    "feature",
    "tier",
    "generated",
];

/// Byte range of one value within the YAML it was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    /// A key not written, or written empty where empty reads as absent.
    const ABSENT: Span = Span {
        start: u32::MAX,
        len: 0,
    };

    /// Where `part`, a slice of `yaml`, lies in it. A value past 4 GiB into
    /// the YAML cannot be placed: a scalar reads as absent, an item is left
    /// out.
    fn of(yaml: &str, part: &str) -> Span {
        let start = part.as_ptr() as usize - yaml.as_ptr() as usize;
        debug_assert!(start + part.len() <= yaml.len(), "a slice of the YAML");
        match (u32::try_from(start), u32::try_from(part.len())) {
            (Ok(start), Ok(len)) if start != u32::MAX => Span { start, len },
            _ => Span::ABSENT,
        }
    }

    fn get(self, yaml: &str) -> Option<&str> {
        (self != Span::ABSENT).then(|| &yaml[self.start as usize..][..self.len as usize])
    }
}

/// The modelled keys of a frontmatter, as places in its YAML.
///
/// One allocation holds the places of the scalars written (a document
/// writes three or four of the ten) and then every list's items: a slot
/// per scalar key, written or not, made this record three times larger,
/// and a server keeps one per document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetaSpans {
    /// The written scalars in [`SCALAR_KEYS`] order, then every list's
    /// items, the lists in [`LIST_KEYS`] order.
    spans: Box<[Span]>,
    /// Which scalar keys are written: bit `n` for `SCALAR_KEYS[n]`.
    written: u16,
    /// Where each list's items end in `spans`.
    ends: [u32; LIST_KEYS.len()],
}

impl MetaSpans {
    /// Reads `yaml` (the text between the fences) with the line scanner:
    /// the last occurrence of a key wins, a list key written again starts
    /// its list afresh, and every scalar but `date` reads as absent when
    /// written empty.
    pub fn read(yaml: &str) -> MetaSpans {
        let mut scalars = [Span::ABSENT; SCALAR_KEYS.len()];
        // Items tagged with their list; a list written again drops its
        // earlier items.
        let mut items: Vec<(usize, Span)> = Vec::new();
        scan_lines(yaml, |entry| match entry {
            Entry::Key { key, value, .. } => {
                if let Some(list) = LIST_KEYS.iter().position(|k| *k == key) {
                    items.retain(|(l, _)| *l != list);
                } else if let Some(slot) = SCALAR_KEYS.iter().position(|k| *k == key) {
                    let value = strip_quotes(value);
                    scalars[slot] = if value.is_empty() && key != "date" {
                        Span::ABSENT
                    } else {
                        Span::of(yaml, value)
                    };
                }
            }
            Entry::Item { key, item } => {
                let span = Span::of(yaml, item);
                if let Some(list) = LIST_KEYS.iter().position(|k| *k == key)
                    && span != Span::ABSENT
                {
                    items.push((list, span));
                }
            }
        });
        // Stable: each list keeps its items in the order written.
        items.sort_by_key(|(list, _)| *list);
        let mut written = 0;
        let mut spans = Vec::with_capacity(SCALAR_KEYS.len() + items.len());
        for (slot, span) in scalars.into_iter().enumerate() {
            if span != Span::ABSENT {
                written |= 1 << slot;
                spans.push(span);
            }
        }
        let mut ends = [0; LIST_KEYS.len()];
        for (list, end) in ends.iter_mut().enumerate() {
            *end = (spans.len() + items.partition_point(|(l, _)| *l <= list)) as u32;
        }
        spans.extend(items.into_iter().map(|(_, span)| span));
        MetaSpans {
            spans: spans.into_boxed_slice(),
            written,
            ends,
        }
    }

    /// The place of the scalar in slot `slot`, if it is written.
    fn scalar(&self, slot: usize) -> Option<Span> {
        let bit = 1u16 << slot;
        (self.written & bit != 0)
            .then(|| self.spans[(self.written & (bit - 1)).count_ones() as usize])
    }

    /// The values, read from `yaml`: the YAML these places were read from.
    pub fn view<'t>(&'t self, yaml: &'t str) -> MetaRef<'t> {
        MetaRef { spans: self, yaml }
    }
}

/// The modelled frontmatter of a document, read through its places.
#[derive(Debug, Clone, Copy)]
pub struct MetaRef<'t> {
    spans: &'t MetaSpans,
    yaml: &'t str,
}

/// One list key's items.
#[derive(Debug, Clone, Copy)]
pub struct List<'t> {
    spans: &'t [Span],
    yaml: &'t str,
}

impl<'t> List<'t> {
    /// How many items the list has.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the list has no items.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The items, in the order written.
    pub fn iter(&self) -> Items<'t> {
        Items {
            spans: self.spans.iter(),
            yaml: self.yaml,
        }
    }

    /// The item at `index`.
    pub fn get(&self, index: usize) -> Option<&'t str> {
        self.spans.get(index).and_then(|s| s.get(self.yaml))
    }

    /// Whether `item` is among the items.
    pub fn contains(&self, item: &str) -> bool {
        self.iter().any(|i| i == item)
    }

    /// The items, copied.
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_owned).collect()
    }
}

impl<'t> IntoIterator for List<'t> {
    type Item = &'t str;
    type IntoIter = Items<'t>;

    fn into_iter(self) -> Items<'t> {
        self.iter()
    }
}

/// The items of a [`List`], in the order written.
#[derive(Debug, Clone)]
pub struct Items<'t> {
    spans: std::slice::Iter<'t, Span>,
    yaml: &'t str,
}

impl<'t> Items<'t> {
    fn read(&self, span: &Span) -> &'t str {
        span.get(self.yaml).expect("a list item is always placed")
    }
}

impl<'t> Iterator for Items<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let span = self.spans.next()?;
        Some(self.read(span))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.spans.size_hint()
    }
}

impl DoubleEndedIterator for Items<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let span = self.spans.next_back()?;
        Some(self.read(span))
    }
}

impl ExactSizeIterator for Items<'_> {}

macro_rules! scalars {
    ($($(#[$doc:meta])* $name:ident = $slot:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(&self) -> Option<&'t str> {
                debug_assert_eq!(SCALAR_KEYS[$slot], stringify!($name));
                self.spans.scalar($slot).and_then(|span| span.get(self.yaml))
            }
        )*
    };
}

macro_rules! lists {
    ($($(#[$doc:meta])* $name:ident = $list:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(&self) -> List<'t> {
                debug_assert_eq!(LIST_KEYS[$list], stringify!($name));
                self.list($list)
            }
        )*
    };
}

impl<'t> MetaRef<'t> {
    scalars! {
        /// `date:` as authored, quotes removed (`Some("")` when written empty).
        date = 0;
        /// `modified:`.
        modified = 1;
        /// `superseded_by:`.
        superseded_by = 2;
        /// `archived:`.
        archived = 3;
        /// `step_id:` of legacy exec records.
        step_id = 4;
        /// `body_schema:`.
        body_schema = 5;
        /// `body_hash:`.
        body_hash = 6;
        /// The legacy bare `feature:` key.
        feature = 7;
        /// `tier:` of plans.
        tier = 8;
        /// `generated:` as written (feature indexes say `true`).
        generated = 9;
    }

    lists! {
        /// `tags:` items, quotes removed (`#adr`, `#feature`).
        tags = 0;
        /// `related:` items, quotes removed (`[[stem]]`).
        related = 1;
        /// `supersedes:` items (plain stems).
        supersedes = 2;
        /// `derived_from:` items.
        derived_from = 3;
        /// `promoted_to:` items.
        promoted_to = 4;
    }

    fn list(&self, list: usize) -> List<'t> {
        let start = match list.checked_sub(1) {
            Some(before) => self.spans.ends[before],
            None => self.spans.written.count_ones(),
        } as usize;
        List {
            spans: &self.spans.spans[start..self.spans.ends[list] as usize],
            yaml: self.yaml,
        }
    }

    /// The values, copied into the editable form.
    pub fn to_owned(&self) -> Metadata {
        let own = |v: Option<&str>| v.map(str::to_owned);
        Metadata {
            tags: self.tags().to_vec(),
            related: self.related().to_vec(),
            supersedes: self.supersedes().to_vec(),
            derived_from: self.derived_from().to_vec(),
            promoted_to: self.promoted_to().to_vec(),
            date: own(self.date()),
            modified: own(self.modified()),
            superseded_by: own(self.superseded_by()),
            archived: own(self.archived()),
            step_id: own(self.step_id()),
            body_schema: own(self.body_schema()),
            body_hash: own(self.body_hash()),
            feature: own(self.feature()),
            tier: own(self.tier()),
            generated: own(self.generated()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_read_back_every_key_as_the_scanner_reads_it() {
        let yaml = "tags:\n  - '#adr'\n  - \"#x\"\ndate: ''\nmodified: \"2026-01-06\"\n\
                    related: [\"[[a]]\", '[[b]]']\nsuperseded_by:\nsupersedes: [old]\n\
                    body_hash: 'sha256:00'\ntier: L1\ngenerated: true\nfeature: Cache\n\
                    step_id: S01\narchived: 2026-02-01\nbody_schema: v1\n\
                    derived_from:\n  - '[[r]]'\npromoted_to: ['[[p]]']\n";
        let spans = MetaSpans::read(yaml);
        let meta = spans.view(yaml);
        assert_eq!(meta.tags().to_vec(), ["#adr", "#x"]);
        assert_eq!(meta.related().to_vec(), ["[[a]]", "[[b]]"]);
        assert_eq!(meta.supersedes().to_vec(), ["old"]);
        assert_eq!(meta.derived_from().to_vec(), ["[[r]]"]);
        assert_eq!(meta.promoted_to().to_vec(), ["[[p]]"]);
        assert_eq!(meta.date(), Some(""));
        assert_eq!(meta.modified(), Some("2026-01-06"));
        assert_eq!(meta.superseded_by(), None);
        assert_eq!(meta.body_hash(), Some("sha256:00"));
        assert_eq!(meta.tier(), Some("L1"));
        assert_eq!(meta.generated(), Some("true"));
        assert_eq!(meta.feature(), Some("Cache"));
        assert_eq!(meta.step_id(), Some("S01"));
        assert_eq!(meta.archived(), Some("2026-02-01"));
        assert_eq!(meta.body_schema(), Some("v1"));
        assert_eq!(meta.related().get(1), Some("[[b]]"));
        assert!(meta.tags().contains("#x") && !meta.tags().contains("x"));
    }

    #[test]
    fn a_list_written_again_starts_afresh_and_others_keep_their_items() {
        let yaml = "tags:\n- '#a'\nrelated: ['[[x]]']\ntags:\n- '#b'\n- '#c'\n\
                    modified: 2026-01-01\nmodified:\n";
        let spans = MetaSpans::read(yaml);
        let meta = spans.view(yaml);
        assert_eq!(meta.tags().to_vec(), ["#b", "#c"]);
        assert_eq!(meta.related().to_vec(), ["[[x]]"]);
        assert!(meta.supersedes().is_empty());
        assert_eq!(meta.modified(), None, "written empty last");
    }

    #[test]
    fn nothing_written_reads_as_nothing() {
        let spans = MetaSpans::read("");
        let meta = spans.view("");
        assert_eq!(meta.to_owned(), Metadata::default());
        assert_eq!(meta.date(), None);
        assert_eq!(meta.tags().len(), 0);
    }
}
