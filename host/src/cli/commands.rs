//! Building clap commands from the catalog: one subcommand per verb word.
//!
//! `vaultspec vault --help` lists the `vault` group under the docs of the
//! WIT interfaces that make it up, `vaultspec vault list --help` shows the
//! verb's own docs and its operands' (with the values they accept), and
//! clap's own suggestions catch typos in verb words and flag names.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, Command, value_parser};

use crate::catalog::{Catalog, FlagShape, FlagSpec, Scalar, Trust, VerbSpec, summary};
use crate::report::exit;

/// The global flag that silences next-step hints.
pub const NO_HINTS: &str = "no-hints";

/// The global flag that runs a verb afresh and keeps no answer
/// (see `cli::answers`).
pub const NO_CACHE: &str = "no-cache";

/// The help heading of the flags every command takes, listed after a
/// verb's own.
const GLOBAL_HEADING: &str = "Global options";

/// The verbs under one group word.
#[derive(Default)]
struct Group {
    /// The docs of the interfaces that make up this group, without repeats
    /// (two components may each add verbs to `vault check`), each with the
    /// index of its component: they are shown in the order the catalog
    /// loaded the components.
    docs: Vec<(usize, String)>,
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
        let (last, groups) = entry
            .spec
            .path
            .split_last()
            .expect("a verb path has a word");
        for word in groups {
            node = node.children.entry(word.clone()).or_default();
        }
        let group = &entry.spec.group_description;
        if !group.is_empty() && !node.docs.iter().any(|(_, d)| d == group) {
            node.docs.push((entry.component, group.clone()));
            node.docs.sort();
        }
        node = node.children.entry(last.clone()).or_default();
        node.leaf = Some(entry.spec.clone());
        node.untrusted = catalog.trust(entry) == Trust::Untrusted;
    }
    let root = Command::new("vaultspec")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Keep a project's decisions in its .vault/: research, ADRs, plans and ledgers.")
        .after_long_help(exit::help_table())
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            Arg::new(NO_HINTS)
                .long(NO_HINTS)
                .global(true)
                .action(ArgAction::SetTrue)
                .help_heading(GLOBAL_HEADING)
                .help("Print no next-step hints (also: VAULTSPEC_NO_HINTS=1, or inside a git hook)"),
        )
        .arg(
            Arg::new(NO_CACHE)
                .long(NO_CACHE)
                .global(true)
                .action(ArgAction::SetTrue)
                .help_heading(GLOBAL_HEADING)
                .help("Run a read verb afresh: give no answer kept from an earlier run, and keep none"),
        )
        .arg(
            Arg::new("target")
                .long("target")
                .short('t')
                .global(true)
                .value_name("DIR")
                .value_parser(value_parser!(PathBuf))
                .help_heading(GLOBAL_HEADING)
                .help("Workspace root (default: $VAULTSPEC_TARGET_DIR, else found from the current folder)"),
        );
    add_children(root, &tree, &[])
}

/// Add `from`'s subcommands to `into`, joining a group both have into one
/// (the host's `spec mcps` beside the catalog's `spec rules list`); the
/// joined group takes `from`'s description. Two leaves of one name cannot
/// be joined: that is a bug in the builtins, and panics.
pub fn graft(mut into: Command, from: &Command) -> Command {
    for sub in from.get_subcommands() {
        let name = sub.get_name();
        let Some(mine) = into.find_subcommand(name) else {
            into = into.subcommand(sub.clone());
            continue;
        };
        assert!(
            mine.has_subcommands() && sub.has_subcommands(),
            "the host's command `{name}` collides with a verb of the same name"
        );
        into = into.mut_subcommand(name, |mut mine| {
            if let Some(about) = sub.get_about() {
                mine = match sub.get_long_about() {
                    Some(long) => mine.about(about.clone()).long_about(long.clone()),
                    None => mine.about(about.clone()).long_about(None::<&str>),
                };
            }
            graft(mine, sub)
        });
    }
    into
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
            let command = Command::new(word.to_owned())
                .about(group_about(group, path))
                .long_about(group_long_about(group, path))
                .subcommand_required(true)
                .arg_required_else_help(true);
            add_children(command, group, path)
        }
    }
}

/// The one-line description of a group: the first sentence of each of its
/// interfaces' docs; a group no interface documents (`vault plan epic`)
/// takes its subgroups' instead.
fn group_about(group: &Group, path: &[String]) -> String {
    let own = summaries(group.docs.iter().map(|(_, d)| d));
    if !own.is_empty() {
        return own.join(" ");
    }
    let below = summaries(
        group
            .children
            .values()
            .filter(|child| child.leaf.is_none() || !child.children.is_empty())
            .flat_map(|child| child.docs.iter().map(|(_, d)| d)),
    );
    if below.is_empty() {
        format!("The `{}` verbs.", path.join(" "))
    } else {
        below.join(" ")
    }
}

/// The first sentences of `docs`, each once.
fn summaries<'a>(docs: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for sentence in docs.map(|d| summary(d)) {
        if !out.contains(&sentence) {
            out.push(sentence);
        }
    }
    out
}

/// The description of a group under `--help`: its interfaces' whole docs.
fn group_long_about(group: &Group, path: &[String]) -> String {
    if group.docs.is_empty() {
        group_about(group, path)
    } else {
        let docs: Vec<&str> = group.docs.iter().map(|(_, d)| d.as_str()).collect();
        docs.join("\n\n")
    }
}

fn leaf(word: &str, spec: &VerbSpec, untrusted: bool) -> Command {
    let mark = if untrusted { "[untrusted] " } else { "" };
    let mut command = Command::new(word.to_owned())
        .about(format!("{mark}{}", spec.summary()))
        .long_about(format!("{mark}{}", spec.description));
    // `--no-hints` is the root's global flag; a verb that declares it gets
    // its value from there.
    for flag in spec.flags.iter().filter(|f| f.name != NO_HINTS) {
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
        let mut help = operand.help.clone();
        if !operand.choices.is_empty() {
            // Listed, not enforced: the verb judges the value and says
            // what it accepts, as it does for a tool call.
            help = format!("{help} [values: {}]", operand.choices.join(", "))
                .trim()
                .to_owned();
        }
        let mut arg = Arg::new(format!("operand:{}", operand.name))
            .value_name(operand.name.to_uppercase())
            .help(help)
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
