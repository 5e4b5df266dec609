//! The `vaultspec` binary: runs the command line and exits with its code.

use std::process::ExitCode;

use vaultspec_host::cli;

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: starting the async runtime: {err}");
            return ExitCode::from(cli::exit::INTERNAL);
        }
    };
    let code = runtime.block_on(cli::run(std::env::args_os()));
    // Do not wait for a blocked stdin read to finish (the MCP server reads
    // stdin on a worker thread that cannot be cancelled).
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    ExitCode::from(code)
}
