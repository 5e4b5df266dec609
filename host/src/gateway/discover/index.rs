//! The ranking index of `discover`: field-weighted BM25 (BM25F) over each
//! verb's path, declared intents, summary, description and flags, built
//! once per catalog.
//!
//! A query word scores a verb by the best of its readings: the word's own
//! stem, a synonym's (weighted down), or, when neither is a word of the
//! catalog, the catalog word it is a typo of (weighted down more); a word
//! that means two things ("unlink") counts once for each. The sum over the
//! query's words, raised by the share of the verb's path the query names
//! and when the query's mood is the verb's, is the verb's score; ties go to
//! the verb path in byte order, so results never depend on the order verbs
//! were added.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::values::compounds;
use super::words::{compound, mood, stem, synonyms, text_words};
use vaultspec_vault::search::idf;

use crate::catalog::{Catalog, Entry, VerbSpec};

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;

/// How much a reading of a query word counts, by kind.
const OWN: f64 = 1.0;
const SYNONYM: f64 = 0.8;
const TYPO: f64 = 0.7;

/// How close (Jaro-Winkler) a word must be to a catalog word to be read as
/// a typo of it, and how long it must be.
const TYPO_SIMILARITY: f64 = 0.88;
const TYPO_MIN_LEN: usize = 4;

/// How much more a verb scores when the query names every word of its path
/// (in its own words or through a synonym), in proportion to how many it
/// names: "add a new phase" names all of `vault plan phase add` and only
/// part of `vault plan step add`.
const COVERAGE: f64 = 0.25;

/// The factor for a verb whose summary has the query's mood (both ask, or
/// both change): "show the links" leans to `vault link list`, "add the
/// links" to `vault link add`.
const SAME_MOOD: f64 = 1.2;

/// How each field counts, in the order [`field_texts`] gives their texts
/// (path, intents, summary, description, flags): `(weight, b)`, the weight
/// of one occurrence there against one in the description, and how much a
/// long field is discounted (BM25's `b`).
const FIELDS: [(f64, f64); 5] = [(3.0, 0.3), (3.0, 0.5), (1.5, 0.5), (0.5, 0.75), (0.3, 0.75)];

/// The texts of one verb's fields, in [`FIELDS`] order (the summary is
/// also part of the description, so its words count twice).
fn field_texts(spec: &VerbSpec) -> [String; 5] {
    let mut flags = String::new();
    for flag in &spec.flags {
        flags.push_str(&format!(
            "{} {} {}\n",
            flag.name,
            flag.help,
            flag.choices().join(" ")
        ));
    }
    for operand in &spec.operands {
        let choices = operand.choices.join(" ");
        flags.push_str(&format!("{} {} {choices}\n", operand.name, operand.help));
    }
    [
        spec.path_string(),
        spec.intents.join("\n"),
        spec.summary(),
        spec.description.clone(),
        flags,
    ]
}

/// One way a query word was read.
#[derive(Debug, Clone, PartialEq)]
struct Reading {
    stem: String,
    weight: f64,
    /// The catalog word it was read as, when not the word itself.
    as_word: Option<String>,
}

/// A ranked verb: its score and the query words that matched it.
#[derive(Debug, Clone)]
pub struct Ranked<'c> {
    /// The verb.
    pub entry: &'c Entry,
    /// How well it matches (higher is better).
    pub score: f64,
    /// The query words that matched, in query order: `word`, or `word (as
    /// other)` when it matched through a synonym or as a typo.
    pub matched: Vec<String>,
}

/// The ranking index of one catalog.
#[derive(Debug, Default)]
pub struct Index {
    /// Verb paths, in byte order: the verbs' numbers below.
    paths: Vec<String>,
    /// Stem → `(verb number, its BM25F weight for that verb)`.
    postings: HashMap<String, Vec<(usize, f64)>>,
    /// Every word of the catalog, with its stem, for typo matching.
    vocabulary: BTreeMap<String, String>,
    /// Each verb's distinct path stems.
    path_stems: Vec<BTreeSet<String>>,
    /// Each verb's [`mood`], from its summary.
    moods: Vec<Option<bool>>,
    /// The kebab-case words of the catalog (see [`super::values`]).
    compounds: HashSet<String>,
}

impl Index {
    /// Index the verbs `discover` may show: all but the denied ones.
    pub fn build(catalog: &Catalog) -> Self {
        let specs: Vec<&VerbSpec> = catalog
            .entries()
            .map(|e| &e.spec)
            .filter(|s| !crate::catalog::is_denied(&s.path_string()))
            .collect();
        let mut index = Index::default();
        let texts: Vec<[String; 5]> = specs.iter().map(|s| field_texts(s)).collect();
        for text in texts.iter().flatten() {
            compounds(text, &mut index.compounds);
        }
        // Per verb, per field: stem counts and the field's length.
        let mut counts: Vec<[(HashMap<String, f64>, f64); 5]> = Vec::new();
        for (spec, texts) in specs.iter().zip(&texts) {
            index.paths.push(spec.path_string());
            index.moods.push(mood(&spec.summary()));
            let fields: [(HashMap<String, f64>, f64); 5] = std::array::from_fn(|f| {
                let mut tf = HashMap::new();
                let found = text_words(&texts[f], &index.compounds);
                for (word, stem) in &found {
                    index.vocabulary.insert(word.clone(), stem.clone());
                    *tf.entry(stem.clone()).or_insert(0.0) += 1.0;
                }
                (tf, found.len() as f64)
            });
            index.path_stems.push(fields[0].0.keys().cloned().collect());
            counts.push(fields);
        }
        let n = specs.len() as f64;
        let average: [f64; 5] = std::array::from_fn(|f| {
            (counts.iter().map(|c| c[f].1).sum::<f64>() / n.max(1.0)).max(1.0)
        });
        let mut document_frequency: HashMap<&str, f64> = HashMap::new();
        for verb in &counts {
            let stems: BTreeSet<&str> = verb
                .iter()
                .flat_map(|(tf, _)| tf.keys().map(String::as_str))
                .collect();
            for s in stems {
                *document_frequency.entry(s).or_insert(0.0) += 1.0;
            }
        }
        for (number, verb) in counts.iter().enumerate() {
            let mut weighted: BTreeMap<&str, f64> = BTreeMap::new();
            for (f, (tf, len)) in verb.iter().enumerate() {
                let (weight, b) = FIELDS[f];
                let norm = 1.0 - b + b * len / average[f];
                for (s, count) in tf {
                    *weighted.entry(s.as_str()).or_insert(0.0) += weight * count / norm;
                }
            }
            for (s, tf) in weighted {
                let score = idf(n, document_frequency[s]) * tf * (K1 + 1.0) / (tf + K1);
                index
                    .postings
                    .entry(s.to_owned())
                    .or_default()
                    .push((number, score));
            }
        }
        index
    }

    /// The catalog's own copy of `stem` (one of its postings' keys), so the
    /// stems a query was read as can be kept without copying them.
    fn stem_ref(&self, stem: &str) -> &str {
        self.postings
            .get_key_value(stem)
            .map_or("", |(k, _)| k.as_str())
    }

    /// The readings of one query word, best first.
    fn readings(&self, word: &str, own: &str) -> Vec<Reading> {
        let mut readings = Vec::new();
        if self.postings.contains_key(own) {
            readings.push(Reading {
                stem: own.to_owned(),
                weight: OWN,
                as_word: None,
            });
        }
        for alt in synonyms(word) {
            let alt_stem = stem(alt);
            if alt_stem != own && self.postings.contains_key(&alt_stem) {
                readings.push(Reading {
                    stem: alt_stem,
                    weight: SYNONYM,
                    as_word: Some((*alt).to_owned()),
                });
            }
        }
        if readings.is_empty() && word.len() >= TYPO_MIN_LEN {
            // A typo keeps the first letter and about the length.
            let close = self
                .vocabulary
                .iter()
                .filter(|(w, _)| {
                    w.len() >= 3
                        && w.as_bytes()[0] == word.as_bytes()[0]
                        && w.len().abs_diff(word.len()) <= 2
                })
                .map(|(w, s)| (strsim::jaro_winkler(word, w), w, s))
                .filter(|(similarity, _, _)| *similarity >= TYPO_SIMILARITY)
                .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)));
            if let Some((_, w, s)) = close {
                readings.push(Reading {
                    stem: s.clone(),
                    weight: TYPO,
                    as_word: Some(w.clone()),
                });
            }
        }
        readings
    }

    /// The verbs of `catalog` (the one this index was built from) that match
    /// `query`, best first, at most `limit`.
    pub fn rank<'c>(&self, catalog: &'c Catalog, query: &str, limit: usize) -> Vec<Ranked<'c>> {
        let query_words = text_words(query, &self.compounds);
        let mut scores = vec![0.0; self.paths.len()];
        let mut matched: Vec<Vec<String>> = vec![Vec::new(); self.paths.len()];
        let mut query_stems = BTreeSet::new();
        // Every stem the query was read as, synonyms and typos included.
        let mut read_stems: BTreeSet<&str> = BTreeSet::new();
        let query_mood = mood(query);
        for (word, own) in &query_words {
            // A word said twice counts once.
            if !query_stems.insert(own.clone()) {
                continue;
            }
            // The word counts once for each thing it means ("unlink": link
            // and remove), and each verb takes the best reading of each.
            let parts = compound(word);
            let mut meanings: Vec<Vec<Reading>> = vec![self.readings(word, own)];
            for (i, part) in parts.iter().enumerate() {
                let reading = Reading {
                    stem: stem(part),
                    weight: SYNONYM,
                    as_word: Some((*part).to_owned()),
                };
                if !self.postings.contains_key(&reading.stem) {
                    continue;
                }
                match i {
                    0 => meanings[0].push(reading),
                    _ => meanings.push(vec![reading]),
                }
            }
            for readings in &meanings {
                read_stems.extend(readings.iter().map(|r| self.stem_ref(&r.stem)));
                let mut best: BTreeMap<usize, (f64, &Reading)> = BTreeMap::new();
                for reading in readings {
                    for &(verb, score) in &self.postings[&reading.stem] {
                        let score = score * reading.weight;
                        if best.get(&verb).is_none_or(|(s, _)| score > *s) {
                            best.insert(verb, (score, reading));
                        }
                    }
                }
                for (verb, (score, reading)) in best {
                    scores[verb] += score;
                    matched[verb].push(match &reading.as_word {
                        None => word.clone(),
                        Some(other) => format!("{word} (as {other})"),
                    });
                }
            }
        }
        let mut ranked: Vec<(usize, f64)> = scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s > 0.0)
            .map(|(verb, s)| {
                let path = &self.path_stems[verb];
                let covered = path
                    .iter()
                    .filter(|p| read_stems.contains(p.as_str()))
                    .count();
                let s = s * (1.0 + COVERAGE * covered as f64 / path.len().max(1) as f64);
                let same_mood = query_mood.is_some() && query_mood == self.moods[verb];
                (verb, if same_mood { s * SAME_MOOD } else { s })
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| self.paths[a.0].cmp(&self.paths[b.0]))
        });
        ranked
            .into_iter()
            .take(limit)
            .filter_map(|(verb, score)| {
                let entry = catalog.get(&self.paths[verb])?;
                Some(Ranked {
                    entry,
                    score: (score * 1000.0).round() / 1000.0,
                    matched: std::mem::take(&mut matched[verb]),
                })
            })
            .collect()
    }
}
