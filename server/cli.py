"""`v8atlas serve` and `v8atlas call`: a thin shell over state.py, app.py and the tools."""
from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from .state import ServerState


def setup_logging(level: str, fmt: str = "text") -> None:
    """Logs go to stderr (stdout is the JSON-RPC wire in stdio mode); set before MCPServer().

    ``json``: one JSON object a line (for a log collector); both carry the request id."""
    from .observe import JsonFormatter, RequestIdFilter

    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"))
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO), handlers=[handler])
    # The SDK logs "Terminating session: None" at INFO on every stateless request.
    logging.getLogger("mcp").setLevel(max(logging.WARNING, logging.getLogger().level))
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)


def _utf8_stdio() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass


def cache_for(url: str, cache: str | None) -> Path:
    """Where a server keeps the bundles it pulls from ``url``: a folder per origin under
    --cache (default ~/.cache/v8atlas/origins)."""
    import hashlib
    base = Path(cache) if cache else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") \
        / "v8atlas" / "origins"
    return base / hashlib.sha256(url.encode()).hexdigest()[:16]


def expand_sources(specs: tuple[str, ...] | list[str]) -> list[str]:
    """``--bundles`` values; a folder holding only per-configuration bundles directories (each
    with its NEWEST) stands for all of them."""
    from v8atlas.formats.origin import is_origin_url
    from v8atlas.formats.version import MANIFEST_NAME, NEWEST_POINTER

    out: list[str] = []
    for spec in specs:
        p = Path(spec)
        if not is_origin_url(spec) and p.is_dir() and not (p / NEWEST_POINTER).exists() \
                and not (p / MANIFEST_NAME).exists():
            subs = sorted(str(d) for d in p.iterdir() if d.is_dir() and (d / NEWEST_POINTER).is_file())
            if subs:
                out += subs
                continue
        out.append(spec)
    return out


def make_state(spec: str, poll: float, cache: str | None) -> "ServerState":
    """One bundle source: a bundles directory or bundle folder, or an origin URL pulled into a
    local cache folder that the state serves as usual."""
    from v8atlas.formats.origin import is_origin_url

    from .state import ServerState

    if not is_origin_url(spec):
        return ServerState(spec, poll_interval=poll)
    from .origin_sync import OriginSync
    cache_dir = cache_for(spec, cache)
    cache_dir.mkdir(parents=True, exist_ok=True)
    state = ServerState(cache_dir, poll_interval=poll)
    sync = OriginSync(spec, cache_dir, state, poll_interval=poll or 5.0)
    state.name = sync.shown_url
    logging.getLogger("v8atlas.server").info("following origin %s through cache %s", sync.shown_url, cache_dir)
    return state


async def start(bundles: str | list[str], host: str, port: int, transport: str, poll: float,
                cache: str | None = None):
    """Open the newest bundle of each source, build MCP and (for http/both) listen; returns
    (state, mcp, runner): a ServerState, or a SourceSet for several sources."""
    import gc

    from aiohttp import web

    from .app import build_app, make_runner
    from .auth import MIN_TOKEN_CHARS, AuthConfig
    from .mcp_server import build_mcp
    from .source_set import SourceSet

    # Everything imported so far lives as long as the process: move it out of the collector's
    # sight, so a full collection does not walk ~half a million module objects (a 60 ms pause
    # measured in the first request; later, in p99).
    gc.freeze()

    log = logging.getLogger("v8atlas.server")
    auth = AuthConfig.from_env(host=host)
    specs = expand_sources([bundles] if isinstance(bundles, str) else bundles)
    states = [make_state(spec, poll, cache) for spec in specs]
    for st in states:
        st.load_initial()
    state = states[0] if len(states) == 1 else SourceSet(states)
    mcp = build_mcp(state)
    runner = None
    if transport in ("http", "both"):
        app = build_app(state, auth=auth, mcp=mcp)
        runner = make_runner(app)
        await runner.setup()
        await web.TCPSite(runner, host, port).start()
        log.info("listening on http://%s:%s (/mcp, /api, /health, /ready%s)", host, port,
                 ", /admin/reload" if auth.admin_token else "")
        log.info("tokens: API_TOKEN %s, ADMIN_TOKEN %s (each at least %d characters; wrong ones "
                 "are limited per client)", "set" if auth.api_token else "not set (reads are open)",
                 "set" if auth.admin_token else "not set (no /admin routes)", MIN_TOKEN_CHARS)
        await state.serving()     # the start-up integrity check logs first; the URLs come last
        base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}"
        if any(getattr(r, "resource", None) is not None and r.resource.canonical == "/"
               for r in app.router.routes()):
            log.info("dashboard (open in a browser): %s/", base)
        log.info("MCP for agents (streamable HTTP): %s/mcp", base)
    else:
        await state.start()
    for st in states:
        if st.origin is not None:
            st.origin.start()
    return state, mcp, runner


async def _serve(bundles: list[str], host: str, port: int, transport: str, poll: float, cache: str | None) -> None:
    import asyncio
    import signal

    log = logging.getLogger("v8atlas.server")
    state, mcp, runner = await start(bundles, host, port, transport, poll, cache)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        if transport in ("stdio", "both"):
            stdio = asyncio.create_task(mcp.run_stdio_async())
            stopper = asyncio.create_task(stop.wait())
            await asyncio.wait({stdio, stopper}, return_when=asyncio.FIRST_COMPLETED)
            for t in (stdio, stopper):
                t.cancel()
        else:
            await stop.wait()
    finally:
        for st in getattr(state, "states", [state]):
            if st.origin is not None:
                await st.origin.stop()
        if runner is not None:
            await runner.cleanup()
        else:
            await state.stop()
        log.info("stopped")


@click.command("serve")
@click.option("--bundles", "bundles_dir", default=["bundles"], show_default=True, multiple=True,
              envvar="V8ATLAS_BUNDLES",
              help="A bundles directory (its newest bundle is served and followed), one bundle "
                   "folder, or an origin URL (https://host/path/ or file:///path/) to pull from. "
                   "Repeat it (or name a folder of bundles directories) to serve one bundle per "
                   "configuration, each swapped on its own. Env: V8ATLAS_BUNDLES (space-separated).")
@click.option("--cache", "cache", default=None, type=click.Path(file_okay=False),
              help="With an origin URL: the folder pulled bundles are kept in, one subfolder per "
                   "origin (default ~/.cache/v8atlas/origins).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5001, show_default=True, type=int)
@click.option("--transport", type=click.Choice(["http", "stdio", "both"]), default="http",
              show_default=True, help="stdio: MCP on stdin/stdout for a client that spawns the server.")
@click.option("--poll", default=2.0, show_default=True, type=float,
              help="Seconds between checks for a newer bundle (0: only /admin/reload; an origin "
                   "is then polled every 5 s).")
@click.option("--log-level", default="INFO", show_default=True,
              type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"], case_sensitive=False))
@click.option("--log-format", default="text", show_default=True, type=click.Choice(["text", "json"]),
              help="json: one JSON object a line with the request id (for log collectors).")
def serve_cmd(bundles_dir: tuple[str, ...], cache: str | None, host: str, port: int, transport: str, poll: float,
              log_level: str, log_format: str) -> None:
    """Serve the newest bundle of BUNDLES over MCP (HTTP and/or stdio) and the JSON API.

    Tokens come from the environment: API_TOKEN (reads), ADMIN_TOKEN (admin + reads), each
    at least 32 characters.
    """
    import asyncio

    from .auth import AuthConfigError

    from v8atlas.formats.origin import is_origin_url

    for spec in bundles_dir:
        if not is_origin_url(spec) and not Path(spec).exists():
            raise click.BadParameter(f"{spec!r} does not exist (a folder or an origin URL)",
                                     param_hint="--bundles")
    setup_logging(log_level, log_format)
    try:
        asyncio.run(_serve(list(bundles_dir), host, port, transport, poll, cache))
    except AuthConfigError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    except KeyboardInterrupt:
        pass


@click.command("stdio")
@click.option("--bundles", "bundles_dir", envvar="V8ATLAS_BUNDLES", default=["bundles"], show_default=True,
              multiple=True, help="As for serve: a bundles directory, one bundle folder or an origin URL; "
                                  "repeat it for one bundle per configuration (or V8ATLAS_BUNDLES).")
@click.option("--cache", "cache", default=None, type=click.Path(file_okay=False),
              help="With an origin URL: the folder pulled bundles are kept in.")
@click.option("--poll", default=2.0, show_default=True, type=float,
              help="Seconds between checks for a newer bundle (0: never).")
@click.option("--log-level", envvar="V8ATLAS_LOG_LEVEL", default="WARNING", show_default=True,
              type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"], case_sensitive=False))
def stdio_cmd(bundles_dir: tuple[str, ...], cache: str | None, poll: float, log_level: str) -> None:
    """MCP over stdin/stdout for a client that spawns its servers (`serve --transport stdio`
    without a `--transport` option, which wrappers such as the MCP Inspector take as their own).
    Only JSON-RPC goes to stdout; logs go to stderr.
    """
    import asyncio

    from v8atlas.formats.origin import is_origin_url

    for spec in bundles_dir:
        if not is_origin_url(spec) and not Path(spec).exists():
            raise click.BadParameter(f"{spec!r} does not exist (a folder or an origin URL)",
                                     param_hint="--bundles")
    setup_logging(log_level)
    try:
        asyncio.run(_serve(list(bundles_dir), "127.0.0.1", 0, "stdio", poll, cache))
    except KeyboardInterrupt:
        pass


@click.command("call", context_settings={"ignore_unknown_options": False})
@click.argument("tool")
@click.argument("args", nargs=-1)
@click.option("--bundles", "bundles_dir", default="bundles", show_default=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print {outcome, text, data} as JSON.")
@click.option("--no-verify", is_flag=True, help="Skip the sha256 check of the bundle (faster on huge bundles).")
def call_cmd(tool: str, args: tuple[str, ...], bundles_dir: str, as_json: bool, no_verify: bool) -> None:
    """Run TOOL in-process with key=value arguments and print the answer an agent would get.

    Example: v8atlas call get_object name=Справочник.Пользователи detail=fields
    """
    from v8atlas.formats import Bundle, BundleError

    from . import tools
    from .snapshot import Snapshot

    _utf8_stdio()
    setup_logging("WARNING")
    kwargs: dict[str, str] = {}
    for a in args:
        key, sep, value = a.partition("=")
        if not sep or not key:
            raise click.UsageError(f"argument {a!r} is not key=value")
        kwargs[key] = value
    try:
        bundle = Bundle.open(bundles_dir)
    except BundleError as e:
        raise click.ClickException(str(e)) from None
    problems = [] if no_verify else bundle.verify_fast()
    if problems:   # the same rule as the server: a bundle that fails verification is not answered from
        raise click.ClickException(f"{bundle.id} fails verification: {'; '.join(problems)} "
                                   f"(v8atlas verify {bundles_dir})")
    snap = Snapshot(bundle)
    result = tools.call(snap, tool, kwargs, from_text=True)
    if as_json:
        click.echo(json.dumps(result.as_json(), ensure_ascii=False, indent=1))
    else:
        click.echo(result.text, nl=not result.text.endswith("\n"))   # error texts have none
    if result.is_error:
        sys.exit(1)
