"""`v8atlas serve` and `v8atlas call`: a thin shell over state.py, app.py and the tools."""
from __future__ import annotations

import json
import logging
import sys

import click


def setup_logging(level: str) -> None:
    """Logs go to stderr (stdout is the JSON-RPC wire in stdio mode); set before MCPServer()."""
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The SDK logs "Terminating session: None" at INFO on every stateless request.
    logging.getLogger("mcp").setLevel(max(logging.WARNING, logging.getLogger().level))
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)


def _utf8_stdio() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass


async def start(bundles: str, host: str, port: int, transport: str, poll: float):
    """Open the newest bundle, build MCP and (for http/both) listen; returns (state, mcp, runner)."""
    import gc

    from aiohttp import web

    from .app import build_app, make_runner
    from .auth import MIN_TOKEN_CHARS, AuthConfig
    from .mcp_server import build_mcp
    from .state import ServerState

    # Everything imported so far lives as long as the process: move it out of the collector's
    # sight, so a full collection does not walk ~half a million module objects (a 60 ms pause
    # measured in the first request; later, in p99).
    gc.freeze()

    log = logging.getLogger("v8atlas.server")
    auth = AuthConfig.from_env(host=host)
    state = ServerState(bundles, poll_interval=poll)
    state.load_initial()
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
    else:
        await state.start()
    return state, mcp, runner


async def _serve(bundles: str, host: str, port: int, transport: str, poll: float) -> None:
    import asyncio
    import signal

    log = logging.getLogger("v8atlas.server")
    state, mcp, runner = await start(bundles, host, port, transport, poll)
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
        if runner is not None:
            await runner.cleanup()
        else:
            await state.stop()
        log.info("stopped")


@click.command("serve")
@click.option("--bundles", "bundles_dir", default="bundles", show_default=True,
              type=click.Path(exists=True), help="A bundles directory (its newest bundle is served "
                                                  "and followed) or one bundle folder.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5001, show_default=True, type=int)
@click.option("--transport", type=click.Choice(["http", "stdio", "both"]), default="http",
              show_default=True, help="stdio: MCP on stdin/stdout for a client that spawns the server.")
@click.option("--poll", default=2.0, show_default=True, type=float,
              help="Seconds between checks for a newer bundle (0: only /admin/reload).")
@click.option("--log-level", default="INFO", show_default=True,
              type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"], case_sensitive=False))
def serve_cmd(bundles_dir: str, host: str, port: int, transport: str, poll: float, log_level: str) -> None:
    """Serve the newest bundle of BUNDLES over MCP (HTTP and/or stdio) and the JSON API.

    Tokens come from the environment: API_TOKEN (reads), ADMIN_TOKEN (admin + reads), each
    at least 32 characters.
    """
    import asyncio

    from .auth import AuthConfigError

    setup_logging(log_level)
    try:
        asyncio.run(_serve(bundles_dir, host, port, transport, poll))
    except AuthConfigError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
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
