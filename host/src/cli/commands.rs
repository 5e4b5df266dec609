//! Building clap commands from the catalog: one subcommand per verb word.
//!
//! `vaultspec vault --help` lists the `vault` group, `vaultspec vault list
//! --help` shows the verb's WIT docs, and clap's own suggestions catch typos
//! in verb words and flag names.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, Command, value_parser};

use crate::catalog::{Catalog, FlagShape, FlagSpec, Scalar, Trust, VerbSpec};

/// The verbs under one group word.
#[derive(Default)]
struct Group {
    leaf: Option<VerbSpec>,
    /// The leaf's component is not trusted: its help says so.
    untrusted: bool,
    children: BTreeMap<String, Group>,
}

/// The whole command line: global options plus every verb of the catalog.
pub fn command(catalog: &Catalog) -> Command {
    let mut tree = Group::default();
    for entry in catalog.entries() {
        let mut node = &mut tree;
        for word in &entry.spec.path {
            node = node.children.entry(word.clone()).or_default();
        }
        node.leaf = Some(entry.spec.clone());
        node.untrusted = catalog.trust(entry) == Trust::Untrusted;
    }
    let root = Command::new("vaultspec")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Keep a project's decisions in its .vault/: research, ADRs, plans and ledgers")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            Arg::new("target")
                .long("target")
                .short('t')
                .global(true)
                .value_name("DIR")
                .value_parser(value_parser!(PathBuf))
                .help("Workspace root (default: $VAULTSPEC_TARGET_DIR, else found from the current folder)"),
        );
    add_children(root, &tree, &[])
}

fn add_children(mut command: Command, group: &Group, prefix: &[String]) -> Command {
    for (word, child) in &group.children {
        let mut path = prefix.to_vec();
        path.push(word.clone());
        command = command.subcommand(node(word, child, &path));
    }
    command
}

fn node(word: &str, group: &Group, path: &[String]) -> Command {
    match &group.leaf {
        Some(spec) if group.children.is_empty() => leaf(word, spec, group.untrusted),
        _ => {
            let about = format!("The `{}` verbs", path.join(" "));
            let command = Command::new(word.to_owned())
                .about(about)
                .subcommand_required(true)
                .arg_required_else_help(true);
            add_children(command, group, path)
        }
    }
}

fn leaf(word: &str, spec: &VerbSpec, untrusted: bool) -> Command {
    let mark = if untrusted { "[untrusted] " } else { "" };
    let mut command = Command::new(word.to_owned())
        .about(format!("{mark}{}", spec.summary()))
        .long_about(format!("{mark}{}", spec.description));
    for flag in &spec.flags {
        command = command.arg(flag_arg(flag));
    }
    if spec.supports_json {
        command = command.arg(
            Arg::new("json")
                .long("json")
                .action(ArgAction::SetTrue)
                .help("Print one JSON document (schema, status, data) instead of text"),
        );
    }
    for operand in &spec.operands {
        let mut arg = Arg::new(format!("operand:{}", operand.name))
            .value_name(operand.name.to_uppercase())
            .required(operand.required);
        if operand.variadic {
            arg = arg.num_args(0..).action(ArgAction::Append);
        }
        command = command.arg(arg);
    }
    command
}

fn flag_arg(flag: &FlagSpec) -> Arg {
    let mut arg = Arg::new(flag.name.clone())
        .long(flag.name.clone())
        .help(flag.help.clone());
    if let Some(short) = flag.short {
        arg = arg.short(short);
    }
    arg = match &flag.shape {
        FlagShape::Switch => arg.action(ArgAction::SetTrue),
        FlagShape::Required(_) => arg.action(ArgAction::Set).required(true),
        FlagShape::Optional(_) => arg.action(ArgAction::Set),
        FlagShape::Repeated(_) => arg.action(ArgAction::Append),
    };
    match flag.scalar() {
        None => arg,
        Some(scalar) => {
            let arg = arg.value_name(value_name(&flag.name, scalar));
            match scalar {
                Scalar::String => arg,
                Scalar::Unsigned(8) => arg.value_parser(value_parser!(u8)),
                Scalar::Unsigned(16) => arg.value_parser(value_parser!(u16)),
                Scalar::Unsigned(32) => arg.value_parser(value_parser!(u32)),
                Scalar::Unsigned(_) => arg.value_parser(value_parser!(u64)),
                Scalar::Signed(8) => arg.value_parser(value_parser!(i8)),
                Scalar::Signed(16) => arg.value_parser(value_parser!(i16)),
                Scalar::Signed(32) => arg.value_parser(value_parser!(i32)),
                Scalar::Signed(_) => arg.value_parser(value_parser!(i64)),
                Scalar::Float(_) => arg.value_parser(value_parser!(f64)),
                Scalar::Choice(choices) => arg
                    .value_parser(PossibleValuesParser::new(choices.clone()))
                    .ignore_case(true),
            }
        }
    }
}

fn value_name(flag: &str, scalar: &Scalar) -> String {
    match scalar {
        Scalar::Unsigned(_) | Scalar::Signed(_) | Scalar::Float(_) => "N".to_owned(),
        _ => flag.to_uppercase().replace('-', "_"),
    }
}
