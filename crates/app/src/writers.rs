//! Writes made behind or on behalf of waiting callers, gathered so that one transaction
//! carries many: the audit writer (a group commit of stored audits) and the quota grants
//! written behind the caller's back. Neither knows the [`crate::App`] that owns it.

use time::OffsetDateTime;

/// What an audit waiting to be written is answered with.
type Written = Result<(store::StoredAudit, store::Enqueued), store::Error>;

/// Audits waiting to be stored, written in batches: while one transaction is being written,
/// the audits that arrive wait and go together into the next one (a group commit: one
/// commit, and each shared index page written once, for many audits). Each caller still
/// waits for its own audit's commit, as it would alone.
#[derive(Default)]
pub(crate) struct AuditWriter {
    state: std::sync::Mutex<WriterState>,
}

#[derive(Default)]
struct WriterState {
    pending: Vec<(store::NewAudit, store::EventData, tokio::sync::oneshot::Sender<Written>)>,
    writing: bool,
}

/// Most audits in one transaction: a bound on how long the first of them waits.
const MAX_BATCH: usize = 64;

impl AuditWriter {
    /// Queues an audit; `true` when the caller must start the writer (none is running).
    pub(crate) fn add(
        &self,
        new: store::NewAudit,
        data: store::EventData,
        done: tokio::sync::oneshot::Sender<Written>,
    ) -> bool {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        state.pending.push((new, data, done));
        !std::mem::replace(&mut state.writing, true)
    }

    /// Writes batches until none is waiting (on a blocking thread).
    pub(crate) fn run(&self, store: &store::Store) {
        /// Should a write panic, the next audit starts a new writer (the audits of the
        /// batch that panicked are answered with an error: their senders are dropped).
        struct Stopped<'a>(&'a AuditWriter);
        impl Drop for Stopped<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).writing = false;
                }
            }
        }
        let _stopped = Stopped(self);
        loop {
            let batch = {
                let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if state.pending.is_empty() {
                    state.writing = false;
                    return;
                }
                let take = state.pending.len().min(MAX_BATCH);
                state.pending.drain(..take).collect::<Vec<_>>()
            };
            let (rows, answers): (Vec<_>, Vec<_>) =
                batch.into_iter().map(|(new, data, done)| ((new, data), done)).unzip();
            for (answer, written) in answers.into_iter().zip(store.insert_audits(rows)) {
                // A caller that went away no longer waits; its audit is stored all the same.
                let _ = answer.send(written);
            }
        }
    }
}

/// Quota grants waiting to be written ([`crate::App::record_usage`]): summed per identity and
/// minute while one writer is busy.
#[derive(Debug, Default)]
pub(crate) struct UsageBuffer {
    state: std::sync::Mutex<UsageState>,
}

#[derive(Debug, Default)]
struct UsageState {
    /// Units and the first grant's time, per identity and minute.
    pending: std::collections::HashMap<(String, i64), (u32, OffsetDateTime)>,
    writing: bool,
}

impl UsageBuffer {
    /// Adds a grant; `true` when the caller must start the writer (none is running).
    pub(crate) fn add(&self, identity: &str, units: u32, at: OffsetDateTime) -> bool {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let minute = at.unix_timestamp().div_euclid(60);
        let grant = state.pending.entry((identity.to_string(), minute)).or_insert((0, at));
        grant.0 = grant.0.saturating_add(units);
        !std::mem::replace(&mut state.writing, true)
    }

    /// The grants to write next, or `None` (and the writer stops) when there are none.
    pub(crate) fn take(&self) -> Option<Vec<(String, u32, OffsetDateTime)>> {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if state.pending.is_empty() {
            state.writing = false;
            return None;
        }
        Some(
            std::mem::take(&mut state.pending)
                .into_iter()
                .map(|((identity, _), (units, at))| (identity, units, at))
                .collect(),
        )
    }
}

#[cfg(test)]
mod usage_tests {
    use super::*;

    #[test]
    fn grants_are_summed_per_identity_and_minute_while_a_writer_runs() {
        let buffer = UsageBuffer::default();
        let t = time::macros::datetime!(2026-05-01 12:00:10 UTC);
        assert!(buffer.add("ip:1", 1, t), "the first grant starts the writer");
        assert!(!buffer.add("ip:1", 2, t + time::Duration::seconds(5)), "one writer at a time");
        assert!(!buffer.add("ip:2", 1, t));
        assert!(!buffer.add("ip:1", 1, t + time::Duration::minutes(1)));
        let mut grants: Vec<(String, u32, OffsetDateTime)> = buffer.take().unwrap();
        grants.sort_by_key(|(i, _, at)| (i.clone(), *at));
        let one_minute_later = t + time::Duration::minutes(1);
        assert_eq!(
            grants,
            [("ip:1".to_string(), 3, t), ("ip:1".to_string(), 1, one_minute_later), ("ip:2".to_string(), 1, t)]
        );
        // Drained: the writer stops, and the next grant starts a new one.
        assert!(buffer.take().is_none());
        assert!(buffer.add("ip:1", 1, t));
    }
}
