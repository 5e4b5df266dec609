//! What the operation generator needs to know about a vault: its documents
//! by type and stem, and each plan's Steps, Phases, Waves and tier.

use std::path::Path;

/// One plan as read from disk.
pub struct Plan {
    pub stem: String,
    pub feature: String,
    pub tier: u8,
    pub steps: Vec<String>,
    pub phases: Vec<String>,
    pub waves: Vec<String>,
}

/// One document: its type folder, stem and workspace-relative path.
pub struct Doc {
    pub kind: String,
    pub stem: String,
    pub path: String,
}

/// The vault's documents and plans.
#[derive(Default)]
pub struct State {
    pub docs: Vec<Doc>,
    pub plans: Vec<Plan>,
    pub features: Vec<String>,
}

impl State {
    /// Documents of type `kind`.
    pub fn of(&self, kind: &str) -> Vec<&Doc> {
        self.docs.iter().filter(|d| d.kind == kind).collect()
    }
}

fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(
                path.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
}

/// The text between backticks after a marker such as "- [ ] `".
fn ids(text: &str, marker: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix(marker))
        .filter_map(|rest| rest.split('`').next())
        .map(|path| path.rsplit('.').next().unwrap_or(path).to_owned())
        .collect()
}

/// Read the vault under `root`.
pub fn read(root: &Path) -> State {
    let mut paths = Vec::new();
    walk(&root.join(".vault"), root, &mut paths);
    let mut state = State::default();
    for path in paths {
        let parts: Vec<&str> = path.split('/').collect();
        if parts.len() < 3 || parts[1].starts_with('_') || parts[1] == "data" {
            continue;
        }
        let stem = parts.last().unwrap().trim_end_matches(".md").to_owned();
        let kind = parts[1].to_owned();
        if kind == "plan" {
            let text = std::fs::read_to_string(root.join(&path)).unwrap_or_default();
            let tier = text
                .lines()
                .find_map(|l| l.strip_prefix("tier: L"))
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(2);
            let feature = text
                .lines()
                .skip(1)
                .take_while(|l| *l != "---")
                .filter_map(|l| l.trim().strip_prefix("- "))
                .map(|t| t.trim_matches(['\'', '"', '#']).to_owned())
                .find(|t| t != "plan")
                .unwrap_or_default();
            let mut steps = ids(&text, "- [ ] `");
            steps.extend(ids(&text, "- [x] `"));
            state.plans.push(Plan {
                stem: stem.clone(),
                feature,
                tier,
                steps,
                phases: ids(&text, "### Phase `"),
                waves: ids(&text, "## Wave `"),
            });
        }
        if let Some(feature) = stem.strip_suffix("-plan").and_then(|s| s.get(11..))
            && !state.features.iter().any(|f| f == feature)
        {
            state.features.push(feature.to_owned());
        }
        state.docs.push(Doc { kind, stem, path });
    }
    state
}
