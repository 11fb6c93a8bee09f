//! Stored AI-readiness answers: the newest public one of a page, private ones never shown,
//! the size guard, and retention by the audits' ages.

use store::{NewReadiness, Store, Tier, MAX_READINESS_RECORD_BYTES};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::backend::{both, fresh};

const T0: OffsetDateTime = datetime!(2026-03-01 12:00 UTC);

fn add(store: &Store, user: Option<&str>, url: &str, minutes: i64, score: i64) -> store::StoredReadiness {
    let mut new = NewReadiness::new(url, url, score, format!("{{\"score\":{score}}}"), user.map(Into::into));
    new.created_at = T0 + Duration::minutes(minutes);
    store.insert_readiness(new).unwrap()
}

both! {
    fn the_newest_public_answer_of_a_page_and_never_a_private_one(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let alice = store.create_user(Tier::Free).unwrap().id;
        assert_eq!(store.latest_public_readiness("a.example", "/").unwrap(), None);
        add(store, None, "https://a.example/", 0, 40);
        let newest = add(store, None, "https://A.example/", 1, 55);
        add(store, None, "https://a.example/other", 2, 60);
        // Newer, but made with a key: private to it.
        let private = add(store, Some(&alice), "https://a.example/", 3, 90);
        assert!(!private.public);

        let found = store.latest_public_readiness("A.EXAMPLE", "/").unwrap().expect("a public answer");
        assert_eq!((found.id.as_str(), found.score, found.public), (newest.id.as_str(), 55, true));
        assert_eq!(found.record_json, "{\"score\":55}");
        assert_eq!((found.host.as_str(), found.path.as_str()), ("a.example", "/"));
        assert_eq!(found.created_at, T0 + Duration::minutes(1));
        assert_eq!(store.latest_public_readiness("a.example", "/other").unwrap().map(|r| r.score), Some(60));
        assert_eq!(store.latest_public_readiness("b.example", "/").unwrap(), None);
    }
}

both! {
    fn a_record_over_its_limit_or_without_a_host_is_refused(b) {
        let Some(f) = fresh(b) else { return };
        let big = "x".repeat(MAX_READINESS_RECORD_BYTES + 1);
        let err = f.store.insert_readiness(NewReadiness::new("https://a.example/", "https://a.example/", 1, big, None));
        assert!(err.unwrap_err().is_invalid());
        let err = f.store.insert_readiness(NewReadiness::new("x", "not a url", 1, "{}".into(), None));
        assert!(err.unwrap_err().is_invalid());
    }
}

both! {
    fn retention_deletes_answers_by_the_audits_ages(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let alice = store.create_user(Tier::Free).unwrap().id;
        let now = OffsetDateTime::now_utc();
        let day = Duration::days(1);
        let at = |user: Option<&str>, age: Duration| {
            let mut new = NewReadiness::new("https://a.example/", "https://a.example/", 50, "{}".into(), user.map(Into::into));
            new.created_at = now - age;
            store.insert_readiness(new).unwrap()
        };
        at(None, 10 * day);
        let kept_anonymous = at(None, day);
        at(Some(&alice), 40 * day);
        at(Some(&alice), 10 * day);
        let policy = store::Retention {
            anonymous_audit_age: 5 * day,
            keyed_audit_age: 30 * day,
            anonymous_crawl_age: 5 * day,
            keyed_crawl_age: 30 * day,
            anonymous_crawls: 100,
            keyed_crawls_per_owner: 100,
            crawl_pages_age: 1000 * day,
        };
        let pruned = store.prune(&policy, now).unwrap();
        assert_eq!(pruned, store::Pruned { readiness: 2, ..store::Pruned::default() });
        assert_eq!(store.latest_public_readiness("a.example", "/").unwrap().map(|r| r.id), Some(kept_anonymous.id));
        assert_eq!(store.prune(&policy, now).unwrap(), store::Pruned::default(), "nothing more");
    }
}
