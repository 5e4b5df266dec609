//! What the framework's sources become in each provider's files: the whole
//! desired state of a sync, computed from the sources alone.
//!
//! A [`Rendered`] lists every file vaultspec owns for the chosen providers
//! ([`Output::File`], marked by [`super::stamp`] when written), and the
//! regions it keeps inside files a person also writes: the block of a root
//! file ([`Output::Block`]) and the personas region of Codex's
//! configuration ([`Output::CodexAgents`]).

use std::collections::BTreeMap;

use super::provider::Provider;
use super::source::{Kind, Source, Sources};
use super::{builtin, front};

/// The generated rule that carries the system prompt to providers without
/// a system-prompt file.
pub const SYSTEM_RULE: &str = "vaultspec-system.builtin.md";

/// Gemini's system-prompt file.
pub const GEMINI_SYSTEM: &str = ".gemini/SYSTEM.md";

/// The opening line of vaultspec's block in a root file.
pub const BLOCK_OPEN: &str = "<vaultspec type=\"config\">";
/// The closing line of a block or region.
pub const BLOCK_CLOSE: &str = "</vaultspec>";
/// The opening line of the personas region of `.codex/config.toml`.
pub const CODEX_OPEN: &str = "# <vaultspec type=\"agents\">";
/// The closing line of the personas region.
pub const CODEX_CLOSE: &str = "# </vaultspec>";
/// Codex's configuration file.
pub const CODEX_CONFIG: &str = ".codex/config.toml";

/// One thing a sync keeps in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A whole file vaultspec owns.
    File {
        /// Workspace-relative path.
        path: String,
        /// Its text, before the mark.
        text: String,
        /// The source it is made from, named in the mark.
        source: String,
        /// Whether that source is one vaultspec (or `vaultspec-core`)
        /// ships: `install --upgrade` replaces such a file even when
        /// vaultspec's mark is missing (the reference wrote it).
        builtin: bool,
    },
    /// vaultspec's block in a root file: what goes between the markers.
    Block {
        /// The root file.
        path: String,
        /// The lines between the markers.
        body: String,
    },
    /// The personas region of `.codex/config.toml`: what goes between the
    /// markers.
    CodexAgents {
        /// The TOML between the markers.
        body: String,
    },
}

impl Output {
    /// The file it is in.
    pub fn path(&self) -> &str {
        match self {
            Output::File { path, .. } | Output::Block { path, .. } => path,
            Output::CodexAgents { .. } => CODEX_CONFIG,
        }
    }
}

/// The desired state for some providers.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// Every output, in a stable order.
    pub outputs: Vec<Output>,
    /// The folders whose every file vaultspec may own (a file with its mark
    /// there that no output names is stale and goes).
    pub folders: Vec<&'static str>,
}

/// Which kinds of source a sync renders: all, or one family
/// (`spec rules sync`).
pub fn render(sources: &Sources, providers: &[Provider], kinds: &[Kind]) -> Rendered {
    let mut out = Rendered::default();
    let wants = |k: Kind| kinds.contains(&k);
    let system = system_prompt(sources);
    let mut files: BTreeMap<String, Output> = BTreeMap::new();
    let mut put = |output: Output| {
        files.insert(output.path().to_owned(), output);
    };
    for &provider in providers {
        if wants(Kind::Rule) || wants(Kind::System) {
            let dir = provider.rules_dir();
            // The rules folder holds the system rule too: only a sync of
            // the rules owns the folder (and removes what is stale there).
            if wants(Kind::Rule) {
                push_folder(&mut out.folders, dir);
                for rule in sources.of(Kind::Rule) {
                    put(Output::File {
                        path: format!("{dir}/{}.md", rule.name),
                        text: rule_file(&rule.name, &rule.front.body),
                        source: rule.path.clone(),
                        builtin: builtin::is_builtin_name(Kind::Rule, &rule.name),
                    });
                }
            }
            if provider.system_rule() && wants(Kind::System) && !system.trim().is_empty() {
                put(Output::File {
                    path: format!("{dir}/{SYSTEM_RULE}"),
                    text: rule_file("vaultspec-system", &system),
                    source: Kind::System.dir(),
                    builtin: true,
                });
            }
        }
        if wants(Kind::Skill) {
            let dir = provider.skills_dir();
            push_folder(&mut out.folders, dir);
            for skill in sources.of(Kind::Skill) {
                for output in skill_files(dir, skill) {
                    put(output);
                }
            }
        }
        if wants(Kind::Agent)
            && let Some(dir) = provider.agents_dir()
        {
            push_folder(&mut out.folders, dir);
            for agent in sources.of(Kind::Agent) {
                put(Output::File {
                    path: format!("{dir}/{}.md", agent.name),
                    text: agent_file(provider, &agent.name, agent),
                    source: agent.path.clone(),
                    builtin: builtin::is_builtin_name(Kind::Agent, &agent.name),
                });
            }
        }
        if provider == Provider::Gemini && (wants(Kind::System) || wants(Kind::Skill)) {
            put(Output::File {
                path: GEMINI_SYSTEM.to_owned(),
                text: gemini_system(sources, &system),
                source: Kind::System.dir(),
                builtin: true,
            });
        }
    }
    let mut regions = Vec::new();
    if wants(Kind::Rule) || wants(Kind::System) {
        let mut roots: Vec<&str> = providers.iter().map(|p| p.root_file()).collect();
        roots.sort();
        roots.dedup();
        for root in roots {
            let provider = providers
                .iter()
                .copied()
                .find(|p| p.root_file() == root)
                .expect("a root file comes from a provider");
            regions.push(Output::Block {
                path: root.to_owned(),
                body: root_block(provider, sources, &system),
            });
        }
    }
    if wants(Kind::Agent) && providers.contains(&Provider::Codex) {
        regions.push(Output::CodexAgents {
            body: codex_agents(sources.of(Kind::Agent)),
        });
    }
    out.outputs = files.into_values().chain(regions).collect();
    out
}

fn push_folder(folders: &mut Vec<&'static str>, dir: &'static str) {
    if !folders.contains(&dir) {
        folders.push(dir);
    }
}

/// The system parts, composed in order: each part's body, blank-line
/// separated; parts with nothing but comments add nothing.
pub fn system_prompt(sources: &Sources) -> String {
    sources
        .of(Kind::System)
        .iter()
        .map(|part| part.front.body.trim())
        .filter(|body| !body.is_empty() && !only_comments(body))
        .collect::<Vec<_>>()
        .join("\n\n")
        + "\n"
}

fn only_comments(body: &str) -> bool {
    body.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || (l.starts_with("<!--") && l.ends_with("-->"))
    })
}

/// A rule as every provider's rules folder holds it.
fn rule_file(name: &str, body: &str) -> String {
    format!(
        "---\n{}trigger: always_on\n---\n\n{}",
        front::line("name", name),
        ensure_newline(body)
    )
}

fn ensure_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

fn skill_files(dir: &str, skill: &Source) -> Vec<Output> {
    let builtin = builtin::is_builtin_name(Kind::Skill, &skill.name);
    let mut files = vec![Output::File {
        path: format!("{dir}/{}/SKILL.md", skill.name),
        text: format!(
            "---\n{}{}---\n\n{}",
            front::line("name", &skill.name),
            front::line("description", &skill.description()),
            ensure_newline(&skill.front.body)
        ),
        source: skill.path.clone(),
        builtin,
    }];
    for (relative, text) in &skill.extra {
        files.push(Output::File {
            path: format!("{dir}/{}/{relative}", skill.name),
            text: ensure_newline(text),
            source: format!(".vaultspec/skills/{}/{relative}", skill.name),
            builtin,
        });
    }
    files
}

/// A persona in a provider's agents folder: its name and description, the
/// tools the provider knows by its own names, and the model of its tier.
fn agent_file(provider: Provider, name: &str, agent: &Source) -> String {
    let mut yaml = front::line("name", name);
    yaml.push_str(&front::line("description", &agent.description()));
    let tools: Vec<String> = agent
        .front
        .list("tools")
        .iter()
        .filter_map(|t| provider.tool(t))
        .map(str::to_owned)
        .collect();
    if provider != Provider::Antigravity && !tools.is_empty() {
        yaml.push_str(&front::list("tools", &tools));
    }
    if provider == Provider::Claude
        && let Some(model) = provider.model(&agent.front.text("tier"))
    {
        yaml.push_str(&front::line("model", model));
    }
    format!("---\n{yaml}---\n\n{}", ensure_newline(&agent.front.body))
}

/// Gemini's system prompt: the skills it can use, then the parts.
fn gemini_system(sources: &Sources, system: &str) -> String {
    let mut text = String::from("## Vaultspec skills\n\n");
    for skill in sources.of(Kind::Skill) {
        text.push_str(&format!("- **{}**: {}\n", skill.name, skill.description()));
    }
    text.push('\n');
    text.push_str(system);
    text
}

/// The lines of a root file's block.
fn root_block(provider: Provider, sources: &Sources, system: &str) -> String {
    let mut body = String::from(
        "## vaultspec rules\n\nFollow these rules in this repository; they are kept by \
         `vaultspec sync` from `.vaultspec/rules/`.\n\n",
    );
    let rules = sources.of(Kind::Rule);
    if provider.imports_rules() {
        let dir = provider.rules_dir();
        let mut files: Vec<String> = rules.iter().map(|r| format!("{}.md", r.name)).collect();
        if !system.trim().is_empty() {
            files.push(SYSTEM_RULE.to_owned());
        }
        files.sort();
        for file in files {
            body.push_str(&format!("@{dir}/{file}\n"));
        }
    } else {
        for rule in rules {
            body.push_str(&rule_file(&rule.name, &rule.front.body));
            body.push('\n');
        }
    }
    body
}

/// The personas as Codex tables, one per persona, by name.
fn codex_agents(agents: &[Source]) -> String {
    let tables: Vec<String> = agents
        .iter()
        .map(|agent| {
            let mut table = format!("[agents.{}]\n", toml_basic(&agent.name));
            table.push_str(&format!(
                "description = {}\n",
                toml_basic(&agent.description())
            ));
            if let Some(model) = Provider::Codex.model(&agent.front.text("tier")) {
                table.push_str(&format!("model = {}\n", toml_basic(model)));
            }
            table.push_str(&format!(
                "prompt = {}\n",
                toml_multiline(&ensure_newline(&agent.front.body))
            ));
            table
        })
        .collect();
    tables.join("\n")
}

/// A TOML basic string: every character TOML forbids raw is escaped
/// (controls, DEL, `"` and `\`).
pub fn toml_basic(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        push_toml_char(&mut out, c, false);
    }
    out.push('"');
    out
}

/// A multi-line TOML string: a literal `'''` string when the text allows
/// one (no `'''`, no control character but tab and newline), else a basic
/// `"""` string with escapes.
pub fn toml_multiline(text: &str) -> String {
    let literal_ok = !text.contains("'''")
        && !text.ends_with('\'')
        && !text
            .chars()
            .any(|c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{7f}');
    if literal_ok {
        return format!("'''\n{text}'''");
    }
    let mut out = String::from("\"\"\"\n");
    for c in text.chars() {
        push_toml_char(&mut out, c, true);
    }
    out.push_str("\"\"\"");
    out
}

fn push_toml_char(out: &mut String, c: char, multiline: bool) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' if multiline => out.push('\n'),
        '\t' => out.push('\t'),
        c if c.is_control() || c == '\u{7f}' => out.push_str(&format!("\\u{:04X}", c as u32)),
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;

    fn sources() -> Sources {
        let storage = MemStorage::new();
        storage.insert(
            ".vaultspec/rules/team.md",
            "---\nname: team\n---\n\nTabs.\n",
        );
        storage.insert(
            ".vaultspec/agents/p.md",
            "---\ndescription: Does: things\ntier: LOW\nmode: read-only\ntools: [Read, Grep, SendMessage]\n---\n\n# P\n",
        );
        storage.insert(
            ".vaultspec/skills/s/SKILL.md",
            "---\nname: s\ndescription: when\n---\n\n# S\n",
        );
        storage.insert(".vaultspec/skills/s/references/r.md", "R\n");
        storage.insert(
            ".vaultspec/system/01-core.md",
            "---\norder: 1\n---\n\n# Core\n",
        );
        Sources::read(&storage)
    }

    fn file<'a>(rendered: &'a Rendered, path: &str) -> &'a str {
        rendered
            .outputs
            .iter()
            .find_map(|o| match o {
                Output::File { path: p, text, .. } if p == path => Some(text.as_str()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {path}"))
    }

    #[test]
    fn each_provider_gets_its_folders_names_and_tools() {
        let rendered = render(&sources(), &Provider::ALL, &Kind::ALL);
        assert_eq!(
            file(&rendered, ".claude/rules/team.md"),
            "---\nname: team\ntrigger: always_on\n---\n\nTabs.\n"
        );
        assert!(file(&rendered, ".codex/rules/vaultspec-system.builtin.md").contains("# Core"));
        let claude = file(&rendered, ".claude/agents/p.md");
        assert!(
            claude.contains("description: \"Does: things\"\n"),
            "{claude}"
        );
        assert!(claude.contains("tools:\n- Read\n- Grep\n- SendMessage\nmodel: haiku\n"));
        let gemini = file(&rendered, ".gemini/agents/p.md");
        assert!(
            gemini.contains("tools:\n- read_file\n- grep_search\n---"),
            "{gemini}"
        );
        assert!(!file(&rendered, ".agents/agents/p.md").contains("tools"));
        assert_eq!(file(&rendered, ".agents/skills/s/references/r.md"), "R\n");
        assert!(file(&rendered, GEMINI_SYSTEM).contains("- **s**: when\n"));
        let blocks: Vec<&str> = rendered
            .outputs
            .iter()
            .filter_map(|o| match o {
                Output::Block { path, .. } => Some(path.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(blocks, ["AGENTS.md", "CLAUDE.md", "GEMINI.md"]);
    }

    #[test]
    fn codex_personas_are_valid_toml_whatever_their_text() {
        for body in [
            "plain\n",
            "has ''' inside\n",
            "del \u{7f} and bell \u{7}\n",
            "ends '",
        ] {
            let text = format!(
                "[t]\np = {}\nq = {}\n",
                toml_multiline(body),
                toml_basic(body)
            );
            let table: toml::Table =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(table["t"]["p"].as_str().unwrap(), body);
            assert_eq!(table["t"]["q"].as_str().unwrap(), body);
        }
    }
}
