//! [`AuditSlots`]: the bounded audit concurrency and queue every audit passes through.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::AppError;

/// At most `max` audits fetch and analyse at once; at most `queue` more wait. Admission is
/// decided without waiting ([`AuditSlots::admit`]), so a full server answers 503 at once
/// instead of piling up connections.
#[derive(Debug)]
pub struct AuditSlots {
    max: usize,
    semaphore: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    queue: usize,
}

/// A place in the audit slots: either a slot already, or a place in the queue.
#[derive(Debug)]
pub struct Ticket {
    permit: Option<OwnedSemaphorePermit>,
    semaphore: Arc<Semaphore>,
    queued: Option<QueuePlace>,
}

#[derive(Debug)]
struct QueuePlace(Arc<AtomicUsize>);

impl Drop for QueuePlace {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl AuditSlots {
    /// Slots for `max` concurrent audits (at least one) and `queue` waiting ones.
    pub fn new(max: usize, queue: usize) -> AuditSlots {
        let max = max.max(1);
        AuditSlots { max, semaphore: Arc::new(Semaphore::new(max)), waiting: Arc::new(AtomicUsize::new(0)), queue }
    }

    /// A free slot, or a place in the queue, or `overloaded` when the queue is full.
    pub fn admit(&self) -> Result<Ticket, AppError> {
        if let Ok(permit) = self.semaphore.clone().try_acquire_owned() {
            return Ok(Ticket { permit: Some(permit), semaphore: self.semaphore.clone(), queued: None });
        }
        let taken =
            self.waiting.fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| (w < self.queue).then_some(w + 1));
        match taken {
            Ok(_) => Ok(Ticket {
                permit: None,
                semaphore: self.semaphore.clone(),
                queued: Some(QueuePlace(self.waiting.clone())),
            }),
            Err(_) => Err(AppError::Overloaded),
        }
    }

    /// One place for each of `n` audits, all or none (a batch): the items of an admitted
    /// batch wait in the queue like any other audit, so the queue bound holds for them too.
    pub fn admit_many(&self, n: usize) -> Result<Vec<Ticket>, AppError> {
        let mut tickets = Vec::with_capacity(n);
        for _ in 0..n {
            // A refusal drops the tickets taken so far, giving their places back.
            tickets.push(self.admit()?);
        }
        Ok(tickets)
    }

    /// A place for work nobody waits on (workflow steps, monitor checks, badge audits):
    /// taken only while the queue is less than half full, so background work never takes
    /// the places clients need; `None` means defer it and try again later.
    pub fn admit_background(&self) -> Option<Ticket> {
        // Without a queue (`audit_queue = 0`) only a free slot admits anyone, background too.
        if self.queue > 0 && self.waiting.load(Ordering::Acquire) * 2 >= self.queue {
            return None;
        }
        self.admit().ok()
    }

    /// [`AuditSlots::admit_background`], retried with a growing pause (0.5 s doubling to
    /// 8 s) until `patience` has passed; then `overloaded`. While it waits it holds no
    /// place: deferred work costs clients nothing.
    pub async fn admit_background_within(&self, patience: std::time::Duration) -> Result<Ticket, AppError> {
        let started = Instant::now();
        let mut pause = std::time::Duration::from_millis(500);
        loop {
            if let Some(ticket) = self.admit_background() {
                return Ok(ticket);
            }
            if started.elapsed() >= patience {
                return Err(AppError::Overloaded);
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(std::time::Duration::from_secs(8));
        }
    }

    /// Audits running (holding a slot) now.
    pub fn running(&self) -> usize {
        self.max - self.semaphore.available_permits()
    }

    /// Audits waiting in the queue now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }
}

impl Ticket {
    /// Waits until the ticket's audit may run; hold the permit while it does.
    pub async fn ready(mut self) -> Result<OwnedSemaphorePermit, AppError> {
        if let Some(permit) = self.permit.take() {
            return Ok(permit);
        }
        let permit = self.semaphore.clone().acquire_owned().await.map_err(AppError::internal)?;
        drop(self.queued.take());
        Ok(permit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn admission_is_bounded() {
        let slots = AuditSlots::new(1, 1);
        let first = slots.admit().unwrap();
        let second = slots.admit().unwrap();
        assert_eq!(slots.admit().unwrap_err().code(), "overloaded");
        assert!(slots.admit_background().is_none());
        let permit = first.ready().await.unwrap();
        drop(permit);
        let _permit = second.ready().await.unwrap();
        // The queue place was given back when the second ticket got its slot.
        let third = slots.admit().unwrap();
        drop(third);
        assert_eq!((slots.running(), slots.waiting()), (1, 0));
    }

    #[tokio::test]
    async fn batches_take_every_place_or_none() {
        let slots = AuditSlots::new(1, 3);
        let held = slots.admit_many(2).unwrap();
        assert_eq!((slots.running(), slots.waiting()), (1, 1));
        // Three more do not fit in the two places left: none is kept.
        assert_eq!(slots.admit_many(3).unwrap_err().code(), "overloaded");
        assert_eq!(slots.waiting(), 1);
        drop(held);
        assert_eq!((slots.running(), slots.waiting()), (0, 0));
    }

    #[tokio::test]
    async fn without_a_queue_background_work_takes_a_free_slot() {
        let slots = AuditSlots::new(1, 0);
        let first = slots.admit_background().expect("a free slot");
        assert!(slots.admit_background().is_none());
        drop(first);
        assert!(slots.admit_background().is_some());
    }

    #[tokio::test]
    async fn background_work_leaves_half_the_queue_to_clients() {
        let slots = AuditSlots::new(1, 4);
        let _running = slots.admit().unwrap();
        let _a = slots.admit_background().unwrap();
        let _b = slots.admit_background().unwrap();
        // Two of four places wait: background work is deferred, clients still get in.
        assert!(slots.admit_background().is_none());
        let _client = slots.admit().unwrap();
        let refused = slots.admit_background_within(std::time::Duration::from_millis(1)).await;
        assert_eq!(refused.unwrap_err().code(), "overloaded");
    }
}
