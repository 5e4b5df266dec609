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
        .about("Print the manual page of vaultspec (roff).")
        .long_about(
            "Print the manual page of vaultspec in roff, for `man`: \
             vaultspec man > vaultspec.1 && man ./vaultspec.1",
        )
}

/// Write the completion script for `shell` to stdout.
pub fn completions(mut command: Command, shell: Shell) -> anyhow::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "vaultspec", &mut script);
    write_stdout(&String::from_utf8_lossy(&script))?;
    Ok(())
}

/// Write the manual page to stdout.
pub fn man(command: Command) -> anyhow::Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    write_stdout(&String::from_utf8_lossy(&page))?;
    Ok(())
}
