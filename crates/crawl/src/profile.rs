//! Who a crawl says it is (docs/API.md, "User agent"): the user agent it sends and the
//! robots.txt product token it obeys, which always go together.

/// The product token the crawl obeys robots.txt for (the default profile's).
pub const USER_AGENT_TOKEN: &str = "SeoAuditBot";

/// The robots.txt product token of the smartphone profile: `Googlebot`, the token Google's
/// smartphone crawler obeys (its user agent names `Googlebot/2.1`).
pub const SMARTPHONE_TOKEN: &str = "Googlebot";

/// The user agent of the smartphone profile: Google's smartphone crawler's, as Google
/// documents it, with a fixed Chrome version.
pub const SMARTPHONE_USER_AGENT: &str = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) \
     AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; \
     Googlebot/2.1; +http://www.google.com/bot.html)";

/// A crawl's identity: what it sends as `User-Agent` and which group of robots.txt it obeys
/// (RFC 9309 §2.2.1: the group of its product token, or `*` when there is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CrawlerProfile {
    /// `SeoAuditBot/<version> (+<bot page>)`, obeying the `SeoAuditBot` group: the default.
    #[default]
    SeoAuditBot,
    /// Google's smartphone crawler's user agent ([`SMARTPHONE_USER_AGENT`]), obeying the
    /// `Googlebot` group ([`SMARTPHONE_TOKEN`]): to see a site as it serves mobile-first
    /// indexing.
    Smartphone,
}

impl CrawlerProfile {
    /// The names a request gives: `default` and `smartphone`.
    pub const NAMES: [&'static str; 2] = ["default", "smartphone"];

    /// The profile of a name of [`CrawlerProfile::NAMES`].
    pub fn from_name(name: &str) -> Option<CrawlerProfile> {
        match name {
            "default" => Some(CrawlerProfile::SeoAuditBot),
            "smartphone" => Some(CrawlerProfile::Smartphone),
            _ => None,
        }
    }

    /// Its name in requests.
    pub fn name(self) -> &'static str {
        match self {
            CrawlerProfile::SeoAuditBot => "default",
            CrawlerProfile::Smartphone => "smartphone",
        }
    }

    /// The robots.txt product token it obeys.
    pub fn robots_token(self) -> &'static str {
        match self {
            CrawlerProfile::SeoAuditBot => USER_AGENT_TOKEN,
            CrawlerProfile::Smartphone => SMARTPHONE_TOKEN,
        }
    }

    /// The `User-Agent` it sends; `None` for the fetcher's own (`SeoAuditBot`).
    pub fn user_agent(self) -> Option<&'static str> {
        match self {
            CrawlerProfile::SeoAuditBot => None,
            CrawlerProfile::Smartphone => Some(SMARTPHONE_USER_AGENT),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_token_is_in_the_user_agent() {
        for name in CrawlerProfile::NAMES {
            assert_eq!(CrawlerProfile::from_name(name).map(CrawlerProfile::name), Some(name));
        }
        assert_eq!(CrawlerProfile::from_name("desktop"), None);
        let phone = CrawlerProfile::Smartphone;
        assert!(phone.user_agent().is_some_and(|ua| ua.contains(phone.robots_token()) && ua.contains("Mobile")));
        assert_eq!(CrawlerProfile::default().robots_token(), "SeoAuditBot");
    }
}
