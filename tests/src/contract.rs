//! Comparing our JSON with the reference's: the contract values must agree,
//! the wording need not.
//!
//! One comparison serves the golden vectors (CLI, plan verbs, MCP) and the
//! differential run: every key the reference prints must be in ours with
//! the same value, keys only ours has are allowed, and strings compare with
//! each workspace's root taken out (`<ROOT>/x`, `/tmp/w/x` and `x` agree:
//! our verbs print workspace-relative paths where the reference printed
//! absolute ones).

use serde_json::Value;

/// How a reference reply is compared with ours.
#[derive(Debug, Clone, Copy)]
pub struct Contract<'a> {
    /// Keys whose values are wording (or otherwise not ours to match),
    /// skipped wherever they occur.
    pub wording: &'a [&'a str],
    /// The workspace roots of the reference's run and of ours.
    pub roots: (&'a str, &'a str),
    /// Whether arrays of strings compare as sets (the reference lists some
    /// moves in directory order).
    pub string_sets: bool,
}

impl<'a> Contract<'a> {
    /// The same comparison for one workspace both runs share (the golden
    /// vectors: theirs says `<ROOT>`, ours the temporary folder).
    pub fn with_root(self, root: &'a str) -> Self {
        Contract {
            roots: (root, root),
            ..self
        }
    }

    /// Where `ours` departs from `reference`, one line each, every line
    /// starting with the JSON path under `at`.
    pub fn diff(&self, reference: &Value, ours: &Value, at: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.walk(reference, ours, at, &mut out);
        out
    }

    fn walk(&self, reference: &Value, ours: &Value, at: &str, out: &mut Vec<String>) {
        match (reference, ours) {
            (Value::Object(r), Value::Object(o)) => {
                for (key, value) in r {
                    if self.wording.contains(&key.as_str()) {
                        continue;
                    }
                    match o.get(key) {
                        Some(got) => self.walk(value, got, &format!("{at}.{key}"), out),
                        None => out.push(format!("{at}.{key} missing (reference: {value})")),
                    }
                }
            }
            (Value::Array(r), Value::Array(o)) if r.len() == o.len() => {
                if self.string_sets
                    && let (Some(mut r), Some(mut o)) = (self.strings(r, 0), self.strings(o, 1))
                {
                    r.sort();
                    o.sort();
                    if r != o {
                        out.push(format!("{at}: reference {r:?}, ours {o:?}"));
                    }
                    return;
                }
                for (i, (a, b)) in r.iter().zip(o).enumerate() {
                    self.walk(a, b, &format!("{at}[{i}]"), out);
                }
            }
            (Value::String(r), Value::String(o))
                if without_root(r, self.roots.0) != without_root(o, self.roots.1) =>
            {
                out.push(format!("{at}: reference {r:?}, ours {o:?}"));
            }
            // Equal once the roots are taken out.
            (Value::String(_), Value::String(_)) => {}
            _ if reference != ours => out.push(format!(
                "{at}: reference {}, ours {}",
                shortened(reference),
                shortened(ours)
            )),
            _ => {}
        }
    }

    /// The items of an all-string array with root `side` taken out.
    fn strings(&self, items: &[Value], side: usize) -> Option<Vec<String>> {
        let root = if side == 0 {
            self.roots.0
        } else {
            self.roots.1
        };
        items
            .iter()
            .map(|v| v.as_str().map(|s| without_root(s, root)))
            .collect()
    }
}

/// `value` with `root` taken out: `<root>/x` and `<ROOT>/x` become `x`.
pub fn without_root(value: &str, root: &str) -> String {
    let value = if root.is_empty() {
        value.to_owned()
    } else {
        value.replace(root, "<ROOT>")
    };
    value
        .strip_prefix("<ROOT>/")
        .map(str::to_owned)
        .unwrap_or(value)
}

/// A value as JSON, cut at 160 characters.
fn shortened(value: &Value) -> String {
    let s = value.to_string();
    if s.chars().count() > 160 {
        format!("{}…", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PLAIN: Contract<'static> = Contract {
        wording: &["message"],
        roots: ("/r", "/o"),
        string_sets: false,
    };

    #[test]
    fn wording_extra_keys_and_roots_are_not_differences() {
        let reference = json!({"path": "/r/.vault/a.md", "message": "theirs", "n": 1});
        let ours = json!({"path": ".vault/a.md", "message": "ours", "n": 1, "extra": true});
        assert!(PLAIN.diff(&reference, &ours, "").is_empty());
    }

    #[test]
    fn missing_keys_other_values_and_order_are() {
        let reference = json!({"a": [1, 2], "b": ["x", "y"], "c": "z"});
        let ours = json!({"a": [1, 3], "b": ["y", "x"]});
        let diffs = PLAIN.diff(&reference, &ours, "");
        assert_eq!(diffs.len(), 4, "{diffs:?}");
        assert!(diffs[0].starts_with(".a[1]:"), "{diffs:?}");
        assert!(diffs[3].starts_with(".c missing"), "{diffs:?}");
        let sets = Contract {
            string_sets: true,
            ..PLAIN
        };
        assert_eq!(sets.diff(&reference, &ours, "").len(), 2);
    }
}
