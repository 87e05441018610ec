"""check_query speed: a ~200-line batch checked in process against a compiled bundle.

    .venv/bin/python tools/bench_check_query.py BUNDLE_DIR [--config NAME] [--repeat 300]

Builds the query from the bundle's own catalogs (per statement: a temporary table, a self-join,
`В (&Ссылки)`, `СГРУППИРОВАТЬ ПО` over 8 fields), checks it once to warm the card cache, then
prints the median, p90 and p95 of ``--repeat`` checks (parse + resolution), wall and CPU time.
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from v8atlas.formats import Bundle
from v8atlas.server.query_check import check, schema_for
from v8atlas.server.snapshot import Snapshot


def build_query(schema, lines: int = 200) -> str:
    """Selects over the first reference tables of the configuration, until ``lines`` lines."""
    snap = schema.snap
    tables = []
    for d in range(len(snap.catalog)):
        if snap.catalog.domain_name(d) != "metadata" or snap.catalog.kind_name(d) != "Catalog":
            continue
        t = schema.main_table(d)
        if t and len(t.names) >= 6:
            tables.append(t)
        if len(tables) >= 12:
            break
    parts: list[str] = []
    i = 0
    while sum(p.count("\n") + 1 for p in parts) < lines:
        t = tables[i % len(tables)]
        fields = [n for n in t.names if t.get(n) and not t.get(n).unlimited][:8]
        body = ",\n".join(f"    Т{i}.{f} КАК {f}{i}" for f in fields)
        parts.append(f"ВЫБРАТЬ РАЗРЕШЕННЫЕ\n{body}\nПОМЕСТИТЬ ВТ{i}\nИЗ\n    {t.name} КАК Т{i}\n"
                     f"        ЛЕВОЕ СОЕДИНЕНИЕ {t.name} КАК С{i}\n        ПО С{i}.Ссылка = Т{i}.Ссылка\n"
                     f"ГДЕ\n    Т{i}.Ссылка В (&Ссылки) И НЕ Т{i}.ПометкаУдаления\n"
                     f"СГРУППИРОВАТЬ ПО\n    " + ",\n    ".join(f"Т{i}.{f}" for f in fields))
        i += 1
    return ";\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bundle")
    ap.add_argument("--config")
    ap.add_argument("--repeat", type=int, default=300)
    a = ap.parse_args()
    snap = Snapshot(Bundle.open(Path(a.bundle)))
    cfg = snap.config(a.config) if a.config else snap.configs[0]
    schema = schema_for(snap, cfg)
    text = build_query(schema)
    rep = check(text, schema)
    assert not rep.errors, rep.errors[:3]
    times, cpu = [], []
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        check(text, schema)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    times.sort()
    cpu.sort()
    # The same machine's speed on a plain loop, to compare figures taken under other loads.
    c0 = time.process_time()
    total = 0
    for i in range(1_000_000):
        total += i
    loop_ms = (time.process_time() - c0) * 1000
    cold_schema = schema_for(Snapshot(Bundle.open(Path(a.bundle))), cfg)
    t0 = time.perf_counter()
    check(text, cold_schema)
    cold = (time.perf_counter() - t0) * 1000
    p90, p95 = int(len(times) * 0.9), int(len(times) * 0.95)
    print(f"{text.count(chr(10)) + 1} lines, {rep.statements} statements, {len(text)} chars: "
          f"wall median {statistics.median(times):.2f} ms, p90 {times[p90]:.2f} ms, p95 {times[p95]:.2f} ms "
          f"(warm, {a.repeat} runs); CPU time median {statistics.median(cpu):.2f} ms, p90 {cpu[p90]:.2f} ms; "
          f"first check on a "
          f"fresh snapshot {cold:.2f} ms; reference: a 1,000,000-step Python loop takes {loop_ms:.0f} ms CPU "
          f"here; load average {Path('/proc/loadavg').read_text().split()[0]}")


if __name__ == "__main__":
    main()
