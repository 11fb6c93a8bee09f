//! The rule table. Scoring, the methodology document, the checks resource, auto-fix coverage
//! and `docs/RULES.md` all iterate [`RULES`]; adding a rule means adding a file and a line here.
//!
//! Each rule is also reachable by its category (`rules::images::ImageAltMissing`), so that code
//! and tests elsewhere name a rule through its unit (`ImageAltMissing.meta().id`) rather than
//! writing its id again: a rule's id is written in its own file only (CI: `.ci/rule_ids.py`).

pub mod content;
pub mod i18n;
pub mod images;
pub mod links;
pub mod mobile;
pub mod performance;
pub(crate) mod prelude;
pub mod social;
pub mod structured;
pub mod technical;
pub(crate) mod util;

use crate::rule::Rule;

/// Every rule, in display order (category, then severity of the problem it finds).
pub static RULES: &[&dyn Rule] = &[
    &technical::HttpStatusError,
    &technical::RedirectChain,
    &technical::MetaRefresh,
    &technical::NotHttps,
    &technical::MixedContent,
    &technical::FormInsecure,
    &technical::PageNoindex,
    &technical::PageNofollow,
    &technical::PageNosnippet,
    &technical::PageNoimageindex,
    &technical::RobotsTxtBlocked,
    &technical::RobotsTxtInvalid,
    &technical::HeadEndedEarly,
    &technical::CanonicalMissing,
    &technical::CanonicalRelative,
    &technical::CanonicalMultiple,
    &technical::CanonicalHeaderConflict,
    &technical::CanonicalPointsElsewhere,
    &technical::CanonicalWithNoindex,
    &technical::CanonicalFragment,
    &technical::CharsetMissing,
    &technical::FaviconMissing,
    &technical::UrlTooLong,
    &technical::UrlUppercase,
    &technical::UrlUnderscores,
    &technical::UrlMultipleSlashes,
    &technical::UrlManyParameters,
    &content::TitleMissing,
    &content::TitleTooShort,
    &content::TitleTooLong,
    &content::TitleTooWide,
    &content::TitleMultiple,
    &content::MetaDescriptionMissing,
    &content::MetaDescriptionTooShort,
    &content::MetaDescriptionTooLong,
    &content::MetaDescriptionTooWide,
    &content::MetaDescriptionMultiple,
    &content::H1Missing,
    &content::H1Multiple,
    &content::H1Empty,
    &content::HeadingLevelsSkipped,
    &content::ThinContent,
    &content::LowTextRatio,
    &images::ImageAltMissing,
    &images::ImageAltTooLong,
    &images::ImageDimensionsMissing,
    &images::PictureWithoutImg,
    &links::LinkTextNotDescriptive,
    &links::LinkUncrawlable,
    &links::LinkEmptyText,
    &links::LinksTooMany,
    &links::InternalLinkNofollow,
    &links::LinkToHttp,
    &social::OgTitleMissing,
    &social::OgDescriptionMissing,
    &social::OgImageMissing,
    &social::OgImageRelative,
    &social::TwitterCardMissing,
    &structured::StructuredDataMissing,
    &structured::StructuredDataInvalidJson,
    &structured::StructuredDataNoContext,
    &structured::StructuredDataRequiredProperties,
    &structured::StructuredDataRecommendedProperties,
    &structured::StructuredDataRetiredRichResult,
    &performance::HtmlTooLarge,
    &performance::SlowResponse,
    &performance::RenderBlockingScripts,
    &performance::DomTooLarge,
    &performance::HtmlTooComplex,
    &mobile::ViewportMissing,
    &mobile::ViewportNotDeviceWidth,
    &mobile::ViewportNotScalable,
    &i18n::HtmlLangMissing,
    &i18n::HtmlLangInvalid,
    &i18n::HreflangInvalidCode,
    &i18n::HreflangNoSelfReference,
    &i18n::HreflangNoXDefault,
    &i18n::HreflangLangMismatch,
    &i18n::HreflangConflictingEntries,
    &i18n::HreflangRelativeUrl,
];
