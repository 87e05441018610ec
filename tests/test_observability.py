"""/ready states, /metrics (prometheus-client) and correlation ids on errors and log lines."""
from __future__ import annotations

import json
import logging

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bundle_factory import build_sample
from test_server_http import start
from v8atlas.server.observe import JsonFormatter, request_id

pytestmark = pytest.mark.anyio
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def _samples(text: str) -> dict[tuple, float]:
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


async def test_metrics_count_calls_per_tool_transport_and_outcome(tmp_path):
    bundles = tmp_path / "b"
    bundle = build_sample(bundles, name="m")
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            for _ in range(3):
                async with s.get(f"{srv.base}/api/get_object",
                                 params={"name": "Справочник.Номенклатура", "config": "Демо"}) as r:
                    assert r.status == 200
            async with s.get(f"{srv.base}/api/get_object", params={"name": "x", "config": "Нет"}) as r:
                assert r.status == 400
            async with s.post(f"{srv.base}/mcp", headers=MCP_HEADERS, json={
                    "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "list_sources", "arguments": {}}}) as r:
                assert r.status == 200
            async with s.get(f"{srv.base}/metrics") as r:
                assert r.status == 200 and r.content_type == "text/plain"
                m = _samples(await r.text())
        calls = "v8atlas_tool_calls_total"
        assert m[(calls, (("outcome", "found"), ("tool", "get_object"), ("transport", "api")))] == 3
        assert m[(calls, (("outcome", "error"), ("tool", "get_object"), ("transport", "api")))] == 1
        assert m[(calls, (("outcome", "list"), ("tool", "list_sources"), ("transport", "mcp_http")))] == 1
        assert m[("v8atlas_tool_errors_total", (("code", "unknown_config"), ("tool", "get_object"),
                                                ("transport", "api")))] == 1
        assert m[("v8atlas_tool_seconds_count", (("tool", "get_object"), ("transport", "api")))] == 4
        info = [k for k in m if k[0] == "v8atlas_bundle_info"]
        assert {dict(k[1])["configuration"] for k in info} == {"Демо", "Демо2"}
        assert all(dict(k[1])["bundle"] == bundle.name for k in info)
        assert m[("v8atlas_source_state", (("source", "b"), ("state", "ready")))] == 1
        assert m[("process_resident_memory_bytes", ())] > 1e6
    finally:
        await srv.runner.cleanup()


async def test_error_answers_carry_the_request_id_of_their_log_lines(tmp_path, caplog):
    bundles = tmp_path / "b"
    build_sample(bundles, name="r")
    srv = await start(bundles)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/api/get_object", params={"name": "x", "config": "Нет"},
                             headers={"X-Request-Id": "abc-123"}) as r:
                body = await r.json()
                assert r.headers["X-Request-Id"] == "abc-123"
                assert body["error"]["request_id"] == "abc-123" and "abc-123" in body["text"]
            async with s.get(f"{srv.base}/nowhere", headers={"X-Request-Id": "bad id\u00e9" * 20}) as r:
                body = await r.json()
                rid = body["error"]["request_id"]      # an unsafe id is replaced, not echoed
                assert rid == r.headers["X-Request-Id"] and len(rid) == 16
    finally:
        await srv.runner.cleanup()
    token = request_id.set("abc-123")
    try:
        rec = logging.LogRecord("v8atlas.server", logging.ERROR, __file__, 1, "boom %s", ("x",), None)
        line = json.loads(JsonFormatter().format(rec))
    finally:
        request_id.reset(token)
    assert line["request_id"] == "abc-123" and line["message"] == "boom x" and line["level"] == "ERROR"


async def test_ready_states_starting_ready_degraded_unavailable(tmp_path):
    from v8atlas.server.state import ServerState
    bundles = tmp_path / "b"
    older = build_sample(bundles, second_config=False, name="older")
    state = ServerState(bundles, poll_interval=0)
    assert state.readiness == "unavailable"
    state.load_initial()
    assert state.readiness == "starting" and state.ready()[0] is False
    await state.verify_current()
    assert state.readiness == "ready" and state.ready()[1]["bundle"] == older.name
    newest = build_sample(bundles, name="newest")
    (newest / "manifest.json").write_text("{", encoding="utf-8")
    result = await state.reload()
    assert result.outcome == "refused"
    ok, body = state.ready()
    assert ok and body["state"] == "degraded" and body["last_refused"]["bundle"] == newest.name
    await state.stop()


async def test_metrics_follow_the_read_token(tmp_path):
    bundles = tmp_path / "b"
    build_sample(bundles, name="t")
    token = "read-token-0123456789-0123456789-abcdef"
    srv = await start(bundles, {"API_TOKEN": token})
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{srv.base}/metrics") as r:
                assert r.status == 401 and (await r.json())["error"]["request_id"]
            async with s.get(f"{srv.base}/metrics", headers={"Authorization": f"Bearer {token}"}) as r:
                assert r.status == 200 and "v8atlas_source_state" in await r.text()
            async with s.get(f"{srv.base}/ready") as r:         # probes carry no token
                assert r.status == 200
    finally:
        await srv.runner.cleanup()
