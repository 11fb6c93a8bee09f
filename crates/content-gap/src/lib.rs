//! Content-gap analysis: which sections a page lacks compared with what pages of its kind
//! usually cover.
//!
//! - [`analyze`] takes a [`GapInput`] (the URL, optional title, word count and headings from
//!   a request body, the fetched [`audit_core::Page`], and already-fetched competitor pages)
//!   and returns a [`ContentGapReport`]: the [`PageType`], a coverage figure 0..100 and the
//!   [`Gap`]s, serialised as `{pageType, pageTypeReason, coverage, gaps[{heading, section,
//!   priority, estimatedWords, reason}]}` plus the [`Classification`] that explains the page
//!   type. Gap headings are written for the page (its topic words: "Banana bread: nutrition
//!   facts"); `section` names the catalogue section.
//! - The page type comes from what the page declares (schema.org `@type`, `og:type`), else
//!   its structure, else words ([`DecidedBy`]).
//! - Without competitors (or when fewer than [`MIN_COMPETITORS_FOR_GAP`] agree on anything),
//!   gaps come from the built-in model of the page type ([`PageType::model`], sections from
//!   [`SECTIONS`] with English and German synonyms). With competitors, a section is a gap when
//!   at least [`MIN_COMPETITORS_FOR_GAP`] of them cover it and the page does not; its length
//!   is their median.
//! - Headings are compared after [`heading_key`]: folding (`ä` → `ae`), English and German
//!   stopwords, and a small suffix [`stem`]mer, so "Häufige Fragen" and "Haeufige Fragen",
//!   "Reviews" and "Kundenbewertungen" find their sections.
//!
//! The engine is pure (no I/O) and deterministic: the same input gives the same report.
//!
//! ```
//! use audit_core::{HttpFacts, Page};
//! use content_gap::{analyze, GapInput, PageType};
//!
//! let html = br#"<html><head><title>Classic banana bread recipe</title>
//!   <script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Banana bread"}</script>
//!   </head><body><h1>Banana bread</h1><h2>Ingredients</h2><p>Three ripe bananas.</p>
//!   <h2>Zubereitung</h2><p>Mash, mix and bake for an hour.</p></body></html>"#;
//! let page = Page::parse("https://example.com/recipes/banana-bread", html, HttpFacts::default());
//! let report = analyze(&GapInput { url: page.url.clone(), page: Some(&page), ..GapInput::default() });
//! assert_eq!(report.page_type, PageType::Recipe);
//! let nutrition = report.gaps.iter().find(|g| g.section.as_deref() == Some("Nutrition facts")).unwrap();
//! assert_eq!(nutrition.heading, "Banana bread: nutrition facts");
//! assert!(!report.gaps.iter().any(|g| g.section.as_deref() == Some("Instructions")));
//! ```

mod advice;
mod analyze;
mod classify;
mod facts;
mod model;
mod normalize;

pub use analyze::{
    analyze, analyze_within, classify_page, Basis, ContentGapReport, Gap, GapInput, Priority, MAX_COMPETITORS,
    MIN_COMPETITORS_FOR_GAP,
};
pub use classify::{Classification, DecidedBy, Signal};
pub use model::{section, Detect, ModelSection, PageType, Section, SECTIONS};
pub use normalize::{fold, key as heading_key, stem, tokens as heading_tokens};
