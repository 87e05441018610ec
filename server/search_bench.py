"""`v8atlas bench search`: ranking quality and latency of search on query sets.

A set is TSV (``query<TAB>expected|alternative<TAB>config<TAB>domains``, the last two optional,
``#`` comments; domains comma-separated) or JSON (a list of
``{"query", "expected": str | [str], "config"?, "domains"?, "platform_version"?}``). A *code
set* (a ``# domain: code`` line in TSV, ``"domains": "code"`` on every JSON entry) measures
``search_code``: expected ``Модуль.Процедура`` addresses, matched on a dot boundary. Expected
names are exact addresses ("Справочник.Пользователи", "Массив.Найти", "РАЗНОСТЬДАТ"); they are
resolved through the bundle's exact-name table, so any alias of the target counts.

Prints P@1/3/5/10, MRR, the share of queries where another domain came first, the median
score gap between the first two hits, latency p50/p99, and — against the previous run saved in
``<bundles>/.bench/search-<set>.json`` — regressions first, then improvements.
"""
from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from v8atlas.formats.publish import resolve_bundle_path
from v8atlas.formats.reader import Bundle

from .search import Searcher

TOP = 10


@dataclass
class Case:
    query: str
    expected: list[str]
    config: str | None = None
    domains: list[str] | None = None
    platform_version: str | None = None
    line: int = 0


@dataclass
class CaseResult:
    case: Case
    rank: int | None              # 1-based rank of the first expected hit within TOP
    first: str | None             # title of the first hit
    other_domain_first: bool
    gap: float | None
    seconds: list[float] = field(default_factory=list)


def load_set(path: Path) -> list[Case]:
    """Read a TSV or JSON query set; a malformed line is an error naming the file and line."""
    text = path.read_text(encoding="utf-8")
    cases: list[Case] = []
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except ValueError as e:
            raise click.ClickException(f"{path}: not JSON ({e})") from None
        if not isinstance(data, list):
            raise click.ClickException(f"{path}: a JSON set is a list of {{query, expected}} objects")
        for i, item in enumerate(data):
            if not isinstance(item, dict) or not item.get("query") or not item.get("expected"):
                raise click.ClickException(f"{path}: entry {i} needs 'query' and 'expected'")
            exp = item["expected"]
            exp = exp.split("|") if isinstance(exp, str) else list(exp)
            doms = item.get("domains")
            cases.append(Case(item["query"], [e.strip() for e in exp if e.strip()], item.get("config"),
                              [doms] if isinstance(doms, str) else doms, item.get("platform_version"), i))
        return cases
    set_domains = None
    first = True
    for n, raw in enumerate(text.splitlines(), 1):
        if raw.strip().replace(" ", "").lower() == "#domain:code":
            set_domains = ["code"]     # a code set: expected names are procedure addresses
            continue
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        cols = raw.split("\t")
        if first and [c.strip().lower() for c in cols[:2]] == ["query", "expected"]:
            first = False
            continue   # a header line (query<TAB>expected[<TAB>config]) names columns, not a case
        first = False
        if len(cols) < 2 or not cols[0].strip() or not cols[1].strip():
            raise click.ClickException(
                f"{path}:{n}: expected 'query<TAB>expected[|alt][<TAB>config[<TAB>domains]]'")
        config = cols[2].strip() if len(cols) > 2 and cols[2].strip() else None
        # The 4th column restricts the search as a tool does (search_metadata: "metadata").
        domains = [d.strip() for d in cols[3].split(",") if d.strip()] if len(cols) > 3 else []
        cases.append(Case(cols[0].strip(), [e.strip() for e in cols[1].split("|") if e.strip()],
                          config, domains or set_domains, line=n))
    return cases


def run_set(searcher: Searcher, cases: list[Case], rounds: int = 3) -> tuple[list[CaseResult], list[str]]:
    """Rank of the expected documents per case; cases whose targets the bundle lacks are listed."""
    cat = searcher.catalog
    results: list[CaseResult] = []
    missing: list[str] = []
    for c in cases:
        targets: set[int] = set()
        for e in c.expected:
            for d in cat.lookup(e):
                if c.config is None or cat.config_name(d) in (None, c.config):
                    targets.add(d)
        if not targets:
            missing.append(f"{c.query!r}: none of {c.expected} is in the bundle")
            continue
        seconds = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            r = searcher.search(c.query, config=c.config, domains=c.domains,
                                platform_version=c.platform_version, limit=TOP)
            seconds.append(time.perf_counter() - t0)
        rank = next((i for i, h in enumerate(r.hits, 1) if h.doc in targets), None)
        first = r.hits[0] if r.hits else None
        target_domains = {cat.domain_name(d) for d in targets}
        results.append(CaseResult(
            c, rank, first.title if first else None,
            bool(first) and first.domain not in target_domains,
            (r.hits[0].score - r.hits[1].score) if len(r.hits) > 1 else None, seconds))
    return results, missing


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def summarize(results: list[CaseResult]) -> dict[str, Any]:
    n = len(results)
    if not n:
        return {"queries": 0}
    ranks = [r.rank for r in results]
    lat = [s * 1000 for r in results for s in r.seconds[1:] or r.seconds]   # first round warms up
    gaps = [r.gap for r in results if r.gap is not None]
    return {
        "queries": n,
        **{f"p@{k}": round(sum(1 for x in ranks if x is not None and x <= k) / n, 4)
           for k in (1, 3, 5, 10)},
        "mrr": round(sum(1.0 / x for x in ranks if x) / n, 4),
        "other_domain_first": round(sum(r.other_domain_first for r in results) / n, 4),
        "median_gap": round(statistics.median(gaps), 4) if gaps else None,
        "latency_ms_p50": round(_pct(lat, 0.5), 4),
        "latency_ms_p99": round(_pct(lat, 0.99), 4),
        "latency_ms_max": round(max(lat), 4) if lat else None,
    }


def compare(previous: dict[str, Any] | None, results: list[CaseResult]) -> dict[str, list[str]]:
    """Per-query rank changes against the previous run: regressions, then improvements."""
    if not previous:
        return {"regressions": [], "improvements": []}
    before = previous.get("ranks", {})
    reg, imp = [], []
    for r in results:
        if r.case.query not in before:
            continue
        old, new = before[r.case.query], r.rank
        old_v, new_v = old or TOP + 1, new or TOP + 1
        label = f"{r.case.query!r}: {old or '—'} → {new or '—'}"
        if new_v > old_v:
            reg.append(label + (f" (first now {r.first})" if r.first else ""))
        elif new_v < old_v:
            imp.append(label)
    return {"regressions": reg, "improvements": imp}


def run_code_set(code: Any, cases: list[Case], rounds: int = 3) -> tuple[list[CaseResult], list[str]]:
    """A code set (``search_code``): an expected ``Модуль.Процедура`` matches a result address
    equal to it or ending in it on a dot boundary."""
    from .code_index import find
    results: list[CaseResult] = []
    missing: list[str] = []
    for c in cases:
        ci = code.config_index(c.config)
        if not any(code.lookup(e, ci)[0] for e in c.expected):
            missing.append(f"{c.query!r}: none of {c.expected} is in the bundle")
            continue
        seconds = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            hits, _scope = find(code, c.query, ci, limit=TOP)
            seconds.append(time.perf_counter() - t0)
        titles = [code.titles[h.proc] for h in hits]
        rank = next((i for i, t in enumerate(titles, 1)
                     if any(t == e or t.endswith("." + e) for e in c.expected)), None)
        results.append(CaseResult(c, rank, titles[0] if titles else None, False,
                                  (hits[0].score - hits[1].score) if len(hits) > 1 else None, seconds))
    return results, missing


def is_code_set(cases: list[Case]) -> bool:
    return bool(cases) and all(c.domains == ["code"] for c in cases)


def bench(bundle_path: Path, set_paths: list[Path], rounds: int = 3,
          results_dir: Path | None = None, save: bool = True) -> dict[str, Any]:
    bundle = Bundle.open(bundle_path)
    t0 = time.perf_counter()
    searcher = Searcher(bundle)
    open_ms = (time.perf_counter() - t0) * 1000
    out: dict[str, Any] = {"bundle": bundle_path.name, "open_ms": round(open_ms, 3), "sets": {}}
    for sp in set_paths:
        cases = load_set(sp)
        if is_code_set(cases):
            from .code_index import open_code
            code = open_code(bundle)
            if code is None:
                raise click.ClickException(f"{sp}: a code set, but the bundle has no code index")
            results, missing = run_code_set(code, cases, rounds)
        else:
            results, missing = run_set(searcher, cases, rounds)
        summary = summarize(results)
        prev_file = (results_dir or bundle_path.parent / ".bench") / f"search-{sp.stem}.json"
        previous = None
        if prev_file.is_file():
            try:
                previous = json.loads(prev_file.read_text(encoding="utf-8"))
            except ValueError:
                previous = None
        changes = compare(previous, results)
        misses = [f"{r.case.query!r} → expected {'|'.join(r.case.expected)}, "
                  f"rank {r.rank or '>' + str(TOP)}, first {r.first}"
                  for r in results if r.rank != 1]
        entry = {"summary": summary, "previous": (previous or {}).get("summary"), **changes,
                 "missing_targets": missing, "not_first": misses}
        out["sets"][sp.name] = entry
        if save:
            prev_file.parent.mkdir(parents=True, exist_ok=True)
            prev_file.write_text(json.dumps({"summary": summary, "bundle": bundle_path.name,
                                             "ranks": {r.case.query: r.rank for r in results}},
                                            ensure_ascii=False, indent=1), encoding="utf-8")
    return out


def render(report: dict[str, Any]) -> str:
    lines = [f"bundle {report['bundle']} (searcher opened in {report['open_ms']} ms)"]
    for name, e in report["sets"].items():
        s, p = e["summary"], e["previous"] or {}
        lines.append(f"\n== {name}: {s.get('queries', 0)} queries")
        if e["regressions"]:
            lines.append("REGRESSIONS since the previous run:")
            lines += [f"  - {x}" for x in e["regressions"]]
        for k in ("p@1", "p@3", "p@5", "p@10", "mrr", "other_domain_first", "median_gap",
                  "latency_ms_p50", "latency_ms_p99", "latency_ms_max"):
            if k not in s:
                continue
            delta = ""
            if isinstance(p.get(k), (int, float)) and isinstance(s[k], (int, float)):
                d = s[k] - p[k]
                delta = f"  ({d:+.4f} vs previous)" if abs(d) > 1e-9 else ""
            lines.append(f"  {k:20s} {s[k]}{delta}")
        if e["improvements"]:
            lines.append("improvements:")
            lines += [f"  + {x}" for x in e["improvements"]]
        if e["missing_targets"]:
            lines.append(f"not in this bundle ({len(e['missing_targets'])}, not counted):")
            lines += [f"  ? {x}" for x in e["missing_targets"][:20]]
        if e["not_first"]:
            lines.append(f"not first ({len(e['not_first'])}):")
            lines += [f"  · {x}" for x in e["not_first"]]
    return "\n".join(lines)


@click.command("search")
@click.option("--bundles", "bundles", required=True, type=click.Path(exists=True, path_type=Path),
              help="A bundle folder or a bundles directory (its newest bundle is used).")
@click.option("--set", "sets", required=True, multiple=True, type=click.Path(exists=True, path_type=Path),
              help="Query set: TSV (query, expected|alt, config) or JSON. Repeatable.")
@click.option("--rounds", default=3, show_default=True, help="Runs per query (latency).")
@click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Where the previous run is kept (default: <bundles>/.bench).")
@click.option("--no-save", is_flag=True, help="Compare with the previous run but do not replace it.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def bench_search_cmd(bundles: Path, sets: tuple[Path, ...], rounds: int, results_dir: Path | None,
                     no_save: bool, as_json: bool) -> None:
    """Ranking quality (P@k, MRR) and latency of search on query sets."""
    try:
        path = resolve_bundle_path(bundles)
    except Exception as e:
        raise click.ClickException(str(e)) from None
    report = bench(path, list(sets), max(1, rounds), results_dir, save=not no_save)
    click.echo(json.dumps(report, ensure_ascii=False, indent=1) if as_json else render(report))
