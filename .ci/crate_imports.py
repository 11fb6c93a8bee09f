#!/usr/bin/env python3
"""Checks each crate's workspace imports against docs/ARCHITECTURE.md.

Usage: crate_imports.py [ARCHITECTURE_MD]

The table under "What each crate may import" names, for every crate of the workspace, the
workspace crates it may depend on: its first column is the crate (`crates/NAME` as `NAME`,
the binary as `bins/seo-audit`), its second the crates it may import in backticks, or
"nothing". `cargo metadata` gives each package's path dependencies; a normal or build
dependency on a workspace crate that its row does not name is an error, and so is a crate
with no row (a new crate states its place before it lands). Dev-dependencies are left out:
tests may reach anywhere.

Prints every offence and exits 1, or prints one line per crate and exits 0.
"""

import json
import os
import re
import subprocess
import sys

HEADING = "### What each crate may import"


def table(doc):
    """Map crate -> set of crates it may import, read from the doc's table."""
    text = open(doc, encoding="utf-8").read()
    start = text.find(HEADING)
    if start < 0:
        sys.exit(f"error: {doc} has no section {HEADING!r}")
    allowed = {}
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if not line.startswith("|") or line.startswith("|---") or line.startswith("| crate"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2:
            continue
        names = re.findall(r"`([^`]+)`", cells[0])
        may = set(re.findall(r"`([^`]+)`", cells[1]))
        if not may and cells[1] != "nothing":
            sys.exit(f"error: {doc}: the row of {cells[0]} names no crate in backticks and is not \"nothing\"")
        for name in names:
            if name in allowed:
                sys.exit(f"error: {doc}: `{name}` has two rows")
            allowed[name] = may
    if not allowed:
        sys.exit(f"error: {doc}: no table under {HEADING!r}")
    return allowed


def crate_name(root, manifest_dir):
    """`crates/NAME` -> NAME; anything else (the binary) -> its path from the root."""
    rel = os.path.relpath(manifest_dir, root)
    parts = rel.split(os.sep)
    return parts[1] if parts[0] == "crates" and len(parts) == 2 else "/".join(parts)


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    doc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs", "ARCHITECTURE.md")
    allowed = table(doc)
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1"],
            cwd=root, check=True, capture_output=True, text=True,
        ).stdout
    )
    members = {}
    for package in meta["packages"]:
        members[os.path.dirname(package["manifest_path"])] = package
    errors = []
    for manifest_dir, package in sorted(members.items()):
        name = crate_name(root, manifest_dir)
        imports = sorted(
            {
                crate_name(root, dep["path"])
                for dep in package["dependencies"]
                if dep.get("path") and dep["kind"] != "dev" and dep["path"] in members
            }
        )
        if name not in allowed:
            errors.append(f"`{name}` has no row in {HEADING!r} of {os.path.relpath(doc, root)}")
            continue
        for dep in imports:
            if dep not in allowed[name]:
                errors.append(f"`{name}` imports `{dep}`, which its row does not allow")
        print(f"{name}: {', '.join(imports) or 'nothing'}")
    for name in sorted(set(allowed) - {crate_name(root, d) for d in members}):
        errors.append(f"the table names `{name}`, which is no crate of the workspace")
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
