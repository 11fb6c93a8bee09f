"""Drives a running seo-audit agent-tool endpoint with the official Python MCP SDK (mcp 2.x).

Environment: MCP_URL (http://127.0.0.1:PORT/api/mcp), MCP_KEY (a key with the mcp scope),
FIXTURE_URL (a page on a loopback fixture site the server may audit), CRAWL_URL (the start of
a small loopback fixture site the server may crawl), MCP_TOOLS (the tool names in tools/list
order, comma-separated). Exits non-zero on the
first failed check. Run by crates/server/tests/it/mcp_clients.rs.
"""

import asyncio
import json
import os
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

URL = os.environ["MCP_URL"]
KEY = os.environ["MCP_KEY"]
FIXTURE = os.environ["FIXTURE_URL"]
CRAWL = os.environ["CRAWL_URL"]
TOOLS = os.environ["MCP_TOOLS"].split(",")
passed = 0


def check(cond, what):
    global passed
    if not cond:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    passed += 1
    print(f"ok: {what}", flush=True)


def text_of(result):
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def run(mode):
    label = f"python mcp {mode}"
    headers = {"x-api-key": KEY}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(streamable_http_client(URL, http_client=http), mode=mode) as client:
            version = client.protocol_version
            if mode == "legacy":
                check(version.startswith("2025"), f"{label}: handshake era ({version})")
            else:
                check(version == "2026-07-28", f"{label}: modern era ({version})")
            tools = await client.list_tools()
            names = [t.name for t in tools.tools]
            check(names == TOOLS and "seo_audit" in names, f"{label}: tools/list gives the {len(TOOLS)} tools")
            concept = await client.call_tool("get_seo_concept", {"concept": "canonical tag"})
            check(not concept.is_error and concept.structured_content["found"] is True,
                  f"{label}: get_seo_concept found")
            audit = await client.call_tool("seo_audit", {"url": FIXTURE})
            check(not audit.is_error, f"{label}: seo_audit succeeded: {text_of(audit)[:200]}")
            score = audit.structured_content["score"]["percentage"]
            check(0 <= score <= 100 and json.loads(text_of(audit))["score"]["percentage"] == score,
                  f"{label}: seo_audit score {score}")
            # The REST audit result itself: snake_case, the full page facts, recommendations.
            result = audit.structured_content
            page = result["page"]
            check(result["api_version"] == "v1" and "meta_description" in page and "status_code" in page
                  and "images" in page and "links" in page and "og" in page
                  and isinstance(result["recommendations"], list) and "metaDescription" not in page,
                  f"{label}: seo_audit is the REST audit result")
            # The tools with a REST twin answer the REST answer, checked by the SDK against
            # their output schemas.
            twins = [
                ("check_ai_readiness", {"url": FIXTURE}, lambda r: 0 <= r["score"] <= 100 and "llms_txt" in r),
                ("scan_ai_visibility", {"url": FIXTURE}, lambda r: set(r["pillars"]) == {
                    "llmsTxt", "aiBotAccess", "answerStructure", "entityClarity"}),
                ("analyze_content_gap", {"url": FIXTURE}, lambda r: r["basis"] == "model"
                    and r["competitorsCompared"] == 0 and isinstance(r["gaps"], list)),
                ("auto_fix_batch", {"issues": [{"id": "canonical-missing", "context": {"url": FIXTURE}}]},
                    lambda r: r["count"] == 1 and FIXTURE in r["fixes"][0]["fix"]),
            ]
            for name, arguments, holds in twins:
                result = await client.call_tool(name, arguments)
                check(not result.is_error and result.structured_content["api_version"] == "v1"
                      and json.loads(text_of(result)) == result.structured_content
                      and holds(result.structured_content),
                      f"{label}: {name} answers: {text_of(result)[:120]}")
            run = await client.call_tool("workflow_execute", {"intent": "audit", "url": FIXTURE})
            check(not run.is_error, f"{label}: workflow_execute started a run")
            status = await client.call_tool("workflow_status", {"runId": run.structured_content["runId"]})
            check(not status.is_error and status.structured_content["runId"] == run.structured_content["runId"],
                  f"{label}: workflow_status polls the run")
            # A site crawl: crawl_site starts it, crawl_status is polled until it ends; the SDK
            # checks both structured results against the tools' output schemas.
            schemas = {t.name: t.output_schema for t in tools.tools}
            check(schemas.get("crawl_site") and schemas.get("crawl_status"),
                  f"{label}: crawl_site and crawl_status declare output schemas")
            started = await client.call_tool("crawl_site", {"url": CRAWL, "max_pages": 10})
            check(not started.is_error and started.structured_content["crawl_id"].startswith("cr_")
                  and json.loads(text_of(started)) == started.structured_content,
                  f"{label}: crawl_site started a crawl: {text_of(started)[:160]}")
            crawl_id = started.structured_content["crawl_id"]
            status = None
            for _ in range(600):
                status = await client.call_tool("crawl_status", {"crawl_id": crawl_id})
                check(not status.is_error and status.structured_content["crawl_id"] == crawl_id,
                      f"{label}: crawl_status ({status.structured_content['state']})")
                if status.structured_content["state"] in ("completed", "cancelled", "failed"):
                    break
                await asyncio.sleep(0.1)
            crawled = status.structured_content
            check(crawled["state"] == "completed" and crawled["progress"]["pages_done"] >= 2
                  and crawled["progress"]["pages_queued"] == 0 and 0 <= crawled["site_score"] <= 100,
                  f"{label}: the crawl ended with pages crawled: {text_of(status)[:200]}")
            res = await client.read_resource("svc://methodology")
            check(len(res.contents) == 1 and len(res.contents[0].text) > 100, f"{label}: resources/read")
            prompt = await client.get_prompt("explain_seo_issue", {"issue": "canonical-missing"})
            check(len(prompt.messages) >= 1, f"{label}: prompts/get")
    # Without a key: the write tool answers an isError result that says how to get one.
    async with httpx2.AsyncClient(timeout=60) as http:
        async with Client(streamable_http_client(URL, http_client=http), mode=mode) as client:
            refused = await client.call_tool("seo_audit", {"url": FIXTURE})
            text = text_of(refused)
            check(refused.is_error and "key" in text, f"{label}: seo_audit without a key is refused ({text[:80]}...)")


async def main():
    for mode in ("auto", "legacy"):
        await run(mode)
    print(f"python: {passed} checks passed", flush=True)


asyncio.run(main())
