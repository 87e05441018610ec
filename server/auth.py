"""One aiohttp middleware for every route: Host/Origin checks, size caps, tokens, sessions.

* ``API_TOKEN`` guards reads (``/mcp``, ``/api/…``, the dashboard's data); without
  it reads are open. ``ADMIN_TOKEN`` guards ``/admin/…`` and is also valid for reads; without
  it the admin routes do not exist (404). Tokens come in ``X-Api-Token`` or
  ``Authorization: Bearer …`` and are compared in constant time.
* The dashboard registers a session validator (its login cookie) with
  ``register_session_validator(app, fn)``: ``fn(request)`` returns "read", "admin" or None.
  Paths that must stay open (its login page, static files) are registered with
  ``register_open_path(app, prefix)``. ``/health`` and ``/ready`` are always open (probes of
  load balancers and containers carry no token; neither shows a path or a card).
* Host and Origin are checked against allowlists (DNS-rebinding protection for a server on
  loopback); the query string and the body are capped.
"""
from __future__ import annotations

import hmac
import inspect
import json
import os
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from aiohttp import web

from .observe import current_request_id
from .throttle import FailureThrottle, client_of

SessionValidator = Callable[[web.Request], "str | None | Awaitable[str | None]"]

MAX_QUERY_STRING = 4096          # bytes of the URL query
MAX_URL = 8192                   # bytes of the whole request target (path + query)
MAX_BODY = 256 * 1024            # bytes of a request body (tool arguments are small)
MIN_TOKEN_CHARS = 32             # a token is a random secret, not a password to remember

_GLOBAL_VALIDATORS: list[SessionValidator] = []

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


class AuthConfigError(ValueError):
    """A token or allowlist that cannot work; raised at startup with a message for a person."""


def _token(env: dict[str, str], name: str) -> bytes | None:
    value = env.get(name)
    if value is None or value == "":
        return None
    if not value.isascii() or not value.isprintable() or value != value.strip():
        raise AuthConfigError(f"{name} must be printable ASCII without surrounding spaces (HTTP headers "
                              "carry ASCII only); choose another token")
    if len(value) < MIN_TOKEN_CHARS:
        raise AuthConfigError(f"{name} is {len(value)} characters; at least {MIN_TOKEN_CHARS} are "
                              f"required (e.g. `openssl rand -hex 24`)")
    return value.encode("ascii")


@dataclass
class AuthConfig:
    api_token: bytes | None = None
    admin_token: bytes | None = None
    allowed_hosts: tuple[str, ...] | None = None     # "host" or "host:*" / "host:port"; None = any
    allowed_origins: tuple[str, ...] | None = None   # "scheme://host[:port|:*]"; None = any
    open_paths: list[str] = field(default_factory=lambda: ["/health", "/ready"])
    validators: list[SessionValidator] = field(default_factory=list)
    throttle: FailureThrottle = field(default_factory=FailureThrottle)   # wrong tokens per client
    installed: bool = False          # True once the middleware guards an app with this config

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, host: str = "127.0.0.1",
                 extra_hosts: tuple[str, ...] = ()) -> "AuthConfig":
        """Tokens from ``API_TOKEN``/``ADMIN_TOKEN``; allowlists from the bind address.

        On loopback only loopback names are accepted in Host and Origin (plus ``extra_hosts``,
        e.g. a reverse proxy's name, also from ``V8ATLAS_ALLOWED_HOSTS``, comma separated).
        """
        env = dict(os.environ if env is None else env)
        extra = tuple(h.strip() for h in env.get("V8ATLAS_ALLOWED_HOSTS", "").split(",") if h.strip())
        extra += tuple(extra_hosts)
        hosts: tuple[str, ...] | None = None
        origins: tuple[str, ...] | None = None
        loopback = host in ("127.0.0.1", "localhost", "::1")
        if loopback or extra:
            names = (LOOPBACK_HOSTS if loopback else ()) + extra
            hosts = tuple(p for h in names for p in _with_any_port(h))
            origins = tuple(f"{scheme}://{p}" for h in names for p in _with_any_port(h)
                            for scheme in ("http", "https"))
        return cls(api_token=_token(env, "API_TOKEN"), admin_token=_token(env, "ADMIN_TOKEN"),
                   allowed_hosts=hosts, allowed_origins=origins)


_APP_KEY = web.AppKey("v8atlas.auth", AuthConfig)


def _with_any_port(host: str) -> tuple[str, ...]:
    has_port = host.rsplit(":", 1)[-1].isdigit() and not host.endswith("]")
    return (host,) if has_port else (host, f"{host}:*")


def _matches(value: str, patterns: tuple[str, ...]) -> bool:
    value = value.lower()
    for p in patterns:
        p = p.lower()
        if p.endswith(":*"):
            base = p[:-2]
            if value == base or (value.startswith(base + ":") and value[len(base) + 1:].isdigit()):
                return True
        elif value == p:
            return True
    return False


def register_session_validator(*args: Any) -> None:
    """``register_session_validator(app, fn)`` (or ``(fn)`` for every app of the process)."""
    if len(args) == 1:
        _GLOBAL_VALIDATORS.append(args[0])
    else:
        app, fn = args
        config(app).validators.append(fn)


def register_open_path(app: web.Application, prefix: str) -> None:
    """A path (exact; a prefix when it ends with '/', except "/" itself) reachable without a token."""
    config(app).open_paths.append(prefix)


def config(app: web.Application) -> AuthConfig:
    """The app's auth config; registrations made before ``install`` are kept by it."""
    cfg = app.get(_APP_KEY)
    if cfg is None:
        cfg = AuthConfig()
        app[_APP_KEY] = cfg
    return cfg


def configured_tokens(app: web.Application) -> tuple[str | None, str | None]:
    """(API_TOKEN, ADMIN_TOKEN) this app checks, for the dashboard's login form."""
    cfg = app.get(_APP_KEY)
    if cfg is None or not cfg.installed:
        cfg = AuthConfig.from_env()
    return (cfg.api_token.decode() if cfg.api_token else None,
            cfg.admin_token.decode() if cfg.admin_token else None)


def too_many_failures(retry_after: int) -> web.Response:
    """429 for a client past its budget of wrong tokens (throttle.py)."""
    return error_response(429, "too_many_failures", f"too many wrong tokens or logins from this "
                          f"address; try again in {retry_after} s", {"Retry-After": str(retry_after)})


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None
                   ) -> web.Response:
    """The one JSON error shape of every HTTP route (api.md)."""
    body = {"outcome": "error", "error": {"code": code, "message": message}}
    rid = current_request_id()
    if rid:
        body["error"]["request_id"] = rid
    return web.Response(status=status, text=json.dumps(body, ensure_ascii=False),
                        content_type="application/json", headers=headers)


def presented_token(request: web.Request) -> bytes | None:
    value = request.headers.get("X-Api-Token")
    if value is None:
        auth = request.headers.get("Authorization", "")
        if auth[:7].lower() == "bearer ":
            value = auth[7:].strip()
    if value is None:
        return None
    try:
        return value.encode("ascii")
    except UnicodeEncodeError:
        return b"\x00"   # never equal to an ASCII token


def _same(a: bytes | None, b: bytes | None) -> bool:
    return a is not None and b is not None and hmac.compare_digest(a, b)


async def _session_role(cfg: AuthConfig, request: web.Request) -> str | None:
    for fn in (*cfg.validators, *_GLOBAL_VALIDATORS):
        role = fn(request)
        if inspect.isawaitable(role):
            role = await role
        if role:
            return role
    return None


def _is_open(cfg: AuthConfig, path: str) -> bool:
    for p in cfg.open_paths:
        if path == p or (len(p) > 1 and p.endswith("/") and path.startswith(p)):
            return True
    return False


def install(app: web.Application, cfg: AuthConfig) -> None:
    prev = app.get(_APP_KEY)
    if prev is not None and prev is not cfg:
        cfg.validators += [v for v in prev.validators if v not in cfg.validators]
        cfg.open_paths += [p for p in prev.open_paths if p not in cfg.open_paths]
    cfg.installed = True
    app[_APP_KEY] = cfg
    app.middlewares.append(auth_middleware)


@web.middleware
async def auth_middleware(request: web.Request, handler: Callable) -> web.StreamResponse:
    cfg: AuthConfig = request.app[_APP_KEY]
    host = request.headers.get("Host", "")
    if cfg.allowed_hosts is not None and not _matches(host, cfg.allowed_hosts):
        return error_response(421, "bad_host", "this server does not answer for that Host")
    origin = request.headers.get("Origin")
    if origin is not None and cfg.allowed_origins is not None and not _matches(origin, cfg.allowed_origins):
        return error_response(403, "bad_origin", "requests from that Origin are not allowed")
    if len(request.raw_path) > MAX_URL:
        return error_response(414, "too_long", f"the URL is longer than {MAX_URL} bytes")
    if len(request.query_string) > MAX_QUERY_STRING:
        return error_response(414, "too_long", f"the query string is longer than {MAX_QUERY_STRING} bytes")
    if request.content_length is not None and request.content_length > MAX_BODY:
        return error_response(413, "too_large", f"the request body is larger than {MAX_BODY} bytes")

    path = request.path
    client = client_of(request)
    if path.startswith("/admin/") or path == "/admin":
        if cfg.admin_token is None:
            return error_response(404, "not_found", "no such route")
        token = presented_token(request)
        if token is not None and (wait := cfg.throttle.retry_after(client)):
            return too_many_failures(wait)
        if not _same(token, cfg.admin_token) and await _session_role(cfg, request) != "admin":
            if token is not None:
                cfg.throttle.failed(client)
            return error_response(401, "unauthorized", "admin token required (X-Api-Token or "
                                                       "Authorization: Bearer)",
                                  {"WWW-Authenticate": 'Bearer realm="v8atlas-admin"'})
        return await handler(request)
    if _is_open(cfg, path) or (cfg.api_token is None and cfg.admin_token is None):
        return await handler(request)
    if cfg.api_token is None and cfg.admin_token is not None:
        return await handler(request)        # reads are open without API_TOKEN
    token = presented_token(request)
    if token is not None:
        if wait := cfg.throttle.retry_after(client):
            return too_many_failures(wait)
        if _same(token, cfg.api_token) or _same(token, cfg.admin_token):
            return await handler(request)
        cfg.throttle.failed(client)
        return error_response(401, "unauthorized", "wrong token",
                              {"WWW-Authenticate": 'Bearer realm="v8atlas"'})
    if await _session_role(cfg, request):
        return await handler(request)
    return error_response(401, "unauthorized", "token required (X-Api-Token or Authorization: Bearer)",
                          {"WWW-Authenticate": 'Bearer realm="v8atlas"'})
