"""A small ASGI bridge: aiohttp hands a POST /mcp to the SDK's session manager.

Why not a package: ``aiohttp-asgi`` keeps answering ``receive()`` with empty request
messages and never reports a disconnect, which makes the SDK's streaming paths spin a core
(stack.md §2.3). Here ``receive()`` returns the body once and then blocks until the exchange
is over or the client is gone, as uvicorn does. The session manager's ``run()`` opens an anyio
task group whose cancel scope must be left in the task that entered it, so it runs in a task
of its own for the life of the application.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web

from .jsonbody import BodyError, parse_json, valid_request_id

log = logging.getLogger("v8atlas.server")


class SessionManagerBridge:
    def __init__(self, session_manager: Any) -> None:
        self.manager = session_manager
        self._task: asyncio.Task | None = None
        self._stop = asyncio.Event()

    async def _run(self, started: asyncio.Event) -> None:
        async with self.manager.run():
            started.set()
            await self._stop.wait()

    async def start(self) -> None:
        started = asyncio.Event()
        self._task = asyncio.create_task(self._run(started))
        waiter = asyncio.create_task(started.wait())
        done, _ = await asyncio.wait({self._task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            waiter.cancel()
            self._task.result()     # raises what stopped the manager
    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                self._task.cancel()
            self._task = None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        if (problem := _not_jsonrpc(body)) is not None:
            return problem
        transport = request.transport
        peer = transport.get_extra_info("peername") if transport else None
        sock = transport.get_extra_info("sockname") if transport else None
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": f"{request.version.major}.{request.version.minor}",
            "method": request.method,
            "scheme": request.scheme,
            "path": request.path,
            "raw_path": request.raw_path.split("?", 1)[0].encode("latin-1", "replace"),
            "root_path": "",
            "query_string": request.query_string.encode("latin-1", "replace"),
            "headers": [(k.lower(), v) for k, v in request.raw_headers],
            "client": tuple(peer[:2]) if isinstance(peer, tuple) else None,
            "server": tuple(sock[:2]) if isinstance(sock, tuple) else None,
            "state": {},
        }
        done = asyncio.Event()
        body_sent = False
        response: web.StreamResponse | None = None

        async def receive() -> dict[str, Any]:
            nonlocal body_sent
            if not body_sent:
                body_sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal response
            if done.is_set():
                return
            kind = message["type"]
            try:
                if kind == "http.response.start":
                    response = web.StreamResponse(status=message["status"])
                    for k, v in message.get("headers", []):
                        name = k.decode("latin-1")
                        if name.lower() == "content-length":
                            response.content_length = int(v)
                        elif name.lower() != "transfer-encoding":
                            response.headers.add(name, v.decode("latin-1"))
                    await response.prepare(request)
                elif kind == "http.response.body" and response is not None:
                    chunk = message.get("body", b"")
                    if chunk:
                        await response.write(chunk)
                    if not message.get("more_body", False):
                        await response.write_eof()
                        done.set()
            except (ConnectionResetError, ConnectionError):
                done.set()     # the client went away; later sends are no-ops

        try:
            await self.manager.handle_request(scope, receive, send)
        finally:
            done.set()
        if response is None:
            return web.Response(status=500, text='{"error": "no response from the MCP layer"}',
                                content_type="application/json")
        return response


def _rpc_error(code: int, message: str, req_id: Any = None) -> web.Response:
    return web.json_response({"jsonrpc": "2.0", "id": req_id,
                              "error": {"code": code, "message": message}}, status=400)


def _not_jsonrpc(body: bytes) -> web.Response | None:
    """A short JSON-RPC error for a body that is not one JSON-RPC 2.0 message (the SDK would
    answer with its pydantic validation dump, or take an object id for a notification and
    answer 202): unparsable or too deeply nested (-32700), not a request, or an id that is
    not a string or an integer (-32600)."""
    try:
        msg = parse_json(body)
    except BodyError as e:
        return _rpc_error(-32700, f"parse error: {e}")
    if isinstance(msg, dict) and msg.get("jsonrpc") == "2.0" and (
            isinstance(msg.get("method"), str) or "result" in msg or "error" in msg):
        if "id" in msg and not valid_request_id(msg["id"]):
            return _rpc_error(-32600, "invalid request: \"id\" must be a string or an integer")
        return None
    req_id = msg.get("id") if isinstance(msg, dict) and valid_request_id(msg.get("id")) else None
    return _rpc_error(-32600, "not a JSON-RPC 2.0 request: send one object with "
                              "\"jsonrpc\": \"2.0\", \"method\" and \"id\"", req_id)
