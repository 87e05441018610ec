"""The compile report: warnings, unknown elements and timings, kept with the bundle."""
from __future__ import annotations

import sys
import time
from collections import Counter
from contextlib import contextmanager
from typing import Any, Iterator

from . import pool
from .documents import Warning_


def cpu_seconds() -> float:
    """CPU time of this process plus what the compile's pool workers spent on its chunks."""
    return time.process_time() + pool.worker_cpu()


class CompileReport:
    def __init__(self) -> None:
        self.warnings: list[Warning_] = []
        self.errors: list[Warning_] = []
        self.unknown: Counter[str] = Counter()       # "source: what" → count
        self.unknown_examples: dict[str, str] = {}   # first place each unknown was seen
        self.timings: dict[str, float] = {}          # label → wall seconds
        self.cpu: dict[str, float] = {}              # label → CPU seconds, this process and its workers
        self.sections: dict[str, Any] = {}           # domain-specific summaries (help coverage…)

    def warn(self, source: str, message: str, *, code: str = "warning", file: str | None = None,
             line: int | None = None, object: str | None = None) -> None:
        self.warnings.append(Warning_(source, message, code, file, line, object))

    def error(self, source: str, message: str, *, code: str = "error", file: str | None = None,
              line: int | None = None, object: str | None = None) -> None:
        """A source (or part of it) could not be compiled; the rest goes on."""
        self.errors.append(Warning_(source, message, code, file, line, object))

    def note_unknown(self, source: str, what: str, where: str = "") -> None:
        key = f"{source}: {what}"
        self.unknown[key] += 1
        if where and key not in self.unknown_examples:
            self.unknown_examples[key] = where

    @contextmanager
    def timed(self, label: str) -> Iterator[None]:
        t0, c0 = time.perf_counter(), cpu_seconds()
        try:
            yield
        finally:
            self.add_time(label, time.perf_counter() - t0, cpu_seconds() - c0)

    def add_time(self, label: str, wall: float, cpu: float) -> None:
        """A span's wall and CPU seconds under ``label`` (added to what it has: ``timed``; a
        span that no ``with`` block encloses: the link apart's, cut by its answer)."""
        self.timings[label] = round(self.timings.get(label, 0.0) + wall, 4)
        self.cpu[label] = round(self.cpu.get(label, 0.0) + cpu, 4)

    def merge(self, other: "CompileReport") -> None:
        self.warnings += other.warnings
        self.errors += other.errors
        self.unknown.update(other.unknown)
        for k, v in other.unknown_examples.items():
            self.unknown_examples.setdefault(k, v)
        for k, v in other.timings.items():
            self.timings[k] = round(self.timings.get(k, 0.0) + v, 4)
        for k, v in other.cpu.items():
            self.cpu[k] = round(self.cpu.get(k, 0.0) + v, 4)
        for k, v in other.sections.items():
            self.sections.setdefault(k, v)

    def as_dict(self) -> dict[str, Any]:
        return {
            "errors": [w.as_dict() for w in self.errors],
            "warnings": [w.as_dict() for w in self.warnings],
            "unknown": [{"what": k, "count": n, "example": self.unknown_examples.get(k, "")}
                        for k, n in sorted(self.unknown.items())],
            "timings": self.timings,
            "cpu": self.cpu,
            "sections": self.sections,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CompileReport":
        """The report stored in a bundle (report.json), back as an object."""
        rep = cls()
        for key, target in (("errors", rep.errors), ("warnings", rep.warnings)):
            for w in data.get(key, []):
                target.append(Warning_(w.get("source", ""), w.get("message", ""), w.get("code", key[:-1]),
                                       w.get("file"), w.get("line"), w.get("object")))
        for u in data.get("unknown", []):
            rep.unknown[u["what"]] = u.get("count", 1)
            if u.get("example"):
                rep.unknown_examples[u["what"]] = u["example"]
        rep.timings = dict(data.get("timings", {}))
        rep.cpu = dict(data.get("cpu", {}))
        rep.sections = dict(data.get("sections", {}))
        return rep

    def summarize(self, stream=sys.stderr, limit: int = 20, per_code: int = 3) -> None:
        """A short human summary on stderr; the full list stays in the bundle's report.json.

        Errors first, then warnings grouped by code (rarest first, so one coverage line is not
        buried under hundreds of page warnings), a few examples of each.
        """
        print(f"report: {len(self.errors)} error(s), {len(self.warnings)} warning(s), "
              f"{sum(self.unknown.values())} unknown element(s)", file=stream)

        def line(w: Warning_) -> str:
            where = ":".join(str(x) for x in (w.file, w.line) if x is not None)
            return f"  {w.code}: {w.source}{' ' + where if where and where != w.source else ''}: {w.message}"

        for w in self.errors[:limit]:
            print(line(w), file=stream)
        if len(self.errors) > limit:
            print(f"  … and {len(self.errors) - limit} more error(s)", file=stream)
        by_code: dict[str, list[Warning_]] = {}
        for w in self.warnings:
            by_code.setdefault(w.code, []).append(w)
        for code, items in sorted(by_code.items(), key=lambda kv: (len(kv[1]), kv[0])):
            for w in items[:per_code]:
                print(line(w), file=stream)
            if len(items) > per_code:
                print(f"  … and {len(items) - per_code} more {code} warning(s)", file=stream)
        for k, n in list(sorted(self.unknown.items()))[:limit]:
            where = self.unknown_examples.get(k)
            print(f"  unknown: {k} ×{n}{f' (first in {where})' if where else ''}", file=stream)
        if self.warnings or self.unknown:
            print("  the full list: v8atlas inspect BUNDLE --report", file=stream)

    def print_timings(self, stream=sys.stderr) -> None:
        """``compile --timings``: one line per stage, wall and CPU seconds, in the order run."""
        print(f"{'stage':34s} {'wall s':>8s} {'cpu s':>8s} {'cpu %':>6s}", file=stream)
        for label, wall in self.timings.items():
            cpu = self.cpu.get(label)
            pct = f"{100 * cpu / wall:5.0f}%" if cpu is not None and wall > 0.0005 else ""
            print(f"{label[:34]:34s} {wall:8.3f} {'' if cpu is None else f'{cpu:8.3f}'} {pct:>6s}",
                  file=stream)
