"""One road from a transport to a tool: the served snapshot, the thread rule, metrics, the
correlation id on errors, and an immediate file check when a read found the bundle damaged."""
from __future__ import annotations

import asyncio
import time
from typing import Any

from . import tools
from .observe import current_request_id
from .source_set import SourceSet, serving_for
from .state import ServerState

THREADED = {"compare_configurations"}   # long CPU work: off the event loop


async def run_tool(target: ServerState | SourceSet, name: str, args: Any, *, from_text: bool,
                   transport: str) -> tools.ToolResult:
    t0 = time.perf_counter()
    state, result = await serving_for(target, name, args)
    if result is None and state is not None:
        snap = await state.serving()
        why = None if snap is not None else state.redact(state.problem or "no bundle is loaded")
        if name in THREADED:
            result = await asyncio.to_thread(tools.call, snap, name, args, from_text=from_text,
                                             unavailable=why)
        else:
            result = tools.call(snap, name, args, from_text=from_text, unavailable=why)
        if state is not target and snap is not None and not result.is_error:
            result.data = {**result.data, "source_bundle": snap.id}   # which bundle answered
    assert result is not None
    code = (result.error or {}).get("code") if result.is_error else None
    if target.metrics is not None:
        shown = name if isinstance(name, str) and name in tools.TOOLS else "unknown"
        target.metrics.observe(shown, transport, result.outcome, code, time.perf_counter() - t0)
    if code == "bundle_damaged" and state is not None:
        asyncio.get_running_loop().create_task(state.check_served())
    rid = current_request_id()
    if result.is_error and rid:
        result.error = {**(result.error or {}), "request_id": rid}
        result.text += f" (request {rid})"
    return result
