//! Reading clap's matches back into a verb path and an [`Invocation`].

use clap::ArgMatches;

use crate::catalog::{Catalog, Entry, FlagShape};
use crate::invocation::{FlagValue, Invocation};

/// The verb the command line chose, its invocation, and its leaf matches.
pub fn verb_invocation<'c>(
    catalog: &'c Catalog,
    matches: &ArgMatches,
) -> Option<(&'c Entry, Invocation)> {
    let mut path = Vec::new();
    let mut current = matches;
    while let Some((word, sub)) = current.subcommand() {
        path.push(word.to_owned());
        current = sub;
    }
    let entry = catalog.get(&path.join(" "))?;
    let spec = &entry.spec;
    let mut invocation = Invocation::default();
    for flag in &spec.flags {
        let value = match flag.shape {
            FlagShape::Switch => current
                .get_flag(&flag.name)
                .then_some(FlagValue::Switch(true)),
            _ => current.get_raw(&flag.name).map(|values| {
                FlagValue::Values(values.map(|v| v.to_string_lossy().into_owned()).collect())
            }),
        };
        if let Some(value) = value {
            invocation.flags.insert(flag.name.clone(), value);
        }
    }
    invocation.json = spec.supports_json && current.get_flag("json");
    for operand in &spec.operands {
        if let Some(values) = current.get_raw(&format!("operand:{}", operand.name)) {
            invocation
                .operands
                .extend(values.map(|v| v.to_string_lossy().into_owned()));
        }
    }
    Some((entry, invocation))
}
