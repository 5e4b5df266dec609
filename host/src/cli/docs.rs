//! `vaultspec completions <shell>` and `vaultspec man`: the shell completion
//! script and the manual page, both generated from the same command tree as
//! `--help` (the catalog's verbs included).

use clap::{Arg, Command, value_parser};
use clap_complete::Shell;

use crate::report::write_stdout;

/// The `completions` command.
pub fn completions_command() -> Command {
    Command::new("completions")
        .about("Print the shell completion script for vaultspec.")
        .long_about(
            "Print the shell completion script for vaultspec, every verb of this \
             workspace's catalog included.\n\n\
             For bash: vaultspec completions bash > ~/.local/share/bash-completion/completions/vaultspec",
        )
        .arg(
            Arg::new("shell")
                .required(true)
                .value_name("SHELL")
                .value_parser(value_parser!(Shell))
                .help("The shell to write the script for"),
        )
}

/// The `man` command.
pub fn man_command() -> Command {
    Command::new("man")
        .about("Print a manual page of vaultspec (roff).")
        .long_about(
            "Print a manual page of vaultspec in roff, for `man`: \
             vaultspec man > vaultspec.1 && man ./vaultspec.1\n\n\
             Each page lists those of its commands, and prints with their words: \
             vaultspec man vault add > vaultspec-vault-add.1",
        )
        .arg(
            Arg::new("command")
                .num_args(0..)
                .value_name("COMMAND")
                .help("The command whose page to print (none: the page of vaultspec itself)"),
        )
}

/// Write the completion script for `shell` to stdout.
pub fn completions(mut command: Command, shell: Shell) -> anyhow::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "vaultspec", &mut script);
    write_stdout(&String::from_utf8_lossy(&script))?;
    Ok(())
}

/// Write the manual page of the command `words` name (none: the whole
/// tool's) to stdout; `Err` says why a page cannot be made.
pub fn man(mut command: Command, words: &[&String]) -> Result<(), String> {
    // Built, the tree names each command's page `vaultspec-vault-add`.
    command.build();
    let mut chosen = command;
    for (i, word) in words.iter().enumerate() {
        let Some(sub) = chosen.find_subcommand(word.as_str()).cloned() else {
            let path: Vec<&str> = words[..=i].iter().map(|w| w.as_str()).collect();
            return Err(format!(
                "there is no command `vaultspec {}`, so no page for it; `vaultspec man` lists the pages",
                path.join(" ")
            ));
        };
        chosen = sub;
    }
    let mut page = Vec::new();
    clap_mangen::Man::new(chosen)
        .source(format!("vaultspec {}", env!("CARGO_PKG_VERSION")))
        .render(&mut page)
        .map_err(|err| format!("writing the manual page: {err}"))?;
    write_stdout(&String::from_utf8_lossy(&page))
        .map_err(|err| format!("printing the manual page: {err}"))
}
