"""Bounded answers: a hard size cap, a cursor to continue, and a footer saying what was left.

An answer is a list of blocks (a line, a table row, a paragraph); a page is the blocks that
fit under the cap. The cursor names the bundle it was made on and the call it continues, so
a cursor from another bundle or another call is refused with a clear message.
"""
from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from .result import ToolInputError

# Hard cap on the markdown of one answer (characters). Cyrillic text runs at roughly
# 3 characters a token, so a full page stays well under agents' 25k-token limits.
MAX_ANSWER_CHARS = 20_000


def call_signature(tool: str, args: dict[str, Any]) -> str:
    """Short hash of the arguments that define a listing (everything but the cursor)."""
    stable = {k: v for k, v in sorted(args.items()) if k != "cursor" and v not in (None, "")}
    raw = json.dumps([tool, stable], ensure_ascii=False, sort_keys=True).encode()
    return hashlib.sha256(raw).hexdigest()[:8]


def encode_cursor(bundle_hash: str, signature: str, offset: int) -> str:
    raw = f"1|{bundle_hash[:12]}|{signature}|{offset}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str | None, bundle_hash: str, signature: str | None) -> int:
    """Offset the cursor continues from (0 without a cursor); ``signature`` None checks the
    cursor's form and bundle only (done before a tool runs, so a stale cursor is reported
    as such whatever else the call gets wrong)."""
    if not cursor:
        return 0
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        version, bhash, sig, offset = raw.split("|")
        off = int(offset)
        if version != "1" or off < 0:
            raise ValueError
    except (ValueError, UnicodeDecodeError):
        raise ToolInputError("bad_cursor", "the cursor is not one this server issued; "
                                           "repeat the call without `cursor` to start over") from None
    if bhash != bundle_hash[:12]:
        raise ToolInputError("stale_cursor", "the cursor was issued for another bundle (the server "
                                             "has switched to a newer one since); repeat the call "
                                             "without `cursor` to restart the listing")
    if signature is not None and sig != signature:
        raise ToolInputError("bad_cursor", "the cursor belongs to a call with other arguments; "
                                           "repeat that call, or this one without `cursor`")
    return off


def split_oversized(blocks: list[str], cap: int) -> list[str]:
    """A block longer than a page is split at line breaks (then hard) so paging stays exact."""
    out: list[str] = []
    limit = cap // 2
    for b in blocks:
        if len(b) <= limit:
            out.append(b)
            continue
        piece = ""
        for line in b.split("\n"):
            while len(line) > limit:
                if piece:
                    out.append(piece)
                    piece = ""
                out.append(line[:limit])
                line = line[limit:]
            if piece and len(piece) + len(line) + 1 > limit:
                out.append(piece)
                piece = line
            else:
                piece = f"{piece}\n{line}" if piece else line
        if piece:
            out.append(piece)
    return out


class Page:
    """One page of ``blocks`` from ``offset``; ``next_offset`` is None on the last page."""

    def __init__(self, blocks: list[str], offset: int, cap: int, reserve: int = 0) -> None:
        blocks = split_oversized(blocks, cap)
        self.total = len(blocks)
        if offset > self.total:
            raise ToolInputError("bad_cursor", "the cursor points past the end of this answer; "
                                               "repeat the call without `cursor`")
        self.offset = offset
        budget = cap - reserve
        shown: list[str] = []
        used = 0
        i = offset
        while i < len(blocks):
            size = len(blocks[i]) + 1
            if shown and used + size > budget:
                break
            shown.append(blocks[i])
            used += size
            i += 1
        self.blocks = shown
        self.next_offset = i if i < len(blocks) else None

    @property
    def remaining(self) -> int:
        return 0 if self.next_offset is None else self.total - self.next_offset
