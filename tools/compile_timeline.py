#!/usr/bin/env python3
"""Where a compile's CPU goes: every process it forks, and every stage, on one timeline.

    .venv/bin/python tools/compile_timeline.py run LOG -- compile DUMP --out FRESH --no-cache -q …
    .venv/bin/python tools/compile_timeline.py show LOG [LOG…]

``run`` runs ``v8atlas`` with two hooks: ``multiprocessing``'s process bootstrap is wrapped,
so every forked process (the pool's workers, ``fork_call`` children and their children, the
hashing child) writes its own ``RUSAGE_SELF`` (user, system CPU, peak RSS, minor page faults)
to LOG as it ends; and ``CompileReport.timed`` writes each stage's span with the CPU and page
faults it took in its process. The parent writes its own at its end (``os._exit`` included).
Run it with the python of the tree to measure (its ``v8atlas`` is imported). Lines are
appended; seconds are since ``TL_T0`` (the caller's clock, e.g. ``date +%s.%N`` before the
interpreter starts) or the hook's start.

``show`` prints, per LOG, each process (start, end, CPU, faults) and each stage, then one
table of every LOG's CPU per process kind (the code domain's: card workers, code child, its
record stores) — the sums add up to what ``/usr/bin/time`` gives but for the interpreter's
start. Nothing is asserted; docs/perf/code.md (round 2, session 8) records runs.
"""
from __future__ import annotations

import os
import resource
import sys
import time
from contextlib import contextmanager
from typing import Any, Iterator

# process label (``_label``) → its row in ``show``'s table; the two pool worker pairs (parse,
# then the link's cards) are told apart by start time
KINDS = {"_apart_child": "domain apart",   # a domain's parse, link and build (session 12)
         "build code": "code child", "stores:_card_store": "card store",
         "stores:_body_and_module_stores": "body store",
         "stores:_record_stores": "record stores",     # (the two above in one child: session 11)
         "stores:_stores_and_postings": "record stores",   # (and the postings since, session 11)
         "build search": "search",
         "build cards": "cards", "_typo_table": "typo", "_docs_from_the_back": "documents child",
         "_complete_niced": "hashing",
         "_worked_ahead": "work ahead"}   # postings beside the link (issue 11s; logs of older trees)


def _writer(log: str) -> Any:
    """A function appending one tab-separated line to ``log``."""
    def write(*fields: Any) -> None:
        line = "\t".join(f"{f:.3f}" if isinstance(f, float) else str(f) for f in fields) + "\n"
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())     # one write per line: the processes share the file
        finally:
            os.close(fd)
    return write


def _label(process: Any) -> str:
    """What a forked process runs: the step a ``fork_call`` child was given, else its target."""
    target = getattr(process, "_target", None)
    name = getattr(target, "__name__", str(target))
    args = getattr(process, "_args", ())
    if name == "_closing" and len(args) >= 5:        # pool._fork_piped: (…, fn, args)
        fn, fargs = args[3], args[4]
        name = getattr(fn, "__name__", "?")
        if name == "_forked_build" and fargs:
            name = fargs[0]
        elif name == "_apart" and fargs:
            name = "stores:" + getattr(fargs[0], "__name__", "?")
        elif name == "_from_the_back" and len(fargs) >= 3:   # pool.read_shared: (claims, parent, back, …)
            name = getattr(fargs[2], "__name__", "?")
    return name


def run(log: str, argv: list[str]) -> int:
    import multiprocessing.process as mpp
    t0 = float(os.environ.get("TL_T0") or time.time())
    write = _writer(log)
    bootstrap = mpp.BaseProcess._bootstrap

    def logged_bootstrap(self: Any, *a: Any, **k: Any) -> Any:
        start, label = time.time(), _label(self)
        try:
            return bootstrap(self, *a, **k)
        finally:
            ru = resource.getrusage(resource.RUSAGE_SELF)
            write("proc", os.getpid(), os.getppid(), label, start - t0, time.time() - t0,
                  ru.ru_utime, ru.ru_stime, ru.ru_maxrss, ru.ru_minflt)

    mpp.BaseProcess._bootstrap = logged_bootstrap     # type: ignore[method-assign]
    from v8atlas.compiler import report
    timed = report.CompileReport.timed.__wrapped__    # type: ignore[attr-defined]

    @contextmanager
    def logged_timed(self: Any, label: str) -> Iterator[None]:
        start, r0 = time.time(), resource.getrusage(resource.RUSAGE_SELF)
        try:
            with contextmanager(timed)(self, label):
                yield
        finally:
            r1 = resource.getrusage(resource.RUSAGE_SELF)
            write("stage", os.getpid(), label, start - t0, time.time() - t0, r1.ru_utime - r0.ru_utime,
                  r1.ru_stime - r0.ru_stime, r1.ru_minflt - r0.ru_minflt)

    report.CompileReport.timed = logged_timed         # type: ignore[method-assign]
    parent = os.getpid()

    def parent_end() -> None:
        if os.getpid() == parent:
            ru = resource.getrusage(resource.RUSAGE_SELF)
            write("parent", parent, time.time() - t0, ru.ru_utime, ru.ru_stime, ru.ru_maxrss, ru.ru_minflt)

    exit_now = os._exit

    def logged_exit(status: int) -> None:             # the CLI ends a compile with os._exit
        parent_end()
        exit_now(status)

    os._exit = logged_exit                            # type: ignore[assignment]
    import atexit
    atexit.register(parent_end)
    from v8atlas.cli import main
    sys.argv = ["v8atlas", *argv]
    return main()


def _read(log: str) -> tuple[list[tuple], list[tuple], tuple]:
    procs, stages, parent = [], [], ()
    with open(log, encoding="utf-8") as f:
        for line in f:
            x = line.rstrip("\n").split("\t")
            if x[0] == "proc":
                procs.append((x[3], int(x[1]), int(x[2]), float(x[4]), float(x[5]),
                              float(x[6]) + float(x[7]), int(x[9])))
            elif x[0] == "stage":
                stages.append((int(x[1]), x[2], float(x[3]), float(x[4]), float(x[5]) + float(x[6]), int(x[7])))
            elif x[0] == "parent":
                parent = (int(x[1]), float(x[2]), float(x[3]) + float(x[4]), int(x[6]))
    return procs, stages, parent


_SHARED_READS = ("_read_from_the_back", "_object_claims", "_module_claims")


def _kinds(procs: list[tuple], parent: tuple) -> dict[str, float]:
    out = {"parent": parent[2]}
    workers = sorted((p for p in procs if p[0] == "_process_worker"), key=lambda p: p[3])
    pairs = [workers[i:i + 2] for i in range(0, len(workers), 2)]
    # the reads: two pool workers (the configuration's before issue 18p, the code's before
    # 11v), or one child of each's own (``pool.read_shared``)
    out["parse workers"] = ((sum(p[5] for p in pairs[0]) if pairs else 0.0)
                            + sum(p[5] for p in procs if p[0] in _SHARED_READS))
    # the link's cards: two pool workers (before issue 11m), or one ``fork_share`` child
    out["card workers"] = (sum(p[5] for pair in pairs[1:] for p in pair)
                           + sum(p[5] for p in procs if p[0] == "_claimed"))
    for label, kind in KINDS.items():
        out[kind] = out.get(kind, 0.0) + sum(p[5] for p in procs if p[0] == label)
    counted = ("_process_worker", "_claimed", *_SHARED_READS)
    out["other"] = sum(p[5] for p in procs if p[0] not in KINDS and p[0] not in counted)
    out["all"] = sum(out.values())
    return out


def show(logs: list[str]) -> None:
    table = []
    for log in logs:
        procs, stages, parent = _read(log)
        if not parent:
            print(f"{log}: no parent line (the compile did not end)")
            continue
        print(f"== {log}: the parent ended at {parent[1]:.2f} s, {parent[2]:.2f} s CPU, {parent[3]} page faults")
        for label, pid, ppid, start, end, cpu, faults in sorted(procs, key=lambda p: p[3]):
            indent = "  " if ppid == parent[0] else "    "
            print(f"{indent}{label:34s} {start:7.2f}–{end:6.2f} s  {cpu:6.2f} s CPU  {faults:7d} faults")
        for pid, label, start, end, cpu, faults in sorted(stages, key=lambda s: s[2]):
            who = "parent" if pid == parent[0] else str(pid)
            print(f"  {who:>7s} {label:34s} {start:7.2f}–{end:6.2f} s  {cpu:6.2f} s CPU  {faults:7d} faults")
        table.append((log, _kinds(procs, parent)))
    if table:
        print("\n| CPU s | " + " | ".join(os.path.basename(log) for log, _ in table) + " |")
        print("|---|" + "---|" * len(table))
        for kind in table[0][1]:
            print(f"| {kind} | " + " | ".join(f"{k[kind]:.2f}" for _, k in table) + " |")


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "run":
        rest = sys.argv[3:]
        return run(sys.argv[2], rest[1:] if rest[:1] == ["--"] else rest)
    if len(sys.argv) >= 3 and sys.argv[1] == "show":
        show(sys.argv[2:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
