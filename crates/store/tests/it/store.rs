//! The store against real SQLite files in temporary directories.

use std::time::Duration;

use rusqlite::Connection;
use store::{hash_key, Consumption, NewAudit, NewKey, NewWebhook, Store, Tier, UsageCounts, MIGRATIONS};
use tempfile::TempDir;

use crate::backend::{both, fresh, q, Backend, Raw};
use time::macros::datetime;
use time::OffsetDateTime;

fn fresh_sqlite() -> (TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("data").join(store::DB_FILE_NAME)).unwrap();
    (dir, store)
}

/// A second, plain connection to the same file, to look at what is really stored.
fn raw(store: &Store) -> Connection {
    Connection::open(store.path().unwrap()).unwrap()
}

// ---------------------------------------------------------------- migrations

both! {
    fn migrations_are_recorded_and_idempotent_across_reopen(b) {
        let Some(f) = fresh(b) else { return };
        let latest = MIGRATIONS.last().unwrap().version;
        assert_eq!(f.store.schema_version().unwrap(), latest);
        assert_eq!(f.store.migrate().unwrap(), Vec::<u32>::new());

        let again = f.open_again();
        assert_eq!(again.schema_version().unwrap(), latest);
        assert_eq!(again.migrate().unwrap(), Vec::<u32>::new());
        let conn = f.raw();
        assert_eq!(conn.count("schema_migrations"), i64::from(latest));
        for table in [
            "users",
            "api_keys",
            "audits",
            "usage_buckets",
            "webhooks",
            "webhook_deliveries",
            "webhook_outbox",
            "workflow_runs",
            "workflow_steps",
            "approvals",
            "monitors",
            "alerts",
            "keywords",
            "experiments",
            "geo_cache",
            "page_texts",
        ] {
            assert!(conn.has_table(table), "table {table} missing");
        }
    }
}

#[test]
fn the_file_is_in_wal_mode() {
    let (_dir, store) = fresh_sqlite();
    let mode: String = raw(&store).query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode.to_ascii_lowercase(), "wal", "WAL is a property of the file");
}

both! {
    fn foreign_keys_hold(b) {
        let Some(f) = fresh(b) else { return };
        // insert_audit does not check the owner itself: the foreign key must refuse it.
        let mut orphan = NewAudit::new("https://a.test/", "https://a.test/", 5, "1", "{}");
        orphan.user_id = Some("ghost".into());
        assert!(f.store.insert_audit(orphan).is_err());
        assert_eq!(f.store.count_audits().unwrap(), 0);
    }
}

#[test]
fn unreadable_databases_are_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the file should be.
    let as_dir = dir.path().join("a-directory");
    std::fs::create_dir(&as_dir).unwrap();
    let err = Store::open(&as_dir).unwrap_err();
    assert!(err.is_unavailable(), "{err}");
    assert!(!err.is_not_found());

    // A file that is not a database.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![0x5a_u8; 8192]).unwrap();
    let err = Store::open(&junk).unwrap_err();
    assert!(err.is_unavailable(), "{err}");
}

both! {
    fn ping_round_trips(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let elapsed = store.ping().unwrap();
        assert!(elapsed < Duration::from_secs(60));
    }
}

// ---------------------------------------------------------------- keys

both! {
    fn created_keys_have_the_documented_format(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let re = regex_lite::Regex::new(r"^sa_[A-Za-z0-9]{32}$").unwrap();
        for i in 0..20 {
            let (plaintext, record) = store.create_key(NewKey::new(format!("k{i}"), Tier::Free)).unwrap();
            assert!(re.is_match(&plaintext), "{plaintext}");
            assert_eq!(record.key_prefix, plaintext[..10]);
            assert!(record.key_prefix.starts_with("sa_"));
        }
    }
}

both! {
    fn only_the_hash_of_a_key_is_stored(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (plaintext, record) = store.create_key(NewKey::new("ci", Tier::Pro)).unwrap();

        let conn = f.raw();
        let row = conn.rows(&format!("SELECT key_hash, key_prefix FROM api_keys WHERE id = {}", q(&record.id)));
        let (stored_hash, prefix) = (row[0][0].clone().unwrap(), row[0][1].clone().unwrap());
        assert_eq!(stored_hash, hash_key(&plaintext));
        assert_eq!(stored_hash.len(), 64);
        assert_eq!(prefix, &plaintext[..10]);

        match b {
            // Neither the database file nor its write-ahead log holds the key.
            Backend::Sqlite => {
                drop(conn);
                let mut bytes = std::fs::read(store.path().unwrap()).unwrap();
                let wal = store.path().unwrap().with_extension("db-wal");
                if let Ok(more) = std::fs::read(&wal) {
                    bytes.extend(more);
                }
                let needle = plaintext.as_bytes();
                assert!(!bytes.windows(needle.len()).any(|w| w == needle), "plaintext key found in the database files");
                assert!(
                    bytes.windows(stored_hash.len()).any(|w| w == stored_hash.as_bytes()),
                    "the hash should be there (else this test looks at the wrong files)"
                );
            }
            // No column of any key row holds it (the row as text: every column).
            Backend::Postgres => {
                let holding = |needle: &str| {
                    conn.int(&format!(
                        "SELECT CAST(COUNT(*) AS BIGINT) FROM api_keys k WHERE CAST(k AS TEXT) LIKE {}",
                        q(&format!("%{needle}%"))
                    ))
                };
                assert_eq!(holding(&plaintext), 0, "plaintext key found in the database");
                assert_eq!(holding(&stored_hash), 1, "the hash should be there");
            }
        }
    }
}

both! {
    fn lookup_by_plaintext(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (plaintext, record) = store.create_key(NewKey::new("ci", Tier::Free)).unwrap();
        let (other, _) = store.create_key(NewKey::new("other", Tier::Free)).unwrap();

        let found = store.lookup(&plaintext).unwrap().unwrap();
        assert_eq!(found, record);
        assert_ne!(store.lookup(&other).unwrap().unwrap().id, record.id);
        for wrong in [
            "",
            "sa_",
            &plaintext[..10],
            &plaintext[..plaintext.len() - 1],
            &format!("{plaintext}x"),
            &plaintext.to_uppercase(),
            "\u{0}\u{ffff}",
        ] {
            assert_eq!(store.lookup(wrong).unwrap(), None, "{wrong:?}");
        }
    }
}

both! {
    fn disable_enable_revoke_by_id_or_prefix(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (plaintext, record) = store.create_key(NewKey::new("ci", Tier::Free)).unwrap();

        let off = store.set_enabled(&record.key_prefix, false).unwrap();
        assert!(!off.enabled);
        assert!(!store.lookup(&plaintext).unwrap().unwrap().enabled);
        assert!(!store.lookup(&plaintext).unwrap().unwrap().is_usable(OffsetDateTime::now_utc()));

        let on = store.set_enabled(&record.id, true).unwrap();
        assert!(on.enabled);
        assert!(store.lookup(&plaintext).unwrap().unwrap().enabled);

        store.revoke(&record.key_prefix).unwrap();
        assert_eq!(store.lookup(&plaintext).unwrap(), None);
        assert!(store.list_keys(None).unwrap().is_empty());
        assert!(store.get_key(&record.id).unwrap_err().is_not_found());
        assert!(store.set_enabled(&record.id, true).unwrap_err().is_not_found());
        assert!(store.revoke(&record.id).unwrap_err().is_not_found());
        assert!(store.touch_last_used(&record.id).unwrap_err().is_not_found());
        assert!(store.set_enabled("sa_nothing", false).unwrap_err().is_not_found());
    }
}

both! {
    fn expiry(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let now = OffsetDateTime::now_utc();
        let check = |expires_at: Option<OffsetDateTime>, expired: bool| {
            let mut new = NewKey::new("k", Tier::Free);
            new.expires_at = expires_at;
            let (plaintext, _) = store.create_key(new).unwrap();
            let found = store.lookup(&plaintext).unwrap().unwrap();
            assert_eq!(found.is_expired(now), expired, "{expires_at:?}");
            assert_eq!(found.is_usable(now), !expired);
        };
        check(None, false);
        check(Some(now + time::Duration::days(90)), false);
        check(Some(now + time::Duration::seconds(1)), false);
        check(Some(now - time::Duration::seconds(1)), true);
        check(Some(now - time::Duration::days(3)), true);
    }
}

both! {
    fn key_record_serialises_as_the_spec_key_record(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let mut new = NewKey::new("ci", Tier::Free);
        new.expires_at = Some(datetime!(2030-01-02 03:04:05.678 UTC));
        let (_, record) = store.create_key(new).unwrap();
        let json = serde_json::to_value(&record).unwrap();
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["id", "name", "key_prefix", "scopes", "rate_limit", "enabled", "last_used_at", "expires_at", "created_at"]
        );
        assert_eq!(json["scopes"], serde_json::json!(["audit", "mcp"]));
        assert_eq!(json["rate_limit"], 30);
        assert_eq!(json["enabled"], true);
        assert_eq!(json["last_used_at"], serde_json::Value::Null);
        assert_eq!(json["expires_at"], "2030-01-02T03:04:05.678Z");
        assert!(store::parse_rfc3339(json["created_at"].as_str().unwrap()).is_some());

        // An own rate limit wins over the tier's.
        let mut new = NewKey::new("fast", Tier::Pro);
        new.rate_limit = Some(500);
        let (_, fast) = store.create_key(new).unwrap();
        assert_eq!(serde_json::to_value(&fast).unwrap()["rate_limit"], 500);
        let (_, pro) = store.create_key(NewKey::new("pro", Tier::Pro)).unwrap();
        assert_eq!(serde_json::to_value(&pro).unwrap()["rate_limit"], 60);
    }
}

both! {
    fn keys_of_one_user_and_touch(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Pro).unwrap();
        assert_eq!(store.get_user(&user.id).unwrap(), user);
        assert!(store.get_user("nobody").unwrap_err().is_not_found());

        let mut new = NewKey::new("a", Tier::Pro);
        new.user_id = Some(user.id.clone());
        let (_, a) = store.create_key(new.clone()).unwrap();
        new.name = "b".into();
        let (_, b) = store.create_key(new).unwrap();
        let (_, other) = store.create_key(NewKey::new("c", Tier::Free)).unwrap();
        assert_ne!(other.user_id, user.id);
        assert_eq!(store.get_user(&other.user_id).unwrap().tier, Tier::Free);

        let ids = |keys: Vec<store::KeyRecord>| keys.into_iter().map(|k| k.id).collect::<Vec<_>>();
        assert_eq!(ids(store.list_keys(Some(&user.id)).unwrap()), [a.id.clone(), b.id]);
        assert_eq!(store.list_keys(None).unwrap().len(), 3);
        assert_eq!(store.list_users().unwrap().len(), 2);

        let at = datetime!(2026-03-04 05:06:07.089 UTC);
        store.touch_last_used_at(&a.id, at).unwrap();
        assert_eq!(store.get_key(&a.id).unwrap().last_used_at, Some(at));
        store.touch_last_used(&a.id).unwrap();
        assert!(store.get_key(&a.id).unwrap().last_used_at.unwrap() > at);
    }
}

both! {
    fn invalid_key_requests_are_refused_before_writing(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let check = |edit: &dyn Fn(&mut NewKey)| {
            let mut new = NewKey::new("ok", Tier::Free);
            edit(&mut new);
            let err = store.create_key(new).unwrap_err();
            assert!(err.is_invalid(), "{err}");
        };
        check(&|k| k.name = String::new());
        check(&|k| k.name = "   ".into());
        check(&|k| k.name = "x".repeat(101));
        check(&|k| k.scopes = vec![]);
        check(&|k| k.scopes = vec!["admin".into()]);
        assert_eq!(f.raw().count("users"), 0);
        assert_eq!(f.raw().count("api_keys"), 0);
    }
}

both! {
    fn a_failed_key_creation_leaves_no_user_behind(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        // Make every key insert fail after the owner was inserted in the same transaction.
        let conn = f.raw();
        let (refuse, allow) = match b {
            Backend::Sqlite => (
                "CREATE TRIGGER refuse_keys BEFORE INSERT ON api_keys \
                 BEGIN SELECT RAISE(ABORT, 'refused by test'); END;",
                "DROP TRIGGER refuse_keys",
            ),
            Backend::Postgres => (
                "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$; \
                 CREATE TRIGGER refuse_keys BEFORE INSERT ON api_keys FOR EACH ROW EXECUTE FUNCTION refuse();",
                "DROP TRIGGER refuse_keys ON api_keys",
            ),
        };
        conn.exec(refuse);
        let err = store.create_key(NewKey::new("ci", Tier::Free)).unwrap_err();
        assert!(!err.is_not_found() && !err.is_unavailable(), "{err}");
        assert_eq!(conn.count("users"), 0, "the user insert was rolled back");
        assert_eq!(conn.count("api_keys"), 0);

        // An unknown owner is refused without writing anything either.
        conn.exec(allow);
        let mut new = NewKey::new("ci", Tier::Free);
        new.user_id = Some("missing".into());
        assert!(store.create_key(new).unwrap_err().is_not_found());
        assert_eq!(conn.count("users"), 0);
        assert_eq!(conn.count("api_keys"), 0);
    }
}

// ---------------------------------------------------------------- usage

both! {
    fn usage_counts_per_minute_and_over_24_hours(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let id = "key:abc";
        let base = datetime!(2026-05-01 12:00:30 UTC);
        let rec = |at: OffsetDateTime, units: u32| store.record_usage(id, units, at).unwrap();
        rec(base - time::Duration::hours(30), 100); // outside the window
        rec(datetime!(2026-04-30 12:00:59 UTC), 7); // minute 24 h before: just outside
        rec(datetime!(2026-04-30 12:01:00 UTC), 5); // oldest minute inside the window
        rec(datetime!(2026-05-01 11:59:59.999 UTC), 3); // previous minute
        rec(datetime!(2026-05-01 12:00:00 UTC), 1);
        rec(datetime!(2026-05-01 12:00:45 UTC), 2);
        rec(datetime!(2026-05-01 12:00:45 UTC), 0); // nothing
        store.record_usage("ip:127.0.0.1", 50, base).unwrap(); // someone else

        let check = |now: OffsetDateTime, this_minute: u64, last_24h: u64| {
            assert_eq!(store.usage_counts(id, now).unwrap(), UsageCounts { this_minute, last_24h }, "at {now}");
        };
        check(base, 3, 11);
        check(datetime!(2026-05-01 12:00:59.999 UTC), 3, 11);
        check(datetime!(2026-05-01 12:01:00 UTC), 0, 6); // 12:01 yesterday left the window
        check(datetime!(2026-05-01 11:59:10 UTC), 3, 15);
        check(datetime!(2026-05-03 00:00:00 UTC), 0, 0);
        assert_eq!(store.usage_counts("key:nobody", base).unwrap(), UsageCounts::default());

        // Buckets older than 48 h go; the others stay.
        assert_eq!(store.prune_usage(base).unwrap(), 0);
        assert_eq!(store.prune_usage(base + time::Duration::hours(19)).unwrap(), 1);
        assert_eq!(store.prune_usage(base + time::Duration::hours(49)).unwrap(), 5);
    }
}

both! {
    fn consume_is_all_or_nothing_within_the_minute(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let id = "ip:192.0.2.1";
        let at = datetime!(2026-05-01 12:00:45 UTC);
        let check = |units: u32, expected: Consumption| {
            assert_eq!(store.consume(id, units, 10, at).unwrap(), expected, "{units}");
        };
        check(4, Consumption::Allowed { this_minute: 4 });
        check(6, Consumption::Allowed { this_minute: 10 });
        check(1, Consumption::Denied { this_minute: 10, retry_after_s: 15 });
        check(0, Consumption::Allowed { this_minute: 10 });
        assert_eq!(store.usage_counts(id, at).unwrap().this_minute, 10);
        // A new minute has room again; a batch larger than the limit never fits.
        let next = at + time::Duration::seconds(15);
        assert_eq!(store.consume(id, 3, 10, next).unwrap(), Consumption::Allowed { this_minute: 3 });
        assert!(matches!(
            store.consume(id, 11, 10, next + time::Duration::minutes(1)).unwrap(),
            Consumption::Denied { this_minute: 0, retry_after_s: 60 }
        ));
    }
}

// ---------------------------------------------------------------- audits

fn audit_at(url: &str, final_url: &str, score: i64, at: OffsetDateTime) -> NewAudit {
    let mut new = NewAudit::new(url, final_url, score, "1.0.0", format!(r#"{{"score":{score}}}"#));
    new.created_at = at;
    new
}

both! {
    fn a_batch_of_audits_is_one_transaction_whose_bad_rows_fail_alone(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Free).unwrap();
        store
            .create_webhook(NewWebhook {
                user_id: user.id.clone(),
                url: "https://hooks.example/seo".into(),
                events: vec!["audit.completed".into()],
            })
            .unwrap();
        let t = datetime!(2026-05-01 12:00:00 UTC);
        let data =
            |tag: &'static str| -> store::EventData { Box::new(move |a| serde_json::json!({ "tag": tag, "id": a.id })) };
        let mut owned = audit_at("https://a.test/", "https://a.test/", 70, t);
        owned.user_id = Some(user.id.clone());
        owned.page_text = Some("oak tables".into());
        let mut orphan = audit_at("https://b.test/", "https://b.test/", 60, t);
        orphan.user_id = Some("no such user".into()); // the foreign key refuses it
        let results = store.insert_audits(vec![
            (audit_at("https://c.test/", "https://c.test/", 50, t), data("anonymous")),
            (audit_at("https://d.test/", "not a url", 40, t), data("invalid")),
            (orphan, data("orphan")),
            (owned, data("owned")),
        ]);
        assert_eq!(results.len(), 4);
        let (anonymous, enqueued) = results[0].as_ref().unwrap();
        assert_eq!((anonymous.score, enqueued.pending), (50, 0));
        assert!(results[1].as_ref().unwrap_err().is_invalid());
        assert!(results[2].is_err(), "the row without its owner fails alone");
        let (owned, enqueued) = results[3].as_ref().unwrap();
        assert_eq!((owned.score, enqueued.pending), (70, 1), "the owner's event is written with the audit");
        // Exactly the two good rows, the owned audit's text, and its one event.
        let conn = f.raw();
        assert_eq!(conn.count("audits"), 2);
        assert_eq!(conn.count("page_texts"), 1);
        assert_eq!(store.get_audit(&owned.id).unwrap(), *owned);
    }
}

both! {
    fn page_texts_are_kept_once_and_read_back_with_their_audits(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let t = datetime!(2026-05-01 12:00:00 UTC);
        let url = "https://example.com/kettles";
        let with_text = |score: i64, minute: i64, text: Option<&str>| {
            let mut new = audit_at(url, url, score, t + time::Duration::minutes(minute));
            new.page_text = text.map(str::to_string);
            new
        };
        store.insert_audit(with_text(60, 0, Some("copper kettles for tea"))).unwrap();
        store.insert_audit(with_text(61, 1, Some("copper kettles for tea"))).unwrap();
        store.insert_audit(with_text(62, 2, Some("copper kettles, polished"))).unwrap();
        store.insert_audit(with_text(63, 3, None)).unwrap();
        // An audit of the same text by a key owner, through the outbox path.
        let user = store.create_user(Tier::Free).unwrap();
        let mut owned = with_text(64, 4, Some("copper kettles for tea"));
        owned.user_id = Some(user.id.clone());
        store.insert_audit_with_event(owned, |_| serde_json::json!({})).unwrap();

        // Two distinct texts, each stored once.
        assert_eq!(f.raw().count("page_texts"), 2);
        let got: Vec<(i64, Option<String>)> =
            store.audits_with_text_for_url(url, 10).unwrap().into_iter().map(|(a, text)| (a.score, text)).collect();
        let text = |s: &str| Some(s.to_string());
        assert_eq!(
            got,
            [
                (64, text("copper kettles for tea")),
                (63, None),
                (62, text("copper kettles, polished")),
                (61, text("copper kettles for tea")),
                (60, text("copper kettles for tea")),
            ]
        );
        assert_eq!(store.audits_with_text_for_url(url, 2).unwrap().len(), 2);
        // The result JSON is left as given: the text is not in it.
        assert_eq!(store.latest_audit_for_url(url).unwrap().unwrap().result_json, r#"{"score":64}"#);
    }
}

both! {
    fn latest_audit_for_host_prefers_the_home_page_and_respects_max_age(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let now = datetime!(2026-05-01 12:00:00 UTC);
        let h = |n: i64| now - time::Duration::hours(n);
        let day = Duration::from_secs(24 * 3600);
        let hour = Duration::from_secs(3600);
        for new in [
            audit_at("https://example.com/", "https://example.com/", 50, h(30)), // too old
            audit_at("https://example.com/old-page", "https://example.com/old-page", 40, h(26)),
            audit_at("http://example.com", "https://Example.com/", 70, h(5)), // home, redirected
            audit_at("https://example.com/blog", "https://example.com/blog", 90, h(1)), // newer, not home
            audit_at("https://other.org/", "https://other.org/", 10, h(0)),
            audit_at("https://sub.example.com/", "https://sub.example.com/", 20, h(0)),
        ] {
            store.insert_audit(new).unwrap();
        }
        let check = |host: &str, max_age: Duration, expected: Option<i64>| {
            let got = store.latest_audit_for_host_at(host, max_age, now).unwrap();
            assert_eq!(got.map(|a| a.score), expected, "{host} {max_age:?}");
        };
        check("example.com", day, Some(70));
        check("EXAMPLE.com", day, Some(70));
        check("example.com", 3 * hour, Some(90)); // home page too old: newest other page
        check("example.com", Duration::from_secs(60), None);
        check("example.com", 48 * hour, Some(70));
        check("other.org", day, Some(10));
        check("sub.example.com", day, Some(20));
        check("nowhere.test", day, None);
        check("example.com", Duration::MAX, Some(70));
    }
}

both! {
    fn audits_made_with_a_key_are_never_public(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let owner = store.create_user(store::Tier::Free).unwrap().id;
        let now = OffsetDateTime::now_utc();
        let mut keyed = audit_at("https://site.example/", "https://site.example/", 99, now);
        keyed.user_id = Some(owner.clone());
        let keyed = store.insert_audit(keyed).unwrap();
        assert!(!keyed.public);
        // Only a keyed audit: the badge's lookup sees nothing, nor does the lookup by id.
        assert_eq!(store.latest_audit_for_host("site.example", store::BADGE_MAX_AGE).unwrap(), None);
        assert_eq!(store.get_public_audit(&keyed.id).unwrap(), None);
        assert_eq!(store.get_audit(&keyed.id).unwrap().user_id.as_deref(), Some(owner.as_str()));
        // An older anonymous audit is shown, even though the keyed one is newer and of the home page.
        let anonymous = store
            .insert_audit(audit_at("https://site.example/a", "https://site.example/a", 40, now - time::Duration::hours(1)))
            .unwrap();
        assert!(anonymous.public);
        assert_eq!(store.latest_audit_for_host("site.example", store::BADGE_MAX_AGE).unwrap().map(|a| a.score), Some(40));
        assert_eq!(store.get_public_audit(&anonymous.id).unwrap().map(|a| a.score), Some(40));
    }
}

both! {
    fn audits_stored_before_the_privacy_rule_keep_their_standing(b) {
        // A database at schema 3, with an anonymous and an owned audit of one host.
        let (database, conn, migrations, _dir) = match b {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join(store::DB_FILE_NAME);
                let conn = Raw::Lite(Connection::open(&path).unwrap());
                (store::Database::Sqlite(path), conn, MIGRATIONS, Some(dir))
            }
            Backend::Postgres => {
                let Some(server) = test_support::TempPostgres::shared() else { return };
                let url = server.fresh_database();
                let conn = Raw::Pg(std::cell::RefCell::new(postgres::Client::connect(&url, postgres::NoTls).unwrap()));
                (store::Database::Postgres(url), conn, store::PG_MIGRATIONS, None)
            }
        };
        conn.exec(
            "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY NOT NULL, name TEXT NOT NULL, \
             applied_at TEXT NOT NULL)",
        );
        for m in migrations.iter().filter(|m| m.version <= 3) {
            conn.exec(m.sql);
            conn.exec(&format!(
                "INSERT INTO schema_migrations VALUES ({}, {}, '2026-01-01T00:00:00.000Z')",
                m.version,
                q(m.name)
            ));
        }
        let now = store::now_rfc3339();
        conn.exec(&format!("INSERT INTO users (id, tier, created_at) VALUES ('u1', 'free', {})", q(&now)));
        for (id, path, owner) in [("anon", "/a", "NULL"), ("owned", "/", "'u1'")] {
            conn.exec(&format!(
                "INSERT INTO audits (id, url, final_url, host, path, score, ruleset_version, result_json, user_id, \
                 created_at) VALUES ({id}, {url}, {url}, 'old.example', {path}, 50, '1', '{{}}', {owner}, {now})",
                id = q(id),
                url = q(&format!("https://old.example{path}")),
                path = q(path),
                now = q(&now),
            ));
        }
        drop(conn);

        let store = Store::open_database(&database, store::StoreOptions::default()).unwrap().0;
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.last().unwrap().version);
        let shown = store.latest_audit_for_host("old.example", store::BADGE_MAX_AGE).unwrap();
        assert_eq!(shown.map(|a| a.id).as_deref(), Some("anon"), "the owned home page audit stays private");
        assert!(store.get_public_audit("owned").unwrap().is_none());
        assert!(!store.get_audit("owned").unwrap().public);
        if b == Backend::Sqlite {
            // The badge's lookup uses the partial index.
            let plan: String = raw(&store)
                .query_row(
                    "EXPLAIN QUERY PLAN SELECT id FROM audits WHERE host = 'x' AND public = 1 AND created_at >= '0' \
                     ORDER BY (path = '/') DESC, created_at DESC LIMIT 1",
                    [],
                    |r| r.get(3),
                )
                .unwrap();
            assert!(plan.contains("audits_public_host"), "{plan}");
        }
    }
}

both! {
    fn audit_history_by_url(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let t = datetime!(2026-05-01 12:00:00 UTC);
        let url = "https://example.com/page";
        for (i, score) in [60, 65, 70, 75].into_iter().enumerate() {
            let at = t + time::Duration::minutes(i64::try_from(i).unwrap());
            store.insert_audit(audit_at(url, url, score, at)).unwrap();
        }
        store.insert_audit(audit_at("https://example.com/other", "https://example.com/other", 1, t)).unwrap();
        // Reached through a redirect: found by its final URL too.
        store.insert_audit(audit_at("http://example.com/page", url, 80, t + time::Duration::minutes(10))).unwrap();

        let scores = |v: Vec<store::StoredAudit>| v.into_iter().map(|a| a.score).collect::<Vec<_>>();
        assert_eq!(scores(store.audits_for_url(url, 10).unwrap()), [80, 75, 70, 65, 60]);
        assert_eq!(scores(store.audits_for_url(url, 2).unwrap()), [80, 75]);
        assert_eq!(scores(store.audits_for_url("http://example.com/page", 10).unwrap()), [80]);
        let latest = store.latest_audit_for_url(url).unwrap().unwrap();
        assert_eq!(latest.score, 80);
        assert_eq!(latest.result_json, r#"{"score":80}"#);
        assert_eq!(latest.host, "example.com");
        assert_eq!(latest.created_at, t + time::Duration::minutes(10));
        assert_eq!(store.get_audit(&latest.id).unwrap(), latest);
        assert!(store.get_audit("nope").unwrap_err().is_not_found());
        assert_eq!(store.latest_audit_for_url("https://nowhere.test/").unwrap(), None);
        assert_eq!(store.count_audits().unwrap(), 6);

        let err = store.insert_audit(NewAudit::new("x", "not a url", 1, "1", "{}")).unwrap_err();
        assert!(err.is_invalid(), "{err}");
        assert_eq!(store.count_audits().unwrap(), 6);
    }
}

both! {
    fn audits_keep_their_owner(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let user = store.create_user(Tier::Free).unwrap();
        let mut new = NewAudit::new("https://a.test/", "https://a.test/", 5, "1", "{}");
        new.user_id = Some(user.id.clone());
        let stored = store.insert_audit(new).unwrap();
        assert_eq!(stored.user_id.as_deref(), Some(user.id.as_str()));

        let mut orphan = NewAudit::new("https://a.test/", "https://a.test/", 5, "1", "{}");
        orphan.user_id = Some("ghost".into());
        let err = store.insert_audit(orphan).unwrap_err();
        assert!(!err.is_unavailable(), "a foreign key violation is not an outage: {err}");
        assert_eq!(store.count_audits().unwrap(), 1);
    }
}

// ---------------------------------------------------------------- durability, threads

both! {
    fn reopen_keeps_keys_and_audits(b) {
        let Some(f) = fresh(b) else { return };
        let (plaintext, record, audit) = {
            let store = f.open_again();
            let (plaintext, record) = store.create_key(NewKey::new("ci", Tier::Pro)).unwrap();
            let audit = store
                .insert_audit(NewAudit::new("https://example.com/", "https://example.com/", 77, "1.0.0", "{}"))
                .unwrap();
            store.record_usage(&record.identity(), 3, OffsetDateTime::now_utc()).unwrap();
            (plaintext, record, audit)
        };
        let store = f.open_again();
        assert_eq!(store.lookup(&plaintext).unwrap(), Some(record.clone()));
        assert_eq!(store.latest_audit_for_url("https://example.com/").unwrap(), Some(audit));
        assert_eq!(store.usage_counts(&record.identity(), OffsetDateTime::now_utc()).unwrap().last_24h, 3);
    }
}

both! {
    fn the_pool_serves_several_threads_at_once(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let (plaintext, record) = store.create_key(NewKey::new("ci", Tier::Free)).unwrap();
        let at = datetime!(2026-05-01 12:00:00 UTC);
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let store = store.clone();
                let plaintext = plaintext.clone();
                let identity = record.identity();
                std::thread::spawn(move || {
                    for i in 0..25 {
                        store.record_usage(&identity, 1, at).unwrap();
                        assert!(store.lookup(&plaintext).unwrap().is_some());
                        let url = format!("https://t{t}.test/{i}");
                        store.insert_audit(audit_at(&url, &url, i, at)).unwrap();
                        if i % 5 == 0 {
                            store.create_key(NewKey::new(format!("t{t}-{i}"), Tier::Free)).unwrap();
                            store.ping().unwrap();
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(store.usage_counts(&record.identity(), at).unwrap(), UsageCounts { this_minute: 200, last_24h: 200 });
        assert_eq!(store.count_audits().unwrap(), 200);
        assert_eq!(store.list_keys(None).unwrap().len(), 1 + 8 * 5);
    }
}

// ---------------------------------------------------------------- webhooks, geo cache

both! {
    fn webhooks_belong_to_their_owner(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let alice = store.create_user(Tier::Pro).unwrap();
        let bob = store.create_user(Tier::Free).unwrap();
        let new = |user: &str, events: &[&str]| NewWebhook {
            user_id: user.into(),
            url: "https://hooks.example.com/in".into(),
            events: events.iter().map(|e| (*e).to_owned()).collect(),
        };
        let a1 = store.create_webhook(new(&alice.id, &["audit.completed", "audit.completed"])).unwrap();
        assert_eq!(a1.events, ["audit.completed"]);
        assert!(a1.secret.starts_with("whsec_") && a1.secret.len() == 38);
        let json = serde_json::to_string(&a1).unwrap();
        assert!(!json.contains(&a1.secret), "the secret is never serialised");
        let a2 = store.create_webhook(new(&alice.id, &["monitor.alert"])).unwrap();
        store.create_webhook(new(&bob.id, &["workflow.completed"])).unwrap();

        for bad in [&[][..], &["nope"][..]] {
            assert!(store.create_webhook(new(&alice.id, bad)).unwrap_err().is_invalid());
        }
        assert!(store.create_webhook(new("ghost", &["monitor.alert"])).unwrap_err().is_not_found());

        assert_eq!(store.count_enabled_webhooks(&alice.id).unwrap(), 2);
        store.set_webhook_enabled(&alice.id, &a2.id, false).unwrap();
        assert_eq!(store.count_enabled_webhooks(&alice.id).unwrap(), 1);
        assert_eq!(store.list_webhooks(&alice.id).unwrap().len(), 2);
        assert_eq!(store.webhooks_for_event(&alice.id, "audit.completed").unwrap(), std::slice::from_ref(&a1));
        assert!(store.webhooks_for_event(&alice.id, "monitor.alert").unwrap().is_empty());

        let delivery = store
            .record_delivery(store::NewDelivery {
                webhook_id: a1.id.clone(),
                event: "audit.completed".into(),
                payload: "{}".into(),
                attempt: 1,
                status_code: Some(500),
                error: None,
            })
            .unwrap();
        assert_eq!(store.list_deliveries(&a1.id, 10).unwrap(), [delivery]);

        // Bob cannot delete Alice's subscription.
        assert!(store.delete_webhook(&bob.id, &a1.id).unwrap_err().is_not_found());
        store.delete_webhook(&alice.id, &a1.id).unwrap();
        assert!(store.delete_webhook(&alice.id, &a1.id).unwrap_err().is_not_found());
        assert_eq!(store.count_enabled_webhooks(&alice.id).unwrap(), 0);
        assert_eq!(store.count_enabled_webhooks(&bob.id).unwrap(), 1);
        assert_eq!(f.raw().count("webhook_deliveries"), 0, "deleted with the webhook");
    }
}

both! {
    fn geo_cache_serves_fresh_results_only(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let at = datetime!(2026-05-01 12:00:00 UTC);
        store.put_geo_cache("Example.com", "user:u1", r#"{"v":1}"#, at).unwrap();
        let check = |domain: &str, caller: &str, now: OffsetDateTime, expected: Option<&str>| {
            let got = store.get_geo_cache(domain, caller, now).unwrap();
            assert_eq!(got.as_ref().map(|e| e.result_json.as_str()), expected, "{domain} {caller} {now}");
        };
        check("example.com", "user:u1", at, Some(r#"{"v":1}"#));
        check("EXAMPLE.COM", "user:u1", at + time::Duration::hours(23), Some(r#"{"v":1}"#));
        check("example.com", "user:u1", at + time::Duration::hours(24), None);
        check("other.com", "user:u1", at, None);
        // Another caller, keyed or anonymous, never gets u1's answer.
        check("example.com", "user:u2", at, None);
        check("example.com", "ip:203.0.113.7", at, None);
        store.put_geo_cache("example.com", "ip:203.0.113.7", r#"{"v":3}"#, at).unwrap();
        check("example.com", "ip:203.0.113.7", at, Some(r#"{"v":3}"#));
        check("example.com", "user:u1", at, Some(r#"{"v":1}"#));
        store.put_geo_cache("example.com", "user:u1", r#"{"v":2}"#, at + time::Duration::hours(24)).unwrap();
        check("example.com", "user:u1", at + time::Duration::hours(25), Some(r#"{"v":2}"#));
    }
}

/// A file damaged under the store (pages overwritten on disk) is found by the integrity
/// check, and the ping then fails with a damaged-file error, which the status endpoints
/// report as `corrupt` (docs/API.md, "GET /api/status").
#[test]
fn a_damaged_file_makes_the_ping_fail() {
    use std::io::{Seek, SeekFrom, Write};
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("damaged.db");
    drop(Store::open(&path).unwrap());
    // A table filled past the schema's pages, so that the last pages of the file are its own;
    // the log is checkpointed into the file.
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE TABLE filler (x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n \
         WHERE i < 2000) INSERT INTO filler SELECT hex(randomblob(200)) FROM n; PRAGMA wal_checkpoint(TRUNCATE);",
    )
    .unwrap();
    drop(conn);
    let store = Store::open(&path).unwrap();
    store.ping().unwrap();
    store.check_integrity().unwrap();

    drop(store);
    let len = std::fs::metadata(&path).unwrap().len();
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.seek(SeekFrom::Start(len - 64 * 4096)).unwrap();
    file.write_all(&[0x5a; 64 * 4096]).unwrap();
    drop(file);

    let store = Store::open(&path).unwrap();
    store.ping().expect("the schema's pages are whole");
    let e = store.check_integrity().unwrap_err();
    assert!(e.is_damaged() && e.is_unavailable(), "{e}");
    assert!(store.is_damaged());
    let e = store.ping().unwrap_err();
    assert!(e.is_damaged(), "{e}");
}
