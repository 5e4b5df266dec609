//! The `vaultspec` binary: logs to stderr, runs the command line.

use std::process::ExitCode;

use tracing_subscriber::EnvFilter;
use vaultspec_host::{cli, env};

fn main() -> ExitCode {
    let filter = std::env::var(env::LOG_LEVEL).unwrap_or_else(|_| "warn".to_owned());
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(EnvFilter::try_new(filter.to_lowercase()).unwrap_or_else(|_| EnvFilter::new("warn")))
        .init();
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: starting the async runtime: {err}");
            return ExitCode::from(cli::EXIT_FAILURE);
        }
    };
    match runtime.block_on(cli::run(std::env::args_os())) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(cli::EXIT_FAILURE)
        }
    }
}
