//! The seal on the undo journal: proof that this user's vaultspec on this
//! machine wrote the journal it is about to roll back.
//!
//! A journal (`ops::journal`) can arrive with a clone, a pulled branch or a
//! synced folder. Rolled back, it would put its bytes over a person's newer
//! work. So the storage seals every journal it writes with an HMAC-SHA256
//! under a key the host keeps in the user's private state folder (never in
//! the workspace), and hands a journal back to a reader only when its seal
//! holds under that key. A journal without one, or sealed by someone else,
//! is refused by name, and the vault model leaves it where it is.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The line that carries the seal, after the journal's own bytes.
const SEAL_LINE: &str = "\n# vaultspec seal: ";

/// A secret that seals journals; cheap to clone (it is shared).
#[derive(Clone)]
pub struct JournalKey(std::sync::Arc<[u8; 32]>);

impl std::fmt::Debug for JournalKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JournalKey(…)")
    }
}

impl JournalKey {
    /// A key of these bytes.
    pub fn new(bytes: [u8; 32]) -> Self {
        Self(std::sync::Arc::new(bytes))
    }

    /// A random key made once per process: what a storage seals with when
    /// it was given no key of the user's. A journal it seals can be rolled
    /// back by this process only, so a crash leaves it for a person to look
    /// at; never one another process wrote.
    pub fn process() -> Self {
        static KEY: std::sync::OnceLock<JournalKey> = std::sync::OnceLock::new();
        KEY.get_or_init(|| {
            let mut bytes = [0u8; 32];
            // No randomness at all is no secret: fall back to a key no
            // journal on disk can carry by chance (its seal is still checked).
            if getrandom::fill(&mut bytes).is_err() {
                bytes = *b"vaultspec: no randomness here!!!";
            }
            JournalKey::new(bytes)
        })
        .clone()
    }

    fn mac(&self) -> Hmac<Sha256> {
        Hmac::<Sha256>::new_from_slice(&self.0[..]).expect("HMAC takes a key of any length")
    }

    /// `journal` with its seal appended.
    pub(super) fn seal(&self, journal: &[u8]) -> Vec<u8> {
        let mut mac = self.mac();
        mac.update(journal);
        let tag = hex::encode(mac.finalize().into_bytes());
        let mut sealed = journal.to_vec();
        sealed.extend_from_slice(SEAL_LINE.as_bytes());
        sealed.extend_from_slice(tag.as_bytes());
        sealed.push(b'\n');
        sealed
    }

    /// The journal inside `sealed`, or why it cannot be trusted.
    pub(super) fn open(&self, sealed: &[u8]) -> Result<Vec<u8>, &'static str> {
        let at = memchr::memmem::rfind(sealed, SEAL_LINE.as_bytes())
            .ok_or("carries no seal, so vaultspec on this machine did not write it")?;
        // Lower-case hex only, as written: one journal has one seal.
        let tag = sealed[at + SEAL_LINE.len()..]
            .strip_suffix(b"\n")
            .filter(|t| t.iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .and_then(|t| hex::decode(t).ok())
            .ok_or("carries a malformed seal")?;
        let journal = &sealed[..at];
        let mut mac = self.mac();
        mac.update(journal);
        mac.verify_slice(&tag).map_err(|_| {
            "carries a seal that does not hold: another user or machine wrote it, or it was changed"
        })?;
        Ok(journal.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_opens_only_under_the_key_that_sealed_it_and_unchanged() {
        let ours = JournalKey::new([7; 32]);
        let theirs = JournalKey::new([8; 32]);
        let journal = br#"{"version": 2}"#;
        let sealed = ours.seal(journal);
        assert_eq!(ours.open(&sealed).unwrap(), journal);
        assert!(theirs.open(&sealed).unwrap_err().contains("does not hold"));
        assert!(ours.open(journal).unwrap_err().contains("no seal"));
        let mut changed = sealed.clone();
        changed[3] ^= 1;
        assert!(ours.open(&changed).is_err());
    }

    proptest::proptest! {
        /// Any bytes at the journal's place are opened or refused, never
        /// a panic; a sealed journal with any one byte changed, cut or
        /// grown is refused, and only the exact seal opens.
        #[test]
        fn only_the_exact_sealed_bytes_open(
            journal in proptest::collection::vec(proptest::num::u8::ANY, 0..512),
            junk in proptest::collection::vec(proptest::num::u8::ANY, 0..512),
            at in proptest::num::usize::ANY,
            flip in 1u8..=255,
        ) {
            let key = JournalKey::new([3; 32]);
            let _ = key.open(&junk);
            let sealed = key.seal(&journal);
            proptest::prop_assert_eq!(key.open(&sealed).unwrap(), journal.clone());
            let mut changed = sealed.clone();
            let i = at % changed.len();
            changed[i] ^= flip;
            proptest::prop_assert!(key.open(&changed).is_err());
            proptest::prop_assert!(key.open(&sealed[..sealed.len() - 1]).is_err());
            let mut grown = sealed.clone();
            grown.push(b' ');
            proptest::prop_assert!(key.open(&grown).is_err());
        }
    }
}
