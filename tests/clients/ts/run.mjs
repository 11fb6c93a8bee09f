// Drives a running seo-audit agent-tool endpoint with the official TypeScript SDKs:
// @modelcontextprotocol/sdk 1.x (2025 handshake) and @modelcontextprotocol/client 2.x
// (default legacy, and versionNegotiation mode 'auto', which goes modern).
// Environment: MCP_URL, MCP_KEY (a key with the mcp scope), FIXTURE_URL (a loopback page the
// server may audit), CRAWL_URL (the start of a small loopback site the server may crawl), MCP_TOOLS (the tool names in tools/list order, comma-separated). Exits non-zero on the first failed check.
import * as sdk1 from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Sdk1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as sdk2 from "@modelcontextprotocol/client";

const URL_ = new URL(process.env.MCP_URL);
const KEY = process.env.MCP_KEY;
const FIXTURE = process.env.FIXTURE_URL;
const CRAWL = process.env.CRAWL_URL;
const TOOLS = process.env.MCP_TOOLS.split(",");
let passed = 0;

function check(cond, what) {
  if (!cond) {
    console.log(`FAIL: ${what}`);
    process.exit(1);
  }
  passed += 1;
  console.log(`ok: ${what}`);
}

const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("");

const flavours = [
  {
    label: "@modelcontextprotocol/sdk 1.x",
    make: (headers) => [new sdk1.Client({ name: "seo-audit-ci", version: "1.0.0" }), new Sdk1Transport(URL_, { requestInit: { headers } })],
    modern: false,
  },
  {
    label: "@modelcontextprotocol/client 2.x (legacy default)",
    make: (headers) => [new sdk2.Client({ name: "seo-audit-ci", version: "1.0.0" }), new sdk2.StreamableHTTPClientTransport(URL_, { requestInit: { headers } })],
    modern: false,
  },
  {
    label: "@modelcontextprotocol/client 2.x (versionNegotiation auto)",
    make: (headers) => [
      new sdk2.Client({ name: "seo-audit-ci", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } }),
      new sdk2.StreamableHTTPClientTransport(URL_, { requestInit: { headers } }),
    ],
    modern: true,
  },
];

for (const f of flavours) {
  const [client, transport] = f.make({ "x-api-key": KEY });
  await client.connect(transport);
  const version = typeof client.getNegotiatedProtocolVersion === "function" ? client.getNegotiatedProtocolVersion() : transport.protocolVersion;
  if (f.modern) check(version === "2026-07-28", `${f.label}: modern era (${version})`);
  else check(version === undefined || String(version).startsWith("2025"), `${f.label}: handshake era (${version})`);
  const tools = await client.listTools();
  const names = tools.tools.map((t) => t.name);
  check(JSON.stringify(names) === JSON.stringify(TOOLS) && names.includes("seo_audit"), `${f.label}: tools/list gives the ${TOOLS.length} tools`);
  const concept = await client.callTool({ name: "get_seo_concept", arguments: { concept: "canonical tag" } });
  check(!concept.isError && concept.structuredContent.found === true, `${f.label}: get_seo_concept found`);
  const audit = await client.callTool({ name: "seo_audit", arguments: { url: FIXTURE } });
  check(!audit.isError, `${f.label}: seo_audit succeeded: ${textOf(audit).slice(0, 200)}`);
  const score = audit.structuredContent.score.percentage;
  check(score >= 0 && score <= 100 && JSON.parse(textOf(audit)).score.percentage === score, `${f.label}: seo_audit score ${score}`);
  // The REST audit result itself: snake_case, the full page facts, recommendations.
  const result = audit.structuredContent;
  const page = result.page;
  check(
    result.api_version === "v1" && "meta_description" in page && "status_code" in page && "images" in page &&
      "links" in page && "og" in page && Array.isArray(result.recommendations) && !("metaDescription" in page),
    `${f.label}: seo_audit is the REST audit result`,
  );
  // The tools with a REST twin answer the REST answer, checked by the SDK against their
  // output schemas.
  const twins = [
    ["check_ai_readiness", { url: FIXTURE }, (r) => r.score >= 0 && r.score <= 100 && "llms_txt" in r],
    ["scan_ai_visibility", { url: FIXTURE }, (r) => ["llmsTxt", "aiBotAccess", "answerStructure", "entityClarity"].every((p) => p in r.pillars)],
    ["analyze_content_gap", { url: FIXTURE }, (r) => r.basis === "model" && r.competitorsCompared === 0 && Array.isArray(r.gaps)],
    ["auto_fix_batch", { issues: [{ id: "canonical-missing", context: { url: FIXTURE } }] }, (r) => r.count === 1 && r.fixes[0].fix.includes(FIXTURE)],
  ];
  for (const [name, args, holds] of twins) {
    const r = await client.callTool({ name, arguments: args });
    check(
      !r.isError && r.structuredContent.api_version === "v1" &&
        JSON.stringify(JSON.parse(textOf(r))) === JSON.stringify(r.structuredContent) && holds(r.structuredContent),
      `${f.label}: ${name} answers: ${textOf(r).slice(0, 120)}`,
    );
  }
  const run = await client.callTool({ name: "workflow_execute", arguments: { intent: "audit", url: FIXTURE } });
  check(!run.isError, `${f.label}: workflow_execute started a run`);
  const status = await client.callTool({ name: "workflow_status", arguments: { runId: run.structuredContent.runId } });
  check(!status.isError && status.structuredContent.runId === run.structuredContent.runId, `${f.label}: workflow_status polls the run`);
  // A site crawl: crawl_site starts it, crawl_status is polled until it ends; the SDK checks
  // both structured results against the tools' output schemas.
  const schemas = Object.fromEntries(tools.tools.map((t) => [t.name, t.outputSchema]));
  check(schemas.crawl_site && schemas.crawl_status, `${f.label}: crawl_site and crawl_status declare output schemas`);
  const started = await client.callTool({ name: "crawl_site", arguments: { url: CRAWL, max_pages: 10 } });
  check(
    !started.isError && started.structuredContent.crawl_id.startsWith("cr_") &&
      JSON.stringify(JSON.parse(textOf(started))) === JSON.stringify(started.structuredContent),
    `${f.label}: crawl_site started a crawl: ${textOf(started).slice(0, 160)}`,
  );
  const crawlId = started.structuredContent.crawl_id;
  let crawled;
  for (let i = 0; i < 600; i++) {
    const s = await client.callTool({ name: "crawl_status", arguments: { crawl_id: crawlId } });
    check(!s.isError && s.structuredContent.crawl_id === crawlId, `${f.label}: crawl_status (${s.structuredContent.state})`);
    crawled = s.structuredContent;
    if (["completed", "cancelled", "failed"].includes(crawled.state)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  check(
    crawled.state === "completed" && crawled.progress.pages_done >= 2 && crawled.progress.pages_queued === 0 &&
      crawled.site_score >= 0 && crawled.site_score <= 100,
    `${f.label}: the crawl ended with pages crawled: ${JSON.stringify(crawled).slice(0, 200)}`,
  );
  const res = await client.readResource({ uri: "svc://methodology" });
  check(res.contents.length === 1 && res.contents[0].text.length > 100, `${f.label}: resources/read`);
  const prompt = await client.getPrompt({ name: "explain_seo_issue", arguments: { issue: "canonical-missing" } });
  check(prompt.messages.length >= 1, `${f.label}: prompts/get`);
  await client.close();

  const [anon, anonTransport] = f.make({});
  await anon.connect(anonTransport);
  const refused = await anon.callTool({ name: "seo_audit", arguments: { url: FIXTURE } });
  check(refused.isError === true && textOf(refused).includes("key"), `${f.label}: seo_audit without a key is refused`);
  await anon.close();
}
console.log(`typescript: ${passed} checks passed`);
