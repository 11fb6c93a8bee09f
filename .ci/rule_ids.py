#!/usr/bin/env python3
"""Fails when a rule's id is written as a string literal in more than one source file.

Usage: rule_ids.py [ROOT]

A rule is one unit (CONTRIBUTING.md, "Adding a rule"): its id is written once, in the `META`
of its own file (crates/audit-core/src/rules/<category>/<id>.rs for a page rule,
crates/crawl/src/rules/<id>.rs for a site rule). Code, tests and doc examples elsewhere name
a rule through its unit (`rules::images::ImageAltMissing.meta().id`), so that renaming a rule
is an edit of one file and no list of rules hides outside the tables.

Every `.rs` file under crates/*/src and bins/*/src is read, its comments included (a doc
example is code). A literal is `"the-id"`, also inside a raw string (`r#"{"id":"the-id"}"#`).

Glossary slugs count too: a concept that shares its name with a rule (`duplicate-content`,
`redirect-chain`, ...) takes its slug from the rule's `ID` constant in crates/app/src/glossary.rs,
so no literal is exempt.

Prints each id written in more than one file with the files, and exits 1; exits 0 and prints
the number of ids checked otherwise.
"""

import os
import re
import sys

RULE_DIRS = ("crates/audit-core/src/rules", "crates/crawl/src/rules")
META_ID = re.compile(r"\b(?:static|const)\s+META\s*:\s*(?:Site)?RuleMeta\s*=\s*(?:Site)?RuleMeta\s*\{\s*id:\s*\"([^\"]+)\"")


def sources(root):
    for top in ("crates", "bins"):
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for crate in sorted(os.listdir(base)):
            src = os.path.join(base, crate, "src")
            for dirpath, _, files in os.walk(src):
                for name in sorted(files):
                    if name.endswith(".rs"):
                        yield os.path.join(dirpath, name)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    texts = {}
    for path in sources(root):
        with open(path, encoding="utf-8") as f:
            texts[os.path.relpath(path, root)] = f.read()
    ids = {}
    for path, text in texts.items():
        if path.startswith(RULE_DIRS):
            for m in META_ID.finditer(text):
                ids[m.group(1)] = path
    if not ids:
        print("error: no rule META found; has the rule layout moved?", file=sys.stderr)
        sys.exit(2)
    literal = re.compile(r'"(' + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r')"')
    where = {i: set() for i in ids}
    for path, text in texts.items():
        for m in literal.finditer(text):
            where[m.group(1)].add(path)
    bad = {i: sorted(files) for i, files in where.items() if len(files) > 1}
    for i, files in sorted(bad.items()):
        print(f"rule id {i!r} (its file: {ids[i]}) is written in {len(files)} files:")
        for f in files:
            print(f"  {f}")
    if bad:
        print(f"error: {len(bad)} rule ids are written outside their own file; name the rule through its unit")
        sys.exit(1)
    print(f"ok: each of the {len(ids)} rule ids is written in its own file only")


if __name__ == "__main__":
    main()
