"""Query-model benchmark: link (standard attributes, query tables, relations, cards) and graph
build time on configuration sources, plus edge counts. Parsing is warmed first (cached), so the
figures are the linker's and builders' own.

    .venv/bin/python tools/bench_query_model.py OUT_DIR SOURCE... [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import statistics

from v8atlas.compiler.pipeline import compile_bundle


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("sources", nargs="+")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    compile_bundle(args.sources, args.out, quiet=True)          # warm the parse cache
    runs = []
    for _ in range(args.repeat):
        r = compile_bundle(args.sources, args.out, quiet=True)
        runs.append(r)
    keys = ("link config", "build build_docs", "build graph")
    med = {k: statistics.median(r.report.timings.get(k, 0.0) for r in runs) for k in keys}
    g = runs[-1].counts.get("graph", {})
    print(json.dumps({
        "documents": runs[-1].counts.get("documents"),
        "edges": g.get("edges"), "weak": g.get("weak"),
        "weak_share": round(g.get("weak", 0) / max(g.get("edges", 1), 1), 3),
        "by_kind": g.get("by_kind"),
        "median_seconds": {k: round(v, 3) for k, v in med.items()},
    }, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
