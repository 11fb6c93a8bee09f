#!/usr/bin/env python3
"""Finds loops of imports among the files of one crate.

Usage: import_loops.py CRATE_SRC_DIR [...]

A file imports another when it names a path into it: `use crate::a::b`, `crate::a::b::f()`,
`super::x`, `self::x`, including the members of `use crate::{a, b::c}` groups. A path is
resolved to the deepest module that is a file, and a name that a module only re-exports
(`pub use path::Name`) to the module that defines it, so a crate root that hands names on is
not counted as depending on everything. Test modules (from a `#[cfg(test)]` line to the end of
the file) are left out: tests may reach anywhere.

Prints every loop (strongly connected set of two or more files) with one edge of each pair,
and exits 1 when there is one; exits 0 and prints "no loop" otherwise.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """Source without comments, string literals and test modules."""
    cut = re.search(r"^\s*#\[cfg\(test\)\]", text, re.M)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return text


def modules(src):
    """Map module path tuple -> file, for every .rs file under src."""
    mods = {}
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] in ("lib", "main", "mod"):
                rel = rel[:-1]
            # src/bin/*.rs and build scripts are crates of their own.
            if rel and rel[0] == "bin":
                continue
            mods[tuple(rel)] = path
    return mods


def expand_use(body):
    """Paths of a use tree body such as `crate::{a, b::{c, d}}` -> ['crate::a', 'crate::b::c', ...]."""
    body = re.sub(r"\s*([{},]|::)\s*", r"\1", re.sub(r"\s+", " ", body)).strip()
    out = []

    def walk(prefix, s):
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:i])
                start = i + 1
        parts.append(s[start:])
        for part in parts:
            if not part:
                continue
            brace = part.find("{")
            if brace >= 0 and part.endswith("}"):
                head = part[:brace].rstrip(":")
                walk(prefix + ([head] if head else []), part[brace + 1 : -1])
            else:
                out.append("::".join(prefix + [part]))

    walk([], body)
    return out


def paths_in(text):
    """Every crate-relative path a file names, as strings starting with crate/super/self.

    A name brought in by `use` (`use crate::routes;`, `use super::calls as c;`) is followed
    where the file uses it as the head of a longer path (`routes::audit::get`)."""
    found, aliases = [], {}
    for m in re.finditer(r"\buse\s+((?:crate|super|self)\s*::[^;]*);", text):
        for p in expand_use(m.group(1)):
            path, _, alias = p.partition(" as ")
            parts = path.split("::")
            found.append(path)
            name = alias or parts[-1]
            if name not in ("*", "self", "crate", "super"):
                aliases[name] = parts if parts[-1] != "self" else parts[:-1]
    for m in re.finditer(r"\b((?:crate|super)(?:\s*::\s*" + IDENT + r")+)", text):
        found.append(re.sub(r"\s+", "", m.group(1)))
    for m in re.finditer(r"(?<![:\w])(" + IDENT + r")((?:\s*::\s*" + IDENT + r")+)", text):
        head = m.group(1)
        if head in aliases:
            found.append("::".join(aliases[head]) + re.sub(r"\s+", "", m.group(2)))
    return found


def reexports(mods, texts):
    """(module, name) -> absolute path tuple the name is re-exported from."""
    table = {}
    for mod, path in mods.items():
        text = texts[path]
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]*);", text):
            for p in expand_use(m.group(1)):
                parts = [x for x in p.partition(" as ")[0].split("::") if x]
                if not parts or parts[-1] in ("*", "self"):
                    continue
                absolute = absolutise(mod, parts, mods)
                if absolute is not None:
                    table[(mod, parts[-1])] = absolute
    return table


def absolutise(mod, parts, mods):
    """A path written in module `mod` as an absolute path tuple (None: another crate)."""
    if parts[0] == "crate":
        return tuple(parts[1:])
    if parts[0] in ("super", "self"):
        base = list(mod)
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super":
                base = base[:-1]
            parts = parts[1:]
        return tuple(base + parts)
    # A bare path in a `pub use`: a child module of `mod`, or another crate.
    if tuple(mod) + (parts[0],) in mods:
        return tuple(mod) + tuple(parts)
    return None


def resolve(absolute, mods, table, seen=None):
    """The file an absolute path points into."""
    seen = seen or set()
    for cut in range(len(absolute), -1, -1):
        prefix = absolute[:cut]
        if prefix in mods:
            rest = absolute[cut:]
            if rest and (prefix, rest[0]) in table and (prefix, rest[0]) not in seen:
                seen.add((prefix, rest[0]))
                return resolve(table[(prefix, rest[0])] + rest[1:], mods, table, seen)
            return mods[prefix]
    return None


def sccs(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def check(src):
    mods = modules(src)
    texts = {}
    for path in mods.values():
        with open(path, encoding="utf-8") as f:
            texts[path] = strip(f.read())
    table = reexports(mods, texts)
    graph = {path: set() for path in mods.values()}
    for mod, path in mods.items():
        for p in paths_in(texts[path]):
            parts = [x for x in p.split("::") if x]
            if parts and parts[-1] in ("*", "self"):
                parts = parts[:-1]
            absolute = absolutise(mod, parts, mods)
            if absolute is None:
                continue
            target = resolve(absolute, mods, table)
            if target and target != path:
                graph[path].add(target)
    loops = [sorted(c) for c in sccs(graph) if len(c) > 1]
    for comp in loops:
        print(f"loop of {len(comp)} files in {src}:")
        members = set(comp)
        for f in comp:
            for t in sorted(graph[f] & members):
                print(f"  {f} -> {t}")
    return loops


def main():
    bad = False
    for src in sys.argv[1:]:
        if check(src):
            bad = True
        else:
            print(f"no loop of imports among the files of {src}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
