//! Stored audits read back by owner, URL and page (docs/API.md, "Stored audits"), and the
//! index the owner's listing walks.

use rusqlite::Connection;
use store::{AuditFilter, NewAudit, Store, Tier};
use tempfile::TempDir;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

fn fresh() -> (TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join(store::DB_FILE_NAME)).unwrap();
    (dir, store)
}

const T0: OffsetDateTime = datetime!(2026-03-01 12:00 UTC);

fn add(store: &Store, user: Option<&str>, url: &str, minutes: i64, score: i64) -> store::StoredAudit {
    let mut new = NewAudit::new(url, url, score, "1.0.0", "{}");
    new.user_id = user.map(str::to_owned);
    new.created_at = T0 + Duration::minutes(minutes);
    store.insert_audit(new).unwrap()
}

fn ids(audits: &[store::StoredAudit]) -> Vec<&str> {
    audits.iter().map(|a| a.id.as_str()).collect()
}

#[test]
fn an_owners_audits_page_newest_first_with_filters() {
    let (_dir, store) = fresh();
    let alice = store.create_user(Tier::Free).unwrap().id;
    let bob = store.create_user(Tier::Free).unwrap().id;
    let a1 = add(&store, Some(&alice), "https://a.example/", 0, 50);
    let a2 = add(&store, Some(&alice), "https://b.example/x", 1, 60);
    // Two in the same millisecond: the id orders them.
    let a3 = add(&store, Some(&alice), "https://a.example/", 2, 70);
    let a4 = add(&store, Some(&alice), "https://A.example/y", 2, 80);
    add(&store, Some(&bob), "https://a.example/", 3, 90);
    add(&store, None, "https://a.example/", 4, 95);

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

#[test]
fn url_and_page_histories_are_oldest_first_and_keep_owners_apart() {
    let (_dir, store) = fresh();
    let alice = store.create_user(Tier::Free).unwrap().id;
    let url = "https://h.example/";
    let mine: Vec<_> = (0..3).map(|i| add(&store, Some(&alice), url, i, 40 + i)).collect();
    let public: Vec<_> = (0..4).map(|i| add(&store, None, url, 10 + i, 10 + i)).collect();
    add(&store, None, "https://h.example/other", 20, 1);

    let history = store.url_history(Some(&alice), url, 10).unwrap();
    assert_eq!(ids(&history), ids(&mine));
    // The newest `limit`, still oldest first.
    assert_eq!(ids(&store.url_history(Some(&alice), url, 2).unwrap()), ids(&mine[1..]));
    assert_eq!(ids(&store.url_history(None, url, 10).unwrap()), ids(&public));

    let page = store.public_page_history("H.EXAMPLE", "/", 3).unwrap();
    assert_eq!(page.iter().map(|a| a.score).collect::<Vec<_>>(), [11, 12, 13]);
}

fn plan(conn: &Connection, sql: &str) -> String {
    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    let rows = stmt.query_map([], |r| r.get::<_, String>(3)).unwrap();
    rows.map(Result::unwrap).collect::<Vec<_>>().join("; ")
}

#[test]
fn the_listing_walks_the_owner_index_without_sorting() {
    let (_dir, store) = fresh();
    let conn = Connection::open(store.path().unwrap()).unwrap();
    let order = " ORDER BY created_at DESC, id DESC LIMIT 20";
    // A page, a page after a cursor, a page since a date: the owner index in the order asked.
    for tail in ["", " AND created_at >= '2026'", " AND (created_at, id) < ('2026', 'x')"] {
        let sql = format!("SELECT * FROM audits WHERE user_id = 'u'{tail}{order}");
        let got = plan(&conn, &sql);
        assert!(got.contains("INDEX audits_user"), "{sql}: {got}");
        assert!(!got.contains("TEMP B-TREE"), "{sql}: {got}");
    }
    // The URL and host filters may take their own, more selective indexes (the planner's
    // choice once it has statistics); never a scan of the table.
    for tail in [" AND host = 'a.example'", " AND (url = 'u' OR final_url = 'u')"] {
        let sql = format!("SELECT * FROM audits WHERE user_id = 'u'{tail}{order}");
        let got = plan(&conn, &sql);
        assert!(got.contains("USING INDEX") && !got.contains("SCAN audits"), "{sql}: {got}");
    }
    conn.execute_batch("ANALYZE").unwrap();
    let got = plan(&conn, &format!("SELECT * FROM audits WHERE user_id = 'u'{order}"));
    assert!(got.contains("INDEX audits_user") && !got.contains("TEMP B-TREE"), "{got}");
}
