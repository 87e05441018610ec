"""The cost of the SIGBUS guard: random record reads with and without the fstat before each.

    .venv/bin/python tools/bench_guard.py BUNDLES [--store docs.cards] [--reads 20000]
"""
from __future__ import annotations

import argparse
import os
import random
import time

from v8atlas.formats import Bundle


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundles")
    ap.add_argument("--store", default="docs.cards")
    ap.add_argument("--reads", type=int, default=20_000)
    args = ap.parse_args()
    store = Bundle.open(args.bundles).records(args.store)
    rng = random.Random(1)
    idx = [rng.randrange(len(store)) for _ in range(args.reads)]

    def per_read() -> float:
        t0 = time.perf_counter()
        for i in idx:
            store.raw(i)
        return (time.perf_counter() - t0) / len(idx) * 1e6

    guard = store._guard
    guarded = min(per_read() for _ in range(5))
    store._guard = None
    bare = min(per_read() for _ in range(5))
    store._guard = guard
    print(f"load average {os.getloadavg()[0]:.1f}; {len(store)} records of {args.store}: raw() "
          f"{guarded:.2f} µs with the guard, {bare:.2f} µs without (best of 5 × {args.reads})")


if __name__ == "__main__":
    main()
