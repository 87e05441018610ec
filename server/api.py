"""HTTP routes besides /mcp: the JSON API mirroring the tools, health, readiness, reload."""
from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from . import tools
from .auth import error_response
from .dispatch import run_tool
from .jsonbody import BodyError, parse_json
from .state import ServerState

STATE_KEY = web.AppKey("v8atlas.state", ServerState)


def _json(body: dict[str, Any], status: int = 200) -> web.Response:
    return web.Response(status=status, text=json.dumps(body, ensure_ascii=False),
                        content_type="application/json")


async def api_tool(request: web.Request) -> web.Response:
    state = request.app[STATE_KEY]
    name = request.match_info["tool"]
    if request.method == "POST":
        raw = await request.read()
        try:
            args = parse_json(raw) if raw.strip() else {}
        except BodyError as e:
            return error_response(400, "bad_json", str(e))
        if not isinstance(args, dict):
            return error_response(400, "bad_argument", "the body must be a JSON object of arguments")
        from_text = False
    else:
        args = {}
        for k in request.query:
            values = request.query.getall(k)
            if len(values) > 1:
                return error_response(400, "bad_argument", f"`{k}` is given {len(values)} times")
            args[k] = values[0]
        from_text = True
    result = await run_tool(state, name, args, from_text=from_text, transport="api")
    return _json(result.as_json(), tools.status_of(result))


async def api_index(request: web.Request) -> web.Response:
    return _json({"tools": [{"name": t.name, "title": t.title, "description": t.description,
                             "input_schema": t.input_schema()} for t in tools.tool_table().values()]})


async def health(request: web.Request) -> web.Response:
    state = request.app[STATE_KEY]
    return _json({"status": state.status, "counts": state.health_counts()})


async def ready(request: web.Request) -> web.Response:
    ok, body = request.app[STATE_KEY].ready()
    return _json(body, 200 if ok else 503)


async def metrics(request: web.Request) -> web.Response:
    from .metrics import CONTENT_TYPE
    state = request.app[STATE_KEY]
    body = state.metrics.render() if state.metrics is not None else b""
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})


async def admin_reload(request: web.Request) -> web.Response:
    result = await request.app[STATE_KEY].reload(force=True)
    return _json(result.as_json(), 409 if result.outcome == "refused" else 200)


async def mcp_not_allowed(request: web.Request) -> web.Response:
    return web.Response(status=405, headers={"Allow": "POST"},
                        text=json.dumps({"jsonrpc": "2.0", "id": None, "error": {
                            "code": -32000, "message": "Method not allowed: this server is stateless; "
                                                       "POST JSON-RPC to /mcp"}}),
                        content_type="application/json")


def add_routes(app: web.Application, *, admin: bool) -> None:
    app.router.add_get("/health", health)
    app.router.add_get("/ready", ready)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/api", api_index)
    app.router.add_get("/api/", api_index)
    app.router.add_route("GET", "/api/{tool}", api_tool)
    app.router.add_route("POST", "/api/{tool}", api_tool)
    if admin:
        app.router.add_post("/admin/reload", admin_reload)
