#!/usr/bin/env python3
"""Generate the AI crawler registry of crates/ai-visibility from the ai.robots.txt project.

Usage: scripts/ai-crawlers.py PATH/TO/ai.robots.txt-checkout

The checkout is a git clone of https://github.com/ai-robots-txt/ai.robots.txt; its
robots.json is read at HEAD, and the commit and its date are written into both outputs:

- crates/ai-visibility/data/ai-crawlers.json: the registry as data (one entry per robots.txt
  token, with every upstream user agent it stands for), read by a test of the crate;
- crates/ai-visibility/src/registry.rs: the same entries as a Rust table (AI_BOTS).

Our purpose classes (search, user_fetch, training, agent, coding_agent, scraper, unknown) come
from the upstream function class, else from keywords of the upstream free text, else from the
hand-checked OVERRIDES below, which win. Run it again to follow upstream; review the diff.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "crates/ai-visibility/data/ai-crawlers.json"
RUST = ROOT / "crates/ai-visibility/src/registry.rs"

# Crawlers whose operator and purpose we checked against the operators' own documentation
# (the table seo-audit kept by hand before the registry). They keep their place at the top,
# the three the readiness check names first.
CURATED = [
    ("GPTBot", "OpenAI", "training"),
    ("ClaudeBot", "Anthropic", "training"),
    ("PerplexityBot", "Perplexity", "search"),
    ("OAI-SearchBot", "OpenAI", "search"),
    ("ChatGPT-User", "OpenAI", "user_fetch"),
    ("anthropic-ai", "Anthropic", "training"),
    ("Claude-SearchBot", "Anthropic", "search"),
    ("Claude-User", "Anthropic", "user_fetch"),
    ("Claude-Web", "Anthropic", "user_fetch"),
    ("Perplexity-User", "Perplexity", "user_fetch"),
    ("Google-Extended", "Google", "training"),
    ("GoogleOther", "Google", "training"),
    ("Applebot-Extended", "Apple", "training"),
    ("CCBot", "Common Crawl", "training"),
    ("Bytespider", "ByteDance", "training"),
    ("Meta-ExternalAgent", "Meta", "training"),
    ("Meta-ExternalFetcher", "Meta", "user_fetch"),
    ("FacebookBot", "Meta", "training"),
    ("Amazonbot", "Amazon", "search"),
    ("cohere-ai", "Cohere", "user_fetch"),
    ("cohere-training-data-crawler", "Cohere", "training"),
    ("DuckAssistBot", "DuckDuckGo", "search"),
    ("MistralAI-User", "Mistral AI", "user_fetch"),
    ("Diffbot", "Diffbot", "training"),
    ("YouBot", "You.com", "search"),
    ("Timpibot", "Timpi", "training"),
    ("omgili", "Webz.io", "training"),
    ("ImagesiftBot", "ImageSift", "training"),
    ("PanguBot", "Huawei", "training"),
]

# Hand-checked classes for tokens whose upstream text says too little or misleads.
OVERRIDES = {
    "Applebot": ("Apple", "search"),
    "ChatGPT": ("OpenAI", "agent"),
    "Google-Agent": ("Google", "agent"),
    "GoogleAgent-Mariner": ("Google", "agent"),
    "GoogleAgent-URLContext": ("Google", "user_fetch"),
    "Gemini-Deep-Research": ("Google", "user_fetch"),
    "Google-NotebookLM": ("Google", "user_fetch"),
    "NotebookLM": ("Google", "user_fetch"),
    "Google-CloudVertexBot": ("Google", "scraper"),
    "GoogleOther-Image": ("Google", "training"),
    "GoogleOther-Video": ("Google", "training"),
    "Claude-Code": ("Anthropic", "coding_agent"),
    "OpenAI": ("OpenAI", "unknown"),
    "Operator": ("OpenAI", "agent"),
    "facebookexternalhit": ("Meta", "user_fetch"),
    "meta-webindexer": ("Meta", "search"),
    "PetalBot": ("Huawei", "search"),
    "iaskspider": ("iAsk", "user_fetch"),
    "YandexAdditional": ("Yandex", "training"),
    "YandexAdditionalBot": ("Yandex", "training"),
    "Amzn-SearchBot": ("Amazon", "search"),
    "Amzn-User": ("Amazon", "user_fetch"),
    "amazon-QBusiness": ("Amazon", "user_fetch"),
    "AmazonBuyForMe": ("Amazon", "agent"),
    "NovaAct": ("Amazon", "agent"),
    "bedrockbot": ("Amazon", "scraper"),
    "amazon-kendra": ("Amazon", "search"),
    "TikTokSpider": ("ByteDance", "training"),
    "Scrapy": ("Zyte", "scraper"),
    "Spider": ("unknown", "scraper"),
    "aiHitBot": ("aiHit", "scraper"),
    "YaK": ("Meltwater", "scraper"),
    "LAIONDownloader": ("LAION", "training"),
}

FUNCTION_CLASSES = {
    "ai search crawlers": "search",
    "ai assistants": "user_fetch",
    "ai agents": "agent",
    "ai coding agents": "coding_agent",
    # knownagents.com, whose classes upstream uses: "AI data scrapers" download content to
    # train models; "AI data providers" crawl on behalf of others and sell what they get.
    "ai data scrapers": "training",
    "ai data scraper": "training",
    "ai data providers": "scraper",
    "undocumented ai agents": "unknown",
}

KEYWORDS = [
    ("train", "training"),
    ("llm", "training"),
    ("user", "user_fetch"),
    ("prompt", "user_fetch"),
    ("assistant", "user_fetch"),
    ("search", "search"),
    ("scrap", "scraper"),
    ("data", "scraper"),
    ("extract", "scraper"),
]

CLASSES = ["search", "user_fetch", "training", "agent", "coding_agent", "scraper", "unknown"]
RUST_PURPOSE = {
    "search": "Search",
    "user_fetch": "UserFetch",
    "training": "Training",
    "agent": "Agent",
    "coding_agent": "CodingAgent",
    "scraper": "Scraper",
    "unknown": "Unknown",
}
RUST_RESPECT = {"yes": "Yes", "no": "No", "unclear": "Unclear"}


def token_of(user_agent):
    """The product token a robots.txt `User-agent:` line with this value names: the value up
    to the first space or `/` (what RFC 9309 and Google's parser compare)."""
    return re.split(r"[ /]", user_agent, maxsplit=1)[0]


def plain(text):
    """Markdown links reduced to their text, whitespace collapsed."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.split())


def operator_of(raw):
    text = plain(raw)
    if not text or text.lower().startswith(("unclear", "unknown", "no information")):
        return "unknown"
    if text.lower().startswith("anyone"):
        return "anyone (open-source tool)"
    if text.startswith("http"):
        host = re.sub(r"^https?://", "", text).split("/")[0]
        return host.removeprefix("www.")
    # "Big Sur AI that fetches ...", "Amazon, used for ...": the name comes first.
    text = re.split(r",| that | to | which | \(", text, maxsplit=1)[0].strip()
    text = text.removeprefix("the Chinese company ")
    return text[:60]


def respect_of(raw):
    text = plain(raw).lower()
    if text.startswith("yes"):
        return "yes"
    if text.startswith("no"):
        return "no"
    return "unclear"


def purpose_of(function):
    f = plain(function).lower().rstrip(".")
    if f in FUNCTION_CLASSES:
        return FUNCTION_CLASSES[f]
    for word, cls in KEYWORDS:
        # Whole words only: "research" is no "search".
        if re.search(rf"\b{word}", f):
            return cls
    return "unknown"


def rust_str(s):
    return json.dumps(s, ensure_ascii=False)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    checkout = Path(sys.argv[1])
    git = lambda *a: subprocess.run(["git", "-C", str(checkout), *a], check=True, capture_output=True, text=True).stdout
    commit = git("rev-parse", "HEAD").strip()
    date = git("log", "-1", "--format=%cI", "HEAD").strip()
    upstream = json.loads(git("show", "HEAD:robots.json"))

    entries = {}
    order = []
    for user_agent, info in upstream.items():
        token = token_of(user_agent)
        key = token.lower()
        respect = respect_of(info.get("respect", ""))
        if key in entries:
            e = entries[key]
            e["user_agents"].append(user_agent)
            # Of two entries for one token, a documented answer beats "unclear".
            if e["respects_robots_txt"] == "unclear":
                e["respects_robots_txt"] = respect
            continue
        entries[key] = {
            "token": token,
            "user_agents": [user_agent],
            "operator": operator_of(info.get("operator", "")),
            "function": plain(info.get("function", "")),
            "purpose": purpose_of(info.get("function", "")),
            "respects_robots_txt": respect,
            "curated": False,
        }
        order.append(key)

    for token, (operator, purpose) in OVERRIDES.items():
        e = entries[token.lower()]
        e["operator"], e["purpose"] = operator, purpose
    curated_keys = []
    for token, operator, purpose in CURATED:
        e = entries.get(token.lower())
        if e is None:
            sys.exit(f"curated crawler {token} is no longer in the upstream list: review CURATED")
        e.update(token=token, operator=operator, purpose=purpose, curated=True)
        curated_keys.append(token.lower())
    rest = sorted((k for k in order if k not in curated_keys), key=lambda k: entries[k]["token"].lower())
    crawlers = [entries[k] for k in curated_keys + rest]

    data = {
        "source": "https://github.com/ai-robots-txt/ai.robots.txt (robots.json)",
        "commit": commit,
        "date": date,
        "generated_by": "scripts/ai-crawlers.py",
        "upstream_user_agents": len(upstream),
        "crawlers": crawlers,
    }
    DATA.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")

    out = [
        "//! The AI crawler registry: every user agent of the ai.robots.txt project's list.",
        "//!",
        "//! Generated by `scripts/ai-crawlers.py` from robots.json of",
        f"//! https://github.com/ai-robots-txt/ai.robots.txt at commit {commit} ({date});",
        "//! do not edit by hand. `data/ai-crawlers.json` holds the same entries as data.",
        "",
        "use crate::crawler::{AiBot, Purpose::*, RobotsCompliance::*};",
        "",
        "/// The upstream commit the registry was generated from.",
        f"pub const REGISTRY_COMMIT: &str = {rust_str(commit)};",
        "/// The date of that commit.",
        f"pub const REGISTRY_DATE: &str = {rust_str(date)};",
        "/// How many user agents the upstream list holds (several may share one token).",
        f"pub const UPSTREAM_USER_AGENTS: usize = {len(upstream)};",
        "",
        "/// Every AI crawler, one per robots.txt token: the hand-checked ones first (the three",
        "/// the readiness check names at the top), then the rest of the upstream list by token.",
        "#[rustfmt::skip]",
        "pub const AI_BOTS: &[AiBot] = &[",
    ]
    named = {"GPTBot", "ClaudeBot", "PerplexityBot"}
    for c in crawlers:
        agents = ", ".join(rust_str(a) for a in c["user_agents"])
        out.append(
            f"    AiBot {{ name: {rust_str(c['token'])}, operator: {rust_str(c['operator'])}, "
            f"purpose: {RUST_PURPOSE[c['purpose']]}, respects_robots_txt: {RUST_RESPECT[c['respects_robots_txt']]}, "
            f"function: {rust_str(c['function'])}, user_agents: &[{agents}], "
            f"curated: {'true' if c['curated'] else 'false'}, named: {'true' if c['token'] in named else 'false'} }},"
        )
    out.append("];")
    RUST.write_text("\n".join(out) + "\n")

    counts = {cls: sum(c["purpose"] == cls for c in crawlers) for cls in CLASSES}
    respect = {r: sum(c["respects_robots_txt"] == r for c in crawlers) for r in ("yes", "no", "unclear")}
    print(f"{len(upstream)} upstream user agents, {len(crawlers)} tokens; classes {counts}; robots.txt honoured {respect}")


if __name__ == "__main__":
    main()
