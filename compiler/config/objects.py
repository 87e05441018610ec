"""What both readers do the same way around one object file: load it (reporting a missing
file or malformed XML and going on), note an unknown kind, and read many files in two processes.

Each reader module provides ``read_object(files, source, cls, rel, report, known)``; the
forked child that shares a read imports it by module name (``read_received``).
"""
from __future__ import annotations

import importlib
import pickle
import zipfile
import zlib
from typing import Any, Callable

from lxml import etree

from .. import cache, pool
from ..report import CompileReport
from ..safefile import RefusedFile
from .files import SourceFiles, open_spec
from .model import Configuration
from .xmlsafe import XmlError, parse_bytes

# (class, relative path, known kind) per object file
Task = tuple[str, str, bool]


class FileContext:
    """Where a reader is, for the report: the source's name and the file being read."""

    def __init__(self, source: str, report: CompileReport, file: str) -> None:
        self.source = source
        self.report = report
        self.file = file

    def unknown(self, what: str) -> None:
        self.report.note_unknown(self.source, what, self.file)


def load_xml(files: SourceFiles, rel: str, source: str, report: CompileReport,
             missing: str | None = None) -> etree._Element | None:
    """The parsed file, or None after reporting why (``missing``: message when absent;
    None = an optional file, absent silently)."""
    try:
        data = files.read(rel)
    except (OSError, zipfile.BadZipFile, zlib.error) as e:   # unreadable file or damaged member
        report.error(source, f"cannot read the file ({_reason(e)}); what it holds is left out",
                     code="unreadable", file=rel)
        return None
    if data is None:
        if missing:
            report.error(source, missing, code="missing-file", file=rel)
        return None
    try:
        return parse_bytes(data, rel)
    except XmlError as e:
        report.error(source, f"malformed XML ({e.message}); what the file holds is left out", code="xml",
                     file=e.file, line=e.line)
        return None


def _reason(e: BaseException) -> str:
    if isinstance(e, RefusedFile):
        return str(e)
    if isinstance(e, OSError) and e.strerror:
        return e.strerror.lower()
    return str(e) or "damaged"


def bad_object_name(report: CompileReport, source: str, cls: str, name: str, listed_in: str) -> bool:
    """True (after an error naming the list) when a listed name is not an object name but a
    path: a 1C name never holds a slash, a backslash or a leading dot, and it would read
    outside the dump."""
    if not any(c in name for c in "/\\\0") and not name.startswith("."):
        return False
    report.error(source, f"{listed_in} lists {cls} {name!r}, which is not an object name "
                 f"(a path); skipped, nothing read for it", code="bad-name", file=listed_in)
    return True


def note_unknown_kind(report: CompileReport, source: str, cls: str, name: str, listed_in: str) -> None:
    report.warn(source, f"unknown metadata kind {cls} ({cls}.{name}): kept as a generic object",
                code="unknown-kind", file=listed_in, object=f"{cls}.{name}")
    report.note_unknown(source, f"metadata kind {cls}", listed_in)


# Tasks per claim of the shared read: small, so that the two processes end together (SSL
# 3.1.12's 2,639 descriptors: 0.2 ms each on average, a few ms the largest); each claim takes
# the shared lock once and is pickled apart by the child.
_STEP = 4


def _object_claims(spec: tuple, source: str, reader: str, tasks: list[Task]
                   ) -> Callable[[int, int], tuple[bytes, CompileReport]]:
    """The forked child's part of ``read_received`` (``pool.read_shared``): per claim, its
    models pickled as soon as they are read (part of the claimed work, so that only the bytes
    are left to send when the two ends meet) and what it reported; the parent keeps the bytes
    (the parse cache is written from them, ``Received``)."""
    files = open_spec(spec)   # its own handles: a zip's file position is not to be shared
    read_object = importlib.import_module(reader).read_object

    def claim(lo: int, hi: int) -> tuple[bytes, CompileReport]:
        report = CompileReport()
        models = [read_object(files, source, c, r, report, k) for c, r, k in tasks[lo:hi]]
        return pickle.dumps(models, protocol=pickle.HIGHEST_PROTOCOL), report
    return claim


class Received:
    """What ``read_all`` read: the models in task order (None: not read) and, when a forked
    child read the tasks from ``first`` on, its pickles as sent (``batches``: in task order,
    holding the models ``results[first:]``), else None."""

    def __init__(self, results: list[Any], batches: list[bytes] | None = None, first: int = 0) -> None:
        self.results = results
        self.batches = batches
        self.first = first


def read_all(files: SourceFiles, source: str, reader: str, tasks: list[Task],
             report: CompileReport) -> list[Any]:
    """``read_object`` over every task, results in task order."""
    return read_received(files, source, reader, tasks, report).results


def read_received(files: SourceFiles, source: str, reader: str, tasks: list[Task],
                  report: CompileReport) -> Received:
    """``read_object`` over every task, results in task order; when there are many, shared
    by this process and one child forked now (``pool.Claims``): this process reads from the
    front, the child from the back, until they meet. Against the pool's two workers (before),
    this process's share is neither pickled nor sent, and no pool starts: SSL 3.1.12's read
    took 0.7 s of CPU over the workers and the parent, 0.6 s shared, 0.56 s in one process
    (docs/perf/compile.md, round 2, session 9)."""
    read_object = importlib.import_module(reader).read_object
    if pool.jobs() < 2 or len(tasks) < pool.POOL_THRESHOLD:
        return Received([read_object(files, source, c, r, report, k) for c, r, k in tasks])
    results: list[Any] = [None] * len(tasks)

    def front(lo: int, hi: int) -> None:
        results[lo:hi] = [read_object(files, source, c, r, report, k) for c, r, k in tasks[lo:hi]]
    answers = pool.read_shared(len(tasks), _STEP, front, _object_claims, files.spec(), source,
                               reader, tasks)
    start = answers[0][0] if answers else len(tasks)
    blobs = [blob for _lo, _hi, (blob, _report) in answers]
    results[start:] = [m for blob in blobs for m in pickle.loads(blob)]
    for _lo, _hi, (_blob, sub) in answers:   # the report in task order, as one process gives it
        report.merge(sub)
    return Received(results, blobs, start)


def add_objects(cfg: Configuration, tasks: list[Task], read: Received) -> None:
    """Objects into the configuration in listing order; languages apart (EDT has no files for them)."""
    for (cls, _, _), obj in zip(tasks, read.results):
        if obj is None:
            continue
        (cfg.languages if cls == "Language" else cfg.objects).append(obj)
    if read.batches is not None:
        cfg.__dict__["_received"] = read


def _cache_form(cfg: Configuration) -> tuple:
    """A configuration in a cache file: the objects the forked child read (``read_received``)
    as the indexes of their models in its pickles, which are written as they are (pickling the
    objects again cost 0.8 s CPU at SSL × 8, the bytes 0.02 s). Any other object in the lists
    (the parent's share, one added after the read) is pickled as usual. This relies on what the
    linker already guarantees: nothing changes a parsed model (tests/test_link_fork.py)."""
    received: Received | None = cfg.__dict__.get("_received")
    if received is None or received.batches is None:
        return cfg.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    at = {id(o): i for i, o in enumerate(received.results[received.first:]) if o is not None}
    state = cfg.__getstate__()   # a copy without ``_received``
    for name in ("objects", "languages"):
        state[name] = [at.get(id(o), o) for o in state[name]]
    return _restored, (state, received.batches)


def _restored(state: dict[str, Any], batches: list[bytes]) -> Configuration:
    models = [o for blob in batches for o in pickle.loads(blob)]
    for name in ("objects", "languages"):
        state[name] = [models[x] if type(x) is int else x for x in state[name]]
    return cache.instance(Configuration, state)


cache.cache_form(Configuration, _cache_form)
