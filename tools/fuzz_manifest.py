"""Fuzz the manifest reader: seeded random mutations of a real manifest, bounded in count and time.

Every case is written into a copy of a bundle and run through what `v8atlas verify` and
`v8atlas inspect` do (open, verify, summary). A case passes when it either works or raises a
BundleError; any other exception, a hang past --case-timeout, or a read of a file outside the
bundle folder is a failure. Prints cases, failures, the slowest case and the outcome counts.

    .venv/bin/python tools/fuzz_manifest.py BUNDLE --cases 2000 --seed 1 --max-seconds 120
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from v8atlas.formats import Bundle, BundleError
from click.testing import CliRunner

from v8atlas.formats.cli import inspect_cmd, verify_cmd
from v8atlas.formats.manifest import content_hash
from v8atlas.formats.publish import resolve_bundle_path

_VALUES: list[Any] = [None, True, False, 0, -1, 1, 2**63, 2**200, 1.5, float("inf"), "", "x", "../x",
                      "/etc/passwd", "..", ".", "a/b", "\u0000", "ё" * 300, [], [1, [2]], {}, {"a": 1},
                      "<u4", "|O", "<U8", ">f8", "|S0", "9.0", "1.0", "0" * 64]


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:8]):
            out += _paths(v, prefix + (i,))
    return out


def _get(obj: Any, path: tuple) -> Any:
    for p in path:
        obj = obj[p]
    return obj


def mutate(m: dict[str, Any], rng: random.Random) -> dict[str, Any] | str:
    m = copy.deepcopy(m)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(m) if p]
        path = rng.choice(paths)
        parent = _get(m, path[:-1])
        op = rng.random()
        if op < 0.45:
            parent[path[-1]] = rng.choice(_VALUES)
        elif op < 0.6 and isinstance(parent, dict):
            del parent[path[-1]]
        elif op < 0.75:
            v = parent[path[-1]]
            parent[path[-1]] = (v + rng.choice([-1, 1, 1 << 20]) if isinstance(v, int) and not isinstance(v, bool)
                                else [v] if rng.random() < 0.5 else {"x": v})
        elif op < 0.85:
            depth = rng.choice([40, 1000, 100_000])
            parent[path[-1]] = json.loads("[" * min(depth, 900) + "]" * min(depth, 900)) if depth < 1000 \
                else "__DEEP__"
        else:
            seg = rng.choice(list(m["segments"].values())) if isinstance(m.get("segments"), dict) \
                and m["segments"] else None
            if isinstance(seg, dict):
                seg["file"] = rng.choice(["/etc/passwd", "../../../../etc/passwd", "sub/../x", "manifest.json"])
    if rng.random() < 0.5:     # an attacker who knows the format recomputes the hash
        try:
            m["content_hash"] = content_hash(m["format_version"], m["compiler_version"], m["segments"],
                                             m.get("records") or {}, m.get("info") or {})
        except Exception:
            pass
    text = json.dumps(m, ensure_ascii=False)
    return text.replace('"__DEEP__"', "[" * 100_000 + "]" * 100_000)


_RUNNER = CliRunner()


class _Timeout(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise _Timeout()


def run_case(bundle: Path) -> str:
    """`v8atlas verify` and `v8atlas inspect` as a user runs them, then one record read."""
    for command in (verify_cmd, inspect_cmd):
        r = _RUNNER.invoke(command, [str(bundle)])
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            raise r.exception
        if "Traceback" in r.output:
            raise RuntimeError(f"{command.name} printed a traceback")
    b = Bundle.open(bundle)
    problems = b.verify()
    for name in list(b.manifest.get("records") or {})[:2]:
        store = b.records(name)
        if len(store):
            store[0]
    b.close()
    return "verified" if not problems else "verify-problems"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle", help="a bundle folder or bundles directory (its newest bundle)")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=120.0)
    ap.add_argument("--case-timeout", type=int, default=10)
    args = ap.parse_args()
    src = resolve_bundle_path(args.bundle)
    base = json.loads((src / "manifest.json").read_text(encoding="utf-8"))
    rng = random.Random(args.seed)
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    slowest = (0.0, -1)
    signal.signal(signal.SIGALRM, _alarm)
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="v8atlas-fuzz-") as tmp:
        work = Path(tmp) / src.name
        shutil.copytree(src, work)
        n = 0
        for n in range(1, args.cases + 1):
            if time.perf_counter() - t_start > args.max_seconds:
                n -= 1
                break
            (work / "manifest.json").write_text(mutate(base, rng), encoding="utf-8")
            t0 = time.perf_counter()
            signal.alarm(args.case_timeout)
            try:
                outcomes[run_case(work)] += 1
            except BundleError as e:
                outcomes[f"refused: {type(e).__name__}"] += 1
            except _Timeout:
                failures.append(f"case {n}: no answer within {args.case_timeout} s")
            except Exception as e:       # the finding: anything but a BundleError
                failures.append(f"case {n}: {type(e).__name__}: {str(e)[:120]}")
            finally:
                signal.alarm(0)
            dt = time.perf_counter() - t0
            slowest = max(slowest, (dt, n))
    total = time.perf_counter() - t_start
    print(f"bundle {src.name}, seed {args.seed}: {n} cases in {total:.1f} s, {len(failures)} failures, "
          f"slowest case {slowest[1]} {slowest[0] * 1000:.0f} ms")
    for k, v in sorted(outcomes.items()):
        print(f"  {k}: {v}")
    for f in failures[:20]:
        print(f"  FAIL {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
