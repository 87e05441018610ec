"""Several bundle sources in one process: one bundle per configuration, each swapped alone.

Each source (a bundles directory or an origin) is its own ServerState with its own poll,
verification and fallback; the set only routes. A call naming ``config`` goes to the source
whose served bundle holds that configuration; a call without it goes to the one source when
only one configuration is loaded in all, and is otherwise asked to name it, as in one bundle.
``list_sources`` lists every source with the bundle each configuration comes from. A
configuration name served by two sources at once is an error naming both bundles: calls for
it are refused and /ready reports it, until one of them stops claiming it.
"""
from __future__ import annotations

import asyncio
from typing import Any

from v8atlas.formats.text import fold

from . import tools
from .snapshot import Snapshot
from .state import ServerState
from .tools.result import LIST, ToolResult, error_result

# Tools whose answers are about one configuration (``config`` picks the source).
_PAIR = "compare_configurations"


class SourceSet:
    def __init__(self, states: list[ServerState]) -> None:
        if len({s.label for s in states}) != len(states):
            for i, s in enumerate(states):
                s.name = f"{s.label}#{i + 1}"
        self.states = states
        self.metrics: Any = None
        self.origin = None

    # -- what the transports need (the ServerState surface they use) ----------------------------
    @property
    def label(self) -> str:
        return ",".join(s.label for s in self.states)

    def redact(self, message: str) -> str:
        for s in self.states:
            message = s.redact(message)
        return message

    async def start(self) -> None:
        for s in self.states:
            await s.start()

    async def stop(self) -> None:
        for s in self.states:
            await s.stop()

    async def reload(self, force: bool = False) -> Any:
        results = [await s.reload(force=force) for s in self.states]
        worst = next((r for r in results if r.outcome == "refused"), None)
        return worst or next((r for r in results if r.outcome == "reloaded"), results[0])

    @property
    def status(self) -> str:
        states = {s.status for s in self.states}
        return "ok" if states == {"ok"} else "starting" if "starting" in states else "degraded"

    @property
    def current(self) -> Snapshot | None:
        """The first served snapshot (what the dashboard shows of a set)."""
        return next((s.current for s in self.states if s.current is not None), None)

    def health_counts(self) -> dict[str, Any]:
        snaps = [s.current for s in self.states if s.current is not None]
        docs: dict[str, int] = {}
        for snap in snaps:
            for k, v in snap.docs_per_domain.items():
                docs[k] = docs.get(k, 0) + v
        return {"documents": docs, "configurations": sum(len(s.configs) for s in snaps)} if snaps else {}

    def conflicts(self) -> dict[str, list[str]]:
        """Configuration name → the bundles claiming it, for names claimed more than once."""
        claims: dict[str, list[str]] = {}
        shown: dict[str, str] = {}
        for s in self.states:
            if s.current is None:
                continue
            for c in s.current.configs:
                key = fold(c.name)
                shown.setdefault(key, c.name)
                claims.setdefault(key, []).append(f"{s.current.id} ({s.label})")
        return {shown[k]: v for k, v in claims.items() if len(v) > 1}

    def ready(self) -> tuple[bool, dict[str, Any]]:
        parts = [s.ready()[1] | {"source": s.label} for s in self.states]
        states = [p["state"] for p in parts]
        conflicts = self.conflicts()
        if "starting" in states:
            state = "starting"
        elif all(x == "unavailable" for x in states):
            state = "unavailable"
        elif all(x == "ready" for x in states) and not conflicts:
            state = "ready"
        else:
            state = "degraded"
        body: dict[str, Any] = {"ready": state in ("ready", "degraded"), "state": state, "sources": parts}
        if conflicts:
            body["conflicts"] = {k: v for k, v in conflicts.items()}
        return body["ready"], body

    # -- routing --------------------------------------------------------------------------------
    async def route(self, name: str, args: Any) -> tuple[ServerState | None, ToolResult | None]:
        """The source to answer this call, or a finished answer (an error, or list_sources)."""
        for s in self.states:
            await s.serving()
        if name == "list_sources":
            return None, self._list_sources()
        args = args if isinstance(args, dict) else {}
        wanted = [args.get(k) for k in (("a", "b") if name == _PAIR else ("config",))]
        wanted = [w for w in wanted if isinstance(w, str) and w]
        served = [s for s in self.states if s.current is not None]
        if not wanted:
            configs = [(s, c.name) for s in served for c in s.current.configs]
            if len(configs) == 1 or len(served) == 1:
                return (configs[0][0] if configs else served[0]), None
            if not served:
                return self.states[0], None          # the state answers `unavailable` with its reason
            names = ", ".join(f"`{c}`" for _, c in configs)
            return None, error_result("config_required", f"{len(configs)} configurations are loaded "
                                                         f"({names}); pass `config` to say which")
        conflicts = {fold(k): v for k, v in self.conflicts().items()}
        owners = []
        for w in wanted:
            if fold(w) in conflicts:
                return None, error_result("config_conflict", f"configuration {w!r} is claimed by two "
                                                             f"bundles: {' and '.join(conflicts[fold(w)])}; "
                                                             f"the operator must remove it from one")
            owner = next((s for s in served if s.current.config(w) is not None), None)
            if owner is None:
                loaded = ", ".join(f"`{c.name}`" for s in served for c in s.current.configs) or "none"
                return None, error_result("unknown_config", f"no configuration {w!r} is served; "
                                                            f"loaded: {loaded}")
            owners.append(owner)
        if len({id(o) for o in owners}) > 1:
            return None, error_result("different_bundles", "these configurations come from different "
                                                           "bundles; compare configurations of one bundle")
        return owners[0], None

    def _list_sources(self) -> ToolResult:
        lines = ["# Sources (outcome: list)", f"{len(self.states)} bundle sources, each updated on its own."]
        configs: list[dict[str, Any]] = []
        sources = []
        for s in self.states:
            snap = s.current
            if snap is None:
                reason = s.redact(s.problem or "no bundle")
                lines.append(f"\n## Source `{s.label}`: nothing served ({reason})")
                sources.append({"source": s.label, "bundle": None, "reason": reason})
                continue
            one = tools.call(snap, "list_sources", {})
            body = one.text.split("\n", 1)[1] if "\n" in one.text else one.text
            lines.append(f"\n## Source `{s.label}`\n{body.strip()}")
            sources.append({"source": s.label, **one.data})
            configs += [c | {"bundle": snap.id, "source": s.label} for c in one.data.get("configs", [])]
        conflicts = self.conflicts()
        for name, owners in conflicts.items():
            lines.append(f"\n**Error**: configuration `{name}` is claimed by {' and '.join(owners)}; "
                         f"calls for it are refused")
        return ToolResult(LIST, "\n".join(lines) + "\n", {"sources": sources, "configs": configs,
                                                          "conflicts": conflicts})


async def serving_for(target: Any, name: str, args: Any) -> tuple[ServerState | None, ToolResult | None]:
    """Which ServerState answers: the one given, or the one a SourceSet routes to."""
    if isinstance(target, SourceSet):
        return await target.route(name, args)
    return target, None


__all__ = ["SourceSet", "serving_for", "asyncio"]
