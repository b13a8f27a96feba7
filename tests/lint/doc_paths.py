#!/usr/bin/env python3
"""doc_paths.py: every file a document names exists.

The docs (docs/*.md, the READMEs) name source files in backticks: `worker/host/host.c`,
`mlw/kernel.lua`, `src/conn.ts`. A file that moved or was merged leaves such a name behind,
and a map that points at rooms that are gone is worse than none. This lint takes every
backticked name that ends like a source file and looks for a tracked file whose path ends
with it (so a name may be given relative to its folder: `mlw/kernel.lua` is
scripts/mlw/kernel.lua). Names with placeholders (`{ID}`, `GAME/`, `*`) and names of files
made at build time (listed below) are skipped.

Usage: doc_paths.py ROOT  (exit 1 and one line per missing name when any is missing)
"""
import os
import re
import subprocess
import sys

EXT = r"(?:c|h|lua|sh|mjs|ts|proto|md|py|json|txt|rdb)"
NAME = re.compile(r"`([A-Za-z0-9_./\-]+\." + EXT + r")`")
# made by the build, never tracked
GENERATED = {"deckhand.pb-c.c", "deckhand.pb-c.h", "internal.pb-c.c", "internal.pb-c.h",
             "src/gen/deckhand.ts", "gen/deckhand.ts", "deckhand-proto.d.ts",
             "src/deckhand-proto.d.ts", "compile_commands.json", "cluster.env", "users.acl"}
# files the docs use as examples of what an author or an operator makes
EXAMPLES = {"manifest.lua", "dump.rdb", "data/dump.rdb", "N.rdb"}
EXAMPLE_DIRS = ("scripts/hoard/", "scripts/dominion/tests/new_cards")
PLACEHOLDER = re.compile(r"(^|/)(GAME|WING|NAME|DIR|X)(/|\.|_)|[A-Z]{4,}")


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                         check=True).stdout
    return ["/" + p for p in out.splitlines()]


def docs(root, files):
    names = [os.path.join(root, "docs", f) for f in sorted(os.listdir(os.path.join(root, "docs")))
             if f.endswith(".md")]
    names += [os.path.join(root, p[1:]) for p in files
              if p.endswith("README.md") and "/node_modules/" not in p]
    return names


def main():
    root = sys.argv[1]
    files = tracked(root)
    missing = 0
    for doc in docs(root, files):
        for lineno, line in enumerate(open(doc, encoding="utf-8"), 1):
            for m in NAME.finditer(line):
                name = m.group(1).lstrip("./")
                if name in GENERATED or name in EXAMPLES or name.startswith(EXAMPLE_DIRS):
                    continue
                if PLACEHOLDER.search(name) or "://" in line[m.start():m.end()]:
                    continue
                if not any(p.endswith("/" + name) for p in files):
                    print(f"{os.path.relpath(doc, root)}:{lineno}: no file {name}")
                    missing += 1
    if missing:
        print(f"{missing} names of files that do not exist")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
