# seo-audit: thin wrappers over cargo. `just` lists the recipes.

# List the recipes.
help:
    @just --list

# Run the service on 127.0.0.1:8080 with its data in ./data.
serve *ARGS:
    cargo run --release -p seo-audit -- serve {{ARGS}}

# Audit a URL or a local HTML file: just audit https://example.com/ --format text
audit TARGET *ARGS:
    cargo run --release -p seo-audit -- audit {{TARGET}} {{ARGS}}

# The whole test suite (what CI runs after format and lint checks).
test:
    cargo test --workspace

# Everything CI runs.
ci:
    bash .ci/run

# Format and lint.
lint:
    cargo fmt --all
    cargo clippy --workspace --all-targets -- -D warnings

# Regenerate generated docs (docs/RULES.md, docs/AI-VISIBILITY.md).
docs:
    UPDATE_DOCS=1 cargo test -p seo-audit-core --test it rules_doc::
    UPDATE_DOCS=1 cargo test -p ai-visibility --test it methodology_doc::

# Regenerate the OpenAPI document (docs/openapi.json) from the routing table and the wire types.
openapi:
    UPDATE_DOCS=1 cargo test -p server --test it http::openapi_json_is_generated

# Engine benchmark: html5ever parse alone vs the full audit.
bench:
    cargo bench -p seo-audit-core

# Fuzz one target (page_facts, robots, llms, mcp_request, url_guard) for SECS seconds; see fuzz/README.md.
fuzz TARGET SECS="600":
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O {{TARGET}} -- -max_total_time={{SECS}} -rss_limit_mb=2048 -timeout=5 -max_len=1048576
