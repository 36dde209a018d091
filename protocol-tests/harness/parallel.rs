//! Runs independent jobs (case files, fuzz batches) on a few threads: each job starts its own
//! brain process, so two at a time keep a 2-core machine busy.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs `job(0..jobs)` on `workers` threads; the results come back in job order.
pub fn run_parallel<R: Send>(
    jobs: usize,
    workers: usize,
    job: impl Fn(usize) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(jobs));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= jobs {
                    return;
                }
                let result = job(index);
                results.lock().expect("results").push((index, result));
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}
