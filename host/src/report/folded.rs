//! A verb's `--json` answer with its exit code folded in, so that every
//! failure at the command line is one JSON document that names its code.
//!
//! A verb prints its document before it returns, so it cannot know to say
//! which code it returns; the host holds stdout back until the call ends
//! and adds `data.exit_code` here. The verb's own words stay as it wrote
//! them: its schema (an error or the verb's own, `status: failed`), its
//! message, its key order. A verb that failed without a document (it
//! printed text, or nothing) gets a `vaultspec.error.v1` one made for it.

use serde_json::{Value, json};

/// `stdout` of a `--json` call of `verb` that exited with `code`, as the
/// caller is to see it.
pub fn fold_exit_code(stdout: &[u8], code: u8, verb: &str) -> Vec<u8> {
    if code == 0 {
        return stdout.to_vec();
    }
    let document = serde_json::from_slice::<Value>(stdout).ok();
    let mut document = match document {
        Some(Value::Object(document)) if document.get("data").is_some_and(Value::is_object) => {
            document
        }
        Some(_) => return stdout.to_vec(),
        None => return made_for(stdout, code, verb),
    };
    if let Some(Value::Object(data)) = document.get_mut("data") {
        data.insert("exit_code".to_owned(), Value::from(code));
    }
    line(&Value::Object(document))
}

/// The error document of a verb that failed without printing one.
fn made_for(stdout: &[u8], code: u8, verb: &str) -> Vec<u8> {
    let printed = String::from_utf8_lossy(stdout);
    let printed = printed.trim();
    let message = if printed.is_empty() {
        format!("`{verb}` failed with exit code {code} and printed no JSON document")
    } else {
        format!("`{verb}` failed with exit code {code}: {printed}")
    };
    line(&json!({
        "schema": "vaultspec.error.v1",
        "status": "failed",
        "data": { "message": message, "exit_code": code },
    }))
}

fn line(value: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(value).expect("a JSON value serialises");
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folded(stdout: &str, code: u8) -> Value {
        serde_json::from_slice(&fold_exit_code(stdout.as_bytes(), code, "vault add")).unwrap()
    }

    #[test]
    fn a_success_is_given_as_it_was_printed() {
        let printed = b"{\"schema\":\"s\",\"status\":\"created\",\"data\":{}}\n";
        assert_eq!(fold_exit_code(printed, 0, "vault add"), printed);
    }

    #[test]
    fn a_failure_document_gains_its_exit_code_and_keeps_the_rest() {
        let value = folded(
            r#"{"schema":"vaultspec.vault.plan.mutate.v1","status":"failed","data":{"message":"no plan","suggestions":[]}}"#,
            1,
        );
        assert_eq!(value["schema"], "vaultspec.vault.plan.mutate.v1");
        assert_eq!(value["data"]["message"], "no plan");
        assert_eq!(value["data"]["exit_code"], 1);
        let keys: Vec<&String> = value["data"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["message", "suggestions", "exit_code"]);
    }

    #[test]
    fn an_exit_code_the_verb_claimed_is_replaced_by_the_real_one() {
        let value = folded(
            r#"{"schema":"vaultspec.error.v1","status":"failed","data":{"message":"m","exit_code":0}}"#,
            2,
        );
        assert_eq!(value["data"]["exit_code"], 2);
    }

    #[test]
    fn a_failure_without_a_document_gets_an_error_document() {
        let value = folded("plain words\n", 1);
        assert_eq!(value["schema"], "vaultspec.error.v1");
        assert_eq!(value["status"], "failed");
        assert_eq!(value["data"]["exit_code"], 1);
        assert!(
            value["data"]["message"]
                .as_str()
                .unwrap()
                .contains("plain words")
        );
        let value = folded("", 2);
        assert!(
            value["data"]["message"]
                .as_str()
                .unwrap()
                .contains("no JSON")
        );
    }
}
