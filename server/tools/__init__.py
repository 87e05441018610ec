"""The tool set: plain functions over a Snapshot, shared by MCP, the JSON API and `v8atlas call`.

``TOOLS`` declares each tool once (name, short description, parameters); ``call`` validates
the arguments, runs the tool and turns every failure into an ``error`` result with a short
message — never a stack trace or a file path.
"""
from __future__ import annotations

import logging
import time
from typing import Any

from v8atlas.formats.errors import BundleError

from ..snapshot import Snapshot
from .compare import compare_configurations
from .metadata import get_object, search_metadata
from .platform import get_platform, search_platform
from .relations import get_relations
from .result import ERROR, OUTCOMES, UNAVAILABLE, ToolInputError, ToolResult, error_result
from .sources import list_sources
from .paging import decode_cursor
from .spec import MAX_CURSOR_ARG, Param, ToolSpec

log = logging.getLogger("v8atlas.server")

INSTRUCTIONS = (
    "Exact, version-correct knowledge of 1C:Enterprise configurations (metadata objects, "
    "fields, query tables, relations) and of the platform's built-in and query language. "
    "Exact names resolve first (`Справочник.Номенклатура`, `РегистрНакопления.Остатки`, "
    "`Массив.Найти`, `ПОДСТРОКА`); search_* tools are for words. When several configurations "
    "are loaded pass `config` (list_sources names them); platform answers are for that "
    "configuration's platform version. Every answer starts with its outcome: found, ambiguous "
    "(ask again with one of the listed names), not_found (guesses are marked), unavailable. "
    "Long answers end with a cursor: repeat the call with it to continue."
)

_config = Param("config", "string", "Configuration name; required when several are loaded")
_cursor = Param("cursor", "string", "From a previous answer, to continue it", max_length=MAX_CURSOR_ARG)
_limit = Param("limit", "integer", default=10, minimum=1, maximum=50)

TOOLS: dict[str, ToolSpec] = {t.name: t for t in (
    ToolSpec("list_sources", "List sources",
             "Loaded configurations (version, platform version, extensions, counts), help versions, "
             "bundle id and age.", (), list_sources),
    ToolSpec("search_metadata", "Search metadata",
             "Find configuration objects by words, synonym or partial name; says why each matched.",
             (Param("query", "string", required=True), _config,
              Param("kind", "string", "Class, e.g. Catalog or Справочник"), _limit),
             search_metadata),
    ToolSpec("get_object", "Get object",
             "An object's card by exact name (Справочник.X): attributes with types, tabular sections, "
             "query tables, movements, relations, roles; also Справочник.X.Форма.Y, Отчет.X.Макет.Y.",
             (Param("name", "string", required=True), _config,
              Param("detail", "string", default="brief", enum=("brief", "fields", "full")), _cursor),
             get_object),
    ToolSpec("get_relations", "Get relations",
             "One step of relations of an object: what it references and what references it.",
             (Param("name", "string", required=True), _config,
              Param("direction", "string", default="both", enum=("both", "out", "in")),
              Param("kind", "string", "Edge kind, e.g. attribute_type, movement"),
              Param("weak", "boolean", "Include weak edges (wide composite types)", default=False),
              _cursor),
             get_relations),
    ToolSpec("search_platform", "Search platform",
             "Find built-in language and query-language elements by words, for the configuration's "
             "platform version.",
             (Param("query", "string", required=True), _config,
              Param("scope", "string", default="all", enum=("all", "platform", "query")), _limit),
             search_platform),
    ToolSpec("get_platform", "Get platform element",
             "A platform or query-language element by exact name (Массив.Найти, СтрНайти, ПОДСТРОКА): "
             "syntax, parameters, return value, availability, since, deprecation, replacement.",
             (Param("name", "string", required=True), _config, _cursor),
             get_platform),
    ToolSpec("compare_configurations", "Compare configurations",
             "Objects and fields added, removed or changed between configurations a and b "
             "(or one object with name).",
             (Param("a", "string", required=True), Param("b", "string", required=True),
              Param("name", "string", "One object to diff field by field"), _cursor),
             compare_configurations),
)}


def call(snap: Snapshot | None, name: str, args: dict[str, Any] | None, *,
         from_text: bool = False, unavailable: str | None = None) -> ToolResult:
    """Run tool ``name``; every outcome, including a bad call, comes back as a ToolResult.

    Without a snapshot the answer is ``unavailable`` with ``unavailable`` as the reason
    (nothing is served: no bundle, or none that passed its integrity check)."""
    spec = TOOLS.get(name) if isinstance(name, str) else None
    if spec is None:
        shown = name if isinstance(name, str) and len(name) < 60 else "?"
        return error_result("unknown_tool", f"no tool {shown!r}; tools: {', '.join(TOOLS)}")
    try:
        kwargs = spec.validate(args, from_text=from_text)
        if snap is None:
            reason = unavailable or "no bundle is loaded"
            return ToolResult(UNAVAILABLE, f"**Outcome: unavailable** — nothing is being served: "
                                           f"{reason}. The operator must publish a bundle that "
                                           f"verifies (see /ready).\n",
                              data={"reason": reason, "no_bundle": True})
        if kwargs.get("cursor"):
            decode_cursor(kwargs["cursor"], snap.content_hash, None)
        t0 = time.perf_counter()
        result = spec.fn(snap, **kwargs)
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


__all__ = ["TOOLS", "INSTRUCTIONS", "OUTCOMES", "ToolResult", "ToolSpec", "call", "status_of"]
