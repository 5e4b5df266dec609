//! `codex_agents_dedup` (0.1.24): releases before it wrote the personas
//! into `.codex/config.toml` twice, once in an old block between
//! `# BEGIN/END VAULTSPEC MANAGED CODEX AGENTS` and once as loose
//! `[agents.<name>]` tables; Codex refuses a file that names a table twice.
//! The old block goes, and so does each loose table or `[agents]` key that
//! repeats a persona vaultspec's own region now carries. Every other line
//! keeps its bytes.

use vaultspec_vault::Storage;
use vaultspec_vault::framework::render::{CODEX_CLOSE, CODEX_OPEN};

use super::{Done, read_text, write};

const CONFIG: &str = ".codex/config.toml";
const LEGACY_BEGIN: &str = "# BEGIN VAULTSPEC MANAGED CODEX AGENTS";
const LEGACY_END: &str = "# END VAULTSPEC MANAGED CODEX AGENTS";

/// The persona name a table header names: `[agents.x]`, `[agents."x"]`.
fn agent_table(line: &str) -> Option<String> {
    let inner = line
        .trim()
        .strip_prefix("[agents.")?
        .strip_suffix(']')?
        .trim();
    let name = inner
        .strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .unwrap_or(inner);
    (!name.is_empty() && !name.contains(['[', ']'])).then(|| name.to_owned())
}

/// The key a `key = value` line assigns.
fn assigned_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    (!key.is_empty() && !key.contains([' ', '#', '['])).then_some(key)
}

/// Whether each line starts inside a multi-line string (`'''` or `"""`),
/// so that a prompt's `[x]` or `a = b` is never taken for TOML.
fn inside_strings(lines: &[&str]) -> Vec<bool> {
    let mut open: Option<&str> = None;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        out.push(open.is_some());
        let mut rest = *line;
        loop {
            match open {
                Some(delim) => match rest.find(delim) {
                    Some(i) => {
                        rest = &rest[i + 3..];
                        open = None;
                    }
                    None => break,
                },
                None => {
                    let next = ["'''", "\"\"\""]
                        .into_iter()
                        .filter_map(|d| rest.find(d).map(|i| (i, d)))
                        .min();
                    match next {
                        Some((i, d)) => {
                            rest = &rest[i + 3..];
                            open = Some(d);
                        }
                        None => break,
                    }
                }
            }
        }
    }
    out
}

pub fn run(storage: &dyn Storage) -> Result<Done, String> {
    let Some(text) = read_text(storage, CONFIG)? else {
        return Ok(Done::said("no .codex/config.toml; nothing to change"));
    };
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = text.lines().collect();
    let in_string = inside_strings(&lines);
    let mut keep = vec![true; lines.len()];

    // The old block, markers included.
    let mut legacy = false;
    for (i, line) in lines.iter().enumerate() {
        if in_string[i] {
            continue;
        }
        if line.trim() == LEGACY_BEGIN {
            legacy = true;
        }
        if legacy {
            keep[i] = false;
        }
        if line.trim() == LEGACY_END {
            legacy = false;
        }
    }

    // The personas vaultspec's region carries.
    let (mut names, mut region) = (Vec::new(), Vec::new());
    let mut inside = false;
    for (i, line) in lines.iter().enumerate() {
        if in_string[i] {
            region.push(inside);
            continue;
        }
        if line.trim() == CODEX_OPEN {
            inside = true;
        }
        region.push(inside);
        if inside && let Some(name) = agent_table(line) {
            names.push(name);
        }
        if line.trim() == CODEX_CLOSE {
            inside = false;
        }
    }

    // Loose repeats of them, outside the region.
    let mut table: Option<String> = None;
    let mut dropping = false;
    let mut removed = 0;
    for (i, line) in lines.iter().enumerate() {
        if region[i] || !keep[i] {
            dropping = false;
            continue;
        }
        if !in_string[i] {
            let trimmed = line.trim_start();
            if trimmed.starts_with('[') {
                dropping = agent_table(line).is_some_and(|n| names.contains(&n));
                table = Some(trimmed.trim_end().to_owned());
                if dropping {
                    removed += 1;
                    // Blank lines and comments just above a dropped table
                    // belong to it.
                    let mut j = i;
                    while j > 0 && keep[j - 1] && !region[j - 1] && {
                        let above = lines[j - 1].trim();
                        above.is_empty() || above.starts_with('#')
                    } {
                        keep[j - 1] = false;
                        j -= 1;
                    }
                }
            } else if table.as_deref() == Some("[agents]")
                && let Some(key) = assigned_key(line)
            {
                dropping = names.iter().any(|n| n == key);
                removed += usize::from(dropping);
            } else if table.as_deref() == Some("[agents]") && assigned_key(line).is_some() {
                dropping = false;
            }
        }
        if dropping {
            keep[i] = false;
        }
    }
    if keep.iter().all(|k| *k) {
        return Ok(Done::said(
            "no persona is listed twice in .codex/config.toml; nothing to change",
        ));
    }
    let mut new: String = lines
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(l, _)| *l)
        .collect::<Vec<_>>()
        .join(newline);
    if text.ends_with('\n') && !new.is_empty() {
        new.push_str(newline);
    }
    write(storage, CONFIG, &new)?;
    let what = if removed == 0 {
        "the old personas block".to_owned()
    } else {
        format!(
            "{removed} persona table{} that repeated vaultspec's region",
            if removed == 1 { "" } else { "s" }
        )
    };
    Ok(Done {
        summary: format!("removed {what} from .codex/config.toml"),
        changes: vec![CONFIG.to_owned()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vaultspec_vault::{MemStorage, WriteScope};

    #[test]
    fn repeats_of_the_region_s_personas_go_and_the_rest_stays() {
        let s = MemStorage::new().with_scope(WriteScope::Enroll);
        let text = "model = \"o3\"\n\n# BEGIN VAULTSPEC MANAGED CODEX AGENTS\n[agents.old]\nprompt = \"x\"\n# END VAULTSPEC MANAGED CODEX AGENTS\n\n[agents.beta]\nprompt = '''\n[not.a.table]\n'''\n\n[agents.mine]\nprompt = \"keep\"\n\n[agents]\nbeta = { prompt = \"x\" }\nown = 1\n\n# <vaultspec type=\"agents\">\n[agents.beta]\nprompt = \"ours\"\n# </vaultspec>\n";
        s.insert(CONFIG, text);
        let done = run(&s).unwrap();
        assert_eq!(
            done.summary,
            "removed 2 persona tables that repeated vaultspec's region from .codex/config.toml"
        );
        let new = String::from_utf8(s.read(CONFIG).unwrap()).unwrap();
        assert_eq!(
            new,
            "model = \"o3\"\n\n[agents.mine]\nprompt = \"keep\"\n\n[agents]\nown = 1\n\n# <vaultspec type=\"agents\">\n[agents.beta]\nprompt = \"ours\"\n# </vaultspec>\n"
        );
        assert!(run(&s).unwrap().changes.is_empty());
    }
}
