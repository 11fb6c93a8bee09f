//! Several store handles on one database, as several replicas hold them
//! (docs/ARCHITECTURE.md, "Replicas"): the quota counter grants exactly its limit to
//! concurrent consumers, and each due monitor, workflow run and webhook delivery goes to
//! exactly one of the claimers; a claim whose lease ran out is taken over.
//!
//! Each test runs on SQLite (two handles on one file) and on PostgreSQL (two handles on one
//! fresh database of the test process's server), each handle with its own pool.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use serde_json::json;
use store::{AttemptOutcome, ClaimLimits, Consumption, NewRun, NewWebhook, Store, Tier, WorkflowStep};
use time::macros::datetime;
use time::OffsetDateTime;

use crate::backend::{both, fresh, Backend, Fresh};

/// Two handles (two connection pools, as two processes hold them) on one fresh database of
/// `backend`; `None` when the backend is not there to test on (see [`fresh`]).
fn pair(backend: Backend) -> Option<(Fresh, Store, Store)> {
    let f = fresh(backend)?;
    let (a, b) = (f.store.clone(), f.open_again());
    Some((f, a, b))
}

/// Runs `work(store, thread)` on `threads` threads at once, alternating between the two
/// handles, and returns what each gave.
fn at_once<T: Send + 'static>(
    a: &Store,
    b: &Store,
    threads: usize,
    work: impl Fn(&Store, usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let (work, start) = (Arc::new(work), Arc::new(Barrier::new(threads)));
    let handles: Vec<_> = (0..threads)
        .map(|i| {
            let store = if i % 2 == 0 { a.clone() } else { b.clone() };
            let (work, start) = (work.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                work(&store, i)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

both! {
    fn the_quota_counter_grants_exactly_its_limit_to_concurrent_consumers(backend) {
        let Some((_f, a, b)) = pair(backend) else { return };
        let at = datetime!(2026-05-01 12:00:10 UTC);
        // 16 threads, 10 requests each, one unit a request, 50 allowed: 110 refusals.
        let results = at_once(&a, &b, 16, move |store, _| {
            (0..10).map(|_| store.consume("key:shared", 1, 50, at).unwrap()).collect::<Vec<_>>()
        });
        let all: Vec<Consumption> = results.into_iter().flatten().collect();
        let granted: Vec<u64> = all
            .iter()
            .filter_map(|c| match c {
                Consumption::Allowed { this_minute } => Some(*this_minute),
                Consumption::Denied { .. } => None,
            })
            .collect();
        assert_eq!(granted.len(), 50, "{backend:?}: granted");
        // Each grant saw its own count: 1 to 50, once each.
        let mut counts = granted.clone();
        counts.sort_unstable();
        assert_eq!(counts, (1..=50).collect::<Vec<u64>>(), "{backend:?}");
        for c in &all {
            if let Consumption::Denied { this_minute, retry_after_s } = c {
                assert_eq!((*this_minute, *retry_after_s), (50, 50), "{backend:?}: a refusal reports the count");
            }
        }
        assert_eq!(a.usage_counts("key:shared", at).unwrap().this_minute, 50, "{backend:?}");
        // A batch that does not fit is refused whole and writes nothing; one that fits a
        // fresh minute is granted whole.
        let next = at + time::Duration::minutes(1);
        assert_eq!(
            b.consume("key:shared", 51, 50, next).unwrap(),
            Consumption::Denied { this_minute: 0, retry_after_s: 50 }
        );
        assert_eq!(a.consume("key:shared", 50, 50, next).unwrap(), Consumption::Allowed { this_minute: 50 });
        assert_eq!(
            b.consume("key:shared", 1, 50, next).unwrap(),
            Consumption::Denied { this_minute: 50, retry_after_s: 50 }
        );
    }
}

both! {
    fn each_due_monitor_is_claimed_by_one_store_and_taken_over_when_its_lease_runs_out(backend) {
        let Some((_f, a, b)) = pair(backend) else { return };
        let user = a.create_user(Tier::Free).unwrap().id;
        let t = datetime!(2026-05-01 12:00:00 UTC);
        let mut ids = HashSet::new();
        for i in 0..40 {
            let m = a.create_monitor(&user, &format!("https://m{i}.test/"), 3600, t).unwrap();
            ids.insert(m.id);
        }
        let lease_until = t + time::Duration::seconds(30);
        // 8 claimers, 3 monitors a claim, until nothing is due.
        let claimed = at_once(&a, &b, 8, move |store, _| {
            let mut mine = Vec::new();
            loop {
                let got = store.claim_due_monitors(t, lease_until, 3).unwrap();
                if got.is_empty() {
                    return mine;
                }
                assert!(got.len() <= 3);
                for m in got {
                    assert_eq!(m.next_run_at, lease_until, "returned with its lease");
                    mine.push(m.id);
                }
            }
        });
        let all: Vec<_> = claimed.iter().flatten().cloned().collect();
        assert_eq!(all.len(), 40, "{backend:?}: no monitor claimed twice");
        assert_eq!(all.into_iter().collect::<HashSet<_>>(), ids, "{backend:?}: every monitor claimed");

        // While the lease holds nothing is due; once it ran out (the claimer died), the
        // other store takes the monitors over; a check that ended set the next run.
        assert!(b.claim_due_monitors(lease_until - time::Duration::seconds(1), t, 100).unwrap().is_empty());
        let done = ids.iter().next().unwrap().clone();
        a.reschedule_monitor(&done, t + time::Duration::hours(1)).unwrap();
        let later = lease_until + time::Duration::seconds(1);
        let taken: HashSet<_> = b
            .claim_due_monitors(later, later + time::Duration::seconds(30), 100)
            .unwrap()
            .into_iter()
            .map(|m| m.id)
            .collect();
        assert_eq!(taken.len(), 39, "{backend:?}");
        assert!(!taken.contains(&done), "{backend:?}: the finished check's monitor is not due");
        assert!(a.claim_due_monitors(later, later, 100).unwrap().is_empty(), "{backend:?}: taken over once");
    }
}

fn new_run(user: &str) -> NewRun {
    NewRun {
        user_id: Some(user.into()),
        intent: store::Intent::Audit,
        url: "https://example.com/".into(),
        competitor_url: None,
        top_n: None,
    }
}

fn running_step(idx: u32, name: &str) -> WorkflowStep {
    WorkflowStep {
        idx,
        name: name.into(),
        status: store::StepStatus::Running,
        started_at: Some(vocab::Timestamp::now()),
        finished_at: None,
        result_json: None,
    }
}

both! {
    fn each_run_is_adopted_by_one_store_and_a_lapsed_lease_is_taken_over(backend) {
        let Some((_f, a, b)) = pair(backend) else { return };
        let user = a.create_user(Tier::Free).unwrap().id;
        let now = OffsetDateTime::now_utc();
        let lease = time::Duration::seconds(30);
        // Runs nobody holds (as an older build left them): any sweep may adopt them.
        let mut ids = HashSet::new();
        for _ in 0..20 {
            let run = a.create_run(new_run(&user)).unwrap();
            a.put_step(&run.id, &running_step(0, "audit")).unwrap();
            ids.insert(run.id);
        }
        // One run held by a live replica: nobody adopts it.
        let held = a.create_claimed_run(new_run(&user), "alive", now + lease).unwrap().id;
        let adopted = at_once(&a, &b, 6, move |store, i| {
            let worker = format!("w{i}");
            let got = store.adopt_runs(&worker, Some(now), now + lease).unwrap();
            assert!(got.failed.is_empty());
            (worker, got.resumed)
        });
        let mut owner: HashMap<_, String> = HashMap::new();
        for (worker, runs) in &adopted {
            for run in runs {
                assert!(owner.insert(run.clone(), worker.clone()).is_none(), "{backend:?}: {run} adopted twice");
            }
        }
        assert_eq!(owner.keys().cloned().collect::<HashSet<_>>(), ids, "{backend:?}: every run adopted once");
        for (run, worker) in &owner {
            let got = a.get_run(run).unwrap();
            assert_eq!((got.state, got.resumes), (store::RunState::Running, 1), "{backend:?}");
            assert_eq!(got.steps[0].status, store::StepStatus::Pending, "{backend:?}: the cut step runs again");
            assert_eq!(a.run_lease(run).unwrap().map(|l| l.0), Some(worker.clone()), "{backend:?}");
        }
        assert_eq!(a.run_lease(&held).unwrap().map(|l| l.0).as_deref(), Some("alive"));
        assert_eq!(a.get_run(&held).unwrap().resumes, 0, "{backend:?}: the held run was left alone");

        // The holder renews; a stranger cannot. When the holder stops renewing, the lease
        // runs out and a sweep hands the run to another worker; the old holder learns it
        // at its next renewal.
        assert!(b.renew_run_lease(&held, "alive", now + lease).unwrap());
        assert!(!b.renew_run_lease(&held, "stranger", now + lease).unwrap());
        assert!(b.adopt_runs("other", Some(now + lease - time::Duration::seconds(1)), now).unwrap().resumed.is_empty());
        let lapsed = now + lease + time::Duration::seconds(1);
        let got = b.adopt_runs("other", Some(lapsed), lapsed + lease).unwrap();
        assert!(got.resumed.contains(&held), "{backend:?}: {got:?}");
        assert!(!a.renew_run_lease(&held, "alive", lapsed + lease).unwrap(), "{backend:?}: the old holder lost it");
        a.release_run(&held, "alive").unwrap();
        assert_eq!(a.run_lease(&held).unwrap().map(|l| l.0).as_deref(), Some("other"), "{backend:?}");
        b.release_run(&held, "other").unwrap();
        assert_eq!(a.run_lease(&held).unwrap(), None);
    }
}

both! {
    fn each_webhook_delivery_is_claimed_by_one_store(backend) {
        let Some((_f, a, b)) = pair(backend) else { return };
        let user = a.create_user(Tier::Free).unwrap().id;
        let mut hooks = Vec::new();
        for i in 0..4 {
            let new = NewWebhook {
                user_id: user.clone(),
                url: format!("https://hooks{i}.example.com/"),
                events: vec!["audit.completed".into()],
            };
            hooks.push(a.create_webhook(new).unwrap().id);
        }
        for n in 0..30 {
            a.enqueue_webhook_event(&user, "audit.completed", json!({ "n": n })).unwrap();
        }
        let mut rows = HashSet::new();
        for hook in &hooks {
            rows.extend(a.webhook_outbox(hook).unwrap().into_iter().map(|r| r.id));
        }
        assert_eq!(rows.len(), 120);
        let limits = ClaimLimits { in_flight_per_subscription: 2, in_flight_total: 4, lease: Duration::from_secs(30) };
        // 6 claimers: claim, deliver what was claimed, again, until nothing is pending.
        let all_hooks = hooks.clone();
        let claimed = at_once(&a, &b, 6, move |store, i| {
            let worker = format!("w{i}");
            let mut mine = Vec::new();
            loop {
                let now = OffsetDateTime::now_utc() + time::Duration::seconds(1);
                let got = store.claim_webhook_deliveries(&worker, now, limits).unwrap();
                if got.is_empty() {
                    let pending = all_hooks.iter().any(|h| {
                        store.webhook_outbox(h).unwrap().iter().any(|r| r.state == store::OutboxState::Pending)
                    });
                    if !pending {
                        return mine;
                    }
                    // The others hold the claims the bounds allow: wait for one to end.
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                }
                for claim in got {
                    let ok = AttemptOutcome { status_code: Some(200), error: None, retryable: true };
                    store.record_webhook_attempt(&claim.id, &worker, now, &ok, Duration::from_secs(1)).unwrap();
                    mine.push(claim.id);
                }
            }
        });
        let all: Vec<_> = claimed.iter().flatten().cloned().collect();
        assert_eq!(all.len(), 120, "{backend:?}: no delivery claimed twice");
        assert_eq!(all.into_iter().collect::<HashSet<_>>(), rows, "{backend:?}: every delivery claimed");
        for hook in &hooks {
            assert!(a.webhook_outbox(hook).unwrap().iter().all(|r| r.state == store::OutboxState::Delivered));
        }
    }
}

both! {
    fn a_host_has_four_request_slots_among_all_stores_and_an_expired_slot_is_taken_over(backend) {
        let Some((_f, a, b)) = pair(backend) else { return };
        let (now, until) = (1_000_000, 1_060_000);
        // 16 claimers at once, half on each handle: exactly 4 get a slot, each a different one.
        let got = at_once(&a, &b, 16, move |store, i| {
            (i, store.claim_host_slot("example.com", &format!("r{i}"), 4, now, until).unwrap())
        });
        let mut slots: Vec<u32> = got.iter().filter_map(|(_, slot)| *slot).collect();
        slots.sort_unstable();
        assert_eq!(slots, [0, 1, 2, 3], "{backend:?}");
        assert_eq!(a.host_slots_held("example.com", now).unwrap(), 4);
        assert_eq!(b.claim_host_slot("example.com", "late", 4, now, until).unwrap(), None, "{backend:?}");
        // Another host has its own.
        assert_eq!(b.claim_host_slot("example.org", "late", 4, now, until).unwrap(), Some(0));
        // A slot is given back by its holder only.
        let first = got.iter().find(|(_, slot)| *slot == Some(0)).map(|(i, _)| format!("r{i}")).unwrap();
        a.release_host_slot("example.com", 0, "nobody").unwrap();
        assert_eq!(a.host_slots_held("example.com", now).unwrap(), 4, "{backend:?}");
        b.release_host_slot("example.com", 0, &first).unwrap();
        assert_eq!(a.claim_host_slot("example.com", "again", 4, now, until).unwrap(), Some(0), "{backend:?}");
        // Once expired (a replica died mid-request), the slots are taken over.
        let later = until + 1;
        assert_eq!(a.host_slots_held("example.com", later).unwrap(), 0);
        assert_eq!(b.claim_host_slot("example.com", "heir", 4, later, later + 60_000).unwrap(), Some(0), "{backend:?}");
        b.release_host_slot("example.com", 0, "heir").unwrap();
        assert_eq!(a.claim_host_slot("example.com", "next", 4, later, later + 60_000).unwrap(), Some(0));
    }
}

both! {
    fn a_hosts_next_start_is_reserved_in_turn_and_held_back(backend) {
        let Some((_f, a, b)) = pair(backend) else { return };
        assert_eq!(a.host_next_start("example.com").unwrap(), None);
        // A Crawl-delay of 2 s: each store gets the next start in turn.
        assert_eq!(a.reserve_host_start("example.com", 10_000, 2_000).unwrap(), 10_000);
        assert_eq!(b.reserve_host_start("example.com", 10_500, 2_000).unwrap(), 12_000, "{backend:?}");
        assert_eq!(a.reserve_host_start("example.com", 20_000, 2_000).unwrap(), 20_000, "a start long past waits for nothing");
        assert_eq!(b.host_next_start("example.com").unwrap(), Some(22_000));
        // A 429's back-off holds the host back; an earlier hold never shortens it.
        b.hold_host("example.com", 60_000, 21_000).unwrap();
        a.hold_host("example.com", 30_000, 21_000).unwrap();
        assert_eq!(a.host_next_start("example.com").unwrap(), Some(60_000), "{backend:?}");
        assert_eq!(b.reserve_host_start("example.com", 21_000, 2_000).unwrap(), 60_000);
        // Rows long past are deleted by a later hold.
        a.hold_host("other.example", 10_000_000, 10_000_000).unwrap();
        assert_eq!(a.host_next_start("example.com").unwrap(), None, "{backend:?}");
    }
}
