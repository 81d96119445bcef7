//! Work shared over threads that the system may refuse: the calling thread works too, and
//! helpers take items from one queue, so every item is done however many helpers could be
//! started (a refused thread is not an error, only less parallelism). Which thread does an
//! item never changes the result: the items are independent.

use std::sync::{Mutex, PoisonError};

/// Calls `work` on up to `threads` threads (this one included), each with an iterator that
/// hands out the items not yet taken; returns when every item is done.
pub(crate) fn share<T: Send>(
    items: Vec<T>,
    threads: usize,
    work: impl Fn(&mut dyn Iterator<Item = T>) + Sync,
) {
    let helpers = threads.min(items.len()).saturating_sub(1);
    let queue = Mutex::new(items.into_iter());
    let worker = || {
        let mut next =
            std::iter::from_fn(|| queue.lock().unwrap_or_else(PoisonError::into_inner).next());
        work(&mut next);
    };
    std::thread::scope(|s| {
        for _ in 0..helpers {
            // A thread the system refuses leaves its share to the others.
            if std::thread::Builder::new().spawn_scoped(s, worker).is_err() {
                break;
            }
        }
        worker();
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_item_is_done_once_whatever_the_threads() {
        for threads in [0, 1, 3, 100] {
            let done: Vec<AtomicUsize> = (0..20).map(|_| AtomicUsize::new(0)).collect();
            share((0..20).collect(), threads, |items| {
                for i in items {
                    done[i].fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(
                done.iter().all(|d| d.load(Ordering::Relaxed) == 1),
                "{threads}"
            );
        }
    }
}
