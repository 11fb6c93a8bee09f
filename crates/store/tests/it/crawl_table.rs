//! The crawl report's pages table in the store (docs/API.md, "The report's pages table"):
//! sorted, filtered and paged by the database, the same on SQLite and PostgreSQL; and the
//! rows that make share links revocable, with the service secret that signs them
//! (docs/API.md, "Share links").

use crawl::{CrawledPage, Outlink};
use store::{FailedRule, NewCrawl, PageSort, PageTableQuery, SortOrder, StatusFilter, Store};
use time::OffsetDateTime;

use crate::backend::{both, fresh};

fn lease() -> OffsetDateTime {
    OffsetDateTime::now_utc() + time::Duration::seconds(60)
}

fn failed(rule_id: &str) -> FailedRule {
    FailedRule { rule_id: rule_id.into(), severity: "warning".into(), detail: "x".into(), locations: None }
}

fn html(url: &str, depth: u32, score: u32, title: Option<&str>, links: &[&str]) -> CrawledPage {
    CrawledPage {
        url: url.into(),
        depth: Some(depth),
        status: Some(200),
        html: true,
        score: Some(score),
        title: title.map(str::to_string),
        outlinks: links
            .iter()
            .map(|l| Outlink { url: l.to_string(), anchor: "a".into(), internal: true, nofollow: false, follow: true })
            .collect(),
        ..CrawledPage::default()
    }
}

/// A crawl of six URLs, recorded in this order: `/` (200, score 90, failing rule-one), `/a`
/// (200, score 40, failing rule-one and rule-two, linked from `/` and the post), `/b` (404),
/// `/Blog/Post_1` (200, score 70, no title), `/blog/post%1` (301) and `/down` (no answer).
fn recorded(s: &Store) -> String {
    let new = NewCrawl { user_id: None, url: "https://t.test/".into(), options_json: "{}".into(), max_pages: 30 };
    let id = s.create_crawl(new, "w", lease()).unwrap().id;
    let u = |p: &str| format!("https://t.test{p}");
    let pages = [
        (html(&u("/"), 0, 90, Some("Home"), &[&u("/a"), &u("/b")]), vec![failed("rule-one")]),
        (html(&u("/a"), 1, 40, Some("Alpha"), &[&u("/")]), vec![failed("rule-one"), failed("rule-two")]),
        (CrawledPage::answered(u("/b"), Some(1), 404, None), vec![]),
        (html(&u("/Blog/Post_1"), 1, 70, None, &[&u("/a")]), vec![]),
        (CrawledPage::answered(u("/blog/post%1"), Some(2), 301, Some(u("/"))), vec![]),
        (
            CrawledPage { url: u("/down"), depth: Some(2), error: Some("refused".into()), ..CrawledPage::default() },
            vec![],
        ),
    ];
    for (page, rules) in &pages {
        s.record_crawl_page(&id, page, rules).unwrap();
    }
    // Inlinks are kept for recorded URLs only: `/` again, now that the URLs it links to are.
    s.record_crawl_page(&id, &pages[0].0, &pages[0].1).unwrap();
    id.into_string()
}

fn urls(s: &Store, id: &str, query: PageTableQuery) -> (Vec<String>, u64) {
    let table = s.crawl_page_table(id, &PageTableQuery { limit: 100, ..query }).unwrap();
    (table.rows.into_iter().map(|r| r.url.trim_start_matches("https://t.test").to_string()).collect(), table.total)
}

both! {
    fn the_pages_table_is_sorted_filtered_and_paged_by_the_database(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let id = recorded(s);
        let q = PageTableQuery::default;
        let all = ["/", "/a", "/b", "/Blog/Post_1", "/blog/post%1", "/down"];
        assert_eq!(urls(s, &id, q()), (all.map(String::from).to_vec(), 6), "crawl order by default");

        // URLs without a value come last whichever way the column is sorted, in crawl order.
        let sorted = |sort, order| urls(s, &id, PageTableQuery { sort, order, ..q() }).0;
        assert_eq!(sorted(PageSort::Score, SortOrder::Asc), ["/a", "/Blog/Post_1", "/", "/b", "/blog/post%1", "/down"]);
        assert_eq!(sorted(PageSort::Score, SortOrder::Desc), ["/", "/Blog/Post_1", "/a", "/b", "/blog/post%1", "/down"]);
        assert_eq!(sorted(PageSort::Status, SortOrder::Desc), ["/b", "/blog/post%1", "/", "/a", "/Blog/Post_1", "/down"]);
        assert_eq!(sorted(PageSort::Url, SortOrder::Asc), ["/", "/Blog/Post_1", "/a", "/b", "/blog/post%1", "/down"]);
        assert_eq!(sorted(PageSort::Crawl, SortOrder::Desc), ["/down", "/blog/post%1", "/Blog/Post_1", "/b", "/a", "/"]);
        assert_eq!(sorted(PageSort::Title, SortOrder::Asc)[..2], ["/a", "/"], "Alpha, Home, then no title");
        // / and /a have one counted inlink each, the others none: ties stay in crawl order.
        assert_eq!(sorted(PageSort::Inlinks, SortOrder::Desc)[..3], ["/", "/a", "/b"]);
        assert_eq!(sorted(PageSort::Inlinks, SortOrder::Asc), ["/b", "/Blog/Post_1", "/blog/post%1", "/down", "/", "/a"]);
        assert_eq!(sorted(PageSort::Failed, SortOrder::Desc)[..2], ["/a", "/"]);
        assert_eq!(sorted(PageSort::Depth, SortOrder::Desc)[..2], ["/blog/post%1", "/down"]);

        let filtered = |query: PageTableQuery| urls(s, &id, query);
        let status = |f| filtered(PageTableQuery { status: Some(f), ..q() });
        assert_eq!(status(StatusFilter::Code(404)), (vec!["/b".to_string()], 1));
        assert_eq!(status(StatusFilter::Class(2)).1, 3);
        assert_eq!(status(StatusFilter::Class(3)).0, ["/blog/post%1"]);
        assert_eq!(status(StatusFilter::None).0, ["/down"]);
        assert_eq!(status(StatusFilter::Class(5)), (vec![], 0));
        let rule = |r: &str| filtered(PageTableQuery { rule: Some(r.into()), ..q() }).0;
        assert_eq!(rule("rule-one"), ["/", "/a"]);
        assert_eq!(rule("rule-two"), ["/a"]);
        assert!(rule("rule-three").is_empty());
        // The text is found without ASCII case, and `%` and `_` are plain characters.
        let contains = |t: &str| filtered(PageTableQuery { contains: Some(t.into()), ..q() }).0;
        assert_eq!(contains("BLOG/"), ["/Blog/Post_1", "/blog/post%1"]);
        assert_eq!(contains("post_"), ["/Blog/Post_1"]);
        assert_eq!(contains("post%"), ["/blog/post%1"]);
        assert!(contains("nowhere").is_empty());

        // Filters together, sorted, a page at a time: the total counts every page's rows.
        let both = PageTableQuery {
            status: Some(StatusFilter::Class(2)),
            sort: PageSort::Score,
            order: SortOrder::Desc,
            ..q()
        };
        let page = |offset| s.crawl_page_table(&id, &PageTableQuery { offset, limit: 2, ..both.clone() }).unwrap();
        let (first, second) = (page(0), page(2));
        assert_eq!((first.total, second.total), (3, 3));
        let seen: Vec<&str> = first.rows.iter().chain(&second.rows).map(|r| r.url.as_str()).collect();
        assert_eq!(seen, ["https://t.test/", "https://t.test/Blog/Post_1", "https://t.test/a"]);
        assert!(page(4).rows.is_empty());
        let row = &first.rows[0];
        assert_eq!((row.status_code, row.depth, row.inlinks, row.score), (Some(200), Some(0), 1, Some(90)));
        assert_eq!((row.title.as_deref(), row.failed_rules.as_slice()), (Some("Home"), ["rule-one".to_string()].as_slice()));

        // Another crawl's rows are never read.
        let other = recorded(s);
        assert_eq!(urls(s, &other, q()).1, 6);
        assert_eq!(urls(s, &id, q()).1, 6);
    }
}

both! {
    fn share_links_are_kept_listed_revoked_and_bounded(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let id = recorded(s);
        let in_a_week = OffsetDateTime::now_utc() + time::Duration::days(7);
        let link = s.create_crawl_share(&id, in_a_week).unwrap();
        assert!(link.id.starts_with(store::SHARE_ID_TAG) && link.id.len() == 25, "{}", link.id);
        assert_eq!(link.expires_at.to_string(), store::format_rfc3339(in_a_week));
        assert_eq!(s.crawl_share(&link.id).unwrap().as_ref(), Some(&link));
        assert_eq!(s.crawl_share("sh_nonexistent").unwrap(), None);
        assert!(s.create_crawl_share("cr_0000000000000000000000", in_a_week).unwrap_err().is_not_found());

        // Revoked once: a second revocation keeps the first time.
        let revoked = s.revoke_crawl_share(&id, &link.id).unwrap();
        assert!(revoked.revoked_at.is_some());
        assert_eq!(s.revoke_crawl_share(&id, &link.id).unwrap(), revoked);
        // A link is revoked through its own crawl only.
        let other = recorded(s);
        assert!(s.revoke_crawl_share(&other, &link.id).unwrap_err().is_not_found());

        // At most MAX_SHARES_PER_CRAWL links a crawl, newest first.
        for _ in 1..store::MAX_SHARES_PER_CRAWL {
            s.create_crawl_share(&id, in_a_week).unwrap();
        }
        assert!(s.create_crawl_share(&id, in_a_week).unwrap_err().is_invalid());
        let listed = s.crawl_shares(&id).unwrap();
        assert_eq!(listed.len() as u64, store::MAX_SHARES_PER_CRAWL);
        assert!(listed.windows(2).all(|w| (&w[0].created_at, &w[0].id) >= (&w[1].created_at, &w[1].id)));
        assert!(s.crawl_shares(&other).unwrap().is_empty());
        s.create_crawl_share(&other, in_a_week).unwrap();

        // The secret is made once, and is the same for another process on the database.
        let secret = s.service_secret("crawl-share").unwrap();
        assert_eq!(secret.len(), store::SERVICE_SECRET_BYTES);
        assert_eq!(f.open_again().service_secret("crawl-share").unwrap(), secret);
        assert_ne!(s.service_secret("another").unwrap(), secret);
    }
}
