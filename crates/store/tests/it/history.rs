//! Stored audits read back by owner, URL and page (docs/API.md, "Stored audits"), and the
//! index the owner's listing walks.

use store::{AuditFilter, NewAudit, Store, Tier};

use crate::backend::{both, fresh, Backend, Raw};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const T0: OffsetDateTime = datetime!(2026-03-01 12:00 UTC);

fn add(store: &Store, user: Option<&str>, url: &str, minutes: i64, score: i64) -> store::StoredAudit {
    let mut new = NewAudit::new(url, url, score, "1.0.0", "{}");
    new.user_id = user.map(Into::into);
    new.created_at = T0 + Duration::minutes(minutes);
    store.insert_audit(new).unwrap()
}

fn ids(audits: &[store::StoredAudit]) -> Vec<&str> {
    audits.iter().map(|a| a.id.as_str()).collect()
}

both! {
    fn an_owners_audits_page_newest_first_with_filters(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let alice = store.create_user(Tier::Free).unwrap().id;
        let bob = store.create_user(Tier::Free).unwrap().id;
        let a1 = add(store, Some(&alice), "https://a.example/", 0, 50);
        let a2 = add(store, Some(&alice), "https://b.example/x", 1, 60);
        // Two in the same millisecond: the id orders them.
        let a3 = add(store, Some(&alice), "https://a.example/", 2, 70);
        let a4 = add(store, Some(&alice), "https://A.example/y", 2, 80);
        add(store, Some(&bob), "https://a.example/", 3, 90);
        add(store, None, "https://a.example/", 4, 95);

        let all = store.list_user_audits(&alice, &AuditFilter::default(), 10).unwrap();
        let (hi, lo) = if a3.id > a4.id { (&a3, &a4) } else { (&a4, &a3) };
        assert_eq!(ids(&all), [hi.id.as_str(), lo.id.as_str(), a2.id.as_str(), a1.id.as_str()]);

        // Paging by the last item's (created_at, id) loses and repeats nothing.
        let first = store.list_user_audits(&alice, &AuditFilter::default(), 1).unwrap();
        let before = Some((first[0].created_at, first[0].id.clone()));
        let rest = store.list_user_audits(&alice, &AuditFilter { before, ..AuditFilter::default() }, 10).unwrap();
        assert_eq!(ids(&rest), ids(&all)[1..]);

        let by_url = AuditFilter { url: Some("https://a.example/".into()), ..AuditFilter::default() };
        assert_eq!(ids(&store.list_user_audits(&alice, &by_url, 10).unwrap()), [a3.id.as_str(), a1.id.as_str()]);
        let by_host = AuditFilter { host: Some("A.Example.".into()), ..AuditFilter::default() };
        assert_eq!(store.list_user_audits(&alice, &by_host, 10).unwrap().len(), 3);
        let since = AuditFilter { since: Some(T0 + Duration::minutes(1)), ..AuditFilter::default() };
        assert_eq!(store.list_user_audits(&alice, &since, 10).unwrap().len(), 3);
        assert!(store.list_user_audits("nobody", &AuditFilter::default(), 10).unwrap().is_empty());
    }
}

both! {
    fn url_and_page_histories_are_oldest_first_and_keep_owners_apart(b) {
        let Some(f) = fresh(b) else { return };
        let store = &f.store;
        let alice = store.create_user(Tier::Free).unwrap().id;
        let url = "https://h.example/";
        let mine: Vec<_> = (0..3).map(|i| add(store, Some(&alice), url, i, 40 + i)).collect();
        let public: Vec<_> = (0..4).map(|i| add(store, None, url, 10 + i, 10 + i)).collect();
        add(store, None, "https://h.example/other", 20, 1);

        let history = store.url_history(Some(&alice), url, 10).unwrap();
        assert_eq!(ids(&history), ids(&mine));
        // The newest `limit`, still oldest first.
        assert_eq!(ids(&store.url_history(Some(&alice), url, 2).unwrap()), ids(&mine[1..]));
        assert_eq!(ids(&store.url_history(None, url, 10).unwrap()), ids(&public));

        let page = store.public_page_history("H.EXAMPLE", "/", 3).unwrap();
        assert_eq!(page.iter().map(|a| a.score).collect::<Vec<_>>(), [11, 12, 13]);
    }
}

/// The query plan of `sql`, one line per step, and the words each database uses for "walks
/// the owner index", "sorts" and "reads the whole table".
fn plan(conn: &Raw, b: Backend, sql: &str) -> String {
    let (explain, column) = match b {
        Backend::Sqlite => ("EXPLAIN QUERY PLAN", 3),
        Backend::Postgres => ("EXPLAIN", 0),
    };
    conn.rows(&format!("{explain} {sql}")).into_iter().filter_map(|r| r[column].clone()).collect::<Vec<_>>().join("; ")
}

both! {
    fn the_listing_walks_the_owner_index_without_sorting(b) {
        let Some(f) = fresh(b) else { return };
        let conn = f.raw();
        let (index, sorts, scans) = match b {
            Backend::Sqlite => ("INDEX audits_user", "TEMP B-TREE", "SCAN audits"),
            // An empty table is cheapest to read whole: ask for the plan an index would give.
            Backend::Postgres => {
                conn.exec("SET enable_seqscan = off");
                ("audits_user", "Sort", "Seq Scan")
            }
        };
        let order = " ORDER BY created_at DESC, id DESC LIMIT 20";
        // A page, a page after a cursor, a page since a date: the owner index in the order asked.
        for tail in ["", " AND created_at >= '2026'", " AND (created_at, id) < ('2026', 'x')"] {
            let sql = format!("SELECT * FROM audits WHERE user_id = 'u'{tail}{order}");
            let got = plan(&conn, b, &sql);
            assert!(got.contains(index), "{sql}: {got}");
            assert!(!got.contains(sorts), "{sql}: {got}");
        }
        // The URL and host filters may take their own, more selective indexes (the planner's
        // choice once it has statistics); never a scan of the table.
        for tail in [" AND host = 'a.example'", " AND (url = 'u' OR final_url = 'u')"] {
            let sql = format!("SELECT * FROM audits WHERE user_id = 'u'{tail}{order}");
            let got = plan(&conn, b, &sql);
            assert!(!got.contains(scans), "{sql}: {got}");
        }
        conn.exec("ANALYZE");
        let got = plan(&conn, b, &format!("SELECT * FROM audits WHERE user_id = 'u'{order}"));
        assert!(got.contains(index) && !got.contains(sorts), "{got}");
    }
}
