"""search_code and get_procedure: the configuration's own procedures, by words or by address.

Addresses are the way BSL calls a procedure (formats/code.py): ``ОбщегоНазначения.
ЗначениеРеквизитаОбъекта``, ``Справочник.Пользователи.МодульМенеджера.Процедура``; a module's
address (``ОбщегоНазначения``) lists its exported procedures.
"""
from __future__ import annotations

from typing import Any

from v8atlas.formats import code as FC
from v8atlas.formats.domain import ServePart

from ..code_index import CodeIndex, find
from ..snapshot import Snapshot
from .answer import GUESSES_LINE, answer, headline, paged, unavailable
from .common import resolve_config
from .result import AMBIGUOUS, FOUND, NOT_FOUND, ToolResult
from .spec import CONFIG, CURSOR, LIMIT, Param, ToolSpec

BODY_LINES = 200          # lines of a body shown per page (detail=body pages on with the cursor)
MAX_CALL_LIST = 15        # callers/callees named in detail=full


def _unavailable(snap: Snapshot) -> ToolResult | None:
    if snap.code is None:
        return unavailable(f"bundle `{snap.id}` has no code index (compiled without the code domain, "
                           "or from a dump without modules).", {"hits": []})
    return None


def _config(snap: Snapshot, code: CodeIndex, config: str | None) -> tuple[Any, int | None]:
    cfg = resolve_config(snap, config)
    return cfg, (code.config_index(cfg.name) if cfg else None)


_KEYWORDS = {"ru": ("Функция", "Процедура", "Знач", "Экспорт"), "en": ("Function", "Procedure", "Val", "Export")}


def signature(card: dict[str, Any]) -> str:
    """The header as the configuration's script variant writes it."""
    function, procedure, val, export = _KEYWORDS.get(card.get("script", "ru"), _KEYWORDS["ru"])
    params = []
    for p in card.get("params") or []:
        name, by_value, default = p[0], p[1], p[2]
        params.append((f"{val} " if by_value else "") + name + (f" = {default}" if default is not None else ""))
    word = function if card.get("function") else procedure
    return f"{word} {card['name']}({', '.join(params)}){' ' + export if card.get('export') else ''}"


def _one_line(card: dict[str, Any]) -> str:
    return FC.one_line(card.get("description") or "")


def search_code(snap: Snapshot, query: str, config: str | None = None, scope: str = "api",
                limit: int = 10) -> ToolResult:
    if (r := _unavailable(snap)) is not None:
        return r
    code = snap.code
    cfg, ci = _config(snap, code, config)
    where = f" in `{cfg.name}`" if cfg else ""
    procs, modules = code.lookup(query, ci)
    if modules and not procs:                        # a module's exact address: its API
        return get_procedure(snap, query, config)
    found, scope = find(code, query, ci, scope, limit)
    hits = [(h.proc, h.score, h.matched) for h in found]
    if not hits:
        return answer(NOT_FOUND, f"no procedure matches {query!r}{where}. Try other words or the "
                                 "module's name.", (), {"hits": []})
    lines = [headline(FOUND, f"{len(hits)} procedure(s) for {query!r}{where} (scope {scope}); "
                             "ask `get_procedure` with the address:")]
    data_hits = []
    for i, (pid, score, matched) in enumerate(hits, 1):
        row = code.list_row(pid)      # from flat tables: a result list opens no card
        flags = ("" if row.export else " · not exported") + (" · deprecated" if row.deprecated else "")
        desc = row.summary
        lines.append(f"{i}. `{row.address}`{flags}{' — ' + desc if desc else ''} · why: {', '.join(matched)}")
        data_hits.append({"address": row.address, "export": row.export,
                          "score": round(score, 4), "why": matched, "config": row.config})
    return ToolResult(FOUND, "\n".join(lines) + "\n", {"hits": data_hits})


def _module_listing(snap: Snapshot, code: CodeIndex, mid: int, args: dict[str, Any]) -> ToolResult:
    m = code.module_cards[mid]
    head = [headline(FOUND, f"module `{m['address']}` ({m['kind']}): {m['procedures']} "
                            f"procedure(s), {m['exported']} exported.")]
    if m.get("doc"):
        head.append(m["doc"])
    body = []
    region = None
    for pid in m["procs"]:
        card = code.card(pid)
        if not card.get("export"):
            continue
        r = " / ".join(card.get("region") or []) or "—"
        if r != region:
            body.append(f"\n**{r}**")
            region = r
        desc = _one_line(card)
        body.append(f"- `{card['name']}`{' (deprecated)' if card.get('deprecated') else ''}"
                    f"{' — ' + desc if desc else ''}")
    if not body:
        body = ["No exported procedures; `search_code` with scope=all finds the others."]
    return paged(snap, "get_procedure", args, FOUND, head, body,
                 {"module": {k: m[k] for k in ("address", "kind", "procedures", "exported")}})


def _names(code: CodeIndex, ids: list[int]) -> str:
    shown = [f"`{code.titles[i]}`" for i in ids[:MAX_CALL_LIST]]
    more = f" and {len(ids) - MAX_CALL_LIST} more" if len(ids) > MAX_CALL_LIST else ""
    return ", ".join(shown) + more


def get_procedure(snap: Snapshot, name: str, config: str | None = None, detail: str = "brief",
                  cursor: str | None = None) -> ToolResult:
    if (r := _unavailable(snap)) is not None:
        return r
    code = snap.code
    cfg, ci = _config(snap, code, config)
    args = {"name": name, "config": cfg.name if cfg else None, "detail": detail, "cursor": cursor}
    procs, modules = code.lookup(name, ci)
    if not procs and modules:
        return _module_listing(snap, code, modules[0], args)
    if not procs:
        guesses = code.search(name.replace(".", " "), ci, limit=5)
        lines = [GUESSES_LINE, *(f"- `{code.titles[h.proc]}`" for h in guesses)] if guesses else []
        return answer(NOT_FOUND, f"no procedure at {name!r}.", lines,
                      {"candidates": [code.titles[h.proc] for h in guesses]})
    if len(procs) > 1:
        return answer(AMBIGUOUS, f"{name!r} names {len(procs)} procedures; ask again with one of:",
                      [f"- `{code.titles[p]}` (config=`{code.card(p).get('config')}`)" for p in procs],
                      {"candidates": [code.titles[p] for p in procs]})
    pid = procs[0]
    card = code.card(pid)
    head = [headline(FOUND, f"`{card['address']}`"), "```bsl", signature(card), "```"]
    facts = []
    if card.get("availability"):
        facts.append("available: " + "; ".join(card["availability"]))
    if card.get("region"):
        facts.append("region: " + " / ".join(card["region"]))
    facts.append(f"callers: {card.get('callers', 0)}, callees: {card.get('callees', 0)}")
    facts.append(f"{card['file']}:{card['lines'][0]}–{card['lines'][1]}")
    head.append(" · ".join(facts))
    if card.get("deprecated"):
        dep = card["deprecated"]
        head.append("**Deprecated**" + (f": {dep}" if isinstance(dep, str) else "."))
    if card.get("extension"):
        head.append(f"From extension `{card['extension']}`.")
    if card.get("annotation"):
        kind, target, ru = card["annotation"]
        if card.get("changes"):
            outcome = f" → changes `{card['changes']}`"
        elif card.get("annotation_event"):
            outcome = f" (the base module declares no `{target}`: the annotation names the platform event)"
        else:
            outcome = " (base procedure not found)"
        head.append(f"Extension annotation &{ru}(\"{target}\"){outcome}")
    for changer, kind, ext in card.get("changed_by") or []:
        head.append(f"Changed by `{changer}` (&{FC.ANNOTATION_RU.get(kind, kind)}, extension `{ext}`).")
    body: list[str] = []
    if card.get("description"):
        body.append(card["description"] if detail != "brief" else _one_line(card) or card["description"][:300])
    params = card.get("params") or []
    if params and any(p[3] or p[4] for p in params):
        body.append("**Parameters:**\n" + "\n".join(
            f"- `{p[0]}`{' — ' + p[3] if p[3] else ''}{' — ' + p[4] if p[4] and detail != 'brief' else ''}"
            for p in params))
    if card.get("returns"):
        r = card["returns"]
        body.append(f"**Returns:** {r.get('type', '')}" + (f" — {r['text']}" if r.get("text") and detail != "brief" else ""))
    if detail in ("full", "body"):
        if card.get("example"):
            body.append("**Example:**\n```bsl\n" + card["example"] + "\n```")
        if card.get("uses"):
            body.append("**Uses:** " + ", ".join(f"{o} ({k.removeprefix('code_')})" for o, k in card["uses"]))
        callers, callees = code.callers(pid), code.callees(pid)
        if callees:
            body.append("**Calls:** " + _names(code, callees))
        if callers:
            body.append("**Called by:** " + _names(code, callers))
    if detail == "body":
        lines = code.body(pid).split("\n")
        first = card["lines"][0]
        for i in range(0, len(lines), BODY_LINES):
            chunk = lines[i:i + BODY_LINES]
            body.append(f"```bsl\n// lines {first + i}–{first + i + len(chunk) - 1}\n" + "\n".join(chunk) + "\n```")
    elif detail != "full":
        body.append("detail=full adds the example, usages, callers and callees; detail=body the code.")
    return paged(snap, "get_procedure", args, FOUND, head, body,
                 {"procedure": {k: card.get(k) for k in ("address", "module", "export", "function",
                                                         "directive", "region", "availability",
                                                         "callers", "callees", "config")}})


def code_blocks(card: dict[str, Any], done: set[str]) -> list[str]:
    """What the code domain added to an object's card: its modules with their event handlers,
    and for a common module its exported API by region with one-line descriptions."""
    out: list[str] = []
    done.update(("api", "code", "modules"))
    for m in card.get("modules") or []:
        extra = [f"{m['procedures']} procedure(s)"]
        if m.get("exported"):
            extra.append(f"{m['exported']} exported")
        if m.get("handlers"):
            extra.append("event handlers: " + ", ".join(m["handlers"]))
        out.append(f"**Module** `{m['module']}`: " + "; ".join(extra))
    code = card.get("code")
    if code:
        out.append(f"**Code**: {code['procedures']} procedure(s), {code['exported']} exported "
                   f"(get_procedure `Модуль.Процедура` for one)")
    for region in card.get("api") or []:
        lines = [f"**API — {region['region']}**"]
        for name, desc, is_function, deprecated in region["procedures"]:
            lines.append(f"- `{name}`{' (deprecated)' if deprecated else ''}"
                         f"{' — ' + desc if desc else ''}")
        out.append("\n".join(lines))
    return out


SERVE = ServePart("code", tools=(
    ToolSpec("search_code", "Search code",
             "Find the configuration's own procedures by words, name or address; exported API first "
             "(scope=all adds the rest).",
             (Param("query", "string", required=True), CONFIG,
              Param("scope", "string", default="api", enum=("api", "all")), LIMIT),
             search_code),
    ToolSpec("get_procedure", "Get procedure",
             "A procedure by address as BSL calls it (ОбщегоНазначения.ЗначениеРеквизитаОбъекта, "
             "Справочник.X.МодульМенеджера.Y): signature, doc, availability, callers; detail=body: code. "
             "A module lists its API.",
             (Param("name", "string", required=True), CONFIG,
              Param("detail", "string", default="brief", enum=("brief", "full", "body")), CURSOR),
             get_procedure),
))


def library_function(snap: Snapshot, config: str | None, name: str) -> str | bool | None:
    """Does configuration ``config`` have the procedure ``name`` (``Модуль.Функция``)? Its
    address when it does, False when it does not, None when the bundle cannot tell (no code
    index, or no configuration named)."""
    code = snap.code
    if code is None or not config:
        return None
    ci = code.config_index(config)
    if ci is None or ci < 0:
        return None
    procs, _ = code.lookup(name, ci)
    return code.titles[procs[0]] if procs else False
