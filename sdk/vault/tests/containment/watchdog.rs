//! The watchdog: every workspace call must return. A call still running
//! after [`RESCUE`] is marked hung and every planted FIFO is opened for
//! writing once, which frees a reader blocked in `open` so the case can fail
//! and shrink; a call still running after [`ABORT`] ends the process with a
//! message naming it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// After this long a call counts as hung (every honest call here takes
/// milliseconds).
pub const RESCUE: Duration = Duration::from_secs(3);

/// After this long the process is aborted.
pub const ABORT: Duration = Duration::from_secs(10);

struct Watch {
    started: Instant,
    what: String,
    fifos: Vec<PathBuf>,
    rescued: bool,
}

/// The calls running now, by a number of their own (tests run in parallel).
static WATCHES: Mutex<BTreeMap<u64, Watch>> = Mutex::new(BTreeMap::new());
static NEXT: AtomicU64 = AtomicU64::new(0);
static START: Once = Once::new();

fn patrol() {
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let mut watches = WATCHES.lock().unwrap_or_else(|e| e.into_inner());
        for watch in watches.values_mut() {
            let elapsed = watch.started.elapsed();
            if elapsed > ABORT {
                eprintln!(
                    "containment watchdog: `{}` has not returned after {elapsed:?}; aborting",
                    watch.what
                );
                std::process::abort();
            }
            if elapsed > RESCUE && !watch.rescued {
                watch.rescued = true;
                for fifo in watch.fifos.clone() {
                    // Blocks only while no reader waits; such a thread is left behind.
                    std::thread::spawn(move || {
                        drop(std::fs::OpenOptions::new().write(true).open(fifo))
                    });
                }
            }
        }
    }
}

/// Run `call` under the watchdog; the flag says whether it hung.
pub fn watched<T>(what: &str, fifos: &[PathBuf], call: impl FnOnce() -> T) -> (T, bool) {
    START.call_once(|| {
        std::thread::Builder::new()
            .name("containment-watchdog".into())
            .spawn(patrol)
            .expect("spawn the watchdog");
    });
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let watch = Watch {
        started: Instant::now(),
        what: what.to_owned(),
        fifos: fifos.to_vec(),
        rescued: false,
    };
    WATCHES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, watch);
    let result = call();
    let watch = WATCHES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&id);
    (result, watch.is_some_and(|w| w.rescued))
}
