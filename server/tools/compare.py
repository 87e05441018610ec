"""compare_configurations: objects and fields added, removed or changed between two
configurations of the bundle (two versions, or a base and base + extensions)."""
from __future__ import annotations

from typing import Any

import numpy as np

from v8atlas.formats import schema as S

from ..snapshot import ConfigInfo, Snapshot
from .answer import answer, headline, paged
from .common import resolve_config
from .metadata import METADATA, empty_domain
from .render import is_type_value, type_text, value_text
from .result import FOUND, NOT_FOUND, ToolInputError, ToolResult

# Card keys that name the card's place rather than its content.
_IDENTITY_KEYS = {"config", "key", "id", "configuration", "path", "file", "uuid", "source_file", "schema"}
# Card keys derived from the rest of the configuration (relation counts): they change whenever
# any referring object changes, so they are summed up in one line, not listed per object.
_DERIVED_KEYS = {"relations"}
_SECTIONS = ("standard_attributes", "attributes", "dimensions", "resources", "tabular_sections",
             "addressing_attributes", "accounting_flags", "ext_dimension_accounting_flags",
             "columns", "values", "enum_values", "query_tables", "forms", "commands", "templates",
             "predefined")


def _objects(snap: Snapshot, cfg: ConfigInfo) -> dict[str, int]:
    c = snap.catalog
    mask = (np.asarray(c.domain) == c.domains.index(METADATA)) & (np.asarray(c.config) == cfg.index)
    return {c.titles[int(d)]: int(d) for d in np.nonzero(mask)[0]}


def _content(card: Any, top: bool = True) -> Any:
    """The card without identity keys (and, at the top level, without derived relation counts)."""
    if isinstance(card, dict):
        return {k: _content(v, False) for k, v in card.items()
                if k not in _IDENTITY_KEYS and not (top and k in _DERIVED_KEYS)}
    if isinstance(card, list):
        return [_content(x, False) for x in card]
    return card


def _by_name(items: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(items, list):
        for x in items:
            if isinstance(x, dict):
                out[str(x.get("name", len(out)))] = x
            else:
                out[str(x)] = x
    return out


def _field_diff(a: Any, b: Any, prefix: str = "") -> list[str]:
    """Lines describing how two cards differ, section by section."""
    out: list[str] = []
    a = a if isinstance(a, dict) else {}
    b = b if isinstance(b, dict) else {}
    for key in list(dict.fromkeys([*a, *b])):
        if key in _IDENTITY_KEYS or a.get(key) == b.get(key):
            continue
        va, vb = a.get(key), b.get(key)
        if isinstance(va, dict) or isinstance(vb, dict):
            if (va is None or isinstance(va, dict)) and (vb is None or isinstance(vb, dict)) \
                    and not is_type_value(va) and not is_type_value(vb):
                out += _field_diff(va or {}, vb or {}, prefix=f"{prefix}{key}.")
                continue
        if key in _SECTIONS or (isinstance(va, list) and isinstance(vb, list)):
            ma, mb = _by_name(va), _by_name(vb)
            for n in mb.keys() - ma.keys():
                out.append(f"  + {prefix}{key}: `{n}`" + _type_suffix(mb[n]))
            for n in ma.keys() - mb.keys():
                out.append(f"  − {prefix}{key}: `{n}`")
            for n in ma.keys() & mb.keys():
                if ma[n] != mb[n]:
                    xa, xb = ma[n], mb[n]
                    ta, tb = _type_of(xa), _type_of(xb)
                    if ta != tb:
                        out.append(f"  ~ {prefix}{key}: `{n}` type {ta} → {tb}")
                    if isinstance(xa, dict) and isinstance(xb, dict):
                        # name what changed inside the element (its fields, params, properties)
                        inner = _field_diff({k: v for k, v in xa.items() if k != "type"},
                                            {k: v for k, v in xb.items() if k != "type"},
                                            prefix=f"{prefix}{key}.{n}.")
                        out += inner
                        if inner or ta != tb:
                            continue
                    if ta == tb:
                        out.append(f"  ~ {prefix}{key}: `{n}` {_short(xa)} → {_short(xb)}")
        else:
            out.append(f"  ~ {prefix}{key}: {_short(va)} → {_short(vb)}")
    return sorted(out, key=lambda s: (s[2:].split(":")[0], s))


def _type_of(x: Any) -> str:
    return type_text(x.get("type"), True) if isinstance(x, dict) else ""


def _type_suffix(x: Any) -> str:
    t = _type_of(x)
    return f" ({t})" if t else ""


def _short(v: Any) -> str:
    s = "∅" if v in (None, "", [], {}) else value_text(v, shown=5)
    return s if len(s) <= 80 else s[:80] + "…"


def compare_configurations(snap: Snapshot, a: str, b: str, name: str | None = None,
                           cursor: str | None = None) -> ToolResult:
    if (r := empty_domain(snap)) is not None:
        return r
    ca, cb = resolve_config(snap, a), resolve_config(snap, b)
    assert ca is not None and cb is not None
    if ca.name == cb.name:
        raise ToolInputError("bad_argument", "`a` and `b` name the same configuration")
    oa, ob = _objects(snap, ca), _objects(snap, cb)
    args = {"a": ca.name, "b": cb.name, "name": name, "cursor": cursor}
    if name:
        ta = _find_title(snap, oa, name)
        tb = _find_title(snap, ob, name)
        if ta is None and tb is None:
            return answer(NOT_FOUND, f"{name!r} is in neither `{ca.name}` nor `{cb.name}`.", (),
                          {"object": name})
        title = ta or tb
        head = [headline(FOUND, f"`{title}`: `{ca.name}` → `{cb.name}`")]
        if ta is None:
            body = [f"Added in `{cb.name}` (absent from `{ca.name}`)."]
        elif tb is None:
            body = [f"Removed: present in `{ca.name}`, absent from `{cb.name}`."]
        else:
            diff = _field_diff(_content(snap.catalog.card(oa[ta])), _content(snap.catalog.card(ob[tb])))
            body = diff or ["No differences."]
        return paged(snap, "compare_configurations", args, FOUND, head, body, {"object": title})
    added, removed, changed, relations_only = _diff_all(snap, ca, cb, oa, ob)
    head = [headline(FOUND, f"`{ca.name}` → `{cb.name}`: {len(added)} object(s) added, "
                            f"{len(removed)} removed, {len(changed)} changed")
            + ("" if added or removed or changed else " (identical)")
            + (f"; {relations_only} other object(s) differ only in how many objects refer to them "
               f"(relation counts, not listed; `get_relations` shows them)" if relations_only else "")]
    body: list[str] = []
    if added:
        body.append(f"**Added** ({len(added)}):")
        body += [f"- `{t}`" for t in added]
    if removed:
        body.append(f"**Removed** ({len(removed)}):")
        body += [f"- `{t}`" for t in removed]
    if changed:
        body.append(f"**Changed** ({len(changed)}; `name=` shows one object's field diff):")
        for t, lines in changed:
            body.append(f"- `{t}`\n" + "\n".join(lines[:8])
                        + (f"\n  … {len(lines) - 8} more (name=`{t}`)" if len(lines) > 8 else ""))
    return paged(snap, "compare_configurations", args, FOUND, head, body,
                  {"added": len(added), "removed": len(removed), "changed": len(changed),
                   "relations_only": relations_only})


# Diffs of whole configurations, kept per snapshot: paging through a long diff re-asks it.
_CACHE_SIZE = 4


def _derived(card: Any) -> Any:
    return {k: card.get(k) for k in _DERIVED_KEYS} if isinstance(card, dict) else None


def _diff_all(snap: Snapshot, ca: ConfigInfo, cb: ConfigInfo, oa: dict[str, int], ob: dict[str, int]
              ) -> tuple[list[str], list[str], list[tuple[str, list[str]]], int]:
    """Added, removed, changed (with field lines) and the count of objects whose only
    difference is their derived relation counts."""
    cache: dict = snap.__dict__.setdefault("_compare_cache", {})
    key = (ca.name, cb.name)
    if key in cache:
        return cache[key]
    added = sorted(ob.keys() - oa.keys())
    removed = sorted(oa.keys() - ob.keys())
    changed: list[tuple[str, list[str]]] = []
    relations_only = 0
    records = snap.bundle.records(S.DOC_CARDS)
    for t in sorted(oa.keys() & ob.keys()):
        if records.raw(oa[t]) == records.raw(ob[t]):
            continue
        ra, rb = records[oa[t]], records[ob[t]]
        ka, kb = _content(ra), _content(rb)
        if ka != kb:
            changed.append((t, _field_diff(ka, kb)))
        elif _derived(ra) != _derived(rb):
            relations_only += 1
    if len(cache) >= _CACHE_SIZE:
        cache.pop(next(iter(cache)))
    cache[key] = (added, removed, changed, relations_only)
    return cache[key]


def _find_title(snap: Snapshot, objects: dict[str, int], name: str) -> str | None:
    if name in objects:
        return name
    docs = set(snap.catalog.lookup(name))
    for t, d in objects.items():
        if d in docs:
            return t
    return None
