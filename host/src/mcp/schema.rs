//! Checking tool arguments against the tool's published input schema.
//!
//! The schemas are the contract (`spec/mcp-tools.md` §6), so the bounds a
//! client sees are the bounds enforced: this validates the small JSON Schema
//! subset the tools use (`type`, `enum`, `minimum`, `maximum`, `minLength`,
//! `maxLength`, `maxItems`, `required`, `properties`, `additionalProperties:
//! false`, `items`) and names the first argument that does not fit.

use serde_json::{Map, Value};

/// Check `args` against `schema`; the error names the argument and the rule.
pub fn validate(schema: &Value, args: &Value) -> Result<(), String> {
    check(schema, args, "")
}

fn type_matches(ty: &str, value: &Value) -> bool {
    match ty {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "integer" => value.as_i64().is_some() || value.as_u64().is_some(),
        "number" => value.is_number(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn describe(path: &str) -> String {
    if path.is_empty() {
        "the arguments".to_owned()
    } else {
        format!("`{path}`")
    }
}

fn check(schema: &Value, value: &Value, path: &str) -> Result<(), String> {
    let Some(schema) = schema.as_object() else {
        return Ok(());
    };
    if let Some(ty) = schema.get("type") {
        let ok = match ty {
            Value::String(t) => type_matches(t, value),
            Value::Array(types) => types
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_matches(t, value)),
            _ => true,
        };
        if !ok {
            return Err(format!(
                "{} must be of type {}",
                describe(path),
                ty_text(ty)
            ));
        }
    }
    if let Some(Value::Array(choices)) = schema.get("enum")
        && !choices.contains(value)
    {
        let list: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
        return Err(format!(
            "{} must be one of {}; got {value}",
            describe(path),
            list.join(", ")
        ));
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            return Err(format!(
                "{} must be at least {min}; got {value}",
                describe(path)
            ));
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
            && n > max
        {
            return Err(format!(
                "{} must be at most {max}; got {value}",
                describe(path)
            ));
        }
    }
    if let Some(s) = value.as_str() {
        let len = s.chars().count() as u64;
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
            && len < min
        {
            return Err(format!(
                "{} must have at least {min} characters",
                describe(path)
            ));
        }
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
            && len > max
        {
            return Err(format!(
                "{} must have at most {max} characters; got {len}",
                describe(path)
            ));
        }
    }
    if let Some(items) = value.as_array() {
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && items.len() as u64 > max
        {
            return Err(format!(
                "{} takes at most {max} items; got {}",
                describe(path),
                items.len()
            ));
        }
        if let Some(item_schema) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                check(item_schema, item, &format!("{path}[{i}]"))?;
            }
        }
    }
    if let Some(object) = value.as_object() {
        check_object(schema, object, path)?;
    }
    Ok(())
}

fn check_object(
    schema: &Map<String, Value>,
    object: &Map<String, Value>,
    path: &str,
) -> Result<(), String> {
    if let Some(Value::Array(required)) = schema.get("required") {
        for key in required.iter().filter_map(Value::as_str) {
            if !object.contains_key(key) {
                let full = if path.is_empty() {
                    key.to_owned()
                } else {
                    format!("{path}.{key}")
                };
                return Err(format!("`{full}` is required"));
            }
        }
    }
    if let Some(Value::Object(properties)) = schema.get("properties") {
        if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
            unknown_keys(properties, object, path)?;
        }
        for (key, value) in object {
            if let Some(property) = properties.get(key) {
                let full = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                check(property, value, &full)?;
            }
        }
    }
    Ok(())
}

/// Refuse keys `properties` does not name, naming every one of them with
/// the closest known key and the keys that are accepted.
fn unknown_keys(
    properties: &Map<String, Value>,
    object: &Map<String, Value>,
    path: &str,
) -> Result<(), String> {
    let unknown: Vec<&String> = object
        .keys()
        .filter(|k| !properties.contains_key(*k))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let named: Vec<String> = unknown
        .iter()
        .map(|key| {
            let closest = properties
                .keys()
                .map(|known| (strsim::jaro_winkler(key, known), known))
                .filter(|(score, _)| *score >= 0.8)
                .max_by(|a, b| a.0.total_cmp(&b.0));
            match closest {
                Some((_, known)) => format!("`{key}` (did you mean `{known}`?)"),
                None => format!("`{key}`"),
            }
        })
        .collect();
    let accepted: Vec<String> = properties.keys().map(|k| format!("`{k}`")).collect();
    let (noun, owner) = match (unknown.len(), path.is_empty()) {
        (1, true) => ("unknown argument", String::new()),
        (_, true) => ("unknown arguments", String::new()),
        (1, false) => ("unknown key", format!(" in `{path}`")),
        (_, false) => ("unknown keys", format!(" in `{path}`")),
    };
    Err(format!(
        "{noun}{owner} {}; accepted: {}",
        named.join(", "),
        accepted.join(", ")
    ))
}

fn ty_text(ty: &Value) -> String {
    match ty {
        Value::String(t) => t.clone(),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type":"object","required":["query"],"properties":{
            "query":{"type":"string","minLength":1,"maxLength":5},
            "limit":{"type":"integer","minimum":1,"maximum":11,"default":4},
            "type":{"type":"array","maxItems":2,"items":{"type":"string","enum":["adr","plan"]}}}})
    }

    #[test]
    fn valid_arguments_pass_and_unknown_keys_are_ignored() {
        assert!(
            validate(
                &schema(),
                &json!({"query":"x","limit":11,"type":["adr"],"extra":1})
            )
            .is_ok()
        );
    }

    #[test]
    fn with_additional_properties_false_every_unknown_key_is_named() {
        let mut closed = schema();
        closed["additionalProperties"] = json!(false);
        assert!(validate(&closed, &json!({"query":"x","limit":2})).is_ok());
        let err = validate(&closed, &json!({"query":"x","limt":2,"zzz":1})).unwrap_err();
        assert!(
            err.starts_with("unknown arguments `limt` (did you mean `limit`?), `zzz`;"),
            "{err}"
        );
        assert!(err.contains("accepted: `query`, `limit`, `type`"), "{err}");
    }

    #[test]
    fn each_rule_names_the_argument() {
        let cases = [
            (json!({}), "`query` is required"),
            (json!({"query":""}), "`query` must have at least 1"),
            (json!({"query":"toolong"}), "`query` must have at most 5"),
            (json!({"query":"x","limit":0}), "`limit` must be at least 1"),
            (
                json!({"query":"x","limit":1.5}),
                "`limit` must be of type integer",
            ),
            (
                json!({"query":"x","type":["memo"]}),
                "`type[0]` must be one of",
            ),
            (
                json!({"query":"x","type":["adr","adr","adr"]}),
                "`type` takes at most 2",
            ),
        ];
        for (args, expected) in cases {
            let err = validate(&schema(), &args).unwrap_err();
            assert!(err.contains(expected), "{args}: {err}");
        }
    }
}
