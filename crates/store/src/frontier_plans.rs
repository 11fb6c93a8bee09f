//! The query plans of a crawl frontier's statements over a frontier of hundreds of thousands
//! of URLs, on both databases (docs/SCALING.md, "Large sites": a crawl whose pages link to a
//! million URLs keeps its claim and enqueue costs flat). The frontier is filled in bulk, the
//! databases are given their statistics as they would gather them (SQLite's `ANALYZE`;
//! PostgreSQL's `VACUUM ANALYZE`, which autovacuum runs on a table that grew this much), and
//! the plans are read with `EXPLAIN QUERY PLAN` (SQLite) and `EXPLAIN` (PostgreSQL, both the
//! plan of a statement's first runs and the generic plan a prepared statement may switch to
//! after five): each statement reads an index, none scans the crawl's pages, and no claim
//! sorts the queue.

use std::sync::atomic::{AtomicUsize, Ordering};

use crawl::FrontierStore;

use crate::crawls::{
    claim_filter, claim_sql, COUNT_ENTRIES, DEEPEST_QUEUED, GET_ENTRY, INSERT_ENTRY, PROMOTE_SHALLOWER,
    PROMOTE_UNLINKED, REQUEUE_FETCHING, UPDATE_ENTRY,
};
use crate::sql::to_postgres;
use crate::Store;

/// The crawl whose frontier is read.
const CRAWL: &str = "cr_frontier";

/// The crawl's pages done (depths 0 to 2), its queued URLs with a depth (two thirds at depth
/// 3, the shallowest left, one third at depth 4) and its queued URLs from sitemaps only (no
/// depth): enough that a sort or a scan of the queue costs the planner far more than the
/// index. Beside them, the pages of other crawls ended before ([`OTHERS`] crawls of
/// [`OTHER_PAGES`] pages each), the bulk of the table as on a service's database: counting
/// one crawl's URLs reads its part of an index, not the table.
const DONE: u64 = 20_000;
const LINKED: u64 = 120_000;
const UNLINKED: u64 = 60_000;
const OTHERS: u64 = 4;
const OTHER_PAGES: u64 = 60_000;
/// URLs being fetched under the crawl's lease holder's claim.
const FETCHING: u64 = 16;

/// A URL of the filled crawl.
fn url(i: u64) -> String {
    format!("https://site.example/p/{i}")
}

/// Inserts `n` pages of `crawl` numbered from `first`, with the depth and state SQL
/// expressions given (over the number `i`); the pages done have a title and failed rules.
fn fill_sql(postgres: bool, crawl: &str, first: u64, n: u64, depth: &str, state: &str) -> String {
    let last = first + n - 1;
    let insert = format!(
        "INSERT INTO crawl_pages (crawl_id, url, depth, source, state, claimed_by, title, failed_rules) \
         SELECT '{crawl}', 'https://site.example/p/' || i, {depth}, 'link', {state}, \
         CASE WHEN {state} = 'fetching' THEN 'w' ELSE NULL END, \
         CASE WHEN {state} = 'done' THEN 'A page of the site, number ' || i ELSE NULL END, \
         CASE WHEN {state} = 'done' THEN '[\"title-too-long\",\"meta-description-missing\"]' ELSE '[]' END"
    );
    if postgres {
        format!("{insert} FROM generate_series({first}, {last}) AS n(i);")
    } else {
        format!(
            "WITH RECURSIVE n(i) AS (SELECT {first} UNION ALL SELECT i + 1 FROM n WHERE i < {last}) {insert} FROM n;"
        )
    }
}

/// The crawl whose frontier is read, running under worker `w`'s lease.
const RUNNING_CRAWL: &str = "INSERT INTO crawls (id, url, state, options_json, max_pages, created_at, claimed_by, \
     claimed_until) VALUES ('cr_frontier', 'https://site.example/', 'running', '{}', 1000000, \
     '2026-11-28T00:00:00Z', 'w', '2999-01-01T00:00:00Z');";

/// Fills the crawls and gives the database its statistics.
fn fill(store: &Store) {
    let pg = store.is_postgres();
    let mut sql = String::from(RUNNING_CRAWL);
    let others: Vec<String> = (1..=OTHERS).map(|n| format!("cr_other_{n}")).collect();
    for other in &others {
        sql.push_str(&format!(
            "INSERT INTO crawls (id, url, state, options_json, max_pages, created_at) VALUES \
             ('{other}', 'https://site.example/', 'completed', '{{}}', 1000000, '2026-11-27T00:00:00Z');"
        ));
    }
    let mut parts = vec![
        (CRAWL, DONE, "i % 3", "'done'"),
        (CRAWL, FETCHING, "3", "'fetching'"),
        (CRAWL, LINKED, "CASE WHEN i % 3 = 0 THEN 4 ELSE 3 END", "'queued'"),
        (CRAWL, UNLINKED, "NULL", "'queued'"),
    ];
    parts.extend(others.iter().map(|other| (other.as_str(), OTHER_PAGES, "i % 4", "'done'")));
    let mut next = 1;
    for (crawl, n, depth, state) in parts {
        sql.push_str(&fill_sql(pg, crawl, next, n, depth, state));
        next += n;
    }
    store.write(|db| db.execute_batch(&sql)).unwrap();
    if pg {
        // VACUUM cannot run in a transaction (a string of several statements is one): each
        // alone, outside any, as autovacuum runs it.
        store.read(|db| db.execute_batch("VACUUM ANALYZE crawl_pages")).unwrap();
        store.read(|db| db.execute_batch("ANALYZE crawls")).unwrap();
    } else {
        store.write_each(|db| db.execute_batch("ANALYZE")).unwrap();
    }
}

/// `sql` with its `?N` placeholders replaced by the SQL literals `values` (`?1` the first).
fn bind(sql: &str, values: &[&str]) -> String {
    let mut out = sql.to_string();
    // From the highest number down, so that `?1` does not match the start of `?10`.
    for (i, value) in values.iter().enumerate().rev() {
        out = out.replace(&format!("?{}", i + 1), value);
    }
    out
}

/// The plans of `sql` run with `values`: SQLite's one; PostgreSQL's for its first runs and
/// its generic plan. Each as one line per step.
fn plans(store: &Store, sql: &str, values: &[&str]) -> Vec<String> {
    if !store.is_postgres() {
        // On the writer's connection: the pooled ones are read-only, and these are writes.
        let plan = store
            .write_each(|db| {
                db.query_map(&format!("EXPLAIN QUERY PLAN {}", bind(sql, values)), &[], |row| row.get::<String>(3))
            })
            .unwrap();
        return vec![plan.join("\n")];
    }
    // A name of its own for each statement: the store keeps its statements prepared by text.
    static PROBES: AtomicUsize = AtomicUsize::new(0);
    let name = format!("plan_probe_{}", PROBES.fetch_add(1, Ordering::Relaxed));
    store
        .read(|db| {
            db.execute_batch(&format!("PREPARE {name} AS {}", to_postgres(sql)))?;
            let execute = format!("EXPLAIN EXECUTE {name}({})", values.join(", "));
            let first = db.query_map(&execute, &[], |row| row.get::<String>(0))?;
            db.execute_batch("SET plan_cache_mode = force_generic_plan")?;
            let generic = db.query_map(&execute, &[], |row| row.get::<String>(0));
            // The pooled connection goes back as it came.
            db.execute_batch(&format!("RESET plan_cache_mode; DEALLOCATE {name}"))?;
            Ok(vec![first.join("\n"), generic?.join("\n")])
        })
        .unwrap()
}

/// What a plan of either database shows when it reads the whole of the crawl's pages (a
/// scan, or a bitmap of every row of the crawl) or sorts them.
fn scans_or_sorts(plan: &str) -> bool {
    plan.lines().any(|line| {
        let line = line.trim_start_matches(|c: char| !c.is_ascii_alphabetic());
        line.starts_with("SCAN crawl_pages")
            || line.contains("TEMP B-TREE")
            || line.contains("Seq Scan on crawl_pages")
            || line.contains("Sort")
            || line.contains("Bitmap Heap Scan on crawl_pages")
    })
}

fn check(store: &Store) {
    fill(store);
    let pg = store.is_postgres();
    let crawl = format!("'{CRAWL}'");
    let some = format!("'{}'", url(DONE + FETCHING + 5));
    // (what, SQL, values, an index its plan must name)
    let claims = [
        ("claim linked", claim_filter(true, None)),
        ("claim linked within a depth", claim_filter(true, Some(3))),
        ("claim unlinked", claim_filter(false, None)),
    ];
    let mut cases: Vec<(String, String, Vec<&str>, &[&str])> = Vec::new();
    for (what, filter) in &claims {
        let values = if pg { vec![crawl.as_str(), "'w'"] } else { vec![crawl.as_str(), "16", "'w'"] };
        cases.push((what.to_string(), claim_sql(pg, filter, 16), values, &["crawl_pages_queue"][..]));
    }
    let by_key: &[&str] = &["crawl_pages_pkey", "sqlite_autoindex_crawl_pages_1", "crawl_pages_answer"];
    let null = "NULL";
    // The count is an aggregate over every row of the crawl: linear in the crawl whichever
    // way it reads them, and read once when a crawl starts or resumes (its driver keeps the
    // counts in memory after, `Store::driving_crawl`), never per claim. SQLite reads it off
    // the queue index; PostgreSQL's planner may rightly prefer a parallel sequential scan when
    // the crawl is a large share of the table (45% here), so its plan is not held to an index.
    if !pg {
        cases.push(("count".to_string(), COUNT_ENTRIES.to_string(), vec![crawl.as_str()], &["crawl_pages_queue"][..]));
    }
    cases.extend([
        ("deepest queued".to_string(), DEEPEST_QUEUED.to_string(), vec![crawl.as_str()], &["crawl_pages_queue"][..]),
        ("get".to_string(), GET_ENTRY.to_string(), vec![crawl.as_str(), some.as_str()], by_key),
        (
            "enqueue".to_string(),
            INSERT_ENTRY.to_string(),
            vec![crawl.as_str(), some.as_str(), "4", null, "'link'", "'queued'", null, null, null],
            // SQLite finds the conflict on the primary key's own index, which its plan of an
            // INSERT does not show; PostgreSQL names it as the conflict's arbiter.
            if pg { &["Conflict Arbiter Indexes: crawl_pages_pkey"][..] } else { &[][..] },
        ),
        (
            "update".to_string(),
            UPDATE_ENTRY.to_string(),
            vec![crawl.as_str(), some.as_str(), "3", null, "'link'", "'done'", "200", null, null],
            by_key,
        ),
        (
            "promote unlinked".to_string(),
            PROMOTE_UNLINKED.to_string(),
            vec![crawl.as_str(), some.as_str(), "3", "'https://site.example/'", "'link'"],
            by_key,
        ),
        (
            "promote shallower".to_string(),
            PROMOTE_SHALLOWER.to_string(),
            vec![crawl.as_str(), some.as_str(), "3", "'https://site.example/'", "'link'"],
            by_key,
        ),
        (
            "requeue".to_string(),
            REQUEUE_FETCHING.to_string(),
            vec![crawl.as_str(), "'w2'", "'2026-11-28T00:00:00Z'"],
            &["crawl_pages_queue"][..],
        ),
    ]);
    for (what, sql, values, indexes) in &cases {
        for plan in plans(store, sql, values) {
            assert!(!scans_or_sorts(&plan), "{what} scans or sorts the crawl's pages:\n{plan}");
            assert!(
                indexes.is_empty() || indexes.iter().any(|index| plan.contains(index)),
                "{what} reads none of {indexes:?}:\n{plan}"
            );
        }
    }

    // And the claims take what they should off the filled queue: the shallowest first, in
    // the order the URLs came, the unlinked ones after every linked one.
    let mut frontier = store.driving_crawl(CRAWL, "w");
    let first_linked = DONE + FETCHING + 1;
    let urls = |entries: Vec<crawl::Entry>| entries.into_iter().map(|e| e.url).collect::<Vec<_>>();
    // Numbers that are multiples of 3 are at depth 4.
    let depth_3: Vec<String> = (first_linked..).filter(|i| i % 3 != 0).take(4).map(url).collect();
    assert_eq!(urls(frontier.claim_within(4, false, Some(3)).unwrap()), depth_3);
    assert!(frontier.claim_within(4, false, Some(2)).unwrap().is_empty(), "nothing queued at depth 2");
    let unlinked = first_linked + LINKED;
    let mut frontier = store.crawl_frontier(CRAWL, "w");
    let counts = frontier.counts().unwrap();
    assert_eq!(counts.queued, LINKED - 4 + UNLINKED);
    assert_eq!(counts.queued_unlinked, UNLINKED);
    assert_eq!(counts.fetching, FETCHING + 4);
    assert_eq!(counts.done, DONE);
    // Unlinked entries only once no linked one is left: claim the linked ones away by SQL.
    store
        .write(|db| {
            db.execute_batch(
                "UPDATE crawl_pages SET state = 'done' WHERE crawl_id = 'cr_frontier' AND state = 'queued' \
                 AND depth IS NOT NULL",
            )
        })
        .unwrap();
    assert_eq!(urls(frontier.claim(3, true).unwrap()), (unlinked..unlinked + 3).map(url).collect::<Vec<_>>());
}

#[test]
fn a_frontier_of_hundreds_of_thousands_of_urls_is_read_by_index_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("frontier.db")).unwrap();
    check(&store);
}

#[test]
fn a_frontier_of_hundreds_of_thousands_of_urls_is_read_by_index_on_postgres() {
    let Some(server) = test_support::TempPostgres::shared() else { return };
    let store = Store::connect(&server.fresh_database()).unwrap();
    check(&store);
}

/// The claim's statement stays prepared whatever its limit: a claim asks for as many URLs as
/// the frontier has free places, which change from one claim to the next, and a limit that
/// SQLite plans with would make each new one prepare the statement again (3% of a crawl's
/// CPU, `claim_sql`).
#[test]
fn a_claim_whose_limit_changes_is_not_prepared_again_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("frontier.db")).unwrap();
    let pages = fill_sql(false, CRAWL, 1, 100, "1 + i % 3", "'queued'");
    store.write(|db| db.execute_batch(&format!("{RUNNING_CRAWL}{pages}"))).unwrap();
    let mut frontier = store.driving_crawl(CRAWL, "w");
    let mut claimed = 0;
    for limit in [1, 5, 2, 7, 3, 1, 4] {
        claimed += frontier.claim_within(limit, false, None).unwrap().len();
    }
    assert_eq!(claimed, 23);
    let sql = claim_sql(false, &claim_filter(true, None), 0);
    let reprepared = store
        .write_each(|db| match db {
            crate::sql::Db::Lite(conn) => {
                Ok(conn.prepare_cached(&sql)?.get_status(rusqlite::StatementStatus::RePrepare))
            }
            crate::sql::Db::Pg(_) => unreachable!("a SQLite store"),
        })
        .unwrap();
    assert_eq!(reprepared, 0, "the claim was prepared again {reprepared} times");
}
