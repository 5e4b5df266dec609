//! The `instructions` text sent with the `initialize` reply.
//!
//! Structure per `spec/mcp-tools.md` §1: the server name and tool-schema
//! version, each tool with a short purpose, the long-tail gateway, and the
//! advice to let verbs write what identifiers and frontmatter must say.

/// The server's name on the wire.
pub const SERVER_NAME: &str = "vaultspec-core-mcp";

/// The tool-schema version, reported by `status` and in the instructions:
/// the version of the tool contract this server speaks, which is
/// `vaultspec-core` 0.3.9's (spec/mcp-tools.md: same tools, arguments and
/// result shapes). A client compares it to know which shapes to expect, so
/// it names the contract, not this binary; the binary's own version is in
/// `initialize`'s `serverInfo`. It changes when a tool's shape does.
pub const TOOL_SCHEMA_VERSION: &str = "0.3.9";

/// The instructions for a server in the given mode.
pub fn instructions(read_only: bool) -> String {
    if read_only {
        format!(
            "{SERVER_NAME} (tool-schema version {TOOL_SCHEMA_VERSION}) serves this project's .vault/ in read-only mode. \
             Use status (where each feature and plan stands), find (documents by feature, type, date or name), \
             search (passages that answer a question, ranked locally), crossref (which ADRs one ADR relates to, judged within fixed bounds and never written), \
             check (validation without repair) and discover (the read-only verb catalog). \
             Tools that change the vault and the invoke gateway are deliberately absent in this mode."
        )
    } else {
        format!(
            "{SERVER_NAME} (tool-schema version {TOOL_SCHEMA_VERSION}) keeps this project's decisions in its .vault/: research, ADRs, plans made of steps, execution ledgers and feature indexes. \
             Start with status (where each feature and plan stands) and find (documents by feature, type, date or name, with optional excerpts). \
             search returns the passages that answer a question, ranked locally; crossref suggests the ADRs an ADR relates to and can write them into related:. \
             create scaffolds new documents from the workspace templates; edit replaces a body or one section under an optional blob-hash guard; \
             plan_progress checks and unchecks plan steps; plan_edit adds, inserts, edits and removes steps; log records what a step changed in the feature's ledger; \
             check validates the whole vault and can fix what is safe to fix. \
             Everything else is in the long tail: discover searches the full verb catalog and returns each verb's parameters on demand, and invoke runs any cataloged verb in a sandbox. \
             Prefer the hot tools, and let the tools write: they allocate identifiers, frontmatter and file names, so never author those by hand."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_modes_name_the_server_version_and_their_tools() {
        let normal = instructions(false);
        assert!(normal.starts_with(&format!(
            "{SERVER_NAME} (tool-schema version {TOOL_SCHEMA_VERSION})"
        )));
        for tool in [
            "status",
            "find",
            "search",
            "crossref",
            "create",
            "edit",
            "plan_progress",
            "plan_edit",
            "log",
            "check",
            "discover",
            "invoke",
        ] {
            assert!(normal.contains(tool), "{tool} missing");
        }
        let read_only = instructions(true);
        assert!(read_only.contains("read-only mode"));
        assert!(!read_only.contains("plan_edit") && !read_only.contains("create "));
    }
}
