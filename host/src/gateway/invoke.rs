//! `invoke`: check a tool call's arguments against a verb's declaration, run
//! the verb in the sandbox, and fold its outcome into the reply
//! (`spec/gateway.md` §3–6).
//!
//! Every check happens before anything runs, in this order: the timeout;
//! an unknown, denied or untrusted verb; a reserved flag; a blocked flag; an
//! undeclared flag; a value of the wrong shape or type, or not among the
//! choices; operands that do not fit. Each is a refusal naming the culprit.

use std::time::{Duration, Instant, SystemTime};

use serde_json::{Map, Value, json};
use vaultspec_vault::Date;

use super::HostVerbs;
use super::discover::{BLOCKED, RESERVED};
use super::kept::{Given, KeptReplies};
use crate::catalog::{Catalog, Origin, is_denied};
use crate::invocation::{ArgError, Arguments, FlagValue, Invocation, arguments};
use crate::sandbox::{CallOptions, FailureKind, OUTPUT_LIMIT, Outcome, Output, Outside, Sandbox};
use crate::workspace::Workspace;

/// The timeout when the call names none, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 60.0;

/// The longest a call may run, in seconds; longer requests are clamped.
pub const MAX_TIMEOUT: f64 = 120.0;

/// What a tool call asks to run.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The verb path as submitted.
    pub verb: String,
    /// Flag values by key (`feature`, `--feature` or `dry_run`).
    pub arguments: Map<String, Value>,
    /// Operands, in order.
    pub positionals: Vec<String>,
    /// Seconds before the verb is stopped.
    pub timeout: Option<f64>,
    /// When the call began, if its front end worked on it before: the
    /// timeout counts from then.
    pub began: Option<Instant>,
}

/// A request checked against its verb, ready to run.
struct Checked<'c> {
    verb: String,
    entry: &'c crate::catalog::Entry,
    /// The verb's component, which the catalog found runnable.
    runnable: crate::catalog::Runnable,
    /// Its arguments, checked against its declaration.
    arguments: Arguments,
    /// The same, as flags and operands (for a host verb).
    invocation: Invocation,
    timeout: f64,
    flags_argv: Vec<String>,
}

fn flag_name(key: &str) -> String {
    key.trim_start_matches('-').replace('_', "-")
}

/// One argv item per value: strings as they are, numbers in JSON form.
fn render(key: &str, value: &Value) -> Result<Option<Vec<String>>, String> {
    let shape_error =
        || format!("argument '{key}' must be a string, number, boolean or array of those");
    let one = |v: &Value| match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(shape_error()),
    };
    match value {
        Value::Array(items) => Ok(Some(items.iter().map(one).collect::<Result<_, _>>()?)),
        Value::Null | Value::Object(_) => Err(shape_error()),
        other => Ok(Some(vec![one(other)?])),
    }
}

fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// The seconds a call asking for `timeout` may run: the default when it
/// names none, clamped to [`MAX_TIMEOUT`]; `Err` when it is not a positive
/// number.
pub fn timeout_seconds(timeout: Option<f64>) -> Result<f64, String> {
    let timeout = timeout.unwrap_or(DEFAULT_TIMEOUT);
    if !timeout.is_finite() || timeout <= 0.0 {
        return Err("timeout must be finite and greater than zero".into());
    }
    Ok(timeout.min(MAX_TIMEOUT))
}

fn check<'c>(catalog: &'c Catalog, request: &Request) -> Result<Checked<'c>, String> {
    let timeout = timeout_seconds(request.timeout)?;
    let verb = request
        .verb
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if is_denied(&verb) {
        return Err(format!(
            "verb '{}' is out of scope for the gateway (denylisted)",
            request.verb
        ));
    }
    let entry = catalog.get(&verb).ok_or_else(|| {
        format!(
            "unknown verb '{}'; use discover to find a valid verb path",
            request.verb
        )
    })?;
    let runnable = catalog
        .runnable(entry)
        .map_err(|untrusted| untrusted.to_string())?;
    let spec = &entry.spec;

    let mut invocation = Invocation {
        json: spec.supports_json,
        ..Invocation::default()
    };
    let mut flags_argv = Vec::new();
    for (key, value) in &request.arguments {
        let name = flag_name(key);
        if RESERVED.contains(&name.as_str()) {
            return Err(format!(
                "argument '{key}' maps to reserved flag '--{name}'; the gateway manages --target and --json itself"
            ));
        }
        if BLOCKED.contains(&name.as_str()) {
            return Err(format!(
                "flag '--{name}' is not available through the gateway; host commands and file imports are restricted to the local CLI"
            ));
        }
        let Some(flag) = spec.flag(&name) else {
            return Err(format!(
                "unknown flag '--{name}' for this verb{}",
                crate::invocation::suggest_flag(spec, &name)
            ));
        };
        if !flag.takes_value() {
            if truthy(value) {
                flags_argv.push(format!("--{name}"));
                invocation.flags.insert(name, FlagValue::Switch(true));
            }
            continue;
        }
        let values = render(key, value)?.unwrap_or_default();
        for v in &values {
            flags_argv.push(format!("--{name}"));
            flags_argv.push(v.clone());
        }
        if !values.is_empty() {
            invocation.flags.insert(name, FlagValue::Values(values));
        }
    }
    for item in &request.positionals {
        if item.starts_with('-') {
            return Err(format!(
                "positional '{item}' begins with '-'; positional operands must not look like options \
                 (the gateway would otherwise let a flag be smuggled through the positional slot)"
            ));
        }
    }
    invocation.operands = request.positionals.clone();
    let arguments = arguments(spec, &invocation).map_err(|e: ArgError| e.to_string())?;
    Ok(Checked {
        verb,
        entry,
        runnable,
        arguments,
        invocation,
        timeout,
        flags_argv,
    })
}

fn decode(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .replace("\r\n", "\n")
        .replace('\r', "\n")
}

fn timeout_text(seconds: f64) -> String {
    let text = seconds.to_string();
    if text.contains('.') {
        text
    } else {
        format!("{text}.0")
    }
}

/// Fold a finished (or stopped) call into the reply object.
fn fold(checked: &Checked<'_>, outcome: Outcome, command: Vec<String>) -> Value {
    let mut reply = json!({"verb": checked.verb});
    let stdout = decode(&outcome.stdout);
    let stderr = decode(&outcome.stderr);
    let failed = |kind: &str, exit_code: i64, message: String| {
        json!({"ok": false, "exit_code": exit_code, "format": "text",
               "error": {"kind": kind, "exit_code": exit_code, "message": message}})
    };
    let body = match (outcome.exit_code, outcome.failure) {
        (_, Some(failure)) => match failure.kind {
            FailureKind::Timeout => failed(
                "timeout",
                -1,
                format!(
                    "verb timed out after {} seconds",
                    timeout_text(checked.timeout)
                ),
            ),
            FailureKind::OutputLimit => failed(
                "output_limit",
                -1,
                format!("combined stdout/stderr exceeds {OUTPUT_LIMIT} bytes"),
            ),
            FailureKind::MemoryLimit | FailureKind::Trap => {
                let mut value = failed(
                    "nonzero_exit",
                    -1,
                    format!(
                        "verb stopped: {}",
                        failure.message.lines().next().unwrap_or("")
                    ),
                );
                value["error"]["stderr"] = json!(stderr);
                value
            }
        },
        (Some(0), None) if checked.entry.spec.supports_json => {
            match serde_json::from_str::<Value>(&stdout) {
                Ok(data) => json!({"ok": true, "exit_code": 0, "format": "json", "data": data}),
                Err(err) => {
                    let mut value = failed(
                        "json_parse",
                        0,
                        format!("verb declared --json but its output did not parse: {err}"),
                    );
                    value["stdout"] = json!(stdout);
                    value["error"]["stderr"] = json!(stderr);
                    value
                }
            }
        }
        (Some(0), None) => json!({"ok": true, "exit_code": 0, "format": "text", "stdout": stdout}),
        (Some(code), None) => {
            let mut value = failed(
                "nonzero_exit",
                i64::from(code),
                format!("verb exited with status {code}"),
            );
            if !stdout.is_empty() {
                value["stdout"] = json!(stdout);
            }
            value["error"]["stderr"] = json!(stderr);
            value
        }
        (None, None) => failed("nonzero_exit", -1, "verb ended without an exit code".into()),
    };
    if let (Value::Object(reply), Value::Object(body)) = (&mut reply, body) {
        reply.extend(body);
    }
    reply["command"] = json!(command);
    reply["changed"] = json!(outcome.changed);
    // The host's word, not the verb's: a component without the write import
    // was given no way to write.
    reply["read_only"] = json!(!checked.runnable.capabilities.writes());
    reply
}

/// What runs a checked call: the sandbox for components, the host's
/// runner for its own verbs.
#[derive(Clone, Copy)]
pub struct Runners<'g> {
    /// Where components run.
    pub sandbox: &'g Sandbox,
    /// The host's gateway verbs, when the front end serves them.
    pub host: Option<&'g HostVerbs>,
}

impl<'g> Runners<'g> {
    /// Components only, in `sandbox`.
    pub fn components(sandbox: &'g Sandbox) -> Self {
        Self {
            sandbox,
            host: None,
        }
    }
}

/// An `invoke` reply.
pub enum Replied {
    /// Made by this call and not kept.
    Made(Value),
    /// Kept: given again from an earlier call, or made by this one and
    /// kept for the next.
    Kept(Given),
}

impl Replied {
    /// The reply as a JSON value (a kept one is read back).
    pub fn into_value(self) -> Value {
        match self {
            Replied::Made(value) => value,
            Replied::Kept(given) => serde_json::from_str(&given.json)
                .expect("a kept reply is the JSON it was written as"),
        }
    }
}

/// Check and run one request; `Err` is a refusal (nothing ran).
pub async fn invoke(
    catalog: &Catalog,
    runners: Runners<'_>,
    workspace: &Workspace,
    request: &Request,
) -> Result<Value, String> {
    invoke_keeping(catalog, runners, workspace, request, None)
        .await
        .map(Replied::into_value)
}

/// Whether a reply to `request` could be kept at all: a valid call of a
/// builtin verb other than the root `doctor` (which hands over what the
/// host read). A caller asks before it brings the kept replies up to date.
pub fn may_keep(catalog: &Catalog, runners: Runners<'_>, request: &Request) -> bool {
    check(catalog, request).is_ok_and(|checked| keepable(&checked, runners))
}

fn keepable(checked: &Checked, runners: Runners<'_>) -> bool {
    checked.runnable.origin == Origin::Builtin
        && !(checked.verb == "doctor" && runners.host.is_some())
}

/// [`invoke`], with `kept` (the replies kept for the vault as it is now):
/// a read-only builtin's reply is given from there while it holds, and
/// kept there when it can be.
pub async fn invoke_keeping(
    catalog: &Catalog,
    runners: Runners<'_>,
    workspace: &Workspace,
    request: &Request,
    kept: Option<&KeptReplies>,
) -> Result<Replied, String> {
    let checked = check(catalog, request)?;
    let began = request.began.unwrap_or_else(Instant::now);
    let deadline = Duration::from_secs_f64(checked.timeout);
    let builtin = checked.runnable.origin == Origin::Builtin;
    let mut command = vec![
        "vaultspec".to_owned(),
        "--target".to_owned(),
        workspace.root().display().to_string(),
    ];
    command.extend(checked.entry.spec.path.iter().cloned());
    command.extend(request.positionals.iter().cloned());
    command.extend(checked.flags_argv.iter().cloned());
    if checked.entry.spec.supports_json {
        command.push("--json".to_owned());
    }
    // The root doctor reports the host's `spec doctor` too, run as that
    // host verb is, within the same deadline. What the host hands over was
    // read where no journal looks: such a reply is never kept.
    let handed = (checked.verb == "doctor" && builtin)
        .then_some(runners.host)
        .flatten();
    let kept = kept.filter(|_| keepable(&checked, runners));
    let started = SystemTime::now();
    if let Some(given) = kept.and_then(|kept| kept.get(&command, workspace.root(), started)) {
        return Ok(Replied::Kept(given));
    }
    let day = Date::today_utc();
    let mut builtin_env = Vec::new();
    if let Some(host) = handed {
        let invocation = crate::invocation::Invocation {
            json: true,
            ..Default::default()
        };
        let report = host
            .call(
                "spec doctor",
                &invocation,
                workspace.root(),
                deadline.saturating_sub(began.elapsed()),
            )
            .await;
        let envelope = serde_json::from_slice::<Value>(&report.stdout).ok();
        if let (Some(code), Some(envelope)) = (report.exit_code, envelope) {
            let handoff = serde_json::json!({ "exit": code, "data": envelope["data"] });
            builtin_env.push((vaultspec_vault::handoff::SPEC_DOCTOR, handoff.to_string()));
        }
    }
    let options = CallOptions {
        timeout: Some(deadline.saturating_sub(began.elapsed())),
        output: Output::Capture,
        gateway: true,
        builtin_env,
        ..CallOptions::default()
    };
    let outcome = if checked.runnable.origin == Origin::Host {
        let host = runners
            .host
            .ok_or_else(|| format!("verb '{}' has no runner here", checked.verb))?;
        host.call(
            &checked.verb,
            &checked.invocation,
            workspace.root(),
            deadline.saturating_sub(began.elapsed()),
        )
        .await
    } else {
        match runners
            .sandbox
            .call(&checked.runnable, &checked.arguments, workspace, &options)
            .await
        {
            Ok(outcome) => outcome,
            Err(err) => return Err(err.to_string()),
        }
    };
    let outside = match (kept, &outcome) {
        (
            Some(_),
            Outcome {
                exit_code: Some(_),
                failure: None,
                journal: Some(journal),
                ..
            },
        ) => Outside::taken(workspace.root(), journal, started)
            .inspect_err(|why| tracing::debug!("invoke reply not kept: {why}"))
            .ok(),
        _ => None,
    };
    let reply = fold(&checked, outcome, command.clone());
    match (kept, outside) {
        (Some(kept), Some(outside)) if Date::today_utc() == day => {
            let given = Given {
                summary: summary(&reply),
                json: reply.to_string().into(),
            };
            kept.keep(command, day, outside, &given);
            Ok(Replied::Kept(given))
        }
        _ => Ok(Replied::Made(reply)),
    }
}

/// The summary line of an invoke reply.
pub fn summary(reply: &Value) -> String {
    let verb = reply["verb"].as_str().unwrap_or("");
    if reply["ok"] == Value::Bool(true) {
        format!("{verb}: ok")
    } else {
        format!(
            "{verb}: failed ({})",
            reply["error"]["kind"].as_str().unwrap_or("error")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_flag_names_and_values_to_one_item_each() {
        assert_eq!(flag_name("--dry_run"), "dry-run");
        assert_eq!(flag_name("feature"), "feature");
        assert_eq!(
            render("r", &json!(["a", 2])).unwrap(),
            Some(vec!["a".into(), "2".into()])
        );
        assert!(
            render("r", &json!({"a": 1}))
                .unwrap_err()
                .contains("argument 'r' must be")
        );
        assert!(render("r", &Value::Null).is_err());
        assert!(!truthy(&json!(false)) && !truthy(&json!("")) && truthy(&json!(1)));
    }

    #[test]
    fn timeouts_are_shown_in_float_form() {
        assert_eq!(timeout_text(60.0), "60.0");
        assert_eq!(timeout_text(0.5), "0.5");
    }
}
