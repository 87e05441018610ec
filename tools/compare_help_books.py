#!/usr/bin/env python3
"""List elements present only in the newer of two help books, and which of them lack a version.

    python3 tools/compare_help_books.py OLD.hbk NEW.hbk [--all]

Query books (shquery) carry no version marks, so every function new in NEW must have its
platform version in compiler/help/data/query_language.json ("since"); the tool prints those
that do not (exit code 1 when any is missing). For syntax-helper books (shcntx) an element new
in NEW is covered when its page has a since-mark. ``--all`` also prints the covered ones.
"""
from __future__ import annotations

import argparse
import sys

from v8atlas.compiler.help.context_book import read_context_book
from v8atlas.compiler.help.hbk import HelpBookError, open_book
from v8atlas.compiler.help.plugin import QUERY_BOOK
from v8atlas.compiler.help.query_book import read_query_book
from v8atlas.compiler.help.replacements import load_query_language


def _elements(path: str) -> tuple[str, dict[tuple[str, str], dict]]:
    book = open_book(path)
    quiet = lambda page, msg: None   # noqa: E731 — warnings belong to compile, not to this listing
    if book.name == QUERY_BOOK:
        recs, _ = read_query_book(book, quiet)
        return "query", {(r.kind, r.name if r.kind != "article" else r.title):
                         {"name": r.name, "kind": r.kind, "page": r.page} for r in recs}
    els, _ = read_context_book(book, quiet)
    return "platform", {(e.kind, e.name): {"name": e.name, "kind": e.kind, "page": e.page,
                                            "since": e.rec.since if e.rec else None} for e in els}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--all", action="store_true", help="also list new elements that have a version")
    args = ap.parse_args(argv)
    try:
        kind_old, old = _elements(args.old)
        kind_new, new = _elements(args.new)
    except HelpBookError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if kind_old != kind_new:
        print(f"error: {args.old} is a {kind_old} book but {args.new} is a {kind_new} book", file=sys.stderr)
        return 2
    table = load_query_language().get("since", {}) if kind_new == "query" else {}
    missing = 0
    added = [v for k, v in sorted(new.items()) if k not in old]
    for el in added:
        if kind_new == "query":
            version = table.get(el["name"].upper(), {}).get("version") if el["kind"].endswith("function") else "n/a"
        else:
            version = el.get("since")
        if not version:
            missing += 1
        if not version or args.all:
            print(f"{el['kind']}\t{el['name']}\t{el['page']}\t{version or 'MISSING VERSION'}")
    print(f"# {len(added)} element(s) only in {args.new}; {missing} without a version"
          f"{' in compiler/help/data/query_language.json' if kind_new == 'query' else ' mark'}",
          file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
