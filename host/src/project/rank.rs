//! The attention order of `project context`: one item per piece of work
//! seen, banded by what needs a person first, then by how well its title
//! fits the objective and how recently it moved.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Map, Value, json};

/// The most items ranked after the first cut.
pub const SHORTLIST: usize = 12;

/// Signals that put an item in the first band: something is stuck or two
/// people may collide.
const BLOCKERS: [&str; 8] = [
    "ci_failed",
    "merge_conflict",
    "changes_requested",
    "labelled_blocked",
    "unmerged_changes",
    "shared_branch",
    "blocked_steps",
    "stale_upstream",
];

/// Signals of work in motion: the second band.
const MOVING: [&str; 2] = ["tracked_changes", "open_steps"];

/// The written order, returned with every answer.
pub const ORDERING: &str = "First what is stuck or may collide (failing checks, conflicts, \
requested changes, a blocked label, a branch checked out twice, plan steps waiting on a \
proposed decision, a document behind what it was written from); then work in motion \
(uncommitted tracked changes, plans with open steps); then the rest. Within a band, the \
closer the title to the objective and the more recent the activity, the earlier. It orders \
attention; it is not a schedule.";

/// One piece of work, as collected.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Stable across runs: `git:<sha256>`, `github:…`, `vault:…`.
    pub id: String,
    /// `branch`, `worktree`, `issue`, `pr`, `plan` or `stale_link`.
    pub kind: &'static str,
    /// One line, compacted.
    pub title: String,
    /// When it last moved (ISO 8601 with an offset), or empty.
    pub updated: String,
    /// What was observed, in a fixed key order per kind.
    pub facts: Map<String, Value>,
    /// Observed conditions worth a look.
    pub signals: Vec<&'static str>,
    /// What no source here can tell.
    pub unknowns: Vec<&'static str>,
}

impl Item {
    /// The band: 0 blocked or colliding, 1 in motion, 2 the rest.
    pub fn band(&self) -> u8 {
        if self.signals.iter().any(|s| BLOCKERS.contains(s)) {
            0
        } else if self.signals.iter().any(|s| MOVING.contains(s)) {
            1
        } else {
            2
        }
    }
}

/// `text` on one line: whitespace runs become one space, characters that
/// do not print are dropped, and past `limit` UTF-8 bytes it is cut on a
/// character boundary and ends in `...`.
pub fn compact(text: &str, limit: usize) -> String {
    let joined: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| printable(*c))
        .collect();
    if joined.len() <= limit {
        return joined;
    }
    let mut cut = limit.saturating_sub(3);
    while !joined.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &joined[..cut])
}

/// Whether a character prints: not a control, format or private-use
/// character, nor a line or paragraph separator.
fn printable(c: char) -> bool {
    !(c.is_control()
        || matches!(c,
            '\u{ad}' | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}' | '\u{180e}'
            | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}'
            | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{e000}'..='\u{f8ff}'))
}

/// The words of three or more letters, digits or underscores, lowercased.
fn words(text: &str) -> BTreeSet<String> {
    let lower = text.to_lowercase();
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_owned)
        .collect()
}

/// The share of the objective's words found in the item's title (0 to 1).
pub fn fit(objective: &BTreeSet<String>, title: &str) -> f64 {
    if objective.is_empty() {
        return 0.0;
    }
    let title = words(title);
    objective.intersection(&title).count() as f64 / objective.len() as f64
}

/// Seconds since the epoch of an ISO 8601 time with an offset; 0 when it
/// has none or does not parse.
pub fn timestamp(updated: &str) -> f64 {
    parse_iso(updated).unwrap_or(0.0)
}

fn parse_iso(s: &str) -> Option<f64> {
    let (date, rest) = s.split_at_checked(10)?;
    let date: vaultspec_vault::date::Date = date.parse().ok()?;
    let rest = rest.strip_prefix('T')?;
    let (clock, offset) = match rest.find(['Z', '+', '-']) {
        Some(at) => rest.split_at(at),
        None => return None,
    };
    let mut parts = clock.split(':');
    let hours: f64 = parts.next()?.parse().ok()?;
    let minutes: f64 = parts.next()?.parse().ok()?;
    let seconds: f64 = parts.next().unwrap_or("0").parse().ok()?;
    let offset = match offset {
        "Z" => 0.0,
        _ => {
            let sign = if offset.starts_with('-') { -1.0 } else { 1.0 };
            let (h, m) = offset[1..].split_once(':')?;
            sign * (h.parse::<f64>().ok()? * 3600.0 + m.parse::<f64>().ok()? * 60.0)
        }
    };
    Some(date.to_days() as f64 * 86_400.0 + hours * 3600.0 + minutes * 60.0 + seconds - offset)
}

/// The items in attention order, after the shortlist cut, each with the
/// fit it was ranked by.
pub fn order(objective: &str, items: Vec<Item>) -> Vec<(Item, f64)> {
    let wanted = words(objective);
    // The last item seen under an id is the one kept.
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut kept: Vec<Option<Item>> = Vec::new();
    for item in items {
        if let Some(&at) = by_id.get(&item.id) {
            kept[at] = None;
        }
        by_id.insert(item.id.clone(), kept.len());
        kept.push(Some(item));
    }
    let mut ranked: Vec<(Item, f64)> = kept
        .into_iter()
        .flatten()
        .map(|item| {
            let fit = fit(&wanted, &item.title);
            (item, fit)
        })
        .collect();
    ranked.sort_by(|(a, fa), (b, fb)| {
        a.band()
            .cmp(&b.band())
            .then(fb.total_cmp(fa))
            .then(timestamp(&b.updated).total_cmp(&timestamp(&a.updated)))
            .then_with(|| a.id.cmp(&b.id))
    });
    ranked.truncate(SHORTLIST);
    ranked
}

/// An item as returned: its fields, then its band, fit and next step.
pub fn render(item: &Item, fit: f64) -> Value {
    let band = item.band();
    json!({
        "id": item.id,
        "kind": item.kind,
        "title": item.title,
        "updated": item.updated,
        "facts": item.facts,
        "signals": item.signals,
        "unknowns": item.unknowns,
        "attention_band": band,
        "objective_fit": (fit * 1000.0).round() / 1000.0,
        "fit_source": "lexical_overlap_0_to_1",
        "next_action": if band == 0 {
            "Clear the blocking or colliding signal before handing this work to anyone"
        } else {
            "Settle scope, owner and dependencies before handing this work to anyone"
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: &str, title: &str, updated: &str, signals: &[&'static str]) -> Item {
        Item {
            id: id.into(),
            kind: "branch",
            title: title.into(),
            updated: updated.into(),
            facts: Map::new(),
            signals: signals.to_vec(),
            unknowns: vec![],
        }
    }

    #[test]
    fn compact_joins_whitespace_drops_controls_and_cuts_on_a_character() {
        // As the reference: whitespace first, then the controls go.
        assert_eq!(compact("  a\t\nb \u{7} c\u{200b}d ", 240), "a b  cd");
        assert_eq!(compact("abcdef", 5), "ab...");
        // 'é' is two bytes: the cut never splits it.
        assert_eq!(compact("aééé", 5), "a...");
    }

    #[test]
    fn fit_counts_objective_words_found_in_the_title() {
        let wanted = words("Refresh the auth token");
        assert_eq!(wanted.len(), 4);
        assert_eq!(fit(&wanted, "feature/auth-refresh: add refresh"), 0.5);
        assert_eq!(fit(&words("a b"), "anything"), 0.0);
    }

    #[test]
    fn timestamps_take_their_offset() {
        assert_eq!(timestamp("1970-01-02T00:00:00Z"), 86_400.0);
        assert_eq!(timestamp("1970-01-02T01:00:00+01:00"), 86_400.0);
        assert_eq!(timestamp("1970-01-01T23:00:00-01:00"), 86_400.0);
        assert_eq!(timestamp("1970-01-02"), 0.0);
        assert_eq!(timestamp(""), 0.0);
    }

    #[test]
    fn bands_come_first_then_fit_then_recency_and_the_last_duplicate_wins() {
        let items = vec![
            item("a", "docs", "2026-01-01T00:00:00Z", &[]),
            item("b", "auth work", "2026-01-01T00:00:00Z", &[]),
            item("c", "docs", "2026-01-03T00:00:00Z", &["tracked_changes"]),
            item("d", "docs", "", &["shared_branch"]),
            item("e", "docs", "2026-01-02T00:00:00Z", &[]),
            item("a", "auth again", "2026-01-01T00:00:00Z", &["locked"]),
        ];
        let ranked = order("auth", items);
        let ids: Vec<&str> = ranked.iter().map(|(i, _)| i.id.as_str()).collect();
        assert_eq!(ids, ["d", "c", "a", "b", "e"]);
        assert_eq!(ranked[2].0.title, "auth again");
    }
}
