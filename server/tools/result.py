"""What every tool returns, whatever the transport: an outcome, the markdown an agent reads, data.

Outcomes are results, not exceptions: ``found``, ``ambiguous``, ``not_found``,
``unavailable`` and ``list`` are ordinary answers. ``error`` is a bad call (wrong argument,
unknown configuration, stale cursor); tools raise ``ToolInputError`` for it and the
dispatcher turns it into a result, so no transport ever shows a stack trace.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FOUND = "found"
AMBIGUOUS = "ambiguous"
NOT_FOUND = "not_found"
UNAVAILABLE = "unavailable"
LIST = "list"
OK = "ok"                # check_query: no errors
PROBLEMS = "problems"    # check_query: errors listed
ERROR = "error"
OUTCOMES = (FOUND, AMBIGUOUS, NOT_FOUND, UNAVAILABLE, LIST, OK, PROBLEMS, ERROR)


@dataclass
class ToolResult:
    outcome: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    error: dict[str, str] | None = None   # {"code", "message"} when outcome == "error"

    @property
    def is_error(self) -> bool:
        return self.outcome == ERROR

    def as_json(self) -> dict[str, Any]:
        """The JSON API body (api.md): errors carry ``error`` instead of ``data``."""
        if self.is_error:
            return {"outcome": ERROR, "text": self.text, "error": self.error}
        return {"outcome": self.outcome, "text": self.text, "data": self.data}


class ToolInputError(Exception):
    """A call the tool cannot answer as asked; ``code`` is stable, ``message`` is for the caller.

    ``status`` is the HTTP status the JSON API answers with.
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def error_result(code: str, message: str) -> ToolResult:
    return ToolResult(ERROR, f"**Error** ({code}): {message}", error={"code": code, "message": message})
