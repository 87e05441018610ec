"""Read every module of a configuration source into a ``CodeModel`` (in two processes when many).

A module is placed by its path (``modules.module_ref``) and checked against the configuration's
model: a module whose object (or form, or command) the configuration does not have is reported
and left out, as is a file that is not UTF-8 BSL text or is larger than ``MAX_MODULE_BYTES``.
Problems inside a module (unbalanced ``Процедура``/``КонецПроцедуры``, a repeated name) are
reported with file and line; its procedures are kept.
"""
from __future__ import annotations

import marshal
import operator
import pickle
import zipfile
import zlib
from itertools import repeat
from typing import Any, Callable

from v8atlas.formats.domain import Source

from ..config.files import SourceFiles, open_spec
from ..config.errors import ConfigSourceError
from ..config.model import Configuration
from ..config.plugin import open_source
from .. import cache, pool
from ..report import CompileReport
from . import bodies
from .doccomment import parse_doc
from .lexer import decode_module, scan_module
from .model import (CONFIGURATION_OWNER, PROC_INIT_FIELDS, CodeModel, Module, ModuleKind, ModuleRef,
                    Param, Procedure, annotation_of, annotation_row, param_row)
from .modules import bsl_files, module_ref
from .terms import TermPacker, forget_memos, terms

MAX_MODULE_BYTES = 16 * 1024 * 1024    # SSL's largest module is 3.4 MB; ERP's about 6 MB
POOL_THRESHOLD = 200                   # modules; below this a forked child costs more than it saves
# Modules per claim of the shared read (``pool.read_shared``): SSL's 2,197 modules take
# 0.9 ms of CPU on average, the largest tens of ms; each claim is one set of rows to send and adopt.
_STEP = 8
# Room for the child's rows in the shared mapping they stream through (``pool.read_shared``),
# per task: SSL's average 18 KB; untouched pages cost nothing, and rows that do not fit
# come through the pipe at the end.
_ROOM_PER_TASK = 96 * 1024
# Problems a scan reports that leave the module's procedures in place (warnings).
_KEPT = {"unbalanced", "unbalanced-region", "unbalanced-if", "duplicate", "syntax"}


def _read_one(files: SourceFiles, rel: str, ref: ModuleRef, packer: TermPacker
              ) -> tuple[Module | None, list[tuple[str, str, str, int | None]]]:
    """(module or None, [(level, code, message, line)]); each procedure's terms packed by
    ``packer`` (the forked child's packs by its claim's own vocabulary: the parent adopts it)."""
    try:
        data = files.read(rel)
    except (OSError, zipfile.BadZipFile, zlib.error) as e:
        return None, [("error", "unreadable", f"cannot read the module ({e}); left out", None)]
    if data is None:
        return None, [("error", "unreadable", "the module file vanished while reading; left out", None)]
    if len(data) > MAX_MODULE_BYTES:
        return None, [("error", "module-too-large",
                       (f"module of {len(data) / 1e6:.1f} MB is over the {MAX_MODULE_BYTES // 2**20} MB "
                       f"limit for one module; left out"), None)]
    text, problem = decode_module(data)
    if problem is not None:
        return None, [("error", problem.code, problem.message + "; left out", problem.line)]
    res = scan_module(text)
    for p in res.procedures:     # per-procedure work done here: in parallel, and cached with the parse
        p.info = parse_doc(p.doc) if p.doc else {}
        p.doc = ""                       # parsed into info: the raw comment is not carried on
        p.local_calls, p.qualified_calls = _sorted(p.local_calls), _sorted(p.qualified_calls)
        p.literal_module_calls, p.usages = _sorted(p.literal_module_calls), _sorted(p.usages)
    for p, packed in zip(res.procedures, packer.pack_procedures(res.procedures)):
        p.terms = packed
    # the parent keeps the module's frame until the build (bodies.py)
    for p, packed in zip(res.procedures, bodies.pack_module([p.body for p in res.procedures])):
        p.body = packed
    module = Module(ref, rel, res.procedures, res.lines, len(data), res.module_doc)
    module.terms = terms(ref.child or ref.owner.rpartition(".")[2] or ref.kind)
    return module, [("warn", p.code, p.message, p.line) for p in res.problems]


def _sorted(tokens: Any) -> tuple:
    """A token set as the model keeps it; most are empty (the same ``()`` either way)."""
    return tuple(sorted(tokens)) if tokens else ()


def _module_claims(spec: tuple, tasks: list[tuple[str, ModuleRef]]) -> Callable[[int, int], bytes]:
    """The forked child's part of ``read_modules`` (``pool.read_shared``): per claim, its
    modules as ``marshal`` rows (``_rows``), made as soon as they are read, their terms packed
    by a vocabulary of the claim's own (the parent adopts it, claim after claim in task order).
    Rows, not pickles: plain tuples, lists, dicts, strings and bytes cross several times faster
    than pickled objects (SSL 3.1.12: pickle 0.90 s + 0.53 s unpickling in the parent)."""
    files = open_spec(spec)   # its own handles: a zip's file position is not to be shared

    def claim(lo: int, hi: int) -> bytes:
        local = TermPacker()
        results = [_read_one(files, rel, ref, local) for rel, ref in tasks[lo:hi]]
        return marshal.dumps(_rows(local.vocabulary(), results))
    return claim


# Procedure fields in constructor order; ``params``, ``annotation`` and ``body`` travel apart.
_PARAMS_AT, _ANNOTATION_AT = PROC_INIT_FIELDS.index("params"), PROC_INIT_FIELDS.index("annotation")
_BODY_AT = PROC_INIT_FIELDS.index("body")
_FIELDS_OF = operator.attrgetter(*PROC_INIT_FIELDS)   # a procedure → its fields as a tuple
# The rows' layout: a cache file of another (``_cache_form``) does not carry it and is a miss.
_LAYOUT = "v8atlas-code-rows-4"   # 4: the cache form holds (start, rows) parts


def _rows(vocabulary: list[str], results: list[tuple[Module | None, list]]) -> tuple:
    """A batch as marshal takes it: (its term vocabulary, ``_LAYOUT``, per module (its
    procedure count, lines, size, doc, terms, its bodies' frame) or None, with its problems,
    its procedures as columns). Columns — one list per constructor field, not a tuple per
    procedure: the parent makes the objects in one ``map``. Marshal (version ≥ 3) writes an
    object referenced twice once, so the strings, term lists and region lists the child
    shares stay shared. Fewer objects cross (docs/perf/code.md, "the model's transport"): the
    vocabulary as one string, the bodies as two columns of offsets into their module's frame."""
    joined = "\n".join(vocabulary)           # terms are letter and digit runs: no line breaks
    words: str | list[str] = joined if joined.count("\n") == len(vocabulary) - 1 else vocabulary
    procs = [p for module, _problems in results if module is not None for p in module.procedures]
    columns: list[Any] = list(zip(*map(_FIELDS_OF, procs)))
    frames: tuple = ()
    if procs:
        param_rows: dict[int, tuple] = {}     # id(Param) → its row: Params are shared (lexer.py)
        got = param_rows.get
        columns[_PARAMS_AT] = [[got(id(x)) or param_rows.setdefault(id(x), param_row(x)) for x in ps]
                               if ps else () for ps in columns[_PARAMS_AT]]
        columns[_ANNOTATION_AT] = list(map(annotation_row, columns[_ANNOTATION_AT]))
        frames, starts, ends = zip(*columns[_BODY_AT])       # (frame, start, end) each
        columns[_BODY_AT] = (starts, ends)
    out = []
    at = 0
    for module, problems in results:
        if module is None:
            out.append((None, problems))
            continue
        n = len(module.procedures)
        frame = frames[at] if n else None
        if n and frames[at:at + n].count(frame) != n:   # bodies.pack_module: one frame a module
            raise ValueError(f"{module.file}: its bodies are not in one frame")
        at += n
        out.append(((n, module.lines, module.size, module.doc, module.terms, frame), problems))
    return words, _LAYOUT, out, columns


def _from_rows(blob: bytes, tasks: list[tuple[str, ModuleRef]]
               ) -> tuple[list[str], list[tuple[Module | None, list]]]:
    """``_rows``' bytes back as (the batch's term vocabulary, modules), ``tasks``: the batch's
    (rel, ref) in order. Rows of another layout (a cache file) raise ValueError."""
    body = marshal.loads(blob)
    if not (isinstance(body, tuple) and len(body) == 4 and body[1] == _LAYOUT):
        raise ValueError("code rows of another layout")
    words, _layout, rows_, columns = body
    procs: list[Procedure] = []
    if columns:
        if len(columns) != len(PROC_INIT_FIELDS):
            raise ValueError("procedure columns of another layout")
        params: dict[tuple, Param] = {}      # one Param per spelling again, as the child had them
        columns[_PARAMS_AT] = [[params.get(r) or params.setdefault(r, Param(*r)) for r in ps]
                               for ps in columns[_PARAMS_AT]]
        columns[_ANNOTATION_AT] = map(annotation_of, columns[_ANNOTATION_AT])
        (starts, ends), packed = columns[_BODY_AT], []
        at = 0
        for mrow, _problems in rows_:
            if mrow is not None and mrow[0]:
                n, frame = mrow[0], mrow[5]
                packed += zip(repeat(frame, n), starts[at:at + n], ends[at:at + n])
                at += n
        columns[_BODY_AT] = packed
        procs = list(map(Procedure, *columns))
    out: list[tuple[Module | None, list]] = []
    at = 0
    for (rel, ref), (mrow, problems) in zip(tasks, rows_):
        if mrow is None:
            out.append((None, problems))
            continue
        n, lines, size, doc, terms_, _frame = mrow
        module = Module(ref, rel, procs[at:at + n], lines, size, doc)
        at += n
        module.terms = terms_
        out.append((module, problems))
    return words.split("\n") if isinstance(words, str) else words, out


def read_modules(files: SourceFiles, edt: bool, source: str, report: CompileReport) -> CodeModel:
    """Every module file of a dump placed by its path and scanned; when there are many, by this
    process and one forked child (``pool.read_shared``: this process from the front, the child
    from the back). Against the pool's two workers (before), this process's share is neither
    marshalled nor sent nor adopted, and no pool starts (docs/perf/code.md, round 2, session 10)."""
    tasks = []
    for rel in bsl_files(files):
        ref = module_ref(rel, edt)
        if ref is None:
            report.warn(source, "a .bsl file outside any module's place in the dump; not read",
                        code="module-unplaced", file=rel)
            continue
        tasks.append((rel, ref))
    packer = TermPacker()
    received: _Received | None = None
    if pool.jobs() > 1 and len(tasks) >= POOL_THRESHOLD:
        # This process reads its claims from the front in place, its terms packed straight
        # into ``packer`` (in task order); the child's come back as rows, adopted claim after
        # claim in task order after them: the ids of packing every module here, in order.
        results: list[Any] = [None] * len(tasks)
        # a child's claim's first task → its terms, and their ids here when it arrived
        vocabularies: dict[int, tuple[list[str], Any]] = {}

        def front(lo: int, hi: int) -> None:
            results[lo:hi] = [_read_one(files, rel, ref, packer) for rel, ref in tasks[lo:hi]]

        def arrived(lo: int, hi: int, blob: bytes) -> None:
            # made into objects as the child's claims arrive, between this process's own:
            # only the adoption, in task order, is left once the two ends have met
            vocabulary, results[lo:hi] = _from_rows(blob, tasks[lo:hi])
            vocabularies[lo] = vocabulary, packer.known(vocabulary)
        parts = pool.read_shared(len(tasks), _STEP, front, _module_claims, files.spec(), tasks,
                                 room=_ROOM_PER_TASK * len(tasks), arrived=arrived,
                                 # the memos this process filled (a pool worker's went with it)
                                 done=forget_memos)
        start = parts[0][0] if parts else len(tasks)
        received = _Received(tasks, start, len(packer.vocabulary()),
                             [(lo, blob) for lo, _hi, blob in parts], results)
        for lo, hi, _blob in parts:
            _adopt_terms(*vocabularies.pop(lo), results[lo:hi], packer)
    else:
        results = [_read_one(files, rel, ref, packer) for rel, ref in tasks]
    model = CodeModel(source=source, vocabulary=packer.vocabulary())
    if received is not None:
        model.__dict__["_received"] = received
    for (rel, ref), (module, problems) in zip(tasks, results):
        for level, code, message, line in problems:
            (report.error if level == "error" else report.warn)(
                source, message, code=code, file=rel, line=line, object=ref.key())
        if module is not None:
            model.modules.append(module)
    report.sections[f"code {source}"] = summary(model)
    return model


class _Received:
    """What one shared ``read_modules`` read: the tasks in order, the results in task order, and
    for the parse cache (``_cache_form``) the child's rows as sent — ``parts``, (first task's
    index, rows) per claim in task order, from ``start`` on — and the size of the vocabulary
    once this process had packed its share (``tasks[:start]``: the first ``words`` terms).
    The cache file is written from the child's bytes and rows of this process's share made
    there (in the cache's forked writer, off the critical path), not by pickling the parsed
    model: at SSL × 12 that pickle grew the writer's child by 0.5 GB (docs/perf/code.md)."""

    __slots__ = ("tasks", "start", "words", "parts", "results")

    def __init__(self, tasks: list[tuple[str, ModuleRef]], start: int, words: int,
                 parts: list[tuple[int, bytes]], results: list[tuple[Module | None, list]]) -> None:
        self.tasks, self.start, self.words, self.parts, self.results = tasks, start, words, parts, results


def forget_received(model: CodeModel) -> None:
    """Let the child's bytes go (the parse cache has been written, or forked off to be,
    before the link changes the model: ``link._drop_linked``); a later cache write of the model,
    if any, pickles it as it then is."""
    model.__dict__.pop("_received", None)


def _cache_form(model: CodeModel) -> tuple:
    """A code model in a cache file: its modules as their tasks' indexes, with rows of them —
    this process's share made into rows here (by its ids, whose terms are the vocabulary's
    first ``words``), the child's written as sent; restored (``_restored``) the way
    ``read_modules`` makes them — rows to objects, each part's term ids adopted in task order
    — so the model loads back the same. A module not from the read (none today) is pickled as
    usual. Relies on nothing changing a module before this write (the link drops the rows
    before it changes them: ``forget_received``)."""
    received: _Received | None = model.__dict__.get("_received")
    if received is None:
        return model.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    at = {id(m): i for i, (m, _problems) in enumerate(received.results) if m is not None}
    state = model.__getstate__()   # a copy without ``_received`` or ``_index``
    state["modules"] = [at.get(id(m), m) for m in state["modules"]]
    tasks = marshal.dumps([(rel, *ref) for rel, ref in received.tasks])
    own = marshal.dumps(_rows(model.vocabulary[:received.words], received.results[:received.start]))
    # the child's rows are views of the mapping they streamed through: bytes to pickle
    return _restored, (state, tasks, [(0, own), *((lo, bytes(blob)) for lo, blob in received.parts)])


def _restored(state: dict[str, Any], tasks_blob: bytes, parts: list[tuple[int, bytes]]) -> CodeModel:
    tasks = [(rel, ModuleRef(*ref)) for rel, *ref in marshal.loads(tasks_blob)]
    packer = TermPacker()
    modules: list[Module | None] = [None] * len(tasks)
    for (lo, blob), (hi, _) in zip(parts, [*parts[1:], (len(tasks), b"")]):
        vocabulary, out = _from_rows(blob, tasks[lo:hi])
        _adopt_terms(vocabulary, None, out, packer)
        modules[lo:hi] = [m for m, _problems in out]
    if packer.vocabulary() != state["vocabulary"]:   # not this compiler's rows: a miss
        raise ValueError("the cached rows do not give the cached vocabulary")
    state["modules"] = [modules[x] if type(x) is int else x for x in state["modules"]]
    return cache.instance(CodeModel, state)


cache.cache_form(CodeModel, _cache_form)


def _adopt_terms(vocabulary: list[str], known: Any, results: list[tuple[Module | None, list]],
                 packer: TermPacker) -> None:
    """``results``' terms, packed by ``vocabulary``, packed by ``packer`` (``TermPacker.adopt``;
    ``known``: ``packer.known(vocabulary)`` taken earlier, or None)."""
    procs = [p for module, _problems in results if module is not None for p in module.procedures]
    for p, packed in zip(procs, packer.adopt([p.terms for p in procs], vocabulary, known)):  # type: ignore[misc]
        p.terms = packed


def parse(source: Source, report: CompileReport) -> CodeModel:
    """The code domain's parse of a configuration source (the same dump the configuration domain
    reads); owners are checked at link time against that domain's model."""
    try:
        fmt, files = open_source(source.path)
    except (ConfigSourceError, OSError, zipfile.BadZipFile):
        return CodeModel(source=source.name)   # the configuration domain reports why, once
    return read_modules(files, fmt == "edt", source.name, report)


def check_owners(model: CodeModel, cfg: Configuration, report: CompileReport) -> None:
    """Leave out (and report) modules whose object, form or command the configuration lacks."""
    objects, forms, commands = {CONFIGURATION_OWNER}, {}, {}
    for o in cfg.objects:
        objects.add(o.full_name)
        forms[o.full_name] = {f.name for f in o.forms}
        commands[o.full_name] = {c.name for c in o.commands}
    kept = []
    for m in model.modules:
        ref, rel, source = m.ref, m.file, model.source
        if ref.owner not in objects:
            report.error(source, f"module of {ref.owner}, which the configuration does not have "
                                 f"(no metadata object file); left out", code="module-without-object",
                         file=rel, object=ref.owner)
        elif ref.kind == ModuleKind.FORM and ref.child and ref.child not in forms.get(ref.owner, ()):
            report.error(source, f"module of form {ref.child} of {ref.owner}, which has no such form "
                                 f"(its form descriptor is missing); left out",
                         code="form-without-descriptor", file=rel, object=ref.owner)
        elif ref.kind == ModuleKind.COMMAND and ref.child and ref.child not in commands.get(ref.owner, ()):
            report.error(source, f"module of command {ref.child} of {ref.owner}, which has no such "
                                 f"command; left out", code="command-without-descriptor", file=rel,
                         object=ref.owner)
        else:
            kept.append(m)
    model.modules = kept
    model.script_variant = cfg.script_variant
    model.__dict__.pop("_index", None)


def read_code(files: SourceFiles, cfg: Configuration, source: str, report: CompileReport) -> CodeModel:
    """Modules of a dump checked against its configuration (tools and tests: parse + owners)."""
    model = read_modules(files, cfg.format == "edt", source, report)
    check_owners(model, cfg, report)
    return model


def summary(model: CodeModel) -> dict[str, Any]:
    procs = [p for m in model.modules for p in m.procedures]
    return {"modules": len(model.modules), "procedures": len(procs),
            "exported": sum(1 for p in procs if p.export),
            "bytes": sum(m.size for m in model.modules)}


def code_dict(model: CodeModel) -> dict[str, Any]:
    """The procedure model in plain values, format-neutral (no file paths, no bodies), so a
    Designer dump and its EDT twin compare equal (tools/diff_models.py --code)."""
    out: dict[str, Any] = {}
    for m in model.modules:
        procs: dict[str, Any] = {}
        for p in m.procedures:
            key = p.name if p.name not in procs else f"{p.name}#{p.line}"
            procs[key] = {"function": p.is_function, "export": p.export, "directive": p.directive,
                          "async": p.is_async, "region": p.region, "conditions": p.conditions,
                          "params": [[x.name, x.by_value, x.default] for x in p.params],
                          "annotation": [p.annotation.kind, p.annotation.target] if p.annotation else None,
                          "doc": p.info, "lines": p.end_line - p.line,
                          "calls": sorted(p.local_calls), "qualified": sorted(map(list, p.qualified_calls)),
                          "usages": sorted(map(list, p.usages))}
        out[m.ref.key()] = procs
    return out
