//! Writes beside crawls' batches (docs/ARCHITECTURE.md, "`crates/store`"): on SQLite every
//! write of the process waits for its turn in one queue, so a crawl that commits a batch of
//! large records and opens the next at once no longer starves the other writers until their
//! busy timeout ("database is locked").

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};

use crawl::{CrawledPage, FrontierStore, Outlink};
use serde_json::json;
use store::{Consumption, NewAudit, NewCrawl, NewDelivery, NewWebhook, Retention, Tier};
use time::OffsetDateTime;

use crate::backend::{both, fresh};

/// A page record of about `links` × 2 KiB: links to URLs of 1,900 bytes, as large as the
/// crawl's bound on a recorded URL lets a hostile page make them.
fn large_record(url: &str, links: usize) -> CrawledPage {
    let pad = "x".repeat(1_900);
    CrawledPage {
        url: url.to_string(),
        status: Some(200),
        html: true,
        title: Some("t".repeat(1_000)),
        outlinks: (0..links)
            .map(|i| Outlink {
                url: format!("{url}/{i}-{pad}"),
                anchor: "a".repeat(100),
                internal: true,
                nofollow: false,
                follow: true,
            })
            .collect(),
        score: Some(50),
        ..CrawledPage::default()
    }
}

/// Writers of every kind the service has beside running crawls.
const WRITERS: usize = 4;
/// Rounds of writes each writer makes.
const ROUNDS: usize = 12;

both! {
    /// Two crawls write batches of large records back to back (each commits and opens its
    /// next batch at once, as a crawl with results waiting does) while four writers queue
    /// crawls, store audits, count quota, log webhook deliveries and run the sweeps: no write
    /// fails, and every row is there.
    fn writers_beside_crawls_of_large_records_all_succeed(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let owner = s.create_user(Tier::Free).unwrap().id;
        let hook = s
            .create_webhook(NewWebhook {
                user_id: owner.clone(),
                url: "https://hooks.example.com/".into(),
                events: vec!["audit.completed".into()],
            })
            .unwrap()
            .id;
        // One minute for every quota count, so that the total is one bucket's.
        let minute = OffsetDateTime::now_utc();
        let writes_done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        // Everyone starts once both crawls hold or wait for their first batch.
        let start = Arc::new(Barrier::new(2 + WRITERS));

        let crawls: Vec<_> = (0..2)
            .map(|c| {
                let (s, stop, start) = (s.clone(), stop.clone(), start.clone());
                std::thread::spawn(move || {
                    let crawl = s
                        .create_crawl(
                            NewCrawl {
                                user_id: None,
                                url: format!("https://site{c}.test/"),
                                options_json: "{}".into(),
                                max_pages: 30,
                            },
                            "w",
                            OffsetDateTime::now_utc() + time::Duration::seconds(600),
                        )
                        .unwrap();
                    s.start_crawl(&crawl.id).unwrap();
                    let mut frontier = s.driving_crawl(&crawl.id, "w");
                    let writer = frontier.writer();
                    start.wait();
                    let mut pages = 0usize;
                    // Until the writers are done, and at least a few batches.
                    while !stop.load(Ordering::SeqCst) || pages < 12 {
                        frontier.begin().unwrap();
                        for _ in 0..3 {
                            let url = format!("https://site{c}.test/p{pages}");
                            writer.record_page(&large_record(&url, 150), &[]).unwrap();
                            pages += 1;
                        }
                        frontier.commit().unwrap();
                    }
                    (crawl.id, pages)
                })
            })
            .collect();

        let writers: Vec<_> = (0..WRITERS)
            .map(|w| {
                let (s, owner, hook, done, start) =
                    (s.clone(), owner.clone(), hook.clone(), writes_done.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    for round in 0..ROUNDS {
                        let url = format!("https://audited.test/{w}/{round}");
                        let mut audit = NewAudit::new(&url, &url, 70, "1", json!({"score": 70}).to_string());
                        audit.user_id = Some(owner.clone());
                        s.insert_audit(audit).unwrap();
                        let granted = s.consume("ip:192.0.2.1", 1, 1_000_000, minute).unwrap();
                        assert!(matches!(granted, Consumption::Allowed { .. }), "{granted:?}");
                        s.record_delivery(NewDelivery {
                            webhook_id: hook.clone(),
                            event: "audit.completed".into(),
                            payload: "{}".into(),
                            attempt: 1,
                            status_code: Some(200),
                            error: None,
                        })
                        .unwrap();
                        s.queue_crawl(NewCrawl {
                            user_id: Some(owner.clone()),
                            url: url.clone(),
                            options_json: "{}".into(),
                            max_pages: 30,
                        })
                        .unwrap();
                        // The sweeps, which delete nothing of this test's fresh rows.
                        s.prune_usage(OffsetDateTime::now_utc()).unwrap();
                        s.prune(&retention(), OffsetDateTime::now_utc()).unwrap();
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        let written: Vec<_> = writers.into_iter().map(|w| w.join()).collect();
        stop.store(true, Ordering::SeqCst);
        let crawled: Vec<(vocab::CrawlId, usize)> = crawls.into_iter().map(|c| c.join().unwrap()).collect();
        for w in written {
            w.unwrap();
        }

        // Nothing lost: every write is there.
        let n = (WRITERS * ROUNDS) as u64;
        assert_eq!(writes_done.load(Ordering::SeqCst) as u64, n);
        assert_eq!(s.count_audits().unwrap(), n, "{backend:?}");
        assert_eq!(s.usage_counts("ip:192.0.2.1", minute).unwrap().this_minute, n, "{backend:?}");
        assert_eq!(s.list_deliveries(&hook, 1_000).unwrap().len() as u64, n, "{backend:?}");
        let raw = f.raw();
        assert_eq!(raw.count("crawls") as u64, n + 2, "{backend:?}");
        for (id, pages) in &crawled {
            let stored = raw.int(&format!(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM crawl_pages WHERE crawl_id = '{id}' AND record_json IS NOT NULL"
            ));
            assert_eq!(stored as usize, *pages, "{backend:?}: crawl {id}");
        }
    }
}

/// The service's retention of anonymous and keyed data, as it sweeps.
fn retention() -> Retention {
    Retention {
        anonymous_audit_age: time::Duration::days(90),
        keyed_audit_age: time::Duration::days(730),
        anonymous_crawl_age: time::Duration::days(7),
        keyed_crawl_age: time::Duration::days(180),
        anonymous_crawls: 1_000,
        keyed_crawls_per_owner: 200,
        crawl_pages_age: time::Duration::days(90),
    }
}
