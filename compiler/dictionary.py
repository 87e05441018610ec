"""Search dictionary: synonym groups, per-configuration aliases and query-language search keys.

A source plugin (``KIND = "dictionary"``) for ``dictionary.json`` / ``dictionary.toml`` /
``*.v8dict.json`` beside the sources, and a linker that merges them with the built-in data in
``compiler/search/data/`` (synonyms.json, query_keys.json) and hands the result to
``compiler/search/build.py`` through the ``SearchDictionary`` link. Every rule keeps its origin ("built-in",
or the file it came from) so ``v8atlas dict show`` and the search explanations can name it.

File format (JSON; TOML has the same tables)::

    {"synonyms": [["клиент", "покупатель"], ...],               # or {"words": [...]} objects,
                                                                # optionally "domains": ["metadata"]
     "aliases": [{"phrase": "кто работает в программе",
                  "targets": ["Справочник.Пользователи"], "config": "БСП"}]}
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from v8atlas.formats import schema as S
from v8atlas.formats.text import name_key

from v8atlas.formats.domain import INDEX, Domain, SourceKind, TomlTable

from .documents import QUERY, Doc
from .links import SearchDictionary
from .report import CompileReport

if TYPE_CHECKING:
    from .pipeline import LinkContext
    from .sources import Source

KIND = "dictionary"
FILE_NAMES = ("dictionary.json", "dictionary.toml")
SUFFIX = ".v8dict.json"
DATA_DIR = Path(__file__).parent / "search" / "data"
BUILTIN = "built-in"


@dataclass
class Alias:
    phrase: str
    targets: list[str]           # full names: "Справочник.Пользователи"
    config: str | None = None    # None: every configuration that has the target
    origin: str = BUILTIN


@dataclass
class Dictionary:
    synonyms: list[dict[str, Any]] = field(default_factory=list)   # {"words": [...], "origin": ...}
    aliases: list[Alias] = field(default_factory=list)


# --- source plugin -----------------------------------------------------------------------------

def detect(path: Path) -> str | None:
    if not path.is_file():
        return None
    if path.name in FILE_NAMES or path.name.endswith(SUFFIX):
        return "dictionary-toml" if path.suffix == ".toml" else "dictionary-json"
    return None


def load_file(path: Path) -> dict[str, Any]:
    """The raw tables of a dictionary file; a clear error naming the file when unreadable."""
    try:
        if path.suffix == ".toml":
            with open(path, "rb") as f:
                data = tomllib.load(f)
        else:
            data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{path}: not a readable dictionary ({e})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a dictionary file holds an object with 'synonyms' and 'aliases'")
    return data


def parse(source: "Source", report: CompileReport) -> Dictionary:
    data = load_file(source.path)
    # the origin is stored in the bundle (explanations): its portable name, not where it lay
    return from_tables(data, source.portable or source.name, report)


def from_tables(data: dict[str, Any], origin: str, report: CompileReport | None = None) -> Dictionary:
    """Validate the tables entry by entry: a bad entry is reported and skipped, the rest kept."""
    out = Dictionary()

    def bad(message: str) -> None:
        if report is not None:
            report.warn(origin, message, code="dictionary-entry", file=origin)

    for i, g in enumerate(data.get("synonyms", []) or []):
        words = g.get("words") if isinstance(g, dict) else g
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            bad(f"synonyms[{i}]: expected a list of words, got {g!r}")
            continue
        words = list(dict.fromkeys(w.strip() for w in words))
        if len(words) < 2:
            bad(f"synonyms[{i}]: a group needs at least two words ({words!r})")
            continue
        domains = g.get("domains") if isinstance(g, dict) else None
        if domains is not None and (not isinstance(domains, list) or not domains
                                    or any(d not in S.DOMAINS for d in domains)):
            bad(f"synonyms[{i}]: 'domains' must list some of {', '.join(S.DOMAINS)}, got {domains!r}")
            continue
        out.synonyms.append({"words": words, "origin": origin, "domains": domains})
    for i, a in enumerate(data.get("aliases", []) or []):
        if not isinstance(a, dict):
            bad(f"aliases[{i}]: expected {{phrase, targets, config}}, got {a!r}")
            continue
        phrase, targets, config = a.get("phrase"), a.get("targets"), a.get("config")
        if isinstance(targets, str):
            targets = [targets]
        if not isinstance(phrase, str) or not phrase.strip():
            bad(f"aliases[{i}]: 'phrase' must be a non-empty string")
            continue
        if not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets):
            bad(f"aliases[{i}] ({phrase!r}): 'targets' must list full object names")
            continue
        if config is not None and not isinstance(config, str):
            bad(f"aliases[{i}] ({phrase!r}): 'config' must be a configuration name")
            continue
        out.aliases.append(Alias(phrase.strip(), targets, config or None, origin))
    return out


# --- built-in data -------------------------------------------------------------------------

def builtin_synonyms() -> list[dict[str, Any]]:
    with open(DATA_DIR / "synonyms.json", encoding="utf-8") as f:
        data = json.load(f)
    # Business words (контрагент, номенклатура…) name configuration objects only: through them
    # a platform method "…Клиента" or a query-language page is never a match.
    return ([{"words": g, "origin": BUILTIN, "domains": ["metadata"]} for g in data["business_groups"]]
            + [{"words": g, "origin": BUILTIN, "domains": None} for g in data["groups"]])


def builtin_query_keys() -> dict[str, Any]:
    with open(DATA_DIR / "query_keys.json", encoding="utf-8") as f:
        return json.load(f)


# --- linker -----------------------------------------------------------------------------------

def link(parsed: list[tuple["Source", Any]], ctx: "LinkContext") -> None:
    files = [d for _, d in parsed]
    synonyms = builtin_synonyms() + [g for d in files for g in d.synonyms]
    aliases = _resolve_aliases([a for d in files for a in d.aliases], ctx)
    ctx.links.put(SearchDictionary(synonyms=synonyms, aliases=aliases))
    keys_bound = _bind_query_keys(ctx)
    ctx.counts["dictionary"] = {"synonym_groups": len(synonyms),
                                "aliases": len(aliases),
                                "query_keys": keys_bound}


def _add_field(doc: Doc, name: str, text: str) -> None:
    doc.fields[name] = f"{doc.fields[name]} | {text}" if doc.fields.get(name) else text


def _resolve_aliases(aliases: list[Alias], ctx: "LinkContext") -> list[dict[str, Any]]:
    """Targets resolve by full name within the alias's configuration; a missing one is a warning."""
    if not aliases:   # no dictionary: no need for the name table (a name key per name of every object)
        return []
    by_name: dict[str, list[Doc]] = {}
    for d in ctx.docs:
        if d.domain != "metadata":
            continue
        for nm in {d.title, d.key, *d.names}:
            if nm:
                by_name.setdefault(name_key(nm), []).append(d)
    out = []
    for a in aliases:
        keys: list[str] = []
        for target in a.targets:
            found = [d for d in by_name.get(name_key(target), [])
                     if a.config is None or d.config == a.config]
            if not found:
                where = f" in configuration {a.config!r}" if a.config else ""
                ctx.report.warn(a.origin, f"alias {a.phrase!r}: no object {target!r}{where}; "
                                "the alias is not used for it", code="alias-missing-object",
                                file=a.origin, object=target)
                continue
            for d in found:
                if d.key not in keys:
                    keys.append(d.key)
                    _add_field(d, "alias", a.phrase)
        if keys:
            out.append({"phrase": a.phrase, "keys": keys, "config": a.config, "origin": a.origin})
    return out


def _page_ids(doc: Doc) -> set[str]:
    """The ways a query-language document can be named by the keys file: page id or name."""
    ids = {doc.title, *doc.names, doc.key.rsplit("/", 1)[-1]}
    card = doc.card if isinstance(doc.card, dict) else {}
    for k in ("page", "page_id", "name", "title_name"):
        v = card.get(k)
        if isinstance(v, str):
            ids.add(v)
            ids.add(v.removesuffix(".html"))
    return {name_key(i) for i in ids if i}


def _bind_query_keys(ctx: "LinkContext") -> int:
    """Attach the search keys to query-language pages (search field only, never the card)."""
    query_docs = [d for d in ctx.docs if d.domain == QUERY]
    if not query_docs:
        return 0   # no query book loaded: nothing to bind, nothing to report
    data = builtin_query_keys()
    index: dict[str, list[Doc]] = {}
    for d in query_docs:
        for i in _page_ids(d):
            index.setdefault(i, []).append(d)
    bound = 0
    missing: list[str] = []
    for page, entry in data["pages"].items():
        docs = index.get(name_key(page)) or index.get(name_key(entry.get("name", ""))) or []
        if not docs:
            missing.append(page)
            continue
        # A page id is one page; a bare name may be shared (ВЫБРАТЬ keyword and section):
        # prefer the document whose page id matches.
        exact = [d for d in docs if name_key(page) in _page_ids(d)]
        for d in (exact or docs)[:1]:
            _add_field(d, "keys", " | ".join(entry["keys"]))
            bound += len(entry["keys"])
    if len(missing) * 2 <= len(data["pages"]):
        # A full book that lacks a keyed page: each one is worth a look (renamed? removed?).
        for page in missing:
            entry = data["pages"][page]
            ctx.report.warn("query_keys.json", f"search keys for page {page!r} ({entry.get('name')}): "
                            "the loaded query-language book has no such page",
                            code="query-key-missing-page", object=page)
    elif missing:
        # Most pages absent: a partial or sample book, not a data problem. One line, not dozens.
        ctx.report.note_unknown("query_keys.json", "search-key pages not in the loaded (partial) "
                                "query-language book", where=", ".join(missing[:8]))
        for _ in missing[1:]:
            ctx.report.note_unknown("query_keys.json", "search-key pages not in the loaded (partial) "
                                    "query-language book")
    return bound


DICTIONARY_SOURCE = SourceKind("dictionary", detect, "a dictionary (dictionary.json/.toml)",
                               toml_tables=(TomlTable("dictionary"),))
# An index domain: it adds search data to the documents the model domains made.
DOMAIN = Domain("dictionary", source_kinds=(DICTIONARY_SOURCE,), reads=("dictionary",), parse=parse,
                link=link, stage=INDEX, provides=(SearchDictionary,))
