"""Schemathesis hooks of tests/api-fuzz/run.sh.

The document says a target `url` is any string of up to 2048 bytes, so generated values
are mostly invalid or unreachable URLs; the server (in offline mode) refuses all of them
without touching the network. So that positive tests also exercise real audits, every
`url` / `urls` field and parameter gets the loopback fixture site (FUZZ_FIXTURE_URL) as
its example; the examples and coverage phases use it.
"""

import os

import schemathesis

FIXTURE = os.environ["FUZZ_FIXTURE_URL"]
URL_NAMES = {"url", "target", "page_url"}


def _add_example(schema, value):
    if isinstance(schema, dict) and schema.get("type") == "string":
        schema["examples"] = [value]


def _walk(node):
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for name, prop in props.items():
                if name in URL_NAMES:
                    _add_example(prop, FIXTURE)
                elif name == "urls" and isinstance(prop, dict) and isinstance(prop.get("items"), dict):
                    _add_example(prop["items"], FIXTURE)
                    prop["examples"] = [[FIXTURE, FIXTURE + "about.html"]]
        if node.get("in") in ("query", "path") and node.get("name") in URL_NAMES:
            _add_example(node.get("schema"), FIXTURE)
            node["example"] = FIXTURE
        for value in node.values():
            _walk(value)
    elif isinstance(node, list):
        for value in node:
            _walk(value)


@schemathesis.hook
def before_load_schema(ctx, raw_schema):
    _walk(raw_schema)
