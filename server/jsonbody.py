"""Request bodies as JSON, with every way a hostile body can fail turned into one message.

``json.loads`` raises ``RecursionError`` (not ``ValueError``) on ``"[" * 100000``, and
``ValueError`` on a 5,000-digit number; both must be the client's 400, never a 500.
"""
from __future__ import annotations

import json
from typing import Any


class BodyError(ValueError):
    """The body is not usable JSON; ``str()`` says why, as a phrase for the client."""


def parse_json(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyError("the body is not valid UTF-8") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise BodyError("the body is JSON nested too deeply") from None
    except ValueError as e:
        if isinstance(e, json.JSONDecodeError):
            raise BodyError(f"the body is not valid JSON ({e.msg} at position {e.pos})") from None
        raise BodyError(f"the body is not usable JSON ({e})") from None


def valid_request_id(value: Any) -> bool:
    """A JSON-RPC id this server answers to: a string or an integer (JSON-RPC 2.0 allows a
    number, "SHOULD NOT contain fractional parts"; the MCP schema says string or integer).
    ``1e400`` (a float, infinite), booleans, objects and arrays are not ids."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)
