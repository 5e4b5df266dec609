//! Running an outside program with a deadline and a cap on what is kept of
//! its output, so no program the host starts can hold it longer or fill
//! its memory.
//!
//! The program runs in a process group of its own; at the deadline the
//! whole group is killed, and so it is when the program ends (a child it
//! left in the background would otherwise hold the pipes open). Output past
//! the cap is read and dropped, so the program never blocks on a full pipe.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// How long, after the program ended, its pipes are waited for.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// What a bounded run gave.
#[derive(Debug)]
pub struct Ran {
    /// How it ended; `None` when the deadline came first.
    pub status: Option<ExitStatus>,
    /// Its output, up to the cap.
    pub stdout: Vec<u8>,
    /// Whether it wrote more than the cap.
    pub stdout_over_cap: bool,
    /// Its error output, up to the cap.
    pub stderr: Vec<u8>,
}

/// Run `command` (stdin closed, both outputs captured) until `deadline`,
/// keeping at most `cap` bytes of each output. Fails only when it cannot
/// be started or waited for.
pub fn run(command: Command, deadline: Instant, cap: u64) -> std::io::Result<Ran> {
    run_with_input(command, None, deadline, cap)
}

/// [`run`], with `input` written to the program's stdin (then closed) on
/// a thread of its own: a secret handed this way never shows in the
/// process list, as an argument would.
pub fn run_with_input(
    mut command: Command,
    input: Option<Vec<u8>>,
    deadline: Instant,
    cap: u64,
) -> std::io::Result<Ran> {
    command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn()?;
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut stdin, &input);
        });
    }
    let stdout = drain(child.stdout.take().map(|s| Box::new(s) as _), cap);
    let stderr = drain(child.stderr.take().map(|s| Box::new(s) as _), cap);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(err) => {
                kill_group(&mut child);
                return Err(err);
            }
        }
    };
    kill_group(&mut child);
    // A process that left the group still holds the pipes: its output is
    // given up on rather than waited for.
    let (stdout, stdout_over_cap) = stdout.recv_timeout(PIPE_GRACE).unwrap_or_default();
    let (stderr, _) = stderr.recv_timeout(PIPE_GRACE).unwrap_or_default();
    Ok(Ran {
        status,
        stdout,
        stdout_over_cap,
        stderr,
    })
}

/// Read a stream on a thread of its own: the first `cap` bytes, and
/// whether there were more.
fn drain(stream: Option<Box<dyn Read + Send>>, cap: u64) -> Receiver<(Vec<u8>, bool)> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut over = false;
        if let Some(mut stream) = stream {
            let _ = (&mut stream).take(cap).read_to_end(&mut kept);
            over = std::io::copy(&mut stream, &mut std::io::sink()).is_ok_and(|n| n > 0);
        }
        let _ = sender.send((kept, over));
    });
    receiver
}

/// Kill the program's process group (on Unix), then the program.
fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: `kill` takes a plain process-group id and a signal.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_past_the_cap_is_dropped_and_said() {
        let mut command = Command::new("sh");
        command.args(["-c", "printf 0123456789; echo err >&2"]);
        let ran = run(command, Instant::now() + Duration::from_secs(10), 4).unwrap();
        assert!(ran.status.unwrap().success());
        assert_eq!(ran.stdout, b"0123");
        assert!(ran.stdout_over_cap);
        assert_eq!(ran.stderr, b"err\n");
    }

    #[test]
    fn the_deadline_kills_the_program_and_what_it_left_behind() {
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 30 & sleep 30"]);
        let started = Instant::now();
        let ran = run(command, Instant::now() + Duration::from_millis(200), 4).unwrap();
        assert!(ran.status.is_none());
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
