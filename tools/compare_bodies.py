#!/usr/bin/env python3
"""Whether two bundles of the same source answer every procedure's body alike (through the
server's code index), whatever store each keeps them in. Prints counts; exits 1 on a difference.

    python tools/compare_bodies.py OLD_BUNDLE NEW_BUNDLE
"""
from __future__ import annotations

import argparse
import sys

from v8atlas.formats import code as FC
from v8atlas.formats.reader import Bundle
from v8atlas.server.code_index import CodeIndex


def compare(old: Bundle, new: Bundle) -> list[str]:
    """Differences: the procedure count, any title (the same numbering) or body that differs."""
    a, b = CodeIndex(old), CodeIndex(new)
    n = len(a.bodies)
    if len(b.bodies) != n:
        return [f"{n} procedures against {len(b.bodies)}"]
    problems = []
    titles_a, titles_b = _titles(old), _titles(new)
    for i in range(n):
        if titles_a[i] != titles_b[i]:
            problems.append(f"procedure {i}: {titles_a[i]} against {titles_b[i]}")
        elif a.body(i) != b.body(i):
            problems.append(f"procedure {i} ({titles_a[i]}): its body differs")
        if len(problems) >= 20:
            break
    return problems


def _titles(bundle: Bundle) -> list[str]:
    from v8atlas.formats.schema import table_segments
    off_name, blob_name = table_segments(FC.PROC_TITLES)
    off, blob = bundle.array(off_name), bytes(bundle.blob(blob_name))
    return [blob[off[i]:off[i + 1]].decode("utf-8") for i in range(len(off) - 1)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    args = ap.parse_args()
    old, new = Bundle.open(args.old), Bundle.open(args.new)
    problems = compare(old, new)
    kinds = [b.manifest["records"][FC.BODIES].get("kind", "per-record") for b in (old, new)]
    print(f"{len(CodeIndex(new).bodies)} procedures; stores {kinds[0]} / {kinds[1]}; "
          f"{'equal' if not problems else f'{len(problems)} differences'}")
    for p in problems:
        print(" ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
