//! `vault rule promote`: turn an audit into a team-shared rule under
//! `.vaultspec/rules/`, where providers pick rules up.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::doc::DocType;
use vaultspec_sdk::vault::{Corpus, Storage, resolve};

use crate::exports::vaultspec::vault_write::vault_rule::PromoteOptions;
use crate::report::{done, fail, usage};

/// Where rules live.
const RULES_DIR: &str = ".vaultspec/rules";

fn rule_name(raw: &str) -> Result<String, String> {
    let name = raw.trim().trim_end_matches(".md").to_owned();
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-');
    if ok {
        Ok(name)
    } else {
        Err(format!(
            "invalid rule name `{raw}`: expected kebab-case such as `no-silent-retries`"
        ))
    }
}

/// The rule file: its name in the frontmatter (the rename-integrity check
/// matches it against the file name), then the audit's prose under a new H1.
fn render(name: &str, stem: &str, body: &str) -> String {
    let mut lines = body.lines().skip_while(|l| l.trim().is_empty()).peekable();
    if lines.peek().is_some_and(|l| l.starts_with("# ")) {
        lines.next();
    }
    let rest: Vec<&str> = lines.collect();
    let rest = rest.join("\n");
    let rest = rest.trim();
    format!("---\nname: {name}\n---\n\n# {name}\n\nPromoted from the audit `{stem}`.\n\n{rest}\n")
}

pub fn promote(options: PromoteOptions) -> u8 {
    let json = options.json;
    let name = match rule_name(&options.as_) {
        Ok(n) => n,
        Err(message) => return usage(json, &message),
    };
    let ws = WritableWorkspace::open();
    let corpus = match Corpus::load(&ws) {
        Ok(c) => c,
        Err(err) => return fail(json, err),
    };
    let audit = match resolve::resolve(&corpus, &options.from) {
        Ok(d) => d,
        Err(err) => return fail(json, err),
    };
    if audit.doc_type != Some(DocType::Audit) {
        return fail(
            json,
            format!(
                "`{}` is not an audit: `--from` expects a document under `.vault/audit/`",
                audit.path
            ),
        );
    }
    let path = format!("{RULES_DIR}/{name}.md");
    let exists = match ws.exists(&path) {
        Ok(e) => e,
        Err(err) => return fail(json, err),
    };
    if exists && !options.force {
        return fail(
            json,
            format!(
                "rule `{path}` already exists: pass `--force` to overwrite it or choose another `--as`"
            ),
        );
    }
    let text = render(&name, &audit.stem, audit.body());
    if !options.dry_run
        && let Err(err) = ws.write(&path, text.as_bytes())
    {
        return fail(json, err);
    }
    let status = if exists { "updated" } else { "created" };
    let mut data = json!({ "path": path, "name": name, "source": audit.path });
    if options.dry_run {
        data["dry_run"] = json!(true);
    }
    done(
        json,
        "vaultspec.vault.rule.promote.v1",
        status,
        data,
        || {
            let verb = if options.dry_run {
                "would write"
            } else {
                "wrote"
            };
            println!("{verb} {path} from {}", audit.path);
        },
    )
}
