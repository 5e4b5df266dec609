//! What `vaultspec install` puts in a workspace: the folders, the files and
//! the managed blocks of the core, each with the label the reference gives it.
//!
//! The layout is the reference's (spec/cli-verbs.md, "install"), so a
//! workspace set up by either tool is adopted by the other as it is. The
//! templates are our own; the MCP definition is the reference's
//! mode-neutral one, whose placeholders each tool renders to its own launch.

use vaultspec_vault::DocType;
use vaultspec_vault::template::{default_template, template_name};

use super::managed_block;
use super::policy::Policy;

/// What an item should be.
#[derive(Debug, Clone)]
pub enum Want {
    /// A folder.
    Folder,
    /// A file with these bytes.
    File(Vec<u8>),
    /// A file carrying a managed block of these lines.
    Block(Vec<String>),
    /// A file made with these bytes when it is missing, and never touched
    /// once there (not even by `--force`): it is the person's to change.
    Seed(Vec<u8>),
}

/// One thing `install` makes.
#[derive(Debug, Clone)]
pub struct Item {
    /// Workspace-relative path.
    pub path: String,
    /// The group it belongs to, as the reference labels it.
    pub label: &'static str,
    /// What it should be.
    pub want: Want,
    /// Shipped by vaultspec and refreshed by `--upgrade`; other files are
    /// the user's once written, replaced only by `--force`.
    pub builtin: bool,
}

/// The reference's builtin MCP definition: the server launches whichever
/// vaultspec the workspace's install mode names.
pub const MCP_DEFINITION: &str = "{\n  \"command\": \"@@VAULTSPEC_INSTALL_MODE_COMMAND@@\",\n  \"args\": [\"@@VAULTSPEC_INSTALL_MODE_ARGS@@\"]\n}\n";

/// Where the builtin MCP definition lives.
pub const MCP_DEFINITION_PATH: &str = ".vaultspec/mcps/vaultspec-core.builtin.json";

/// The workspace declaration the reference writes: the default install mode.
pub const WORKSPACE_JSON: &str = "{\n  \"packages\": {\n    \"vaultspec-core\": {\n      \"install_mode\": \"tool\"\n    }\n  },\n  \"schema_version\": \"2.2\"\n}\n";

const CORE: &str = "core (.vaultspec)";
const VAULT: &str = "vault (.vault)";
const BUILTIN: &str = "builtin";

/// Every item of the core, folders before the files in them, as the
/// workspace's git `policy` allows; the commit gate's hook runs `command`
/// (this binary as the person runs it).
pub fn core(policy: &Policy, command: &str) -> Vec<Item> {
    let folder = |path: &str, label| Item {
        path: path.to_owned(),
        label,
        want: Want::Folder,
        builtin: false,
    };
    let file = |path: &str, label, bytes: &[u8], builtin| Item {
        path: path.to_owned(),
        label,
        want: Want::File(bytes.to_vec()),
        builtin,
    };
    let mut items = vec![
        folder(".vaultspec", CORE),
        folder(".vaultspec/mcps", CORE),
        folder(".vaultspec/templates", CORE),
    ];
    items.extend(DocType::ALL.map(|t| folder(&t.dir(), VAULT)));
    items.push(file(
        ".vaultspec/workspace.json",
        CORE,
        WORKSPACE_JSON.as_bytes(),
        false,
    ));
    items.push(file(
        MCP_DEFINITION_PATH,
        BUILTIN,
        MCP_DEFINITION.as_bytes(),
        true,
    ));
    items.extend(DocType::ALL.map(|t| {
        let path = format!(".vaultspec/templates/{}", template_name(t));
        file(&path, BUILTIN, default_template(t).as_bytes(), false)
    }));
    for path in BLOCK_FILES {
        if let Some(lines) = block_lines(path, policy) {
            items.push(Item {
                path: path.to_owned(),
                label: "git",
                want: Want::Block(lines),
                builtin: true,
            });
        }
    }
    if policy.pre_commit {
        items.push(Item {
            path: PRE_COMMIT_PATH.to_owned(),
            label: "precommit",
            want: Want::Seed(pre_commit(command).into_bytes()),
            builtin: false,
        });
    }
    items
}

/// The files that carry a vaultspec block.
pub const BLOCK_FILES: [&str; 2] = [".gitignore", ".gitattributes"];

/// The lines of vaultspec's block in `path` (one of [`BLOCK_FILES`]) under
/// `policy`; `None` where the workspace declined the block.
pub fn block_lines(path: &str, policy: &Policy) -> Option<Vec<String>> {
    let (lines, kept) = match path {
        ".gitignore" => (managed_block::GITIGNORE, policy.gitignore),
        ".gitattributes" => (managed_block::GITATTRIBUTES, policy.gitattributes),
        _ => return None,
    };
    if !kept {
        return None;
    }
    let mut lines: Vec<String> = lines.iter().map(|line| (*line).to_owned()).collect();
    if path == ".gitignore" && !policy.pre_commit {
        // A declined hook file is the person's, kept out of commits, as
        // the reference's block then keeps it.
        lines.retain(|line| line != "/.pre-commit-config.yaml.lock");
        lines.extend([
            "/.pre-commit-config.yaml".into(),
            "/.pre-commit-config.yml".into(),
        ]);
        lines.sort_by(|a, b| (a.starts_with('!'), a).cmp(&(b.starts_with('!'), b)));
    }
    Some(lines)
}

/// Where pre-commit reads its hooks.
pub const PRE_COMMIT_PATH: &str = ".pre-commit-config.yaml";

/// A pre-commit configuration that runs vaultspec's commit gate, started
/// as `command`, on every commit: it refuses a commit that stages vault
/// errors or per-machine files. Made only where there is no configuration
/// yet.
pub(crate) fn pre_commit(command: &str) -> String {
    format!(
        "\
repos:
- repo: local
  hooks:
  - id: vaultspec-commit-gate
    name: vaultspec commit gate
    entry: {command} commit-gate
    language: system
    always_run: true
    pass_filenames: true
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_core_makes_every_vault_folder_and_template_once() {
        let items = core(&Policy::default(), "vaultspec");
        for t in DocType::ALL {
            assert_eq!(items.iter().filter(|i| i.path == t.dir()).count(), 1);
            let template = format!(".vaultspec/templates/{}", template_name(t));
            assert_eq!(items.iter().filter(|i| i.path == template).count(), 1);
        }
        let position = |p: &str| items.iter().position(|i| i.path == p).unwrap();
        assert!(position(".vaultspec/mcps") < position(MCP_DEFINITION_PATH));
    }

    #[test]
    fn a_declined_choice_leaves_its_file_out_and_the_hook_file_is_then_ignored() {
        let path = |items: &[Item], p: &str| items.iter().find(|i| i.path == p).cloned();
        let all = core(&Policy::default(), "/opt/vs/vaultspec");
        let Some(Item {
            want: Want::Seed(hook),
            ..
        }) = path(&all, PRE_COMMIT_PATH)
        else {
            panic!("no hook file");
        };
        assert!(
            String::from_utf8(hook)
                .unwrap()
                .contains("entry: /opt/vs/vaultspec commit-gate")
        );
        let declined = Policy {
            pre_commit: false,
            gitattributes: false,
            gitignore: true,
        };
        let items = core(&declined, "vaultspec");
        assert!(path(&items, PRE_COMMIT_PATH).is_none());
        assert!(path(&items, ".gitattributes").is_none());
        let Some(Item {
            want: Want::Block(lines),
            ..
        }) = path(&items, ".gitignore")
        else {
            panic!("no .gitignore block");
        };
        assert!(
            lines.contains(&"/.pre-commit-config.yaml".to_owned()),
            "{lines:?}"
        );
        assert!(
            !lines.contains(&"/.pre-commit-config.yaml.lock".to_owned()),
            "{lines:?}"
        );
        assert_eq!(lines.last().map(String::as_str), Some("!.env.example"));
        let no_ignore = Policy {
            gitignore: false,
            ..declined
        };
        assert!(path(&core(&no_ignore, "vaultspec"), ".gitignore").is_none());
    }

    #[test]
    fn the_shipped_json_files_parse() {
        let def: serde_json::Value = serde_json::from_str(MCP_DEFINITION).unwrap();
        assert!(def["command"].is_string() && def["args"].is_array());
        let ws: serde_json::Value = serde_json::from_str(WORKSPACE_JSON).unwrap();
        assert_eq!(ws["packages"]["vaultspec-core"]["install_mode"], "tool");
    }
}
