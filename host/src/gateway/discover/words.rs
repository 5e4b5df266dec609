//! The words `discover` ranks by: tokens without stopwords, stemmed, and
//! the vault's own synonyms, so "delete a step" finds `vault plan step
//! remove` and "scaffold a note" finds `vault add`.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use vaultspec_vault::search::tokenize::for_each_token;

/// The stem of one lowercase word (`steps` → `step`, `renamed` → `renam`).
pub fn stem(word: &str) -> String {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER
        .get_or_init(|| Stemmer::create(Algorithm::English))
        .stem(word)
        .into_owned()
}

/// The words of a text in order, lowercase, stopwords left out, each with
/// its stem: `(word, stem)`.
pub fn words(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for_each_token(text, |word| out.push((word.to_owned(), stem(word))));
    out
}

/// Words a person uses for what the verbs call by another name, each with
/// the words it stands for. One direction only: from the asker's word to the
/// catalog's. Written for this domain (documents, plans, ledgers, checks),
/// not a general thesaurus: a synonym that is wrong half the time costs more
/// than it finds.
const SYNONYMS: &[(&str, &[&str])] = &[
    // Taking things away.
    ("delete", &["remove"]),
    ("drop", &["remove"]),
    ("erase", &["remove"]),
    ("discard", &["remove"]),
    ("rid", &["remove"]),
    ("nuke", &["remove"]),
    ("kill", &["remove"]),
    ("trash", &["remove"]),
    ("axe", &["remove"]),
    ("scrap", &["remove"]),
    // Changing things.
    ("update", &["edit", "set", "change"]),
    ("modify", &["edit", "change"]),
    ("alter", &["edit", "change"]),
    // Quantity.
    ("every", &["all"]),
    ("everything", &["all"]),
    ("whole", &["all"]),
    // Making things.
    ("create", &["add", "new"]),
    ("new", &["add"]),
    ("scaffold", &["add", "template"]),
    ("start", &["add", "new"]),
    ("append", &["add"]),
    ("fresh", &["new"]),
    // A Step's checkbox.
    ("done", &["check", "closed"]),
    ("finish", &["check", "done"]),
    ("finished", &["check", "done"]),
    ("complete", &["check", "done"]),
    ("completed", &["check", "done"]),
    ("tick", &["check"]),
    ("untick", &["uncheck"]),
    ("reopen", &["uncheck", "open"]),
    ("unclaim", &["detach"]),
    ("undone", &["uncheck", "open"]),
    // Progress and orientation.
    ("progress", &["status", "done"]),
    ("far", &["progress", "status"]),
    ("percentage", &["progress"]),
    ("percent", &["progress"]),
    ("remaining", &["open", "left"]),
    ("overview", &["status", "rollup"]),
    ("oriented", &["orient", "status"]),
    ("orientation", &["orient", "status"]),
    ("stand", &["status"]),
    // Health.
    ("health", &["doctor", "check"]),
    ("healthy", &["doctor", "health"]),
    ("diagnose", &["doctor"]),
    ("checkup", &["doctor", "health"]),
    ("shape", &["health"]),
    ("outstanding", &["pending", "open"]),
    ("diagnosis", &["doctor"]),
    ("wrong", &["doctor", "problem"]),
    ("setup", &["workspace"]),
    ("installation", &["workspace"]),
    ("fix", &["repair"]),
    ("mend", &["repair"]),
    ("broken", &["repair", "dangling", "missing"]),
    ("lint", &["check"]),
    ("validate", &["check"]),
    ("verify", &["check"]),
    // Counting.
    ("count", &["stats"]),
    ("counts", &["stats"]),
    ("many", &["count", "stats"]),
    ("number", &["count", "stats"]),
    ("total", &["totals", "stats"]),
    ("statistics", &["stats"]),
    ("tally", &["count", "stats"]),
    ("enumerate", &["list"]),
    // Links.
    ("connect", &["link"]),
    ("repoint", &["point", "link"]),
    ("relate", &["link", "related"]),
    ("cite", &["reference", "link"]),
    ("mention", &["reference", "crossref", "search"]),
    ("isolated", &["orphan"]),
    ("unreferenced", &["orphan"]),
    ("unlinked", &["orphan"]),
    ("visualize", &["graph"]),
    ("visualise", &["graph"]),
    ("draw", &["graph"]),
    ("diagram", &["graph"]),
    // Settings.
    ("settings", &["config"]),
    ("setting", &["config"]),
    ("option", &["config"]),
    ("preference", &["config"]),
    ("configuration", &["config"]),
    // The vault's nouns.
    ("ledger", &["exec", "execution"]),
    ("evidence", &["exec", "execution"]),
    ("task", &["step"]),
    ("todo", &["step"]),
    ("doc", &["document"]),
    ("docs", &["documents"]),
    ("note", &["document"]),
    ("notes", &["documents"]),
    ("decision", &["adr"]),
    ("decisions", &["adr"]),
    ("shelve", &["archive"]),
    ("obsolete", &["supersede"]),
    ("outdated", &["supersede"]),
    ("deprecated", &["supersede"]),
    ("reorder", &["move", "order"]),
    ("rearrange", &["move", "order"]),
    ("upgrade", &["migrate", "promote"]),
    ("escalate", &["promote"]),
    ("flatten", &["demote"]),
    ("simplify", &["demote"]),
    ("stray", &["foreign"]),
    ("timestamp", &["stamp", "date"]),
    ("timestamps", &["stamp", "date"]),
    ("filename", &["rename", "name"]),
    ("decode", &["encoding", "utf"]),
    ("unreadable", &["encoding", "read"]),
    ("deleted", &["missing"]),
    ("unexpected", &["foreign"]),
];

/// The words `word` stands for besides itself: its entry in [`SYNONYMS`],
/// else the entry of a word with the same stem (`decoded` takes `decode`'s).
pub fn synonyms(word: &str) -> &'static [&'static str] {
    if !compound(word).is_empty() {
        return &[];
    }
    static BY_STEM: OnceLock<HashMap<String, &'static [&'static str]>> = OnceLock::new();
    if let Some((_, alts)) = SYNONYMS.iter().find(|(w, _)| *w == word) {
        return alts;
    }
    let by_stem = BY_STEM.get_or_init(|| {
        let mut map = HashMap::new();
        for (w, alts) in SYNONYMS {
            map.entry(stem(w)).or_insert(*alts);
        }
        map
    });
    by_stem.get(&stem(word)).copied().unwrap_or(&[])
}

/// Words a person uses for two things at once, each read as every one of
/// them: "unlink" is removing a link, so it counts for both words.
const COMPOUNDS: &[(&str, &[&str])] = &[
    ("unlink", &["link", "remove"]),
    ("disconnect", &["link", "remove"]),
    ("relink", &["link", "repair"]),
];

/// The words `word` reads as all together, if it is a [`COMPOUNDS`] word.
pub fn compound(word: &str) -> &'static [&'static str] {
    COMPOUNDS
        .iter()
        .find(|(w, _)| *w == word)
        .map_or(&[], |(_, parts)| parts)
}

/// What a plan id names: `s03` → step, `p02a` → phase, `w01` → wave,
/// `l2` → tier; nothing for any other word. An id is read as what it names
/// on both sides, so the ids in one verb's examples match no query's ids.
fn plan_id(word: &str) -> Option<&'static str> {
    let mut chars = word.chars();
    let kind = match chars.next() {
        Some('s') => "step",
        Some('p') => "phase",
        Some('w') => "wave",
        Some('l') if matches!(word, "l1" | "l2" | "l3" | "l4") => return Some("tier"),
        _ => return None,
    };
    let rest = chars.as_str();
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let is_id = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && rest.len() - digits.len() <= 1;
    is_id.then_some(kind)
}

/// Words of a request that say nothing about which verb it wants ("show
/// *me*", "*I* need"), beyond the search tokenizer's stopwords.
const FILLER: &[&str] = &[
    "me", "my", "i", "we", "our", "us", "you", "your", "s", "there", "please", "want", "need",
    "let", "could", "should", "would", "some", "its", "them", "they", "thing", "things", "just",
    "give", "get", "go", "got", "have", "has", "had", "t", "d", "ll", "re", "ve", "m", "am",
    "been", "being", "yet", "actually", "really", "also", "still", "now", "maybe",
];

/// Phrases whose meaning the stopwords would lose ("not done" is not
/// "done"), each read as the one word that says it.
const PHRASES: &[(&str, &str)] = &[
    ("not done", "undone"),
    ("not finished", "undone"),
    ("how many", "count"),
    ("how far", "progress"),
    ("up to date", "current"),
    ("no longer", "obsolete"),
    ("do we have", "list"),
    ("check the box", "tick"),
    ("check off", "tick"),
    ("take it off", "remove"),
    ("take off", "remove"),
    ("bring back", "restore"),
    ("tack on", "append"),
    ("spin up", "create"),
    // A question about what the vault's documents say is a search.
    ("why did we", "search"),
    ("why do we", "search"),
    ("how did we", "search"),
    ("what did we", "search"),
    ("what do we know", "search"),
];

/// Words after which the next word names what a change must leave as it
/// is: "keeping its frontmatter", "without touching the body".
const KEEPERS: &[&str] = &[
    "without",
    "keep",
    "keeping",
    "keeps",
    "leave",
    "leaving",
    "leaves",
    "preserve",
    "preserving",
];

/// Words between a keeper and what it keeps ("without *touching* the body").
const KEPT_VERBS: &[&str] = &["touching", "changing", "modifying", "editing", "altering"];

/// A plan address (`P02.S03`, `W01.P02.S04`) names its last part: the step.
fn address_tail(chunk: &str) -> Option<&str> {
    let parts: Vec<&str> = chunk.split('.').collect();
    let is_id = |p: &&str| {
        let mut chars = p.chars();
        matches!(chars.next(), Some('p' | 's' | 'w'))
            && chars.as_str().starts_with(|c: char| c.is_ascii_digit())
            && chars.as_str().chars().all(|c| c.is_ascii_alphanumeric())
    };
    (parts.len() >= 2 && parts.iter().all(is_id)).then(|| parts[parts.len() - 1])
}

/// The words of a request or of a verb's text, in order, as [`words`] gives
/// them, after: [`PHRASES`] read as their word, a plan address as its last
/// id, values taken out (names, given the catalog's `compounds`; see
/// [`super::values`]), filler left out, and a word a change keeps as it is
/// marked so (`without body`, stem `~bodi`), so that it matches only what
/// keeps the same thing, not what changes it. Queries and the catalog go
/// through the same steps.
pub fn text_words(text: &str, compounds: &HashSet<String>) -> Vec<(String, String)> {
    let mut text = text.to_lowercase();
    for (phrase, word) in PHRASES {
        text = text.replace(phrase, word);
    }
    let text: Vec<&str> = text
        .split(' ')
        .map(|chunk| {
            let bare = chunk.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '.');
            address_tail(bare.trim_end_matches('.')).unwrap_or(chunk)
        })
        .collect();
    let found = words(&super::values::without_values(&text.join(" "), compounds));
    let mut out = Vec::with_capacity(found.len());
    let mut keeper: Option<String> = None;
    for (word, own) in found {
        let (word, own) = match plan_id(&word) {
            Some(kind) => (kind.to_owned(), stem(kind)),
            None => (word, own),
        };
        if FILLER.contains(&word.as_str()) {
            continue;
        }
        if KEEPERS.contains(&word.as_str()) {
            keeper = Some(word);
            continue;
        }
        match keeper.take() {
            Some(k) if KEPT_VERBS.contains(&word.as_str()) => keeper = Some(k),
            Some(k) => out.push((format!("{k} {word}"), format!("~{own}"))),
            None => out.push((word, own)),
        }
    }
    out
}

/// Whether a text reads as asking for information (`Some(true)`: "what…",
/// "show…", "find…") or for a change (`Some(false)`: "add…", "rename…"),
/// by its first word; `None` when the first word says neither. A verb's
/// summary opens the same way ("Find orphan documents", "Remove a Step"),
/// so the two can be compared.
pub fn mood(text: &str) -> Option<bool> {
    const ASKS: &str = "what which is are does do where how who any show see print read view \
        display list find check validate lint count ask scan warn pair orient diagnose gate \
        generate";
    const ACTS: &str = "set make write change update add create put record log mark delete \
        remove move rename drop insert apply replace rewrite edit turn archive restore reorder \
        retitle reword give clear flip reopen deepen flatten link unlink supersede promote strip \
        migrate point repair fix undo append scaffold start";
    let first = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| !w.is_empty())?
        .to_ascii_lowercase();
    let names = |list: &str| list.split_whitespace().any(|w| w == first);
    if names(ASKS) {
        Some(true)
    } else if names(ACTS) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_stemmed_and_stopwords_dropped() {
        let got: Vec<String> = words("Removing the Steps of a plan")
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(got, ["remov", "step", "plan"]);
    }

    #[test]
    fn a_text_asks_or_acts_by_its_first_word() {
        assert_eq!(mood("Which steps are open?"), Some(true));
        assert_eq!(mood("show the links"), Some(true));
        assert_eq!(mood("Remove a Step; its id is retired."), Some(false));
        assert_eq!(mood("orphan documents"), None);
        assert_eq!(mood(""), None);
    }

    #[test]
    fn the_synonym_table_is_sorted_out_once_per_word() {
        let mut seen = std::collections::BTreeSet::new();
        for (word, alts) in SYNONYMS {
            assert!(seen.insert(*word), "`{word}` is listed twice");
            assert!(!alts.is_empty(), "`{word}` stands for nothing");
            assert_eq!(*word, word.to_lowercase(), "`{word}` must be lowercase");
        }
        assert_eq!(synonyms("delete"), ["remove"]);
        assert!(synonyms("remove").is_empty());
        // A word takes the entry of its stem, unless it has its own.
        assert_eq!(synonyms("decoded"), synonyms("decode"));
        assert_eq!(synonyms("deleted"), ["missing"]);
    }

    #[test]
    fn plan_ids_name_what_they_are() {
        assert_eq!(plan_id("s03"), Some("step"));
        assert_eq!(plan_id("p02a"), Some("phase"));
        assert_eq!(plan_id("w1"), Some("wave"));
        assert_eq!(plan_id("l3"), Some("tier"));
        for word in ["step", "s", "sab", "p1ab", "l5", "plan"] {
            assert_eq!(plan_id(word), None, "{word}");
        }
        let read: Vec<String> = text_words("tick P02.S03 off, then W01", &HashSet::new())
            .into_iter()
            .map(|(w, _)| w)
            .collect();
        assert_eq!(read, ["tick", "step", "off", "then", "wave"]);
    }

    #[test]
    fn what_a_change_keeps_is_marked_kept() {
        let read = text_words(
            "Replace the body, keeping its frontmatter, without touching the date",
            &HashSet::new(),
        );
        let words: Vec<&str> = read.iter().map(|(w, _)| w.as_str()).collect();
        assert_eq!(
            words,
            ["replace", "body", "keeping frontmatter", "without date"]
        );
        assert_eq!(read[2].1, format!("~{}", stem("frontmatter")));
    }
}
