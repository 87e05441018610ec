"""search_platform and get_platform: the built-in language and the query language, for the
platform version of the configuration asked about."""
from __future__ import annotations

import re
from typing import Any

from v8atlas.formats.platform_version import UNBOUNDED_UNTIL, encode_version, format_version

from v8atlas.formats.domain import ServePart

from ..search_adapter import Filters
from ..snapshot import ConfigInfo, Snapshot
from . import answer as A
from .code import library_function
from .common import node, resolve_config
from .metadata import candidates, nearest
from .render import text_of, type_text
from .result import FOUND, NOT_FOUND, UNAVAILABLE, ToolInputError, ToolResult
from .spec import CONFIG, CURSOR, LIMIT, Param, ToolSpec

SCOPES = {"all": ("platform", "query"), "platform": ("platform",), "query": ("query",)}


def _no_help(snap: Snapshot, domains: tuple[str, ...]) -> ToolResult | None:
    if sum(snap.docs_per_domain.get(d, 0) for d in domains) == 0:
        what = "query-language help" if domains == ("query",) else "platform help"
        return A.unavailable(f"no {what} is loaded in bundle `{snap.id}`; compile the .hbk books "
                             "(shcntx_ru.hbk, shquery_ru.hbk) with the configuration.",
                             {"reason": "no_help"})
    return None


def _version_for(cfg: ConfigInfo | None) -> tuple[int | None, str]:
    if cfg is None:
        return None, "all platform versions (no configuration loaded)"
    code = cfg.platform_code
    if code is None:
        return None, f"all platform versions (the platform version of `{cfg.name}` is unknown)"
    return code, f"platform {format_version(code)} of `{cfg.name}`"


def _asked_version(version: str) -> tuple[int, str]:
    code = encode_version(version, 0)
    if not code:
        raise ToolInputError("bad_argument", f"`version` must be a platform version like 8.3.27, "
                                             f"got {version[:40]!r}")
    return code, f"platform {format_version(code)}"


def _bounds(snap: Snapshot, doc: int) -> str:
    since, until = int(snap.catalog.since[doc]), int(snap.catalog.until[doc])
    parts = []
    if since:
        parts.append(f"since {format_version(since)}")
    if until != UNBOUNDED_UNTIL:
        parts.append(f"removed in {format_version(until)}")
    return ", ".join(parts)


def search_platform(snap: Snapshot, query: str, config: str | None = None, scope: str = "all",
                    limit: int = 10) -> ToolResult:
    domains = SCOPES[scope]
    if (r := _no_help(snap, domains)) is not None:
        return r
    cfg = resolve_config(snap, config)
    code, for_what = _version_for(cfg)
    found = snap.search.find(query, Filters(domains=domains), limit * 3)
    hits = found.hits
    shown = [h for h in hits if snap.available(h.doc, code)][:limit]
    elsewhere = [h for h in hits if not snap.available(h.doc, code)][:5]
    data = {"other_versions": [node(snap, h.doc) for h in elsewhere],
            "version": format_version(code) if code else None, **found.as_data()}
    if not shown:
        lines = found.explain_lines()
        if elsewhere:
            lines.append("Exists only on other platform versions:")
            lines += [f"- `{snap.title(h.doc)}` ({_bounds(snap, h.doc)})" for h in elsewhere]
        return A.answer(NOT_FOUND, f"nothing for {query!r} on {for_what}.", lines, {"hits": [], **data})
    guesses = found.guesses_only or all(h.fuzzy for h in shown)
    if guesses:
        lines = [A.headline(NOT_FOUND, f"no confident match for {query!r} on {for_what}; "
                            "nearest guesses (not matches; check before use):")]
    else:
        lines = [A.headline(FOUND, f"{len(shown)} element(s) for {query!r} on {for_what}; "
                            "ask `get_platform` with the exact name:")]
    lines += found.explain_lines()
    hit_data = []
    for i, h in enumerate(shown, 1):
        b = _bounds(snap, h.doc)
        dom = snap.catalog.domain_name(h.doc)
        lines.append(f"{i}. `{snap.title(h.doc)}` · {snap.catalog.kind_name(h.doc)}"
                     f"{' · query language' if dom == 'query' else ''}{f' · {b}' if b else ''}"
                     f"{' · guess' if h.fuzzy and not guesses else ''} · why: {h.why or 'text match'}")
        hit_data.append({**node(snap, h.doc), "score": round(h.score, 4), "why": h.why,
                         "matches": list(h.matches), "fuzzy": h.fuzzy})
    if elsewhere:
        lines.append("Not on this platform version: " + ", ".join(
            f"`{snap.title(h.doc)}` ({_bounds(snap, h.doc)})" for h in elsewhere))
    return ToolResult(NOT_FOUND if guesses else FOUND, "\n".join(lines) + "\n", {"hits": hit_data, **data})


def get_platform(snap: Snapshot, name: str, config: str | None = None, cursor: str | None = None,
                 version: str | None = None) -> ToolResult:
    domains = SCOPES["all"]
    if (r := _no_help(snap, domains)) is not None:
        return r
    cfg = resolve_config(snap, config)
    code, for_what = _version_for(cfg) if not version else _asked_version(version)
    docs = candidates(snap, _strip_call(name), domains, None)
    here = [d for d in docs if snap.available(d, code)]
    args = {"name": name, "config": cfg.name if cfg else None, "cursor": cursor}
    if len(here) == 1:
        doc = here[0]
        card = snap.catalog.card(doc)
        head, body = platform_blocks(snap, doc, card if isinstance(card, dict) else {"value": card}, code)
        head[0] = A.headline(FOUND, f"{head[0]} · for {for_what}")
        if (mismatch := _arity_note(name, card if isinstance(card, dict) else {}, code)):
            head.append(mismatch)
        others = [d for d in docs if d != doc]
        if others:
            head.append("Same name, not on this platform: " + ", ".join(f"`{snap.title(d)}`" for d in others))
        return A.paged(snap, "get_platform", args, FOUND, head, body, {"element": node(snap, doc)})
    if len(here) > 1:
        return A.ambiguous(f"{name!r} names {len(here)} elements on {for_what}; ask again with one "
                           "of these exact addresses:", here,
                           lambda d: _element_line(snap, d, mark_query=True), lambda d: node(snap, d))
    if docs:
        return A.answer(UNAVAILABLE, f"{name!r} does not exist on {for_what}:",
                        [x for d in docs for x in unavailable_lines(snap, d, code, cfg.name if cfg else None)],
                        {"candidates": [node(snap, d) for d in docs],
                         "version": format_version(code) if code else None})
    guesses = [d for d in nearest(snap, _strip_call(name), domains, None, version=code, limit=8)
               if snap.available(d, code)][:5]
    return A.not_found(f"no element named {name!r}.", guesses,
                       lambda d: _element_line(snap, d), lambda d: node(snap, d))


def _element_line(snap: Snapshot, doc: int, mark_query: bool = False) -> str:
    query = mark_query and snap.catalog.domain_name(doc) == "query"
    return f"- `{snap.title(doc)}` · {snap.catalog.kind_name(doc)}{' · query language' if query else ''}"


def _strip_call(name: str) -> str:
    """`Массив.Найти(Значение)` → `Массив.Найти`; `Новый Массив(3)` → `Массив` (cards-platform.md)."""
    name = name.strip()
    if "(" in name:
        name = name.split("(", 1)[0].strip()
    for prefix in ("Новый ", "New ", "новый ", "new "):
        if name.startswith(prefix):
            name = name[len(prefix):].strip()
    return name


def _call_arity(name: str) -> int | None:
    """Arguments in a call form (`Массив.Найти(Значение, Другое)` → 2); None without one.
    Commas inside nested brackets or string literals do not count."""
    start = name.find("(")
    if start < 0:
        return None
    inner, depth, quote, count, seen = name[start + 1:], 0, False, 1, False
    for ch in inner:
        if ch == '"':
            quote = not quote
        elif quote:
            pass
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
            continue
        if not ch.isspace():
            seen = True
    return count if seen or count > 1 else 0


def _arity_note(name: str, card: dict[str, Any], code: int | None) -> str | None:
    """One line when the call form's argument count fits no syntax variant of this version."""
    n = _call_arity(name)
    variants = [v for v in card.get("variants") or [] if isinstance(v, dict) and _in_version(v, code)]
    if n is None or not variants or name.strip().lower().startswith(("новый ", "new ")):
        return None
    takes = []
    for v in variants:
        params = [p for p in v.get("params") or [] if isinstance(p, dict)]
        required = sum(1 for p in params if p.get("required") is not False and not p.get("variadic"))
        most = _most_arguments(params)
        if required <= n and (most is None or n <= most):
            return None
        top = "…" if most is None else str(most)
        takes.append(f"{required}" if str(required) == top else f"{required}–{top}")
    return (f"Note: the call form passes {n} argument(s); the variant(s) of this version take "
            f"{', '.join(dict.fromkeys(takes))}.")


_NUMBERED_RANGE = re.compile(r"(\d+)\s*[-–—]\s*\D*?(\d+)$")   # Значение1-Значение10


def _most_arguments(params: list[dict[str, Any]]) -> int | None:
    """How many arguments a variant takes at most; None when a repeated parameter has no bound.
    A repeated parameter named as a numbered range (``Значение1-Значение10``) takes that many."""
    most = 0
    for p in params:
        if not p.get("variadic"):
            most += 1
            continue
        m = _NUMBERED_RANGE.search(str(p.get("name") or ""))
        if m is None:
            return None
        most += int(m.group(2)) - int(m.group(1)) + 1
    return most


def _code(v: str | None, default: int) -> int:
    return encode_version(v, default) if v else default


def _in_version(item: dict[str, Any], code: int | None, since_key: str = "since") -> bool:
    if code is None:
        return True
    return _code(item.get(since_key), 0) <= code < _code(item.get("until"), UNBOUNDED_UNTIL)


def _linked(snap: Snapshot, name: str, page: str | None, code: int | None) -> str:
    """An element a page links to ("see also", "use instead"): resolved through the linked page
    when several elements share the name, named so it can be asked for, and marked when it is
    not on this platform version."""
    docs = candidates(snap, name, ("platform",), None)
    if page and len(docs) > 1:
        docs = [d for d in docs if (snap.catalog.card(d) or {}).get("page") == page] or docs
    if len(docs) != 1:
        return f"`{name}`"
    doc = docs[0]
    title = snap.title(doc)
    text = f"`{title}`"
    if len(candidates(snap, title, ("platform",), None)) > 1:
        text += f" ({snap.catalog.kind_name(doc)})"     # the same name is also another element
    if code is not None and not snap.available(doc, code):
        text += f" (not on platform {format_version(code)}: {_bounds(snap, doc) or 'other versions only'})"
    return text


def _replacements(snap: Snapshot, dep: dict[str, Any], code: int | None) -> str:
    names = [x for x in dep.get("replacement") or [] if x]
    pages = list(dep.get("replacement_pages") or [])
    return ", ".join(_linked(snap, n, pages[i] if i < len(pages) else None, code) for i, n in enumerate(names))


def _param_line(p: Any) -> str:
    if not isinstance(p, dict):
        return f"  - {p}"
    required = p.get("required")
    if required is None and "optional" in p:
        required = not p["optional"]
    types = type_text(p.get("types") or p.get("type"), True)
    desc = text_of(p.get("description"))
    extra = []
    if required is False:
        extra.append("optional")
    if p.get("default") not in (None, ""):
        extra.append(f"default {p['default']}")
    if p.get("variadic"):
        extra.append("repeated")
    return (f"  - `{p.get('name', '?')}`" + (f" ({', '.join(extra)})" if extra else "")
            + (f": {types}" if types else "") + (f" — {desc}" if desc else ""))


def _alternatives(card: dict[str, Any], snap: Snapshot | None = None, config: str | None = None) -> list[str]:
    """Curated ways to do the same on older platforms, each with its caveat. A configuration
    library's function (kind ``bsp``) is offered only when that configuration has it, when the
    bundle's code index can tell (server/tools/code.py ``library_function``)."""
    older = card.get("older_platforms") or {}
    out = []
    for alt in older.get("alternatives") or []:
        if isinstance(alt, dict):
            if alt.get("kind") == "bsp" and snap is not None and alt.get("name"):
                present = library_function(snap, config, str(alt["name"]))
                if present is False:
                    out.append(f"  - (`{alt['name']}` is not in configuration `{config}`: not offered)")
                    continue
            out.append(f"  - {alt.get('kind', 'alternative')}: `{alt.get('name') or alt.get('call') or '?'}`"
                       + (f" — call: `{alt['call']}`" if alt.get("call") and alt.get("name") else "")
                       + (f" — caveat: {alt['caveat']}" if alt.get("caveat") else ""))
    legacy = card.get("replacement")            # older fixture form
    if legacy and not out:
        out.append("  - " + _replacement(legacy))
    return out


def _replacement(r: Any) -> str:
    if isinstance(r, dict):
        target = r.get("name") or r.get("title") or r.get("replacement") or "?"
        caveat = text_of(r.get("caveat") or r.get("note"))
        return f"`{target}`" + (f" — caveat: {caveat}" if caveat else "")
    if isinstance(r, list):
        return "; ".join(_replacement(x) for x in r)
    return f"`{r}`"


def unavailable_lines(snap: Snapshot, doc: int, code: int | None, config: str | None = None) -> list[str]:
    """Why an element is not on platform ``code`` and what to use instead."""
    card = snap.catalog.card(doc)
    card = card if isinstance(card, dict) else {}
    since, until = int(snap.catalog.since[doc]), int(snap.catalog.until[doc])
    lines = []
    if code is not None and since and code < since:
        by = "by" if card.get("since_source") == "books" else "in"
        lines.append(f"- `{snap.title(doc)}`: appeared {by} {format_version(since)}")
        alts = _alternatives(card, snap, config)
        if alts:
            lines.append("  on older platforms instead:")
            lines += alts
    elif code is not None and until != UNBOUNDED_UNTIL and code >= until:
        lines.append(f"- `{snap.title(doc)}`: no longer documented from {format_version(until)}")
        for dep in card.get("deprecated") or []:
            if isinstance(dep, dict) and dep.get("replacement"):
                lines.append(f"  use instead: {_replacements(snap, dep, code)}")
    else:
        lines.append(f"- `{snap.title(doc)}`: {_bounds(snap, doc) or 'other versions only'}")
    return lines


def platform_blocks(snap: Snapshot, doc: int, card: dict[str, Any], code: int | None
                    ) -> tuple[list[str], list[str]]:
    title = snap.title(doc)
    kind = snap.catalog.kind_name(doc)
    en = card.get("name_en")
    dom = snap.catalog.domain_name(doc)
    head = [f"`{title}`" + (f" / `{en}`" if en and en != title else "") + f" · {kind}"
            + (" · query language" if dom == "query" else "")]
    body: list[str] = []
    facts = []
    since = card.get("since")
    if since:
        by = "by" if card.get("since_source") == "books" else "since"
        facts.append(f"{by} {since}"
                     + (f" (the page's mark says {card['since_mark']})" if by == "by" and card.get("since_mark") else "")
                     + (f" (compatibility mode {card['since_compat']})" if card.get("since_compat") else ""))
    elif int(snap.catalog.since[doc]):
        facts.append(f"since {format_version(int(snap.catalog.since[doc]))}")
    elif card.get("documented_from"):
        # not a bound (cards-platform.md): an older book simply does not describe it
        facts.append(f"no version mark; documented in help {card['documented_from']}+")
    if card.get("until"):
        facts.append(f"not documented from {card['until']}")
    if card.get("changed_in"):
        facts.append("description changed in " + ", ".join(map(str, card["changed_in"])))
    if card.get("since_note"):
        facts.append(text_of(card["since_note"]))
    if facts:
        body.append("Versions: " + "; ".join(facts))
    body += _deprecation_lines(snap, card, code)
    if card.get("replacement") and not card.get("older_platforms"):
        body.append("Use instead: " + _replacement(card["replacement"]))
    desc = text_of(card.get("description"))
    body_parts = card.get("body")
    if isinstance(body_parts, list) and body_parts:
        body += _query_body(card)
    else:
        if card.get("signature"):
            body.append(f"**Syntax**: `{card['signature']}`")
        if desc:
            body += [p for p in desc.split("\n\n") if p.strip()]
    variants = card.get("variants")
    if isinstance(variants, list) and variants:
        here = [v for v in variants if not isinstance(v, dict) or _in_version(v, code)]
        note = ""
        if not here:
            first = min(variants, key=lambda v: _code(v.get("since"), 0) if isinstance(v, dict) else 0)
            here = [v for v in variants if isinstance(v, dict)
                    and v.get("since") == (first.get("since") if isinstance(first, dict) else None)] or [first]
            note = "; from the oldest book that documents it (newer than this platform)"
        hidden = len(variants) - len(here)
        body.append(f"**Syntax** ({len(here)} variant(s)"
                    + (f"; {hidden} of other platform versions hidden" if hidden else "") + note + "):")
        for v in here:
            body += _variant_blocks(v)
    params = card.get("params") or card.get("parameters")
    if isinstance(params, list) and params and not variants and not body_parts:
        body.append("**Parameters:**")
        body += [_param_line(p) for p in params]
    ret = card.get("returns") or card.get("return")
    if ret and not variants:
        body.append("**Returns:** " + _returns(ret, card.get("returns_description")))
    if card.get("usage"):
        body.append(f"Usage: {card['usage'].replace('_', ' ')}")
    if card.get("type") and kind in ("property", "global_property", "enum_value"):
        body.append(f"Type: {type_text(card['type'], True)}")
    if card.get("collection_of"):
        body.append(f"Collection of: {type_text(card['collection_of'], True)}")
    avail = card.get("availability")
    if isinstance(avail, list) and avail:
        here_av = [a for a in avail if not isinstance(a, dict) or _in_version(a, code)]
        for a in here_av:
            body.append("**Availability:** " + _availability_text(a, with_bounds=code is None))
    elif isinstance(avail, str) and avail:
        body.append(f"**Availability:** {avail}")
    members = card.get("members")
    if isinstance(members, dict):
        for group, names in members.items():
            body.append(f"**{group}** ({len(names)}): " + ", ".join(map(str, names)))
    if card.get("values"):
        body.append(f"**Values** ({len(card['values'])}): " + ", ".join(map(str, card["values"])))
    alts = _alternatives(card) if card.get("older_platforms") else []
    if alts:
        before = (card.get("older_platforms") or {}).get("before")
        body.append(f"On platforms before {before}:" if before else "On older platforms:")
        body += alts
    notes = card.get("notes") or card.get("note")
    for n in (notes if isinstance(notes, list) else [notes] if notes else []):
        body.append(f"Note: {text_of(n)}")
    ex = card.get("examples") or card.get("example")
    if ex and not body_parts:
        exs = ex if isinstance(ex, list) else [ex]
        body.append("**Example:**")
        body += ["```bsl\n" + text_of(e).strip() + "\n```" for e in exs]
    if card.get("see_also"):
        body.append("See also: " + ", ".join(
            _linked(snap, str(s.get("name") or s.get("title")), s.get("page"), code) if isinstance(s, dict)
            else f"`{s}`" for s in card["see_also"]))
    if card.get("present_in"):
        body.append("Documented in help " + ", ".join(map(str, card["present_in"])))
    # A key this renderer does not know is skipped, never dumped (cards-platform.md, "Rendering").
    return head, body


def _deprecation_lines(snap: Snapshot, card: dict[str, Any], code: int | None) -> list[str]:
    """⚠ lines for the deprecation marks in force at ``code``: a mark applies from its
    ``deprecated_since`` (else ``marked_since``) on, so an older platform is not warned."""
    out = []
    for dep in card.get("deprecated") or []:
        if not isinstance(dep, dict):
            continue
        start = dep.get("deprecated_since") or dep.get("marked_since")
        if code is not None and not (_code(start, 0) <= code < _code(dep.get("until"), UNBOUNDED_UNTIL)):
            continue
        line = f"⚠ Not recommended since {start}" if start else "⚠ Not recommended"
        if dep.get("replacement"):
            line += f"; use {_replacements(snap, dep, code)}"
        if code is None and dep.get("until"):
            line += f" (mark until {dep['until']})"
        out.append(line)
    return out


def _availability_text(a: Any, with_bounds: bool) -> str:
    """An availability entry as text: its tokens, its note, and (all versions) its bounds."""
    if not isinstance(a, dict):
        return text_of(a) if not isinstance(a, list) else ", ".join(map(text_of, a))
    tokens = a.get("value")
    tokens = tokens if isinstance(tokens, list) else [tokens] if tokens else []
    out = ", ".join(text_of(t) for t in tokens if t)
    if a.get("note"):
        out += f". {text_of(a['note'])}"
    if with_bounds and (a.get("since") or a.get("until")):
        out += f" ({_vbounds(a).strip(' ()')})"
    return out or "(not stated)"


def _query_body(card: dict[str, Any]) -> list[str]:
    """A query-language page in its own order, tables in place."""
    out: list[str] = []
    tables = card.get("tables") or []
    for part in card.get("body") or []:
        if not isinstance(part, dict):
            continue
        if "p" in part:
            out.append(("> " if part.get("quote") else "") + text_of(part["p"]))
        elif "pre" in part:
            out.append("```\n" + text_of(part["pre"]) + "\n```")
        elif "table" in part and isinstance(part["table"], int) and part["table"] < len(tables):
            out += _table_blocks(tables[part["table"]])
    if card.get("tables_dropped"):
        out.append("(the page's tables could not be read from the help book and are left out)")
    return out


def _returns(ret: Any, description: Any = None) -> str:
    if isinstance(ret, dict):
        t = type_text(ret.get("types") or ret.get("type"), True)
        d = text_of(ret.get("description"))
        return (t or "") + (f" — {d}" if d else "")
    t = type_text(ret, True)
    d = text_of(description)
    return t + (f" — {d}" if d else "")


def _variant_blocks(v: Any) -> list[str]:
    if not isinstance(v, dict):
        return [f"- `{v}`"]
    params = v.get("params") or v.get("parameters") or []
    sig = v.get("syntax") or v.get("signature")
    name = v.get("title") or v.get("name") or ""
    out = [f"- {name + ': ' if name and sig else ''}`{sig or name}`" + _vbounds(v)]
    out += [_param_line(p) for p in params]
    ret = v.get("returns") or v.get("return")
    if ret:
        out.append("  returns: " + _returns(ret, v.get("returns_description")))
    if v.get("description"):
        out.append("  " + text_of(v["description"]))
    return ["\n".join(out)]


def _vbounds(v: dict[str, Any]) -> str:
    parts = []
    if v.get("since"):
        parts.append(f"since {v['since']}")
    if v.get("until"):
        parts.append(f"until {v['until']}")
    return f" ({', '.join(parts)})" if parts else ""


def _table_blocks(t: Any) -> list[str]:
    """A help table: a markdown table, a syntax diagram as a code block, nested tables after it."""
    if isinstance(t, dict) and t.get("diagram"):
        rows = t.get("rows") or []
        return ["```\n" + "\n".join(" ".join(text_of(c) for c in (r if isinstance(r, list) else [r]))
                                     for r in rows) + "\n```"]
    out = [_table_md(t)]
    nested = t.get("nested") if isinstance(t, dict) else None
    rows = t.get("rows") if isinstance(t, dict) else None
    for n in nested if isinstance(nested, list) else []:
        if not isinstance(n, dict) or not isinstance(n.get("table"), (dict, list)):
            continue
        where = ""
        if isinstance(rows, list) and isinstance(n.get("row"), int) and n["row"] < len(rows) and rows[n["row"]]:
            where = f" (row `{text_of(rows[n['row']][0])}`)"
        out.append(f"Nested table{where}:\n" + _table_md(n["table"]))
    return out


def _table_md(t: Any) -> str:
    rows = t.get("rows") if isinstance(t, dict) else t
    if not isinstance(rows, list) or not rows:
        return "(empty table)"
    cells = [[text_of(c).replace("|", "\\|").replace("\n", " ") for c in (r if isinstance(r, list) else [r])]
             for r in rows]
    width = max(len(r) for r in cells)
    cells = [r + [""] * (width - len(r)) for r in cells]
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in cells[1:]]
    return "\n".join(lines)


SERVE = ServePart("help", tools=(
    ToolSpec("search_platform", "Search platform",
             "Find built-in language and query-language elements by words, for the configuration's "
             "platform version.",
             (Param("query", "string", required=True), CONFIG,
              Param("scope", "string", default="all", enum=("all", "platform", "query")), LIMIT),
             search_platform),
    ToolSpec("get_platform", "Get platform element",
             "A platform or query-language element by exact name (Массив.Найти, СтрНайти, ПОДСТРОКА): "
             "syntax, parameters, return value, availability, since, deprecation, replacement.",
             (Param("name", "string", required=True), CONFIG, CURSOR,
              Param("version", "string", "Platform version instead of the configuration's")),
             get_platform),
))
