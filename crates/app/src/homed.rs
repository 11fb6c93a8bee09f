//! Values made on an analysis thread and freed on it.
//!
//! An audit is made of thousands of small allocations (the page's links, headings, the
//! findings' locations), made by the analysis thread that parsed the page. It is then read
//! elsewhere: the service's runtime workers build and store the result, a crawl's frontier
//! thread writes the page's record. Freed there, every block is a free from another thread:
//! the allocator (mimalloc) queues it on its page for the owning thread to collect, and the
//! owning thread, finding its pages still full, takes fresh ones and zeroes them. Measured on
//! the engine alone (`LOAD_DROP_ELSEWHERE=1 load engine`, docs/PERFORMANCE.md, "The service"),
//! freeing each audit on another thread cost 8–10% of the engine's throughput on both cores.
//!
//! A [`Homed`] value remembers the analysis thread it was made on. Dropped on another thread
//! while that thread is at work, it is handed back and freed there after the page it is
//! analysing; dropped while its thread waits for work (nothing to compete with), or outside
//! the analysis threads, it is freed where it is. What waits to be freed is at most what was
//! dropped during one analysis: a thread frees what came back as it goes idle, in the same
//! step as it marks itself idle, so nothing waits for a thread that waits for work.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, PoisonError};

/// The values handed back to one analysis thread, and whether it is at work: both under one
/// lock, so that a value is handed back only while the thread will free it (a thread going
/// idle frees what it holds in the same step).
#[derive(Default)]
pub(crate) struct Home {
    state: Mutex<Returned>,
}

#[derive(Default)]
struct Returned {
    busy: bool,
    values: Vec<Box<dyn Send>>,
}

thread_local! {
    static HOME: std::cell::OnceCell<Arc<Home>> = const { std::cell::OnceCell::new() };
}

impl Home {
    /// Makes the calling thread an analysis thread, whose [`Homed`] values come back to it.
    pub(crate) fn here() -> Arc<Home> {
        HOME.with(|home| Arc::clone(home.get_or_init(Arc::default)))
    }

    /// The thread starts a job: values dropped elsewhere from now on come back to it.
    pub(crate) fn start_work(&self) {
        self.lock().busy = true;
    }

    /// The thread waits for work: it frees what was handed back, and values dropped
    /// elsewhere from now on are freed where they are dropped.
    pub(crate) fn go_idle(&self) {
        let values = {
            let mut state = self.lock();
            state.busy = false;
            std::mem::take(&mut state.values)
        };
        drop(values);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Returned> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A value freed on the analysis thread that made it (module docs). Reads as the value.
pub struct Homed<T: Send + 'static> {
    value: Option<T>,
    home: Option<Arc<Home>>,
}

impl<T: Send + 'static> Homed<T> {
    /// `value`, to be freed on the calling thread when that is an analysis thread.
    pub fn here(value: T) -> Homed<T> {
        let home = HOME.with(|home| home.get().cloned());
        Homed { value: Some(value), home }
    }

    /// The value itself, freed wherever it is then dropped.
    pub fn into_inner(mut self) -> T {
        match self.value.take() {
            Some(value) => value,
            None => unreachable!("a Homed value is taken only once"),
        }
    }
}

impl<T: Send + 'static> Drop for Homed<T> {
    fn drop(&mut self) {
        let (Some(value), Some(home)) = (self.value.take(), self.home.take()) else { return };
        // A thread whose locals are being torn down is not the value's home.
        let at_home = HOME.try_with(|here| here.get().is_some_and(|here| Arc::ptr_eq(here, &home))).unwrap_or(false);
        if at_home {
            return drop(value);
        }
        let mut state = home.lock();
        if state.busy {
            state.values.push(Box::new(value));
        } else {
            drop(state);
            drop(value);
        }
    }
}

impl<T: Send + 'static> Deref for Homed<T> {
    type Target = T;
    fn deref(&self) -> &T {
        match &self.value {
            Some(value) => value,
            None => unreachable!("a Homed value is read only before it is taken"),
        }
    }
}

impl<T: Send + 'static> DerefMut for Homed<T> {
    fn deref_mut(&mut self) -> &mut T {
        match &mut self.value {
            Some(value) => value,
            None => unreachable!("a Homed value is read only before it is taken"),
        }
    }
}

impl<T: Send + std::fmt::Debug + 'static> std::fmt::Debug for Homed<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.deref().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Records the thread it was dropped on.
    struct Tracked(Arc<Mutex<Vec<std::thread::ThreadId>>>);
    impl Drop for Tracked {
        fn drop(&mut self) {
            self.0.lock().unwrap().push(std::thread::current().id());
        }
    }

    #[test]
    fn a_value_dropped_elsewhere_while_its_thread_works_is_freed_on_its_thread() {
        let drops = Arc::new(Mutex::new(Vec::new()));
        let (made, take) = std::sync::mpsc::channel();
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let freed = Arc::new(AtomicUsize::new(0));
        let (drops2, freed2) = (Arc::clone(&drops), Arc::clone(&freed));
        let home = std::thread::spawn(move || {
            let home = Home::here();
            home.start_work();
            made.send(Homed::here(Tracked(drops2))).unwrap();
            // Still at work while the other thread drops the value.
            wait.recv().unwrap();
            freed2.store(home.lock().values.len(), Ordering::SeqCst);
            home.go_idle();
            std::thread::current().id()
        });
        let value = take.recv().unwrap();
        drop(value);
        assert!(drops.lock().unwrap().is_empty(), "not freed on the dropping thread");
        go.send(()).unwrap();
        let home_id = home.join().unwrap();
        assert_eq!(freed.load(Ordering::SeqCst), 1, "handed back");
        assert_eq!(*drops.lock().unwrap(), vec![home_id], "freed on the thread that made it");
    }

    #[test]
    fn a_value_is_freed_where_it_is_dropped_when_its_thread_waits_or_outside_the_analysis_threads() {
        let drops = Arc::new(Mutex::new(Vec::new()));
        let d = Arc::clone(&drops);
        let (value, home) = std::thread::spawn(move || {
            let home = Home::here();
            home.go_idle();
            (Homed::here(Tracked(d)), home)
        })
        .join()
        .unwrap();
        drop(value);
        assert_eq!(*drops.lock().unwrap(), vec![std::thread::current().id()]);
        assert!(home.lock().values.is_empty());

        // Made outside an analysis thread: a plain value.
        let outside = Homed::here(Tracked(Arc::clone(&drops)));
        let here = std::thread::current().id();
        std::thread::spawn(move || drop(outside)).join().unwrap();
        assert_eq!(drops.lock().unwrap().len(), 2);
        assert_ne!(drops.lock().unwrap()[1], here);

        // Taken out, it is the value itself.
        let home_value = Homed::here(5u32);
        assert_eq!(home_value.into_inner(), 5);
    }
}
