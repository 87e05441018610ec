"""The one answer builder: every tool's outcome header, its candidate lists and its paging.

An answer starts with ``**Outcome: <outcome>** — <what>`` (instructions promise it), then
lines; long answers end with a continuation line and a cursor. Tools say what they found;
this module says it the same way for all of them.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, Iterable

from ..snapshot import Snapshot
from .paging import MAX_ANSWER_CHARS, Page, call_signature, decode_cursor, encode_cursor
from .result import AMBIGUOUS, NOT_FOUND, UNAVAILABLE, ToolResult

GUESSES_LINE = "Nearest names (guesses, not matches):"


def headline(outcome: str, what: str) -> str:
    return f"**Outcome: {outcome}** — {what}"


def answer(outcome: str, what: str, lines: Iterable[str] = (), data: dict[str, Any] | None = None
           ) -> ToolResult:
    """A whole (unpaged) answer: the headline, then ``lines``."""
    return ToolResult(outcome, "\n".join([headline(outcome, what), *lines]) + "\n", data or {})


def unavailable(what: str, data: dict[str, Any]) -> ToolResult:
    return answer(UNAVAILABLE, what, (), data)


def ambiguous(what: str, docs: list[int], line: Callable[[int], str], node: Callable[[int], Any],
              data: dict[str, Any] | None = None) -> ToolResult:
    """Several documents answer to the name: list them (``line`` renders one) to ask again."""
    return answer(AMBIGUOUS, what, [line(d) for d in docs],
                  {"candidates": [node(d) for d in docs], **(data or {})})


def not_found(what: str, guesses: list[int], line: Callable[[int], str], node: Callable[[int], Any],
              data: dict[str, Any] | None = None) -> ToolResult:
    """Nothing answers to the name; ``guesses`` are shown as guesses, never as matches."""
    lines = [GUESSES_LINE, *(line(d) for d in guesses)] if guesses else []
    return answer(NOT_FOUND, what, lines, {"candidates": [node(d) for d in guesses], **(data or {})})


class Paging:
    """Where a listing resumes and how to continue it: one cursor scheme for every tool.

    ``offset`` is the first item of this page (0 without a cursor); ``footer`` writes the
    continuation line and the ``page``/``cursor`` data of the answer."""

    def __init__(self, snap: Snapshot, tool: str, args: dict[str, Any]) -> None:
        self.snap = snap
        self._call = (tool, args)
        cursor = args.get("cursor")
        self.offset = decode_cursor(cursor, snap.content_hash, self.signature) if cursor else 0

    @cached_property
    def signature(self) -> str:
        """Computed when a cursor is read or written (a hash of the arguments: a first page
        that fits has no use for it)."""
        return call_signature(*self._call)

    def footer(self, unit: str, shown: int, total: int, data: dict[str, Any]) -> list[str]:
        next_offset = self.offset + shown
        data["page"] = {"offset": self.offset, "shown": shown, "total": total}
        data["cursor"] = None
        if next_offset >= total:
            return []
        cursor = encode_cursor(self.snap.content_hash, self.signature, next_offset)
        data["cursor"] = cursor
        return [f"\n… {total - next_offset} more {unit} (shown {self.offset + 1}–{next_offset} of "
                f"{total}). Continue: the same call with cursor=`{cursor}`"]


def paged(snap: Snapshot, tool: str, args: dict[str, Any], outcome: str, head: list[str],
          body: list[str], data: dict[str, Any], cap: int | None = None) -> ToolResult:
    """Page ``body`` (blocks: lines, rows, paragraphs) under the size cap after ``head``."""
    paging = Paging(snap, tool, args)
    head_text = "\n".join(head)
    page = Page(body, paging.offset, cap or MAX_ANSWER_CHARS, reserve=len(head_text) + 300)
    lines = [head_text, *page.blocks] if head_text else list(page.blocks)
    data = dict(data)
    lines += paging.footer("block(s)", len(page.blocks), page.total, data)
    return ToolResult(outcome, "\n".join(lines).rstrip() + "\n", data)
