"""search_platform and get_platform: the built-in language and the query language, for the
platform version of the configuration asked about."""
from __future__ import annotations

from typing import Any

from v8atlas.formats.platform_version import UNBOUNDED_UNTIL, encode_version, format_version

from ..search_adapter import Filters
from ..snapshot import ConfigInfo, Snapshot
from .common import finish, node, resolve_config
from .metadata import candidates, nearest
from .render import generic_blocks, scalar, text_of, type_text
from .result import AMBIGUOUS, FOUND, NOT_FOUND, UNAVAILABLE, ToolResult

SCOPES = {"all": ("platform", "query"), "platform": ("platform",), "query": ("query",)}


def _no_help(snap: Snapshot, domains: tuple[str, ...]) -> ToolResult | None:
    if sum(snap.docs_per_domain.get(d, 0) for d in domains) == 0:
        what = "query-language help" if domains == ("query",) else "platform help"
        return ToolResult(UNAVAILABLE, f"**Outcome: unavailable** — no {what} is loaded in bundle "
                                       f"`{snap.id}`; compile the .hbk books (shcntx_ru.hbk, "
                                       "shquery_ru.hbk) with the configuration.\n",
                          {"reason": "no_help"})
    return None


def _version_for(cfg: ConfigInfo | None) -> tuple[int | None, str]:
    if cfg is None:
        return None, "all platform versions (no configuration loaded)"
    code = cfg.platform_code
    if code is None:
        return None, f"all platform versions (the platform version of `{cfg.name}` is unknown)"
    return code, f"platform {format_version(code)} of `{cfg.name}`"


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
    hits = snap.search.search(query, Filters(domains=domains), limit * 3)
    shown = [h for h in hits if snap.available(h.doc, code)][:limit]
    elsewhere = [h for h in hits if not snap.available(h.doc, code)][:5]
    if not shown:
        lines = [f"**Outcome: not_found** — nothing for {query!r} on {for_what}."]
        if elsewhere:
            lines.append("Exists only on other platform versions:")
            lines += [f"- `{snap.title(h.doc)}` ({_bounds(snap, h.doc)})" for h in elsewhere]
        return ToolResult(NOT_FOUND, "\n".join(lines) + "\n",
                          {"hits": [], "other_versions": [node(snap, h.doc) for h in elsewhere],
                           "version": format_version(code) if code else None})
    lines = [f"**Outcome: found** — {len(shown)} element(s) for {query!r} on {for_what}; "
             "ask `get_platform` with the exact name:"]
    data = []
    for i, h in enumerate(shown, 1):
        b = _bounds(snap, h.doc)
        dom = snap.catalog.domain_name(h.doc)
        lines.append(f"{i}. `{snap.title(h.doc)}` · {snap.catalog.kind_name(h.doc)}"
                     f"{' · query language' if dom == 'query' else ''}{f' · {b}' if b else ''}"
                     f" · why: {h.why or 'text match'}")
        data.append({**node(snap, h.doc), "score": round(h.score, 4), "why": h.why})
    if elsewhere:
        lines.append("Not on this platform version: " + ", ".join(
            f"`{snap.title(h.doc)}` ({_bounds(snap, h.doc)})" for h in elsewhere))
    return ToolResult(FOUND, "\n".join(lines) + "\n",
                      {"hits": data, "other_versions": [node(snap, h.doc) for h in elsewhere],
                       "version": format_version(code) if code else None})


def get_platform(snap: Snapshot, name: str, config: str | None = None, cursor: str | None = None
                 ) -> ToolResult:
    domains = SCOPES["all"]
    if (r := _no_help(snap, domains)) is not None:
        return r
    cfg = resolve_config(snap, config)
    code, for_what = _version_for(cfg)
    docs = candidates(snap, _strip_call(name), domains, None)
    here = [d for d in docs if snap.available(d, code)]
    args = {"name": name, "config": cfg.name if cfg else None, "cursor": cursor}
    if len(here) == 1:
        doc = here[0]
        card = snap.catalog.card(doc)
        head, body = platform_blocks(snap, doc, card if isinstance(card, dict) else {"value": card}, code)
        head[0] = f"**Outcome: found** — {head[0]} · for {for_what}"
        return finish(snap, "get_platform", args, FOUND, head, body, {"element": node(snap, doc)})
    if len(here) > 1:
        lines = [f"**Outcome: ambiguous** — {name!r} names {len(here)} elements on {for_what}; "
                 "ask again with one of these exact addresses:"]
        for d in here:
            dom = snap.catalog.domain_name(d)
            lines.append(f"- `{snap.title(d)}` · {snap.catalog.kind_name(d)}"
                         f"{' · query language' if dom == 'query' else ''}")
        return ToolResult(AMBIGUOUS, "\n".join(lines) + "\n", {"candidates": [node(snap, d) for d in here]})
    if docs:
        lines = [f"**Outcome: unavailable** — {name!r} does not exist on {for_what}:"]
        for d in docs:
            card = snap.catalog.card(d)
            lines.append(f"- `{snap.title(d)}`: {_bounds(snap, d) or 'other versions only'}")
            repl = card.get("replacement") if isinstance(card, dict) else None
            if repl:
                lines.append("  instead: " + _replacement(repl))
        return ToolResult(UNAVAILABLE, "\n".join(lines) + "\n",
                          {"candidates": [node(snap, d) for d in docs],
                           "version": format_version(code) if code else None})
    guesses = [d for d in nearest(snap, _strip_call(name), domains, None, version=code, limit=8)
               if snap.available(d, code)][:5]
    lines = [f"**Outcome: not_found** — no element named {name!r}."]
    if guesses:
        lines.append("Nearest names (guesses, not matches):")
        lines += [f"- `{snap.title(d)}` · {snap.catalog.kind_name(d)}" for d in guesses]
    return ToolResult(NOT_FOUND, "\n".join(lines) + "\n", {"candidates": [node(snap, d) for d in guesses]})


def _strip_call(name: str) -> str:
    """`Массив.Найти(Значение)` → `Массив.Найти`: the call form resolves like the name."""
    name = name.strip()
    return name.split("(", 1)[0].strip() if "(" in name else name


def _replacement(r: Any) -> str:
    if isinstance(r, dict):
        target = r.get("name") or r.get("title") or r.get("replacement") or "?"
        caveat = text_of(r.get("caveat") or r.get("note"))
        since = r.get("since")
        return f"`{target}`" + (f" (since {since})" if since else "") + (f" — caveat: {caveat}" if caveat else "")
    if isinstance(r, list):
        return "; ".join(_replacement(x) for x in r)
    return f"`{r}`"


def _in_version(item: dict[str, Any], code: int | None) -> bool:
    if code is None:
        return True
    since = encode_version(item.get("since"), 0) if item.get("since") else 0
    until = encode_version(item.get("until"), UNBOUNDED_UNTIL) if item.get("until") else UNBOUNDED_UNTIL
    return since <= code < until


def _param_line(p: Any) -> str:
    if not isinstance(p, dict):
        return f"  - {p}"
    opt = p.get("optional")
    if opt is None and "required" in p:
        opt = not p["required"]
    types = type_text(p.get("types") or p.get("type"), True)
    desc = text_of(p.get("description"))
    return (f"  - `{p.get('name', '?')}`{' (optional)' if opt else ''}"
            + (f": {types}" if types else "") + (f" — {desc}" if desc else ""))


_KNOWN = {"name", "name_en", "title", "kind", "owner", "description", "variants", "syntax", "params",
          "parameters", "returns", "return", "availability", "since", "until", "deprecated",
          "deprecated_since", "replacement", "see_also", "examples", "example", "key", "tables",
          "domain", "note", "notes"}


def platform_blocks(snap: Snapshot, doc: int, card: dict[str, Any], code: int | None
                    ) -> tuple[list[str], list[str]]:
    title = snap.title(doc)
    kind = snap.catalog.kind_name(doc)
    en = card.get("name_en")
    head = [f"`{title}`" + (f" / `{en}`" if en else "") + f" · {kind}"]
    body: list[str] = []
    b = _bounds(snap, doc)
    if b:
        body.append(f"Availability by version: {b}")
    dep = card.get("deprecated") or card.get("deprecated_since")
    if dep:
        body.append(f"⚠ Deprecated{f' since {dep}' if isinstance(dep, str) else ''}.")
    if card.get("replacement"):
        body.append("Use instead: " + _replacement(card["replacement"]))
    desc = text_of(card.get("description"))
    if desc:
        body += [p for p in desc.split("\n\n") if p.strip()]
    variants = card.get("variants") or card.get("syntax")
    if isinstance(variants, list) and variants:
        here = [v for v in variants if not isinstance(v, dict) or _in_version(v, code)]
        hidden = len(variants) - len(here)
        body.append(f"**Syntax** ({len(here)} variant(s)"
                    + (f"; {hidden} of other platform versions hidden" if hidden else "") + "):")
        for v in here:
            body += _variant_blocks(v)
    elif isinstance(variants, str):
        body.append(f"**Syntax**: `{variants}`")
    params = card.get("params") or card.get("parameters")
    if isinstance(params, list) and params and not variants:
        body.append("**Parameters:**")
        body += [_param_line(p) for p in params]
    ret = card.get("returns") or card.get("return")
    if ret and not variants:
        body.append("**Returns:** " + _returns(ret))
    avail = card.get("availability")
    if avail:
        body.append("**Availability:** " + (", ".join(map(str, avail)) if isinstance(avail, list) else str(avail)))
    for key in ("note", "notes"):
        if card.get(key):
            body.append(f"Note: {text_of(card[key])}")
    ex = card.get("examples") or card.get("example")
    if ex:
        exs = ex if isinstance(ex, list) else [ex]
        body.append("**Example:**")
        body += ["```bsl\n" + text_of(e).strip() + "\n```" for e in exs]
    if card.get("tables"):
        for t in card["tables"]:
            body.append(_table_md(t))
    if card.get("see_also"):
        body.append("See also: " + ", ".join(f"`{text_of(s)}`" for s in card["see_also"]))
    for k, v in card.items():
        if k not in _KNOWN and v not in (None, "", [], {}):
            body += generic_blocks(k, v, True)
    return head, body


def _returns(ret: Any) -> str:
    if isinstance(ret, dict):
        t = type_text(ret.get("types") or ret.get("type"), True)
        d = text_of(ret.get("description"))
        return (t or "") + (f" — {d}" if d else "")
    return text_of(ret)


def _variant_blocks(v: Any) -> list[str]:
    if not isinstance(v, dict):
        return [f"- `{v}`"]
    params = v.get("params") or v.get("parameters") or []
    sig = v.get("syntax") or v.get("signature")
    name = v.get("name") or ""
    out = [f"- {name + ': ' if name and sig else ''}`{sig or name}`" + _vbounds(v)]
    out += [_param_line(p) for p in params]
    ret = v.get("returns") or v.get("return")
    if ret:
        out.append("  returns: " + _returns(ret))
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


def _table_md(t: Any) -> str:
    rows = t.get("rows") if isinstance(t, dict) else t
    if not isinstance(rows, list) or not rows:
        return scalar(t)
    cells = [[text_of(c).replace("|", "\\|").replace("\n", " ") for c in (r if isinstance(r, list) else [r])]
             for r in rows]
    width = max(len(r) for r in cells)
    cells = [r + [""] * (width - len(r)) for r in cells]
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in cells[1:]]
    return "\n".join(lines)
