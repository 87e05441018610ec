"""Query-model benchmark: link (standard attributes, query tables, relations, cards) and graph
build time, plus edge counts.

    .venv/bin/python tools/bench_query_model.py OUT_DIR SOURCE... [--repeat 3]
        compile the sources (parse warmed first, so the figures are the linker's and builders')
    .venv/bin/python tools/bench_query_model.py --replicate 8 SOURCE
        one configuration made of K renamed copies of the source's objects (copies keep their
        references, so whole-class and ЛюбаяСсылка types fan out K² times): an ERP-sized stress
        test of link + build_docs + graph build, with peak RSS
"""
from __future__ import annotations

import argparse
import copy
import json
import resource
import statistics
import tempfile
import time
from pathlib import Path

from v8atlas.compiler import build_docs
from v8atlas.compiler.config import graph as graph_builder
from v8atlas.compiler.config.link import link
from v8atlas.compiler.config.plugin import read_configuration
from v8atlas.compiler.pipeline import LinkContext, compile_bundle
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import Project, Source
from v8atlas.formats.writer import BundleWriter


def bench_compile(out: str, sources: list[str], repeat: int) -> dict:
    compile_bundle(sources, out, quiet=True)          # warm the parse cache
    runs = [compile_bundle(sources, out, quiet=True) for _ in range(repeat)]
    keys = ("link config", "build build_docs", "build graph")
    med = {k: round(statistics.median(r.report.timings.get(k, 0.0) for r in runs), 3) for k in keys}
    g = runs[-1].counts.get("graph", {})
    return {"documents": runs[-1].counts.get("documents"), "edges": g.get("edges"), "weak": g.get("weak"),
            "weak_share": round(g.get("weak", 0) / max(g.get("edges", 1), 1), 3),
            "by_kind": g.get("by_kind"), "median_seconds": med}


def bench_replicated(source: str, k: int) -> dict:
    cfg = read_configuration(Path(source), CompileReport())
    cfg.objects = [o if i == 0 else copy.copy(o) for i in range(k) for o in cfg.objects]
    n = len(cfg.objects) // k
    for j, o in enumerate(cfg.objects[n:], n):
        o.name = f"{o.name}_{j // n}"
    ctx = LinkContext(project=Project([]), report=CompileReport())
    t0 = time.perf_counter()
    link([(Source("configuration", "designer", Path(source), "bench", {}), cfg)], ctx)
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        writer = BundleWriter(tmp, "bench", compiler_version="bench")
        build_docs.build(ctx, writer)
        t2 = time.perf_counter()
        graph_builder.build(ctx, writer)
        t3 = time.perf_counter()
        writer.abort()
    return {"copies": k, "documents": len(ctx.docs), "edges": len(ctx.edges),
            "weak": sum(e.weak for e in ctx.edges),
            "seconds": {"link": round(t1 - t0, 2), "build_docs": round(t2 - t1, 2),
                        "graph": round(t3 - t2, 2)},
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+", help="OUT_DIR SOURCE... (or SOURCE with --replicate)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--replicate", type=int, default=0)
    args = ap.parse_args()
    if args.replicate:
        result = bench_replicated(args.paths[0], args.replicate)
    else:
        result = bench_compile(args.paths[0], args.paths[1:], args.repeat)
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
