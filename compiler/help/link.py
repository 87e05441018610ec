"""Linker for help books: merge versions, emit documents, report version coverage.

Reads the help sources' parses (``ParsedHelpBook`` per book), merges platform books of all
versions into one document per element (merge.py), adds the query-language documents, and
writes ``report.sections["help"]`` (per configuration: which help version it needs, which book
answers it, what is missing or unused) and ``ctx.info["help"]``.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from v8atlas.formats.info import HelpInfo, to_dict

from ..links import ConfigModels
from . import versions as V
from .plugin import ParsedHelpBook
from .replacements import load_query_language, load_replacements


def link(parsed_all: list[tuple[Any, Any]], ctx: Any) -> None:
    parsed: list[tuple[Any, ParsedHelpBook]] = [
        (s, p) for s, p in parsed_all if isinstance(p, ParsedHelpBook)]
    if not parsed:
        _coverage(ctx, [], [])
        return
    # imported when there are books to merge (a compile without help books does not pay)
    from .cards import platform_doc, query_doc
    from .merge import merge_books
    report = ctx.report

    # Platform books: several books of one version (shcntx + shlang) pool their elements.
    by_version: dict[str, list] = defaultdict(list)
    for _, p in parsed:
        if p.domain == "platform" and p.elements:
            by_version[p.version].extend(p.elements)
    platform_versions: list[str] = []
    if by_version:
        platform_versions, merged = merge_books(
            list(by_version.items()),
            lambda where, msg: report.warn(f"help {where}", msg, code="help-merge"))
        replacements = load_replacements()
        name_count: dict[str, int] = defaultdict(int)
        for m in merged:
            name_count[m.name] += 1
        for m in merged:
            ctx.docs.append(platform_doc(m, platform_versions, replacements, name_count[m.name] > 1))
        ctx.counts["help_platform_elements"] = len(merged)

    # Query books (usually one): merge by (kind, name) the same way.
    q_books = sorted(((p.version, p) for _, p in parsed if p.domain == "query"), key=lambda x: V.key(x[0]))
    query_versions = [v for v, _ in q_books]
    if q_books:
        curated = load_query_language()
        table: dict[tuple[str, str], list] = {}
        for i, (_, p) in enumerate(q_books):
            for r in p.queries:
                slot = table.setdefault((r.kind, r.name if r.kind not in ("article", "section") else r.title),
                                        [None] * len(q_books))
                if slot[i] is None:
                    slot[i] = r
        _english_for_sections(table)
        # A section's bare word (ВЫБРАТЬ of «Предложение ВЫБРАТЬ») names it when no keyword,
        # function or operator page of the book has that name.
        owned = {name.upper() for (kind, name) in table if kind not in ("article", "section")}
        for (kind, _), per_book in table.items():
            ctx.docs.append(query_doc(per_book[-1].name if per_book[-1] else
                                      next(x for x in per_book if x).name, kind, per_book,
                                      query_versions, curated, owned))
        ctx.counts["help_query_elements"] = len(table)

    ctx.info["help"] = {
        "platform_versions": platform_versions,
        "query_versions": query_versions,
        # keyed by the portable name: the hashed info never holds where the compile ran
        "books": {(s.portable or p.source): {"book": p.book, "domain": p.domain, "version": p.version,
                             "version_source": p.version_source, "markup": p.markup,
                             "elements": p.counts.get("elements", 0)}
                  for s, p in parsed},
    }
    _coverage(ctx, platform_versions, [p for _, p in parsed])


def _english_for_sections(table: dict[tuple[str, str], list]) -> None:
    """Sections (SELECTSection) take the English spelling of the keyword of the same name."""
    keyword_en = {name: next((r.name_en for r in rs if r and r.name_en), None)
                  for (kind, name), rs in table.items() if kind == "keyword"}
    for (kind, _), rs in table.items():
        if kind != "section":
            continue
        for r in rs:
            if r is not None:
                ru = r.title.split(" ", 1)[1] if " " in r.title else r.title
                if keyword_en.get(ru):
                    r.name_en = keyword_en[ru]


def served_by(needed: str, loaded: list[str]) -> str | None:
    """The newest loaded book not newer than ``needed`` (release granularity)."""
    need = V.key(V.short(needed))
    older = [v for v in loaded if V.key(V.short(v)) <= need]
    return max(older, key=V.key) if older else None


def _coverage(ctx: Any, platform_versions: list[str], books: list[ParsedHelpBook]) -> None:
    models = ctx.links.get(ConfigModels)
    configs: dict[str, str] = dict(models.platforms) if models else {}
    per_config: dict[str, Any] = {}
    used: set[str] = set()
    for name, platform in sorted(configs.items()):
        entry: dict[str, Any] = {"platform": platform, "needs": V.short(platform) if platform else None}
        if not platform:
            entry["status"] = "unknown-platform"
        elif not platform_versions:
            entry["status"] = "missing"
            entry["hint"] = (f"no platform help loaded; add shcntx_ru.hbk of {V.short(platform)} "
                             f"(e.g. help/{platform}/shcntx_ru.hbk)")
        else:
            book = served_by(platform, platform_versions)
            if book is None:
                book = platform_versions[0]
                entry["status"] = "missing"
                entry["hint"] = (f"every loaded book is newer than {platform}; answers use "
                                 f"{book}. Add the help of {V.short(platform)} for exact answers")
            elif V.short(book) == V.short(platform):
                entry["status"] = "loaded"
            else:
                entry["status"] = "nearest-older"
                entry["hint"] = (f"answers use the {book} book; add the help of {V.short(platform)} "
                                 f"for exact answers")
            entry["served_by"] = book
            used.add(book)
        per_config[name] = entry
    _coverage_warnings(ctx.report, per_config, platform_versions)
    unused = [v for v in platform_versions if v not in used] if configs else []
    # The same coverage in the manifest: list_sources and the dashboard read it from there.
    info = ctx.info.setdefault("help", {"platform_versions": platform_versions, "query_versions": []})
    info["configurations"] = {name: {k: e[k] for k in ("needs", "status", "served_by") if e.get(k)}
                              for name, e in per_config.items()}
    info["missing"] = [_missing_line(name, e) for name, e in per_config.items()
                       if e["status"] in ("missing", "nearest-older", "unknown-platform")]
    info["unused"] = unused
    ctx.info["help"] = to_dict(HelpInfo(**info))      # the declared shape, nothing else
    ctx.report.sections["help"] = {
        "books": [{"source": b.source, "book": b.book, "domain": b.domain, "version": b.version,
                   "version_source": b.version_source, "markup": b.markup,
                   "elements": b.counts.get("elements", 0), "warnings": b.warnings,
                   "counts": b.counts} for b in books],
        "platform_versions_loaded": platform_versions,
        "configurations": per_config,
        "unused_versions": unused,
    }


def _missing_line(name: str, entry: dict[str, Any]) -> str:
    """One plain line per configuration whose help version is not loaded."""
    if entry["status"] == "unknown-platform":
        return f"{name}: platform version unknown"
    served = entry.get("served_by")
    return f"{entry['needs']} for {name}" + (f" (answers use {served})" if served else " (no platform help)")


def _coverage_warnings(report: Any, per_config: dict[str, Any], platform_versions: list[str]) -> None:
    """One line per configuration whose help version is not loaded (shown on stderr with the
    summary); a single line when no platform help is loaded at all."""
    if not per_config:
        return
    if not platform_versions:
        report.warn("help", "no help books loaded: platform answers unavailable", code="help-coverage")
        return
    loaded = ", ".join(platform_versions)
    for name, e in per_config.items():
        if e["status"] == "loaded":
            continue
        if e["status"] == "unknown-platform":
            msg = (f"platform version unknown (set platform = \"8.3.x\" in its [[configuration]]); "
                   f"help loaded: {loaded}")
        elif e["status"] == "nearest-older":
            msg = (f"needs help {e['needs']}, not loaded; answers use the nearest older book "
                   f"{e['served_by']} (loaded: {loaded})")
        else:
            msg = (f"needs help {e['needs']}, not loaded and no older book; answers use the "
                   f"oldest book {e['served_by']}, which may show elements the platform lacks "
                   f"(loaded: {loaded})")
        report.warn(name, msg, code="help-coverage")
