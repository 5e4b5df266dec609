//! Posting lists packed for a long-lived index: each term's `(block, tf)`
//! pairs, in block order, as LEB128 varints of the gap to the previous block
//! and of the count.
//!
//! A server keeps its search index for as long as it runs. Stored as
//! `(u32, u32)` pairs, the postings of a 100,000-document vault took about
//! 100 MiB (eight bytes for what is mostly a one-byte gap and a one-byte
//! count); packed, the same pairs take about a third of that, and a query
//! decodes only the lists of its own terms. Each list keeps the buffer it
//! grew in, cut to its length: copying them all into one buffer held the
//! postings twice at the end of the build, the peak of a server's memory.

/// Posting lists being collected, one growing list per term.
#[derive(Debug, Default)]
pub(crate) struct PostingsBuilder {
    lists: Vec<List>,
}

#[derive(Debug, Default)]
struct List {
    bytes: Vec<u8>,
    count: u32,
    last: u32,
}

impl PostingsBuilder {
    /// Open an empty list for a new term; its id is the number of terms
    /// opened before it.
    pub(crate) fn add_term(&mut self) -> u32 {
        self.lists.push(List::default());
        (self.lists.len() - 1) as u32
    }

    /// Append `(block, tf)` to `term`'s list. Blocks must arrive in
    /// strictly ascending order for each term.
    pub(crate) fn push(&mut self, term: u32, block: u32, tf: u32) {
        let list = &mut self.lists[term as usize];
        debug_assert!(
            list.count == 0 || block > list.last,
            "blocks arrive in ascending order"
        );
        let gap = if list.count == 0 {
            block
        } else {
            block - list.last
        };
        put_varint(&mut list.bytes, gap);
        put_varint(&mut list.bytes, tf);
        list.count += 1;
        list.last = block;
    }

    /// Every list, each cut to its length (in place: no list is copied).
    pub(crate) fn finish(self) -> Postings {
        let lists = self
            .lists
            .into_iter()
            .map(|list| Packed {
                bytes: list.bytes.into_boxed_slice(),
                count: list.count,
            })
            .collect();
        Postings { lists }
    }
}

/// One term's pairs and how many there are (the term's document
/// frequency, in blocks).
#[derive(Debug, Clone)]
struct Packed {
    bytes: Box<[u8]>,
    count: u32,
}

/// Every term's posting list, packed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Postings {
    lists: Box<[Packed]>,
}

impl Postings {
    /// How many blocks contain `term`.
    pub(crate) fn count(&self, term: u32) -> u32 {
        self.lists[term as usize].count
    }

    /// `term`'s `(block, tf)` pairs, in block order.
    pub(crate) fn list(&self, term: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let Packed { bytes, count } = &self.lists[term as usize];
        let mut at = 0;
        let mut block = 0u32;
        (0..*count).map(move |i| {
            let gap = get_varint(bytes, &mut at);
            let tf = get_varint(bytes, &mut at);
            block = if i == 0 { gap } else { block + gap };
            (block, tf)
        })
    }
}

/// Append `n` as an LEB128 varint: seven bits a byte, low bits first, the
/// high bit set on every byte but the last.
fn put_varint(out: &mut Vec<u8>, mut n: u32) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Read the varint at `*at` and move past it.
fn get_varint(bytes: &[u8], at: &mut usize) -> u32 {
    let mut n = 0u32;
    let mut shift = 0;
    loop {
        let byte = bytes[*at];
        *at += 1;
        n |= u32::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return n;
        }
        shift += 7;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_back_as_they_were_pushed() {
        // Gaps and counts of every varint width, block 0 first, the widest
        // values a u32 holds, and terms whose pushes interleave.
        let lists: [Vec<(u32, u32)>; 4] = [
            vec![
                (0, 1),
                (1, 127),
                (128, 128),
                (16_511, 16_384),
                (u32::MAX, u32::MAX),
            ],
            vec![(5, 2), (6, 1), (2_097_152, 3)],
            vec![],
            vec![(u32::MAX - 1, 0)],
        ];
        let mut builder = PostingsBuilder::default();
        for _ in &lists {
            builder.add_term();
        }
        let mut pushes: Vec<(u32, u32, u32)> = lists
            .iter()
            .enumerate()
            .flat_map(|(t, l)| l.iter().map(move |&(b, tf)| (b, t as u32, tf)))
            .collect();
        pushes.sort();
        for (block, term, tf) in pushes {
            builder.push(term, block, tf);
        }
        let postings = builder.finish();
        for (t, list) in lists.iter().enumerate() {
            assert_eq!(postings.count(t as u32) as usize, list.len(), "term {t}");
            assert_eq!(
                &postings.list(t as u32).collect::<Vec<_>>(),
                list,
                "term {t}"
            );
        }
    }

    #[test]
    fn small_gaps_and_counts_take_a_byte_each() {
        let mut builder = PostingsBuilder::default();
        let term = builder.add_term();
        for block in 0..1000 {
            builder.push(term, block * 3, 2);
        }
        let postings = builder.finish();
        assert_eq!(postings.lists[0].bytes.len(), 2000);
    }
}
