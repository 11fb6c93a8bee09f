//! Workflow runs, monitors, alerts, keywords and experiments against real SQLite and PostgreSQL databases.

use crate::backend::{both, fresh};
use store::{
    NewExperiment, NewRun, Recovered, RunState, Store, Tier, WorkflowStep, GATE_STEP, INTERRUPTED, MAX_RESUMES,
};
use time::macros::datetime;

fn run(store: &Store, user: &str, intent: &str) -> store::WorkflowRun {
    store
        .create_run(NewRun {
            user_id: Some(user.into()),
            intent: intent.parse().unwrap(),
            url: "https://example.com/".into(),
            competitor_url: None,
            top_n: Some(5),
        })
        .unwrap()
}

both! {
    fn a_fix_run_goes_through_its_approval_gate(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        let r = run(store, &user, "fix");
        assert_eq!(r.state, RunState::Queued);
        assert_eq!(serde_json::to_value(&r).unwrap()["state"], "queued");

        store.set_run_state(&r.id, RunState::Running).unwrap();
        let step = WorkflowStep {
            idx: 0,
            name: "audit".into(),
            status: store::StepStatus::Completed,
            started_at: Some(vocab::Timestamp::now()),
            finished_at: Some(vocab::Timestamp::now()),
            result_json: Some(r#"{"score":70}"#.into()),
        };
        store.put_step(&r.id, &step).unwrap();
        let gate = store.open_approval(&r.id).unwrap();
        let got = store.get_run(&r.id).unwrap();
        assert_eq!(got.state, RunState::AwaitingApproval);
        assert_eq!(got.steps, [step]);
        assert_eq!(got.approvals, std::slice::from_ref(&gate));

        for bad in ["maybe", ""] {
            assert!(store.decide_approval(&r.id, &gate.id, bad).unwrap_err().is_invalid());
        }
        assert!(store.decide_approval(&r.id, "nope", "approved").unwrap_err().is_not_found());
        let decided = store.decide_approval(&r.id, &gate.id, "approved").unwrap();
        assert_eq!(decided.decision.as_deref(), Some("approved"));
        assert_eq!(store.get_run(&r.id).unwrap().state, RunState::Running);
        assert!(store.decide_approval(&r.id, &gate.id, "rejected").unwrap_err().is_invalid());

        store.set_run_state(&r.id, RunState::Completed).unwrap();
        assert!(store.get_run(&r.id).unwrap().state.is_terminal());
    }
}

both! {
    fn a_rejected_gate_rejects_the_run(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        let r = run(store, &user, "fix");
        let gate = store.open_approval(&r.id).unwrap();
        store.decide_approval(&r.id, &gate.id, "rejected").unwrap();
        assert_eq!(store.get_run(&r.id).unwrap().state, RunState::Rejected);
    }
}

both! {
    fn runs_unknown_intents_and_failures(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        // Intents are a closed vocabulary: an unknown name does not parse, each known one
        // round-trips through its stored name.
        assert!("dance".parse::<store::Intent>().is_err());
        for &intent in <store::Intent as strum::VariantArray>::VARIANTS {
            assert_eq!(intent.as_str().parse::<store::Intent>().unwrap(), intent);
        }
        let mut bad = NewRun {
            user_id: Some(user.clone()),
            intent: store::Intent::Competitor,
            url: "https://example.com/".into(),
            competitor_url: None,
            top_n: None,
        };
        bad.user_id = Some("ghost".into());
        assert!(store.create_run(bad).is_err(), "foreign key on the owner");

        assert!(store.get_run("nope").unwrap_err().is_not_found());
        assert!(store.set_run_state("nope", RunState::Running).unwrap_err().is_not_found());
        assert!(store.open_approval("nope").unwrap_err().is_not_found());
        let step = WorkflowStep {
            idx: 0,
            name: "audit".into(),
            status: store::StepStatus::Running,
            started_at: None,
            finished_at: None,
            result_json: None,
        };
        assert!(store.put_step("nope", &step).unwrap_err().is_not_found());

        let r = run(store, &user, "audit");
        store.fail_run(&r.id, "audit", "target_timeout").unwrap();
        let failed = store.get_run(&r.id).unwrap();
        assert_eq!(failed.state, RunState::Failed);
        assert_eq!(failed.error_step.as_deref(), Some("audit"));
        assert_eq!(failed.error_reason.as_deref(), Some("target_timeout"));
    }
}

fn step(idx: u32, name: &str, status: &str) -> WorkflowStep {
    WorkflowStep {
        idx,
        name: name.into(),
        status: status.parse().unwrap(),
        started_at: (status != "pending").then(|| vocab::Timestamp::parse("2026-01-01T00:00:00Z").unwrap()),
        finished_at: (status == "completed").then(|| vocab::Timestamp::parse("2026-01-01T00:00:01Z").unwrap()),
        result_json: (status != "pending").then(|| r#"{"partial":true}"#.into()),
    }
}

both! {
    fn a_restart_resumes_unfinished_runs_a_bounded_number_of_times(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        let queued = run(store, &user, "audit");
        let running = run(store, &user, "analyze");
        store.set_run_state(&running.id, RunState::Running).unwrap();
        store.put_step(&running.id, &step(0, "audit", "completed")).unwrap();
        store.put_step(&running.id, &step(1, "analyze", "running")).unwrap();
        let waiting = run(store, &user, "fix");
        store.open_approval(&waiting.id).unwrap();
        let done = run(store, &user, "audit");
        store.set_run_state(&done.id, RunState::Completed).unwrap();

        // Restarts 1..=MAX_RESUMES resume both unfinished runs and leave the others alone.
        for round in 1..=MAX_RESUMES {
            let mut got = store.recover_interrupted_runs().unwrap();
            got.resumed.sort();
            let mut expected = vec![queued.id.clone(), running.id.clone()];
            expected.sort();
            assert_eq!(got, Recovered { resumed: expected, failed: vec![] }, "round {round}");
            let r = store.get_run(&running.id).unwrap();
            assert_eq!((r.state, r.resumes), (RunState::Running, round));
            // What was done stays done; the step cut short is to be run again, from scratch.
            assert_eq!(r.steps[0], step(0, "audit", "completed"));
            assert_eq!(r.steps[1], step(1, "analyze", "pending"));
            // The resumed process gets as far as the same step again before the next restart.
            store.put_step(&running.id, &step(1, "analyze", "running")).unwrap();
        }

        // One restart more: they fail, at the step that was cut short (or the first pending).
        let mut got = store.recover_interrupted_runs().unwrap();
        got.failed.sort();
        let mut expected = vec![queued.id.clone(), running.id.clone()];
        expected.sort();
        assert_eq!(got, Recovered { resumed: vec![], failed: expected });
        let r = store.get_run(&running.id).unwrap();
        assert_eq!(r.state, RunState::Failed);
        assert_eq!((r.error_step.as_deref(), r.error_reason.as_deref()), (Some("analyze"), Some(INTERRUPTED)));
        assert_eq!(r.steps[0].status, store::StepStatus::Completed);
        assert_eq!(r.steps[1].status, store::StepStatus::Failed);
        let q = store.get_run(&queued.id).unwrap();
        assert_eq!((q.state, q.error_reason.as_deref()), (RunState::Failed, Some(INTERRUPTED)));
        for (id, state) in [(&waiting.id, RunState::AwaitingApproval), (&done.id, RunState::Completed)] {
            assert_eq!(store.get_run(id).unwrap().state, state, "{id}");
        }
        assert_eq!(store.recover_interrupted_runs().unwrap(), Recovered::default());
        assert_eq!(store.list_runs(&user, 10).unwrap().len(), 4);
        assert_eq!(store.list_runs(&user, 1).unwrap()[0].id, done.id);
    }
}

both! {
    fn deciding_a_gate_finishes_its_step_in_the_same_transaction(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        for (decision, state, rest) in
            [("approved", RunState::Running, "pending"), ("rejected", RunState::Rejected, "skipped")]
        {
            let r = run(store, &user, "fix");
            store.put_step(&r.id, &step(0, "audit", "completed")).unwrap();
            store.put_step(&r.id, &step(1, GATE_STEP, "running")).unwrap();
            store.put_step(&r.id, &step(2, "finalize", "pending")).unwrap();
            let gate = store.open_approval(&r.id).unwrap();
            store.decide_approval(&r.id, &gate.id, decision).unwrap();
            let after = store.get_run(&r.id).unwrap();
            assert_eq!(after.state, state, "{decision}");
            let statuses: Vec<&str> = after.steps.iter().map(|s| s.status.as_str()).collect();
            assert_eq!(statuses, ["completed", "completed", rest], "{decision}");
            assert!(after.steps[1].finished_at.is_some());
        }
    }
}

both! {
    fn monitors_schedule_and_alert(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        let t = datetime!(2026-05-01 12:00:00 UTC);
        let day = store::DEFAULT_MONITOR_INTERVAL_S;
        let a = store.create_monitor(&user, "https://a.test/", day, t).unwrap();
        let b = store.create_monitor(&user, "https://b.test/", day, t + time::Duration::hours(1)).unwrap();
        let err = store.create_monitor(&user, "https://a.test/", day, t).unwrap_err();
        assert!(err.is_conflict(), "{err}");
        assert!(store.create_monitor(&user, "https://c.test/", 0, t).unwrap_err().is_invalid());

        let due = |at| store.due_monitors(at).unwrap().into_iter().map(|m| m.id).collect::<Vec<_>>();
        assert_eq!(due(t - time::Duration::seconds(1)), Vec::<String>::new());
        assert_eq!(due(t), std::slice::from_ref(&a.id));
        assert_eq!(due(t + time::Duration::hours(2)), [a.id.clone(), b.id.clone()]);
        store.reschedule_monitor(&a.id, t + time::Duration::days(1)).unwrap();
        assert_eq!(due(t + time::Duration::hours(2)), std::slice::from_ref(&b.id));

        let alert = store.insert_alert(&a.id, "score_drop", "warning", "score fell from 80 to 70").unwrap();
        let newer = store.insert_alert(&a.id, "unreachable", "critical", "timeout").unwrap();
        assert_eq!(store.recent_alerts(&a.id, 10).unwrap(), [newer.clone(), alert.clone()]);
        assert_eq!(store.list_monitors(&user).unwrap().len(), 2);
        // The owner's alert list: the monitor's alerts, newest first, with their source and
        // monitor; paged by (created_at, id); another owner's list is empty.
        let listed = store.list_alerts(&user, &store::AlertFilter::default(), 10).unwrap();
        // Newest first, and by id among alerts of one millisecond (the cursor's order).
        let key = |l: &store::OwnedAlert| (l.created_at, l.id.clone());
        assert_eq!(listed.len(), 2);
        assert!(key(&listed[0]) > key(&listed[1]), "{listed:?}");
        let mut ids: Vec<&str> = listed.iter().map(|l| l.id.as_str()).collect();
        ids.sort_unstable();
        let mut raised = [newer.id.as_str(), alert.id.as_str()];
        raised.sort_unstable();
        assert_eq!(ids, raised);
        let monitor = a.id.clone();
        assert!(listed.iter().all(|l| l.source == store::AlertSource::Monitor
            && l.monitor_id.as_deref() == Some(monitor.as_str())
            && l.schedule_id.is_none()
            && l.url == "https://a.test/"));
        let before = Some((listed[0].created_at, listed[0].id.clone()));
        let next = store.list_alerts(&user, &store::AlertFilter { before, ..Default::default() }, 10).unwrap();
        assert_eq!(next, [listed[1].clone()]);
        let schedules_only = store::AlertFilter { source: Some(store::AlertSource::Schedule), before: None };
        assert!(store.list_alerts(&user, &schedules_only, 10).unwrap().is_empty());

        let other = store.create_user(Tier::Free).unwrap().id;
        assert!(store.delete_monitor(&other, &a.id).unwrap_err().is_not_found());
        assert!(store.list_alerts(&other, &store::AlertFilter::default(), 10).unwrap().is_empty());
        store.delete_monitor(&user, &a.id).unwrap();
        assert!(store.recent_alerts(&a.id, 10).unwrap().is_empty());
        assert!(store.list_alerts(&user, &store::AlertFilter::default(), 10).unwrap().is_empty());
        assert!(store.reschedule_monitor(&a.id, t).unwrap_err().is_not_found());
    }
}

both! {
    fn keywords_are_unique_per_user_and_target(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        store.add_keyword(&user, "seo audit", "https://a.test/").unwrap();
        store.add_keyword(&user, " seo audit ", "https://b.test/").unwrap();
        store.add_keyword(&user, "rust", "https://a.test/").unwrap();
        assert!(store.add_keyword(&user, "seo audit", "https://a.test/").unwrap_err().is_conflict());
        assert!(store.add_keyword(&user, "  ", "https://a.test/").unwrap_err().is_invalid());
        let other = store.create_user(Tier::Free).unwrap().id;
        store.add_keyword(&other, "seo audit", "https://a.test/").unwrap();

        assert_eq!(store.list_keywords(&user).unwrap().len(), 3);
        assert_eq!(store.remove_keyword(&user, "seo audit").unwrap(), 2);
        assert!(store.remove_keyword(&user, "seo audit").unwrap_err().is_not_found());
        let left: Vec<String> = store.list_keywords(&user).unwrap().into_iter().map(|k| k.keyword).collect();
        assert_eq!(left, ["rust"]);
        assert_eq!(store.list_keywords(&other).unwrap().len(), 1);
    }
}

both! {
    fn experiments_keep_their_baseline(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap().id;
        let audit =
            store.insert_audit(store::NewAudit::new("https://a.test/", "https://a.test/", 64, "1.0.0", "{}")).unwrap();
        let new = NewExperiment {
            user_id: user.clone(),
            title: "Longer titles".into(),
            hypothesis: "A descriptive title raises the score".into(),
            url: "https://a.test/".into(),
            experiment_type: Some("title".into()),
            metric_target: Some("score >= 70".into()),
            baseline_audit_id: Some(audit.id.clone()),
            baseline_value: Some(64.0),
        };
        let exp = store.create_experiment(new.clone()).unwrap();
        assert_eq!(store.list_experiments(&user).unwrap(), [exp]);
        let mut empty = new.clone();
        empty.title = " ".into();
        assert!(store.create_experiment(empty).unwrap_err().is_invalid());
        let mut dangling = new;
        dangling.baseline_audit_id = Some("no-such-audit".into());
        assert!(store.create_experiment(dangling).is_err(), "foreign key on the baseline");
    }
}
