"""check_query: a query text checked against a configuration of the bundle (server/query_check)."""
from __future__ import annotations

from typing import Any

from ..query_check import ERROR, check, schema_for
from ..snapshot import Snapshot
from . import answer as A
from .common import resolve_config, version_text
from .metadata import empty_domain
from .result import OK, PROBLEMS, ToolResult

# Longest query text accepted: a 200-line query is ~10k characters.
MAX_QUERY_TEXT = 50_000
_MAX_LISTED = 50


def check_query(snap: Snapshot, text: str, config: str | None = None) -> ToolResult:
    if (r := empty_domain(snap)) is not None:
        return r
    cfg = resolve_config(snap, config)
    schema = schema_for(snap, cfg)
    rep = check(text, schema)
    errors, warnings = rep.errors, rep.warnings
    where = f"`{cfg.name}`" if cfg else "the configuration"
    platform = version_text(schema.platform_code)
    caveats = []
    if schema.platform_code is None:
        caveats.append("the configuration's platform version is unknown: function versions not checked")
    elif not schema.has_query_help:
        caveats.append("no query-language help is loaded: function versions not checked")
    if errors:
        outcome, what = PROBLEMS, (f"{len(errors)} error(s){f', {len(warnings)} warning(s)' if warnings else ''} "
                                   f"against {where} (platform {platform}):")
    else:
        outcome, what = OK, (f"no errors against {where} (platform {platform}); {rep.statements} statement(s)"
                             f"{f', {len(warnings)} warning(s) below' if warnings else ''}.")
    lines = []
    for i, p in enumerate(rep.problems[:_MAX_LISTED], 1):
        mark = "✗ error" if p.severity == ERROR else "⚠ warning"
        lines.append(f"{i}. {mark} {p.line}:{p.col} — {p.message}" + (f". Fix: {p.fix}" if p.fix else ""))
    if len(rep.problems) > _MAX_LISTED:
        lines.append(f"… {len(rep.problems) - _MAX_LISTED} more problem(s) not shown; fix these first.")
    lines += [f"Note: {n}" for n in rep.notes]
    lines += [f"Note: {c}" for c in caveats]
    data: dict[str, Any] = {"ok": not errors, "errors": len(errors), "warnings": len(warnings),
                            "problems": [p.as_dict() for p in rep.problems],
                            "notes": rep.notes + caveats, "statements": rep.statements,
                            "config": cfg.name if cfg else None, "platform": platform}
    return A.answer(outcome, what, lines, data)
