//! Every verb's failure modes follow the one exit-code table
//! (`host/src/report/exit.rs`): a command line the verb cannot accept exits
//! 2, a target that does not exist (or an operand value the verb does not
//! know, such as a document type) exits 1, nothing a caller does makes
//! vaultspec exit 70, and under `--json` each failure is one JSON document
//! whose `data.exit_code` is the code the process ended with.

use serde_json::Value;
use vaultspec_host::report::exit;
use vaultspec_test_support::TestVault;

use crate::binary::{text, vaultspec};

/// One verb as `verbs list --json` describes it.
struct Verb {
    words: Vec<String>,
    /// Required operands, and the choices of each (empty: any text).
    required: Vec<Vec<String>>,
    /// Operands and flags that take one of a set of values.
    choices: Vec<Choice>,
    /// Whether some flag must be given.
    required_flag: bool,
}

enum Choice {
    Operand(usize),
    Flag(String),
}

fn builtin_verbs(vault: &TestVault) -> Vec<Verb> {
    let out = vaultspec(vault, &["verbs", "list", "--json"]);
    let listing: Value = serde_json::from_slice(&out.stdout).expect("verbs list --json");
    let mut verbs = Vec::new();
    for component in listing["data"]["components"].as_array().unwrap() {
        for verb in component["verbs"].as_array().unwrap() {
            let strings = |v: &Value| -> Vec<String> {
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_owned())
                    .collect()
            };
            let operands = verb["arguments"].as_array().unwrap();
            let mut choices = Vec::new();
            for (at, operand) in operands.iter().enumerate() {
                if !strings(&operand["choices"]).is_empty() && operand["required"] == true {
                    choices.push(Choice::Operand(at));
                }
            }
            let flags = verb["flags"].as_array().unwrap();
            for flag in flags {
                if !strings(&flag["choices"]).is_empty() {
                    choices.push(Choice::Flag(flag["name"].as_str().unwrap().to_owned()));
                }
            }
            verbs.push(Verb {
                words: verb["verb"]
                    .as_str()
                    .unwrap()
                    .split(' ')
                    .map(str::to_owned)
                    .collect(),
                required: operands
                    .iter()
                    .filter(|o| o["required"] == true)
                    .map(|o| strings(&o["choices"]))
                    .collect(),
                choices,
                required_flag: flags.iter().any(|f| f["required"] == true),
            });
        }
    }
    verbs
}

/// What the refusal tests name where a document, plan, rule or setting
/// is expected.
const UNKNOWN: &str = "no-such-thing-anywhere";

/// Run `args` with `--json` and check the failure document; returns the
/// exit code.
fn json_failure(vault: &TestVault, args: &[String]) -> i32 {
    json_failure_message(vault, args).0
}

/// [`json_failure`], with the document's message (empty on success).
fn json_failure_message(vault: &TestVault, args: &[String]) -> (i32, String) {
    let mut with_json: Vec<&str> = args.iter().map(String::as_str).collect();
    with_json.push("--json");
    let out = vaultspec(vault, &with_json);
    let code = out.status.code().expect("vaultspec ended by a signal");
    if code == 0 {
        return (0, String::new());
    }
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: not one JSON document:\n{stdout}");
    let document: Value = serde_json::from_str(lines[0])
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}):\n{stdout}"));
    assert_eq!(
        document["data"]["exit_code"], code,
        "{args:?}: data.exit_code is not the exit code {code}: {document}"
    );
    let schema = document["schema"].as_str().unwrap_or_default();
    assert!(
        schema.starts_with("vaultspec.") && schema.contains(".v"),
        "{args:?}: {document}"
    );
    let message = document["data"]["message"].as_str().unwrap_or_default();
    (code, message.to_owned())
}

/// Run `args` as a person would (no `--json`): the code, and stderr says
/// what went wrong.
fn text_failure(vault: &TestVault, args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = vaultspec(vault, &words);
    let code = out.status.code().expect("vaultspec ended by a signal");
    if code != 0 {
        assert!(
            !text(&out.stderr).trim().is_empty() || !text(&out.stdout).trim().is_empty(),
            "{args:?}: exit {code} without a word"
        );
    }
    code
}

/// The verb's words followed by its required operands, each filled by
/// `fill` (or its first choice).
fn with_operands(verb: &Verb, fill: &str) -> Vec<String> {
    let mut args = verb.words.clone();
    for choices in &verb.required {
        args.push(choices.first().cloned().unwrap_or_else(|| fill.to_owned()));
    }
    args
}

#[test]
fn a_command_line_a_verb_cannot_accept_exits_2_with_an_error_document() {
    let vault = TestVault::new();
    let verbs = builtin_verbs(&vault);
    assert!(
        verbs.len() > 90,
        "only {} builtin verbs listed",
        verbs.len()
    );
    let mut problems = Vec::new();
    let mut expect = |args: Vec<String>, what: &str| {
        let code = json_failure(&vault, &args);
        if code != i32::from(exit::USAGE) {
            problems.push(format!("{what}: `{}` exited {code}", args.join(" ")));
        }
    };
    for verb in &verbs {
        let mut args = with_operands(verb, "x");
        args.push("--no-such-flag".into());
        expect(args, "an unknown flag");
        if !verb.required.is_empty() {
            expect(verb.words.clone(), "a missing operand");
        }
        for choice in &verb.choices {
            let mut args = with_operands(verb, "x");
            match choice {
                Choice::Flag(flag) => args.extend([flag.clone(), "not-a-choice".into()]),
                // An operand's choices are the verb's to judge (an unknown
                // document type is refused with 1, as the reference does):
                // see the next test.
                Choice::Operand(_) => continue,
            }
            expect(args, "a flag value outside its choices");
        }
    }
    // The host's own commands and values it checks.
    for args in [
        &["install", "--no-such-flag"][..],
        &["spec", "mcps", "status", "--no-such-flag"],
        &["spec", "doctor", "--no-such-flag"],
        &["verbs", "inspect"],
        &["vault", "lst"],
        &["mcp", "--http", "not-an-address"],
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let code = text_failure(&vault, &args);
        if code != i32::from(exit::USAGE) {
            problems.push(format!("`{}` exited {code}", args.join(" ")));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_target_that_does_not_exist_is_refused_with_1_never_a_crash() {
    let vault = TestVault::new();
    vault.doc("plan", "2026-03-01", "real-work", None);
    let verbs = builtin_verbs(&vault);
    let mut refused = 0;
    let mut problems = Vec::new();
    for verb in verbs
        .iter()
        .filter(|v| !v.required.is_empty() && !v.required_flag)
    {
        let mut args = with_operands(verb, UNKNOWN);
        for choice in &verb.choices {
            if let Choice::Operand(at) = choice {
                args[verb.words.len() + at] = UNKNOWN.into();
            }
        }
        let (code, message) = json_failure_message(&vault, &args);
        // A verb may first ask for what is missing (`vault set-body X`
        // without a body is a usage error); a refusal that names the
        // unknown target is 1.
        match code {
            0 => {}
            2 if !message.contains(UNKNOWN) => {}
            1 => {
                refused += 1;
                // The person at a terminal gets the same code.
                let again = text_failure(&vault, &args);
                if again != code {
                    problems.push(format!(
                        "`{}`: {code} with --json, {again} without",
                        args.join(" ")
                    ));
                }
            }
            other => problems.push(format!("`{}` exited {other}, not 1", args.join(" "))),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        refused >= 20,
        "only {refused} verbs refused an unknown target"
    );
}

#[test]
fn outside_a_workspace_every_verb_exits_1_with_an_error_document() {
    let vault = TestVault::new();
    let verbs = builtin_verbs(&vault);
    let nowhere = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for verb in verbs.iter().filter(|v| !v.required_flag) {
        let mut args = with_operands(verb, "x");
        args.push("--json".into());
        let out = crate::binary::run_in(
            nowhere.path(),
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        let code = out.status.code().unwrap();
        let document: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if code != i32::from(exit::FINDINGS)
            || document["schema"] != "vaultspec.error.v1"
            || document["data"]["exit_code"] != code
        {
            problems.push(format!(
                "`{}` exited {code}: {}",
                args.join(" "),
                text(&out.stdout)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
