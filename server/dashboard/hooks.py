"""The few things the dashboard needs from the server, each behind one small adapter.

The server (server/app.py, server/auth.py, server/state.py) is another engineer's code; when
a hook is missing here, the adapter falls back to the documented environment variables so the
dashboard still works (and the fallback is named in docs/dashboard.md).
"""
from __future__ import annotations

import inspect
import os
from pathlib import Path
from typing import Any, Callable


def configured_tokens(app: Any) -> tuple[str | None, str | None]:
    """(API_TOKEN, ADMIN_TOKEN) as the server's middleware checks them; None means "not set"."""
    try:
        from v8atlas.server import auth
        return auth.configured_tokens(app)
    except (ImportError, AttributeError):
        return os.environ.get("API_TOKEN") or None, os.environ.get("ADMIN_TOKEN") or None


def register_session_validator(app: Any, validator: Callable[[Any], str | None]) -> bool:
    """Let the server's token middleware accept a dashboard session (for /api reads)."""
    try:
        from v8atlas.server import auth
        auth.config(app)
    except (ImportError, AttributeError, KeyError):
        return False
    auth.register_session_validator(app, validator)
    return True


def register_open_paths(app: Any, paths: tuple[str, ...]) -> None:
    """Paths the dashboard guards itself (login redirect, CSRF, admin session), so that the
    middleware lets them through to a clear page instead of a JSON 401."""
    try:
        from v8atlas.server import auth
        auth.config(app)
    except (ImportError, AttributeError, KeyError):
        return
    for path in paths:
        auth.register_open_path(app, path)


async def settled(state: Any) -> None:
    """Wait for the server's start-up verification (a few ms) so pages see the bundle."""
    serving = getattr(state, "serving", None)
    if serving is not None:
        await serving()


def current_bundle(state: Any) -> Any:
    for attr in ("bundle", "current_bundle"):
        value = getattr(state, attr, None)
        if callable(value) and not hasattr(value, "manifest"):
            value = value()
        if value is not None and hasattr(value, "manifest"):
            return value
    snapshot = getattr(state, "current", None)
    snapshot = snapshot() if callable(snapshot) else snapshot
    return getattr(snapshot, "bundle", None)


def current_snapshot(state: Any) -> Any:
    """The server's current Snapshot (what the tools run on), if the state exposes one."""
    for attr in ("snapshot", "current", "snap"):
        value = getattr(state, attr, None)
        if callable(value) and not hasattr(value, "catalog"):
            value = value()
        if value is not None and hasattr(value, "catalog"):
            return value
    return None


def bundles_dir(state: Any) -> Path | None:
    """The bundles directory the server follows (a rebuild publishes there)."""
    if getattr(state, "follows_pointer", True) is False:
        return None            # serving one bundle folder as is: a new bundle would never be picked up
    for attr in ("bundles_dir", "source", "bundles", "root"):
        value = getattr(state, attr, None)
        if isinstance(value, (str, os.PathLike)):
            return Path(value)
    bundle = current_bundle(state)
    return Path(bundle.path).parent if bundle is not None else None


def state_sources(state: Any) -> list[str] | None:
    value = getattr(state, "sources", None)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (str, os.PathLike)) for v in value):
        return [str(v) for v in value]
    return None


async def reload(state: Any) -> str:
    """Switch the server to the newest bundle (the logic of POST /admin/reload)."""
    fn = getattr(state, "reload", None)
    if fn is None:
        raise RuntimeError("this server's state has no reload(); restart the server to serve the new bundle")
    result = fn(force=True) if "force" in inspect.signature(fn).parameters else fn()
    if inspect.isawaitable(result):
        result = await result
    outcome = getattr(result, "outcome", None)
    if outcome == "refused":
        raise RuntimeError(f"the new bundle was refused: {getattr(result, 'reason', '?')}")
    if outcome is not None:
        return f"{outcome}: {getattr(result, 'bundle', '')}"
    return "" if result is None else str(result)
