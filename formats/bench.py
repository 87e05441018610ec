"""`v8atlas bench bundle`: write a synthetic ~200 MB bundle, then measure open and fetch costs.

Open time and memory are measured in a fresh child process (what a server replica pays at
start), next to the bare interpreter and the import floor measured in the same run.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click
import numpy as np

_CHILD = r"""
import json, os, sys, time
t_start = time.perf_counter()
def mem():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "RssAnon", "RssFile"):
                out[k] = int(v.split()[0]) / 1024
    return out
bare = mem()
from v8atlas.formats import Bundle
import numpy as np
t_imported = time.perf_counter()
after_import = mem()
b = Bundle.open(sys.argv[1])
cards = b.records("cards")
post = b.array("post.doc")
t_open = time.perf_counter()
opened_at = time.time()
after_open = mem()
rng = np.random.default_rng(7)
ids = rng.integers(0, len(cards), 10_000)
lat = []
for i in ids:
    t0 = time.perf_counter_ns()
    cards[int(i)]
    lat.append(time.perf_counter_ns() - t0)
lat.sort()
after_fetch = mem()
print(json.dumps({
    "opened_at": opened_at, "import_ms": (t_imported - t_start) * 1e3, "open_ms": (t_open - t_imported) * 1e3,
    "fetch_p50_us": lat[len(lat) // 2] / 1e3, "fetch_p99_us": lat[int(len(lat) * 0.99)] / 1e3,
    "mem_bare": bare, "mem_after_import": after_import, "mem_after_open": after_open,
    "mem_after_fetch": after_fetch}))
"""


def _words(rng: random.Random, n: int) -> str:
    syll = ["за", "каз", "по", "ку", "па", "тель", "но", "менк", "ла", "ту", "ра", "ре", "гистр",
            "све", "де", "ний", "ост", "ат", "ки", "об", "ор", "от", "ы"]
    return " ".join("".join(rng.choice(syll) for _ in range(rng.randint(2, 5))) for _ in range(n))


def write_synthetic(out: Path, records: int, postings: int, seed: int = 1) -> Path:
    from .writer import BundleWriter

    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    with BundleWriter(out, "bench", compiler_version="bench") as w:
        terms = 300_000
        counts = np.sort(nrng.zipf(1.3, terms).clip(1, records))[::-1].astype(np.int64)
        counts = (counts * (postings / counts.sum())).clip(1).astype(np.int64)
        off = np.zeros(terms + 1, dtype="<u8")
        off[1:] = np.cumsum(counts)
        total = int(off[-1])
        w.add_array("post.off", off)
        w.add_array("post.doc", nrng.integers(0, records, total, dtype=np.uint32).astype("<u4"))
        w.add_array("post.impact", nrng.random(total, dtype=np.float32).astype("<f4"))
        w.add_records("cards", ({
            "key": f"БСП/Справочник.Объект{i}", "kind": "Catalog", "synonym": _words(rng, 4),
            "comment": _words(rng, rng.randint(5, 40)),
            "attributes": [{"name": f"Реквизит{j}", "type": rng.choice(["Строка(50)", "Число(15,2)",
                            "СправочникСсылка.Номенклатура", "Дата"]), "synonym": _words(rng, 2)}
                           for j in range(rng.randint(2, 30))],
        } for i in range(records)))
        # Pad to the target size with a per-doc vector table (like stored norms/embeddings).
        w.add_array("doc.vectors", nrng.random((records, 384), dtype=np.float32).astype("<f4"))
    return w.published


@click.command("bundle")
@click.option("--records", default=100_000, show_default=True)
@click.option("--postings", default=2_000_000, show_default=True)
@click.option("--dir", "work_dir", default=None, help="Where to write (default: a temp folder, removed).")
@click.option("--json", "as_json", is_flag=True)
def bench_bundle_cmd(records: int, postings: int, work_dir: str | None, as_json: bool) -> None:
    """Synthetic bundle: write time, child-process open time, record fetch p50/p99, RSS."""
    tmp = Path(work_dir) if work_dir else Path(tempfile.mkdtemp(prefix="v8atlas-bench-"))
    try:
        t0 = time.perf_counter()
        path = write_synthetic(tmp, records, postings)
        write_s = time.perf_counter() - t0
        size = sum(f.stat().st_size for f in path.iterdir())
        env = dict(os.environ)
        runs = []
        for _ in range(5):
            spawned_at = time.time()
            outp = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True,
                                  text=True, check=True, env=env).stdout
            child = json.loads(outp)
            runs.append(((child["opened_at"] - spawned_at) * 1e3, child))
        bare = []
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            bare.append((time.perf_counter() - t) * 1e3)
        runs.sort(key=lambda r: r[1]["open_ms"])
        wall, r = runs[len(runs) // 2]
        result = {
            "records": records, "postings": postings, "bundle_mb": round(size / 2**20, 1),
            "write_s": round(write_s, 2),
            "open_ms_median": round(r["open_ms"], 2),
            "import_ms": round(r["import_ms"], 1),
            "spawn_to_open_ms": round(wall, 1), "bare_python_wall_ms": round(sorted(bare)[2], 1),
            "fetch_p50_us": round(r["fetch_p50_us"], 1), "fetch_p99_us": round(r["fetch_p99_us"], 1),
            "rss_mb": {k: round(v["VmRSS"], 1) for k, v in (("bare", r["mem_bare"]),
                       ("after_import", r["mem_after_import"]), ("after_open", r["mem_after_open"]),
                       ("after_10k_fetches", r["mem_after_fetch"]))},
            "rss_anon_mb": {k: round(v["RssAnon"], 1) for k, v in (("bare", r["mem_bare"]),
                            ("after_open", r["mem_after_open"]),
                            ("after_10k_fetches", r["mem_after_fetch"]))},
        }
        result["rss_above_bare_after_open_mb"] = round(result["rss_mb"]["after_open"] - result["rss_mb"]["bare"], 1)
        if as_json:
            click.echo(json.dumps(result, indent=1))
            return
        click.echo(f"bundle: {records} records, {postings} postings, {result['bundle_mb']} MB, written in {result['write_s']} s")
        click.echo(f"process spawn → bundle opened: {result['spawn_to_open_ms']} ms (bare `python -c pass`: "
                   f"{result['bare_python_wall_ms']} ms; imports of numpy/msgpack/zstandard/formats: "
                   f"{result['import_ms']} ms; Bundle.open itself: {result['open_ms_median']} ms)")
        click.echo(f"record fetch+decode: p50 {result['fetch_p50_us']} µs, p99 {result['fetch_p99_us']} µs")
        click.echo("RSS MB: " + ", ".join(f"{k} {v}" for k, v in result["rss_mb"].items())
                   + f"; above bare after open: {result['rss_above_bare_after_open_mb']}")
        click.echo("RssAnon MB: " + ", ".join(f"{k} {v}" for k, v in result["rss_anon_mb"].items()))
    finally:
        if not work_dir:
            shutil.rmtree(tmp, ignore_errors=True)
