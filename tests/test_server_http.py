"""The HTTP side: JSON API, health/ready, tokens, Host/Origin, caps, /mcp edges, hot swap."""
from __future__ import annotations

import asyncio
import json
import logging
import shutil
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bundle_factory import build_sample
from v8atlas.server.app import build_app, make_runner
from v8atlas.server.auth import AuthConfig, AuthConfigError, register_open_path, register_session_validator
from v8atlas.server.mcp_server import build_mcp
from v8atlas.server.state import ServerState

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


class Running:
    def __init__(self, runner: web.AppRunner, port: int, state: ServerState) -> None:
        self.runner, self.port, self.state = runner, port, state
        self.base = f"http://127.0.0.1:{port}"


async def start(bundles: Path, env: dict[str, str] | None = None, *, poll: float = 0,
                with_mcp: bool = True, configure=None) -> Running:
    state = ServerState(bundles, poll_interval=poll)
    state.load_initial()
    app = build_app(state, auth=AuthConfig.from_env(env or {}), mcp=build_mcp(state) if with_mcp else None,
                    dashboard=False)
    if configure:
        configure(app)
    runner = make_runner(app)              # as `v8atlas serve` builds it
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    await state.serving()                    # wait for the startup integrity check
    return Running(runner, port, state)


async def raw_request(port: int, request_line: str) -> tuple[int, str, str]:
    """Send one request line as UTF-8 bytes, as a shell's curl does; (status, headers, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{request_line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.decode("utf-8").partition("\r\n\r\n")
    return int(head.split()[1]), head.lower(), body


@pytest.fixture
def bundles(tmp_path) -> Path:
    build_sample(tmp_path / "b")
    return tmp_path / "b"


async def test_api_mirrors_tools_and_error_shape(bundles):
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/api/get_object",
                             params={"name": "Документ.ЗаказПокупателя", "config": "Демо"}) as r:
                body = await r.json()
                assert r.status == 200 and body["outcome"] == "found"
                assert body["data"]["object"]["title"] == "Документ.ЗаказПокупателя"
            async with s.post(f"{srv.base}/api/search_metadata", json={"query": "заказ", "config": "Демо",
                                                                      "limit": 2}) as r:
                assert (await r.json())["outcome"] == "found"
            for url, kwargs, status, code in [
                ("/api/nope", {"json": {}}, 404, "unknown_tool"),
                ("/api/get_object", {"json": {"name": 5}}, 400, "bad_argument"),
                ("/api/get_object", {"data": b"{bad"}, 400, "bad_json"),
                ("/api/get_object", {"json": ["x"]}, 400, "bad_argument"),
                ("/api/get_object", {"json": {"name": "x", "config": "Нет"}}, 400, "unknown_config"),
                ("/api/search_metadata", {"json": {"query": "я" * 5000, "config": "Демо"}}, 400, "too_long"),
                ("/nowhere", {"json": {}}, 404, "not_found"),
            ]:
                async with s.post(srv.base + url, **kwargs) as r:
                    body = await r.json()
                    assert r.status == status, (url, body)
                    assert body["outcome"] == "error" and body["error"]["code"] == code
                    assert str(bundles) not in json.dumps(body, ensure_ascii=False)
            async with s.get(f"{srv.base}/api/get_object", params={"q": "x" * 5000}) as r:
                assert r.status == 414
            # over aiohttp's default 8190-byte line limit: still our JSON, not its text/plain 400
            async with s.get(f"{srv.base}/api/get_object", params={"q": "x" * 9000}) as r:
                assert r.status == 414 and r.content_type == "application/json"
                assert (await r.json())["error"]["code"] == "too_long"
            async with s.get(f"{srv.base}/" + "p" * 9000) as r:
                assert r.status == 414 and (await r.json())["error"]["code"] == "too_long"
            async with s.post(f"{srv.base}/api/get_object", data=b"x" * (300 * 1024)) as r:
                assert r.status == 413 and (await r.json())["error"]["code"] == "too_large"
        # a query string typed with raw UTF-8 (curl "…?name=Справочник.X"): the JSON error shape
        status, headers, body = await raw_request(srv.port, "GET /api/get_object?name=Справочник.Х&config=Демо")
        assert status == 400 and "application/json" in headers, (status, headers, body)
        error = json.loads(body)
        assert error["outcome"] == "error" and error["error"]["code"] == "bad_request"
        assert "percent-encoded" in error["error"]["message"]
    finally:
        await srv.runner.cleanup()


async def test_health_ready_and_mcp_method_rules(bundles):
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/health") as r:
                body = await r.json()
                assert r.status == 200 and body["status"] == "ok"
                assert body["counts"]["documents"]["metadata"] > 0
                assert "path" not in json.dumps(body)
            async with s.get(f"{srv.base}/ready") as r:
                assert r.status == 200 and (await r.json())["verified"] is True
            for method in ("GET", "DELETE"):
                async with s.request(method, f"{srv.base}/mcp") as r:
                    assert r.status == 405 and r.headers["Allow"] == "POST"
            headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
            async with s.post(f"{srv.base}/mcp", data=b'{"jsonrpc": "2.0", "id": 1, "meth', headers=headers) as r:
                body = await r.json()
                assert body["error"]["code"] == -32700
            for not_rpc in ([1, 2, 3], {"id": 7, "method": "tools/list"}, "hello"):
                async with s.post(f"{srv.base}/mcp", json=not_rpc, headers=headers) as r:
                    body = await r.json()
                    assert r.status == 400 and body["error"]["code"] == -32600, body
                    assert body["error"]["message"].startswith("not a JSON-RPC 2.0 request")
                    assert "validation" not in json.dumps(body).lower()
            async with s.post(f"{srv.base}/admin/reload") as r:
                assert r.status == 404                     # no ADMIN_TOKEN: the route does not exist
            # a browser on an unknown address gets a small page; programs keep the JSON shape
            html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
            async with s.get(f"{srv.base}/no/such/<page>", headers=html) as r:
                assert r.status == 404 and r.content_type == "text/html"
                text = await r.text()
                assert "Not found" in text and "&lt;page&gt;" in text and "<page>" not in text
            async with s.get(f"{srv.base}/api/no_such_tool", headers=html) as r:
                assert r.status == 404 and r.content_type == "application/json"
            async with s.get(f"{srv.base}/no/such/page") as r:
                assert r.status == 404 and (await r.json())["error"]["code"] == "not_found"
    finally:
        await srv.runner.cleanup()


async def test_tokens_and_sessions(bundles):
    env = {"API_TOKEN": "read-token-123-0123456789abcdefghij", "ADMIN_TOKEN": "admin-token-456-0123456789abcdefghij"}

    def configure(app):
        register_session_validator(app, lambda req: "read" if req.cookies.get("sid") == "good" else None)
        register_open_path(app, "/static/")

    srv = await start(bundles, env, configure=configure)
    try:
        async with aiohttp.ClientSession() as s:
            url = f"{srv.base}/api/list_sources"
            async with s.get(url) as r:
                assert r.status == 401 and (await r.json())["error"]["code"] == "unauthorized"
            async with s.get(url, headers={"X-Api-Token": "wrong-token-000"}) as r:
                assert r.status == 401
            async with s.get(url, headers={"X-Api-Token": "read-token-123-0123456789abcdefghij"}) as r:
                assert r.status == 200
            async with s.get(url, headers={"Authorization": "Bearer admin-token-456-0123456789abcdefghij"}) as r:
                assert r.status == 200                     # admin is valid for reads
            async with s.get(url, headers={"Authorization": "Bearer тест"}) as r:
                assert r.status == 401
            async with s.get(url, headers={"Cookie": "sid=good"}) as r:
                assert r.status == 200
            async with s.get(f"{srv.base}/health") as r:
                assert r.status == 200                     # always open
            async with s.get(f"{srv.base}/static/x.css") as r:
                assert r.status == 404                     # open path: no 401, just no file
            async with s.post(f"{srv.base}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                              headers={"Accept": "application/json, text/event-stream"}) as r:
                assert r.status == 401
            async with s.post(f"{srv.base}/admin/reload", headers={"X-Api-Token": "read-token-123-0123456789abcdefghij"}) as r:
                assert r.status == 401
            async with s.post(f"{srv.base}/admin/reload", headers={"X-Api-Token": "admin-token-456-0123456789abcdefghij"}) as r:
                assert r.status == 200 and (await r.json())["outcome"] in ("reloaded", "unchanged")
    finally:
        await srv.runner.cleanup()


def test_bad_tokens_are_refused_at_startup():
    with pytest.raises(AuthConfigError, match="ASCII"):
        AuthConfig.from_env({"API_TOKEN": "пароль-пароль"})
    with pytest.raises(AuthConfigError, match="at least 32 are required"):
        AuthConfig.from_env({"ADMIN_TOKEN": "abc"})
    with pytest.raises(AuthConfigError, match="31 characters"):
        AuthConfig.from_env({"API_TOKEN": "x" * 31})
    assert AuthConfig.from_env({"API_TOKEN": "x" * 32}).api_token == b"x" * 32


async def test_host_and_origin_checks(bundles):
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/health", headers={"Host": "evil.example"}) as r:
                assert r.status == 421
            async with s.get(f"{srv.base}/api/list_sources", headers={"Origin": "http://evil.example"}) as r:
                assert r.status == 403
            async with s.get(f"{srv.base}/api/list_sources", headers={"Origin": "http://localhost:3000"}) as r:
                assert r.status == 200
    finally:
        await srv.runner.cleanup()


async def test_hot_swap_poll_and_refusal(tmp_path, caplog):
    bundles = tmp_path / "b"
    first = build_sample(bundles, second_config=False, name="one")
    srv = await start(bundles, {"ADMIN_TOKEN": "admin-token-456-0123456789abcdefghij"}, poll=0.05)
    admin = {"X-Api-Token": "admin-token-456-0123456789abcdefghij"}
    try:
        assert srv.state.current.id == first.name
        held = srv.state.current                 # an in-flight request keeps its snapshot
        second = build_sample(bundles, name="two")
        for _ in range(200):
            if srv.state.current.id == second.name:
                break
            await asyncio.sleep(0.02)
        assert srv.state.current.id == second.name
        assert held.catalog.titles[0]            # the old mapping still answers
        # a damaged newer bundle is refused; the current one keeps serving
        third = build_sample(bundles, name="three")
        seg = next(p for p in third.iterdir() if p.name.startswith("docs.cards"))
        data = bytearray(seg.read_bytes())
        data[len(data) // 2] ^= 0xFF
        seg.write_bytes(bytes(data))
        async with aiohttp.ClientSession() as s:
            async with s.post(f"{srv.base}/admin/reload", headers=admin) as r:
                body = await r.json()
                assert r.status == 409 and body["outcome"] == "refused"
                assert "corrupted" in body["reason"] and str(tmp_path) not in body["reason"]
            async with s.get(f"{srv.base}/ready") as r:
                body = await r.json()
                assert r.status == 200 and body["bundle"] == second.name
                assert body["last_refused"]["bundle"] == third.name
            async with s.get(f"{srv.base}/api/list_sources") as r:
                assert (await r.json())["data"]["bundle"]["id"] == second.name
            # the refused bundle is remembered: later polls (the directory changes) do not hash
            # it again nor log it at ERROR again
            caplog.clear()
            with caplog.at_level(logging.DEBUG, logger="v8atlas.server"):
                for i in range(3):
                    (bundles / f"touch{i}").write_text("x")
                    await asyncio.sleep(0.15)
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
            assert "unchanged since it was refused" in caplog.text
            # a newer good bundle is served: last_refused is cleared from /ready
            fourth = build_sample(bundles, name="four")
            for _ in range(200):
                if srv.state.current.id == fourth.name:
                    break
                await asyncio.sleep(0.02)
            async with s.get(f"{srv.base}/ready") as r:
                body = await r.json()
                assert body["bundle"] == fourth.name and "last_refused" not in body, body
        shutil.rmtree(third)
    finally:
        await srv.runner.cleanup()


async def test_ready_is_503_without_a_bundle(tmp_path):
    (tmp_path / "empty").mkdir()
    srv = await start(tmp_path / "empty")
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/ready") as r:
                body = await r.json()
                assert r.status == 503 and body["ready"] is False and body["reason"]
                assert str(tmp_path) not in json.dumps(body)
            async with s.get(f"{srv.base}/api/list_sources") as r:
                body = await r.json()
                assert r.status == 503 and body["outcome"] == "unavailable" and body["data"]["reason"]
            async with s.get(f"{srv.base}/health") as r:
                assert (await r.json())["status"] == "degraded"
    finally:
        await srv.runner.cleanup()


def _corrupt(bundle: Path) -> None:
    seg = next(p for p in bundle.iterdir() if p.name.startswith("docs.cards"))
    data = bytearray(seg.read_bytes())
    data[len(data) // 2] ^= 0xFF
    seg.write_bytes(bytes(data))


async def test_damaged_newest_at_start_falls_back_to_an_older_bundle(tmp_path, caplog):
    bundles = tmp_path / "b"
    older = build_sample(bundles, second_config=False, name="older")
    newest = build_sample(bundles, name="newest")
    _corrupt(newest)
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/api/list_sources") as r:
                body = await r.json()     # the damaged one never answered a request
                assert r.status == 200 and body["data"]["bundle"]["id"] == older.name
            async with s.get(f"{srv.base}/ready") as r:
                body = await r.json()
                assert body["bundle"] == older.name and body["fallback_from"] == newest.name
                assert "corrupted" in body["last_refused"]["reason"]
            async with s.get(f"{srv.base}/health") as r:
                assert (await r.json())["status"] == "ok"
        assert any("older bundle" in rec.getMessage() and older.name in rec.getMessage()
                   for rec in caplog.records)
    finally:
        await srv.runner.cleanup()


async def test_damaged_only_bundle_at_start_serves_nothing(tmp_path):
    bundles = tmp_path / "b"
    _corrupt(build_sample(bundles, name="only"))
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/api/get_object", params={"name": "Справочник.Номенклатура"}) as r:
                body = await r.json()
                assert r.status == 503 and body["outcome"] == "unavailable"
                assert "failed verification" in body["text"] and str(tmp_path) not in body["text"]
            async with s.post(f"{srv.base}/mcp", json={
                    "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "list_sources", "arguments": {}}},
                    headers={"Accept": "application/json, text/event-stream",
                             "MCP-Protocol-Version": "2025-11-25"}) as r:
                text = json.dumps(await r.json(), ensure_ascii=False)
                assert "unavailable" in text and "failed verification" in text
            async with s.get(f"{srv.base}/health") as r:
                assert (await r.json())["status"] == "degraded"
            async with s.get(f"{srv.base}/ready") as r:
                assert r.status == 503 and "failed verification" in (await r.json())["reason"]
    finally:
        await srv.runner.cleanup()


async def test_dashboard_pages_reachable_with_tokens_set(bundles):
    pytest.importorskip("v8atlas.server.dashboard")
    state = ServerState(bundles, poll_interval=0)
    state.load_initial()
    app = build_app(state, auth=AuthConfig.from_env({"API_TOKEN": "read-token-123-0123456789abcdefghij"}), dashboard=True)
    runner = make_runner(app)              # as `v8atlas serve` builds it
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{base}/login") as r:
                assert r.status == 200                  # the login form needs no token
            async with s.get(f"{base}/api/list_sources") as r:
                assert r.status == 401                  # the data still does
    finally:
        await runner.cleanup()
