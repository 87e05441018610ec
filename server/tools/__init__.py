"""The tool set: plain functions over a Snapshot, shared by MCP, the JSON API and `v8atlas call`.

``TOOLS`` declares each tool once (name, short description, parameters); ``call`` validates
the arguments, runs the tool and turns every failure into an ``error`` result with a short
message — never a stack trace or a file path.
"""
from __future__ import annotations

import logging
import time
from typing import Any

from v8atlas.formats import registry
from v8atlas.formats.errors import BundleError

from ..snapshot import Snapshot
from . import answer as A
from .result import ERROR, OUTCOMES, ToolInputError, ToolResult, error_result
from .sources import list_sources
from .paging import decode_cursor
from .spec import ToolSpec

log = logging.getLogger("v8atlas.server")

INSTRUCTIONS = (
    "Exact, version-correct knowledge of 1C:Enterprise configurations (metadata objects, "
    "fields, query tables, relations) and of the platform's built-in and query language. "
    "Exact names resolve first (`Справочник.Номенклатура`, `РегистрНакопления.Остатки`, "
    "`Массив.Найти`, `ПОДСТРОКА`); search_* tools are for words. When several configurations "
    "are loaded pass `config` (list_sources names them); platform answers are for that "
    "configuration's platform version. Every answer starts with its outcome: found, ambiguous "
    "(ask again with one of the listed names), not_found (guesses are marked), unavailable. "
    "Long answers end with a cursor: repeat the call with it to continue. Check a query text "
    "with check_query before running it."
)

_CORE = (
    ToolSpec("list_sources", "List sources",
             "Loaded configurations (version, platform version, extensions, counts), help versions, "
             "bundle id and age.", (), list_sources),
)
_table: tuple[int, dict[str, ToolSpec]] | None = None


def tool_table() -> dict[str, ToolSpec]:
    """Every tool by name: the core ones, then each registered domain's (formats/registry.py),
    with the parameters domains add to other domains' tools. Rebuilt when a domain registers."""
    global _table
    gen = registry.generation()
    if _table is None or _table[0] != gen:
        table = {t.name: t for t in _CORE}
        parts = registry.serve_parts()
        for part in parts:
            table.update({t.name: t for t in part.tools})
        for part in parts:
            for tool, extensions in part.params.items():
                if tool not in table:
                    raise registry.DomainContractError(f"domain {part.name!r} extends tool {tool!r}, "
                                                       f"which no registered domain serves")
                table[tool] = table[tool].extended(tuple(extensions))
        _table = (gen, table)
    return _table[1]


def __getattr__(name: str) -> Any:
    if name == "TOOLS":          # the current table, as a module attribute
        return tool_table()
    raise AttributeError(name)


def call(snap: Snapshot | None, name: str, args: dict[str, Any] | None, *,
         from_text: bool = False, unavailable: str | None = None) -> ToolResult:
    """Run tool ``name``; every outcome, including a bad call, comes back as a ToolResult.

    Without a snapshot the answer is ``unavailable`` with ``unavailable`` as the reason
    (nothing is served: no bundle, or none that passed its integrity check)."""
    table = tool_table()
    spec = table.get(name) if isinstance(name, str) else None
    if spec is None:
        shown = name if isinstance(name, str) and len(name) < 60 else "?"
        return error_result("unknown_tool", f"no tool {shown!r}; tools: {', '.join(table)}")
    try:
        kwargs = spec.validate(args, from_text=from_text)
        if snap is None:
            reason = unavailable or "no bundle is loaded"
            return A.unavailable(f"nothing is being served: {reason}. The operator must publish a "
                               "bundle that verifies (see /ready).", {"reason": reason, "no_bundle": True})
        if kwargs.get("cursor"):
            decode_cursor(kwargs["cursor"], snap.content_hash, None)
        t0 = time.perf_counter()
        result = spec.run(snap, kwargs)
        log.debug("%s %s in %.2f ms", name, result.outcome, (time.perf_counter() - t0) * 1000)
        return result
    except ToolInputError as e:
        return error_result(e.code, e.message)
    except BundleError as e:
        log.error("tool %s: bundle %s is damaged: %s", name, snap.id if snap else "?", e)
        return error_result("bundle_damaged", "the bundle being served is damaged; the operator "
                                              "has been told (server log)")
    except Exception:
        log.exception("tool %s failed", name)
        return error_result("internal", "the server failed to answer this call; the details are "
                                        "in the server log")


def status_of(result: ToolResult) -> int:
    """HTTP status of a result in the JSON API."""
    if result.outcome != ERROR:
        return 503 if result.data.get("no_bundle") else 200
    code = (result.error or {}).get("code")
    return {"unknown_tool": 404, "no_bundle": 503, "internal": 500, "bundle_damaged": 500}.get(code, 400)


__all__ = ["INSTRUCTIONS", "OUTCOMES", "TOOLS", "ToolResult", "ToolSpec", "call", "status_of", "tool_table"]
