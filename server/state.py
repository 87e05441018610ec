"""ServerState: the bundle being served, and the hot swap to a newer one.

The current Snapshot is one reference. A request reads it once and keeps it to the end, so a
swap never changes the mapping under a request: the old bundle is released (its mmaps closed
by the garbage collector) when its last request finishes.

A newer bundle is noticed by polling the bundles directory (the NEWEST pointer and the
folder itself: two ``stat`` calls every ``poll_interval`` seconds) or by ``/admin/reload``.
It is verified (every segment hashed against the manifest, in a worker thread) before the
switch; one that fails is refused, the old one keeps serving, and the reason goes to the
log and to ``/ready``.

At start the newest bundle is opened with a cheap check (the port opens at once) but is not
served until its hashes match: a request that arrives meanwhile waits for the check
(``serving()``). If it fails, the newest older bundle of the directory that verifies is served
instead (the log says why); when none does, nothing is served and the tools answer
``unavailable`` with the reason.
"""
from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from v8atlas.formats.errors import BundleError
from v8atlas.formats.publish import list_bundles, resolve_bundle_path
from v8atlas.formats.reader import Bundle
from v8atlas.formats.version import MANIFEST_NAME, NEWEST_POINTER

from .snapshot import Snapshot

log = logging.getLogger("v8atlas.server")

FILE_CHECK_INTERVAL = 2.0   # seconds between stat checks of the served files when --poll is 0


@dataclass
class ReloadResult:
    outcome: str              # "reloaded" | "unchanged" | "refused"
    bundle: str | None
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "bundle": self.bundle, "reason": self.reason}

    def __str__(self) -> str:
        return f"{self.outcome}: {self.bundle or 'no bundle'}" + (f" ({self.reason})" if self.reason else "")


def quick_check(bundle: Bundle) -> list[str]:
    """Cheap integrity check at open (every segment present with its size); no hashing."""
    problems = []
    for name, meta in bundle.manifest["segments"].items():
        try:
            size = (bundle.path / str(meta.get("file", ""))).stat().st_size
        except OSError:
            problems.append(f"segment {name!r} is missing")
            continue
        if size != meta.get("size"):
            problems.append(f"segment {name!r} is {size} bytes, the manifest says {meta.get('size')}")
    return problems


class ServerState:
    def __init__(self, bundles: str | os.PathLike, *, poll_interval: float = 2.0) -> None:
        self.source = Path(bundles)
        # A bundle folder given directly is served as is; a bundles directory is followed.
        self.follows_pointer = not (self.source / MANIFEST_NAME).is_file()
        self.poll_interval = poll_interval
        self.current: Snapshot | None = None     # verified: the one requests get
        self.pending: Snapshot | None = None     # opened at start, its hashes not checked yet
        self.fallback_from: str | None = None    # the newer bundle that failed at start
        self._settled: asyncio.Event | None = None
        self._switching: asyncio.Event | None = None
        self.problem: str | None = None          # why the current bundle is not ready
        self.last_refused: dict[str, Any] | None = None
        # Bundles refused since start, with their file fingerprint: an unchanged refused bundle
        # is not hashed (and logged at ERROR) again on every poll.
        self._refused: dict[Path, tuple[tuple, str]] = {}
        self.swaps = 0
        self.refusals = 0                        # bundles refused since start (/metrics)
        self._reload_lock: asyncio.Lock | None = None
        self._watch_sig: tuple | None = None
        self._tasks: list[asyncio.Task] = []
        self.on_swap: list[Callable[[Snapshot], None]] = []
        self.metrics: Any = None                 # metrics.Metrics, set by build_app
        self.origin: Any = None                  # origin_sync.OriginSync when pulling from an origin
        self.name: str | None = None             # how /ready and /metrics name it (default: folder)

    @property
    def label(self) -> str:
        """How logs and /metrics name this source: its folder name, never a full path."""
        return self.name or self.source.name or str(self.source)

    @property
    def bundles_dir(self) -> Path:
        """The directory new bundles are published into (the dashboard's rebuild writes there)."""
        return self.source if self.follows_pointer else self.source.parent

    # -- opening ----------------------------------------------------------------------------
    def _resolve(self) -> Path:
        return resolve_bundle_path(self.source)

    def redact(self, message: str) -> str:
        """Messages for HTTP clients name bundles, never the server's filesystem."""
        for p in {str(self.source.resolve()), str(self.source)}:
            message = message.replace(p + os.sep, "").replace(p, "<bundles>")
        return message

    def _open_checked(self, path: Path) -> Bundle:
        bundle = Bundle.open(path)
        problems = quick_check(bundle)
        if problems:
            raise BundleError(f"{bundle.id}: " + "; ".join(problems[:5]))
        return bundle

    def _candidates(self) -> tuple[list[Path], str | None]:
        """Bundles to try at start, newest first (NEWEST's target, then the others by stamp),
        and why NEWEST itself cannot be followed (a bad pointer), if so."""
        try:
            newest: Path | None = self._resolve()
            why = None
        except BundleError as e:
            newest, why = None, str(e)
        paths = [newest] if newest is not None else []
        if self.follows_pointer:
            paths += [e.path for e in reversed(list_bundles(self.source)) if e.path != newest]
        return paths, why

    def load_initial(self) -> Snapshot | None:
        """Open the newest bundle that opens (cheap checks only); it is served once start()
        has hashed it (``pending`` until then). A newest one that fails is passed over, and
        /ready names it with the reason."""
        self._watch_sig = self._signature()
        paths, why = self._candidates()
        refused: tuple[str | None, str] | None = ("NEWEST", why) if why else None
        for path in paths:
            try:
                snap = Snapshot(self._open_checked(path), verified=False)
            except BundleError as e:
                log.error("bundle %s cannot be served: %s", path.name, e)
                self._refused[path] = (_fingerprint(path), self.redact(str(e)))
                refused = refused or (path.name, str(e))
                continue
            self.pending = snap
            if refused is not None:
                self.fallback_from = refused[0]
                self._note_refused(refused[0], refused[1])
                log.warning("serving the older bundle %s instead (%s)", snap.id, refused[1])
            self.problem = "integrity check (sha256 of every segment) still running"
            log.info("opened %s; serving it once its integrity check passes", snap.id)
            return snap
        self.problem = refused[1] if refused else f"{self.source}: no bundle here"
        if refused:
            self._note_refused(refused[0], refused[1])
        log.error("no bundle to serve: %s", self.problem)
        return None

    async def serving(self) -> Snapshot | None:
        """The snapshot a request should use; waits for the start-up check if it is running."""
        if self.pending is not None and self._settled is not None:
            await self._settled.wait()
        if self._switching is not None:           # a broken bundle is being replaced
            await self._switching.wait()
        return self.current

    async def verify_current(self) -> None:
        """Hash the bundle opened at start; serve it, or an older one that verifies, or none."""
        snap = self.pending
        if snap is None:
            return
        try:
            problems = await asyncio.to_thread(snap.bundle.verify_fast)   # hashlib releases the GIL
            if problems:
                reason = f"bundle {snap.id} failed verification: " + "; ".join(problems[:5])
                log.error("%s", reason)
                snap.bundle.close()
                self._refused[snap.bundle.path] = (_fingerprint(snap.bundle.path), self.redact(reason))
                if self.fallback_from is None:     # else /ready already names the newest failure
                    self.fallback_from = self.pending.id
                    self._note_refused(self.pending.id, reason)
                snap = await asyncio.to_thread(self._older_verified, snap.bundle.path, reason)
                if snap is None:
                    self.fallback_from = None
                    self.problem = reason + "; no older bundle in the directory verifies"
                    log.error("serving nothing: %s", self.problem)
                    return
            snap.verified = True
            if self.current is None:             # a reload may have swapped in a newer one meanwhile
                self.current = snap
                self.problem = None
                log.info("bundle %s verified; serving it", snap.id)
        finally:
            self.pending = None
            if self._settled is not None:
                self._settled.set()
        # Then open the search index and the graph, so the first search does not pay for it
        # (after the check: Python work here would compete with the first requests for the GIL).
        await asyncio.to_thread(_warm, snap)

    def _older_verified(self, failed: Path, reason: str) -> Snapshot | None:
        """The newest bundle of the directory, other than ``failed``, whose hashes match."""
        if not self.follows_pointer:
            return None
        for path in self._candidates()[0]:
            known = self._refused.get(path)
            if path == failed or (known is not None and known[0] == _fingerprint(path)):
                continue
            try:
                bundle = self._open_checked(path)
            except BundleError as e:
                log.warning("older bundle %s cannot be opened: %s", path.name, e)
                continue
            problems = bundle.verify_fast()
            if problems:
                bundle.close()
                log.warning("older bundle %s failed verification too: %s", path.name, "; ".join(problems[:3]))
                continue
            log.warning("serving the older bundle %s instead (%s)", path.name, reason)
            return Snapshot(bundle, verified=True)
        return None

    async def check_served(self) -> bool:
        """Stat the files of the bundle being served; one changed under the server (truncated,
        copied over, deleted) stops being served and the newest other bundle that verifies
        takes its place. True when it was dropped."""
        snap = self.current
        if snap is None or not snap.verified or not snap.bundle.changed_files():
            return False
        async with self._lock():
            if self.current is not snap:
                return False
            changed = snap.bundle.changed_files()
            reason = f"bundle {snap.id} changed on disk while served: " + "; ".join(changed[:5])
            log.error("%s; it is no longer served", reason)
            # Requests arriving meanwhile wait for the replacement rather than read broken bytes.
            self._switching = asyncio.Event()
            self.current = None
            self.problem = reason
            self._refused[snap.bundle.path] = (_fingerprint(snap.bundle.path), self.redact(reason))
            self._note_refused(snap.id, reason)
            try:
                other = await asyncio.to_thread(self._older_verified, snap.bundle.path, reason)
                if other is None:
                    self.problem = reason + "; no other bundle verifies"
                    log.error("serving nothing: %s", self.problem)
                    return True
                await asyncio.to_thread(_warm, other)
                self._install(other, snap)
                self.fallback_from = snap.id
                return True
            finally:
                self._switching.set()
                self._switching = None

    def _note_refused(self, name: str | None, reason: str) -> None:
        """What /ready shows as ``last_refused`` and /metrics counts."""
        self.refusals += 1
        self.last_refused = {"bundle": name, "reason": self.redact(reason), "at": time.time()}

    def _install(self, snap: Snapshot, previous: Snapshot | None) -> None:
        self.current = snap
        self.problem = None
        self.swaps += 1
        log.info("switched to bundle %s (was %s)", snap.id, previous.id if previous else "none")
        for fn in self.on_swap:
            try:
                fn(snap)
            except Exception:
                log.exception("on_swap listener failed")

    def _lock(self) -> asyncio.Lock:
        if self._reload_lock is None:
            self._reload_lock = asyncio.Lock()
        return self._reload_lock

    # -- the swap -----------------------------------------------------------------------------
    async def reload(self, force: bool = False) -> ReloadResult:
        """Switch to the newest bundle if it differs (or ``force``) and verifies."""
        async with self._lock():
            self._watch_sig = self._signature()
            try:
                path = self._resolve()
            except BundleError as e:
                return self._refuse(None, str(e))
            current = self.current
            if current is not None and path == current.bundle.path and not force:
                return ReloadResult("unchanged", current.id)
            if current is not None and path == current.bundle.path and current.verified:
                return ReloadResult("unchanged", current.id)
            fingerprint = _fingerprint(path)
            known = self._refused.get(path)
            if known is not None and known[0] == fingerprint and not force:
                log.debug("bundle %s unchanged since it was refused; not checked again", path.name)
                return ReloadResult("refused", current.id if current else None, known[1])
            try:
                bundle = await asyncio.to_thread(self._open_checked, path)
                problems = await asyncio.to_thread(bundle.verify_fast)
            except BundleError as e:
                return self._refuse(path.name, str(e), path, fingerprint)
            if problems:
                bundle.close()
                return self._refuse(path.name, "failed verification: " + "; ".join(problems[:5]),
                                    path, fingerprint)
            snap = Snapshot(bundle, verified=True)
            # Warm what every request touches so the first requests after the swap stay fast.
            await asyncio.to_thread(_warm, snap)
            # A newer bundle is served: an earlier refusal is history (the log keeps it).
            self.last_refused = None
            self.fallback_from = None
            self._install(snap, current)
            return ReloadResult("reloaded", snap.id)

    def _refuse(self, name: str | None, reason: str, path: Path | None = None,
                fingerprint: tuple | None = None) -> ReloadResult:
        reason = self.redact(reason)
        if path is not None and fingerprint is not None:
            self._refused[path] = (fingerprint, reason)
        self._note_refused(name, reason)
        log.error("refused bundle %s: %s; still serving %s", name or "?", reason,
                  self.current.id if self.current else "nothing")
        if self.current is None:
            self.problem = reason
        return ReloadResult("refused", self.current.id if self.current else None, reason)

    # -- watching ----------------------------------------------------------------------------
    def _signature(self) -> tuple | None:
        if not self.follows_pointer:
            return None
        sig = []
        for p in (self.source / NEWEST_POINTER, self.source):
            try:
                st = p.stat()
                sig.append((st.st_mtime_ns, st.st_ino, st.st_size))
            except OSError:
                sig.append(None)
        return tuple(sig)

    async def _poll(self) -> None:
        # The served files are checked even when the pointer is not polled (--poll 0).
        while True:
            await asyncio.sleep(self.poll_interval or FILE_CHECK_INTERVAL)
            try:
                dropped = await self.check_served()
                sig = self._signature() if self.poll_interval > 0 else self._watch_sig
                if sig != self._watch_sig or dropped:
                    await self.reload()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bundle poll failed; will retry")

    async def start(self) -> None:
        """Background work: the full check of the first bundle, then the pointer poll."""
        if self.current is None and self.pending is None and self.problem is None:
            self.load_initial()
        if self.pending is not None:
            self._settled = asyncio.Event()
            self._tasks.append(asyncio.create_task(self.verify_current()))
        elif self.current is None:
            self._tasks.append(asyncio.create_task(self.reload()))
        self._tasks.append(asyncio.create_task(self._poll()))

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        self._tasks.clear()

    # -- reporting -----------------------------------------------------------------------------
    @property
    def status(self) -> str:
        """``ok`` (a verified bundle is served), ``starting`` (its check is running) or
        ``degraded`` (nothing is served: no bundle, or none that verifies)."""
        if self.current is not None:
            return "ok"
        return "starting" if self.pending is not None else "degraded"

    @property
    def readiness(self) -> str:
        """``starting`` (the first check runs), ``ready``, ``degraded`` (serving, but not the
        newest bundle: it was refused or the served one broke) or ``unavailable`` (nothing)."""
        snap = self.current
        if snap is None:
            return "starting" if self.pending is not None else "unavailable"
        if not snap.verified or self.problem is not None:
            return "starting"
        origin_failing = self.origin is not None and self.origin.last_error is not None
        return "degraded" if (self.fallback_from or self.last_refused or origin_failing) else "ready"

    def health_counts(self) -> dict[str, Any]:
        snap = self.current
        return {"documents": snap.docs_per_domain, "configurations": len(snap.configs)} if snap else {}

    def ready(self) -> tuple[bool, dict[str, Any]]:
        """/ready's body; True (HTTP 200) while a verified bundle is served, degraded included:
        a balancer keeps sending to a replica that answers from its older bundle."""
        snap = self.current
        state = self.readiness
        body: dict[str, Any] = {"ready": state in ("ready", "degraded"), "state": state,
                                "bundle": snap.id if snap else None,
                                "content_hash": snap.content_hash if snap else None,
                                "verified": bool(snap and snap.verified), "swaps": self.swaps}
        if self.fallback_from and snap is not None:
            body["fallback_from"] = self.fallback_from
        if self.problem:
            body["reason"] = self.redact(self.problem)
        if self.last_refused:
            body["last_refused"] = self.last_refused
        if self.origin is not None:
            body["origin"] = self.origin.status()
        return body["ready"], body


def _fingerprint(path: Path) -> tuple:
    """Name, size and mtime of every file of a bundle folder: changes when any segment does."""
    try:
        return tuple(sorted((e.name, st.st_size, st.st_mtime_ns)
                            for e in os.scandir(path) for st in (e.stat(follow_symlinks=False),)))
    except OSError:
        return ()


def _warm(snap: Snapshot) -> None:
    c = snap.catalog
    if snap.has_docs:
        _ = (c.meta, c.keys, c.titles, c.names, c.domain, c.kind, c.config, c.since, c.until)
        _ = snap.configs, snap.docs_per_config, snap.docs_per_domain, snap.search, snap.graph
