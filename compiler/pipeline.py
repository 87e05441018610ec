"""compile: discover → parse (cached per source and domain) → link → build segments → publish.

The domains come from the one registry (``formats/registry.py``). Every domain that reads a
source's kind parses it; linkers run in registration order, *model* domains first (documents
and edges, cached as the linked model) then *index* domains (search data only), and hand data
to each other through typed ``ctx.links``. The core build numbers the documents, each
domain's build writes its segments, then the full-text index is built.
"""
from __future__ import annotations

import gc
import hashlib
import importlib
import json
import os
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from v8atlas.formats.domain import INDEX, MODEL, Domain, Links
from v8atlas.formats.publish import prune, set_newest
from v8atlas.formats.registry import DomainContractError, compile_domains
from v8atlas.formats.version import COMPILE_ARGS, MANIFEST_NAME

from . import __version__, cache, pool, readhash
from .apart import ApartRun
from .documents import Doc, Edge
from .links import ConfigModels
from .report import CompileReport
from .fingerprint import Completion, FileRule, Fingerprinter, Pending
from .sources import Project, Source, SourceError, discover

if TYPE_CHECKING:
    from v8atlas.formats.writer import BundleWriter

# What a compile imports only after its parse (numpy with the builders: ~0.2 s): imported
# while the parse workers parse (``pool.meanwhile``), the parent otherwise idle, so that the
# time is off the compile's critical path (the workers are forked without them; they need none).
_AFTER_PARSE = ("numpy", "v8atlas.formats.writer", "v8atlas.formats.reader",
                "v8atlas.compiler.build_docs", "v8atlas.compiler.search.build",
                "v8atlas.compiler.config.link", "v8atlas.compiler.config.graph")


@dataclass
class LinkContext:
    project: Project
    report: CompileReport
    docs: list[Doc] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)      # goes to manifest "info" (hashed)
    counts: dict[str, Any] = field(default_factory=dict)    # goes to manifest "counts"
    parsed: dict[str, list[tuple[Source, Any]]] = field(default_factory=dict)  # by domain name
    links: Links = field(default_factory=Links)             # typed hand-over between domains
    domains: list[Domain] = field(default_factory=list)     # the registered domains of this compile


class Progress:
    """One line per step on stderr: a live line on a terminal, plain lines otherwise."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.t0 = time.perf_counter()

    def step(self, message: str) -> None:
        if self.quiet:
            return
        line = f"[{time.perf_counter() - self.t0:6.1f}s] {message}"
        if self.tty:
            sys.stderr.write("\r\033[K" + line)
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def done(self) -> None:
        if self.tty and not self.quiet:
            sys.stderr.write("\n")


def compiler_fingerprint() -> str:
    """Version plus a hash of the compiler's own code: a changed parser invalidates the cache.
    The compiled scanner's C source counts too (a rebuilt ``_bslscan.c`` is a changed parser),
    and the shared modules whose output the caches hold (``_cached_formats``)."""
    h = hashlib.sha256(__version__.encode())
    root = Path(__file__).parent
    for p in sorted([*root.rglob("*.py"), *root.rglob("*.c")]):
        h.update(p.relative_to(root).as_posix().encode())
        h.update(p.read_bytes())
    for module in _cached_formats():
        h.update(module.__name__.encode())
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()[:16]


def _cached_formats() -> tuple[Any, ...]:
    """formats/ modules whose output a parse or linked-model cache holds: the search terms
    (``text``, packed where the modules are read) and the bodies' and cards' zstd frames
    (``chunked.pack_frames``): an edit there must miss the caches as a compiler edit does."""
    from v8atlas.formats import chunked, text
    return text, chunked


def _source_identity(source: Source, source_fp: str) -> str:
    # the portable name is part of what a parse may store (a dictionary's origin)
    return (f"{source.kind}\0{source.format}\0{source.portable}\0{source_fp}\0"
            f"{sorted(source.options.items())!r}")


def _reads(domains: list[Domain], source: Source) -> list[Domain]:
    return [d for d in domains if source.kind in d.reads and d.parse is not None]


def _file_rule(registered: list[Domain], domains: list[Domain], source: Source) -> FileRule | None:
    """Which files below ``source`` its fingerprint hashes: those an enabled domain may read,
    when a skipped domain reads the source (``--skip code``: not its modules); None: all."""
    enabled = _reads(domains, source)
    if len(enabled) == len(_reads(registered, source)) or any(d.reads_files is None for d in enabled):
        return None
    return FileRule(tuple(d.reads_files for d in enabled if d.reads_files is not None))


class CompileError(Exception):
    """Nothing could be compiled; nothing was published."""

    def __init__(self, message: str, report: CompileReport | None = None) -> None:
        super().__init__(message)
        self.report = report


def _slot(source: Source, domain: str) -> str:
    """A source's place, whatever its content: where the last good parse of it is remembered."""
    return hashlib.sha256(f"{domain}\0{source.kind}\0{source.format}\0{source.path.resolve()}\0"
                          f"{sorted(source.options.items())!r}".encode()).hexdigest()


def _read_cached(cache_file: Path, report: CompileReport) -> tuple[bool, Any]:
    ok, entry = cache.load(cache_file)   # absent, damaged or not ours: a miss
    if not ok or not isinstance(entry, tuple) or len(entry) != 2:
        return False, None
    result, sub_report = entry
    sub_report.timings, sub_report.cpu = {}, {}   # the earlier compile's parse times, not this one's
    report.merge(sub_report)
    return True, result


# The least the parent, its share of the fingerprint done, waits for the hashing child's
# answer (its last claim: 2 units, ≈ 1 ms of CPU, and its results sent) before doing its units.
_HASHING_GRACE_S = 0.05


def _complete_niced(work: Completion, parent: int) -> tuple[str, list[tuple[int, list]]]:
    """The hashing child's part of the fingerprint: units claimed from the front, at the
    low priority, nice 10 (it takes the CPU the compile leaves; the parent claims the rest from
    the back when it needs the fingerprint), the files the readers are about to read left."""
    if os.getpid() != parent:   # a forked child (in-process, the compile's priority stays)
        os.nice(10)
    return work.claim(front=True, leave=readhash.read_by_readers)


def _parse_cache_file(cache_dir: Path, source: Source, source_fp: str, domain: Domain,
                      fingerprint: str) -> Path:
    key = hashlib.sha256(f"{domain.name}\0{_source_identity(source, source_fp)}\0{fingerprint}"
                         .encode()).hexdigest()
    return cache_dir / f"{key}.pickle"


def _parse_source(source: Source, source_fp: str | None, domain: Domain, cache_dir: Path | None,
                  fingerprint: str, report: CompileReport,
                  unsaved: list[tuple[Source, Domain, pool.Deferred]]) -> Any:
    """Parse one source (or take its cached parse).

    When the source fails as a whole and an earlier compile parsed it successfully, that last
    good parse is used with a warning, so a broken edit never drops a source from the bundle.
    A source whose fingerprint is not known yet (``None``: hashed beside the parse) is parsed
    and its parse written at once to a temporary file (``_save_unkeyed``), put in ``unsaved``
    to be named by its key once that is known.
    """
    cache_file = None
    if cache_dir is not None and source_fp is not None:
        cache_file = _parse_cache_file(cache_dir, source, source_fp, domain, fingerprint)
    last_good = cache_dir / "last-good" / _slot(source, domain.name) if cache_dir else None
    if cache_file is not None and cache_file.is_file():
        ok, result = _read_cached(cache_file, report)
        if ok:
            return result
    sub_report = CompileReport()
    try:
        with sub_report.timed(f"parse {_stage_label(domain.name)}"):
            assert domain.parse is not None
            result = domain.parse(source, sub_report)
    except Exception as e:
        message = str(e) if isinstance(e, SourceError) else f"{type(e).__name__}: {e}"
        previous = last_good.read_text(encoding="utf-8").strip() if last_good and last_good.is_file() else ""
        if previous and (cache_dir / previous).is_file():
            ok, result = _read_cached(cache_dir / previous, report)
            if ok:
                report.warn(source.name, f"{message} — kept the last good version of this source "
                            f"(parsed before this change)", code="source-stale")
                return result
        raise SourceFailed(message) from e
    report.merge(sub_report)
    if source_fp is None:
        if cache_dir is not None:
            unsaved.append((source, domain, _save_unkeyed(cache_dir, source, domain, result,
                                                          sub_report)))
    elif cache_dir is not None:
        _save_parse_later(source, source_fp, domain, cache_dir, fingerprint, result, sub_report,
                          report)
    return result


def _save_parse_later(source: Source, source_fp: str, domain: Domain, cache_dir: Path,
                      fingerprint: str, result: Any, sub_report: CompileReport,
                      report: CompileReport) -> None:
    cache_file = _parse_cache_file(cache_dir, source, source_fp, domain, fingerprint)
    last_good = cache_dir / "last-good" / _slot(source, domain.name)
    with report.timed("save parse cache"):   # by a forked child, while linking goes on
        pool.background(_save_parse, cache_file, last_good, result, sub_report)


def _save_unkeyed(cache_dir: Path, source: Source, domain: Domain, result: Any,
                  sub_report: CompileReport) -> pool.Deferred:
    """A parse whose key waits for the fingerprint, written now to a temporary file by a forked
    child — before the linkers drop what they have read of it (the code domain's tokens and
    doc fields: kept until a later save, they were ~1 GB at ERP scale) — and named by its key
    once known (``go(cache_file, last_good)``); removed if the compile never names it. A parse
    that kept what the pool's workers sent is written from those bytes (``cache.cache_form``:
    the configuration's objects, the code domain's rows), not pickled again."""
    unkeyed = cache_dir / f".unkeyed-{os.getpid()}-{_slot(source, domain.name)}.pickle"
    return pool.deferred(_name_parse, unkeyed,
                         first=(cache.save, (unkeyed, (result, sub_report)), _remove_unkeyed))


def _remove_unkeyed(unkeyed: Path, _obj: Any) -> None:
    unkeyed.unlink(missing_ok=True)


def _name_parse(unkeyed: Path, cache_file: Path, last_good: Path) -> None:
    try:
        os.replace(unkeyed, cache_file)
    except OSError:   # not written (caching off, a full disk): only speed is lost
        return
    _point_last_good(last_good, cache_file)


def _save_parse(cache_file: Path, last_good: Path, result: Any, sub_report: CompileReport) -> None:
    cache.save(cache_file, (result, sub_report))
    _point_last_good(last_good, cache_file)


def _point_last_good(last_good: Path, cache_file: Path) -> None:
    last_good.parent.mkdir(parents=True, exist_ok=True)
    tmp = last_good.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(cache_file.name + "\n", encoding="utf-8")
    os.replace(tmp, last_good)


class SourceFailed(Exception):
    """One source could not be compiled (message for a person, no class names)."""


@dataclass
class CompileResult:
    bundle_path: Path
    reused: bool
    report: CompileReport
    counts: dict[str, Any]


def compile_bundle(paths: list[str | os.PathLike], out: str | os.PathLike, *, name: str | None = None,
                   cache: bool = True, keep: int | None = None, quiet: bool = False,
                   project: Project | None = None, skip: tuple[str, ...] = (),
                   exiting: bool = False) -> CompileResult:
    """*skip* names registered domains to leave out of this compile (``--skip code``).

    *exiting*: the caller ends its process right after, without the interpreter's teardown
    (``os._exit``: the CLI): the parsed and linked model is then never freed (``_release_model``)."""
    # One worker pool for the whole compile (started only if a stage needs it).
    with pool.session(), _gc_paused(restore=not exiting):
        try:
            return _compile(paths, out, name=name, cache=cache, keep=keep, quiet=quiet,
                            project=project, skip=skip, exiting=exiting)
        finally:
            readhash.stop()   # a failed compile leaves no folder watched


@contextmanager
def _gc_paused(restore: bool = True) -> Iterator[None]:
    """No cyclic garbage collection while compiling. The models, cards and postings are
    millions of acyclic objects freed by reference counting; each full collection scans them
    all again (13 % of a ×2 compile's CPU, growing with the dump). Restored afterwards, unless
    the process ends with the compile (``restore`` False: the first collection after it went
    through every object the compile made, SSL 3.1.12: 0.06 s, for nothing)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was and restore:
            gc.enable()


def _compile(paths: list[str | os.PathLike], out: str | os.PathLike, *, name: str | None,
             cache: bool, keep: int | None, quiet: bool, project: Project | None,
             skip: tuple[str, ...] = (), exiting: bool = False) -> CompileResult:
    progress = Progress(quiet)
    report = CompileReport()
    out_dir = Path(out)
    with report.timed("discover"):
        project = project or discover(paths)
    if not project.sources:
        raise CompileError("nothing to compile: no sources found")
    for line in project.skipped:
        report.warn(line.partition(": ")[0], line.partition(": ")[2], code="source-skipped")
    project.sources = [replace(s, portable=p) for s, p in
                       zip(project.sources, portable_names([s.path for s in project.sources]))]
    progress.step(f"{len(project.sources)} source(s): "
                  + ", ".join(f"{s.name} ({s.format})" for s in project.sources))
    registered = compile_domains()
    domains = select_domains(registered, skip)
    check_link_order(domains)
    index_kinds = _index_only_kinds(domains)
    fingerprint = compiler_fingerprint()
    fingerprinter = Fingerprinter(out_dir / ".cache" / "fingerprints.pickle" if cache else None)
    # A folder of many files unknown by their stat (a cold compile) is fingerprinted later
    # (``pending``): a forked child walks it and hashes its files during the parse and the
    # link, but for those the readers read, which they hash as they read them
    # (``compiler/readhash.py``); what needs the fingerprint (the caches' keys, the
    # unchanged-bundle check) waits until then.
    with report.timed("fingerprint"):
        source_fps: dict[Source, str] = {}
        pending: dict[Source, Pending] = {}
        for s in project.sources:
            got = fingerprinter.begin(s.path, rule=_file_rule(registered, domains, s))
            if isinstance(got, str):
                source_fps[s] = got
            else:
                pending[s] = got
    bundle_name = name or project.settings.get("name") or _default_name(project)
    # The domain selection is part of what the bundle holds, so part of its build key.
    fingerprint_with_domains = fingerprint + "\0" + ",".join(d.name for d in domains)
    # Before the pool's workers start (they inherit the watch), and before the parse.
    readhash.watch(os.path.realpath(p.path) for p in pending.values())
    # Started before the parse, at low priority (nice 10): it takes the CPU the compile leaves
    # (and reads the disk while the workers compute); the parent claims what it has not done
    # yet once its builds are done (``Completion``), so it never waits on a starved child.
    completion = Completion(fingerprinter, list(pending.values())) if pending else None
    hashing = (pool.fork_call(_complete_niced, completion, os.getpid())
               if completion is not None else None)
    if not pending:
        fingerprinter.save()
        unchanged = _unchanged(cache, out_dir, project, source_fps, fingerprint_with_domains,
                               bundle_name, report, progress)
        if unchanged is not None:
            return unchanged
    cache_dir = out_dir / ".cache" / "parsed" if cache else None
    model_sources = [s for s in project.sources if s.kind not in index_kinds]
    model_cache = None
    if cache and not pending:
        model_cache = _model_cache_file(out_dir, project, source_fps, fingerprint_with_domains,
                                        bundle_name, model_sources)
    ctx = _load_linked(model_cache, project, report) if model_cache else None
    if ctx is not None:
        progress.step("model sources unchanged: linked model from cache")
        parse_now = [s for s in project.sources if s.kind in index_kinds]
    else:
        ctx = LinkContext(project=project, report=report)
        parse_now = project.sources
    ctx.domains = domains
    # A domain that runs apart parses, links and builds in a child of its own from now on;
    # this process does the rest serially (``compiler/apart.py``).
    runs = _start_apart(domains, parse_now if parse_now is project.sources else [], source_fps,
                        cache_dir, fingerprint, project)
    unsaved: list[tuple[Source, Domain, pool.Deferred]] = []   # parses awaiting their key
    pool.meanwhile(_import_later_stages)
    linked_saver: pool.Deferred | None = None   # the linked model, awaiting its key
    # Each domain's sources parsed, and a model domain's linked, in registration order (a
    # linker reads only its own parses and the links before it): what a child run apart waits
    # for — the configuration's link — comes before the other domains are parsed.
    model_stage = parse_now is project.sources
    for domain in domains:
        if domain.name not in runs:
            _parse_domain(domain, parse_now, source_fps, cache_dir, fingerprint, ctx, unsaved, progress)
        if model_stage and domain.stage == MODEL:
            _run_linker(domain, ctx, progress, runs)
    if not any(ctx.parsed.values()) and not ctx.docs and not any(r.parsed for r in runs.values()):
        raise CompileError("nothing was compiled: every source failed (see the errors above); "
                           "nothing was published and NEWEST is unchanged", report)

    if model_stage:
        # The linked model is saved as the model linkers leave it (the index linkers add to its
        # documents), by a forked child; when the fingerprint is pending, that child waits for
        # the file name it gives while the index linkers and the build go on.
        if cache and not report.errors:
            with report.timed("save linked model"):
                if model_cache is not None:
                    pool.background(_save_linked, *_linked_parts(ctx, runs), model_cache)
                    _name_sides(runs, model_cache)
                elif hashing is not None:
                    linked_saver = pool.deferred(_save_linked, *_linked_parts(ctx, runs))
    _run_linkers(INDEX, ctx, progress)

    progress.step(f"build index ({len(ctx.docs)} documents, {len(ctx.edges)} edges)")
    from v8atlas.formats.writer import BundleWriter

    from . import build_docs
    from .search import build as search_build
    writer = BundleWriter(out_dir, bundle_name, compiler_version=__version__)
    try:
        # A build that reads only its own domain's link (the code index: the longest build
        # after the link) starts first, in a child of its own, beside everything below.
        apart = _fork_apart_builds(ctx, writer, runs)
        with report.timed("build build_docs"):
            build_docs.number(ctx)
        # The search index (the longest build step) and the cards read the numbered documents
        # only: each is built in a forked child while the domains' builds run in the parent,
        # and merged after those builds (in the order a serial build gives: their segments,
        # counts and warnings come last).
        search = pool.split_call(_forked_build, "build search", search_build.build, ctx, writer)
        if hashing is not None:
            # The fingerprint's work the hashing child has not claimed yet is the parent's
            # now, while the search child runs; at low load the child is done by then.
            with report.timed("wait for fingerprint"):
                assert completion is not None
                began = time.perf_counter()
                own = completion.claim(front=False)   # what the child has not claimed yet
                # The child's last claim takes a moment, unless it is starved of CPU: its
                # answer is waited for as long as doing its units here would take, then they
                # are done here — the parent never waits longer than the work itself.
                grace = max(_HASHING_GRACE_S,
                            completion.redo_seconds(own, time.perf_counter() - began))
                if hashing.ready(grace):
                    done = completion.assemble(own, hashing.result())
                else:
                    hashing.discard()
                    with report.timed("hash the starved child's units"):
                        done = completion.assemble(own)
                for s, filled in zip(pending, done):
                    source_fps[s] = fingerprinter.finish(filled)   # with what the readers hashed
            readhash.stop()
            fingerprinter.save()
            unchanged = _unchanged(cache, out_dir, project, source_fps, fingerprint_with_domains,
                                   bundle_name, report, progress)
            if unchanged is not None:   # the same bytes under new stats (a fresh copy of a dump)
                for child in apart.values():
                    child.discard()
                search.discard()        # (before the folder it writes into goes; the
                writer.abort()          # session's end lets the linked-model saver go)
                return unchanged
            if linked_saver is not None:
                linked_path = _model_cache_file(out_dir, project, source_fps,
                                                fingerprint_with_domains, bundle_name, model_sources)
                linked_saver.go(linked_path)
                _name_sides(runs, linked_path)
        for source, domain, saver in unsaved:
            assert cache_dir is not None
            saver.go(_parse_cache_file(cache_dir, source, source_fps[source], domain, fingerprint),
                     cache_dir / "last-good" / _slot(source, domain.name))
        if cache_dir is not None:
            for run in runs.values():    # (the child's parses awaiting their key, if any)
                run.parse_keys = {s.name: (_parse_cache_file(cache_dir, s, source_fps[s], run.domain,
                                                             fingerprint),
                                           cache_dir / "last-good" / _slot(s, run.domain.name))
                                  for s in run.sources}
        # The cards child after the fingerprint, so that a hashing child still at work has
        # the other core meanwhile (beside two busy children it got a tenth of one).
        cards = pool.split_call(_forked_build, "build cards", build_docs.write_cards, ctx, writer)
        for s in project.sources:
            writer.add_source(s.kind, s.portable, fingerprinter.sizes[s.path], source_fps[s],
                              format=s.format)
        with report.timed("build build_docs"):
            build_docs.build(ctx, writer, cards=False, numbered=True)
        # A build after a build apart runs now with its additions held back (``_forked_build``
        # in-process) and merged after that build's answer: a serial build's order, and the
        # model is freed while the children still run.
        merges: list[str | tuple[dict, dict, dict, CompileReport]] = []
        for domain in domains:
            if domain.name in apart:
                merges.append(domain.name)
            elif domain.build is not None:
                label = f"build {_stage_label(domain.name)}"
                if merges:
                    merges.append(_forked_build(label, domain.build, ctx, writer))
                else:
                    with report.timed(label):
                        domain.build(ctx, writer)
        with report.timed("free the model"):
            _release_model(ctx, keep=exiting)
        _merge_in_order(merges, apart, ctx, writer)
        with report.timed("wait for search"):
            _merge_build(search.result(), ctx, writer)
        with report.timed("wait for cards"):
            _merge_build(cards.result(), ctx, writer)
        writer.info.update(ctx.info)
        writer.counts.update(ctx.counts)
        writer.report = report.as_dict()
        progress.step("publish")
        with report.timed("publish"):
            path = writer.publish()
    except BaseException:
        pool.discard_forked()   # the children writing into the folder first
        writer.abort()
        raise
    if cache and not report.errors:   # a build with failed sources is never taken as up to date
        _remember_build(out_dir, _build_key(project, source_fps, fingerprint_with_domains,
                                            bundle_name), path)
    _record_compile_args(out_dir, paths, bundle_name, path)
    if keep:
        prune(out_dir, keep)
    progress.step(f"{'unchanged, re-pointed' if writer.reused else 'published'} {path.name}")
    progress.done()
    return CompileResult(path, writer.reused, report, dict(writer.counts))


def _unchanged(cache: bool, out_dir: Path, project: Project, source_fps: dict[Source, str],
               compiler_fp: str, bundle_name: str, report: CompileReport,
               progress: Progress) -> CompileResult | None:
    """Same sources, same compiler: the bundle already exists; point at it, build nothing."""
    if not cache:
        return None
    unchanged = _unchanged_bundle(out_dir, _build_key(project, source_fps, compiler_fp, bundle_name))
    if unchanged is None:
        return None
    from v8atlas.formats.reader import Bundle
    set_newest(out_dir, unchanged.name)
    progress.step(f"unchanged sources, re-pointed {unchanged.name}")
    progress.done()
    bundle = Bundle.open(unchanged)
    stored = CompileReport.from_dict(bundle.report())
    stored.timings, stored.cpu = report.timings, report.cpu   # this compile's, not the stored ones
    return CompileResult(unchanged, True, stored, dict(bundle.counts))


def _release_model(ctx: LinkContext, keep: bool = False) -> None:
    """The parsed and linked model dropped once every build that reads it has run or been
    forked: freeing it (millions of objects, ≈ 0.3 s at SSL × 8) then overlaps the wait for the
    search child instead of following the publish. The merges after it read the counts, the
    info and the report only.

    ``keep`` (the process ends without a teardown once the compile returns: ``compile_bundle``'s
    *exiting*): the model is held to the end, never freed. Freeing it beside the build children
    cost the parent CPU and copied the pages they share with it (SSL 3.1.12: 0.13–0.19 s CPU,
    ~30 k page faults, on the cores the children's tail runs on; docs/perf/code.md, session 8)."""
    if keep:
        _HELD_TO_EXIT.append((ctx.docs, ctx.edges, ctx.parsed, ctx.links))
    ctx.docs, ctx.edges, ctx.parsed, ctx.links = [], [], {}, Links()


_HELD_TO_EXIT: list[tuple] = []   # ``_release_model(keep=True)``'s models: the process ends with them


def _fork_apart_builds(ctx: LinkContext, writer: "BundleWriter",
                       runs: dict[str, ApartRun]) -> dict[str, pool.Forked | ApartRun]:
    """The builds of the domains that build apart (``Domain.build_apart``), each started in a
    forked child now, and of those that run apart (their child builds now); their answers are
    merged at their domains' places in the build loop, so the bundle, counts and report are
    a serial build's (without forks none builds apart)."""
    started: dict[str, pool.Forked | ApartRun] = {}
    for d in ctx.domains:
        if d.name in runs:
            runs[d.name].build(writer)
            started[d.name] = runs[d.name]
        elif d.build is not None and d.build_apart and pool.splits():
            started[d.name] = pool.fork_call(_forked_build, f"build {_stage_label(d.name)}", d.build,
                                             ctx, writer)
    return started


def _start_apart(domains: list[Domain], parse_now: list[Source], source_fps: dict[Source, str],
                 cache_dir: Path | None, fingerprint: str, project: Project) -> dict[str, ApartRun]:
    """A child for each domain that runs apart (``Domain.apart``) and reads a source parsed now
    — not when the linked model comes from its cache (then its build reads the cached links
    here) — started before anything is parsed; with any, this process shares no step's work
    from now on (``pool.set_serial``)."""
    if not pool.forks() or os.environ.get("V8ATLAS_APART") == "0":   # (0: every step split, as before)
        return {}
    runs: dict[str, ApartRun] = {}
    for d in domains:
        sources = ([s for s in parse_now if s.kind in d.reads]
                   if d.apart and d.parse and d.link and d.build and d.stage == MODEL else [])
        if sources:
            runs[d.name] = ApartRun(d, sources, source_fps, cache_dir, fingerprint, project)
    if runs:   # (serial while a child works: with little code it is done early)
        pool.set_serial(True, busy=lambda: any(run.busy() for run in runs.values()))
    return runs


def _name_sides(runs: dict[str, ApartRun], linked: Path) -> None:
    """Where each child run apart writes its links for the linked-model cache file ``linked``."""
    for name, run in runs.items():
        run.side = _side_file(linked, name)


_SIDE = ".side"


def _side_file(linked: Path, domain: str) -> Path:
    """Beside a linked-model cache file, the links a domain run apart wrote (``save_side``)."""
    return linked.with_name(f"{linked.stem}.{domain}{_SIDE}")


def _linked_of(side: Path) -> Path:
    """The linked-model cache file a side file belongs to (``_side_file``'s inverse)."""
    return side.with_name(side.name.split(".", 1)[0] + ".pickle")


def save_side(links: Links, path: Path) -> None:
    """A run-apart domain's links (``compiler/apart.py``), in the linked-model file's form."""
    cache.save_parts(path, _linked_stream([], [], {}, {}, links, CompileReport(), []))


def _merge_in_order(merges: list[str | tuple[dict, dict, dict, CompileReport]],
                    apart: dict[str, pool.Forked], ctx: LinkContext, writer: "BundleWriter") -> None:
    """The builds' additions in build order: a domain's name is its build apart's answer,
    awaited; anything else is a build's answer already made."""
    for merge in merges:
        if isinstance(merge, str):
            with ctx.report.timed(f"wait for {_stage_label(merge)}"):
                _merge_build(apart.pop(merge).result(), ctx, writer)
        else:
            _merge_build(merge, ctx, writer)


def _import_later_stages() -> None:
    for module in _AFTER_PARSE:
        importlib.import_module(module)


def _forked_build(label: str, build: Callable[[LinkContext, "BundleWriter"], None],
                  ctx: LinkContext, writer: "BundleWriter") -> tuple[dict, dict, dict, CompileReport]:
    """A build step (maybe in a forked child): what it added to the writer and the counts,
    and its own report (timing included, under ``label``)."""
    segments, records, counts = set(writer.segments), set(writer.records), set(ctx.counts)
    own, ctx.report = ctx.report, CompileReport()
    try:
        with ctx.report.timed(label):
            build(ctx, writer)
        sub = ctx.report
    finally:
        ctx.report = own
    # Taken out again, so that in-process too they are added after the domains' builds.
    return ({k: writer.segments.pop(k) for k in list(writer.segments) if k not in segments},
            {k: writer.records.pop(k) for k in list(writer.records) if k not in records},
            {k: ctx.counts.pop(k) for k in list(ctx.counts) if k not in counts}, sub)


def _merge_build(answer: tuple[dict, dict, dict, CompileReport], ctx: LinkContext,
                 writer: "BundleWriter") -> None:
    segments, records, counts, sub = answer
    twice = sorted(set(segments) & set(writer.segments))
    if twice:
        raise CompileError(f"segment(s) {', '.join(twice)} written by a forked build and another")
    writer.segments.update(segments)
    writer.records.update(records)
    ctx.counts.update(counts)
    ctx.report.merge(sub)


def select_domains(domains: list[Domain], skip: tuple[str, ...]) -> list[Domain]:
    """The registered domains less the skipped ones; an unknown name or skipping the
    configuration domain (every other reader of a dump links into it) is an error."""
    known = [d.name for d in domains]
    unknown = sorted(set(skip) - set(known))
    if unknown:
        raise CompileError(f"--skip {', '.join(unknown)}: no such domain (known: {', '.join(known)})")
    if "configuration" in skip:
        raise CompileError("--skip configuration: the other domains of a dump link into it; "
                           "skip the others instead")
    return [d for d in domains if d.name not in skip]


def _default_name(project: Project) -> str:
    kinds = {s.kind for s in project.sources}
    return "bundle" if len(kinds) != 1 else {"configuration": "config", "help": "help"}.get(
        kinds.pop(), "bundle")


def _stage_label(domain: str) -> str:
    """Timing labels as they were before domains were registered objects ('config')."""
    return {"configuration": "config"}.get(domain, domain)


def check_link_order(domains: list[Domain]) -> None:
    """Every link a domain needs is provided by a domain whose link runs before it (model
    domains run before index domains, each in registration order)."""
    provided: set[type] = set()
    for d in [d for d in domains if d.stage == MODEL] + [d for d in domains if d.stage == INDEX]:
        missing = [c.__name__ for c in d.needs if c not in provided]
        if missing:
            raise DomainContractError(f"domain {d.name!r} needs {', '.join(missing)}, which no domain "
                                      f"linked before it provides (register it after the provider)")
        provided.update(d.provides)


def _index_only_kinds(domains: list[Domain]) -> set[str]:
    """Source kinds read only by index domains: changing them reuses the linked model."""
    model = {k for d in domains if d.stage == MODEL for k in d.reads}
    return {k for d in domains if d.stage == INDEX for k in d.reads} - model


def _parse_domain(domain: Domain, sources: list[Source], source_fps: dict[Source, str],
                  cache_dir: Path | None, fingerprint: str, ctx: LinkContext,
                  unsaved: list[tuple[Source, Domain, pool.Deferred]], progress: Progress) -> None:
    """The sources a domain reads, parsed (or taken from its cache) into ``ctx.parsed``."""
    for source in sources:
        if domain.parse is None or source.kind not in domain.reads:
            continue
        progress.step(f"parse {_stage_label(domain.name)}: {source.name}")
        try:
            result = _parse_source(source, source_fps.get(source), domain, cache_dir,
                                   fingerprint, ctx.report, unsaved)
        except SourceFailed as e:  # one broken source never takes down the others
            ctx.report.error(source.name, str(e), code="source-failed")
            continue
        ctx.parsed.setdefault(domain.name, []).append((source, result))
        result = None   # held by ctx.parsed alone (``_release_model`` frees it)


def _run_linkers(stage: str, ctx: LinkContext, progress: Progress) -> None:
    for domain in ctx.domains:
        if domain.stage == stage:
            _run_linker(domain, ctx, progress)


def _run_linker(domain: Domain, ctx: LinkContext, progress: Progress,
                runs: dict[str, ApartRun] | None = None) -> None:
    if domain.link is None:
        return
    label = _stage_label(domain.name)
    progress.step(f"link {label}")
    run = (runs or {}).get(domain.name)
    if run is not None:          # linked by its child (its own "link" timing comes with it)
        with ctx.report.timed(f"wait for {label} link"):
            if not run.link(ctx):
                del runs[domain.name]   # (reported: the domain adds nothing, nor builds)
        return
    with ctx.report.timed(f"link {label}"):
        domain.link(ctx.parsed.get(domain.name, []), ctx)
    for other in (runs or {}).values():   # a child waiting for what this linker made
        other.send_inputs(ctx)


def _load_linked(path: Path, project: Project, report: CompileReport) -> LinkContext | None:
    """The linked model of the same model sources (a dictionary-only change), or None."""
    if not path.is_file():
        return None
    with report.timed("load linked model"):
        ok, parts = cache.load_parts(path)
        try:
            entry = _linked_read(parts) if ok else None
        except (cache.CacheUnreadable, StopIteration, TypeError, ValueError):   # damaged: a miss
            entry = None
    if entry is None:
        _drop_linked_file(path)
        return None
    docs, edges, info, counts, links, sub_report, sides = entry
    for name in sides:   # the links of a domain that ran apart, in their side file
        side = _side_file(path, name)
        try:
            ok, parts = cache.load_parts(side)
            side_links = _linked_read(parts)[4] if ok else None
        except (cache.CacheUnreadable, StopIteration, TypeError, ValueError):
            side_links = None
        if side_links is None:       # absent or damaged: the whole linked model is a miss
            _drop_linked_file(path)
            return None
        for value in side_links.__getstate__().values():
            links.put(value)
    sub_report.timings, sub_report.cpu = {}, {}   # the earlier compile's; this one's are measured anew
    report.merge(sub_report)
    return LinkContext(project=project, report=report, docs=docs, edges=edges, info=info,
                       counts=counts, links=links)


def _links_after_model(links: Links, drop: frozenset[type] | set[type] = frozenset()) -> Links:
    """The links a compile from the linked-model cache reads: it runs no model-stage linker,
    and only those read the parsed configurations (``ConfigModels.models``/``by_source``: the
    costliest part of the pickle at scale, and in the parse cache already); the platforms stay.
    ``drop``: the links of domains that ran apart (their side files hold them)."""
    kept = Links()
    kept.__setstate__({cls: v for cls, v in links.__getstate__().items() if cls not in drop})
    models = links.get(ConfigModels)
    if models is not None:
        kept.put(ConfigModels(platforms=dict(models.platforms)))
    return kept


def _linked_parts(ctx: LinkContext, runs: dict[str, ApartRun] | None = None) -> tuple:
    """What the linked-model cache holds of a context (``_save_linked``'s first arguments):
    the links of the domains that ran apart (``runs``) are in side files their children write
    (``_side_file``), named in the file."""
    apart = [d for d in ctx.domains if d.name in (runs or {})]
    drop = {cls for d in apart for cls in d.provides}
    return (ctx.docs, ctx.edges, ctx.info, ctx.counts, _links_after_model(ctx.links, drop), ctx.report,
            [d.name for d in apart])


_DOC_ROW = attrgetter(*(f.name for f in fields(Doc)))     # a document's fields, in order
_EDGE_ROW = attrgetter(*(f.name for f in fields(Edge)))


def _rows(objects: list[Any], row: Callable[[Any], tuple]) -> bytes | list[tuple]:
    """Documents or edges as plain tuples of their fields, marshalled: hundreds of thousands
    of them at ERP scale, and a tuple pickles five times faster than a dataclass instance;
    marshal writes plain data (str, int, list, dict: a card) faster again (SSL × 8's 21,000
    documents: pickled 0.41 s, rows marshalled 0.18 s; 419,000 edges 0.17 → 0.06 s). Rows
    holding anything marshal refuses are kept as they are (pickled with the rest)."""
    return cache.marshalled([row(o) for o in objects])


def _from_rows(stored: bytes | list[tuple]) -> list[tuple]:
    return cache.unmarshalled(stored)


# Documents or edges per part of the linked-model cache file: each part's rows and marshalled
# bytes are made only when the file writer takes it (× 12's 975,000 edges were 0.2 GB at once).
_ROWS_PER_PART = 65_536


def _save_linked(docs: list[Doc], edges: list[Edge], info: dict[str, Any], counts: dict[str, Any],
                 links: Links, report: CompileReport, sides: list[str], path: Path) -> None:
    cache.save_parts(path, _linked_stream(docs, edges, info, counts, links, report, sides))
    # Only the newest few linked models are worth keeping (each is the size of the cards).
    olds = sorted(path.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime)[:-3]
    for old in olds:
        _drop_linked_file(old)
    for side in path.parent.glob(f"*{_SIDE}"):   # of no linked model (its saver failed), older than this one
        if not _linked_of(side).exists() and side.stat().st_mtime < path.stat().st_mtime:
            side.unlink(missing_ok=True)


def _drop_linked_file(path: Path) -> None:
    """A linked-model cache file and the side files of its domains run apart."""
    path.unlink(missing_ok=True)
    for side in path.parent.glob(f"{path.stem}.*{_SIDE}"):
        side.unlink(missing_ok=True)


def _linked_stream(docs: list[Doc], edges: list[Edge], info: dict[str, Any],
                   counts: dict[str, Any], links: Links, report: CompileReport,
                   sides: list[str]) -> Iterator[Any]:
    """The linked model as the parts of its cache file (``cache.save_parts``): a head, the
    documents' and edges' rows in parts, then the parts of every link that writes itself in
    parts (``cache_parts``/``from_cache_parts``: the code index) — made one at a time, so the
    saver's memory beyond the data it was forked with is one part, not the model's pickle."""
    values = links.__getstate__()
    parted = [cls for cls, v in values.items() if hasattr(v, "cache_parts")]
    head = Links()
    head.__setstate__({cls: v for cls, v in values.items() if cls not in parted})
    yield len(docs), len(edges), info, counts, head, report, parted, sides
    for objects, row in ((docs, _DOC_ROW), (edges, _EDGE_ROW)):
        for start in range(0, len(objects), _ROWS_PER_PART):
            yield _rows(objects[start:start + _ROWS_PER_PART], row)
    for cls in parted:
        yield from values[cls].cache_parts()


def _linked_read(parts: Iterator[Any]) -> tuple:
    """``_linked_stream``'s parts back: (docs, edges, info, counts, links, report, sides)."""
    n_docs, n_edges, info, counts, links, report, parted, sides = next(parts)
    docs: list[Doc] = []
    while len(docs) < n_docs:
        docs += [Doc(*row) for row in _from_rows(next(parts))]
    edges: list[Edge] = []
    while len(edges) < n_edges:
        edges += [Edge(*row) for row in _from_rows(next(parts))]
    for cls in parted:
        links.put(cls.from_cache_parts(parts))
    return docs, edges, info, counts, links, report, sides


def _build_key(project: Project, source_fps: dict[Source, str], compiler_fp: str, bundle_name: str,
               sources: list[Source] | None = None) -> str:
    """Everything a bundle's content depends on: compiler code, sources (bytes, options), settings."""
    h = hashlib.sha256(f"{compiler_fp}\0{bundle_name}\0".encode())
    for s in sorted(project.sources if sources is None else sources, key=lambda s: (s.kind, s.name)):
        h.update(_source_identity(s, source_fps[s]).encode() + b"\n")
    settings = {k: v for k, v in project.settings.items() if k != "_by_path"}
    h.update(repr(sorted(settings.items())).encode())
    return h.hexdigest()


def _model_cache_file(out_dir: Path, project: Project, source_fps: dict[Source, str],
                      compiler_fp: str, bundle_name: str, model_sources: list[Source]) -> Path:
    """Where the linked model of these model sources is cached (keyed like a build)."""
    key = _build_key(project, source_fps, compiler_fp, bundle_name, model_sources)
    return out_dir / ".cache" / "linked" / f"{key}.pickle"


def _builds_dir(out_dir: Path) -> Path:
    return out_dir / ".cache" / "builds"


def _unchanged_bundle(out_dir: Path, build_key: str) -> Path | None:
    try:
        folder = (_builds_dir(out_dir) / build_key).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    path = out_dir / folder
    if "/" in folder or not folder or not (path / MANIFEST_NAME).is_file():
        return None   # pruned or removed by hand: build again
    return path


def _remember_build(out_dir: Path, build_key: str, bundle_path: Path) -> None:
    d = _builds_dir(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f".{build_key}.{os.getpid()}"
    tmp.write_text(bundle_path.name + "\n", encoding="utf-8")
    os.replace(tmp, d / build_key)


def portable_names(paths: list[Path]) -> list[str]:
    """Source names for the manifest: relative to the sources' common folder, never absolute."""
    resolved = [p.resolve() for p in paths]
    if not resolved:
        return []
    common = Path(os.path.commonpath([str(p.parent) for p in resolved]))
    if len(common.parts) <= 2:
        # Sources in unrelated places (/root/… and /tmp/…): a name from the filesystem root
        # says nothing; the last two parts of each path say what it is.
        return [Path(*p.parts[-2:]).as_posix() for p in resolved]
    return [p.relative_to(common).as_posix() for p in resolved]


def _record_compile_args(out_dir: Path, paths: list[str | os.PathLike], bundle_name: str,
                         bundle_path: Path) -> None:
    """Remember how this bundle was compiled here, so a server on this machine can recompile."""
    record = {"sources": [str(Path(p).resolve()) for p in paths], "name": bundle_name,
              "bundle": bundle_path.name}
    d = out_dir / ".cache"
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f".{COMPILE_ARGS}.{os.getpid()}"
    tmp.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, d / COMPILE_ARGS)
