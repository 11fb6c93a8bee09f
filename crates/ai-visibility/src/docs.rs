//! `docs/AI-VISIBILITY.md`, generated from the scan's check table and the readiness
//! point table.

use std::fmt::Write as _;

use crate::readiness::READINESS_POINTS;
use crate::record::{MAX_RECORD_ITEMS, MAX_RECORD_TEXT_CHARS};
use crate::scan::{Pillar, PILLAR_MAX, SCAN_CHECKS};

/// Renders the scoring methodology of `/api/ai-visibility-scan` and `/api/ai-readiness`.
/// `docs/AI-VISIBILITY.md` is this output; a test fails when it is stale (regenerate with
/// `UPDATE_DOCS=1 cargo test -p ai-visibility --test it methodology_doc::`).
pub fn scan_methodology_markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# AI visibility: what earns each point\n\n\
         <!-- Generated from the check tables of crates/ai-visibility; do not edit by hand. -->\n\n\
         Both scores are deterministic: the same page, llms.txt and robots.txt always give the same points. \
         Bot access is judged for the audited page's own URL, from one table of {} AI crawlers. \
         Both responses list each crawler they judged in `crawlers`, with its verdict and the robots.txt group \
         and line that decided it (docs/API.md, \"Which robots.txt line decided\").\n",
        crate::AI_BOTS.len()
    );
    let _ = writeln!(
        out,
        "## `/api/ai-visibility-scan`\n\n\
         Methodology version {} (the answer's `version`; 2 brought the crawler registry and the \
         `content-signal-search` point, taken from `bots-no-blanket`). Four pillars of {PILLAR_MAX} points each; `score` is their sum (0..100). The response's `details` lists \
         every check below with the points it earned; each check that earns less than its maximum adds one \
         recommendation, biggest loss first.\n",
        crate::SCAN_VERSION
    );
    crawler_classes(&mut out);
    for pillar in Pillar::ALL {
        let checks: Vec<_> = SCAN_CHECKS.iter().filter(|c| c.pillar == pillar).collect();
        let total: u32 = checks.iter().map(|c| u32::from(c.max)).sum();
        let _ = writeln!(out, "### {} (`{}`, {total} points)\n", pillar.title(), pillar.key());
        let _ = writeln!(out, "| check | points | earned when |\n|---|---|---|");
        for c in checks {
            let _ = writeln!(out, "| `{}` | {} | {} |", c.id, c.max, escape(c.earns));
        }
        let _ = writeln!(out);
    }
    let total: u32 = READINESS_POINTS.iter().map(|i| u32::from(i.points)).sum();
    let _ = writeln!(
        out,
        "## `/api/ai-readiness`\n\n\
         `score` (0..{total}) is the sum of the items that pass; each failed item adds one recommendation \
         (an absent llms.txt adds one, not two).\n"
    );
    let _ = writeln!(out, "| item | points | earned when |\n|---|---|---|");
    for i in READINESS_POINTS {
        let _ = writeln!(out, "| `{}` | {} | {} |", i.id, i.points, escape(i.earns));
    }
    let _ = writeln!(out);
    agents(&mut out);
    out
}

/// The `agents` object of the readiness answer: what is fetched, how it is judged, and
/// where the llms.txt verdict departs from Lighthouse's.
fn agents(out: &mut String) {
    use crate::agents::{
        AGENT_PROBE_BUDGET, CHALLENGE_BODIES, CHALLENGE_HEADERS, EDGE_BOTS, MAX_AGENT_PROBES, MAX_DISCOVERY_FETCHES,
        MAX_LLMS_LINK_CHECKS,
    };
    let _ = writeln!(
        out,
        "## What agents meet (`agents` of `/api/ai-readiness`)\n\n\
         After the page, robots.txt and llms.txt, the readiness check makes at most {MAX_AGENT_PROBES} more requests: \
         llms-full.txt, the first {MAX_LLMS_LINK_CHECKS} llms.txt links, up to {MAX_DISCOVERY_FETCHES} places of \
         discovery documents, two markdown fetches, and the page as a browser and as {} AI crawlers. They go \
         through the address guard with the fetcher's size and time limits, one at a time (a site never sees two \
         of them at once), within {} s for all of them; what the budget leaves out is listed as not checked. \
         The check is still charged one unit, and `agents.requests` says how many were made. None of it changes \
         the score: the items above keep their meaning. A crawler the edge turns away although robots.txt lets \
         it in, and a discovery document or llms-full.txt served broken, each add a recommendation; a document \
         a site does not publish is no defect.\n",
        EDGE_BOTS.len(),
        AGENT_PROBE_BUDGET.as_secs()
    );
    let _ = writeln!(
        out,
        "### llms.txt\n\n\
         The file is read as llmstxt.org defines it: one `# H1` title first, an optional `> blockquote` summary, \
         free Markdown without headings, then `## H2` sections of `[name](url): notes` list items, `## Optional` \
         being the one a reader may skip. Each departure is an issue with its line (`llms_txt.issues`). \
         llms-full.txt, which holds the documentation itself, is only checked for being Markdown with a title.\n\n\
         Lighthouse's `llms-txt` audit passes a file with a line starting `# `, a `[text](target)` and 50 \
         characters. A file it passes never fails the basic shape here (`empty_file`, `html_not_markdown`, \
         `missing_h1`, `no_links`), but where the two still part:\n\n\
         - A `# ` line inside a fenced code block is code here, not a title: a file with no other title is \
         `missing_h1`, where Lighthouse sees one.\n\
         - An HTML page served at `/llms.txt` is `html_not_markdown` here whatever it holds.\n\
         - Links only in prose pass Lighthouse; here they are `no_link_list`, a warning (the file stays valid).\n\
         - Lighthouse fails a file under 50 characters; here a short file with a title and a link is valid.\n\
         - The format's sections are link lists: a section of prose without a listed link \
         (`section_without_links`) or a second H1 (`multiple_h1`) makes a file invalid here, which Lighthouse \
         passes.\n\n\
         On the eight real files of the test corpus the two verdicts differ once: python.useinstructor.com's \
         file, full documentation with prose sections, H3 headings and in-page anchors, which Lighthouse passes \
         and which is invalid here for its sections without links. blog.airat.top's file, a usage policy \
         without links, fails both; the six others pass both.\n"
    );
    let _ = writeln!(
        out,
        "### Discovery documents\n\n\
         Each kind is looked for at its well-known path; the AI and API catalogs also where the page's \
         `<link rel=\"ai-catalog\">` / `<link rel=\"api-catalog\">`, its `Link` headers of those relations, and \
         robots.txt `Agentmap:` lines point. One fetch per URL (`found_by` lists every way that led there), at \
         most {MAX_DISCOVERY_FETCHES}. A 2xx answer is validated (`findings`, each with its JSON path); \
         any other answer means the site does not publish it.\n\n\
         | kind | well-known path | also found by |\n|---|---|---|"
    );
    for kind in crate::DocKind::ALL {
        let also = match kind {
            crate::DocKind::AiCatalog => {
                "`<link rel=\"ai-catalog\">`, `Link: rel=\"ai-catalog\"`, robots.txt `Agentmap:`"
            }
            crate::DocKind::ApiCatalog => "`<link rel=\"api-catalog\">`, `Link: rel=\"api-catalog\"`",
            _ => "",
        };
        let key = serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        let _ = writeln!(out, "| `{key}` | `{}` | {also} |", kind.well_known_path());
    }
    let _ = writeln!(
        out,
        "\n### Markdown for agents\n\n\
         `negotiated`: the page's URL fetched with `Accept: text/markdown` answers 2xx Markdown (`text/markdown`, \
         or `text/plain` that is no HTML page). `alternate_served`: the markdown alternate a \
         `<link rel=\"alternate\" type=\"text/markdown\">` or a `Link` header names, or else the `.md` twin \
         (`/docs/page` → `/docs/page.md`, `/docs/` → `/docs/index.md`), answers Markdown. `available` is either.\n"
    );
    let _ = writeln!(
        out,
        "### WebMCP forms\n\n\
         A `<form>` with `toolname` or `tooldescription` declares a tool agents may call. It is checked without \
         running the page, as Lighthouse's `webmcp-schema-validity` audit names the problems: no `toolname` or \
         no `tooldescription` (errors), a `required` field without `name` (error), a field without `name`, or \
         without `toolparamdescription` or `title` (warnings). Buttons and hidden inputs are no parameters. \
         The first error adds a recommendation.\n"
    );
    let _ = writeln!(
        out,
        "### Edge blocking\n\n\
         The page is fetched with a browser's user agent, then with each crawler's below, all with a browser's \
         `Accept`. A crawler is `blocked` when the browser got the page (2xx, no challenge) and it did not: \
         another status (402 is pay per crawl), a challenge page, no answer, or less than half the browser's \
         visible text when that is at least 200 bytes. `evidence` says which. When the browser is turned \
         away too (`comparable: false`), no crawler is judged.\n\n\
         | crawler | user agent sent |\n|---|---|"
    );
    for bot in EDGE_BOTS {
        let _ = writeln!(out, "| `{}` | `{}` |", bot.bot, bot.user_agent);
    }
    let _ = writeln!(out, "\nA challenge page is recognised by these markers:\n");
    for (name, value, what) in CHALLENGE_HEADERS {
        let value = if value.is_empty() { "any value".to_owned() } else { format!("containing `{value}`") };
        let _ = writeln!(out, "- {what}: the `{name}` header, {value}");
    }
    for (fragment, what) in CHALLENGE_BODIES {
        let _ = writeln!(out, "- {what}: `{}` in the body", escape(fragment));
    }
    let _ = writeln!(
        out,
        "\n### The report page\n\n\
         Each readiness answer is stored in a bounded form (`ReadinessRecord`): the score, the crawler verdicts \
         counted per purpose class, the `Content-Signal:` lines, what the server answered each crawler against \
         the browser, the discovery documents with their first error, and the llms.txt findings. Each list \
         keeps at most {MAX_RECORD_ITEMS} items and its total, each text at most {MAX_RECORD_TEXT_CHARS} \
         characters. The report page of a domain (`GET /report/{{domain}}`) shows, under the audit's page \
         facts, an AI-readiness section made from the newest answer of the audited page that was checked \
         without a key; an answer made with a key is private to it, as its audit is. Stored answers are \
         deleted at the audits' ages (docs/API.md, \"Running the service\")."
    );
    let _ = writeln!(
        out,
        "\n### Edge blocking across a site (crawls)\n\n\
         A crawl fetches each page once, as seo-audit's own crawler; the site rule `ai-crawlers-blocked-at-edge` \
         (docs/RULES.md, \"Site rules\") tells which pages an edge turns AI crawlers away from. After the crawl \
         ends (not when it was cancelled), it fetches a sample of its pages again: the first 5 HTML pages that \
         answered 200 and are not `noindex`, in crawl order (the start page first), each as a browser and as \
         GPTBot, ClaudeBot and PerplexityBot, with the user agents and the comparison of the edge check above. \
         A crawler is sent only where robots.txt lets it in (a `Disallow` is the site's choice, not an edge \
         block), and nothing is fetched under a `Crawl-delay` for seo-audit or where robots.txt cannot be read. \
         The requests go one at a time, through the address guard with the fetcher's size and time limits, \
         within 20 s for all of them: at most 20 a crawl, counted in the crawl summary's `edge_requests`; a page \
         the budget cut short is not judged. The verdicts are kept with the run's summary, as the answer to the \
         never-existing URL of `soft-404` is, and made again by a resumed run from the pages it fetches. For the \
         other crawlers, the readiness check above on one page of each template gives the verdicts page by page."
    );
}

/// The registry's classes, what each counts for, and how many crawlers of each ignore
/// robots.txt.
fn crawler_classes(out: &mut String) {
    let bots = crate::AI_BOTS;
    let _ = writeln!(
        out,
        "### Crawler classes\n\n\
         The crawler registry holds {} robots.txt tokens for the {} user agents of the public list of AI crawlers \
         (the ai.robots.txt project, commit `{}` of {}), generated by `scripts/ai-crawlers.py`. Each crawler is in \
         one purpose class; the `aiBotAccess` checks weigh a class by the share of its crawlers robots.txt lets \
         fetch the page, so every crawler of a class counts the same. A crawler documented to ignore robots.txt is \
         judged like the others, and flagged `disallow_ignored` when robots.txt blocks it: the `Disallow` will not \
         stop it.\n",
        bots.len(),
        crate::UPSTREAM_USER_AGENTS,
        crate::REGISTRY_COMMIT,
        crate::REGISTRY_DATE.get(..10).unwrap_or(crate::REGISTRY_DATE),
    );
    let _ = writeln!(
        out,
        "| class | what it fetches for | crawlers | honour robots.txt: yes / no / unclear | weighed by |\n|---|---|---|---|---|"
    );
    for purpose in crate::Purpose::ALL {
        let of: Vec<_> = bots.iter().filter(|b| b.purpose == purpose).collect();
        let count = |r| of.iter().filter(|b| b.respects_robots_txt == r).count();
        use crate::RobotsCompliance::{No, Unclear, Yes};
        let check =
            crate::scan_check_of(purpose).map_or("nothing (a choice, not a defect)".to_owned(), |c| format!("`{c}`"));
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} / {} / {} | {check} |",
            purpose.key(),
            purpose.title(),
            of.len(),
            count(Yes),
            count(No),
            count(Unclear)
        );
    }
    let _ = writeln!(out);
}

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}
