//! The `vaultspec` binary: runs the command line and exits with its code.

use std::process::ExitCode;

use vaultspec_host::{cli, report};

fn main() -> ExitCode {
    tune_malloc();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: starting the async runtime: {err}");
            return ExitCode::from(report::exit::INTERNAL);
        }
    };
    let code = runtime.block_on(cli::run(std::env::args_os()));
    // Do not wait for a blocked stdin read to finish (the MCP server reads
    // stdin on a worker thread that cannot be cancelled).
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    ExitCode::from(code)
}

/// Two allocator arenas instead of glibc's default of up to eight per core,
/// and a fixed threshold above which allocations get pages of their own.
///
/// glibc gives a thread that allocates while another holds an arena an
/// arena of its own, and memory freed into one arena is not reused by the
/// others: a server that parses a vault on several threads and keeps the
/// result ends with every arena holding freed space. At 100,000 documents
/// this cost the MCP server about 50 MiB of its peak (617 against 565 MiB),
/// with no change in the time of a check or a search.
///
/// glibc also raises its mmap threshold to the size of any mapped block
/// freed, so once a load has let go of a large buffer, every later large
/// buffer (a posting list growing, a reply being built) comes from the
/// heap, and each time one grows it leaves a hole of its old size behind.
/// Fixed at 128 KiB (glibc's own starting value) such buffers keep pages of
/// their own, grow without copying and go back to the system when freed:
/// the server's peak at 100,000 documents fell from 371 to 353 MiB.
/// `MALLOC_ARENA_MAX` or `MALLOC_MMAP_THRESHOLD_` in the environment is
/// left to glibc.
fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let unset = |name: &str| std::env::var_os(name).is_none();
        // SAFETY: mallopt only sets allocator parameters; it runs first in
        // `main`, before any other thread of this process exists.
        unsafe {
            if unset("MALLOC_ARENA_MAX") {
                libc::mallopt(libc::M_ARENA_MAX, 2);
            }
            if unset("MALLOC_MMAP_THRESHOLD_") {
                libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
            }
        }
    }
}
