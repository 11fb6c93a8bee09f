//! Site rules (crawl's `SITE_RULES`) are matched and fixed like page rules: an issue that names
//! a site rule's problem, by its id or in the words of another tool's title, gets the rule's
//! own fix; a site rule without a fix is no template, so an issue naming it gets the generic
//! text fix, never an empty one.

use audit_core::fix::{FixCtx, Given};
use autofix::{fix_issue, match_text, template_ids, FixContext, FixKind, Issue};
use crawl::rules::{SiteRule, SITE_RULES};

fn with_fix() -> Vec<&'static dyn SiteRule> {
    let bare = FixCtx::new(None, Given::new());
    SITE_RULES.iter().copied().filter(|r| r.fix(&bare).is_some()).collect()
}

#[test]
fn an_orphan_page_titled_as_another_tool_names_it_gets_a_link_to_it() {
    let issue = Issue {
        title: Some("Orphaned pages".into()),
        context: Some(FixContext { url: Some("https://shop.example/oak-chairs".into()), ..FixContext::default() }),
        ..Issue::default()
    };
    let fix = fix_issue(&issue);
    assert_eq!(fix.rule_id.as_deref(), Some("orphan-page"));
    assert_eq!(fix.kind, FixKind::Html);
    assert!(fix.fix.starts_with("<a href=\"https://shop.example/oak-chairs\">"), "{}", fix.fix);
    assert!(fix.fix.contains("TODO:"), "the link text is the page's own, not invented: {}", fix.fix);
    assert_eq!(fix.placeholders.len(), 1);
}

#[test]
fn a_broken_internal_link_gets_a_redirect_of_its_own_path() {
    let issue = Issue {
        title: Some("Broken internal links (404)".into()),
        context: Some(FixContext { url: Some("https://shop.example/old-chairs".into()), ..FixContext::default() }),
        ..Issue::default()
    };
    let fix = fix_issue(&issue);
    assert_eq!(fix.rule_id.as_deref(), Some("broken-internal-link"));
    assert_eq!(fix.kind, FixKind::ServerConfig);
    assert!(fix.fix.contains("location = /old-chairs {"), "{}", fix.fix);
    assert!(fix.fix.contains("Redirect 301 /old-chairs TODO:"), "{}", fix.fix);
}

#[test]
fn every_site_rule_with_a_fix_is_found_by_id_and_by_each_phrase() {
    let rules = with_fix();
    assert!(!rules.is_empty(), "no site rule offers a fix");
    let ids = template_ids();
    for rule in rules {
        let meta = rule.meta();
        assert!(ids.contains(&meta.id), "{} is not a template id", meta.id);
        assert!(!meta.phrases.is_empty(), "{} has a fix but no phrases", meta.id);
        let by_id = fix_issue(&Issue { id: Some(meta.id.into()), ..Issue::default() });
        assert_eq!(by_id.rule_id.as_deref(), Some(meta.id));
        assert_eq!(by_id.issue_title, meta.id);
        for phrase in meta.phrases {
            let m = match_text(phrase).unwrap_or_else(|| panic!("{}: {phrase:?} matches nothing", meta.id));
            assert_eq!(m.rule_id, meta.id, "{phrase:?}");
        }
    }
}

#[test]
fn a_site_rule_without_a_fix_gets_the_generic_text() {
    let bare = FixCtx::new(None, Given::new());
    let without = SITE_RULES.iter().find(|r| r.fix(&bare).is_none()).expect("some site rule has no fix");
    let id = without.meta().id;
    assert!(!template_ids().contains(&id));
    let fix = fix_issue(&Issue { id: Some(id.into()), ..Issue::default() });
    assert_eq!(fix.rule_id, None);
    assert_eq!(fix.kind, FixKind::Text);
}
