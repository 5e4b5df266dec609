//! What the catalog knows of one verb: its path, help, flags and operands.
//!
//! Everything here is read from a component's embedded WIT declaration
//! (`wit/README.md` describes the mapping), never from running it.

use serde::{Deserialize, Serialize};

/// A value a flag or operand takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scalar {
    /// Any text.
    String,
    /// An unsigned integer of the given bit width.
    Unsigned(u8),
    /// A signed integer of the given bit width.
    Signed(u8),
    /// A floating-point number.
    Float(u8),
    /// One of a fixed set of words.
    Choice(Vec<String>),
}

impl Scalar {
    /// The word used for this type in help and error messages.
    pub fn describe(&self) -> String {
        match self {
            Self::String => "text".to_owned(),
            Self::Unsigned(_) => "a whole number of zero or more".to_owned(),
            Self::Signed(_) => "a whole number".to_owned(),
            Self::Float(_) => "a number".to_owned(),
            Self::Choice(choices) => format!("one of {}", choices.join(", ")),
        }
    }
}

/// How a flag appears on the command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "shape", content = "type")]
pub enum FlagShape {
    /// `bool`: present or absent.
    Switch,
    /// A plain field: the flag must be given once with a value.
    Required(Scalar),
    /// `option<T>`: may be given once with a value.
    Optional(Scalar),
    /// `list<T>`: may be given any number of times.
    Repeated(Scalar),
}

/// One flag of a verb: a field of its `options` record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagSpec {
    /// The long name, without dashes (`feature` for `--feature`).
    pub name: String,
    /// A one-letter alias, declared in the field's docs as `short: -f`.
    pub short: Option<char>,
    /// The value it takes.
    pub shape: FlagShape,
    /// The field's doc comment.
    pub help: String,
    /// Declared in the field's docs as `input: file`: the value names a file
    /// of the user's. At the command line the host reads it (any readable
    /// path, `-` for standard input) and serves its bytes to the verb under
    /// that name; through MCP it stays a workspace path.
    pub input: bool,
}

impl FlagSpec {
    /// Whether the flag takes a value (anything but a switch).
    pub fn takes_value(&self) -> bool {
        !matches!(self.shape, FlagShape::Switch)
    }

    /// Whether the flag may be given more than once.
    pub fn repeatable(&self) -> bool {
        matches!(self.shape, FlagShape::Repeated(_))
    }

    /// Whether the verb cannot run without it.
    pub fn required(&self) -> bool {
        matches!(self.shape, FlagShape::Required(_))
    }

    /// The type of the value, if it takes one.
    pub fn scalar(&self) -> Option<&Scalar> {
        match &self.shape {
            FlagShape::Switch => None,
            FlagShape::Required(s) | FlagShape::Optional(s) | FlagShape::Repeated(s) => Some(s),
        }
    }

    /// The fixed choices of the value, if any.
    pub fn choices(&self) -> &[String] {
        match self.scalar() {
            Some(Scalar::Choice(choices)) => choices,
            _ => &[],
        }
    }
}

/// One operand of a verb: a parameter other than `options`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperandSpec {
    /// The parameter name.
    pub name: String,
    /// What it names, from the verb's docs (a line `NAME: text`).
    pub help: String,
    /// The values it accepts, when its docs list them (`(one of: a, b)`);
    /// empty: any text.
    pub choices: Vec<String>,
    /// `string`: must be given.
    pub required: bool,
    /// A final `list<string>`: takes every remaining operand.
    pub variadic: bool,
}

/// Where each parameter of the exported function comes from, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Param {
    /// The `options` record, built from the flags.
    Options,
    /// The operand at this index of [`VerbSpec::operands`].
    Operand(usize),
}

/// Which export of the component implements the verb.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportName {
    /// The exported interface's full name (`vaultspec:vault/vault@0.1.0`), or
    /// `None` for a function exported by the world itself.
    pub interface: Option<String>,
    /// The function's name within it.
    pub function: String,
}

/// Everything the host needs to show, validate and call one verb.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerbSpec {
    /// The words of the verb path (`["vault", "feature", "list"]`).
    pub path: Vec<String>,
    /// The function's doc comment: what the verb does (operand lines taken
    /// out).
    pub description: String,
    /// Requests a person would make of the verb, in their own words: the
    /// items of the `Use it to:` paragraph of its docs (taken out of the
    /// description). `discover` ranks by them.
    pub intents: Vec<String>,
    /// The doc comment of the interface the verb belongs to: what its group
    /// is for (empty for a verb the world exports directly).
    pub group_description: String,
    /// The flags, in declaration order, without `json`.
    pub flags: Vec<FlagSpec>,
    /// The operands, in order.
    pub operands: Vec<OperandSpec>,
    /// Whether the `options` record has a `json: bool` field.
    pub supports_json: bool,
    /// The export that implements it.
    pub export: ExportName,
    /// The function's parameters, in order.
    pub params: Vec<Param>,
    /// Whether the function takes an `options` record at all.
    pub has_options: bool,
    /// Every field of the `options` record in declared order, `json`
    /// included: the order the record is built in.
    pub fields: Vec<String>,
}

/// The first sentence of a doc comment, its wrapped lines joined: the text
/// up to the first `.`, `!` or `?` that ends the first paragraph or is
/// followed by a space and a capital letter (so `e.g. an ADR` does not end
/// it). A paragraph with no such end is taken whole; no text is cut
/// mid-word.
pub fn summary(docs: &str) -> String {
    let paragraph = docs
        .split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty())
        .unwrap_or("");
    let joined = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars: Vec<(usize, char)> = joined.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let next = chars.get(i + 1).map(|&(_, c)| c);
        let after = chars.get(i + 2).map(|&(_, c)| c);
        if next == Some(' ') && after.is_some_and(char::is_uppercase) {
            return joined[..=at].to_owned();
        }
    }
    joined
}

impl VerbSpec {
    /// The verb path as one string (`vault feature list`).
    pub fn path_string(&self) -> String {
        self.path.join(" ")
    }

    /// The first sentence of the description, whole (see [`summary`]).
    pub fn summary(&self) -> String {
        summary(&self.description)
    }

    /// The first sentence of the group's description.
    pub fn group_summary(&self) -> String {
        summary(&self.group_description)
    }

    /// The declared flag with this long name.
    pub fn flag(&self, name: &str) -> Option<&FlagSpec> {
        self.flags.iter().find(|f| f.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::summary;

    #[test]
    fn a_summary_is_the_whole_first_sentence_however_it_wraps() {
        assert_eq!(
            summary(
                "Check each body carries the sections its type\nrequires (e.g. an ADR's Decision). More here.\n\nDetails."
            ),
            "Check each body carries the sections its type requires (e.g. an ADR's Decision)."
        );
        assert_eq!(
            summary("No full stop at all\nacross two lines"),
            "No full stop at all across two lines"
        );
        assert_eq!(summary("\n\nOne. Two."), "One.");
        assert_eq!(summary(""), "");
    }
}
