"""What both readers do the same way around one object file: load it (reporting a missing
file or malformed XML and going on), note an unknown kind, and read many files over a pool.

Each reader module provides ``read_object(files, source, cls, rel, report, known)``; the
pool workers import it by module name, so nothing unpicklable crosses processes.
"""
from __future__ import annotations

import importlib
import pickle
import zipfile
import zlib
from typing import Any

from lxml import etree

from .. import cache, pool
from ..report import CompileReport
from ..safefile import RefusedFile
from .files import SourceFiles, open_spec
from .model import Configuration, MDObject
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


_worker_files: dict[tuple, SourceFiles] = {}


def _worker(args: tuple) -> tuple[bytes, CompileReport]:
    spec, source, reader, tasks = args
    files = _worker_files.get(spec)
    if files is None:
        files = _worker_files[spec] = open_spec(spec)
    read_object = importlib.import_module(reader).read_object
    report = CompileReport()
    # Pickled here, as the pool would pickle them anyway, so that the parent keeps the bytes:
    # the parse cache is written from them (``Received``), not by pickling the models again.
    return pickle.dumps([read_object(files, source, c, r, report, k) for c, r, k in tasks],
                        protocol=pickle.HIGHEST_PROTOCOL), report


class Received:
    """What ``read_all`` read: the models in task order (None: not read) and, when they came
    from the pool's workers, each batch's pickle as sent (in task order), else None."""

    def __init__(self, results: list[Any], batches: list[bytes] | None = None) -> None:
        self.results = results
        self.batches = batches


def read_all(files: SourceFiles, source: str, reader: str, tasks: list[Task],
             report: CompileReport) -> list[Any]:
    """``read_object`` over every task, results in task order."""
    return read_received(files, source, reader, tasks, report).results


def read_received(files: SourceFiles, source: str, reader: str, tasks: list[Task],
                  report: CompileReport) -> Received:
    """``read_object`` over every task, results in task order; over the compile's worker pool
    (``compiler/pool.py``) when there are many. Batches come back as they finish and each
    model is put in its slot; the sub-reports are merged in batch order, so the report reads
    the same whatever finished first."""
    if pool.jobs() < 2 or len(tasks) < pool.POOL_THRESHOLD:
        read_object = importlib.import_module(reader).read_object
        return Received([read_object(files, source, c, r, report, k) for c, r, k in tasks])
    size = max(8, len(tasks) // (pool.jobs() * 16))
    batches = [(files.spec(), source, reader, tasks[i:i + size]) for i in range(0, len(tasks), size)]
    results: list[MDObject | None] = [None] * len(tasks)
    reports: list[CompileReport | None] = [None] * len(batches)
    blobs: list[bytes] = [b""] * len(batches)
    with pool.session():   # a reader called outside a compile still gets a pool of its own
        for b, (blob, sub) in pool.imap(_worker, batches, chunk=1, threshold=1):
            out = pickle.loads(blob)
            results[b * size:b * size + len(out)] = out
            reports[b] = sub
            blobs[b] = blob
    for sub in reports:
        assert sub is not None
        report.merge(sub)
    return Received(results, blobs)


def add_objects(cfg: Configuration, tasks: list[Task], read: Received) -> None:
    """Objects into the configuration in listing order; languages apart (EDT has no files for them)."""
    for (cls, _, _), obj in zip(tasks, read.results):
        if obj is None:
            continue
        (cfg.languages if cls == "Language" else cfg.objects).append(obj)
    if read.batches is not None:
        cfg.__dict__["_received"] = read


def _cache_form(cfg: Configuration) -> tuple:
    """A configuration in a cache file: its objects that came from the pool as the indexes of
    their models in the workers' pickles, which are written as they are (pickling the
    objects again cost 0.8 s CPU at SSL × 8, the bytes 0.02 s). Any other object in the lists
    (one added after the read) is pickled as usual. This relies on what the linker already
    guarantees: nothing changes a parsed model (tests/test_link_fork.py)."""
    received: Received | None = cfg.__dict__.get("_received")
    if received is None or received.batches is None:
        return cfg.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    at = {id(o): i for i, o in enumerate(received.results) if o is not None}
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
