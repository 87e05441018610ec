#!/usr/bin/env python3
"""The linked-model cache file's writer and reader, alone: CPU, wall, the writer's memory growth.

    python tools/bench_linked_cache.py BUNDLES_DIR

``BUNDLES_DIR`` is a compile's ``--out`` with a linked model cached (``.cache/linked/``; a cold
compile with the cache on leaves one). The newest is read back, then written again two ways,
each in a child forked from this process (as the compile's saver is forked from the parent):
``parts`` — ``pipeline._save_linked``, the way the compile writes it (a pickle per part,
the code index in marshalled column chunks); ``one pickle`` — the whole model as one pickle
of plain objects, as the compile wrote it before round 2, session 6. Printed per way: the
child's CPU (user+sys) and wall for the write, the file's size, and how far its resident
memory grew above what it was forked with (its peak, reset by ``/proc/self/clear_refs`` at
the start); then the read of each file back (``pipeline._load_linked``; ``cache.load`` for the one pickle). The load
average is printed: the machine is shared.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from v8atlas.compiler import cache, pipeline
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import Project


def _status(field: str) -> int:
    """A /proc/self/status memory field, in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    raise KeyError(field)


def _in_child(label: str, write) -> None:
    """``write()`` in a forked child; its CPU, wall and memory growth printed by the child."""
    pid = os.fork()
    if pid == 0:
        try:
            Path("/proc/self/clear_refs").write_text("5")   # the peak starts at the RSS now
            start = _status("VmRSS")
            t, c = time.perf_counter(), os.times()
            path = write()
            cpu = (os.times().user - c.user) + (os.times().system - c.system)
            print(f"  {label:10} write {cpu:6.2f} s CPU {time.perf_counter() - t:6.2f} s wall, "
                  f"{path.stat().st_size / 1e6:7.1f} MB, RSS {start} MiB forked, "
                  f"+{_status('VmHWM') - start} MiB at its peak", flush=True)
        except BaseException:
            traceback.print_exc()    # os._exit would otherwise swallow why the write failed
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status:
        sys.exit(f"  {label}: the writing child failed (status {status})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bundles", type=Path)
    args = ap.parse_args()
    files = sorted((args.bundles / ".cache" / "linked").glob("*.pickle"),
                   key=lambda p: p.stat().st_mtime)
    if not files:
        sys.exit(f"{args.bundles}: no linked model cached (compile it cold with the cache on)")
    print(f"load {os.getloadavg()[0]:.2f}; {files[-1].name[:16]}… {files[-1].stat().st_size / 1e6:.1f} MB")
    ctx = pipeline._load_linked(files[-1], Project(sources=[]), CompileReport())
    if ctx is None:
        sys.exit(f"{files[-1]}: not readable by this compiler")
    parts = (ctx.docs, ctx.edges, ctx.info, ctx.counts, ctx.links, ctx.report, [])
    print(f"  {len(ctx.docs)} documents, {len(ctx.edges)} edges; RSS {_status('VmRSS')} MiB")
    with tempfile.TemporaryDirectory(dir=args.bundles / ".cache") as tmp:
        written = Path(tmp) / "parts.pickle"

        def as_parts() -> Path:
            pipeline._save_linked(*parts, written)
            return written

        def as_one_pickle() -> Path:
            path = Path(tmp) / "one.pickle"
            cache.save(path, (pipeline._rows(ctx.docs, pipeline._DOC_ROW),
                              pipeline._rows(ctx.edges, pipeline._EDGE_ROW), *parts[2:]))
            return path

        _in_child("parts", as_parts)
        _in_child("one pickle", as_one_pickle)
        t, c = time.perf_counter(), time.process_time()
        back = pipeline._load_linked(written, Project(sources=[]), CompileReport())
        assert back is not None
        print(f"  parts      read  {time.process_time() - c:6.2f} s CPU {time.perf_counter() - t:6.2f} s wall")
        del back
        t, c = time.perf_counter(), time.process_time()
        ok, _one = cache.load(Path(tmp) / "one.pickle")
        assert ok
        print(f"  one pickle read  {time.process_time() - c:6.2f} s CPU {time.perf_counter() - t:6.2f} s wall"
              " (the objects only: no Doc/Edge made from the rows)")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
