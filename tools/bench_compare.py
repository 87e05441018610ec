#!/usr/bin/env python3
"""Time compare_configurations on a bundle holding two configurations (docs/perf/compare.md).

    python tools/bench_compare.py BUNDLE A B [OBJECT]

Prints the head line, the time of the first (uncached) whole diff, of the next page and of
one object's diff. Build the SSL bundle with a v8atlas.toml naming the 3.1.10 and 3.1.12
dumps SSL_3_1_10 and SSL_3_1_12 (tests/test_compare.py writes the same file).
"""
from __future__ import annotations

import sys
import time

from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    snap = Snapshot(Bundle.open(argv[0]))
    args = {"a": argv[1], "b": argv[2]}
    t = time.perf_counter()
    first = tools.call(snap, "compare_configurations", args)
    whole = time.perf_counter() - t
    print(first.text.splitlines()[0])
    print(f"whole diff, first page (uncached): {whole * 1000:.0f} ms; "
          f"{first.data['page']['total']} blocks")
    if first.data.get("cursor"):
        t = time.perf_counter()
        tools.call(snap, "compare_configurations", {**args, "cursor": first.data["cursor"]})
        print(f"next page (cached diff): {(time.perf_counter() - t) * 1000:.1f} ms")
    if len(argv) > 3:
        t = time.perf_counter()
        tools.call(snap, "compare_configurations", {**args, "name": argv[3]})
        print(f"one object ({argv[3]}): {(time.perf_counter() - t) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
