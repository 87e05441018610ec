"""Serve side: a ``recipes`` parameter on search_metadata that appends matching recipes."""
from __future__ import annotations

from typing import Any

from v8atlas.formats.domain import ServePart
from v8atlas.server.search_adapter import Filters
from v8atlas.server.tools.result import ToolResult
from v8atlas.server.tools.spec import Param, ParamExtension

from .compile import DOC_DOMAIN


def with_recipes(snap: Any, value: bool, result: ToolResult, args: dict[str, Any]) -> ToolResult:
    found = snap.search.find(args["query"], Filters(domains=(DOC_DOMAIN,)), 5)
    lines = ["", "Recipes:"] + ([f"- `{snap.title(h.doc)}` · why: {h.why}" for h in found.hits] or ["- none"])
    return ToolResult(result.outcome, result.text + "\n".join(lines) + "\n",
                      {**result.data, "recipes": [snap.title(h.doc) for h in found.hits]})


SERVE = ServePart("recipes", params={"search_metadata": (
    ParamExtension(Param("recipes", "boolean", "Also search the recipe books", default=False), with_recipes),)})
