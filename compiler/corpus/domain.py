"""The corpus domain: folders of guides, format specs, standards, code templates and notes.

Declared in ``v8atlas.toml`` (``[[corpus]] source = "docs" kind = "standards"``); each section
of each document becomes a core document (card, title; the first part has the exact name
``<corpus>:<path>``) and an entry of the corpus index (``index.py``), where a document's parts
are consecutive. Sections stay out of the core name and full-text indexes
(``Domain.core_index``): nothing but ``search_docs`` and ``get_doc`` looks them up.
"""
from __future__ import annotations

from typing import Any

from v8atlas.formats import corpus as C
from v8atlas.formats.domain import Domain, Source, SourceKind, TomlKey, TomlTable

from ..documents import Doc
from .index import CorpusSections, IndexedSection, build_index
from .model import Corpus


def _kind(value: Any) -> str | None:
    return None if value in C.KINDS else f"must be one of {', '.join(C.KINDS)}"


def _name(value: Any) -> str | None:
    ok = value and all(ch.isalnum() or ch in "-_." for ch in value)
    return None if ok else "must be letters, digits, '-', '_' or '.'"


CORPUS_SOURCE = SourceKind(
    "corpus", lambda path: None, "a corpus folder declared in v8atlas.toml ([[corpus]])",
    toml_tables=(TomlTable("corpus", (
        TomlKey("kind", (str,), "docs, formats, standards, templates or notes", _kind),
        TomlKey("name", (str,), "how answers name the corpus (default: the folder's name)", _name),
        TomlKey("url", (str,), "base URL of the files, for citations"),
    )),),
    declared_format="folder")


def parse(source: Source, report: Any) -> Corpus:
    from .read import read_corpus   # the readers (lxml.html) only when a corpus is read
    return read_corpus(source, report)


_META_SHOWN = ("description", "platform", "subsystem", "tags")


def link(parsed: list[tuple[Source, Corpus]], ctx: Any) -> None:
    out = CorpusSections()
    seen: dict[str, str] = {}
    files = 0
    for source, corpus in parsed:
        if corpus.name in seen:
            ctx.report.warn(source.name, f"corpus name {corpus.name!r} is also {seen[corpus.name]!r}; "
                            "this one is skipped (set `name` in v8atlas.toml)", code="corpus-duplicate")
            continue
        seen[corpus.name] = source.name
        ci = len(out.corpora)
        sections = 0
        for doc in corpus.documents:
            files += 1
            doc_id = f"{corpus.name}:{doc.rel}"
            meta = {k: doc.meta[k] for k in _META_SHOWN if doc.meta.get(k)}
            n = len(doc.sections)
            for i, s in enumerate(doc.sections):
                key = f"corpus/{doc_id}#{i}"
                title = " › ".join(s.path)
                card = {"corpus": corpus.name, "ckind": corpus.kind, "doc": doc_id, "title": doc.title,
                        "path": s.path, "text": s.text, "part": i, "parts": n, "format": doc.format,
                        **({"url": doc.url} if doc.url else {}), **({"meta": meta} if meta else {})}
                # Only the document is named; its parts follow it in the corpus index (get_doc).
                ctx.docs.append(Doc(C.DOC_DOMAIN, key, corpus.kind, title, card,
                                    names=[doc_id] if i == 0 else []))
                fields = {"title": doc.title, "heading": " ".join(s.path[1:]), "body": s.text}
                if i == 0 and meta.get("description"):
                    fields["description"] = meta["description"] + " " + meta.get("tags", "")
                if s.code:
                    fields["code"] = " ".join(s.code)
                out.sections.append(IndexedSection(key, ci, files, fields))
                sections += 1
        out.corpora.append({"name": corpus.name, "kind": corpus.kind, "documents": len(corpus.documents),
                            "sections": sections})
        ctx.info.setdefault("domains", {}).setdefault("corpus", []).append(
            {"name": corpus.name, "kind": corpus.kind, "source": source.portable or source.name,
             "documents": len(corpus.documents)})
        ctx.counts.setdefault("corpus_bytes", 0)
        ctx.counts["corpus_bytes"] += corpus.bytes_read
    ctx.links.put(out)


DOMAIN = Domain(
    "corpus",
    source_kinds=(CORPUS_SOURCE,),
    reads=("corpus",),
    parse=parse,
    link=link,
    build=build_index,
    provides=(CorpusSections,),
    doc_domains=(C.DOC_DOMAIN,),
    segments=(C.PREFIX,),
    core_index=False,       # ranked in its own index; only a document's id is an exact name
)
