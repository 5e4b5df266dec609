//! One ordered parallel map, for the native reads of many files: the
//! results come back in input order whatever thread produced them.

/// How many threads to read with: the available parallelism, at most 8.
pub fn default_threads() -> usize {
    #[cfg(target_arch = "wasm32")]
    return 1;
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
}

/// `items.iter().map(f).collect()`, on `threads` threads. Each thread takes
/// the next run of items from a shared counter (files vary in size, so
/// splitting the items up front would leave threads idle). Few items, or
/// one thread, stay on the caller's thread; so does everything on
/// `wasm32`, which has no threads.
pub fn map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_from(64, items, threads, f)
}

/// [`map`] for a few items that each take long (whole-vault checkers):
/// two items are enough to use threads.
pub fn map_heavy<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    map_from(2, items, threads, f)
}

/// [`map`] on threads once there are at least `least` items.
fn map_from<T: Sync, R: Send>(
    least: usize,
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    #[cfg(not(target_arch = "wasm32"))]
    if threads >= 2 && items.len() >= least {
        return map_on_threads(items, threads.min(items.len()), &f);
    }
    let _ = (threads, least);
    items.iter().map(f).collect()
}

/// Items a worker claims at a time: results are kept per claim, in a
/// vector of exactly its length, and moved once into the output.
#[cfg(not(target_arch = "wasm32"))]
const CLAIM: usize = 64;

#[cfg(not(target_arch = "wasm32"))]
fn map_on_threads<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: &(impl Fn(&T) -> R + Sync),
) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};

    // Small claims for a few heavy items (each thread takes the next one as
    // it finishes), runs of `CLAIM` for many light ones.
    let claim = if items.len() >= CLAIM * threads {
        CLAIM
    } else {
        1
    };
    let next = AtomicUsize::new(0);
    let mut parts: Vec<(usize, Vec<R>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let start = next.fetch_add(claim, Ordering::Relaxed);
                        if start >= items.len() {
                            break;
                        }
                        let run = &items[start..(start + claim).min(items.len())];
                        out.push((start, run.iter().map(f).collect::<Vec<R>>()));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker thread panicked"))
            .collect()
    });
    parts.sort_unstable_by_key(|(start, _)| *start);
    let mut results = Vec::with_capacity(items.len());
    for (_, run) in parts {
        results.extend(run);
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order_on_any_number_of_threads() {
        let items: Vec<u32> = (0..1000).collect();
        let squares: Vec<u64> = items.iter().map(|&i| u64::from(i) * u64::from(i)).collect();
        for threads in [1, 2, 3, 8] {
            assert_eq!(
                map(&items, threads, |&i| u64::from(i) * u64::from(i)),
                squares
            );
            assert_eq!(
                map_heavy(&items[..3], threads, |&i| u64::from(i) * u64::from(i)),
                squares[..3]
            );
        }
    }
}
