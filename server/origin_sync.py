"""Following an origin: poll its NEWEST, pull a new bundle into the local cache, swap.

The cache is an ordinary bundles directory that ServerState serves; this task only fills it.
The pointer is fetched with a conditional request every poll interval; a new bundle is
downloaded and verified in a worker thread (formats/origin.py) and only then offered to the
state's reload, which verifies it once more from the stat marker (no second hashing). Any
failure (HTTP 500, a timeout, a truncated file, a hash mismatch, a pointer outside the origin,
a redirect loop) keeps the served bundle, is reported on /ready and in /metrics, and is
retried after a back-off that doubles up to ``MAX_BACKOFF``.
"""
from __future__ import annotations

import asyncio
import logging
import time
import urllib.parse
from pathlib import Path
from typing import Any

from v8atlas.formats.errors import BundleError
from v8atlas.formats.origin import fetch_pointer, pull
from v8atlas.formats.publish import prune

from .state import ServerState

log = logging.getLogger("v8atlas.server")
MAX_BACKOFF = 60.0
CACHE_KEEP = 3


def shown_url(url: str) -> str:
    """The URL as clients may see it: no credentials, and no server path of a file:// origin."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "file":
        return "file://<origin>/"
    netloc = parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


class OriginSync:
    def __init__(self, url: str, cache: Path, state: ServerState, *, poll_interval: float = 5.0,
                 timeout: float = 30.0) -> None:
        self.url = url
        self.cache = cache
        self.state = state
        self.poll_interval = max(poll_interval, 0.05)
        self.timeout = timeout
        self.etag: str | None = None
        self.failures = 0                # since start, for /metrics
        self.streak = 0                  # consecutive failures: the back-off exponent
        self.last_error: str | None = None
        self.last_error_at: float | None = None
        self.last_ok_at: float | None = None
        self.origin_bundle: str | None = None
        self.next_try_at: float = 0.0
        self._task: asyncio.Task | None = None
        self.shown_url = shown_url(url)
        state.origin = self

    def status(self) -> dict[str, Any]:
        body: dict[str, Any] = {"url": self.shown_url, "newest": self.origin_bundle,
                                "last_ok_at": self.last_ok_at, "failures": self.failures}
        if self.last_error:
            body.update(last_error=self.last_error, last_error_at=self.last_error_at,
                        retry_in=round(max(0.0, self.next_try_at - time.time()), 1))
        return body

    async def check_once(self) -> bool:
        """One poll: True when a new bundle was pulled and swapped in."""
        try:
            pointer = await asyncio.to_thread(fetch_pointer, self.url, self.etag, self.timeout)
            if pointer.name is None:                   # 304: the origin has nothing new
                self._ok()
                return False
            self.origin_bundle = pointer.name
            current = self.state.current
            if current is not None and current.id == pointer.name:
                self.etag = pointer.etag
                self._ok()
                return False
            t0 = time.perf_counter()
            await asyncio.to_thread(pull, self.url, pointer.name, self.cache, timeout=self.timeout)
            log.info("pulled bundle %s from %s in %.2f s", pointer.name, self.url, time.perf_counter() - t0)
            result = await self.state.reload()
            if result.outcome == "refused":
                raise BundleError(f"pulled bundle {pointer.name} was refused: {result.reason}")
            self.etag = pointer.etag                   # only now: a failed pull is retried
            self._ok()
            # The cache keeps a few bundles to fall back on, not every one ever pulled (the
            # one NEWEST names, i.e. the one just served, is never removed).
            for gone in await asyncio.to_thread(prune, self.cache, CACHE_KEEP):
                log.info("removed %s from the cache", gone.name)
            return result.outcome == "reloaded"
        except asyncio.CancelledError:
            raise
        except Exception as e:      # any failure keeps the served bundle; the reason is reported
            self._failed(e)
            return False

    def _ok(self) -> None:
        self.streak = 0
        self.last_error = None
        self.last_ok_at = time.time()
        self.next_try_at = time.time() + self.poll_interval

    def _failed(self, e: Exception) -> None:
        self.failures += 1
        self.streak += 1
        reason = str(e) if isinstance(e, BundleError) else f"{type(e).__name__}: {e}"
        reason = reason.replace(self.url.rstrip("/"), self.shown_url.rstrip("/"))
        if self.url.startswith("file://"):
            reason = reason.replace(urllib.parse.unquote(urllib.parse.urlsplit(self.url).path).rstrip("/"),
                                    "<origin>")
        delay = min(MAX_BACKOFF, self.poll_interval * 2 ** min(self.streak - 1, 10))
        self.last_error, self.last_error_at = reason, time.time()
        self.next_try_at = time.time() + delay
        log.error("origin %s: %s; still serving %s; next try in %.1f s", self.shown_url, reason,
                  self.state.current.id if self.state.current else "nothing", delay)

    async def run(self) -> None:
        while True:
            await self.check_once()
            await asyncio.sleep(max(0.0, self.next_try_at - time.time()))

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
