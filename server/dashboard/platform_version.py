"""A platform element's card for a chosen platform version (the card page's version switch).

``get_platform`` answers for the platform version of the configuration asked about and has
no ``version`` argument. Until it has one, the dashboard asks it through a read-only view of
the snapshot whose configuration claims the chosen version — the same tool code renders the
answer, so the page still shows exactly what an agent on that platform would receive.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

VERSION_RE = re.compile(r"^8\.\d+\.\d+(\.\d+)?$")


class PlatformVersionView:
    """The snapshot, except that its one configuration runs on ``version``."""

    def __init__(self, snap: Any, version: str, config: str | None) -> None:
        from v8atlas.server.snapshot import ConfigInfo

        self._snap = snap
        base = snap.config(config) if config else (snap.configs[0] if len(snap.configs) == 1 else None)
        if base is not None:
            pinned = dataclasses.replace(base, platform_version=version, compatibility_mode=None)
        else:
            pinned = ConfigInfo(name=f"platform {version}", index=-1, platform_version=version)
        self.configs = [pinned]

    def config(self, name: str) -> Any:
        return self.configs[0] if name and name.casefold() == self.configs[0].name.casefold() else None

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._snap, attr)


def get_platform_at(snap: Any, name: str, version: str, config: str | None,
                    cursor: str | None) -> tuple[dict[str, Any], int]:
    """(JSON API body, HTTP status) of get_platform for ``version``."""
    from v8atlas.server import tools

    if not VERSION_RE.match(version or ""):
        return {"outcome": "error", "error": {"code": "bad_argument",
                                              "message": f"{version[:40]!r} is not a platform version like 8.3.27"}}, 400
    spec = tools.TOOLS["get_platform"]
    args: dict[str, Any] = {"name": name, "cursor": cursor or None}
    if any(p.name == "version" for p in spec.params):       # the tool learned the argument
        args.update(config=config or None, version=version)
        target = snap
    else:
        target = PlatformVersionView(snap, version, config)
        args["config"] = target.configs[0].name
    result = tools.call(target, "get_platform", {k: v for k, v in args.items() if v is not None}, from_text=True)
    return result.as_json(), tools.status_of(result)
