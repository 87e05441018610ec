"""A domain run apart (``formats.domain.Apart``): its parse, link and build in one forked child,
from the compile's start, while the compile's process does the rest — two serial streams,
one a core (``pool.set_serial``).

On two cores the code domain's steps shared with a forked child each (the parse, the cards,
the stores) cost it ≈ 2 s of CPU more than the same steps in one process — forks, pages
copied on write, rows sent and made into objects again — for 1.5 s less wall; the structure's
steps likewise. Run apart, neither stream pays for a split (docs/perf/code.md, session 12).

The conversation, in this order (``pool.fork_talk``):

* the child parses the domain's sources (its parse cache as the compile's own: ``_parse_source``),
  then waits for the link's inputs;
* the compile, at the domain's link place, sends ``Apart.inputs(ctx)``; the child links
  (``Apart.link``) and answers its report (parse and link), the link's answer and its notes of
  the files it read (``readhash``: the fingerprint takes their digests); the compile merges
  them (``Apart.merge``);
* the compile sends its ``BundleWriter`` once it has one; the child builds into its folder;
* the compile sends where the child's caches go once the fingerprint names them — its
  unkeyed parses (``_save_unkeyed``) and its links for the linked-model cache (a side file,
  ``pipeline._side_file``) — or nothing; the child answers its build (``_forked_build``'s
  additions), merged at the domain's place in the build order.
"""
from __future__ import annotations

import mmap
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from v8atlas.formats.domain import Domain, Source

from . import pool, readhash
from .report import CompileReport, cpu_seconds

if TYPE_CHECKING:
    from v8atlas.formats.writer import BundleWriter

    from .pipeline import LinkContext


class ApartRun:
    """One domain's child, as the compile talks to it."""

    def __init__(self, domain: Domain, sources: list[Source], source_fps: dict[Source, str],
                 cache_dir: Path | None, fingerprint: str, project: Any) -> None:
        self.domain, self.sources = domain, sources
        # Set by the compile once the fingerprint is known: source name → (parse cache file,
        # last-good pointer), and the linked-model side file (None: no linked model is saved).
        self.parse_keys: dict[str, tuple[Path, Path]] = {}
        self.side: Path | None = None
        # One byte the child reads: 1 once this process only waits for its build (its own
        # builds done), so that the child's build may share its work with a child of its own.
        self._idle = mmap.mmap(-1, 1)
        # One byte the child writes: 1 while it works, 0 while it waits for this process (a
        # dump with little code: done early), so that this process's steps may split then.
        self._busy = mmap.mmap(-1, 1)
        self._busy[0] = 1
        self.parsed = 0          # the sources its child parsed (told with its link's answer)
        self._talk = pool.fork_talk(_apart_child, domain, sources, source_fps, cache_dir, fingerprint,
                                    project, self._idle, self._busy)
        self._inputs_sent = False

    def send_inputs(self, ctx: "LinkContext", now: bool = False) -> None:
        """The link's inputs to the child, once: as soon as the links the domain needs are
        there (the child links as soon as it has parsed), or ``now`` (at its link's place)."""
        if self._inputs_sent or not (now or all(ctx.links.get(c) is not None for c in self.domain.needs)):
            return
        assert self.domain.apart is not None
        self._talk.send(self.domain.apart.inputs(ctx))
        self._inputs_sent = True

    def link(self, ctx: "LinkContext") -> bool:
        """The domain's link: its inputs to the child (if not sent yet), its answer merged here.
        False when the child ended without one (killed — out of memory, say): each of its
        sources is reported failed, as a parse whose reader died is, and the domain adds
        nothing to this compile. What the child raised is raised here, as in one process; a
        child that dies after its answer fails the compile at its build (``result``)."""
        assert self.domain.apart is not None
        try:
            self.send_inputs(ctx, now=True)
            report, answer, notes, self.parsed = self._talk.recv()
        except pool.ChildGone as e:
            self.discard()     # (and not busy: this process's steps may split again)
            for source in self.sources:
                ctx.report.error(source.name, f"RuntimeError: {e}", code="source-failed")
            return False
        readhash.merge(notes)
        ctx.report.merge(report)
        self.domain.apart.merge(answer, ctx)
        return True

    def build(self, writer: "BundleWriter") -> None:
        """The child builds into ``writer``'s folder from now on."""
        self._talk.send(writer)

    def result(self) -> tuple[dict, dict, dict, CompileReport]:
        """The build's additions (``pipeline._forked_build``), once the child has been told
        where its caches go."""
        self._idle[0] = 1
        self._talk.send((self.parse_keys, self.side))
        answer = self._talk.recv()
        self._talk.close()
        return answer

    def busy(self) -> bool:
        """Whether the child works now (not waiting for this process, not ended)."""
        return self._busy[0] == 1

    def discard(self) -> None:
        self._busy[0] = 0
        self._talk.discard()


def _apart_child(conn: Any, domain: Domain, sources: list[Source], source_fps: dict[Source, str],
                 cache_dir: Path | None, fingerprint: str, project: Any, idle: mmap.mmap,
                 busy: mmap.mmap) -> None:
    from .pipeline import LinkContext, SourceFailed, _forked_build, _parse_source, _stage_label, save_side
    pool.set_serial(True)
    readhash.forget()         # the compile's notes are the compile's; this child's come back

    def wait() -> Any:        # the compile's next message, this child not busy meanwhile
        busy[0] = 0
        try:
            return conn.recv()
        finally:
            busy[0] = 1
    report = CompileReport()
    unsaved: list[tuple[Source, Domain, pool.Deferred]] = []
    parsed: list[tuple[Source, Any]] = []
    for source in sources:
        try:
            parsed.append((source, _parse_source(source, source_fps.get(source), domain, cache_dir,
                                                 fingerprint, report, unsaved)))
        except SourceFailed as e:   # one broken source never takes down the others
            report.error(source.name, str(e), code="source-failed")
    inputs = wait()
    ctx = LinkContext(project=project, report=report)
    assert domain.apart is not None
    label = _stage_label(domain.name)
    answered: list[tuple[float, float]] = []
    began = time.perf_counter(), cpu_seconds()
    told: list[int] = []    # the report's warnings and errors when the answer took it

    def answer(value: Any) -> None:   # the compile's part, as soon as the link knows it
        assert not answered, "a domain's link apart answers once"
        answered.append((time.perf_counter(), cpu_seconds()))
        report.add_time(f"link {label}", answered[0][0] - began[0], answered[0][1] - began[1])
        told.extend((len(report.warnings), len(report.errors)))
        pool.answer(conn, (report, value, readhash.take(), len(parsed)))   # (pickled now)

    domain.apart.link(parsed, inputs, ctx, answer)
    if not answered:
        raise RuntimeError(f"the {domain.name} domain's link apart gave the compile no answer")
    parsed = []
    late = CompileReport()   # what the link reported after its answer: with the build's
    late.warnings, late.errors = report.warnings[told[0]:], report.errors[told[1]:]
    late.add_time(f"link {label} after its answer", time.perf_counter() - answered[0][0],
                  cpu_seconds() - answered[0][1])
    # The links as the link left them, for the linked-model cache: held by a forked child
    # until the compile names the file (before the build drops what it has stored).
    side_saver = pool.deferred(save_side, ctx.links) if cache_dir is not None else None
    writer = wait()
    assert domain.build is not None
    if idle[0]:   # the compile only waits for this build now: its core is free for a split
        pool.set_serial(False)
    segments, records, counts, built_report = _forked_build(f"build {label}", domain.build, ctx, writer)
    late.merge(built_report)
    parse_keys, side = wait()
    for source, _domain, saver in unsaved:
        if source.name in parse_keys:
            saver.go(*parse_keys[source.name])
        else:
            saver.drop()
    if side_saver is not None:
        if side is not None:
            side_saver.go(side)
        else:
            side_saver.drop()
    busy[0] = 0               # (its savers write on: background, not the compile's stream)
    pool.answer(conn, (segments, records, counts, late))


