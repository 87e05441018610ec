"""Correlation ids and structured logs: one id per request, on its log lines and its errors.

The id comes from the client's ``X-Request-Id`` (a balancer sets one) when it is a short plain
token, else it is made here; it is echoed in the response header and carried by every error
answer, so an operator finds the log lines of the call a user reports.
"""
from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import time

REQUEST_ID_HEADER = "X-Request-Id"
_ID_OK = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("v8atlas_request_id", default=None)


def new_request_id(presented: str | None = None) -> str:
    """The client's id when it is safe to log and echo, else a fresh random one."""
    if presented and _ID_OK.match(presented):
        return presented
    return secrets.token_hex(8)


def current_request_id() -> str | None:
    return request_id.get()


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id (when in a request)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                 + f".{int(record.msecs):03d}Z",
                 "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        rid = request_id.get()
        if rid:
            entry["request_id"] = rid
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to text log lines too (``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get() or "-"
        return True
