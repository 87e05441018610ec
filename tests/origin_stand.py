"""A static HTTP origin for tests: GET with ETag/304, PUT (as WebDAV or nginx `dav_methods PUT`
accept it), and faults switched on by the test: 500, a stall, a truncated body, a redirect loop."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path

from aiohttp import web


class Stand:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.fault: str | None = None        # "500" | "stall" | "truncate" | "redirect"
        self.not_modified = 0
        self.gets = 0
        self.runner: web.AppRunner | None = None
        self.url = ""

    def _path(self, rel: str) -> Path:
        path = (self.root / rel).resolve()
        if not path.is_relative_to(self.root.resolve()):
            raise web.HTTPForbidden()
        return path

    async def get(self, request: web.Request) -> web.StreamResponse:
        self.gets += 1
        if self.fault == "500":
            raise web.HTTPInternalServerError()
        if self.fault == "stall":
            await asyncio.sleep(6)           # longer than the tests' 2 s timeout
        if self.fault == "redirect":
            raise web.HTTPFound(str(request.url))          # to itself, for ever
        path = self._path(request.match_info["rel"])
        if not path.is_file():
            raise web.HTTPNotFound()
        st = path.stat()
        etag = f'"{st.st_size}-{st.st_mtime_ns}"'
        if request.headers.get("If-None-Match") == etag:
            self.not_modified += 1
            return web.Response(status=304, headers={"ETag": etag})
        data = path.read_bytes()
        if self.fault == "truncate" and path.name != "NEWEST" and path.name != "manifest.json":
            # Promise the full length, send half, cut the connection.
            resp = web.StreamResponse(headers={"ETag": etag, "Content-Length": str(len(data))})
            await resp.prepare(request)
            await resp.write(data[: len(data) // 2])
            request.transport.close()
            return resp
        return web.Response(body=data, headers={"ETag": etag})

    async def put(self, request: web.Request) -> web.Response:
        path = self._path(request.match_info["rel"])
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".put-{path.name}")
        tmp.write_bytes(await request.read())
        os.replace(tmp, path)
        return web.Response(status=201)

    async def start(self) -> "Stand":
        app = web.Application(client_max_size=1 << 30)
        app.router.add_get("/o/{rel:.*}", self.get)
        app.router.add_put("/o/{rel:.*}", self.put)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/o/"
        return self

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
