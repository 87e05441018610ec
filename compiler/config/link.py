"""Configuration linker: parsed configurations → metadata documents, relation edges, config info.

``link(parsed_by_kind, ctx)`` reads ``parsed_by_kind["configuration"]`` as (Source,
Configuration) pairs and, for every *view*, appends one ``Doc`` per object and the ``Edge``s
between them:

* a base configuration is a view named after it (``БСП``);
* a base with extensions attached (``[[extension]] base = "БСП"`` in v8atlas.toml, the
  extension's own ``base_name``, or the only base there is) gets a second view
  ``БСП+Расширение`` (``+``-joined extension names) built by ``extensions.overlay``; its
  documents mark what each extension adopted or added and point to the base view's documents
  with ``adopted_from`` edges;
* an extension whose base is not in the compile is a view of its own.

Names: a configuration is called what v8atlas.toml says (source option ``name``), else what
it calls itself. Its platform version is the toml's ``platform``, else the one its
compatibility mode implies. Two sources claiming one name are an error naming both; the
second is skipped.
"""
from __future__ import annotations

import os
import pickle
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from v8atlas.compiler import pool
from v8atlas.compiler.documents import METADATA, Doc, Edge
from v8atlas.compiler.links import ConfigModels
from v8atlas.formats.info import ConfigurationInfo, to_dict
from v8atlas.formats.text import analyze, fold

from . import model as M
from . import words as W
from .cards import add_relation_counts, build_card, full_names
from .confindex import ConfigIndex, as_bool, as_refs, object_ref
from .query_tables import query_tables
from .relations import ADOPTED_FROM, Rel, relations, split_dangling
from .standard import standard_attributes

KIND = "configuration"
MAX_DANGLING_WARNINGS = 20


@dataclass
class View:
    name: str                     # how the bundle addresses it
    cfg: M.Configuration
    source: str                   # source display name(s)
    platform: str
    platform_from: str            # "v8atlas.toml" / "compatibility_mode" / ""
    base_view: str = ""           # base+extensions view: the base view's name
    extensions: list[str] = field(default_factory=list)
    standalone_extension: bool = False
    # base+extensions view: extension name → its source, so a warning about an object the
    # extension brought names the extension's source, not the base's
    origin_sources: dict[str, str] = field(default_factory=dict)
    base_source: str = ""


def doc_key(view: str, path: str) -> str:
    """``БСП/Справочник.Пользователи`` (Russian class words whatever the script variant)."""
    return f"{view}/{W.ref_name(path, W.RU)}"


def _configurations(parsed: list[tuple[Any, Any]]) -> list[tuple[Any, M.Configuration]]:
    out = []
    for source, result in parsed:
        items = result if isinstance(result, (list, tuple)) else [result]
        out += [(source, c) for c in items if isinstance(c, M.Configuration)]
    return out


def _views(pairs: list[tuple[Any, M.Configuration]], ctx: Any) -> list[View]:
    named: dict[str, View] = {}
    wanted_base: dict[str, str] = {}          # extension view → the base it names
    for source, cfg in pairs:
        opts = getattr(source, "options", {}) or {}
        name = str(opts.get("name") or cfg.name or getattr(source, "name", "configuration"))
        if name in named:
            ctx.report.error(getattr(source, "name", name),
                             f"configuration name {name!r} is claimed by two sources: "
                             f"{named[name].source} and {getattr(source, 'name', '?')}; the second is "
                             f"skipped (name one of them in v8atlas.toml: name = \"…\")",
                             code="duplicate-configuration")
            continue
        platform = str(opts.get("platform") or "")
        origin = "v8atlas.toml"
        if not platform:
            platform = cfg.platform_version or M.compatibility_to_platform(cfg.compatibility_mode)
            origin = "compatibility_mode" if platform else ""
        named[name] = View(name, cfg, getattr(source, "name", ""), platform, origin)
        if cfg.is_extension:
            wanted_base[name] = str(opts.get("base") or cfg.base_name or "")
    bases = [v for v in named.values() if not v.cfg.is_extension]
    # A base is named by its view name or by the name the configuration gives itself.
    base_by_name = {b.cfg.name: b for b in bases} | {b.name: b for b in bases}
    attached: dict[str, list[View]] = defaultdict(list)
    for ext_name, wanted in wanted_base.items():
        v = named[ext_name]
        base = base_by_name.get(wanted) if wanted else (bases[0] if len(bases) == 1 else None)
        if base is None:
            ctx.report.warn(v.source, f"extension {v.name!r}: base configuration "
                            f"{wanted or '(not named)'!r} is not among the sources; compiled on its own "
                            f"(attach it with [[extension]] base = \"…\" in v8atlas.toml)",
                            code="extension-without-base")
            v.standalone_extension = True
            continue
        attached[base.name].append(v)
    out: list[View] = []
    for b in bases:
        out.append(b)
        exts = attached.get(b.name, [])
        if exts:
            out.append(_overlay_view(b, exts, ctx))
    out += [v for v in named.values() if v.standalone_extension]
    return out


def _overlay_view(base: View, exts: list[View], ctx: Any) -> View:
    """The base+extensions view (``БСП+Расширение``)."""
    from .extensions import Unmatched, overlay
    problems: list[Unmatched] = []
    merged = overlay(base.cfg, *(e.cfg for e in exts), problems=problems)
    source_of = {id(e.cfg): e.source for e in exts}
    for p in problems:
        # the extension's problem: its source and file are named, not the base's
        ctx.report.warn(source_of[id(p.extension)],
                        f"adopted {p.obj.full_name} has no object in base configuration {base.name!r} "
                        f"(the extension was made for another version of it); its changes to that "
                        f"object are left out", code="adopted-without-base",
                        file=p.obj.source_file or None, object=p.obj.full_name)
    return View("+".join([base.name] + [e.name for e in exts]), merged,
                ", ".join([base.source] + [e.source for e in exts]), base.platform, base.platform_from,
                base_view=base.name, extensions=[e.name for e in exts],
                origin_sources={e.cfg.name: e.source for e in exts}, base_source=base.source)


def _relation_counts(rels: list[Rel]) -> dict[str, dict[str, Any]]:
    """path → {"in"/"out"/"in_weak"/"out_weak" → {kind → n}}, keys sorted. Counted over
    (path, direction, kind) triples in C, then nested: one Python step per distinct triple,
    not per relation (there are hundreds of thousands of relations at ERP scale)."""
    srcs = [r.src for r in rels]
    dsts = [r.dst for r in rels]
    kinds = [r.kind for r in rels]
    outs = ["out_weak" if r.weak else "out" for r in rels]
    ins = ["in_weak" if r.weak else "in" for r in rels]
    triples = Counter(zip(srcs, outs, kinds))
    triples.update(zip(dsts, ins, kinds))
    counts: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for (path, direction, kind), n in triples.items():
        counts[path][direction][kind] = n
    return {path: {k: dict(sorted(c.items())) for k, c in sorted(d.items())} for path, d in counts.items()}


# Presentations a configuration gives an object besides its synonym ("Склады и магазины"):
# searched like the synonym, each a phrase of its own.
PRESENTATIONS = ("list_presentation", "object_presentation", "extended_list_presentation",
                 "extended_object_presentation", "record_presentation", "extended_record_presentation")


def _texts(value: Any) -> list[str]:
    """The texts of a multi-language string (dict lang → text), empty ones left out."""
    return [t for t in (value.values() if isinstance(value, dict) else []) if t and t.strip()]


def subsystem_words(ix: ConfigIndex) -> dict[str, list[str]]:
    """Object path → the synonyms of the user-facing subsystems that contain it, outer ones
    first ("Казначейство" for a bank statement document). Subsystems left out of the command
    interface are technical groupings (СлужебныеПодсистемы) and say nothing about a topic."""
    out: dict[str, list[str]] = {}

    def walk(s: M.MDObject, outer: list[str]) -> None:
        shown = as_bool(s.props.get("include_in_command_interface"))
        words = outer + ([" ".join(dict.fromkeys(_texts(s.synonym))) or s.name] if shown else [])
        for r in as_refs(s.props.get("content")):
            bucket = out.setdefault(object_ref(r), [])
            bucket.extend(w for w in words if w not in bucket)
        for c in s.subsystems:
            walk(c, words)

    for o in ix.cfg.objects:
        if o.cls == "Subsystem":
            walk(o, [])
    return out


def _predefined_names(items: list[M.PredefinedItem]) -> list[str]:
    out: list[str] = []
    for p in items:
        out += [p.name, p.description] if p.description else [p.name]
        out += _predefined_names(p.children)
    return out


def _search_fields(obj: M.MDObject, context: list[str] | None = None) -> dict[str, str]:
    names = [a.name for group in (obj.attributes, obj.dimensions, obj.resources, obj.addressing_attributes,
                                  obj.columns) for a in group]
    for ts in obj.tabular_sections:
        names.append(ts.name)
        names += [a.name for a in ts.attributes]
    out = {"name": obj.name, "class": W.class_search_words(obj.cls)}
    synonyms = list(dict.fromkeys(_texts(obj.synonym)))
    # A presentation that only inflects the synonym ("Реализации товаров" beside "Реализация
    # товаров") adds nothing; one with other words is a phrase of its own ("Склады и магазины").
    phrases = []
    seen: set[str] | None = None   # the synonyms' terms, analysed only if a presentation has text
    for key in PRESENTATIONS:
        for t in _texts(obj.props.get(key)):
            if seen is None:
                seen = {w for s in synonyms for w in analyze(s)}
            terms = set(analyze(t))
            if terms and not terms <= seen:
                phrases.append(t)
                seen |= terms
    if synonyms:
        out["synonym"] = " ".join(synonyms)
    if phrases:
        # the search index files them with the synonym, "|" between phrases
        out["presentation"] = " | ".join(phrases)
    if obj.comment:
        out["comment"] = obj.comment
    if explanation := " ".join(dict.fromkeys(_texts(obj.props.get("explanation")))):
        out["explanation"] = explanation    # filed with the comment
    if names:
        out["attributes"] = " ".join(names)
    # Where the object lives and what it holds: its subsystems' synonyms, its predefined items,
    # the titles of its commands and own forms (generic "Форма …" titles left out).
    ctx = list(context or [])
    ctx += _predefined_names(obj.predefined)
    ctx += [t for c in obj.commands for t in _texts(c.synonym)]
    ctx += [t for f in obj.forms for t in _texts(f.synonym) if not fold(t).startswith("форма")]
    if ctx:
        out["context"] = " ".join(dict.fromkeys(ctx))
    return out


def _warn_dangling(view: View, ix: ConfigIndex, dangling: list[Rel], language: str,
                   reported: set[tuple[str, ...]], ctx: Any) -> None:
    """A warning per reference to an absent object (the first few), naming the referring
    object's own source and file. A base+extensions view repeats none of its base view's:
    what is new there comes from the extensions, and names their sources."""
    base = view.base_view or view.name
    shown = 0
    for r in dangling:
        key = (base, r.src, r.dst, r.kind)
        if key in reported:
            continue
        reported.add(key)
        if shown == MAX_DANGLING_WARNINGS:
            continue
        shown += 1
        obj = ix.objects.get(r.src)
        source = view.base_source or view.source
        if obj is not None and view.base_view:
            owners = [obj.origin] if obj.origin else obj.extended_by
            named = [view.origin_sources[o] for o in owners if o in view.origin_sources]
            source = ", ".join(named) or source
        ctx.report.warn(source, f"{r.src} refers to {r.dst} ({r.kind}), which is not in "
                        f"configuration {view.name!r}", code="dangling-reference",
                        file=(obj.source_file or None) if obj is not None else None,
                        object=W.ref_name(r.src, language))


@dataclass
class _ObjectDocs:
    """What every object's document is made from."""
    view: View
    ix: ConfigIndex
    keys: dict[str, str]
    in_subsystems: dict[str, Any]
    language: str


def _object_doc(path: str, st: _ObjectDocs) -> Doc:
    obj, ix, view = st.ix.objects[path], st.ix, st.view
    std = standard_attributes(obj, ix)
    tables = query_tables(obj, ix)
    card = build_card(obj, path, ix, view.name, std, tables, st.language, extension_view=bool(view.extensions))
    fn = full_names(obj, path)
    names = [fn[W.RU], fn[W.EN], obj.name]
    if card.get("ref_type"):
        names += [card["ref_type"], card["ref_type_alias"]]
    for t in tables:
        names += [t.ru, t.en]
    return Doc(METADATA, st.keys[path], obj.cls, fn[st.language], card, list(dict.fromkeys(names)),
               _search_fields(obj, st.in_subsystems.get(path)), config=view.name)


# Below this many objects the fork (≈ 30 ms) costs more than half the documents take.
_FORK_OBJECTS = 2000
# Documents claimed at a time by either process from the shared range (``_Claims``).
_CLAIM = 32


def _object_docs(paths: list[str], st: _ObjectDocs) -> list[Doc]:
    return [_object_doc(path, st) for path in paths]


class _Claims(pool.Claims):
    """The objects whose documents are not built yet, shared by this process and the forked
    child (``pool.Claims``): this process takes ``_CLAIM`` at a time from the front once its
    relations are done, the child from the back from the start. So the split follows the
    work, whatever the scale: the relations are ≈ 0.3 of the documents' time at SSL × 1 and
    ≈ 0.75 at × 8, where a fixed share (0.8 to the child) left this process waiting ≈ 0.2 s
    at × 1. The documents are the same whoever builds them, and come back in object order."""

    def __init__(self, n: int) -> None:
        super().__init__(n, _CLAIM)


def _docs_from_the_back(paths: list[str], st: _ObjectDocs, claims: _Claims, parent: int
                        ) -> tuple[int, list[bytes] | list[list[Doc]]]:
    """The forked child's part: (first index, its claims' documents, last claim first). In a
    child each claim is pickled as soon as it is built — part of the claimed work, so the
    two ends still meet at the same time and only the bytes are left to send."""
    forked = os.getpid() != parent
    parts: list = []
    first = len(paths)
    for start, end in claims.ranges(front=False):
        docs = _object_docs(paths[start:end], st)
        parts.append(pickle.dumps(docs, protocol=pickle.HIGHEST_PROTOCOL) if forked else docs)
        first = start
    return first, parts


def _claimed_docs(parts: list[bytes] | list[list[Doc]]) -> list[Doc]:
    """``_docs_from_the_back``'s claims in object order."""
    return [d for part in reversed(parts)
            for d in (pickle.loads(part) if isinstance(part, bytes) else part)]


def _docs_from_the_front(paths: list[str], st: _ObjectDocs, claims: _Claims) -> list[Doc]:
    docs: list[Doc] = []
    for start, end in claims.ranges(front=True):
        docs += _object_docs(paths[start:end], st)
    return docs


def link_view(view: View, ctx: Any, reported: set[tuple[str, ...]] | None = None) -> dict[str, Any]:
    """Docs and edges of one view; returns its configuration info for the manifest.
    ``reported``: dangling references already warned about (by the base view)."""
    cfg = view.cfg
    language = W.lang(cfg.script_variant)
    ix = ConfigIndex(cfg)
    keys = {path: doc_key(view.name, path) for path in ix.objects}   # one translation per object
    state = _ObjectDocs(view, ix, keys, subsystem_words(ix), language)
    paths = list(ix.objects)
    # The objects' documents (the link's largest part, linear in the objects) over two
    # processes: a forked child builds them from the back while this process finds the
    # relations, counts them, makes the edges, then builds them from the front until the two
    # meet (``_Claims``). A document needs only the object and the index (its relation counts
    # are put in afterwards), and building it reads the model and never writes it
    # (tests/test_link_fork.py pickles the model before and after), so what later domains read
    # through ConfigModels is the same. The child's documents come back pickled, in order.
    claims = _Claims(len(paths))
    forked = (pool.split_call(_docs_from_the_back, paths, state, claims, os.getpid())
              if len(paths) >= _FORK_OBJECTS else None)
    rels, dangling = split_dangling(relations(ix), ix)
    if dangling and not view.standalone_extension:
        _warn_dangling(view, ix, dangling, language, set() if reported is None else reported, ctx)
    counts_by_path = _relation_counts(rels)
    by_class: Counter = Counter(obj.cls for obj in ix.objects.values())
    ctx.edges += [Edge(keys[r.src], keys[r.dst], r.kind, r.label, r.weak) for r in rels]
    docs = _docs_from_the_front(paths, state, claims)
    if forked is not None:
        first, parts = forked.result()
        if first != len(docs):   # the two ends meet exactly: anything else is a bug here
            raise RuntimeError(f"the link's document split lost objects {len(docs)}..{first}")
        docs += _claimed_docs(parts)
    for path, d in zip(paths, docs):
        add_relation_counts(d.card, counts_by_path.get(path, {}))
    ctx.docs += docs
    adopted = 0
    if view.base_view:
        for path, obj in ix.objects.items():
            if obj.extended_by and not obj.origin:   # a base object (not one an extension added)
                adopted += 1
                ctx.edges.append(Edge(keys[path], doc_key(view.base_view, path), ADOPTED_FROM,
                                      ", ".join(obj.extended_by)))
    return to_dict(ConfigurationInfo(**{
        "name": view.name,
        "configuration_name": cfg.name,
        "synonym": dict(sorted(cfg.synonym.items())),
        "version": cfg.version,
        "vendor": cfg.vendor,
        "platform_version": view.platform,
        "platform_version_from": view.platform_from,
        "compatibility_mode": cfg.compatibility_mode,
        "script_variant": cfg.script_variant,
        "language": language,
        "format": cfg.format,
        "format_version": cfg.format_version,
        "is_extension": cfg.is_extension,
        "name_prefix": cfg.name_prefix,
        "base": view.base_view,
        "extensions": view.extensions,
        "objects": sum(by_class.values()),
        "counts_by_class": {k: n for k, n in sorted(
            by_class.items(), key=lambda kv: (W.CLASS_ORDER.get(kv[0], 999), kv[0]))},
        "relations": len(rels),
        "weak_relations": sum(1 for r in rels if r.weak),
        "dangling_references": len(dangling),
        "adopted_objects": adopted,
    }))


def link(parsed: list[tuple[Any, Any]], ctx: Any) -> None:
    pairs = _configurations(parsed)
    if not pairs:
        return
    views = _views(pairs, ctx)
    reported: set[tuple[str, ...]] = set()
    infos = [link_view(v, ctx, reported) for v in views]
    ctx.info["configurations"] = infos
    ctx.info["config_order"] = [i["name"] for i in infos]
    ctx.links.put(ConfigModels(models={v.name: v.cfg for v in views},
                               platforms={i["name"]: i["platform_version"] for i in infos},
                               by_source={getattr(s, "name", ""): c for s, c in pairs}))
    # Source paths depend on where the compile ran: kept out of the hashed info, here only.
    ctx.counts["configurations"] = {i["name"]: {"source": v.source, "objects": i["objects"],
                                                "relations": i["relations"], "weak_relations": i["weak_relations"]}
                                    for v, i in zip(views, infos)}
