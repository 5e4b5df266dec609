//! Reading a verb component's WIT declaration into [`VerbSpec`]s.
//!
//! The declaration is the world source the SDK embeds. It is resolved
//! against the host's own copy of `vaultspec:verb`, then every export is
//! mapped: an interface `vault-feature` with a function `list` is the verb
//! `vault feature list`; a function the world exports directly is a
//! top-level verb. The mapping rules are in `wit/README.md`.

use std::collections::BTreeMap;

use wit_parser::{Docs, Function, Resolve, Type, TypeDefKind, WorldItem};

use super::error::Reason;
use super::spec::{ExportName, FlagShape, FlagSpec, OperandSpec, Param, Scalar, VerbSpec};
use crate::display::escape_text;

/// The host's copy of the contract; declarations resolve their imports here.
pub const VERB_WIT: &str = include_str!("../../../wit/verb.wit");

/// Flags the host owns; a verb may not declare them.
pub const RESERVED_FLAGS: [&str; 3] = ["target", "help", "no-cache"];

/// One-letter aliases the host owns (`-t` for `--target`, `-h` for `--help`).
pub const RESERVED_SHORTS: [char; 2] = ['t', 'h'];

/// Parse a declaration into the verbs it exports, in declaration order.
pub fn parse(source: &str) -> Result<Vec<VerbSpec>, Reason> {
    let mut resolve = Resolve::new();
    resolve
        .push_source("vaultspec-verb.wit", VERB_WIT)
        .map_err(|e| Reason::MalformedDeclaration(format!("{e:#}")))?;
    let package = resolve
        .push_source("declaration.wit", source)
        .map_err(|e| Reason::MalformedDeclaration(format!("{e:#}")))?;
    let world = resolve
        .select_world(&[package], None)
        .map_err(|e| Reason::MalformedDeclaration(format!("{e:#}")))?;

    let mut verbs = Vec::new();
    for (key, item) in &resolve.worlds[world].exports {
        match item {
            WorldItem::Function(func) => {
                let export = ExportName {
                    interface: None,
                    function: func.name.clone(),
                };
                verbs.push(verb(
                    &resolve,
                    vec![func.name.clone()],
                    func,
                    export,
                    String::new(),
                )?);
            }
            WorldItem::Interface { id, .. } => {
                let iface = &resolve.interfaces[*id];
                let Some(name) = &iface.name else {
                    return Err(Reason::BadVerb("an exported interface has no name".into()));
                };
                let group: Vec<String> = name.split('-').map(str::to_owned).collect();
                let interface = resolve.name_world_key(key);
                let group_docs = docs(&iface.docs);
                for func in iface.functions.values() {
                    let mut path = group.clone();
                    path.push(func.name.clone());
                    let export = ExportName {
                        interface: Some(interface.clone()),
                        function: func.name.clone(),
                    };
                    verbs.push(verb(&resolve, path, func, export, group_docs.clone())?);
                }
            }
            WorldItem::Type { .. } => {}
        }
    }
    if verbs.is_empty() {
        return Err(Reason::BadVerb("the declaration exports no verb".into()));
    }
    Ok(verbs)
}

/// A doc comment, with control and bidirectional characters escaped here,
/// where the text enters the host: it goes on to help, `discover`, `verbs`
/// output and tool replies, and none of them must carry a terminal escape.
fn docs(docs: &Docs) -> String {
    escape_text(docs.contents.as_deref().unwrap_or("").trim())
}

fn verb(
    resolve: &Resolve,
    path: Vec<String>,
    func: &Function,
    export: ExportName,
    group_description: String,
) -> Result<VerbSpec, Reason> {
    let verb_name = path.join(" ");
    let bad = |what: String| Reason::BadVerb(format!("verb `{verb_name}`: {what}"));
    if !matches!(func.result, Some(Type::U8)) {
        return Err(bad("must return `u8`, the exit code".into()));
    }
    let operand_names: Vec<String> = func
        .params
        .iter()
        .filter(|p| p.name != "options")
        .map(|p| p.name.clone())
        .collect();
    let (docs, intents) = split_intents(&docs(&func.docs)).map_err(bad)?;
    let (description, mut operand_docs) = split_operands(&docs, &operand_names);
    let mut spec = VerbSpec {
        path,
        description,
        intents,
        group_description,
        flags: Vec::new(),
        operands: Vec::new(),
        supports_json: false,
        export,
        params: Vec::new(),
        has_options: false,
        fields: Vec::new(),
    };
    for param in &func.params {
        if param.name == "options" {
            if spec.has_options {
                return Err(bad("declares `options` twice".into()));
            }
            spec.has_options = true;
            spec.params.push(Param::Options);
            read_options(resolve, &param.ty, &mut spec)?;
            continue;
        }
        if spec.operands.last().is_some_and(|o| o.variadic) {
            return Err(bad(format!(
                "operand `{}` follows a variadic one; a `list<string>` must come last",
                param.name
            )));
        }
        let (required, variadic) = match operand_shape(resolve, &param.ty) {
            Some(shape) => shape,
            None => {
                return Err(bad(format!(
                    "operand `{}` must be `string`, `option<string>` or a final `list<string>`",
                    param.name
                )));
            }
        };
        if required && spec.operands.iter().any(|o| !o.required) {
            return Err(bad(format!(
                "required operand `{}` follows an optional one",
                param.name
            )));
        }
        spec.params.push(Param::Operand(spec.operands.len()));
        let (help, choices) = operand_docs.remove(&param.name).unwrap_or_default();
        spec.operands.push(OperandSpec {
            name: param.name.clone(),
            help,
            choices,
            required,
            variadic,
        });
    }
    Ok(spec)
}

/// `(required, variadic)` for an operand type, or `None` if not allowed.
fn operand_shape(resolve: &Resolve, ty: &Type) -> Option<(bool, bool)> {
    match ty {
        Type::String => Some((true, false)),
        Type::Id(id) => match &resolve.types[*id].kind {
            TypeDefKind::Option(Type::String) => Some((false, false)),
            TypeDefKind::List(Type::String) => Some((false, true)),
            TypeDefKind::Type(inner) => operand_shape(resolve, inner),
            _ => None,
        },
        _ => None,
    }
}

fn read_options(resolve: &Resolve, ty: &Type, spec: &mut VerbSpec) -> Result<(), Reason> {
    let verb = spec.path.join(" ");
    let bad = |what: String| Reason::BadVerb(format!("verb `{verb}`: {what}"));
    let record = match ty {
        Type::Id(id) => match &resolve.types[*id].kind {
            TypeDefKind::Record(record) => record,
            TypeDefKind::Type(inner) => return read_options(resolve, inner, spec),
            _ => return Err(bad("`options` must be a record".into())),
        },
        _ => return Err(bad("`options` must be a record".into())),
    };
    for field in &record.fields {
        if RESERVED_FLAGS.contains(&field.name.as_str()) {
            return Err(Reason::ReservedFlag {
                verb,
                flag: field.name.clone(),
            });
        }
        spec.fields.push(field.name.clone());
        let shape = flag_shape(resolve, &field.ty).ok_or_else(|| {
            bad(format!(
                "flag `--{}` has a type no command line can give",
                field.name
            ))
        })?;
        if field.name == "json" {
            if shape != FlagShape::Switch {
                return Err(bad("`json` must be a `bool`".into()));
            }
            spec.supports_json = true;
            continue;
        }
        let Annotated { help, short, input } = annotations(&docs(&field.docs));
        if input
            && !matches!(
                shape,
                FlagShape::Required(Scalar::String) | FlagShape::Optional(Scalar::String)
            )
        {
            return Err(bad(format!(
                "flag `--{}` is marked `input: file` but does not take one `string`",
                field.name
            )));
        }
        if let Some(c) = short.filter(|c| RESERVED_SHORTS.contains(c)) {
            return Err(bad(format!(
                "flag `--{}` takes the short flag `-{c}`, which the host owns",
                field.name
            )));
        }
        if let Some(c) = short
            && spec.flags.iter().any(|f| f.short == Some(c))
        {
            return Err(bad(format!("declares the short flag `-{c}` twice")));
        }
        spec.flags.push(FlagSpec {
            name: field.name.clone(),
            short,
            shape,
            help,
            input,
        });
    }
    Ok(())
}

/// The line that opens a verb's intents in its docs.
pub const INTENTS_HEADING: &str = "Use it to:";

/// At most this many intents per verb, each at most [`MAX_INTENT_CHARS`]:
/// an intent is a request in a person's words, not a place for keywords.
pub const MAX_INTENTS: usize = 24;

/// The longest intent a verb may declare, in characters.
pub const MAX_INTENT_CHARS: usize = 120;

/// Take the intents out of a function's docs: the paragraph that opens with
/// the line `Use it to:` and lists, one `- ` item each, requests a person
/// would make of the verb in their own words. An item may wrap onto the
/// lines after it; the paragraph ends at a blank line. Returns the rest of
/// the docs and the intents, or what is wrong with them.
fn split_intents(docs: &str) -> Result<(String, Vec<String>), String> {
    let mut kept: Vec<&str> = Vec::new();
    let mut intents: Vec<String> = Vec::new();
    let mut inside = false;
    let mut headed = false;
    for line in docs.lines() {
        let trimmed = line.trim();
        if !inside {
            if trimmed.eq_ignore_ascii_case(INTENTS_HEADING) {
                inside = true;
                headed = true;
            } else {
                kept.push(line);
            }
            continue;
        }
        if trimmed.is_empty() {
            inside = false;
            kept.push(line);
        } else if let Some(item) = trimmed.strip_prefix("- ") {
            intents.push(item.trim().to_owned());
        } else if let Some(last) = intents.last_mut() {
            last.push(' ');
            last.push_str(trimmed);
        } else {
            return Err(format!(
                "`{INTENTS_HEADING}` must be followed by `- ` items, one request each; found `{trimmed}`"
            ));
        }
    }
    if headed && intents.is_empty() {
        return Err(format!("`{INTENTS_HEADING}` lists no requests"));
    }
    if intents.len() > MAX_INTENTS {
        return Err(format!(
            "declares {} intents; at most {MAX_INTENTS} are allowed",
            intents.len()
        ));
    }
    if let Some(long) = intents
        .iter()
        .find(|i| i.chars().count() > MAX_INTENT_CHARS)
    {
        return Err(format!(
            "intent `{long}` is longer than {MAX_INTENT_CHARS} characters"
        ));
    }
    Ok((kept.join("\n"), intents))
}

/// Take the operand lines out of a function's docs: a line that starts
/// with an operand's name in capitals and a colon (`STEP-ID: the Step's
/// id`), continued by the lines after it up to a blank line or the next
/// operand. `(one of: a, b)` in it lists the values the operand accepts.
/// Returns the rest of the docs and, per operand, its help and choices.
fn split_operands(
    docs: &str,
    operands: &[String],
) -> (String, BTreeMap<String, (String, Vec<String>)>) {
    let mut kept: Vec<&str> = Vec::new();
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<&String> = None;
    for line in docs.lines() {
        let trimmed = line.trim();
        let named = operands.iter().find(|name| {
            trimmed
                .strip_prefix(name.to_uppercase().as_str())
                .is_some_and(|rest| rest.starts_with(':'))
        });
        if let Some(name) = named {
            let text = trimmed[name.len() + 1..].trim().to_owned();
            found.entry(name.clone()).or_default().push(text);
            current = Some(name);
        } else if trimmed.is_empty() {
            current = None;
            kept.push(line);
        } else if let Some(name) = current {
            found
                .entry(name.clone())
                .or_default()
                .push(trimmed.to_owned());
        } else {
            kept.push(line);
        }
    }
    let mut description = kept.join("\n");
    while description.contains("\n\n\n") {
        description = description.replace("\n\n\n", "\n\n");
    }
    let operands = found
        .into_iter()
        .map(|(name, lines)| {
            let text = lines.join(" ");
            let (help, choices) = split_choices(&text);
            (name, (capitalized(&help), choices))
        })
        .collect();
    (description.trim().to_owned(), operands)
}

/// `text` with its first letter in capitals, as help lines start.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Take `(one of: a, b)` out of an operand's help: the help without it, and
/// the values.
fn split_choices(text: &str) -> (String, Vec<String>) {
    const OPEN: &str = "(one of: ";
    let Some(start) = text.find(OPEN) else {
        return (text.to_owned(), Vec::new());
    };
    let Some(len) = text[start..].find(')') else {
        return (text.to_owned(), Vec::new());
    };
    let choices = text[start + OPEN.len()..start + len]
        .split(',')
        .map(|c| c.trim().to_owned())
        .filter(|c| !c.is_empty())
        .collect();
    let help = format!("{}{}", text[..start].trim_end(), &text[start + len + 1..]);
    (help.trim().to_owned(), choices)
}

/// What a field's docs say once its annotation lines are taken out.
struct Annotated {
    /// The help text left.
    help: String,
    /// From a `short: -x` line.
    short: Option<char>,
    /// From an `input: file` line.
    input: bool,
}

/// Take the `short: -x` and `input: file` lines out of a field's docs.
fn annotations(docs: &str) -> Annotated {
    let mut short = None;
    let mut input = false;
    let mut lines = Vec::new();
    for line in docs.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("short:") {
            let rest = rest.trim();
            let mut chars = rest.strip_prefix('-').unwrap_or(rest).chars();
            if let (Some(c), None) = (chars.next(), chars.next())
                && c.is_ascii_alphanumeric()
            {
                short = Some(c);
                continue;
            }
        }
        if trimmed
            .strip_prefix("input:")
            .is_some_and(|rest| rest.trim() == "file")
        {
            input = true;
            continue;
        }
        lines.push(line);
    }
    Annotated {
        help: lines.join("\n").trim().to_owned(),
        short,
        input,
    }
}

fn flag_shape(resolve: &Resolve, ty: &Type) -> Option<FlagShape> {
    if *ty == Type::Bool {
        return Some(FlagShape::Switch);
    }
    if let Some(scalar) = scalar(resolve, ty) {
        return Some(FlagShape::Required(scalar));
    }
    let Type::Id(id) = ty else { return None };
    match &resolve.types[*id].kind {
        TypeDefKind::Option(inner) => scalar(resolve, inner).map(FlagShape::Optional),
        TypeDefKind::List(inner) => scalar(resolve, inner).map(FlagShape::Repeated),
        TypeDefKind::Type(inner) => flag_shape(resolve, inner),
        _ => None,
    }
}

fn scalar(resolve: &Resolve, ty: &Type) -> Option<Scalar> {
    Some(match ty {
        Type::String => Scalar::String,
        Type::U8 => Scalar::Unsigned(8),
        Type::U16 => Scalar::Unsigned(16),
        Type::U32 => Scalar::Unsigned(32),
        Type::U64 => Scalar::Unsigned(64),
        Type::S8 => Scalar::Signed(8),
        Type::S16 => Scalar::Signed(16),
        Type::S32 => Scalar::Signed(32),
        Type::S64 => Scalar::Signed(64),
        Type::F32 => Scalar::Float(32),
        Type::F64 => Scalar::Float(64),
        Type::Id(id) => match &resolve.types[*id].kind {
            TypeDefKind::Enum(e) => {
                Scalar::Choice(e.cases.iter().map(|c| c.name.clone()).collect())
            }
            TypeDefKind::Type(inner) => return scalar(resolve, inner),
            _ => return None,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTES: &str = r#"
package acme:notes@0.1.0;

interface notes-tag {
    enum order { newest, oldest }

    record list-options {
        /// Only notes of this feature.
        /// short: -f
        feature: option<string>,
        /// Tags to require.
        tag: list<string>,
        /// How to sort.
        order: option<order>,
        /// Stop after this many.
        limit: u32,
        /// Include archived notes.
        archived: bool,
        /// Print JSON.
        json: bool,
    }

    /// List notes by tag.
    ///
    /// Longer help.
    %list: func(options: list-options, kind: option<string>, rest: list<string>) -> u8;
}

world notes {
    import vaultspec:verb/workspace-read@0.1.0;
    export notes-tag;
    /// Say hello.
    export hello: func(name: string) -> u8;
}
"#;

    #[test]
    fn a_declaration_becomes_typed_verbs() {
        let verbs = parse(NOTES).unwrap();
        let list = verbs
            .iter()
            .find(|v| v.path_string() == "notes tag list")
            .unwrap();
        assert_eq!(list.summary(), "List notes by tag.");
        assert!(list.supports_json);
        assert_eq!(
            list.export.interface.as_deref(),
            Some("acme:notes/notes-tag@0.1.0")
        );
        let names: Vec<_> = list.flags.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["feature", "tag", "order", "limit", "archived"]);
        let feature = list.flag("feature").unwrap();
        assert_eq!(
            (feature.short, feature.help.as_str()),
            (Some('f'), "Only notes of this feature.")
        );
        assert!(list.flag("tag").unwrap().repeatable());
        assert_eq!(list.flag("order").unwrap().choices(), ["newest", "oldest"]);
        assert!(list.flag("limit").unwrap().required());
        assert!(!list.flag("archived").unwrap().takes_value());
        assert_eq!(list.operands.len(), 2);
        assert!(!list.operands[0].required && list.operands[1].variadic);
        assert_eq!(
            list.params,
            [Param::Options, Param::Operand(0), Param::Operand(1)]
        );

        let hello = verbs.iter().find(|v| v.path_string() == "hello").unwrap();
        assert_eq!(hello.export.interface, None);
        assert!(hello.operands[0].required && !hello.has_options);
    }

    #[test]
    fn operand_lines_become_the_operands_help_and_choices() {
        let source = NOTES.replace(
            "    /// Longer help.\n",
            "    /// Longer help that wraps\n    /// onto a second line.\n    ///\n    /// KIND: which notes,\n    /// by kind (one of: draft, final).\n    /// REST: more words.\n",
        )
        .replace("interface notes-tag {", "/// Notes, by tag.\ninterface notes-tag {");
        let verbs = parse(&source).unwrap();
        let list = verbs
            .iter()
            .find(|v| v.path_string() == "notes tag list")
            .unwrap();
        assert_eq!(
            list.description,
            "List notes by tag.\n\nLonger help that wraps\nonto a second line."
        );
        assert_eq!(list.operands[0].help, "Which notes, by kind.");
        assert_eq!(list.operands[0].choices, ["draft", "final"]);
        assert_eq!(list.operands[1].help, "More words.");
        assert!(list.operands[1].choices.is_empty());
        assert_eq!(list.group_description, "Notes, by tag.");
        let hello = verbs.iter().find(|v| v.path_string() == "hello").unwrap();
        assert_eq!(hello.group_description, "");
    }

    #[test]
    fn a_use_it_to_paragraph_becomes_the_verbs_intents() {
        let source = |docs: &str| {
            format!(
                "package t:t@0.1.0;\ninterface t {{\n{docs}\n  go: func(name: string) -> u8;\n}}\nworld w {{ export t; }}\n"
            )
        };
        let docs = "  /// Go somewhere.\n  ///\n  /// Use it to:\n  /// - travel to a named\n  ///   place\n  /// - leave\n  ///\n  /// NAME: where to go.";
        let verb = parse(&source(docs)).unwrap().remove(0);
        assert_eq!(verb.intents, ["travel to a named place", "leave"]);
        assert_eq!(verb.description, "Go somewhere.");
        assert_eq!(verb.operands[0].help, "Where to go.");

        let empty = "  /// Go.\n  ///\n  /// Use it to:\n  ///\n  /// More.";
        assert!(
            matches!(parse(&source(empty)), Err(Reason::BadVerb(m)) if m.contains("lists no requests"))
        );
        let prose = "  /// Go.\n  ///\n  /// Use it to:\n  /// travel";
        assert!(
            matches!(parse(&source(prose)), Err(Reason::BadVerb(m)) if m.contains("`- ` items"))
        );
        let many = format!(
            "  /// Go.\n  ///\n  /// Use it to:\n{}",
            "  /// - go\n".repeat(MAX_INTENTS + 1)
        );
        assert!(matches!(parse(&source(&many)), Err(Reason::BadVerb(m)) if m.contains("at most")));
    }

    #[test]
    fn a_reserved_flag_is_refused() {
        let source = NOTES.replace("archived: bool", "target: option<string>");
        let err = parse(&source).unwrap_err().to_string();
        assert!(err.contains("reserved flag `--target`"), "{err}");
    }

    #[test]
    fn shapes_no_command_line_can_give_are_refused() {
        let source = NOTES.replace("limit: u32", "limit: tuple<u32, u32>");
        assert!(
            parse(&source)
                .unwrap_err()
                .to_string()
                .contains("`--limit`")
        );
        let source = NOTES.replace("-> u8;", "-> string;");
        assert!(
            parse(&source)
                .unwrap_err()
                .to_string()
                .contains("must return `u8`")
        );
        let source = NOTES.replace(
            "kind: option<string>, rest: list<string>",
            "rest: list<string>, kind: string",
        );
        assert!(parse(&source).is_err());
    }

    #[test]
    fn an_input_file_line_marks_a_string_flag_and_leaves_the_help() {
        let source = NOTES.replace(
            "/// short: -f\n",
            "/// input: file\n        /// short: -f\n",
        );
        let verbs = parse(&source).unwrap();
        let list = verbs
            .iter()
            .find(|v| v.path_string() == "notes tag list")
            .unwrap();
        let feature = list.flag("feature").unwrap();
        assert!(feature.input);
        assert_eq!(feature.help, "Only notes of this feature.");
        assert!(!list.flag("tag").unwrap().input);
        let source = NOTES.replace(
            "/// Stop after this many.",
            "/// Stop after this many.\n        /// input: file",
        );
        let err = parse(&source).unwrap_err().to_string();
        assert!(err.contains("`--limit` is marked `input: file`"), "{err}");
    }

    #[test]
    fn text_that_is_not_wit_is_refused_as_malformed() {
        assert!(matches!(
            parse("this is not wit"),
            Err(Reason::MalformedDeclaration(_))
        ));
    }
}
