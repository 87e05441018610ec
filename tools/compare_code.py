#!/usr/bin/env python3
"""Whether two bundles of the same source answer every procedure's body and card and every
module's card alike (through the server's code index), whatever store each keeps them in.
Prints counts; exits 1 on a difference.

    python tools/compare_code.py OLD_BUNDLE NEW_BUNDLE
"""
from __future__ import annotations

import argparse
import sys

from v8atlas.formats import code as FC
from v8atlas.formats.reader import Bundle
from v8atlas.server.code_index import CodeIndex

MAX_PROBLEMS = 20


def compare(old: Bundle, new: Bundle) -> list[str]:
    """Differences: the procedure or module count, any title (the same numbering), body, card
    or module card that differs."""
    a, b = CodeIndex(old), CodeIndex(new)
    problems = _counts(a, b)
    if problems:
        return problems
    titles_a, titles_b = _titles(old), _titles(new)
    for i in range(len(a.bodies)):
        if titles_a[i] != titles_b[i]:
            problems.append(f"procedure {i}: {titles_a[i]} against {titles_b[i]}")
        elif a.body(i) != b.body(i):
            problems.append(f"procedure {i} ({titles_a[i]}): its body differs")
        elif a.card(i) != b.card(i):
            problems.append(f"procedure {i} ({titles_a[i]}): its card differs")
        if len(problems) >= MAX_PROBLEMS:
            return problems
    for m in range(len(a.module_cards)):
        if a.module_cards[m] != b.module_cards[m]:
            problems.append(f"module {m} ({a.module_cards[m].get('address')}): its card differs")
            if len(problems) >= MAX_PROBLEMS:
                break
    return problems


def _counts(a: CodeIndex, b: CodeIndex) -> list[str]:
    return [f"{len(x)} {what} against {len(y)}"
            for what, x, y in (("procedures", a.bodies, b.bodies), ("cards", a.cards, b.cards),
                               ("module cards", a.module_cards, b.module_cards)) if len(x) != len(y)]


def _titles(bundle: Bundle) -> list[str]:
    from v8atlas.formats.schema import table_segments
    off_name, blob_name = table_segments(FC.PROC_TITLES)
    off, blob = bundle.array(off_name), bytes(bundle.blob(blob_name))
    return [blob[off[i]:off[i + 1]].decode("utf-8") for i in range(len(off) - 1)]


def _kinds(bundle: Bundle) -> str:
    records = bundle.manifest["records"]
    return "/".join(records[s].get("kind", "per-record") for s in (FC.BODIES, FC.PROCS, FC.MODULES))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    args = ap.parse_args()
    old, new = Bundle.open(args.old), Bundle.open(args.new)
    problems = compare(old, new)
    code = CodeIndex(new)
    print(f"{len(code.bodies)} procedures, {len(code.module_cards)} modules; stores (bodies/cards/"
          f"modules) {_kinds(old)} against {_kinds(new)}; "
          f"{'equal' if not problems else f'{len(problems)} differences'}")
    for p in problems:
        print(" ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
