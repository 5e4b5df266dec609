//! The differential test: random operation sequences over a generated,
//! messy vault, run by `vaultspec` and by the reference `vaultspec-core`
//! 0.3.9 on two copies, compared after every operation (see README.md).
//!
//! Opt-in: it needs `vaultspec-core-ref` on `PATH` and skips with a message
//! otherwise. `VAULTSPEC_DIFF_SEEDS` (`1-30`, `4`, `2,9`; default `1-3`),
//! `VAULTSPEC_DIFF_OPS` (default 25), `VAULTSPEC_DIFF_DIR` (where the two
//! workspaces live; default a temporary folder) and `VAULTSPEC_DIFF_STOP=1`
//! (stop a seed at its first unexplained divergence, leaving both
//! workspaces for a look), `VAULTSPEC_DIFF_CACHE` (a folder where the
//! reference's answers are kept and replayed) and `VAULTSPEC_DIFF_BIN`
//! (another `vaultspec` binary to compare) steer it.

mod compare;
mod known;
mod ops;
mod rng;
mod state;
mod vault;

use std::path::{Path, PathBuf};
use std::process::Command;

use known::Run;

const REFERENCE: &str = "vaultspec-core-ref";

/// Whether `program` is an executable on `PATH`.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// The seeds named by `VAULTSPEC_DIFF_SEEDS`.
fn seeds() -> Vec<u64> {
    let spec = std::env::var("VAULTSPEC_DIFF_SEEDS").unwrap_or_else(|_| "1-3".into());
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u64, u64) = (a.parse().expect("seed"), b.parse().expect("seed"));
                out.extend(a..=b);
            }
            None => out.push(
                part.parse()
                    .expect("VAULTSPEC_DIFF_SEEDS: numbers, ranges a-b, commas"),
            ),
        }
    }
    out
}

/// Empty `dir` but keep the folder itself: the reference runs in a chroot
/// that bind-mounts the folder, and a recreated folder would be a new one.
fn clear(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            std::fs::remove_dir_all(path).unwrap();
        } else {
            std::fs::remove_file(path).unwrap();
        }
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Run one tool on `ws` with `args` (`{WS}` replaced by the workspace).
fn run(program: &Path, ws: &Path, args: &[String]) -> (Run, String) {
    let root = ws.to_string_lossy();
    let args: Vec<String> = args.iter().map(|a| a.replace("{WS}", &root)).collect();
    // The workspace is the current folder, as the golden vectors ran: a
    // leaf `--target` (the tier of `plan tier promote`) then means the same
    // to both tools.
    let output = Command::new(program)
        .args(&args)
        .current_dir(ws)
        .env("VAULTSPEC_NO_HINTS", "1")
        .env("TZ", "UTC")
        .env("VAULTSPEC_STDIO_WATCHDOG", "0")
        .env(
            "VAULTSPEC_CACHE_DIR",
            vaultspec_test_support::cache_dir()
                .parent()
                .unwrap()
                .join("test-cli-cache"),
        )
        .env_remove("VAULTSPEC_TARGET_DIR")
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", program.display()));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let json = json_prefix(&stdout);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (
        Run {
            code: output.status.code().unwrap_or(-1),
            json,
        },
        format!("{stdout}{stderr}"),
    )
}

/// What one seed met.
#[derive(Default)]
struct Tally {
    ops: usize,
    diverged: Vec<String>,
    known: Vec<String>,
}

/// The folders an operation may change, kept per operation in the cache.
const CHANGING: [&str; 2] = [".vault", ".vaultspec/rules"];

/// Keep the reference's answer to one operation (exit code, output, the
/// folders it may change), so a later run replays it instead of running
/// the reference again: the operations are drawn from the reference's
/// workspace alone, so a seed's sequence is the same on every run.
fn remember(slot: &Path, ws: &Path, code: i32, out: &str) {
    let _ = std::fs::remove_dir_all(slot);
    for folder in CHANGING {
        let to = slot.join("tree").join(folder);
        std::fs::create_dir_all(&to).unwrap();
        if ws.join(folder).is_dir() {
            copy_tree(&ws.join(folder), &to);
        }
    }
    std::fs::write(slot.join("out"), out).unwrap();
    std::fs::write(slot.join("exit"), code.to_string()).unwrap();
}

/// The reference's remembered answer, laid back into its workspace.
fn replay(slot: &Path, ws: &Path) -> (Run, String) {
    for folder in CHANGING {
        let _ = std::fs::remove_dir_all(ws.join(folder));
        std::fs::create_dir_all(ws.join(folder)).unwrap();
        copy_tree(&slot.join("tree").join(folder), &ws.join(folder));
    }
    let out = std::fs::read_to_string(slot.join("out")).unwrap_or_default();
    let code = std::fs::read_to_string(slot.join("exit"))
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(-1);
    let json = json_prefix(&out);
    (Run { code, json }, out)
}

/// The JSON document at the start of a tool's output (stdout comes first).
fn json_prefix(out: &str) -> Option<serde_json::Value> {
    let mut stream = serde_json::Deserializer::from_str(out).into_iter::<serde_json::Value>();
    stream.next().and_then(Result::ok)
}

fn run_seed(seed: u64, ops: usize, dir: &Path, stop: bool, cache: Option<&Path>) -> Tally {
    let cache = cache.map(Path::to_path_buf);
    let reference_ws = dir.join("ref");
    let ours_ws = dir.join("ours");
    clear(&reference_ws);
    clear(&ours_ws);
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/reference-install");
    copy_tree(&fixture, &reference_ws);
    let mut rng = rng::Rng::new(seed);
    vault::generate(&mut rng, &reference_ws);
    copy_tree(&reference_ws, &ours_ws);
    let ours_bin = std::env::var_os("VAULTSPEC_DIFF_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_vaultspec")),
        PathBuf::from,
    );
    let reference_bin = PathBuf::from(REFERENCE);
    let mut tally = Tally::default();
    for n in 1..=ops {
        let state = state::read(&reference_ws);
        let op = ops::next(&mut rng, &state, &reference_ws.to_string_lossy());
        if let Some((path, text)) = &op.input {
            std::fs::write(reference_ws.join(path), text).unwrap();
            std::fs::write(ours_ws.join(path), text).unwrap();
        }
        let (r, r_out) = match cache.as_ref().map(|c| c.join(format!("{seed}/{n}"))) {
            Some(slot) if slot.join("exit").is_file() => replay(&slot, &reference_ws),
            slot => {
                let (r, out) = run(&reference_bin, &reference_ws, &op.args);
                if let Some(slot) = slot {
                    remember(&slot, &reference_ws, r.code, &out);
                }
                (r, out)
            }
        };
        let (o, o_out) = run(&ours_bin, &ours_ws, &op.args);
        tally.ops += 1;
        let mut found = Vec::new();
        if r.code != o.code {
            found.push(format!("exit: reference {}, ours {}", r.code, o.code));
        }
        found.extend(compare::trees(&reference_ws, &ours_ws));
        let roots = (reference_ws.to_str().unwrap(), ours_ws.to_str().unwrap());
        match (&r.json, &o.json) {
            (Some(a), Some(b)) if op.read => found.extend(compare::json(a, b, roots)),
            (Some(a), Some(b)) => {
                let status = |v: &serde_json::Value| v.get("status").cloned();
                if status(a) != status(b) {
                    found.push(format!(
                        "status: reference {:?}, ours {:?}",
                        status(a),
                        status(b)
                    ));
                }
            }
            (Some(_), None) => found.push("ours printed no JSON".into()),
            _ => {}
        }
        if found.is_empty() {
            continue;
        }
        let line = format!("seed {seed} op {n}: {}", op.args.join(" "));
        if let Some(reason) = known::explain(&op.args, &r, &o) {
            println!("{line}\n    known reference bug: {reason}");
            tally.known.push(line);
        } else {
            let mut report = format!("{line}\n");
            for item in found.iter().take(6) {
                report += &format!("    {item}\n");
            }
            report += &format!(
                "    reference said: {}\n    ours said: {}",
                r_out.trim().chars().take(400).collect::<String>(),
                o_out.trim().chars().take(400).collect::<String>()
            );
            println!("DIVERGED {report}");
            tally.diverged.push(report);
            if stop {
                return tally;
            }
        }
        // Continue from the reference's state so later operations test
        // something of their own.
        clear(&ours_ws);
        copy_tree(&reference_ws, &ours_ws);
    }
    tally
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    if !on_path(REFERENCE) {
        println!(
            "differential: skipped: `{REFERENCE}` (the reference vaultspec-core 0.3.9) is not on PATH; \
             see tests/differential/README.md to run it"
        );
        return;
    }
    let ops: usize = std::env::var("VAULTSPEC_DIFF_OPS")
        .ok()
        .map(|v| v.parse().expect("VAULTSPEC_DIFF_OPS: a number"))
        .unwrap_or(25);
    let stop = std::env::var("VAULTSPEC_DIFF_STOP").is_ok_and(|v| v == "1");
    let temp;
    let dir = match std::env::var_os("VAULTSPEC_DIFF_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            temp = tempfile::tempdir().unwrap();
            temp.path().to_owned()
        }
    };
    let cache = std::env::var_os("VAULTSPEC_DIFF_CACHE").map(PathBuf::from);
    let seeds = seeds();
    let (mut total_ops, mut clean, mut diverged, mut known) = (0, 0, 0, 0);
    for &seed in &seeds {
        let tally = run_seed(seed, ops, &dir, stop, cache.as_deref());
        total_ops += tally.ops;
        known += tally.known.len();
        diverged += tally.diverged.len();
        if tally.diverged.is_empty() {
            clean += 1;
        }
        println!(
            "seed {seed}: {} ops, {} divergences, {} known reference bugs",
            tally.ops,
            tally.diverged.len(),
            tally.known.len()
        );
    }
    println!(
        "differential: {clean} of {} seeds clean ({total_ops} operations); \
         {diverged} unexplained divergences, {known} known reference bugs",
        seeds.len()
    );
    if diverged > 0 {
        std::process::exit(1);
    }
}
