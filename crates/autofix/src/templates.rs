//! One fix template per rule id (and a few for issues other engines report), filled from the
//! page context.

use audit_core::text::{is_valid_hreflang, trim_at_word};
use audit_core::thresholds::{TITLE_MAX_CHARS, TITLE_MIN_CHARS};
use serde_json::{json, Map, Value};

use crate::context::{attr, cut, fix_lang_tag, json_ld_script, words_from_slug, Ctx};
use crate::fix::{Difficulty, FixKind};

/// Template ids for issues that no audit-core rule reports (the AI-readiness check, security
/// headers). Issues reach them by id or by text.
pub const EXTRA_TEMPLATES: &[(&str, &str)] = &[
    (
        "ai-crawler-blocked",
        "AI crawler blocked by robots.txt: GPTBot, ClaudeBot or PerplexityBot cannot fetch the site",
    ),
    ("llms-txt-missing", "llms.txt missing: no llms.txt file describes the site for AI assistants"),
    ("hsts-missing", "HSTS header missing: Strict-Transport-Security not sent"),
    ("x-robots-tag-missing", "X-Robots-Tag header missing for files that should not be indexed (PDF, feeds)"),
    ("semantic-html-missing", "Semantic HTML landmarks missing: no main, article, header, nav or footer elements"),
];

/// Where the address that replaced a page goes: only the site owner knows it.
const NEW: &str = "TODO: full URL of the page that replaced this one";

/// A filled template.
pub(crate) struct Template {
    pub kind: FixKind,
    pub difficulty: Difficulty,
    pub code: String,
    pub explanation: String,
}

fn t(
    kind: FixKind,
    difficulty: Difficulty,
    code: impl Into<String>,
    explanation: impl Into<String>,
) -> Option<Template> {
    Some(Template { kind, difficulty, code: code.into(), explanation: explanation.into() })
}

use Difficulty::{Easy, Hard, Medium};
use FixKind::{Html, HttpHeader, JsonLd, Robots, ServerConfig, Text};

/// Renders the template of `id`; `None` when there is none. `issue_text` is what the issue
/// said, used where it names something (a crawler).
pub(crate) fn render(id: &str, c: &Ctx, issue_text: &str) -> Option<Template> {
    let url = c.url_or_todo();
    match id {
        // --- SEO Technical ---
        "http-status-error" => {
            let path = if c.known_url { c.url.path().to_string() } else { "TODO: path of this page".to_string() };
            // Stated only when known (from the page or the issue), and only an error status.
            let status = c.page.and_then(|p| p.http.status).or_else(|| c.current_status()).filter(|s| *s >= 400);
            let found = match status {
                Some(s) if s >= 500 => format!("The page answers with status {s}, a server error: fix what fails on the server (its error log says what) so the page answers 200. "),
                Some(s) => format!("The page answers with status {s}. "),
                None => String::new(),
            };
            t(
                ServerConfig,
                Medium,
                format!(
                    "# nginx: if the page moved, send visitors and crawlers to its new address\nlocation = {path} {{\n    return 301 {NEW};\n}}\n\n# Apache (.htaccess)\nRedirect 301 {path} {NEW}",
                ),
                format!("{found}Restore the page so it answers 200, or, if it moved, redirect it permanently to the page that replaced it."),
            )
        }
        "redirect-chain" => {
            // The first address of the chain is known only from the page; without it a
            // placeholder stands in (the page's own path would redirect it to itself).
            let redirects = c.page.map(|p| p.http.redirects.as_slice()).unwrap_or_default();
            let from_path = redirects.first().and_then(|f| url::Url::parse(f).ok()).map(|u| u.path().to_string());
            let hops = if redirects.is_empty() { c.current_number() } else { Some(redirects.len() as u64) };
            let found = hops.map_or(String::new(), |n| format!("The address goes through {n} redirects now. "));
            let from_path = from_path.unwrap_or_else(|| "TODO: path of the first address of the chain".to_string());
            t(
                ServerConfig,
                Medium,
                format!("# nginx: one hop from the old address to the final one\nlocation = {from_path} {{\n    return 301 {url};\n}}\n\n# Apache (.htaccess)\nRedirect 301 {from_path} {url}"),
                format!("{found}Point every old address straight at the final URL in one redirect, and update internal links to the final URL."),
            )
        }
        "not-https" => {
            let host = if c.known_url { c.host() } else { "TODO: your domain, e.g. www.your-site.com".to_string() };
            t(
                ServerConfig,
                Medium,
                format!(
                    "# nginx: redirect all HTTP requests to HTTPS\nserver {{\n    listen 80;\n    server_name {host};\n    return 301 https://$host$request_uri;\n}}\n\n# in the HTTPS server block\nadd_header Strict-Transport-Security \"max-age=31536000; includeSubDomains\" always;\n\n# Apache (.htaccess)\nRewriteEngine On\nRewriteCond %{{HTTPS}} off\nRewriteRule ^ https://%{{HTTP_HOST}}%{{REQUEST_URI}} [L,R=301]"
                ),
                "Serve the site over HTTPS (a free certificate from Let's Encrypt works), redirect HTTP permanently, and send HSTS once HTTPS works everywhere.",
            )
        }
        "hsts-missing" => t(
            HttpHeader,
            Easy,
            "Strict-Transport-Security: max-age=31536000; includeSubDomains\n\n# nginx\nadd_header Strict-Transport-Security \"max-age=31536000; includeSubDomains\" always;\n\n# Apache\nHeader always set Strict-Transport-Security \"max-age=31536000; includeSubDomains\"",
            "Send HSTS on HTTPS responses only, once every subdomain serves HTTPS; start with a short max-age if unsure.",
        ),
        "x-robots-tag-missing" => t(
            ServerConfig,
            Easy,
            "# nginx: keep PDF and other documents out of the index\nlocation ~* \\.(pdf|docx?|xlsx?)$ {\n    add_header X-Robots-Tag \"noindex, nofollow\" always;\n}\n\n# Apache\n<FilesMatch \"\\.(pdf|docx?|xlsx?)$\">\n    Header set X-Robots-Tag \"noindex, nofollow\"\n</FilesMatch>",
            "Files without HTML cannot carry a robots meta tag; the X-Robots-Tag header does the same job.",
        ),
        "mixed-content" => {
            let mut list: Vec<String> = c.page.map(|p| p.mixed_content.iter().take(10).cloned().collect()).unwrap_or_default();
            if list.is_empty() {
                list.extend(c.current_token().filter(|v| v.starts_with("http://")).map(str::to_string));
            }
            let which = if list.is_empty() { String::new() } else { format!(" Change these to https: {}.", list.join(", ")) };
            t(
                Html,
                Easy,
                "<meta http-equiv=\"Content-Security-Policy\" content=\"upgrade-insecure-requests\">",
                format!("Load every script, style sheet and image over HTTPS; this tag in <head> makes browsers upgrade the rest.{which}"),
            )
        }
        "page-noindex" | "page-nofollow" => t(
            Html,
            Easy,
            "<meta name=\"robots\" content=\"index, follow\">",
            "Replace the robots meta tag in <head> with this one (or remove it: index, follow is the default), and remove any X-Robots-Tag: noindex/nofollow response header.",
        ),
        "robots-txt-blocked" => {
            let path = if c.known_url { c.url.path().to_string() } else { "/".to_string() };
            let rule = c.page.and_then(|p| p.http.robots_txt.as_ref()).and_then(|r| r.rule.clone()).or_else(|| {
                c.current.clone().filter(|v| v.to_ascii_lowercase().starts_with("disallow"))
            });
            let because = rule.map_or(String::new(), |r| format!(" The rule that blocks it now is `{r}`; removing it works too."));
            t(
                Robots,
                Easy,
                format!("User-agent: Googlebot\nAllow: {path}\n\nUser-agent: *\nAllow: {path}\n"),
                format!("Add these lines to /robots.txt so search crawlers may fetch the page (the longest matching rule wins, and Allow wins ties).{because}"),
            )
        }
        "ai-crawler-blocked" => {
            let lower = issue_text.to_lowercase();
            let mut bots: Vec<&str> = ai_visibility::AI_BOTS
                .iter()
                .map(|b| b.name)
                .filter(|n| lower.split(|ch: char| !(ch.is_alphanumeric() || ch == '-')).any(|w| w.eq_ignore_ascii_case(n)))
                .collect();
            if bots.is_empty() {
                bots = ai_visibility::NAMED_BOTS.to_vec();
            }
            let code: Vec<String> = bots.iter().map(|b| format!("User-agent: {b}\nAllow: /\n")).collect();
            t(
                Robots,
                Easy,
                code.join("\n"),
                format!("Add these groups to /robots.txt and remove any `Disallow: /` in groups naming {} so the crawler may read the site.", bots.join(", ")),
            )
        }
        "canonical-missing" | "canonical-relative" | "canonical-multiple" | "canonical-points-elsewhere" => {
            let (d, why) = match id {
                "canonical-missing" => (Easy, "Add this tag to <head>: it names the preferred URL of the page."),
                "canonical-relative" => (Easy, "Use the absolute URL in the canonical tag."),
                "canonical-multiple" => (Easy, "Keep exactly one canonical tag in <head>; remove the others."),
                _ => (Medium, "Point the canonical at the page itself, unless it really duplicates the other URL."),
            };
            t(Html, d, format!("<link rel=\"canonical\" href=\"{}\">", attr(&url)), why)
        }
        "canonical-with-noindex" => t(
            Html,
            Medium,
            format!("<meta name=\"robots\" content=\"index, follow\">\n<link rel=\"canonical\" href=\"{}\">", attr(&url)),
            "Decide: keep the page indexable with a canonical (this fix), or keep noindex and remove the canonical. Both together send mixed signals.",
        ),
        "charset-missing" => t(Html, Easy, "<meta charset=\"utf-8\">", "Put this first in <head> (within the first 1024 bytes) and save the file as UTF-8."),
        "favicon-missing" => t(
            Html,
            Easy,
            "<link rel=\"icon\" href=\"/favicon.ico\" sizes=\"32x32\">\n<link rel=\"icon\" href=\"/icon.svg\" type=\"image/svg+xml\">\n<link rel=\"apple-touch-icon\" href=\"/apple-touch-icon.png\">",
            "Add these to <head> and upload the three icon files; search results show the favicon next to the site name.",
        ),
        "url-too-long" | "url-uppercase" | "url-underscores" | "url-many-parameters" => {
            // Without the page's address, the issue's current value (the path) or an example
            // address with the problem stands in: the bare example origin has nothing to clean.
            // A known address that shows no such problem gets the example too: redirecting it
            // to itself would loop.
            let known = Some(c.url.clone()).filter(|u| c.known_url && clean_url(u, id) != u.as_str());
            let example_note = if c.known_url && known.is_none() {
                " The page's address shows no such problem, so an example address stands in: use the one the audit named."
            } else {
                ""
            };
            let given = c.current_token().filter(|p| p.starts_with('/'));
            let old = known.clone().unwrap_or_else(|| {
                let path = given.unwrap_or(match id {
                    "url-uppercase" => "/Products/Oak-Chair",
                    "url-underscores" => "/products/oak_chair",
                    "url-many-parameters" => "/products?color=red&size=m&sort=price&page=2",
                    _ => "/shop/furniture/chairs/dining/oak/how-to-choose-the-right-oak-chair-for-a-small-dining-room",
                });
                c.url.join(path).unwrap_or_else(|_| c.url.clone())
            });
            let clean = clean_url(&old, id);
            let old_path = old.path().to_string();
            let todo = if known.is_some() {
                String::new()
            } else if given.is_none() {
                format!("# TODO: example addresses stand in below, replace {old} and {clean} with the address the audit named and its clean form\n")
            } else if !c.known_url {
                format!("# TODO: replace {} with the address of your site\n", c.origin())
            } else {
                String::new()
            };
            t(
                ServerConfig,
                Medium,
                format!("{todo}# nginx: send the old address to the clean one\nlocation = {old_path} {{\n    return 301 {clean};\n}}\n\n# and in the page's <head>\n# <link rel=\"canonical\" href=\"{clean}\">"),
                format!("Publish the page at the clean address, redirect the old address there permanently, and link to the new one.{example_note}"),
            )
        }

        // --- Content ---
        "title-missing" | "title-too-short" | "title-too-long" | "title-multiple" => {
            // A title that is too short or too long is the issue's current value, when the
            // context has none.
            let with_current;
            let c = if c.title.is_empty() && matches!(id, "title-too-short" | "title-too-long") && c.current.is_some() {
                with_current = Ctx { title: c.current.clone().unwrap_or_default(), ..c.clone() };
                &with_current
            } else {
                c
            };
            let title = match id {
                _ if c.title.is_empty() && c.known_topic().is_none() => {
                    c.topic_or_todo("name the page in 30 to 60 characters")
                }
                "title-too-short" => lengthen_title(c),
                _ => c.suggested_title(),
            };
            let drafted = if !c.title.is_empty() {
                ""
            } else if c.page.is_some_and(|p| !p.h1().trim().is_empty()) {
                " No title was given: this one is drafted from the h1; check it."
            } else {
                " No title was given, nor an h1 to draft one from."
            };
            let why = match id {
                "title-multiple" => "Keep one <title> in <head>; remove the others.",
                "title-too-long" if c.title.is_empty() => "Titles over 60 characters are cut in search results; keep it under 60.",
                "title-too-long" => "Titles over 60 characters are cut in search results; this keeps the front.",
                "title-too-short" => "A title of 30 to 60 characters says more about the page.",
                _ => "Every page needs a unique title in <head>.",
            };
            t(Html, Easy, format!("<title>{}</title>", attr(&title)), format!("{why}{drafted}"))
        }
        "meta-description-missing" | "meta-description-too-short" | "meta-description-too-long" | "meta-description-multiple" => {
            let current = c.current.as_deref().filter(|_| id == "meta-description-too-long");
            let written = match id {
                "meta-description-too-long" | "meta-description-multiple" => c
                    .description
                    .as_deref()
                    .or(current)
                    .map(|d| cut(d, 160))
                    .filter(|d| d.chars().count() >= 70)
                    .or_else(|| c.suggested_description()),
                _ => c.suggested_description(),
            };
            let (content, note) = match written {
                Some(d) => (d, "Written from the page's own text; edit it to invite the click."),
                None => (
                    "TODO: describe what this page offers in one or two sentences of 70 to 160 characters".to_string(),
                    "No page text was available to write it from.",
                ),
            };
            t(Html, Easy, format!("<meta name=\"description\" content=\"{}\">", attr(&content)), format!("Place one such tag in <head>. {note}"))
        }
        "h1-missing" | "h1-empty" => {
            t(Html, Easy, format!("<h1>{}</h1>", attr(&c.topic_or_todo("name the topic of the page"))), "Open the main content with one h1 that names the topic of the page.")
        }
        "h1-multiple" => {
            // The page's h1s, else the issue's current value (audit-core joins them with " | ").
            let h1s: Vec<String> = c.page.map(|p| p.h1s.clone()).unwrap_or_else(|| {
                c.current.as_deref().map(|v| v.split(" | ").map(str::to_string).collect()).unwrap_or_default()
            });
            let code = match h1s.split_first() {
                Some((first, rest)) if !rest.is_empty() => {
                    let mut lines = vec![format!("<h1>{}</h1>", attr(first))];
                    lines.extend(rest.iter().map(|h| format!("<h2>{}</h2>", attr(h))));
                    lines.join("\n")
                }
                _ => format!(
                    "<h1>{}</h1>\n<h2>TODO: the text of the other h1</h2>",
                    attr(&c.topic_or_todo("the text of the h1 that names the topic"))
                ),
            };
            t(Html, Easy, code, "Keep one h1 for the topic of the page and turn the other h1 headings into h2.")
        }
        "heading-levels-skipped" => {
            let headings: Vec<(u8, String)> = c.page.map(|p| p.headings.iter().map(|h| (h.level, h.text.clone())).collect()).unwrap_or_default();
            let skip = c.current.as_deref().filter(|v| v.len() <= 12 && v.starts_with('h') && v.contains("->"));
            let found = skip.map_or(String::new(), |s| format!(" The page goes {} now.", s.replace("->", "to")));
            let (code, why) = if headings.is_empty() {
                (
                    "<h1>TODO: the page's h1</h1>\n<h2>TODO: a section heading</h2>\n<h3>TODO: a subsection heading</h3>".to_string(),
                    "An outline whose levels go down one step at a time (the page's headings were not given: re-level them like this); restyle with CSS instead of choosing a level for its look.",
                )
            } else {
                (
                    relevel(&headings).iter().take(30).map(|(l, text)| format!("<h{l}>{}</h{l}>", attr(text))).collect::<Vec<_>>().join("\n"),
                    "The headings of the page with levels that go down one step at a time; restyle with CSS instead of choosing a level for its look.",
                )
            };
            t(Html, Medium, code, format!("{why}{found}"))
        }
        "thin-content" => {
            let words = c.page.map(|p| p.word_count as u64).or_else(|| c.current_number());
            let now = words.map_or(String::new(), |n| format!(" (now {n})"));
            t(
                Text,
                Hard,
                format!("Expand {} to at least 300 words of its own text{now}: answer the questions a visitor brings, add an overview, details, examples and a short FAQ. The content-gap analysis lists the sections similar pages cover.", c.known_topic().map_or_else(|| "the page".to_string(), |t| format!("\"{t}\""))),
                "Pages with little text rarely rank; write for the reader, not for a word count.",
            )
        }
        "low-text-ratio" => t(
            Text,
            Medium,
            "Move inline <script> and <style> blocks into cached external files, remove unused markup and hidden content, and add descriptive text where the page is thin.",
            "A low share of visible text usually means heavy markup; lighter pages load faster and say more.",
        ),

        // --- Images ---
        "image-alt-missing" => {
            let imgs: Vec<String> = c
                .page
                .map(|p| {
                    p.images
                        .iter()
                        .filter(|i| i.alt.is_none())
                        .take(10)
                        .map(|i| {
                            let name = i.src.rsplit('/').next().unwrap_or("");
                            let alt = words_from_slug(name.split(['?', '#']).next().unwrap_or("")).unwrap_or_else(|| c.topic_or_todo("what the image shows"));
                            format!("<img src=\"{}\" alt=\"{}\"{}>", attr(&i.src), attr(&alt), dims(i.width.as_deref(), i.height.as_deref()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            // Without the page's images, the issue's current value names the first one.
            let given = c.current_token().filter(|_| imgs.is_empty());
            let (code, drafted) = match given {
                _ if !imgs.is_empty() => (imgs.join("\n"), "the alt texts here are drafted from the file names: check them"),
                Some(src) => {
                    let name = src.split(['?', '#']).next().unwrap_or("").rsplit('/').next().unwrap_or("");
                    let alt = words_from_slug(name).unwrap_or_else(|| c.topic_or_todo("what the image shows"));
                    (format!("<img src=\"{}\" alt=\"{}\">", attr(src), attr(&alt)), "the alt text here is drafted from the file name: check it, and do the same for every image without alt")
                }
                None => (
                    "<img src=\"TODO: address of each image without alt\" alt=\"TODO: what the image shows\">".to_string(),
                    "the page's images were not given: write this for each image without alt",
                ),
            };
            t(Html, Easy, code, format!("Describe what each image shows ({drafted}); use alt=\"\" for purely decorative images."))
        }
        "image-dimensions-missing" => {
            let imgs: Vec<String> = c
                .page
                .map(|p| {
                    p.images
                        .iter()
                        .filter(|i| i.width.is_none() || i.height.is_none())
                        .take(10)
                        .map(|i| {
                            let alt = i.alt.clone().unwrap_or_default();
                            format!(
                                "<img src=\"{}\" alt=\"{}\" width=\"{}\" height=\"{}\">",
                                attr(&i.src),
                                attr(&alt),
                                attr(i.width.as_deref().unwrap_or("TODO: width in pixels")),
                                attr(i.height.as_deref().unwrap_or("TODO: height in pixels"))
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let src = c.current_token().unwrap_or("TODO: address of each image without a size");
            let code = if imgs.is_empty() {
                format!("<img src=\"{}\" alt=\"\" width=\"TODO: width in pixels\" height=\"TODO: height in pixels\">", attr(src))
            } else {
                imgs.join("\n")
            };
            t(Html, Easy, code, "Give every image its intrinsic width and height (the file's real size in pixels) so the browser reserves space and the layout does not shift.")
        }

        // --- Links ---
        "link-text-not-descriptive" | "link-empty-text" | "link-uncrawlable" | "internal-link-nofollow" => {
            let (code, stand_in) = link_fix(c, id);
            let (d, why) = match id {
                "link-text-not-descriptive" => (Easy, "Say where the link leads instead of \"click here\" or \"read more\"; the text is drafted from the target address."),
                "link-empty-text" => (Easy, "Give icon and image links an accessible name with aria-label (or alt text on the image)."),
                "link-uncrawlable" => (Medium, "Crawlers follow only <a> elements with a real href; keep JavaScript handlers as an enhancement."),
                _ => (Easy, "Remove rel=\"nofollow\" from links to your own pages so they pass signals within the site."),
            };
            let note = if stand_in { " The page's links were not given." } else { "" };
            t(Html, d, code, format!("{why}{note}"))
        }
        "links-too-many" => t(
            Text,
            Medium,
            "Cut the page to the links a visitor needs (under 100): group navigation into menus of categories, drop repeated links to the same target, and move long link lists to dedicated hub pages.",
            "Each extra link dilutes the others and makes the page harder to use.",
        ),

        // --- Social ---
        "og-title-missing" => {
            let title = if c.title.is_empty() { c.topic_or_todo("title of the page for shared links") } else { c.title.clone() };
            t(Html, Easy, format!("<meta property=\"og:title\" content=\"{}\">", attr(&title)), "Add to <head>: shared links show this title.")
        }
        "og-description-missing" => {
            let d = c
                .description_or_written()
                .unwrap_or_else(|| "TODO: describe what this page offers in one or two sentences".to_string());
            t(Html, Easy, format!("<meta property=\"og:description\" content=\"{}\">", attr(&d)), "Add to <head>: shared links show this text under the title.")
        }
        "og-image-missing" | "og-image-relative" => {
            let existing = c.page.and_then(|p| p.og.get("og:image")).filter(|_| id == "og-image-relative").and_then(|i| c.page.and_then(|p| p.resolve(i)));
            // The relative address the issue names, resolved against the page's URL.
            let existing = existing.or_else(|| {
                c.current_token()
                    .filter(|_| id == "og-image-relative" && c.known_url)
                    .and_then(|i| c.url.join(i).ok())
                    .filter(|u| matches!(u.scheme(), "http" | "https"))
                    .map(String::from)
            });
            let (img, note) = match existing.or_else(|| c.first_image()) {
                Some(i) => (i, "It uses the page's own image; 1200x630 pixels works best."),
                None => ("TODO: full URL of a 1200x630 image for shared links".to_string(), "Upload a 1200x630 image and give its full URL."),
            };
            t(
                Html,
                Easy,
                format!("<meta property=\"og:image\" content=\"{}\">\n<meta property=\"og:image:alt\" content=\"{}\">", attr(&img), attr(&c.topic_or_todo("what the image shows"))),
                format!("og:image must be an absolute URL. {note}"),
            )
        }
        "twitter-card-missing" => {
            let title = if c.title.is_empty() { c.topic_or_todo("title of the page for shared links") } else { c.title.clone() };
            let mut lines = vec![
                "<meta name=\"twitter:card\" content=\"summary_large_image\">".to_string(),
                format!("<meta name=\"twitter:title\" content=\"{}\">", attr(&title)),
            ];
            if let Some(d) = c.description_or_written() {
                lines.push(format!("<meta name=\"twitter:description\" content=\"{}\">", attr(&d)));
            }
            if let Some(img) = c.page.and_then(|p| p.og.get("og:image").cloned()).or_else(|| c.first_image()) {
                lines.push(format!("<meta name=\"twitter:image\" content=\"{}\">", attr(&img)));
            }
            t(Html, Easy, lines.join("\n"), "Add to <head>; X (Twitter) falls back to Open Graph for fields left out.")
        }

        // --- Structured data ---
        "structured-data-missing" => {
            let main = main_json_ld(c);
            let mut code = json_ld_script(&main);
            if let Some(bc) = breadcrumbs(c) {
                code.push('\n');
                code.push_str(&json_ld_script(&bc));
            }
            let ty = main.get("@type").and_then(Value::as_str).unwrap_or("WebPage").to_string();
            t(JsonLd, Medium, code, format!("Add to <head>: {ty} markup with the page's own name and URL. Check it with Google's Rich Results Test."))
        }
        "structured-data-invalid-json" => {
            let err = c.page.and_then(|p| p.json_ld.iter().find_map(|b| b.error.clone()));
            let because = err.map_or(String::new(), |e| format!(" The parser reported: {e}."));
            t(JsonLd, Medium, json_ld_script(&main_json_ld(c)), format!("Replace the broken block with valid JSON (no trailing commas or comments, double quotes only).{because}"))
        }
        "structured-data-no-context" => {
            let existing = c.page.and_then(|p| p.json_ld.iter().find(|b| !b.has_context).and_then(|b| b.value.clone()));
            let fixed = match existing {
                Some(Value::Object(map)) if map.contains_key("@type") => {
                    let mut out = Map::new();
                    out.insert("@context".into(), json!("https://schema.org"));
                    out.extend(map);
                    Value::Object(out)
                }
                _ => main_json_ld(c),
            };
            t(JsonLd, Easy, json_ld_script(&fixed), "Every JSON-LD block needs \"@context\": \"https://schema.org\" so its types are understood.")
        }
        "structured-data-required-properties" | "structured-data-recommended-properties" => {
            let existing = c.page.and_then(|p| p.json_ld.iter().find_map(|b| b.value.clone()));
            let fixed = match existing {
                Some(Value::Object(map)) if map.contains_key("@type") => complete(c, map),
                _ => main_json_ld(c),
            };
            t(JsonLd, Medium, json_ld_script(&fixed), "The markup with the properties Google requires for this type filled in from the page; check every value (prices and ratings must match what the page shows).")
        }

        "structured-data-retired-rich-result" => t(
            Text,
            Easy,
            "Google no longer shows a rich result for this markup (FAQ since 2026-05-07, How-to since 2023-09-13, Book actions, Course info, Fact check, Estimated salary, Learning video, Special announcement and Vehicle listing since 2025-06-12). Keep it only if another consumer reads it; spend the effort on markup for rich results Google still shows (Product, Article, Recipe, BreadcrumbList...).",
            "Valid markup for a retired rich result earns nothing in Search.",
        ),

        // --- Performance ---
        "html-too-large" => t(
            Text,
            Hard,
            "Reduce the HTML under 1 MiB: move inline scripts, styles, SVG sprites and JSON state into cached files, paginate long lists, and remove hidden or duplicated markup.",
            "Large documents take longer to download and parse, and crawlers may stop reading them.",
        ),
        "slow-response" => t(
            ServerConfig,
            Medium,
            "# nginx: compress and cache\ngzip on;\ngzip_types text/html text/css application/javascript application/json image/svg+xml;\n\nlocation ~* \\.(css|js|png|jpg|jpeg|webp|avif|svg|woff2)$ {\n    expires 30d;\n    add_header Cache-Control \"public, max-age=2592000, immutable\";\n}\n\n# cache rendered pages briefly at the proxy\nproxy_cache_valid 200 1m;",
            "Time to first byte over 800 ms usually comes from the application: cache rendered pages, speed up database queries, and serve from a CDN close to visitors.",
        ),
        "render-blocking-scripts" => {
            let mut scripts: Vec<String> = c.page.map(|p| p.render_blocking_scripts.iter().take(10).cloned().collect()).unwrap_or_default();
            if scripts.is_empty() {
                scripts.extend(c.current_token().map(str::to_string));
            }
            let (code, note) = if scripts.is_empty() {
                ("<script src=\"TODO: address of each render-blocking script\" defer></script>".to_string(), " The page's scripts were not given: write this for each of them.")
            } else {
                (scripts.iter().map(|s| format!("<script src=\"{}\" defer></script>", attr(s))).collect::<Vec<_>>().join("\n"), "")
            };
            t(Html, Easy, code, format!("Load scripts in <head> with defer (order kept, runs after parsing) or async (independent scripts such as analytics).{note}"))
        }
        "html-too-complex" => t(
            Text,
            Hard,
            "Close every element you open: find the template or loop that opens a <div>, <span> or <font> without its end tag (the HTML validator at validator.w3.org names the line), keep nesting to a few dozen levels, and split very large generated markup into pages.",
            "Past 512 levels browsers stop nesting elements, and parsers give up on documents this costly, so crawlers index a different structure than the markup describes.",
        ),
        "dom-too-large" => t(
            Text,
            Hard,
            "Simplify the markup below 1,500 elements: remove wrapper divs, render long lists and tables in pages or on demand, and drop hidden duplicate menus for mobile and desktop.",
            "A large DOM slows style calculation and layout on every change.",
        ),

        // --- Mobile ---
        "viewport-missing" | "viewport-not-device-width" | "viewport-not-scalable" => t(
            Html,
            Easy,
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            match id {
                "viewport-not-scalable" => "Remove user-scalable=no and maximum-scale: people must be able to zoom.",
                _ => "Put this in <head> so mobile browsers lay the page out for the screen width.",
            },
        ),

        // --- Internationalization ---
        "html-lang-missing" | "html-lang-invalid" => {
            let given = c.page.and_then(|p| p.lang.as_deref()).or(c.current.as_deref());
            let lang = match (id, given) {
                ("html-lang-invalid", Some(l)) => {
                    let f = fix_lang_tag(l);
                    if audit_core::text::is_valid_bcp47(&f) { f } else { c.lang() }
                }
                _ => c.lang(),
            };
            t(Html, Easy, format!("<html lang=\"{}\">", attr(&lang)), format!("Declare the language of the page on the html element (\"{lang}\" was inferred; correct it if the page is in another language)."))
        }
        "hreflang-invalid-code" | "hreflang-no-self-reference" | "hreflang-no-x-default" | "hreflang-relative-url" => {
            let set = hreflang_set(c);
            let code = set.iter().map(|(l, h)| format!("<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">", attr(l), attr(h))).collect::<Vec<_>>().join("\n");
            t(Html, Medium, code, "Use this set on every page of the group: valid codes, absolute URLs, a link to the page itself and an x-default. Each page must link back to the others.")
        }

        // --- AI readiness ---
        "llms-txt-missing" => {
            let summary = c.description_or_written().unwrap_or_else(|| "TODO: what the site offers, in one sentence".to_string());
            let note = if summary.starts_with("TODO:") { "TODO: a short note on the page".to_string() } else { cut(&summary, 100) };
            t(
                Text,
                Easy,
                format!("# {}\n\n> {}\n\n## Pages\n\n- [{}]({}): {}\n", c.site_name_or_todo(), summary, c.topic_or_todo("name of the page"), url, note),
                "Save this as /llms.txt at the site root and list the pages that matter most, each with a short note.",
            )
        }
        "semantic-html-missing" => t(
            Html,
            Medium,
            format!("<header><nav><a href=\"/\">{}</a></nav></header>\n<main>\n<article>\n<h1>{}</h1>\n</article>\n</main>\n<footer></footer>", attr(&c.site_name_or_todo()), attr(&c.topic_or_todo("the topic of the page"))),
            "Wrap the page in landmark elements so crawlers and assistive technology find the main content.",
        ),
        _ => None,
    }
}

fn dims(w: Option<&str>, h: Option<&str>) -> String {
    match (w, h) {
        (Some(w), Some(h)) => format!(" width=\"{}\" height=\"{}\"", attr(w), attr(h)),
        _ => String::new(),
    }
}

/// A title of 30 to 60 characters: the short title plus the h1 or the site name.
fn lengthen_title(c: &Ctx) -> String {
    let base = if c.title.is_empty() { c.topic() } else { c.title.clone() };
    let mut out = base.clone();
    for extra in [c.known_topic(), c.known_site_name()].into_iter().flatten() {
        if out.chars().count() >= TITLE_MIN_CHARS {
            break;
        }
        if !extra.is_empty() && !out.to_lowercase().contains(&extra.to_lowercase()) {
            out = format!("{out} | {extra}");
        }
    }
    trim_at_word(&out, TITLE_MAX_CHARS)
}

/// The page's URL with the problem the rule found removed.
fn clean_url(url: &url::Url, id: &str) -> String {
    let mut u = url.clone();
    let mut path = u.path().to_string();
    match id {
        "url-uppercase" => path = path.to_lowercase(),
        "url-underscores" => path = path.replace('_', "-"),
        "url-many-parameters" => {
            let keep: Vec<(String, String)> =
                u.query_pairs().take(1).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
            u.set_query(None);
            if !keep.is_empty() {
                u.query_pairs_mut().extend_pairs(keep);
            }
        }
        _ => {
            // Shorten: keep the last segment, cut to five words.
            let last = path.split('/').rfind(|s| !s.is_empty()).unwrap_or("").to_lowercase().replace('_', "-");
            let words: Vec<&str> = last.split('-').filter(|w| !w.is_empty()).take(5).collect();
            path = format!("/{}", words.join("-"));
            u.set_query(None);
        }
    }
    u.set_path(&path);
    u.to_string()
}

/// Headings re-levelled so no level is skipped going down: each heading sits one level
/// below the nearest earlier heading of a higher original level.
fn relevel(headings: &[(u8, String)]) -> Vec<(u8, String)> {
    let mut stack: Vec<(u8, u8)> = Vec::new();
    let mut out = Vec::with_capacity(headings.len());
    for (level, text) in headings {
        while stack.last().is_some_and(|(orig, _)| orig >= level) {
            stack.pop();
        }
        let new = stack.last().map_or((*level).min(2), |(_, n)| n + 1);
        stack.push((*level, new));
        out.push((new, text.clone()));
    }
    out
}

/// The repaired link, and whether a placeholder stands in for the page's link.
fn link_fix(c: &Ctx, id: &str) -> (String, bool) {
    let link = c.page.and_then(|p| {
        p.links.iter().find(|l| match id {
            "link-text-not-descriptive" => audit_core::text::is_generic_link_text(&l.text),
            "link-empty-text" => l.text.trim().is_empty() && l.label.is_none() && l.href.is_some(),
            "link-uncrawlable" => matches!(
                l.kind,
                audit_core::LinkKind::Javascript | audit_core::LinkKind::NoHref | audit_core::LinkKind::Fragment
            ),
            _ => l.internal && l.rel.iter().any(|r| r == "nofollow"),
        })
    });
    // Without the page's link, the issue's current value names it for the rules that report
    // the link's address.
    let given = c
        .current_token()
        .filter(|_| matches!(id, "link-empty-text" | "internal-link-nofollow"))
        .and_then(|h| url::Url::parse(h).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(String::from);
    let known = link.and_then(|l| l.url.clone()).or(given);
    let stand_in = known.is_none();
    let href = known.unwrap_or_else(|| "TODO: full URL the link leads to".to_string());
    let target_words = url::Url::parse(&href)
        .ok()
        .and_then(|u| u.path_segments().and_then(|mut s| s.rfind(|x| !x.is_empty()).map(str::to_string)))
        .and_then(|s| words_from_slug(&s))
        .unwrap_or_else(|| "TODO: where the link leads".to_string());
    let code = match id {
        "link-empty-text" => format!("<a href=\"{}\" aria-label=\"{}\">…</a>", attr(&href), attr(&target_words)),
        "internal-link-nofollow" => {
            let text = link.map(|l| l.text.clone()).filter(|t| !t.is_empty()).unwrap_or(target_words);
            format!("<a href=\"{}\">{}</a>", attr(&href), attr(&text))
        }
        _ => format!("<a href=\"{}\">{}</a>", attr(&href), attr(&target_words)),
    };
    (code, stand_in)
}

/// The JSON-LD type that fits the page best, with its real name and URL.
fn main_json_ld(c: &Ctx) -> Value {
    let types: Vec<String> =
        c.page.map(|p| p.json_ld_types().into_iter().map(str::to_string).collect()).unwrap_or_default();
    let og_type = c.page.and_then(|p| p.og.get("og:type").cloned()).unwrap_or_default().to_lowercase();
    let path = c.url.path().to_lowercase();
    let name = c.topic_or_todo("name of what the page is about");
    let url = c.url_or_todo();
    let site = c.site_name_or_todo();
    let origin = c.origin_or_todo();
    let description = c.description_or_written();
    let questions: Vec<String> = c
        .page
        .map(|p| {
            p.headings
                .iter()
                .filter(|h| h.level >= 2 && h.text.trim_end().ends_with('?'))
                .map(|h| h.text.clone())
                .collect()
        })
        .unwrap_or_default();
    let has = |t: &str| types.iter().any(|x| x == t);
    let mut v = if has("Product") || og_type.starts_with("product") || path.contains("/product") || path.contains("/p/")
    {
        json!({"@context": "https://schema.org", "@type": "Product", "name": name, "url": url,
               "offers": offer(&url)})
    } else if has("LocalBusiness")
        || path.contains("/contact")
        || path.contains("/kontakt")
        || path.contains("/location")
    {
        json!({"@context": "https://schema.org", "@type": "LocalBusiness", "name": site, "url": origin, "address": address()})
    } else if questions.len() >= 3 {
        let items: Vec<Value> = questions
            .iter()
            .take(20)
            .map(
                |q| json!({"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": TODO_ANSWER}}),
            )
            .collect();
        json!({"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": items})
    } else if c.url.path() == "/" {
        json!({"@context": "https://schema.org", "@type": "Organization", "name": site, "url": origin})
    } else {
        let mut a = json!({"@context": "https://schema.org", "@type": "Article", "headline": trim_at_word(&name, 110), "url": url,
                           "mainEntityOfPage": url, "publisher": {"@type": "Organization", "name": site}});
        if let Some(img) = c.first_image() {
            a["image"] = json!(img);
        }
        a
    };
    if let (Some(d), Some(obj)) = (description, v.as_object_mut()) {
        if obj.get("@type").and_then(Value::as_str) != Some("FAQPage") {
            obj.insert("description".into(), json!(d));
        }
    }
    v
}

/// Where an answer of an FAQ goes: the page shows it, the template cannot know it.
const TODO_ANSWER: &str = "TODO: the answer shown on the page";

/// An offer whose price, currency and availability only the shop knows.
fn offer(url: &str) -> Value {
    json!({"@type": "Offer", "url": url, "priceCurrency": "TODO: currency code, e.g. EUR", "price": "TODO: the price shown on the page, e.g. 49.90",
           "availability": "TODO: https://schema.org/InStock or https://schema.org/OutOfStock"})
}

/// A postal address for the owner to fill in.
fn address() -> Value {
    json!({"@type": "PostalAddress", "streetAddress": "TODO: street and number", "addressLocality": "TODO: town or city",
           "postalCode": "TODO: postal code", "addressCountry": "TODO: country code, e.g. DE"})
}

/// A BreadcrumbList from the URL path, when the page is below the home page.
fn breadcrumbs(c: &Ctx) -> Option<Value> {
    let segments: Vec<String> = c.url.path_segments()?.filter(|s| !s.is_empty()).map(str::to_string).collect();
    if segments.is_empty() || !c.known_url {
        return None;
    }
    let mut items =
        vec![json!({"@type": "ListItem", "position": 1, "name": "Home", "item": format!("{}/", c.origin())})];
    let mut path = String::new();
    for (i, seg) in segments.iter().enumerate() {
        path.push('/');
        path.push_str(seg);
        let last = i + 1 == segments.len();
        let name = if last {
            c.topic_or_todo("name of the page")
        } else {
            words_from_slug(seg).unwrap_or_else(|| seg.clone())
        };
        let item = if last { c.url() } else { format!("{}{}/", c.origin(), path) };
        items.push(json!({"@type": "ListItem", "position": i + 2, "name": name, "item": item}));
    }
    Some(json!({"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items}))
}

/// An existing JSON-LD item completed with the properties Google requires for its type.
fn complete(c: &Ctx, mut map: Map<String, Value>) -> Value {
    let ty = match map.get("@type") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a.iter().find_map(|x| x.as_str()).unwrap_or("").to_string(),
        _ => String::new(),
    };
    let name = c.topic_or_todo("name of what the page is about");
    let mut set = |k: &str, v: Value| {
        if map.get(k).is_none_or(Value::is_null) {
            map.insert(k.to_string(), v);
        }
    };
    match ty.as_str() {
        "Article" | "NewsArticle" | "BlogPosting" => set("headline", json!(trim_at_word(&name, 110))),
        "Product" => {
            set("name", json!(name));
            if !["offers", "review", "aggregateRating"].iter().any(|k| map.get(*k).is_some_and(|v| !v.is_null())) {
                map.insert("offers".into(), offer(&c.url_or_todo()));
            }
        }
        "Organization" => {
            set("name", json!(c.site_name_or_todo()));
            set("url", json!(c.origin_or_todo()));
        }
        "BreadcrumbList" => {
            if let Some(Value::Object(b)) = breadcrumbs(c) {
                if let Some(items) = b.get("itemListElement") {
                    set("itemListElement", items.clone());
                }
            }
        }
        "FAQPage" => set(
            "mainEntity",
            json!([{"@type": "Question", "name": "TODO: a question shown on the page", "acceptedAnswer": {"@type": "Answer", "text": TODO_ANSWER}}]),
        ),
        "LocalBusiness" => {
            set("name", json!(c.site_name_or_todo()));
            set("address", address());
        }
        _ => set("name", json!(name)),
    }
    if !map.contains_key("@context") {
        let mut out = Map::new();
        out.insert("@context".into(), json!("https://schema.org"));
        out.extend(map);
        return Value::Object(out);
    }
    Value::Object(map)
}

/// The hreflang set of the page, repaired: valid codes, absolute URLs, self link, x-default.
fn hreflang_set(c: &Ctx) -> Vec<(String, String)> {
    let mut set: Vec<(String, String)> = Vec::new();
    if let Some(p) = c.page {
        for h in &p.hreflang {
            let code = if is_valid_hreflang(&h.lang) {
                h.lang.clone()
            } else {
                fix_lang_tag(&h.lang).replace("en-UK", "en-GB")
            };
            if !is_valid_hreflang(&code) {
                continue;
            }
            let href = h.url.clone().unwrap_or_else(|| c.url_or_todo());
            if !set.iter().any(|(l, _)| l.eq_ignore_ascii_case(&code)) {
                set.push((code, href));
            }
        }
    }
    let own = c.url_or_todo();
    if !set.iter().any(|(_, h)| audit_core::text::same_url(h, &own)) {
        let lang = c.lang();
        set.retain(|(l, _)| !l.eq_ignore_ascii_case(&lang));
        set.insert(0, (lang, own.clone()));
    }
    if set.len() == 1 {
        // A set of one is not a set: show where a second language would go.
        let other = if set[0].0.starts_with("en") { "de" } else { "en" };
        set.push((other.to_string(), format!("TODO: full URL of the {other} version of this page")));
    }
    if !set.iter().any(|(l, _)| l.eq_ignore_ascii_case("x-default")) {
        let default =
            set.iter().find(|(l, _)| l.starts_with("en")).map_or_else(|| set[0].1.clone(), |(_, h)| h.clone());
        set.push(("x-default".into(), default));
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relevelling_removes_skips() {
        let got = relevel(&[(1, "a".into()), (3, "b".into()), (4, "c".into()), (2, "d".into()), (4, "e".into())]);
        let levels: Vec<u8> = got.iter().map(|(l, _)| *l).collect();
        assert_eq!(levels, vec![1, 2, 3, 2, 3]);
    }
}
