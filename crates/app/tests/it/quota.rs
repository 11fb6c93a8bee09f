//! Quota charged by the use cases themselves, not by the server: the auto-fix batch
//! ([`app::App::auto_fix`]) and an agent-tool call ([`app::App::charge_call`]).

use app::quota::{CallCharge, Raise};

use crate::support::open;

/// A batch of one issue described in words (no rule id: the fix is the generic one).
fn issues() -> Vec<autofix::Issue<'static>> {
    let issue = serde_json::json!({ "title": "The page has no meta description" });
    vec![serde_json::from_value(issue).expect("an issue")]
}

#[tokio::test]
async fn an_auto_fix_batch_is_charged_one_unit_before_its_fixes() {
    let t = open(1, 1);
    let payer = t.anonymous("198.51.100.20", 2);
    let fixes = t.app.auto_fix(issues(), &payer).await.expect("fixed");
    assert_eq!(fixes.len(), 1);
    assert_eq!(payer.decision().map(|d| (d.allowed, d.remaining)), Some((true, 1)));
    assert_eq!(t.remaining("198.51.100.20", 2).await, 1);
}

#[tokio::test]
async fn an_auto_fix_batch_out_of_quota_is_refused_and_consumes_nothing() {
    let t = open(1, 1);
    let first = t.anonymous("198.51.100.21", 1);
    t.app.auto_fix(issues(), &first).await.expect("the only unit");
    let again = t.anonymous("198.51.100.21", 1);
    let e = t.app.auto_fix(issues(), &again).await.expect_err("no unit left");
    assert_eq!(e.error_code().as_str(), "rate_limited");
    assert!(e.message().contains("An API key raises the limit."), "{}", e.message());
    assert_eq!(again.decision().map(|d| (d.allowed, d.remaining)), Some((false, 0)));
}

#[tokio::test]
async fn a_tool_call_pays_its_unit_once() {
    let t = open(1, 1);
    // The call's unit, charged before the tool runs.
    let payer = t.anonymous("198.51.100.22", 3);
    let charge = t.app.charge_call("auto_fix_batch", &payer).await;
    assert!(matches!(charge, CallCharge::Granted(d) if d.remaining == 2), "{charge:?}");
    // The tool's use case then takes a payer that paid it: nothing more is charged.
    let prepaid = t.anonymous("198.51.100.22", 3).prepaid(1);
    t.app.auto_fix(issues(), &prepaid).await.expect("fixed");
    assert_eq!(t.remaining("198.51.100.22", 3).await, 2);
}

#[tokio::test]
async fn a_status_poll_is_free_and_a_refused_call_says_what_raises_the_limit() {
    let t = open(1, 1);
    let payer = t.anonymous("198.51.100.23", 1);
    assert_eq!(t.app.charge_call("crawl_status", &payer).await, CallCharge::Free);
    assert_eq!(payer.decision(), None, "nothing was asked of the limiter");
    assert!(matches!(t.app.charge_call("seo_audit", &payer).await, CallCharge::Granted(_)));
    let refused = t.app.charge_call("seo_audit", &payer).await;
    match refused {
        CallCharge::Refused { decision, raise } => {
            assert_eq!((decision.allowed, decision.remaining, decision.limit), (false, 0, 1));
            assert_eq!(raise, Raise::Key, "an anonymous caller is told a key raises the limit");
        }
        other => panic!("not refused: {other:?}"),
    }
    // The poll stays free once the minute is spent.
    assert_eq!(t.app.charge_call("crawl_status", &payer).await, CallCharge::Free);
}

#[tokio::test]
async fn a_free_key_is_told_of_the_higher_tier_and_its_usage_counts_what_it_paid() {
    let t = open(1, 1);
    // A key of its own limit, written as the operator's command line writes one.
    let store = store::Store::open(t.dir().join("seo-audit.db")).expect("the same database");
    let new = store::NewKey { rate_limit: Some(2), ..store::NewKey::new("tests", store::Tier::Free) };
    let (plaintext, _) = store.create_key(new).expect("a key");
    let record = t.app.find_key(plaintext).await.expect("looked up").expect("the key");
    let owner = record.user_id.clone();
    let identity = app::quota::Identity::Key(std::sync::Arc::new(record));
    let payer = app::quota::Payer::new(identity, std::sync::Arc::clone(&t.limiter), &app::RateLimits::default());
    assert!(matches!(t.app.charge_call("seo_audit", &payer).await, CallCharge::Granted(_)));
    assert!(matches!(t.app.charge_call("seo_audit", &payer).await, CallCharge::Granted(_)));
    match t.app.charge_call("seo_audit", &payer).await {
        CallCharge::Refused { raise, .. } => assert_eq!(raise, Raise::Tier(store::Tier::Pro)),
        other => panic!("not refused: {other:?}"),
    }
    let usage = t.app.usage_snapshot(&payer).await.expect("the snapshot");
    assert_eq!((usage.user_id.as_str(), usage.tier, usage.rate_limit_per_minute), (owner.as_str(), "free", 2));
    assert_eq!(usage.requests_this_minute, 2, "the units granted, not the refused one");
    assert_eq!(usage.api_keys.len(), 1);
    // Without a key there is no snapshot.
    let e = t.app.usage_snapshot(&t.anonymous("198.51.100.24", 5)).await.expect_err("anonymous");
    assert_eq!(e.error_code().as_str(), "unauthorized");
}
