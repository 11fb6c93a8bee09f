//! The webhook outbox against real SQLite and PostgreSQL databases: events written with their change,
//! claims and their leases, backoff scheduling, and the per-subscription bound.

use std::time::Duration;

use serde_json::{json, Value};
use store::{
    AttemptOutcome, AttemptRecorded, ClaimLimits, NewAudit, NewRun, NewWebhook, OutboxState, RunState, Store, Tier,
    WorkflowStep, WEBHOOK_DROPPED_PREFIX, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION,
};
use time::OffsetDateTime;

use crate::backend::{both, fresh};

const LIMITS: ClaimLimits =
    ClaimLimits { in_flight_per_subscription: 2, in_flight_total: 3, lease: Duration::from_secs(30) };

fn subscribe(store: &Store, user: &str, events: &[&str]) -> String {
    let events = events.iter().map(|e| (*e).to_string()).collect();
    store
        .create_webhook(NewWebhook { user_id: user.into(), url: "https://hooks.example.com/".into(), events })
        .unwrap()
        .id
        .into_string()
}

fn owner_with_hook(store: &Store) -> (vocab::UserId, String) {
    let user = store.create_user(Tier::Free).unwrap().id;
    let hook = subscribe(store, &user, &["audit.completed"]);
    (user, hook)
}

fn emit(store: &Store, user: &str, n: usize) -> store::Enqueued {
    store.enqueue_webhook_event(user, "audit.completed", json!({ "n": n })).unwrap()
}

fn failure(retryable: bool) -> AttemptOutcome {
    AttemptOutcome { status_code: Some(503), error: None, retryable }
}

fn ok() -> AttemptOutcome {
    AttemptOutcome { status_code: Some(200), error: None, retryable: true }
}

fn payload_n(payload: &str) -> u64 {
    serde_json::from_str::<Value>(payload).unwrap()["data"]["n"].as_u64().unwrap()
}

/// A moment safely after every row written now became due.
fn soon() -> OffsetDateTime {
    OffsetDateTime::now_utc() + time::Duration::seconds(1)
}

both! {
    fn events_are_written_with_the_change_that_fires_them(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (user, hook) = owner_with_hook(store);
        let other_event = subscribe(store, &user, &["workflow.completed"]);
        let disabled = subscribe(store, &user, &["audit.completed"]);
        store.set_webhook_enabled(&user, &disabled, false).unwrap();

        let mut new = NewAudit::new("https://example.com/", "https://example.com/", 90, "1", "{}");
        new.user_id = Some(user.clone());
        let (audit, enqueued) =
            store.insert_audit_with_event(new, |a| json!({ "auditId": a.id, "score": a.score })).unwrap();
        assert_eq!((enqueued.pending, enqueued.dropped), (1, 0));
        let rows = store.webhook_outbox(&hook).unwrap();
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        assert_eq!((row.state, row.attempts, row.event.as_str()), (OutboxState::Pending, 0, "audit.completed"));
        assert_eq!(Some(&row.event_id), enqueued.event_id.as_ref());
        let body: Value = serde_json::from_str(&row.payload).unwrap();
        assert_eq!(body["id"], row.event_id.as_str(), "the body carries the event id");
        assert_eq!(body["event"], "audit.completed");
        assert_eq!(body["data"], json!({ "auditId": audit.id, "score": 90 }));
        assert!(store.webhook_outbox(&other_event).unwrap().is_empty(), "not subscribed to audits");
        assert!(store.webhook_outbox(&disabled).unwrap().is_empty(), "disabled");

        // An audit without an owner fires nothing.
        let (_, none) = store
            .insert_audit_with_event(NewAudit::new("https://a.example/", "https://a.example/", 1, "1", "{}"), |_| json!({}))
            .unwrap();
        assert_eq!(none, store::Enqueued::default());

        // Workflow state changes: the completion and the gate (with its step) each in one write.
        let run = store
            .create_run(NewRun {
                user_id: Some(user.clone()),
                intent: store::Intent::Fix,
                url: "https://example.com/".into(),
                competitor_url: None,
                top_n: None,
            })
            .unwrap();
        let gate = WorkflowStep {
            idx: 1,
            name: store::GATE_STEP.into(),
            status: store::StepStatus::Running,
            started_at: None,
            finished_at: None,
            result_json: None,
        };
        let (approval, gated) = store
            .open_approval_with_event(&run.id, |a| {
                (WorkflowStep { result_json: Some(json!({ "approvalId": a.id }).to_string()), ..gate.clone() }, json!({}))
            })
            .unwrap();
        assert_eq!(gated.pending, 0, "nobody subscribed to the gate");
        let stored = store.get_run(&run.id).unwrap();
        assert_eq!(stored.state, RunState::AwaitingApproval);
        assert!(stored.steps[0].result_json.as_deref().unwrap().contains(approval.id.as_str()));
        let done = store
            .set_run_state_with_event(&run.id, RunState::Completed, "workflow.completed", json!({ "runId": run.id }))
            .unwrap();
        assert_eq!(done.pending, 1);
        assert_eq!(store.get_run(&run.id).unwrap().state, RunState::Completed);
        assert_eq!(store.webhook_outbox(&other_event).unwrap()[0].event, "workflow.completed");

        // A monitor's alert goes to the monitor's owner.
        let alerts = subscribe(store, &user, &["monitor.alert"]);
        let monitor = store.create_monitor(&user, "https://example.com/", 60, OffsetDateTime::now_utc()).unwrap();
        let (alert, raised) = store
            .insert_alert_with_event(&monitor.id, "score_drop", "warning", "down", |a| json!({ "alertId": a.id }))
            .unwrap();
        assert_eq!(raised.pending, 1);
        assert!(store.webhook_outbox(&alerts).unwrap()[0].payload.contains(alert.id.as_str()));

        // Unknown events are refused.
        assert!(store.enqueue_webhook_event(&user, "audit.finished", json!({})).unwrap_err().is_invalid());
    }
}

both! {
    fn claims_take_turns_and_keep_to_the_bounds(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (a_user, a) = owner_with_hook(store);
        let (b_user, b) = owner_with_hook(store);
        for n in 0..5 {
            emit(store, &a_user, n);
        }
        emit(store, &b_user, 100);
        let now = soon();
        let claimed = store.claim_webhook_deliveries("w1", now, LIMITS).unwrap();
        let order: Vec<(&str, u64)> =
            claimed.iter().map(|c| (if c.webhook_id == a { "a" } else { "b" }, payload_n(&c.payload))).collect();
        // Each subscription's oldest first, then A's second: B is not stuck behind A's backlog.
        assert_eq!(order, [("a", 0), ("b", 100), ("a", 1)]);
        assert!(claimed.iter().all(|c| c.attempt == 1 && c.claimed_until > now));
        // All three places are taken, whoever asks.
        assert!(store.claim_webhook_deliveries("w1", now, LIMITS).unwrap().is_empty());
        assert!(store.claim_webhook_deliveries("w2", now, LIMITS).unwrap().is_empty());
        let stats = store.webhook_outbox_stats(now).unwrap();
        assert_eq!((stats.pending, stats.in_flight, stats.subscriptions), (6, 3, 2));

        // B's delivery ends: its place goes to A, which still may not exceed its 2.
        let b_claim = claimed.iter().find(|c| c.webhook_id == b).unwrap();
        let recorded = store.record_webhook_attempt(&b_claim.id, "w1", now, &ok(), Duration::from_secs(1)).unwrap();
        assert_eq!(recorded, AttemptRecorded::Updated { state: OutboxState::Delivered, next_attempt_at: None });
        assert!(store.claim_webhook_deliveries("w1", now, LIMITS).unwrap().is_empty(), "A has 2 in flight");
        let a_claim = &claimed[0];
        store.record_webhook_attempt(&a_claim.id, "w1", now, &ok(), Duration::from_secs(1)).unwrap();
        let next = store.claim_webhook_deliveries("w1", now, LIMITS).unwrap();
        assert_eq!(next.iter().map(|c| payload_n(&c.payload)).collect::<Vec<_>>(), [2]);
        assert_eq!(store.pending_webhook_deliveries(&a).unwrap(), 4);
        assert_eq!(store.pending_webhook_deliveries(&b).unwrap(), 0);

        // A subscription disabled after its event was written: the row waits, and still counts.
        emit(store, &b_user, 101);
        store.set_webhook_enabled(&b_user, &b, false).unwrap();
        assert!(store.claim_webhook_deliveries("w1", soon(), LIMITS).unwrap().is_empty(), "A is full, B disabled");
        assert_eq!(store.pending_webhook_deliveries(&b).unwrap(), 1);
        // Disabled, it gets no new rows.
        assert_eq!(emit(store, &b_user, 102), store::Enqueued::default());
        store.set_webhook_enabled(&b_user, &b, true).unwrap();
        let resumed = store.claim_webhook_deliveries("w1", soon(), LIMITS).unwrap();
        assert_eq!(resumed.iter().map(|c| payload_n(&c.payload)).collect::<Vec<_>>(), [101]);
    }
}

both! {
    fn an_expired_lease_is_claimed_again_and_the_late_worker_is_superseded(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (user, hook) = owner_with_hook(store);
        emit(store, &user, 0);
        let t0 = soon();
        let first = store.claim_webhook_deliveries("dead", t0, LIMITS).unwrap();
        assert_eq!(first.len(), 1);
        // Until the lease runs out, nobody else gets the row; the wake-up time is its expiry.
        let during = t0 + time::Duration::seconds(29);
        assert!(store.claim_webhook_deliveries("alive", during, LIMITS).unwrap().is_empty());
        assert_eq!(store.next_webhook_wakeup(during).unwrap(), Some(first[0].claimed_until));
        let after = t0 + time::Duration::seconds(31);
        let again = store.claim_webhook_deliveries("alive", after, LIMITS).unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!((again[0].id.as_str(), again[0].attempt), (first[0].id.as_str(), 1));
        assert_eq!(again[0].event_id, first[0].event_id, "the same event id on the new claim");
        // The worker whose lease expired reports late: its attempt is logged, the row is not its.
        let late = store.record_webhook_attempt(&first[0].id, "dead", after, &ok(), Duration::from_secs(1)).unwrap();
        assert_eq!(late, AttemptRecorded::Superseded);
        assert_eq!(store.webhook_outbox(&hook).unwrap()[0].state, OutboxState::Pending);
        let done = store.record_webhook_attempt(&again[0].id, "alive", after, &ok(), Duration::from_secs(1)).unwrap();
        assert_eq!(done, AttemptRecorded::Updated { state: OutboxState::Delivered, next_attempt_at: None });
        assert_eq!(store.list_deliveries(&hook, 10).unwrap().len(), 2, "both attempts are in the log");
        assert_eq!(store.next_webhook_wakeup(after).unwrap(), None);
    }
}

both! {
    fn failed_attempts_back_off_with_jitter_until_the_last(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (user, hook) = owner_with_hook(store);
        emit(store, &user, 0);
        let base = Duration::from_secs(10);
        let mut now = soon();
        for attempt in 1..=WEBHOOK_MAX_ATTEMPTS {
            let claimed = store.claim_webhook_deliveries("w", now, LIMITS).unwrap();
            assert_eq!(claimed.len(), 1, "attempt {attempt} is due");
            assert_eq!(claimed[0].attempt, attempt);
            let recorded = store.record_webhook_attempt(&claimed[0].id, "w", now, &failure(true), base).unwrap();
            if attempt == WEBHOOK_MAX_ATTEMPTS {
                assert_eq!(recorded, AttemptRecorded::Updated { state: OutboxState::Failed, next_attempt_at: None });
                break;
            }
            let AttemptRecorded::Updated { state: OutboxState::Pending, next_attempt_at: Some(next) } = recorded else {
                panic!("attempt {attempt}: {recorded:?}");
            };
            // base * 2^(attempt-1), plus at most a quarter of it (the jitter), to the millisecond.
            let backoff = time::Duration::try_from(store::webhook_backoff(base, attempt)).unwrap();
            let waited = next - now;
            assert!(waited >= backoff - time::Duration::milliseconds(1), "attempt {attempt}: {waited}");
            assert!(waited <= backoff * 1.25 + time::Duration::milliseconds(1), "attempt {attempt}: {waited}");
            // Not before it is due; the dispatcher is told when to wake.
            let early = next - time::Duration::milliseconds(5);
            assert!(store.claim_webhook_deliveries("w", early, LIMITS).unwrap().is_empty());
            assert_eq!(store.next_webhook_wakeup(now).unwrap(), Some(next));
            now = next;
        }
        let log = store.list_deliveries(&hook, 10).unwrap();
        let mut attempts: Vec<u32> = log.iter().map(|d| d.attempt).collect();
        attempts.sort_unstable();
        assert_eq!(attempts, (1..=WEBHOOK_MAX_ATTEMPTS).collect::<Vec<_>>());
        assert!(store.claim_webhook_deliveries("w", now + time::Duration::days(1), LIMITS).unwrap().is_empty());

        // The jitter draws differ from one delivery to the next, within the same bounds.
        let draws: Vec<Duration> = (0..20).map(|_| store::webhook_retry_delay(base, 1, rand_unit())).collect();
        assert!(draws.iter().all(|d| *d >= base && *d <= base.mul_f64(1.25)));

        // A failure that may not be retried ends the delivery at once.
        emit(store, &user, 1);
        let claimed = store.claim_webhook_deliveries("w", soon(), LIMITS).unwrap();
        let recorded = store.record_webhook_attempt(&claimed[0].id, "w", soon(), &failure(false), base).unwrap();
        assert_eq!(recorded, AttemptRecorded::Updated { state: OutboxState::Failed, next_attempt_at: None });
    }
}

fn rand_unit() -> f64 {
    // A cheap spread of units in [0, 1) without another dependency.
    f64::from(OffsetDateTime::now_utc().nanosecond() % 1000) / 1000.0
}

both! {
    fn a_full_subscription_drops_the_newest_event_and_logs_it(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (user, hook) = owner_with_hook(store);
        let (other_user, other) = owner_with_hook(store);
        for n in 0..WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION {
            assert_eq!(emit(store, &user, n).pending, 1, "event {n}");
        }
        let refused = emit(store, &user, 999);
        assert_eq!((refused.pending, refused.dropped), (0, 1));
        assert_eq!(store.pending_webhook_deliveries(&hook).unwrap(), WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION);
        let rows = store.webhook_outbox(&hook).unwrap();
        let dropped = rows.last().unwrap();
        assert_eq!((dropped.state, payload_n(&dropped.payload)), (OutboxState::Dropped, 999));
        let log = store.list_deliveries(&hook, 10).unwrap();
        assert_eq!(log.len(), 1, "only the refusal is logged so far");
        assert!(log[0].error.as_deref().unwrap().starts_with(WEBHOOK_DROPPED_PREFIX), "{log:?}");
        assert_eq!((log[0].attempt, log[0].status_code, payload_n(&log[0].payload)), (1, None, 999));
        // Another subscription is not affected by this one's bound.
        assert_eq!(emit(store, &other_user, 0).pending, 1);
        assert_eq!(store.pending_webhook_deliveries(&other).unwrap(), 1);

        // Once a delivery ends there is room again (in flight and retrying rows count as held).
        let now = soon();
        let claimed = store.claim_webhook_deliveries("w", now, LIMITS).unwrap();
        let mine = claimed.iter().find(|c| c.webhook_id == hook).unwrap();
        store.record_webhook_attempt(&mine.id, "w", now, &failure(true), Duration::from_secs(1)).unwrap();
        assert_eq!(emit(store, &user, 1000).dropped, 1, "a row waiting for its retry is still held");
        let retry = soon() + time::Duration::seconds(5);
        let claimed = store.claim_webhook_deliveries("w", retry, LIMITS).unwrap();
        // Rows are claimed in the order they became due: the retry waits behind older ones.
        let mine = claimed.iter().find(|c| c.webhook_id == hook).unwrap();
        assert_eq!(mine.attempt, 1);
        store.record_webhook_attempt(&mine.id, "w", retry, &ok(), Duration::from_secs(1)).unwrap();
        assert_eq!(emit(store, &user, 1001).pending, 1);

        // Finished rows are pruned after a while, pending ones never; deleting the subscription
        // takes its rows with it.
        let pruned = store.prune_webhook_outbox(OffsetDateTime::now_utc() + time::Duration::days(1)).unwrap();
        assert_eq!(pruned, 3, "two dropped, one delivered");
        assert_eq!(store.pending_webhook_deliveries(&hook).unwrap(), WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION);
        let claimed = store.claim_webhook_deliveries("w", retry, LIMITS).unwrap();
        store.delete_webhook(&user, &hook).unwrap();
        assert!(store.webhook_outbox(&hook).unwrap().is_empty());
        let gone = claimed.iter().find(|c| c.webhook_id == hook).unwrap();
        let recorded = store.record_webhook_attempt(&gone.id, "w", retry, &ok(), Duration::from_secs(1)).unwrap();
        assert_eq!(recorded, AttemptRecorded::Gone);
    }
}

both! {
    fn a_test_event_goes_to_one_subscription_and_the_log_shows_each_delivery(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (user, hook) = owner_with_hook(store);
        let other = subscribe(store, &user, &["audit.completed", "monitor.alert"]);
        let (stranger, _) = owner_with_hook(store);

        // Only its owner may test a subscription; unknown ids are the same refusal.
        assert!(store.enqueue_webhook_test(&stranger, &hook, json!({})).unwrap_err().is_not_found());
        assert!(store.enqueue_webhook_test(&user, "nope", json!({})).unwrap_err().is_not_found());
        let (ping, enqueued) = store.enqueue_webhook_test(&user, &hook, json!({ "n": 1 })).unwrap();
        assert_eq!((enqueued.pending, enqueued.dropped), (1, 0));
        assert_eq!((ping.event.as_str(), ping.state, ping.attempts), (store::WEBHOOK_TEST_EVENT, OutboxState::Pending, 0));
        assert_eq!(Some(&ping.event_id), enqueued.event_id.as_ref());
        assert!(ping.next_attempt_at.is_some() && ping.last_status_code.is_none());
        assert!(store.webhook_outbox(&other).unwrap().is_empty(), "the other subscription gets no ping");

        // An event after it is listed first; each entry carries its latest attempt.
        emit(store, &user, 2);
        let claimed = store.claim_webhook_deliveries("w1", soon(), LIMITS).unwrap();
        for c in &claimed {
            let outcome = if c.event == "ping" { ok() } else { failure(true) };
            store.record_webhook_attempt(&c.id, "w1", soon(), &outcome, Duration::from_secs(60)).unwrap();
        }
        let log = store.webhook_delivery_log(&hook, 10).unwrap();
        let seen: Vec<(&str, OutboxState, u32, Option<u16>, bool)> = log
            .iter()
            .map(|d| (d.event.as_str(), d.state, d.attempts, d.last_status_code, d.next_attempt_at.is_some()))
            .collect();
        assert_eq!(
            seen,
            [
                ("audit.completed", OutboxState::Pending, 1, Some(503), true),
                ("ping", OutboxState::Delivered, 1, Some(200), false),
            ]
        );
        assert_eq!(log[1].id, ping.id);
        assert_eq!(store.webhook_delivery_log(&hook, 1).unwrap().len(), 1, "bounded");
    }
}
