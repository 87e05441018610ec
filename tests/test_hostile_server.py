"""The round-1 probe's hostile requests (issue 17, items 10–15), each with its clean outcome."""
from __future__ import annotations

import asyncio
import json
import logging
import socket
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from bundle_factory import build_sample
from test_server_http import start
from v8atlas.server import app as server_app
from v8atlas.server.app import build_app, make_runner
from v8atlas.server.auth import AuthConfig
from v8atlas.server.dashboard.facts import bundle_facts
from v8atlas.server.dashboard.sessions import COOKIE_NAME
from v8atlas.server.state import ServerState

pytestmark = pytest.mark.anyio

API = "read-token-hostile-0123456789abcdef"
ADMIN = "admin-token-hostile-0123456789abcdef"
DEEP = b"[" * 100000 + b"]" * 100000          # 200 KB, under the body cap


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def bundles(tmp_path) -> Path:
    build_sample(tmp_path / "b")
    return tmp_path / "b"


async def _post(s: aiohttp.ClientSession, url: str, body: bytes, **headers: str):
    async with s.post(url, data=body, headers={"Content-Type": "application/json",
                                               "Accept": "application/json, text/event-stream",
                                               **headers}) as r:
        return r.status, await r.json(content_type=None)


async def test_deep_json_and_bad_ids_get_their_jsonrpc_errors(bundles):
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            status, body = await _post(s, f"{srv.base}/mcp", DEEP)
            assert status == 400 and body["error"]["code"] == -32700 and body["id"] is None, body
            assert "nested too deeply" in body["error"]["message"]
            status, body = await _post(s, f"{srv.base}/api/get_object", DEEP)
            assert status == 400 and body["error"]["code"] == "bad_json", body
            for raw_id in ('{"a": 1}', "1e400", "[1]", "true", "1.5", "null"):
                msg = f'{{"jsonrpc": "2.0", "id": {raw_id}, "method": "tools/list"}}'.encode()
                status, body = await _post(s, f"{srv.base}/mcp", msg)
                assert status == 400 and body["error"]["code"] == -32600 and body["id"] is None, (raw_id, body)
            status, body = await _post(s, f"{srv.base}/mcp", b'{"jsonrpc": "2.0", "id": 1' + b"0" * 5000
                                       + b', "method": "tools/list"}')
            assert status == 400 and body["error"]["code"] == -32700, body
            ok = b'{"jsonrpc": "2.0", "id": "x-1", "method": "tools/list"}'
            status, body = await _post(s, f"{srv.base}/mcp", ok)
            assert status == 200 and body["id"] == "x-1" and body["result"]["tools"], body
    finally:
        await srv.runner.cleanup()


async def _dashboard_server(bundles: Path, monkeypatch) -> tuple[web.AppRunner, str]:
    monkeypatch.setenv("API_TOKEN", API)
    monkeypatch.setenv("ADMIN_TOKEN", ADMIN)
    state = ServerState(bundles, poll_interval=0)
    state.load_initial()
    app = build_app(state, auth=AuthConfig.from_env({"API_TOKEN": API, "ADMIN_TOKEN": ADMIN}),
                    dashboard=True)
    runner = make_runner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    await state.serving()
    return runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"


async def _login(s: aiohttp.ClientSession, base: str, token: str) -> aiohttp.ClientResponse:
    return await s.post(f"{base}/login", data={"token": token, "next": "/sources"},
                        headers={"Origin": base}, allow_redirects=False)


async def test_non_ascii_cookie_is_a_clean_401(bundles, monkeypatch):
    runner, base = await _dashboard_server(bundles, monkeypatch)
    try:
        async with aiohttp.ClientSession() as s:
            cookie = "eyJyIjoiYWRtaW4ifQ.подпись"
            async with s.get(f"{base}/api/get_object", params={"name": "Справочник.Товары"},
                             headers={"Cookie": f"{COOKIE_NAME}={cookie}".encode("utf-8").decode("latin-1")}) as r:
                assert r.status == 401 and (await r.json())["error"]["code"] == "unauthorized"
    finally:
        await runner.cleanup()


async def test_logout_revokes_the_session(bundles, monkeypatch):
    runner, base = await _dashboard_server(bundles, monkeypatch)
    try:
        async with aiohttp.ClientSession() as s:
            r = await _login(s, base, ADMIN)
            assert r.status in (302, 303), await r.text()
            cookie = r.cookies[COOKIE_NAME].value
            probe = {"Cookie": f"{COOKIE_NAME}={cookie}"}
            async with s.get(f"{base}/ui/bundle", headers=probe) as r2:
                assert r2.status == 200
            async with s.post(f"{base}/logout", headers={**probe, "Origin": base},
                              allow_redirects=False) as r3:
                assert r3.status in (302, 303)
        async with aiohttp.ClientSession() as s2:   # the old cookie, replayed by anyone
            async with s2.get(f"{base}/ui/bundle", headers=probe) as r4:
                assert r4.status == 401
            async with s2.get(f"{base}/api/get_object", params={"name": "x"}, headers=probe) as r5:
                assert r5.status == 401
    finally:
        await runner.cleanup()


async def test_wrong_tokens_and_logins_are_throttled_per_client(bundles, monkeypatch):
    runner, base = await _dashboard_server(bundles, monkeypatch)
    try:
        async with aiohttp.ClientSession() as s:
            statuses = []
            for _ in range(25):
                async with s.get(f"{base}/api/get_object", params={"name": "x"},
                                 headers={"X-Api-Token": "w" * 40}) as r:
                    statuses.append(r.status)
            assert statuses[:20] == [401] * 20 and set(statuses[20:]) == {429}, statuses
            async with s.get(f"{base}/api/get_object", params={"name": "x"},
                             headers={"X-Api-Token": API}) as r:
                assert r.status == 429 and int(r.headers["Retry-After"]) >= 1   # right or not
            r = await _login(s, base, API)
            assert r.status == 429 and "Слишком много" in await r.text()
            async with s.get(f"{base}/health") as r:            # no token presented: served
                assert r.status == 200
    finally:
        await runner.cleanup()


async def test_an_aborted_body_is_one_debug_line(bundles, caplog):
    srv = await start(bundles)
    try:
        caplog.set_level(logging.DEBUG)
        for path in ("/api/get_object", "/mcp", "/login"):
            _, writer = await asyncio.open_connection("127.0.0.1", srv.port)
            writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nContent-Type: "
                         f"application/json\r\nContent-Length: 100000\r\n\r\n{{\"a\": ".encode())
            await writer.drain()
            await asyncio.sleep(0.2)
            writer.close()
            await asyncio.sleep(0.3)
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, [r.getMessage() for r in errors]
        assert sum("request body aborted" in r.getMessage() for r in caplog.records) >= 2
    finally:
        await srv.runner.cleanup()


async def test_idle_and_slow_clients_are_dropped(bundles, monkeypatch):
    monkeypatch.setattr(server_app, "IDLE_TIMEOUT_S", 0.5)
    srv = await start(bundles)
    try:
        loop = asyncio.get_running_loop()
        idle = socket.create_connection(("127.0.0.1", srv.port))
        slow = socket.create_connection(("127.0.0.1", srv.port))
        slow.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")     # headers never finished
        for sock in (idle, slow):
            sock.setblocking(False)
            data = await asyncio.wait_for(loop.sock_recv(sock, 100), 10)
            assert data == b"", data            # closed by the server, no answer
            sock.close()
    finally:
        await srv.runner.cleanup()


async def test_ui_bundle_shows_no_absolute_path(tmp_path, monkeypatch):
    """A compile run from another folder names its sources absolutely; /ui/bundle cuts them."""
    from v8atlas.compiler.pipeline import compile_bundle
    repo = Path(__file__).resolve().parent.parent
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = compile_bundle([str(repo / "examples" / "config-designer"),
                             str(repo / "examples" / "help" / "8.3.27.2130" / "shcntx_ru.hbk")],
                            str(tmp_path / "bundles"), quiet=True)
    from v8atlas.formats import Bundle
    bundle = Bundle.open(result.bundle_path)
    raw = json.dumps(bundle.manifest, ensure_ascii=False)
    assert str(repo) in raw, "the compile did not name a source absolutely: nothing to test"
    shown = json.dumps(bundle_facts(bundle), ensure_ascii=False)
    assert str(repo) not in shown, shown[:500]
    assert "config-designer" in shown       # the portable tail is kept
