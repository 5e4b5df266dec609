//! The row contract for text that goes into a plan (spec/plan-format.md §6):
//! actions, scopes, titles and intents are checked before any edit, so a plan
//! written by the model always re-parses to itself and passes `plan check`.

use super::error::PlanError;
use super::markdown;
use super::row;

fn reject(field: &'static str, value: &str, reason: &'static str) -> PlanError {
    PlanError::InvalidText {
        field,
        value: value.to_string(),
        reason,
    }
}

fn common(field: &'static str, value: &str, single_line: bool) -> Result<(), PlanError> {
    if value.trim().is_empty() {
        return Err(reject(field, value, "it must not be empty"));
    }
    if single_line && (value.contains('\n') || value.contains('\r')) {
        return Err(reject(field, value, "it must be a single line"));
    }
    if value.contains("<!--") || value.contains("-->") {
        return Err(reject(field, value, "it must not contain `<!--` or `-->`"));
    }
    if value.contains('\u{2014}') || value.contains('\u{2013}') {
        return Err(reject(
            field,
            value,
            "plans forbid em and en dashes; use ` - `",
        ));
    }
    Ok(())
}

/// A Step action: one line, no comment delimiters; returned trimmed.
pub fn action(value: &str) -> Result<String, PlanError> {
    common("action", value, true)?;
    Ok(value.trim().to_string())
}

/// A Step scope: one line, outer backticks stripped, no backtick or `;`
/// inside; returned trimmed.
pub fn scope(value: &str) -> Result<String, PlanError> {
    common("scope", value, true)?;
    let v = value.trim().trim_matches('`').trim();
    if v.is_empty() {
        return Err(reject("scope", value, "it must not be empty"));
    }
    if v.contains('`') || v.contains(';') {
        return Err(reject(
            "scope",
            value,
            "it must not contain a backtick or `;`",
        ));
    }
    Ok(v.to_string())
}

/// A Phase or Wave title: one line, no comment delimiters; returned trimmed.
pub fn title(value: &str) -> Result<String, PlanError> {
    common("title", value, true)?;
    Ok(value.trim().to_string())
}

/// An intent paragraph (or the Epic text): several lines allowed, `\r\n` and
/// `\r` read as `\n`, no comment delimiters, no line that the plan grammar
/// would read as a heading or a Step row; returned trimmed.
pub fn intent(field: &'static str, value: &str) -> Result<String, PlanError> {
    let v = value.replace("\r\n", "\n").replace('\r', "\n");
    common(field, &v, false)?;
    for line in v.lines() {
        if markdown::atx_heading(line).is_some_and(|(lv, _)| lv <= 3)
            || row::step_row(line).is_some()
        {
            return Err(reject(
                field,
                value,
                "no line may be a level 1-3 heading or a Step row",
            ));
        }
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            return Err(reject(field, value, "it must not open a code fence"));
        }
    }
    Ok(v.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_backticks_are_stripped_and_semicolons_refused() {
        assert_eq!(scope("`src/a.rs`").unwrap(), "src/a.rs");
        assert!(scope("a;b").is_err());
        assert!(action("two\nlines").is_err());
        assert!(title("x <!-- y").is_err());
        assert!(intent("intent", "## Heading").is_err());
        assert_eq!(intent("intent", "a\r\nb ").unwrap(), "a\nb");
    }
}
