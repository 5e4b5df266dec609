//! The environment variables vaultspec reads or sets, in one place.

/// The workspace root, when `--target` is not given.
pub const TARGET_DIR: &str = "VAULTSPEC_TARGET_DIR";

/// Where compiled components and the command line's answers are cached
/// (default: the user's cache folder, see [`cache_base`]).
pub const CACHE_DIR: &str = "VAULTSPEC_CACHE_DIR";

/// The folder named by [`CACHE_DIR`], else the user's cache folder
/// (`$XDG_CACHE_HOME/vaultspec` or `~/.cache/vaultspec`).
pub fn cache_base() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    std::env::var_os(CACHE_DIR)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .filter(|v| !v.is_empty())
                .map(|d| PathBuf::from(d).join("vaultspec"))
        })
        .or_else(|| std::env::home_dir().map(|h| h.join(".cache").join("vaultspec")))
}

/// The first file named `name` in a folder of `PATH`, as a shell would
/// find the command (executable or not: the caller only reports it).
pub fn on_path(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The user's config folder for vaultspec: `$XDG_CONFIG_HOME/vaultspec`,
/// else `~/.config/vaultspec`.
pub fn config_base() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(|d| PathBuf::from(d).join("vaultspec"))
        .or_else(|| std::env::home_dir().map(|h| h.join(".config").join("vaultspec")))
}

/// The user's state folder for vaultspec: `$XDG_STATE_HOME/vaultspec`,
/// else `~/.local/state/vaultspec`.
pub fn state_base() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(|d| PathBuf::from(d).join("vaultspec"))
        .or_else(|| std::env::home_dir().map(|h| h.join(".local").join("state").join("vaultspec")))
}

/// Log level of the host on stderr (`error`, `warn`, `info`, `debug`, `trace`).
pub const LOG_LEVEL: &str = "VAULTSPEC_LOG_LEVEL";

/// Set to `1` in the guest environment of a builtin verb whose output goes
/// to a terminal that takes colour (the SDK's `style::COLOR_ENV`).
pub const COLOR: &str = "VAULTSPEC_COLOR";

/// Set to `1` in the guest environment of calls made through the MCP gateway.
pub const GATEWAY_INVOCATION: &str = "VAULTSPEC_MCP_GATEWAY_INVOCATION";

/// `0`, `false`, `no` or `off` turns the MCP server's stdio watchdog off.
pub const STDIO_WATCHDOG: &str = "VAULTSPEC_STDIO_WATCHDOG";

/// How often the watchdog polls, in milliseconds (tests shorten it).
pub const WATCHDOG_POLL_MS: &str = "VAULTSPEC_WATCHDOG_POLL_MS";

/// Seconds a writer waits for a lock sentinel another process holds
/// (`spec/gateway.md` §9; default 120).
pub const LOCK_TIMEOUT_SECONDS: &str = "VAULTSPEC_LOCK_TIMEOUT_SECONDS";

/// A local checkout of the SDK (`sdk/verb`): `vaultspec verbs new` then makes
/// the new crate depend on it by path instead of by version.
pub const SDK_PATH: &str = "VAULTSPEC_SDK_PATH";

/// Set (to anything) to write `/tmp/perf-<pid>.map`, so `perf` names the
/// functions of verb components (for profiling the host by hand).
pub const WASM_PERFMAP: &str = "VAULTSPEC_WASM_PERFMAP";
