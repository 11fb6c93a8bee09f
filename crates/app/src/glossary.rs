//! The SEO glossary behind get_seo_concept and `svc://seo-concepts`: plain-language
//! entries for every audit rule and the common SEO and AI-search terms, with a forgiving
//! lookup (case, separators, plurals, aliases, rule ids, small typos) and ranked
//! suggestions when nothing matches.

use audit_core::{rule_by_id, RuleMeta, RULES};
use serde_json::{json, Value};

/// Concepts that share their name with the rule that checks them take their slug from the
/// rule, so that a rule's id is written only in its own file (CONTRIBUTING.md, "Adding a
/// rule").
const DUPLICATE_CONTENT: &str = crawl::rules::DuplicateContent::ID;
const MIXED_CONTENT: &str = audit_core::rules::technical::MixedContent::ID;
const REDIRECT_CHAIN: &str = audit_core::rules::technical::RedirectChain::ID;
const THIN_CONTENT: &str = audit_core::rules::content::ThinContent::ID;

/// One glossary entry. The audit rules that check the concept name it in their
/// `RuleMeta::glossary` ([`Entry::rules`]); a rule id resolves to the first entry (in
/// [`GLOSSARY`] order) that it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Stable kebab-case key, e.g. `canonical-url`.
    pub slug: &'static str,
    /// Display name.
    pub title: &'static str,
    /// Other ways people write it; matched after normalisation.
    pub aliases: &'static [&'static str],
    /// What it is.
    pub definition: &'static str,
    /// Why it matters for search or AI visibility.
    pub why: &'static str,
    /// What to do about it.
    pub how_to_fix: &'static str,
    /// Slugs of related entries.
    pub related: &'static [&'static str],
}

impl Entry {
    /// The ids of the rules that check the concept (those whose `glossary` names it): the
    /// page rules in the order of their table, then the site rules of a crawl in theirs.
    pub fn rules(&self) -> impl Iterator<Item = &'static str> + '_ {
        let page = RULES.iter().map(|r| (r.meta().id, r.meta().glossary));
        let site = crawl::rules::SITE_RULES.iter().map(|r| (r.meta().id, r.meta().glossary));
        page.chain(site).filter(|(_, glossary)| glossary.contains(&self.slug)).map(|(id, _)| id)
    }
}

/// What get_seo_concept returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Concept {
    /// Slug of the entry found, or the query as given when nothing matched.
    pub concept: String,
    /// Whether an entry matched.
    pub found: bool,
    /// Human title of the concept.
    pub title: String,
    /// What it is, in a few sentences.
    pub definition: String,
    /// Why search engines and assistants care.
    pub why_it_matters: String,
    /// What to do about it.
    pub how_to_fix: String,
    /// Rule ids of the audit that check it.
    pub related_rules: Vec<String>,
    /// Slugs of related glossary entries.
    pub related: Vec<String>,
    /// Slugs of the closest entries, best first, at most [`MAX_SUGGESTIONS`]; only when not found.
    pub suggestions: Vec<String>,
}

/// Most suggestions a miss returns.
pub const MAX_SUGGESTIONS: usize = 5;

/// Similarity below which an entry is not worth suggesting.
const MIN_SUGGESTION_SCORE: f64 = 0.34;

impl Concept {
    /// The structuredContent of get_seo_concept.
    pub fn to_json(&self) -> Value {
        if self.found {
            json!({
                "concept": self.concept,
                "found": true,
                "title": self.title,
                "definition": self.definition,
                "whyItMatters": self.why_it_matters,
                "howToFix": self.how_to_fix,
                "relatedRules": self.related_rules,
                "related": self.related,
            })
        } else {
            json!({ "concept": self.concept, "found": false, "suggestions": self.suggestions })
        }
    }

    fn from_entry(e: &Entry) -> Concept {
        Concept {
            concept: e.slug.to_string(),
            found: true,
            title: e.title.to_string(),
            definition: e.definition.to_string(),
            why_it_matters: e.why.to_string(),
            how_to_fix: e.how_to_fix.to_string(),
            related_rules: e.rules().map(str::to_string).collect(),
            related: e.related.iter().map(|r| r.to_string()).collect(),
            suggestions: Vec::new(),
        }
    }
}

/// The entry with this exact slug.
pub fn entry(slug: &str) -> Option<&'static Entry> {
    GLOSSARY.iter().find(|e| e.slug == slug)
}

/// The entry a rule id resolves to.
pub fn entry_for_rule(rule_id: &str) -> Option<&'static Entry> {
    let meta = rule_by_id(rule_id)?;
    GLOSSARY.iter().find(|e| meta.glossary.contains(&e.slug))
}

/// Looks a concept up. Never fails: a miss is `found: false` with suggestions.
pub fn concept(query: &str) -> Concept {
    match resolve(query) {
        Some(Resolved::Rule(meta)) => rule_concept(meta),
        Some(Resolved::Entry(e)) => Concept::from_entry(e),
        None => Concept {
            concept: query.trim().chars().take(200).collect(),
            found: false,
            title: String::new(),
            definition: String::new(),
            why_it_matters: String::new(),
            how_to_fix: String::new(),
            related_rules: Vec::new(),
            related: Vec::new(),
            suggestions: suggestions(query),
        },
    }
}

enum Resolved {
    Rule(&'static RuleMeta),
    Entry(&'static Entry),
}

fn resolve(query: &str) -> Option<Resolved> {
    let raw = query.trim().to_ascii_lowercase().replace(['_', ' '], "-");
    if let Some(meta) = rule_by_id(&raw) {
        return Some(Resolved::Rule(meta));
    }
    let tokens = normalize(query);
    if tokens.is_empty() {
        return None;
    }
    let compact: String = tokens.concat();
    // Exact match on slug, title or alias (normalised), then a rule id written loosely.
    for e in GLOSSARY {
        if names(e).any(|n| normalize(n).concat() == compact) {
            return Some(Resolved::Entry(e));
        }
    }
    for r in RULES {
        if normalize(r.meta().id).concat() == compact {
            return Some(Resolved::Rule(r.meta()));
        }
    }
    // An AI crawler's user-agent token ("GPTBot") is a question about AI crawlers; the bot
    // table of ai-visibility knows more of them than the glossary's aliases list.
    if ai_visibility::find_bot(query.trim()).is_some() {
        return entry("ai-crawlers").map(Resolved::Entry);
    }
    // A small typo: one edit in a short name, two in a long one, and only when one entry is closest.
    let mut best: Option<(usize, &'static Entry)> = None;
    let mut tie = false;
    let typed: String = folded(query).concat();
    for e in GLOSSARY {
        for n in names(e) {
            let name = folded(n).concat();
            let allowed = if name.len() >= 10 {
                2
            } else if name.len() >= 5 {
                1
            } else {
                0
            };
            let d = levenshtein(&typed, &name);
            if d > allowed {
                continue;
            }
            match best {
                Some((bd, be)) if d == bd && be.slug != e.slug => tie = true,
                Some((bd, _)) if d >= bd => {}
                _ => {
                    best = Some((d, e));
                    tie = false;
                }
            }
        }
    }
    if let (Some((_, e)), false) = (best, tie) {
        return Some(Resolved::Entry(e));
    }
    // A name inside a longer question ("how do I fix my canonical tag"): accepted when the
    // name covers at least half of the query's words; the longest such name wins.
    let mut contained: Option<(usize, &'static Entry)> = None;
    for e in GLOSSARY {
        for n in names(e) {
            let name = normalize(n);
            if name.is_empty() || name.len() * 2 < tokens.len() || !contains_run(&tokens, &name) {
                continue;
            }
            let len = name.concat().len();
            if contained.is_none_or(|(l, _)| len > l) {
                contained = Some((len, e));
            }
        }
    }
    contained.map(|(_, e)| Resolved::Entry(e))
}

fn rule_concept(meta: &'static RuleMeta) -> Concept {
    let id = meta.id;
    let mut c = match entry_for_rule(id) {
        Some(e) => Concept::from_entry(e),
        None => Concept {
            concept: id.to_string(),
            found: true,
            title: meta.name.to_string(),
            definition: String::new(),
            why_it_matters: meta.why.to_string(),
            how_to_fix: String::new(),
            related_rules: vec![id.to_string()],
            related: Vec::new(),
            suggestions: Vec::new(),
        },
    };
    let rule_text = format!(
        "Audit rule `{}` ({}; category {}, severity {}, weight {} of 100) fails when {}.",
        meta.id,
        meta.name,
        meta.category.as_str(),
        meta.severity.as_str(),
        meta.weight,
        meta.threshold
    );
    c.definition = if c.definition.is_empty() { rule_text } else { format!("{rule_text} {}", c.definition) };
    if c.how_to_fix.is_empty() {
        c.how_to_fix = format!("Make the page pass: {}.", meta.pass_example);
    }
    c
}

fn names(e: &'static Entry) -> impl Iterator<Item = &'static str> {
    [e.slug, e.title].into_iter().chain(e.aliases.iter().copied())
}

/// Words of a question about a term that are not English stop words but name no concept
/// ("what does canonical mean", "explain hreflang", "fix my title", "why canonical").
const QUESTION_WORDS: &[&str] = &["mean", "meaning", "define", "explain", "fix", "about", "why"];

/// The stems of a lookup's words through the one text normaliser (crate `text`: case and
/// diacritics folded, plurals and inflections stemmed), stop words and question words
/// dropped (unless nothing else is left).
fn normalize(s: &str) -> Vec<String> {
    content_words(s, |t| t.stem)
}

/// The same words folded but not stemmed: what typo tolerance compares, so that edits are
/// counted on the words as written ("canonicle" is two edits from "canonical", not one from
/// the stem of "canonicalization").
fn folded(s: &str) -> Vec<String> {
    content_words(s, |t| t.folded)
}

fn content_words(s: &str, part: impl Fn(text::Token<'_>) -> String) -> Vec<String> {
    let words = text::Normaliser::default();
    let tokens = words.tokens(s);
    let content = |t: &text::Token<'_>| !t.stop && !QUESTION_WORDS.contains(&t.folded.as_str());
    if tokens.iter().any(content) {
        tokens.into_iter().filter(content).map(part).collect()
    } else {
        tokens.into_iter().map(part).collect()
    }
}

fn contains_run(haystack: &[String], needle: &[String]) -> bool {
    needle.len() <= haystack.len() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// Edit distance over characters, for typo tolerance and suggestions.
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Similarity in 0..=1 of a query and a name: the better of word overlap (Jaccard, with
/// a word counting when one is a prefix of the other) and character similarity.
fn similarity(query: &[String], name: &[String]) -> f64 {
    if query.is_empty() || name.is_empty() {
        return 0.0;
    }
    let shared = query
        .iter()
        .filter(|q| {
            name.iter().any(|n| {
                n == *q || (q.len() >= 3 && n.starts_with(q.as_str())) || (n.len() >= 3 && q.starts_with(n.as_str()))
            })
        })
        .count();
    let union = query.len() + name.len() - shared.min(name.len());
    let overlap = shared as f64 / union.max(1) as f64;
    let (a, b) = (query.concat(), name.concat());
    let longest = a.chars().count().max(b.chars().count()).max(1);
    let chars = 1.0 - levenshtein(&a, &b) as f64 / longest as f64;
    overlap.max(chars)
}

fn suggestions(query: &str) -> Vec<String> {
    let tokens = normalize(query);
    let mut scored: Vec<(f64, usize, &'static str)> = GLOSSARY
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let best = names(e).map(|n| similarity(&tokens, &normalize(n))).fold(0.0, f64::max);
            (best, i, e.slug)
        })
        .filter(|(s, _, _)| *s >= MIN_SUGGESTION_SCORE)
        .collect();
    // Best first; equal scores keep glossary order, so the answer is deterministic.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(MAX_SUGGESTIONS).map(|(_, _, slug)| slug.to_string()).collect()
}

/// Every entry, in display order. Rule-specific entries come before the broader ones that
/// their rules also name, so a rule id resolves to the most precise explanation.
pub const GLOSSARY: &[Entry] = &[
    Entry {
        slug: "http-status-code",
        title: "HTTP status code",
        aliases: &["status code", "http status", "404", "404 error", "500 error", "4xx", "5xx", "soft 404", "server error", "broken page"],
        definition: "The three-digit number a server sends with every response: 2xx success, 3xx redirect, 4xx client error (404 not found, 410 gone), 5xx server error. A soft 404 is an error page that wrongly answers 200.",
        why: "Search engines index only pages that answer 2xx; a 4xx or 5xx page drops out of the index and links to it waste their value. Repeated 5xx answers also slow down crawling of the whole site.",
        how_to_fix: "Make pages that should rank answer 200. Redirect moved content with a 301 to its new URL, answer 404 or 410 for content that is gone, and fix the server or application errors behind 5xx answers.",
        related: &["301-redirect", "indexability", "crawl-budget"],
    },
    Entry {
        slug: "301-redirect",
        title: "301 redirect",
        aliases: &["redirect", "301", "permanent redirect", "302", "302 redirect", "temporary redirect", "308", "url redirect"],
        definition: "An HTTP answer that sends clients to another URL. 301 and 308 are permanent (the new URL replaces the old one in the index); 302 and 307 are temporary (the old URL stays indexed).",
        why: "A permanent redirect passes most of the old URL's signals (links, history) to the new one, so moving or renaming pages does not lose rankings. Temporary redirects used for permanent moves keep the wrong URL in the index.",
        how_to_fix: "Use a 301 (or 308) whenever a URL moves for good, point it straight at the final URL, update internal links to the new URL, and keep the redirect in place for at least a year.",
        related: &[REDIRECT_CHAIN, "http-status-code", "canonical-url"],
    },
    Entry {
        slug: REDIRECT_CHAIN,
        title: "Redirect chain",
        aliases: &["redirect chains", "redirect loop", "multiple redirects", "redirect hops"],
        definition: "Two or more redirects in a row before a URL reaches its final page (A redirects to B, which redirects to C). A loop is a chain that never ends.",
        why: "Every hop adds latency for users and crawlers, crawlers stop following after a few hops, and each hop is a chance to lose signals or break tracking.",
        how_to_fix: "Point every redirect directly at the final URL, update internal links, sitemaps and canonicals to the final URL, and merge http-to-https and www rules into one hop.",
        related: &["301-redirect", "crawl-budget", "https"],
    },
    Entry {
        slug: "https",
        title: "HTTPS",
        aliases: &["ssl", "tls", "ssl certificate", "secure connection", "http to https", "not secure", "hsts"],
        definition: "HTTP over TLS: the connection between browser and server is encrypted and the server proves its identity with a certificate.",
        why: "Google uses HTTPS as a ranking signal, browsers mark plain-HTTP pages as \"Not secure\", and many browser features (and referrer data) need a secure origin.",
        how_to_fix: "Install a certificate (free from Let's Encrypt), redirect every http:// URL to its https:// twin with a 301, update canonicals, sitemaps and internal links to https, then add an HSTS header.",
        related: &[MIXED_CONTENT, "301-redirect", "canonical-url"],
    },
    Entry {
        slug: MIXED_CONTENT,
        title: "Mixed content",
        aliases: &["mixed content warning", "insecure content", "http resources"],
        definition: "An HTTPS page that loads scripts, styles, images, frames or other subresources over plain http://.",
        why: "Browsers block mixed scripts and frames and flag mixed images, so the page can break or show a security warning, and it loses the trust signal of HTTPS.",
        how_to_fix: "Change every subresource URL to https:// (or a relative or protocol-relative URL when the host serves HTTPS), replace hosts that do not support HTTPS, and add `Content-Security-Policy: upgrade-insecure-requests` as a safety net.",
        related: &["https"],
    },
    Entry {
        slug: "noindex",
        title: "noindex",
        aliases: &["no index", "meta noindex", "noindex tag", "deindex"],
        definition: "A robots directive, in `<meta name=\"robots\" content=\"noindex\">` or the `X-Robots-Tag` HTTP header, that tells search engines not to show the page in results.",
        why: "A noindex page is removed from search results however good it is. Left over from a staging site or a plugin setting, it silently deletes pages from search.",
        how_to_fix: "Remove noindex from every page that should rank (check the meta robots tag, the X-Robots-Tag header and CMS SEO settings). Keep it on thin or private pages (internal search results, carts, thank-you pages), and do not also block those pages in robots.txt, or crawlers never see the noindex.",
        related: &["meta-robots", "robots-txt", "indexability", "canonical-url"],
    },
    Entry {
        slug: "nofollow",
        title: "nofollow",
        aliases: &["no follow", "rel nofollow", "nofollow link", "ugc", "rel ugc", "sponsored", "rel sponsored", "dofollow"],
        definition: "A hint that a link should not pass ranking credit: per link with `rel=\"nofollow\"` (or the more specific `sponsored` and `ugc`), or for all links of a page with the meta robots `nofollow` directive.",
        why: "Nofollow on a whole page or on internal links stops link equity from flowing through the site and can keep crawlers from discovering pages. On paid or user-generated links it is required by search engine guidelines.",
        how_to_fix: "Remove page-level nofollow and nofollow on internal links. Mark paid links `rel=\"sponsored\"` and links in comments or forums `rel=\"ugc\"`; leave ordinary editorial links without a rel value.",
        related: &["meta-robots", "internal-linking", "backlinks"],
    },
    Entry {
        slug: "meta-robots",
        title: "Meta robots and X-Robots-Tag",
        aliases: &["robots meta tag", "meta robots tag", "robots meta", "x robots tag", "x-robots-tag header", "robots directive", "noarchive", "nosnippet", "max snippet"],
        definition: "Page-level instructions for crawlers: the `<meta name=\"robots\">` tag in HTML, or the `X-Robots-Tag` HTTP header for any file type. Values include noindex, nofollow, nosnippet, noarchive and max-snippet / max-image-preview.",
        why: "These directives decide whether a crawled page may appear in results and how its snippet looks; a wrong value removes the page or its snippet.",
        how_to_fix: "Use `index, follow` (or no tag at all, the default) on pages that should rank, and set restrictive directives deliberately on the pages that need them. Check both the HTML tag and the HTTP header: the stricter value wins.",
        related: &["noindex", "nofollow", "robots-txt", "indexability"],
    },
    Entry {
        slug: "robots-txt",
        title: "robots.txt",
        aliases: &["robots", "robots.txt file", "robots file", "robot txt", "disallow", "robots exclusion protocol", "rfc 9309", "crawl directive", "user agent"],
        definition: "A plain-text file at the root of a host (`/robots.txt`) that tells crawlers, by user-agent, which URL paths they may fetch (RFC 9309: groups per user-agent, Allow and Disallow rules, the longest match wins).",
        why: "A Disallow that matches a page stops search engines from crawling it, so its content cannot rank (the URL may still appear without a snippet). It is also where sites allow or block AI crawlers.",
        how_to_fix: "Make sure no Disallow rule matches pages that should rank (a stray `Disallow: /` is the classic mistake), list your XML sitemap with a `Sitemap:` line, and use noindex rather than Disallow to keep a page out of results.",
        related: &["noindex", "xml-sitemap", "ai-crawlers", "crawl-budget", "indexability"],
    },
    Entry {
        slug: "canonical-url",
        title: "Canonical URL",
        aliases: &["canonical", "canonical tag", "canonical link", "rel canonical", "link rel canonical", "canonicalization", "canonicalisation", "self referencing canonical"],
        definition: "The preferred URL of a page that can be reached at several addresses, declared with `<link rel=\"canonical\" href=\"https://example.com/page\">` in the head (or a `Link` HTTP header).",
        why: "Parameters, trailing slashes, http/https and www variants create duplicates of the same page. The canonical tells search engines which one to index, so ranking signals are combined instead of split.",
        how_to_fix: "Give every indexable page exactly one canonical with an absolute URL, pointing to itself unless the page really is a copy of another. Do not combine a canonical with noindex, and keep canonicals consistent with redirects, sitemaps and internal links.",
        related: &[DUPLICATE_CONTENT, "301-redirect", "noindex", "hreflang"],
    },
    Entry {
        slug: "charset",
        title: "Character encoding",
        aliases: &["meta charset", "charset declaration", "encoding", "utf 8", "utf8", "character set"],
        definition: "The declaration of how the page's bytes map to characters, in the `Content-Type` header (`charset=utf-8`), a byte-order mark, or `<meta charset=\"utf-8\">` within the first 1024 bytes.",
        why: "Without it browsers and crawlers guess, and a wrong guess garbles accented letters and symbols in titles, snippets and body text.",
        how_to_fix: "Save pages as UTF-8, send `Content-Type: text/html; charset=utf-8`, and put `<meta charset=\"utf-8\">` as the first element of the head.",
        related: &["title-tag"],
    },
    Entry {
        slug: "favicon",
        title: "Favicon",
        aliases: &["site icon", "link rel icon", "favicon ico", "touch icon"],
        definition: "The small icon of a site, declared with `<link rel=\"icon\" href=\"/favicon.svg\">`, shown in browser tabs, bookmarks and, on mobile, next to the site name in Google results.",
        why: "A recognisable icon in search results and tabs makes the result stand out and look trustworthy, which helps clicks.",
        how_to_fix: "Add `<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">` (or a PNG of at least 48x48 pixels) to every page, plus an apple-touch-icon, and keep the file crawlable.",
        related: &["serp"],
    },
    Entry {
        slug: "url-structure",
        title: "URL structure",
        aliases: &["url", "seo friendly url", "clean url", "slug", "url slug", "url parameter", "query string", "query parameter", "url length", "lowercase url", "hyphens vs underscores"],
        definition: "How page addresses are built: short, readable, lower-case paths with words separated by hyphens (`/blue-oak-chairs`), few or no query parameters.",
        why: "Readable URLs are shown in results and shared in links; Google treats hyphens as word separators but not underscores, upper-case paths create duplicate variants, and many parameters create endless crawlable combinations.",
        how_to_fix: "Use lower-case, hyphen-separated, descriptive paths under about 100 characters; move tracking and filter parameters out of indexable URLs or canonicalise them; when renaming, 301-redirect old URLs.",
        related: &["canonical-url", DUPLICATE_CONTENT, "crawl-budget", "301-redirect"],
    },
    Entry {
        slug: "title-tag",
        title: "Title tag",
        aliases: &["title", "page title", "seo title", "meta title", "title element", "html title", "title length"],
        definition: "The `<title>` element in the head: the page's name in browser tabs and, usually, the clickable headline of its search result.",
        why: "It is one of the strongest on-page relevance signals and the first thing searchers read; missing, duplicated, too short or truncated titles lose both rankings and clicks.",
        how_to_fix: "Write one unique title per page of about 30 to 60 characters: the main topic or keyword first, then a differentiator, then the brand (`Handmade oak chairs | Acme Furniture`). Keep exactly one `<title>` in the head.",
        related: &["meta-description", "h1-heading", "serp", "keyword"],
    },
    Entry {
        slug: "meta-description",
        title: "Meta description",
        aliases: &["description", "meta desc", "description tag", "meta description tag", "snippet text", "meta description length"],
        definition: "The `<meta name=\"description\" content=\"...\">` summary of a page, which search engines often use as the text snippet under the title.",
        why: "It does not change rankings directly but strongly affects whether people click; without one, the engine picks a random fragment of the page.",
        how_to_fix: "Write one unique description per page, about 70 to 160 characters, that states what the page offers and why to click, with the main keyword once. Keep exactly one description tag.",
        related: &["title-tag", "serp", "open-graph"],
    },
    Entry {
        slug: "h1-heading",
        title: "H1 heading",
        aliases: &["h1", "h1 tag", "main heading", "heading 1", "page heading"],
        definition: "The top-level heading of the page (`<h1>`), naming its main topic for readers, screen readers and search engines.",
        why: "Search engines and AI assistants use the H1 to understand what the page is about; a missing or empty H1 weakens that signal and hurts accessibility.",
        how_to_fix: "Give every page one visible, descriptive `<h1>` that matches the search intent and agrees with the title tag (it need not be identical); use h2 to h6 for sections below it.",
        related: &["heading-structure", "title-tag", "semantic-html"],
    },
    Entry {
        slug: "heading-structure",
        title: "Heading structure",
        aliases: &["heading hierarchy", "headings", "heading tags", "h2", "h3", "heading outline", "subheadings", "heading levels"],
        definition: "The outline the h1 to h6 elements form: one h1, sections as h2, subsections as h3, without skipping levels.",
        why: "A clean outline helps search engines and AI systems split the page into topics and pick passages to quote, and lets screen-reader users navigate.",
        how_to_fix: "Use headings for structure, not for styling; step down one level at a time (h2 then h3); phrase section headings as the questions or topics readers look for.",
        related: &["h1-heading", "semantic-html", "answer-engine"],
    },
    Entry {
        slug: THIN_CONTENT,
        title: "Thin content",
        aliases: &["word count", "content length", "low word count", "shallow content", "low quality content"],
        definition: "A page with little original, useful text for its purpose: a few sentences, boilerplate, auto-generated or doorway pages.",
        why: "Search engines rank pages that answer the query fully; thin pages rarely rank, and many of them can lower how the whole site is judged (the helpful-content signals).",
        how_to_fix: "Expand pages that should rank with specific, original information (details, examples, data, FAQs), merge near-empty pages into stronger ones, and noindex pages that exist only for navigation. Word count is a proxy: aim for complete answers, not length.",
        related: &["text-to-html-ratio", DUPLICATE_CONTENT, "eeat", "search-intent"],
    },
    Entry {
        slug: "text-to-html-ratio",
        title: "Text-to-HTML ratio",
        aliases: &["text ratio", "text to code ratio", "code to text ratio", "content ratio"],
        definition: "The share of a page's HTML bytes that is visible text rather than markup, scripts and styles.",
        why: "Not a ranking factor by itself, but a very low ratio usually means bloated markup or little content, which slows the page and can signal thin content.",
        how_to_fix: "Move inline scripts and styles to cached files, remove unused markup, and make sure the main content is in the HTML rather than loaded later.",
        related: &[THIN_CONTENT, "html-size", "dom-size"],
    },
    Entry {
        slug: "alt-text",
        title: "Alt text",
        aliases: &["alt attribute", "alt tag", "image alt", "image alt text", "alternative text", "alt"],
        definition: "The `alt` attribute of an `<img>`: a short text that replaces the image for screen readers, when it fails to load, and for search engines. Decorative images take an empty `alt=\"\"`.",
        why: "Image search ranks images largely by their alt text and surrounding text, and missing alt text is an accessibility failure (WCAG 1.1.1).",
        how_to_fix: "Describe what the image shows, in context, in about 5 to 15 words (`alt=\"Oak dining chair with woven seat\"`); use `alt=\"\"` for purely decorative images; do not stuff keywords.",
        related: &["image-dimensions", "anchor-text"],
    },
    Entry {
        slug: "image-dimensions",
        title: "Image dimensions",
        aliases: &["image width and height", "width and height", "image size attribute", "img dimensions", "image size"],
        definition: "The `width` and `height` attributes of an `<img>`, which let the browser reserve the image's space before it loads.",
        why: "Images without dimensions push content down as they load, which is the most common cause of a poor Cumulative Layout Shift score.",
        how_to_fix: "Add `width` and `height` with the image's intrinsic size (CSS can still scale it with `height: auto`), or give the container an `aspect-ratio`.",
        related: &["cls", "core-web-vitals", "alt-text"],
    },
    Entry {
        slug: "anchor-text",
        title: "Anchor text",
        aliases: &["link text", "descriptive link text", "click here", "read more links", "empty link", "link label"],
        definition: "The visible, clickable text of a link (or the alt text of a linked image, or its aria-label).",
        why: "Search engines read anchor text to learn what the target page is about; \"click here\" tells them nothing, and empty links are unusable for screen-reader users.",
        how_to_fix: "Use short descriptive text that names the target (`see our oak chair collection`), give image links a meaningful alt and icon links an aria-label, and vary anchors naturally.",
        related: &["internal-linking", "backlinks", "alt-text"],
    },
    Entry {
        slug: "crawlable-links",
        title: "Crawlable links",
        aliases: &["uncrawlable link", "javascript link", "href", "a href", "onclick link", "link crawlability"],
        definition: "Links search engines can follow: `<a>` elements with an `href` holding a real URL. Links built from `onclick` handlers, `javascript:` URLs or elements without `href` are not followed.",
        why: "Crawlers discover pages through links; pages reachable only through non-crawlable links may never be found or receive link equity.",
        how_to_fix: "Use `<a href=\"/target\">` for every navigation, with JavaScript enhancing it if needed; replace `href=\"javascript:...\"` and clickable divs with real links or buttons (buttons for actions, links for navigation).",
        related: &["internal-linking", "crawl-budget"],
    },
    Entry {
        slug: "internal-linking",
        title: "Internal linking",
        aliases: &["internal link", "internal links", "site structure", "site architecture", "orphan page", "too many links", "link equity"],
        definition: "Links between pages of the same site: navigation, breadcrumbs and links within content.",
        why: "Internal links let crawlers find pages, spread link equity to the pages that matter and tell search engines how topics relate; orphan pages and pages buried under hundreds of links get little weight.",
        how_to_fix: "Link important pages from the navigation and from related content with descriptive anchors, keep key pages within about three clicks of the home page, avoid nofollow on internal links, and keep link counts per page reasonable.",
        related: &["anchor-text", "crawlable-links", "nofollow", "backlinks"],
    },
    Entry {
        slug: "backlinks",
        title: "Backlinks",
        aliases: &["backlink", "inbound links", "external links", "link building", "referring domains", "pagerank", "link juice", "off page seo"],
        definition: "Links from other websites to yours. Their number, relevance and the authority of the linking sites are a major off-page ranking signal.",
        why: "Search engines read links as votes of confidence; relevant links from trusted sites help pages rank, while bought or spammy links can trigger penalties.",
        how_to_fix: "Earn links with content others want to cite (original data, tools, guides), digital PR and partnerships; fix broken pages that still have backlinks with 301 redirects; do not buy links. This service audits on-page factors and does not count backlinks.",
        related: &["anchor-text", "nofollow", "eeat", "internal-linking"],
    },
    Entry {
        slug: "open-graph",
        title: "Open Graph",
        aliases: &["og", "og tag", "og tags", "og meta tags", "opengraph", "og:title", "og:description", "og:image", "og image", "social meta tags", "facebook meta tags", "social sharing tags"],
        definition: "`<meta property=\"og:...\">` tags (og:title, og:description, og:image, og:url, og:type) that control the preview card when a page is shared on social networks and chat apps.",
        why: "Without them, platforms guess a title and image, often badly; a good preview increases clicks on shared links. A relative og:image URL is not fetched by most platforms.",
        how_to_fix: "Add og:title, og:description, og:url and og:image with an absolute https URL to an image of about 1200x630 pixels on every shareable page.",
        related: &["twitter-card", "meta-description", "title-tag"],
    },
    Entry {
        slug: "twitter-card",
        title: "Twitter (X) card",
        aliases: &["twitter card", "twitter cards", "x card", "twitter:card", "summary large image", "twitter meta tags"],
        definition: "The `<meta name=\"twitter:card\">` tag (summary or summary_large_image) that tells X (Twitter) how to render a shared link; other twitter: tags fall back to Open Graph values.",
        why: "Without it, links shared on X show as a plain small card or bare URL, which gets fewer clicks.",
        how_to_fix: "Add `<meta name=\"twitter:card\" content=\"summary_large_image\">` next to the Open Graph tags; add twitter:title, twitter:description and twitter:image only where they should differ from og:.",
        related: &["open-graph"],
    },
    Entry {
        slug: "json-ld",
        title: "JSON-LD",
        aliases: &["json ld", "jsonld", "ld json", "application ld json", "context", "json ld script"],
        definition: "A format for structured data: a `<script type=\"application/ld+json\">` block holding a JSON object with `@context: \"https://schema.org\"` and an `@type`, separate from the visible HTML.",
        why: "It is the format Google recommends for structured data. A block that does not parse, or lacks @context, is ignored entirely.",
        how_to_fix: "Generate JSON-LD from the page's real data, validate it (Rich Results Test, validator.schema.org), always include `\"@context\": \"https://schema.org\"`, and escape `</` inside strings.",
        related: &["structured-data", "schema-org", "rich-results"],
    },
    Entry {
        slug: "structured-data",
        title: "Structured data",
        aliases: &["schema markup", "structured markup", "microdata", "rdfa", "semantic markup", "schema"],
        definition: "Machine-readable statements about a page's content (this is a Product with this price, an Article by this author) in JSON-LD, microdata or RDFa, using the schema.org vocabulary.",
        why: "It makes pages eligible for rich results, feeds knowledge graphs and helps AI systems identify entities and facts without guessing.",
        how_to_fix: "Add JSON-LD for the page's main type (Organization on the home page, Article, Product, LocalBusiness, FAQPage, BreadcrumbList, ...) with the required properties, describing only what is visible on the page.",
        related: &["json-ld", "schema-org", "rich-results", "entity"],
    },
    Entry {
        slug: "schema-org",
        title: "schema.org",
        aliases: &["schema org", "schema.org types", "schema type", "required properties", "schema properties"],
        definition: "The shared vocabulary of types (Organization, Article, Product, FAQPage, BreadcrumbList, LocalBusiness, ...) and properties used in structured data, maintained by the major search engines.",
        why: "Search features read specific types and need their required properties (a Product needs a name, an Article a headline); incomplete markup earns no rich result.",
        how_to_fix: "Pick the most specific type for the content, fill every property the search engine documents as required (and the recommended ones you can), and keep values identical to the visible page.",
        related: &["structured-data", "json-ld", "rich-results"],
    },
    Entry {
        slug: "rich-results",
        title: "Rich results",
        aliases: &["rich snippet", "rich snippets", "rich result", "serp feature", "review stars", "faq rich result"],
        definition: "Enhanced search results with extra elements (stars, prices, breadcrumbs, images, event dates) generated from a page's structured data.",
        why: "They take more space and draw more clicks than plain results; eligibility depends on valid, complete structured data.",
        how_to_fix: "Add the structured data type the feature needs with all required properties, test it with Google's Rich Results Test, and watch the enhancement reports in Search Console. Eligibility is not a guarantee.",
        related: &["structured-data", "schema-org", "serp"],
    },
    Entry {
        slug: "html-size",
        title: "HTML size",
        aliases: &["page size", "html too large", "page weight", "document size"],
        definition: "The size of the HTML document itself, before images, scripts and styles.",
        why: "Very large HTML downloads and parses slowly, and search engines stop reading HTML after a limit (Google indexes the first 15 MB; much less is read by some crawlers and AI tools).",
        how_to_fix: "Move inline data, SVGs, styles and scripts to separate cached files, paginate huge lists, and remove duplicated markup (for example, mobile and desktop copies of the same menu).",
        related: &["page-speed", "dom-size", "text-to-html-ratio"],
    },
    Entry {
        slug: "ttfb",
        title: "TTFB (time to first byte)",
        aliases: &["time to first byte", "server response time", "response time", "slow server", "first byte"],
        definition: "The time from the request until the first byte of the response arrives: DNS, connection, TLS and the server's own work.",
        why: "Every other loading step waits for it; a slow TTFB delays LCP and reduces how many pages crawlers fetch. Good is under 800 ms.",
        how_to_fix: "Cache rendered pages (full-page cache or CDN), speed up slow database queries and back-end calls, use a CDN close to users, and keep redirects out of the path.",
        related: &["page-speed", "lcp", "core-web-vitals", "crawl-budget"],
    },
    Entry {
        slug: "render-blocking-resources",
        title: "Render-blocking resources",
        aliases: &["render blocking", "render blocking script", "render blocking javascript", "async", "defer", "blocking script"],
        definition: "Scripts and stylesheets the browser must download and run before it can show anything: a `<script src>` in the head without async, defer or type=module, and stylesheets.",
        why: "They delay the first paint and LCP, especially on mobile networks.",
        how_to_fix: "Add `defer` to scripts that need the DOM, `async` to independent ones (analytics), move non-critical scripts to the end, and inline critical CSS while loading the rest later.",
        related: &["page-speed", "lcp", "core-web-vitals"],
    },
    Entry {
        slug: "dom-size",
        title: "DOM size",
        aliases: &["dom", "excessive dom size", "dom nodes", "dom elements", "too many elements"],
        definition: "The number of elements in the page's document tree.",
        why: "Large DOMs (over about 1,500 elements) use more memory, slow down style calculation and layout, and make interactions sluggish (INP).",
        how_to_fix: "Remove wrapper elements, render long lists lazily or paginate them, and avoid hidden duplicate markup such as separate mobile and desktop menus.",
        related: &["inp", "html-size", "page-speed"],
    },
    Entry {
        slug: "page-speed",
        title: "Page speed",
        aliases: &["site speed", "page load time", "load time", "loading speed", "performance", "web performance", "pagespeed"],
        definition: "How quickly a page loads and becomes usable, measured in the field by the Core Web Vitals and in the lab by tools such as Lighthouse.",
        why: "Speed is part of Google's page experience signals, and slow pages lose visitors and conversions; crawlers also fetch fewer pages from slow sites.",
        how_to_fix: "Start with server response (TTFB), then render-blocking resources, image sizes and formats, and page weight. Measure with field data (Chrome UX Report) before and after.",
        related: &["core-web-vitals", "ttfb", "lcp", "cls", "inp"],
    },
    Entry {
        slug: "core-web-vitals",
        title: "Core Web Vitals",
        aliases: &["cwv", "web vitals", "page experience", "vitals"],
        definition: "Google's three field metrics of user experience: LCP (loading, good at 2.5 s or less), INP (responsiveness, 200 ms or less) and CLS (visual stability, 0.1 or less), each judged at the 75th percentile of real visits.",
        why: "They are part of Google's page experience ranking signals and track what users feel; on competitive queries they can tip the balance.",
        how_to_fix: "Check field data in Search Console or PageSpeed Insights, then fix the worst metric: LCP with faster TTFB and a prioritised hero image, CLS with reserved space for images and ads, INP with less JavaScript work on interactions. This audit reads one HTML response, so it reports the causes it can see, not field metrics.",
        related: &["lcp", "cls", "inp", "ttfb", "page-speed"],
    },
    Entry {
        slug: "lcp",
        title: "LCP (Largest Contentful Paint)",
        aliases: &["largest contentful paint"],
        definition: "The time until the largest image or text block in the viewport is shown. Good: 2.5 seconds or less at the 75th percentile.",
        why: "It is the Core Web Vital for loading: the moment users see that the page is useful.",
        how_to_fix: "Reduce TTFB, preload or `fetchpriority=\"high\"` the hero image (never lazy-load it), serve it in a modern format at the right size, and remove render-blocking resources.",
        related: &["core-web-vitals", "ttfb", "render-blocking-resources"],
    },
    Entry {
        slug: "cls",
        title: "CLS (Cumulative Layout Shift)",
        aliases: &["cumulative layout shift", "layout shift", "layout shifts"],
        definition: "A score of how much visible content moves unexpectedly while the page is used. Good: 0.1 or less at the 75th percentile.",
        why: "It is the Core Web Vital for visual stability; shifting content makes people click the wrong thing.",
        how_to_fix: "Give images, videos, iframes and ad slots explicit width and height (or aspect-ratio), avoid inserting content above existing content, and use `font-display` with matched fallback fonts.",
        related: &["core-web-vitals", "image-dimensions"],
    },
    Entry {
        slug: "inp",
        title: "INP (Interaction to Next Paint)",
        aliases: &["interaction to next paint", "fid", "first input delay", "responsiveness"],
        definition: "The latency of the slowest interactions (clicks, taps, key presses) until the next frame is painted. Good: 200 ms or less at the 75th percentile. It replaced FID in March 2024.",
        why: "It is the Core Web Vital for responsiveness; slow reactions feel broken.",
        how_to_fix: "Break long JavaScript tasks up, do less work in event handlers, defer third-party scripts, and keep the DOM small.",
        related: &["core-web-vitals", "dom-size"],
    },
    Entry {
        slug: "viewport",
        title: "Viewport meta tag",
        aliases: &["meta viewport", "viewport tag", "viewport meta", "width device width", "user scalable", "pinch zoom"],
        definition: "`<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">` tells mobile browsers to lay the page out at the device's width instead of a zoomed-out desktop width.",
        why: "Without it a page is not mobile-friendly, which matters because Google indexes the mobile version; blocking zoom (user-scalable=no, maximum-scale below 2) fails accessibility guidelines.",
        how_to_fix: "Use exactly `<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">` with a responsive layout, and do not disable zooming.",
        related: &["mobile-first-indexing"],
    },
    Entry {
        slug: "mobile-first-indexing",
        title: "Mobile-first indexing",
        aliases: &["mobile first", "mobile friendly", "mobile friendliness", "mobile usability", "responsive design", "mobile seo"],
        definition: "Google crawls and indexes the web with a smartphone crawler, so the mobile version of a page is the one that is ranked.",
        why: "Content, links, structured data and metadata missing from the mobile version do not count at all, and pages that are hard to use on phones lose visitors.",
        how_to_fix: "Use a responsive design with a proper viewport, serve the same content and metadata to mobile and desktop, keep tap targets and text readable, and do not hide main content on mobile.",
        related: &["viewport", "page-speed", "core-web-vitals"],
    },
    Entry {
        slug: "html-lang",
        title: "HTML lang attribute",
        aliases: &["lang attribute", "language attribute", "html lang", "lang", "bcp 47", "language tag", "page language"],
        definition: "The `lang` attribute on `<html>` (`<html lang=\"en-GB\">`) declaring the page's language as a BCP 47 tag.",
        why: "Screen readers use it to pick pronunciation, browsers to offer translation, and search engines as one hint of which language audience the page serves.",
        how_to_fix: "Set a valid BCP 47 tag on the html element: a language code, optionally with a region (`en`, `de-AT`, `pt-BR`); mark passages in other languages with their own lang.",
        related: &["hreflang"],
    },
    Entry {
        slug: "hreflang",
        title: "hreflang",
        aliases: &["hreflang tag", "hreflang tags", "alternate hreflang", "x default", "international seo", "multilingual seo", "language alternates"],
        definition: "`<link rel=\"alternate\" hreflang=\"de-AT\" href=\"...\">` annotations that list the language and regional versions of the same page, with `x-default` for the fallback.",
        why: "They let search engines show each searcher the right language version and stop translations from competing with each other as duplicates.",
        how_to_fix: "On every version, list all versions including itself with absolute URLs, use ISO 639-1 language codes with optional ISO 3166-1 regions (`en-GB`, not `en-UK`), add an `x-default`, and make the annotations reciprocal.",
        related: &["html-lang", "canonical-url", DUPLICATE_CONTENT],
    },
    Entry {
        slug: "indexability",
        title: "Indexability",
        aliases: &["indexable", "indexing", "index", "crawlability", "crawlable", "crawling and indexing", "not indexed"],
        definition: "Whether a page can be crawled and stored in a search engine's index: it must be reachable (not blocked by robots.txt), answer 2xx, carry no noindex, and be its own canonical.",
        why: "A page that is not indexable cannot rank at all, whatever its content.",
        how_to_fix: "Check, in order: the HTTP status, robots.txt rules for Googlebot, meta robots and X-Robots-Tag, and the canonical. The get_site_info tool reports all of them for a URL.",
        related: &["robots-txt", "noindex", "canonical-url", "http-status-code", "xml-sitemap"],
    },
    Entry {
        slug: "xml-sitemap",
        title: "XML sitemap",
        aliases: &["sitemap", "sitemap xml", "sitemap.xml", "sitemap index"],
        definition: "An XML file listing the URLs a site wants indexed, optionally with their last modification date, submitted in Search Console and named in robots.txt with a `Sitemap:` line.",
        why: "It helps search engines discover new and deep pages faster and signals which URLs are canonical.",
        how_to_fix: "List only canonical, indexable URLs that answer 200; keep `lastmod` honest; split files above 50,000 URLs or 50 MB; reference the sitemap in robots.txt and submit it in Search Console.",
        related: &["robots-txt", "crawl-budget", "indexability", "canonical-url"],
    },
    Entry {
        slug: "crawl-budget",
        title: "Crawl budget",
        aliases: &["crawl rate", "crawl capacity", "crawl demand", "crawl efficiency"],
        definition: "How many URLs a search engine is able and willing to crawl on a site in a given time, set by how fast the server answers and how much the engine wants the content.",
        why: "It matters for large sites (tens of thousands of URLs or more): budget spent on duplicates, parameters, redirect chains and errors delays the crawling of pages that matter.",
        how_to_fix: "Keep servers fast, remove or canonicalise parameter and duplicate URLs, fix redirect chains and broken links, block endless spaces (faceted filters, calendars) in robots.txt, and keep sitemaps clean.",
        related: &["robots-txt", "xml-sitemap", DUPLICATE_CONTENT, REDIRECT_CHAIN],
    },
    Entry {
        slug: DUPLICATE_CONTENT,
        title: "Duplicate content",
        aliases: &["duplicate page", "duplicate pages", "near duplicate", "copied content", "content duplication"],
        definition: "The same or nearly the same content reachable at several URLs, on one site (parameters, www/non-www, print versions) or across sites (syndication, scraping).",
        why: "Search engines pick one version to show and split signals among the rest; the one they pick may not be the one you want. It is rarely a penalty, but it wastes crawl budget and ranking strength.",
        how_to_fix: "Choose one URL per piece of content, 301-redirect or canonicalise the others to it, link internally only to that URL, and ask syndication partners for a canonical back to the original.",
        related: &["canonical-url", THIN_CONTENT, "keyword-cannibalization", "url-structure"],
    },
    Entry {
        slug: "keyword-cannibalization",
        title: "Keyword cannibalization",
        aliases: &["cannibalization", "cannibalisation", "keyword cannibalisation", "competing pages"],
        definition: "Several pages of the same site targeting the same query and intent, so they compete with each other in search results.",
        why: "Search engines alternate between the pages or rank none of them well, and links and content are split instead of combined.",
        how_to_fix: "Find pages ranking for the same query (Search Console), merge them into the strongest one with 301 redirects, or differentiate their topics and titles, and point internal links for that query at one page.",
        related: &[DUPLICATE_CONTENT, "keyword", "search-intent", "internal-linking"],
    },
    Entry {
        slug: "keyword",
        title: "Keyword",
        aliases: &["keywords", "focus keyword", "target keyword", "keyword research", "keyword density", "search term", "search query", "keyword tracking"],
        definition: "A word or phrase people type into a search engine, and the topic a page is meant to rank for.",
        why: "Pages rank for what they demonstrably cover: using the words searchers use, in the title, headings and text, tells search engines and AI systems what the page answers.",
        how_to_fix: "Pick one main topic per page from real search demand, use its wording in the title, h1, description, URL and early in the text, cover related subtopics naturally, and never stuff repetitions. The track_keywords tool follows on-page presence over time.",
        related: &["search-intent", "title-tag", "keyword-cannibalization", "serp"],
    },
    Entry {
        slug: "search-intent",
        title: "Search intent",
        aliases: &["user intent", "query intent", "informational intent", "transactional intent", "navigational intent", "commercial intent"],
        definition: "What a searcher wants to achieve with a query: learn (informational), go to a site (navigational), compare (commercial) or buy or act (transactional).",
        why: "Search engines rank pages that match the intent; a product page rarely ranks for a how-to query, however well optimised.",
        how_to_fix: "Look at what currently ranks for the query and match its type and format (guide, list, product, tool), then answer the intent better and sooner on the page.",
        related: &["keyword", "serp", THIN_CONTENT],
    },
    Entry {
        slug: "serp",
        title: "SERP (search engine results page)",
        aliases: &["search engine results page", "search results", "search result page", "google results", "snippet", "search snippet"],
        definition: "The page a search engine shows for a query: organic results (title link, URL, snippet), ads, and features such as rich results, featured snippets, image and video packs and AI overviews.",
        why: "How a page appears there (title, description, rich result, favicon) decides whether people click, not only its position.",
        how_to_fix: "Write compelling titles and descriptions, add structured data for eligible rich results, and check how the result actually looks for its main queries.",
        related: &["title-tag", "meta-description", "rich-results", "answer-engine"],
    },
    Entry {
        slug: "eeat",
        title: "E-E-A-T",
        aliases: &["e e a t", "eeat", "e a t", "eat", "expertise authoritativeness trustworthiness", "experience expertise authoritativeness trustworthiness", "trustworthiness", "ymyl"],
        definition: "Experience, Expertise, Authoritativeness and Trustworthiness: the qualities Google's quality rater guidelines use to judge content and its creators. E-A-T was the earlier name, before Experience was added in December 2022. Trust is the most important of the four.",
        why: "It is not a single ranking factor, but ranking systems aim to reward content that shows these qualities, especially on \"your money or your life\" topics (health, finance, safety).",
        how_to_fix: "Show who wrote the content and why they are qualified (author pages, credentials, first-hand experience), cite sources, keep facts current, publish clear contact, ownership and policy pages, and mark authors and the organisation up with structured data.",
        related: &[THIN_CONTENT, "entity", "backlinks", "structured-data"],
    },
    Entry {
        slug: "semantic-html",
        title: "Semantic HTML",
        aliases: &["semantic markup html", "html5 landmarks", "landmarks", "main element", "article element", "nav element", "header element"],
        definition: "Using HTML elements for their meaning: `<main>`, `<nav>`, `<article>`, `<header>`, `<footer>`, real headings, lists and tables, instead of generic divs.",
        why: "It lets search engines, AI systems and assistive technology find the main content and its structure reliably, and skip navigation and boilerplate.",
        how_to_fix: "Wrap the main content in one `<main>` (and `<article>` for self-contained content), menus in `<nav>`, and use a clean h1 to h6 outline. The /api/ai-readiness endpoint checks these landmarks.",
        related: &["heading-structure", "h1-heading", "ai-visibility"],
    },
    Entry {
        slug: "llms-txt",
        title: "llms.txt",
        aliases: &["llms txt", "llm txt", "llms.txt file", "llms full txt", "llmstxt"],
        definition: "A proposed Markdown file at `/llms.txt` (llmstxt.org) that tells language models what a site is: an H1 title, an optional blockquote summary, and H2 sections listing the key pages as links with notes.",
        why: "It gives AI assistants and agents a compact, curated map of a site's most useful content. Support by AI providers is still limited and it is no ranking factor, but it is cheap and helps agent tools.",
        how_to_fix: "Publish `/llms.txt` as text/markdown with `# Site name`, a `> one-line summary`, and `## Sections` of `- [Page](https://...): note` links to your most useful pages (docs, pricing, policies). The AI-readiness check validates the format.",
        related: &["ai-crawlers", "geo", "ai-visibility"],
    },
    Entry {
        slug: "ai-crawlers",
        title: "AI crawlers",
        aliases: &["ai crawler", "ai bots", "ai bot", "llm crawlers", "gptbot", "claudebot", "perplexitybot", "google extended", "ccbot", "block ai bots"],
        definition: "Bots of AI companies that fetch web pages, each with its own robots.txt user-agent token. Some collect training data (GPTBot, ClaudeBot, Google-Extended, CCBot), some index for AI search (OAI-SearchBot, PerplexityBot, Claude-SearchBot), and some fetch a page when a user asks (ChatGPT-User, Claude-User).",
        why: "Blocking them in robots.txt decides whether your content can be used, cited or linked by AI assistants. Blocking training bots and allowing search and user-fetch bots is a common middle ground.",
        how_to_fix: "Decide per purpose, then write explicit robots.txt groups (`User-agent: GPTBot` / `Disallow: /`, or `Allow: /`). Check the result with the AI-readiness check; `svc://data-sources` lists every crawler this service knows.",
        related: &["robots-txt", "llms-txt", "geo", "ai-visibility"],
    },
    Entry {
        slug: "geo",
        title: "GEO (generative engine optimization)",
        aliases: &["generative engine optimization", "generative engine optimisation", "ai seo", "llm seo", "ai search optimization", "llmo", "ai optimization"],
        definition: "Making content likely to be found, understood, quoted and cited by generative AI search (ChatGPT search, Perplexity, Google AI Overviews, Claude).",
        why: "A growing share of searches ends in an AI answer; being cited there is the new visibility, and it favours clear, factual, well-structured pages from recognisable entities.",
        how_to_fix: "Keep classic SEO sound (crawlable, indexable, fast), allow AI search crawlers, state facts plainly near the top, use question-shaped headings with direct answers, add structured data and a clear About/Organization identity, and publish llms.txt. Measure with the geo-check and ai-visibility-scan endpoints.",
        related: &["answer-engine", "ai-crawlers", "llms-txt", "entity", "ai-visibility"],
    },
    Entry {
        slug: "answer-engine",
        title: "Answer engine",
        aliases: &["answer engines", "answer engine optimization", "aeo", "ai search engine", "ai overview", "ai overviews", "featured snippet", "zero click search"],
        definition: "A search system that replies with a direct answer (an AI-written summary, a featured snippet, a voice answer) instead of a list of links, citing a few sources.",
        why: "Searchers often stop at the answer, so being the quoted source matters more than ranking fifth; answer engines prefer concise, well-structured, authoritative passages.",
        how_to_fix: "Put a direct 40 to 60 word answer right after a question-shaped heading, follow with detail, use lists and tables for steps and comparisons, add FAQ or HowTo structured data where it fits, and keep facts current.",
        related: &["geo", "heading-structure", "structured-data", "serp"],
    },
    Entry {
        slug: "entity",
        title: "Entity",
        aliases: &["entities", "entity seo", "knowledge graph", "knowledge panel", "entity clarity", "brand entity", "same as"],
        definition: "A distinct, identifiable thing (a person, organisation, product, place or idea) that search engines and AI models know as a node in a knowledge graph, independent of the words used for it.",
        why: "Engines rank and cite pages they can connect to known entities; a brand that is a clear entity gets knowledge panels and is named correctly in AI answers.",
        how_to_fix: "Use one consistent name, describe who you are plainly on the home and About pages, add Organization or Person JSON-LD with `sameAs` links to official profiles (Wikipedia, Wikidata, LinkedIn), and keep those profiles consistent.",
        related: &["structured-data", "eeat", "geo", "schema-org"],
    },
    Entry {
        slug: "ai-visibility",
        title: "AI visibility",
        aliases: &["ai readiness", "ai visibility score", "ai readiness score", "geo check", "visibility in ai search", "llm visibility"],
        definition: "How well a site can be found and cited by AI assistants: whether AI crawlers may fetch it, whether it has a valid llms.txt, how answer-friendly its structure is, and how clearly it identifies its entity.",
        why: "It decides whether AI answers mention the site at all, independently of classic rankings.",
        how_to_fix: "Run the deterministic four-pillar scan (llms.txt, AI bot access, answer structure, entity clarity, 25 points each) and fix the lowest pillar first; the geo-check endpoint measures actual mentions with a configured AI search provider.",
        related: &["geo", "llms-txt", "ai-crawlers", "entity", "answer-engine"],
    },
    Entry {
        slug: "seo",
        title: "SEO (search engine optimization)",
        aliases: &["search engine optimization", "search engine optimisation", "technical seo", "on page seo", "on-page seo"],
        definition: "The practice of making pages easy to crawl, understand and rank for relevant searches: technical health, on-page content and markup, and off-page reputation (links, mentions).",
        why: "Organic search is, for most sites, the largest source of visitors that costs nothing per click.",
        how_to_fix: "Start with what blocks indexing (status, robots, noindex, canonical), then titles, descriptions, headings and content quality, then speed, mobile and structured data. The seo_audit tool checks the on-page and technical part.",
        related: &["indexability", "title-tag", "page-speed", "backlinks", "geo"],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A concept lists the site rules that name it beside the page rules: duplicate content is
    /// checked only by crawls, so its concept would otherwise name no rule at all.
    #[test]
    fn a_concept_lists_the_site_rules_that_name_it() {
        let rules: Vec<_> = entry(DUPLICATE_CONTENT).expect("entry").rules().collect();
        assert!(rules.contains(&crawl::rules::DuplicateContent::ID), "{rules:?}");
        let site_ids: Vec<_> = crawl::rules::SITE_RULES.iter().map(|r| r.meta().id).collect();
        assert!(rules.len() >= 2 && rules.iter().all(|id| site_ids.contains(id)), "the near duplicates too: {rules:?}");
        let chain: Vec<_> = entry(REDIRECT_CHAIN).expect("entry").rules().collect();
        assert_eq!(
            chain.first(),
            Some(&audit_core::rules::technical::RedirectChain::ID),
            "the page rule first: {chain:?}"
        );
        assert!(chain.len() >= 3, "the crawl's chain and loop rules follow: {chain:?}");
    }

    /// A rule names its glossary entries by slug, page rules and site rules alike: a slug that
    /// names no entry is a typo that would leave the rule without its concept.
    #[test]
    fn every_rule_names_existing_entries() {
        let page = RULES.iter().map(|r| (r.meta().id, r.meta().glossary));
        let site = crawl::rules::SITE_RULES.iter().map(|r| (r.meta().id, r.meta().glossary));
        for (id, slugs) in page.chain(site) {
            assert!(!slugs.is_empty(), "rule {id} names no glossary entry");
            for slug in slugs {
                assert!(entry(slug).is_some(), "rule {id} names unknown glossary entry {slug}");
            }
        }
    }
}
