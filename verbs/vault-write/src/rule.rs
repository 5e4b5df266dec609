//! `vault rule promote`: turn an audit into a team-shared rule under
//! `.vaultspec/rules/`, where providers pick rules up.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::doc::DocType;
use vaultspec_sdk::vault::ops::rule::{promoted_audit, rule_scaffold};
use vaultspec_sdk::vault::ops::{Change, apply};
use vaultspec_sdk::vault::{Corpus, Date, Storage, resolve};

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
    // The reference's promotion: the rule template, linked back to the
    // audit, and the audit re-rendered with `promoted_to`, in one batch.
    let rule = rule_scaffold(audit.stem());
    let Some(audit_text) = promoted_audit(&audit.path, &audit.text, &name, Date::today_utc())
    else {
        return fail(
            json,
            format!(
                "`{}` has no frontmatter to record `promoted_to` in",
                audit.path
            ),
        );
    };
    let changes = [
        Change::Write {
            path: path.clone(),
            bytes: rule.into_bytes(),
        },
        Change::Write {
            path: audit.path.clone(),
            bytes: audit_text.into_bytes(),
        },
    ];
    if !options.dry_run
        && let Err(err) = apply(&ws, &changes)
    {
        return fail(json, err);
    }
    // `created` also when `--force` replaced a rule, `unchanged` for a
    // dry run: the reference's words.
    let status = if options.dry_run {
        "unchanged"
    } else {
        "created"
    };
    let mut data = json!({ "path": path, "name": name, "source": audit.path, "replaced": exists });
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
