//! The coding agents vaultspec renders its framework for, and where each
//! one reads rules, skills, personas and its system prompt.

/// One coding agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Provider {
    /// Claude Code: `.claude/`, `CLAUDE.md`.
    Claude,
    /// Gemini CLI: `.gemini/`, `GEMINI.md`, skills in `.agents/skills/`.
    Gemini,
    /// Antigravity: `.agents/`, sharing `GEMINI.md` with Gemini.
    Antigravity,
    /// Codex: `.codex/rules/`, personas in `.codex/config.toml`,
    /// `AGENTS.md`, skills in `.agents/skills/`.
    Codex,
}

impl Provider {
    /// Every provider, in the order they are reported.
    pub const ALL: [Provider; 4] = [
        Provider::Claude,
        Provider::Gemini,
        Provider::Antigravity,
        Provider::Codex,
    ];

    /// The provider's name on the command line and in `providers.json`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Claude => "claude",
            Provider::Gemini => "gemini",
            Provider::Antigravity => "antigravity",
            Provider::Codex => "codex",
        }
    }

    /// The provider named `name`.
    pub fn parse(name: &str) -> Option<Provider> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The folder its rules are rendered into.
    pub fn rules_dir(self) -> &'static str {
        match self {
            Provider::Claude => ".claude/rules",
            Provider::Gemini => ".gemini/rules",
            Provider::Antigravity => ".agents/rules",
            Provider::Codex => ".codex/rules",
        }
    }

    /// The folder its skills are rendered into (Gemini, Antigravity and
    /// Codex share `.agents/skills/`).
    pub fn skills_dir(self) -> &'static str {
        match self {
            Provider::Claude => ".claude/skills",
            _ => ".agents/skills",
        }
    }

    /// The folder its personas are rendered into, or `None` for Codex,
    /// which keeps them as tables in `.codex/config.toml`.
    pub fn agents_dir(self) -> Option<&'static str> {
        match self {
            Provider::Claude => Some(".claude/agents"),
            Provider::Gemini => Some(".gemini/agents"),
            Provider::Antigravity => Some(".agents/agents"),
            Provider::Codex => None,
        }
    }

    /// The file at the workspace root that carries vaultspec's block.
    pub fn root_file(self) -> &'static str {
        match self {
            Provider::Claude => "CLAUDE.md",
            Provider::Gemini | Provider::Antigravity => "GEMINI.md",
            Provider::Codex => "AGENTS.md",
        }
    }

    /// Whether its root block imports the rule files (`@path`) rather than
    /// holding them inline.
    pub fn imports_rules(self) -> bool {
        matches!(self, Provider::Claude | Provider::Codex)
    }

    /// Whether the system prompt reaches it as a generated rule
    /// (`vaultspec-system.builtin.md`); Gemini has `.gemini/SYSTEM.md`
    /// instead, Antigravity neither.
    pub fn system_rule(self) -> bool {
        matches!(self, Provider::Claude | Provider::Codex)
    }

    /// A persona's tool, by its Claude name, as this provider calls it;
    /// `None` when the provider has no such tool or lists none.
    pub fn tool(self, claude: &str) -> Option<&'static str> {
        match self {
            Provider::Claude => CLAUDE_TOOLS.iter().copied().find(|t| *t == claude),
            Provider::Gemini => GEMINI_TOOLS
                .iter()
                .find(|(c, _)| *c == claude)
                .map(|(_, g)| *g),
            Provider::Antigravity | Provider::Codex => None,
        }
    }

    /// The model a persona of `tier` runs on with this provider, if the
    /// provider's persona format names one.
    pub fn model(self, tier: &str) -> Option<&'static str> {
        let tier = tier.trim().to_ascii_uppercase();
        match self {
            // Claude Code's own aliases: they follow its newest models.
            Provider::Claude => Some(match tier.as_str() {
                "HIGH" => "opus",
                "LOW" => "haiku",
                _ => "sonnet",
            }),
            Provider::Codex => Some(match tier.as_str() {
                "HIGH" => "gpt-5.6-sol",
                "LOW" => "gpt-5.6-luna",
                _ => "gpt-5.6-terra",
            }),
            Provider::Gemini | Provider::Antigravity => None,
        }
    }
}

/// The tool names a Claude persona may list.
const CLAUDE_TOOLS: [&str; 12] = [
    "Glob",
    "Grep",
    "Read",
    "Write",
    "Edit",
    "Bash",
    "WebFetch",
    "WebSearch",
    "SendMessage",
    "TaskCreate",
    "TaskList",
    "TaskUpdate",
];

/// Claude's tool names and Gemini CLI's for the same tool.
const GEMINI_TOOLS: [(&str, &str); 8] = [
    ("Glob", "glob"),
    ("Grep", "grep_search"),
    ("Read", "read_file"),
    ("Write", "write_file"),
    ("Edit", "replace"),
    ("Bash", "run_shell_command"),
    ("WebFetch", "web_fetch"),
    ("WebSearch", "google_web_search"),
];
