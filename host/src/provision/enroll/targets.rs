//! Where each coding agent keeps its list of MCP servers, per scope.
//!
//! Claude reads `.mcp.json` (project) or `~/.claude.json` (local: under the
//! project's entry; user: at the top), Codex a `[mcp_servers]` table in
//! `.codex/config.toml` or `$CODEX_HOME/config.toml`, Antigravity
//! `.agents/mcp_config.json`. Gemini has no MCP file vaultspec writes.

use std::fmt;
use std::path::{Path, PathBuf};

/// A coding agent that reads MCP servers from a file, in the order the
/// reference reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Provider {
    Claude,
    Antigravity,
    Codex,
}

impl Provider {
    /// Every provider with an MCP file, in report order.
    pub const ALL: [Provider; 3] = [Provider::Claude, Provider::Antigravity, Provider::Codex];

    /// The provider's name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Claude => "claude",
            Provider::Antigravity => "antigravity",
            Provider::Codex => "codex",
        }
    }

    /// The provider named `name`, if it has an MCP file.
    pub fn parse(name: &str) -> Option<Provider> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whose file an enrollment goes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The workspace's own files, shared through the repository.
    Project,
    /// The user's file, for this workspace only (Claude).
    Local,
    /// The user's file, for every workspace.
    User,
}

impl Scope {
    /// The scope's name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::User => "user",
        }
    }

    /// The scope named `name`, or the reference's message for another.
    pub fn parse(name: &str) -> Result<Scope, String> {
        match name {
            "project" => Ok(Scope::Project),
            "local" => Ok(Scope::Local),
            "user" => Ok(Scope::User),
            other => Err(format!(
                "Unsupported MCP scope: {other} (choose one of: project, local, user)"
            )),
        }
    }
}

/// How the servers sit in a target file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Format {
    /// A JSON object; the servers are the object at these keys.
    Json { keys: Vec<String> },
    /// Codex's TOML, servers under `[mcp_servers]`, ours inside vaultspec's
    /// marker block.
    CodexToml,
}

/// One provider's file for one scope.
#[derive(Debug, Clone)]
pub struct Target {
    pub provider: Provider,
    pub scope: Scope,
    /// The absolute path of the file.
    pub path: PathBuf,
    /// The folder the host writes in, and the file's path beneath it: the
    /// workspace root for project scope (where only the agents' files may
    /// change), the file's own folder in the user's home.
    pub base: PathBuf,
    pub relative: String,
    pub format: Format,
}

impl Target {
    /// The key of this target in an ownership file.
    pub fn key(&self) -> String {
        format!(
            "{}:{}:{}",
            self.provider,
            self.scope.name(),
            self.path.display()
        )
    }
}

/// The user's configuration folders, from the environment.
#[derive(Debug, Clone)]
pub struct Homes {
    /// `$HOME`.
    pub home: PathBuf,
    /// `$CLAUDE_CONFIG_DIR`, else `$HOME`: where `.claude.json` lives.
    pub claude: PathBuf,
    /// `$CODEX_HOME`, else `$HOME/.codex`.
    pub codex: PathBuf,
}

impl Homes {
    /// Read from the environment; `None` without a home folder.
    pub fn from_env() -> Option<Homes> {
        let home = std::env::home_dir()?;
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Some(Homes {
            claude: var("CLAUDE_CONFIG_DIR").unwrap_or_else(|| home.clone()),
            codex: var("CODEX_HOME").unwrap_or_else(|| home.join(".codex")),
            home,
        })
    }

    /// `~/.vaultspec`, where ownership and consent are kept.
    pub fn vaultspec(&self) -> PathBuf {
        self.home.join(".vaultspec")
    }
}

/// The file `provider` reads for `scope` in the workspace at `root`.
pub fn resolve(
    provider: Provider,
    scope: Scope,
    root: &Path,
    homes: &Homes,
) -> Result<Target, String> {
    let in_root = |relative: &str, format| Target {
        provider,
        scope,
        path: root.join(relative),
        base: root.to_path_buf(),
        relative: relative.to_owned(),
        format,
    };
    let in_home = |dir: &Path, name: &str, format| Target {
        provider,
        scope,
        path: dir.join(name),
        base: dir.to_path_buf(),
        relative: name.to_owned(),
        format,
    };
    let servers = |keys: &[&str]| Format::Json {
        keys: keys.iter().map(|k| (*k).to_owned()).collect(),
    };
    Ok(match (provider, scope) {
        (Provider::Claude, Scope::Project) => in_root(".mcp.json", servers(&["mcpServers"])),
        (Provider::Claude, Scope::Local) => {
            let project = root.to_string_lossy().replace('\\', "/");
            in_home(
                &homes.claude,
                ".claude.json",
                servers(&["projects", &project, "mcpServers"]),
            )
        }
        (Provider::Claude, Scope::User) => {
            in_home(&homes.claude, ".claude.json", servers(&["mcpServers"]))
        }
        (Provider::Codex, Scope::Project) => in_root(".codex/config.toml", Format::CodexToml),
        (Provider::Codex, Scope::User) => in_home(&homes.codex, "config.toml", Format::CodexToml),
        (Provider::Codex, Scope::Local) => {
            return Err("Codex does not define a distinct local MCP scope.".to_owned());
        }
        (Provider::Antigravity, Scope::Project) => {
            in_root(".agents/mcp_config.json", servers(&["mcpServers"]))
        }
        (Provider::Antigravity, _) => {
            return Err(format!(
                "Antigravity reads MCP servers for the project scope only, not `{}`.",
                scope.name()
            ));
        }
    })
}
