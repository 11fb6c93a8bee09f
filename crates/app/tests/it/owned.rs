//! What a caller does not hold is answered by the use case, as `not_found` with the
//! sentence the REST API sends (another owner's id exactly as an unknown one), and what a
//! badge or a crawl's report page shows is decided there too; the server only maps it.

use app::crawl::share::{link_of, ReportReader};
use app::crawl::table::TableQuery;
use app::crawl::Crawls;

use crate::support::open;

fn refusal(e: &app::AppError) -> (&'static str, String) {
    (e.error_code().as_str(), e.message())
}

#[tokio::test]
async fn ids_the_caller_does_not_hold_are_not_found() {
    let t = open(1, 1);
    let (owner, id) = ("user-1".to_string(), "nope".to_string());
    let e = t.app.stop_monitor(owner.clone().into(), id.clone().into()).await.expect_err("no monitor");
    assert_eq!(refusal(&e), ("not_found", "No monitor nope.".to_string()));
    let e = t.app.own_audit(owner.clone().into(), id.clone().into()).await.expect_err("no audit");
    assert_eq!(refusal(&e), ("not_found", "No audit of yours has the id nope.".to_string()));
    let subscription = ("not_found", "No webhook subscription nope.".to_string());
    let e = t.app.unsubscribe(owner.clone().into(), id.clone().into()).await.expect_err("no subscription");
    assert_eq!(refusal(&e), subscription);
    let e = t
        .app
        .set_subscription_enabled(owner.clone().into(), id.clone().into(), false)
        .await
        .expect_err("no subscription");
    assert_eq!(refusal(&e), subscription);
    let e = t.app.delivery_log(owner.clone().into(), id.clone().into()).await.expect_err("no subscription");
    assert_eq!(refusal(&e), subscription);
    // A test ping is charged first, whatever the subscription (its unit bounds the pings).
    let payer = t.anonymous("198.51.100.30", 5);
    let e = t.app.test_subscription(&payer, owner.into(), id.into()).await.expect_err("no subscription");
    assert_eq!(refusal(&e), subscription);
    assert_eq!(t.remaining("198.51.100.30", 5).await, 4);
}

#[tokio::test]
async fn a_share_link_alone_decides_who_reads_a_report_page() {
    let t = open(1, 1);
    let crawls = Crawls::new(t.app.clone());
    // An empty `share` parameter is no link: the caller's identity decides.
    assert_eq!(link_of(Some(String::new())), None);
    assert_eq!(link_of(None), None);
    assert_eq!(link_of(Some("t".to_string())), Some("t".to_string()));
    let id = &app::CrawlId::from("cr_aaaaaaaaaaaaaaaaaaaaaa");
    for reader in [ReportReader::Link("sh_x.1.sig".to_string()), ReportReader::Caller(Some("user-1".into()))] {
        let e = crawls.report_for(reader.clone(), id, TableQuery::default()).await.expect_err("no such crawl");
        assert_eq!(e.error_code().as_str(), "not_found", "{reader:?}");
    }
}

#[tokio::test]
async fn a_domain_without_an_audit_shows_no_score() {
    let t = open(1, 1);
    // An empty template switches the background audits off: nothing is fetched.
    let badges = app::BadgeQueue::new(t.app.clone(), String::new(), Box::new(|_: u32| true));
    assert_eq!(badges.badge_score("example.com").await.expect("read"), None);
}
