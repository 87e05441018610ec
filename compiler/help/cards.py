"""Merged help elements → ``Doc``s (cards, exact names, search fields). Schema: docs/cards-platform.md."""
from __future__ import annotations

from typing import Any

from v8atlas.compiler.documents import PLATFORM, QUERY, Doc

from . import versions as V
from .context_book import GLOBAL_EN, GLOBAL_RU, ElementRecord
from .merge import MergedElement, presence_runs, runs
from .query_book import FUNCTION_KINDS, QueryRecord

CARD_VERSION = 1
QUERY_PREFIX = "Запрос"
QUERY_PREFIX_EN = "Query"


def platform_key(name: str, kind: str = "", *, shared: bool = False, duplicate: int = 0) -> str:
    """``platform/Массив.Найти``; a name two kinds share (property and method ИнтернетПрокси.Пароль)
    gets ``#kind`` on both keys so that each stays addressable; a repeated name of one kind gets
    ``#kind2``, ``#kind3`` on its repeats."""
    if duplicate:
        return f"platform/{name}#{kind}{duplicate + 1}"
    return f"platform/{name}#{kind}" if shared else f"platform/{name}"


def _variants(m: MergedElement, book_versions: list[str]) -> list[dict[str, Any]]:
    """Distinct syntax variants across books, each with since/until in book versions."""
    seen: dict[tuple, int] = {}
    per_book_keys: list[list[tuple]] = []
    protos: list[dict[str, Any]] = []
    for r in m.per_book:
        keys: list[tuple] = []
        if r is not None and r.rec is not None:
            for v in r.rec.variants:
                k = (v.title, v.signature_key(), tuple(r.rec.returns))
                if k not in seen:
                    seen[k] = len(protos)
                    protos.append({"title": v.title, "syntax": v.syntax,
                                   "params": [p.as_dict() for p in v.params],
                                   "description": v.description,
                                   "returns": list(r.rec.returns),
                                   "returns_description": r.rec.returns_description})
                else:   # newer wording of the same variant wins
                    protos[seen[k]].update(syntax=v.syntax, description=v.description,
                                           returns_description=r.rec.returns_description)
                keys.append(k)
        per_book_keys.append(keys)
    def order(k: tuple) -> tuple[int, int]:
        # Variants of the newest book first, in its page order; older-only variants after.
        last = max(i for i, keys in enumerate(per_book_keys) if k in keys)
        return -last, per_book_keys[last].index(k)

    out = []
    for k in sorted(seen, key=order):
        idx = seen[k]
        present = [k in keys for keys in per_book_keys]
        spans = presence_runs(present, book_versions, m.span)
        for b in spans:
            out.append({**protos[idx], **b.as_dict()})
    return out


def _availability(m: MergedElement, book_versions: list[str]) -> list[dict[str, Any]]:
    vals = [(tuple(r.rec.availability), r.rec.availability_note) if r is not None and r.rec else None
            for r in m.per_book]
    return [{"value": list(v[0]), "note": v[1], **b.as_dict()} for v, b in runs(vals, book_versions, m.span)
            if v[0] or v[1]]


def _deprecation(m: MergedElement, book_versions: list[str]) -> list[dict[str, Any]]:
    vals = [(r.rec.deprecated_since, tuple(r.replacement)) if r is not None and r.rec and r.rec.deprecated
            else None for r in m.per_book]
    # the pages the replacement links point to (newest book's), to tell same-named elements apart
    pages = {tuple(r.replacement): list(r.replacement_pages) for r in m.per_book
             if r is not None and r.rec and r.rec.deprecated}
    out = []
    for v, b in runs(vals, book_versions, m.span):
        out.append({"deprecated_since": v[0], "replacement": list(v[1]),
                    "replacement_keys": [platform_key(x) for x in v[1]],
                    "replacement_pages": pages.get(v[1], []),
                    "marked_since": b.since, "until": b.until})
    return out


def platform_doc(m: MergedElement, book_versions: list[str],
                 replacements: dict[str, dict[str, Any]], shared_name: bool = False) -> Doc:
    r: ElementRecord = m.newest
    rec = r.rec
    assert rec is not None
    present_in = m.present_in(book_versions)
    card: dict[str, Any] = {
        "card": "platform", "v": CARD_VERSION, "kind": m.kind, "name": m.name, "name_en": r.name_en,
        "owner": r.owner, "owner_en": r.owner_en, "member": r.member, "member_en": r.member_en,
        "since": m.since, "since_source": m.since_source,
        "since_compat": next((x.rec.since_compat for x in m.per_book if x and x.rec and x.rec.since_compat), None),
        "until": m.until, "present_in": present_in, "books": book_versions,
        "description": rec.description, "generic": r.generic,
        "variants": _variants(m, book_versions),
        "availability": _availability(m, book_versions),
        "deprecated": _deprecation(m, book_versions),
        "changed_in": sorted({c for x in m.per_book if x and x.rec for c in x.rec.changed_in}, key=V.key),
        "see_also": r.see_also,
        "page": r.page,
    }
    if m.extra.get("documented_from"):
        card["documented_from"] = m.extra["documented_from"]
    if m.extra.get("since_mark"):
        card["since_mark"] = m.extra["since_mark"]
    if rec.usage:
        card["usage"] = rec.usage
    if rec.prop_type:
        card["type"] = rec.prop_type
    if rec.collection_of:
        card["collection_of"] = rec.collection_of
    if rec.examples:
        card["examples"] = rec.examples
    if rec.notes:
        card["notes"] = rec.notes
    if rec.members:
        card["members"] = {k: [t for t, _ in v] for k, v in rec.members.items()}
    if rec.enum_values:
        card["values"] = [t for t, _ in rec.enum_values]
    rep = replacements.get(m.name)
    if rep:
        card["older_platforms"] = {"before": rep["since"], "alternatives": rep["alternatives"]}

    names = [m.name]
    if r.name_en:
        names.append(r.name_en)
    if m.kind == "global_context":
        names += [GLOBAL_RU, GLOBAL_EN]
    elif r.member and m.kind != "constructor":
        names.append(r.member)                          # plain "Найти" / "СтрНайти"
        if r.member_en:
            names.append(r.member_en)
    if m.kind.startswith("global_") and r.member:
        names.append(f"{GLOBAL_RU}.{r.member}")
    names = list(dict.fromkeys(n for n in names if n))
    param_names = sorted({p["name"] for v in card["variants"] for p in v["params"]})
    fields = {
        "name": " ".join(x for x in (m.name, r.member) if x),
        "name_en": " ".join(x for x in (r.name_en, r.member_en) if x),
        "owner": " ".join(x for x in (r.owner, r.owner_en) if x),
        "description": "\n".join(x for x in [rec.description, *(v["description"] for v in card["variants"])] if x),
        "params": " ".join(param_names),
    }
    key = platform_key(m.name, m.kind, shared=shared_name, duplicate=m.duplicate)
    return Doc(domain=PLATFORM, key=key, kind=m.kind, title=m.name, card=card, names=names, fields=fields,
               since=V.short(m.since) if m.since else None, until=m.until)


def query_doc(name: str, kind: str, per_book: list[QueryRecord | None], book_versions: list[str],
              curated: dict[str, Any], owned: set[str] | frozenset[str] = frozenset()) -> Doc:
    """``owned``: upper-cased names of the book's keyword/function/operator pages; a section
    whose bare word is not among them is also found by that word (and its English one)."""
    r = next(x for x in reversed(per_book) if x is not None)
    since_entry = curated.get("since", {}).get(r.name.upper()) if kind in FUNCTION_KINDS else None
    present = [x is not None for x in per_book]
    first = present.index(True)
    last = len(present) - 1 - present[::-1].index(True)
    since, since_source = None, None
    if since_entry:
        since, since_source = since_entry["version"], "table"
    # Absent from an older book is no evidence (query books carry no marks): unbounded.
    until = V.short(book_versions[last + 1]) if last < len(present) - 1 else None
    name_en = r.name_en or curated.get("english", {}).get(r.name) or r.page_en
    address = r.name if kind != "article" and kind != "section" else r.title
    key = f"query/{QUERY_PREFIX}.{address}"
    card: dict[str, Any] = {
        "card": "query", "v": CARD_VERSION, "kind": kind, "name": r.name, "name_en": name_en,
        "title": r.title, "title_name": r.title_name, "address": f"{QUERY_PREFIX}.{address}",
        "since": since, "since_source": since_source, "until": until,
        "present_in": [v for v, x in zip(book_versions, per_book) if x is not None],
        "signature": r.signature, "params": r.params, "description": r.description,
        "example": r.example, "body": r.body, "tables": [t.as_dict() for t in r.tables],
        "tables_dropped": r.tables_dropped, "page": r.page,
    }
    if since is None and first > 0:
        card["documented_from"] = V.short(book_versions[first])
    if since_entry and curated.get("since_note"):
        card["since_note"] = curated["since_note"]
    names = [f"{QUERY_PREFIX}.{address}", r.title]
    if kind not in ("article", "section"):
        names += [r.name, r.title_name or "", f"{QUERY_PREFIX}.{r.title_name}" if r.title_name else ""]
        if name_en:
            names += [name_en, f"{QUERY_PREFIX_EN}.{name_en}"]
    elif kind == "section" and r.name and r.name.upper() not in owned:
        names += [r.name, f"{QUERY_PREFIX}.{r.name}"]
        if name_en and name_en.upper() not in owned:
            names += [name_en, f"{QUERY_PREFIX_EN}.{name_en}"]
    names = list(dict.fromkeys(n for n in names if n))
    fields = {"name": " ".join(x for x in (r.name, r.title) if x), "name_en": name_en or "",
              "owner": QUERY_PREFIX, "description": r.description,
              "params": " ".join(p["name"] for p in r.params)}
    return Doc(domain=QUERY, key=key, kind=kind, title=f"{QUERY_PREFIX}.{address}", card=card,
               names=names, fields=fields, since=V.short(since) if since else None, until=until)
