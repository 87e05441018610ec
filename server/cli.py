"""`v8atlas serve` (minimal until the server issue lands: /health and bundle info)."""
from __future__ import annotations

import click


@click.command("serve")
@click.option("--bundles", "bundles_dir", default="bundles", show_default=True,
              type=click.Path(exists=True, file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5001, show_default=True, type=int)
def serve_cmd(bundles_dir: str, host: str, port: int) -> None:
    """Serve the newest bundle of BUNDLES over HTTP."""
    from aiohttp import web

    from v8atlas.formats import Bundle, BundleError

    try:
        bundle = Bundle.open(bundles_dir)
    except BundleError as e:
        raise click.ClickException(str(e)) from None

    async def health(_: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "bundle": bundle.id, "counts": bundle.counts})

    app = web.Application()
    app.router.add_get("/health", health)
    click.echo(f"serving {bundle.id} on http://{host}:{port}", err=True)
    web.run_app(app, host=host, port=port, print=None)


@click.command("call")
def call_cmd() -> None:
    """Run a tool in-process (arrives with the server issue)."""
    raise click.ClickException("not available yet")
