"""build_app: one aiohttp Application serving /mcp, the JSON API, health and the dashboard.

Wiring only: routes from api.py, MCP through asgi_bridge.py, checks in auth.py, the bundle in
state.py. The dashboard (``server/dashboard``, optional) adds its routes with
``setup(app, state)``.
"""
from __future__ import annotations

import asyncio
import importlib
import json
import logging
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from .api import STATE_KEY, add_routes, mcp_not_allowed
from .auth import MAX_BODY, MAX_URL, AuthConfig, error_response, install
from .metrics import Metrics
from .observe import REQUEST_ID_HEADER, new_request_id, request_id
from .state import ServerState

log = logging.getLogger("v8atlas.server")

MCP_KEY = web.AppKey("v8atlas.mcp", object)

# aiohttp's own parser answers a request line or header over 8190 bytes with a bare text/plain
# 400 (and a logged traceback) before any middleware runs. Its limits sit well above ours, so an
# over-long URL reaches auth_middleware and gets the JSON 414 `too_long` like any other cap.
PARSER_LIMITS = {"max_line_size": 8 * MAX_URL, "max_field_size": 2 * MAX_URL}
# aiohttp keeps a connection that sends nothing (or its headers a byte at a time) for its
# keep-alive timeout, 3,630 s by default: 1,000 idle sockets were all kept. This bounds an idle
# connection, and one whose request headers are not complete, from its start or last answer.
IDLE_TIMEOUT_S = 15.0
# A body sent slower than this is dropped (MAX_BODY is 256 KB: a second on a slow link).
BODY_TIMEOUT_S = 30.0


def make_runner(app: web.Application) -> web.AppRunner:
    """The AppRunner the server uses: no access log, parser limits above the server's caps, and
    requests the HTTP parser rejects answered in the JSON error shape."""
    quiet_client_parse_errors()
    return _Runner(app, access_log=None, handle_signals=False, keepalive_timeout=IDLE_TIMEOUT_S, **PARSER_LIMITS)


class _JSONErrorRequestHandler(RequestHandler):
    """aiohttp's parser answers a request it cannot read (a query string with raw, not
    percent-encoded, UTF-8) with a text/plain page before any middleware runs; answer it in the
    one JSON error shape instead."""

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        super().handle_error(request, status, exc, message)   # logs; raises if a response is under way
        if status >= 500:
            resp = error_response(status, "internal", "the server failed to answer this request")
        elif "url" in str(message or exc or "").lower():
            resp = error_response(status, "bad_request", "the URL is not percent-encoded: encode the "
                                  "query string as UTF-8 with %XX escapes (name=%D0%A1… for name=С…)")
        else:
            resp = error_response(status, "bad_request", "the request could not be parsed as HTTP/1.1")
        resp.force_close()
        return resp


class _Server(web.Server):
    def __call__(self) -> RequestHandler:
        return _JSONErrorRequestHandler(self, loop=self._loop, **self._kwargs)


class _Runner(web.AppRunner):
    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        server.__class__ = _Server     # the app's own Server, handing out the handler above
        return server


class _ClientParseErrorFilter(logging.Filter):
    """A request aiohttp cannot parse (even over PARSER_LIMITS) is the client's error, answered
    400: one debug line, not an ERROR with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        from aiohttp.http_exceptions import HttpProcessingError
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError) and record.levelno >= logging.ERROR:
            log.debug("unparsable request rejected: %s", exc)
            return False
        return True


def quiet_client_parse_errors() -> None:
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, _ClientParseErrorFilter) for f in server_log.filters):
        server_log.addFilter(_ClientParseErrorFilter())


@web.middleware
async def request_id_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    """A correlation id per request: on its log lines, its error answers and X-Request-Id."""
    rid = new_request_id(request.headers.get(REQUEST_ID_HEADER))
    token = request_id.set(rid)
    try:
        response = await handler(request)
    finally:
        request_id.reset(token)
    if not response.prepared:
        response.headers[REQUEST_ID_HEADER] = rid
    return response


@web.middleware
async def errors_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    """Every failure leaves as the one JSON error shape: no HTML pages, no tracebacks."""
    try:
        return await handler(request)
    except web.HTTPException as e:
        if e.status < 400:
            raise
        if e.status == 404 and _wants_page(request):
            return _not_found_page(request)
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(e.status, "http_error")
        message = {404: "no such route", 405: f"{request.method} is not allowed here",
                   413: f"the request body is larger than {MAX_BODY} bytes"}.get(e.status, e.reason)
        return error_response(e.status, code, message)
    except (ConnectionResetError, web.RequestPayloadError) as e:
        # The client went away (or broke off) while sending its body: nobody is there to read
        # an answer, and it is no failure of the server.
        log.debug("request body aborted: %s %s (%s)", request.method, request.path, e)
        return error_response(400, "aborted", "the request body was not received whole")
    except Exception:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error_response(500, "internal", "the server failed to answer; details are in its log")


@web.middleware
async def body_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    """Read a request's body (after the token checks) within BODY_TIMEOUT_S: a client that
    trickles its body is dropped instead of holding a handler. Handlers then read it from
    aiohttp's cache."""
    if request.body_exists and request.method in ("POST", "PUT", "PATCH", "DELETE"):
        try:
            async with asyncio.timeout(BODY_TIMEOUT_S):
                await request.read()
        except TimeoutError:
            log.debug("request body too slow: %s %s", request.method, request.path)
            return error_response(408, "timeout", f"the request body did not arrive within "
                                  f"{BODY_TIMEOUT_S:g} s")
    return await handler(request)


# Paths whose clients are programs: they always get the JSON error shape.
_API_PREFIXES = ("/api", "/mcp", "/admin", "/health", "/ready", "/metrics", "/ui/")


def _wants_page(request: web.Request) -> bool:
    """A browser opening an unknown address (Accept: text/html), not a program calling the API."""
    path = request.path
    if any(path == p or path.startswith(p.rstrip("/") + "/") for p in _API_PREFIXES):
        return False
    return request.method in ("GET", "HEAD") and "text/html" in request.headers.get("Accept", "")


def _not_found_page(request: web.Request) -> web.Response:
    from html import escape
    body = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found — v8atlas"
            "</title></head><body><h1>Not found</h1><p>There is no page at <code>"
            f"{escape(request.path)}</code>.</p><p><a href=\"/\">Start page</a></p></body></html>\n")
    return web.Response(status=404, text=body, content_type="text/html")


def build_app(state: ServerState, *, auth: AuthConfig | None = None, mcp: Any = None,
              dashboard: bool = True) -> web.Application:
    """``mcp``: an ``MCPServer`` (built by ``mcp_server.build_mcp``) or None for no /mcp route."""
    auth = auth or AuthConfig()
    app = web.Application(client_max_size=MAX_BODY, middlewares=[request_id_middleware, errors_middleware])
    install(app, auth)
    app.middlewares.append(body_middleware)     # after the token checks: strangers are not read
    app[STATE_KEY] = state
    if state.metrics is None:
        state.metrics = Metrics(getattr(state, "states", [state]))
    add_routes(app, admin=auth.admin_token is not None)

    if mcp is not None:
        from mcp.server.transport_security import TransportSecuritySettings

        from .asgi_bridge import SessionManagerBridge
        # Host/Origin are checked once, in the aiohttp middleware, for every route.
        mcp.streamable_http_app(stateless_http=True, json_response=True,
                                transport_security=TransportSecuritySettings(
                                    enable_dns_rebinding_protection=False))
        bridge = SessionManagerBridge(mcp.session_manager)
        app[MCP_KEY] = mcp
        app.router.add_post("/mcp", bridge.handle)
        app.router.add_route("GET", "/mcp", mcp_not_allowed)
        app.router.add_route("DELETE", "/mcp", mcp_not_allowed)

        async def mcp_lifespan(_: web.Application):
            await bridge.start()
            yield
            await bridge.stop()
        app.cleanup_ctx.append(mcp_lifespan)

    async def state_lifespan(_: web.Application):
        await state.start()
        yield
        await state.stop()
    app.cleanup_ctx.append(state_lifespan)

    if dashboard:
        try:
            module = importlib.import_module("v8atlas.server.dashboard")
        except ModuleNotFoundError as e:
            if not (e.name or "").startswith("v8atlas.server.dashboard"):
                raise
        else:
            # The dashboard registers its own open page paths (its pages check their own
            # session; the data they show still comes from /api, guarded by the tokens).
            module.setup(app, getattr(state, "states", [state])[0])   # a set: its first source
    return app


__all__ = ["build_app", "make_runner", "PARSER_LIMITS", "STATE_KEY", "json"]
