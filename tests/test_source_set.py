"""One process, several bundle sources (one bundle per configuration): routing by `config`,
independent swaps, list_sources naming each configuration's bundle, a name claimed twice."""
from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bundle_factory import build_bundle, build_sample, sample_docs
from v8atlas.server.app import build_app, make_runner
from v8atlas.server.auth import AuthConfig
from v8atlas.server.cli import expand_sources
from v8atlas.server.mcp_server import build_mcp
from v8atlas.server.source_set import SourceSet
from v8atlas.server.state import ServerState

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def build_only(out: Path, keep: str, name: str) -> Path:
    """The sample with one configuration (`Демо` or `Демо2`) and the platform help."""
    docs, _, info = sample_docs(True)
    docs = [d for d in docs if d.config in (None, keep)]
    info = {**info, "configurations": [c for c in info["configurations"] if c["name"] == keep],
            "config_order": [keep]}
    return build_bundle(out, docs, info=info, name=name)


async def _serve(dirs: list[Path], dashboard: bool = False) -> tuple[SourceSet, web.AppRunner, str]:
    states = [ServerState(d, poll_interval=0) for d in dirs]
    for s in states:
        s.load_initial()
    sources = SourceSet(states)
    app = build_app(sources, auth=AuthConfig.from_env({}), mcp=build_mcp(sources), dashboard=dashboard)
    runner = make_runner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    for s in states:
        await s.serving()
    return sources, runner, f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"


async def test_calls_are_routed_to_the_bundle_of_their_configuration(tmp_path):
    a = build_only(tmp_path / "erp", "Демо", "erp")
    b = build_only(tmp_path / "zup", "Демо2", "zup")
    sources, runner, base = await _serve([tmp_path / "erp", tmp_path / "zup"])
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{base}/api/list_sources") as r:
                body = await r.json()
            assert r.status == 200 and body["outcome"] == "list"
            assert {(c["name"], c["bundle"]) for c in body["data"]["configs"]} == {("Демо", a.name),
                                                                                  ("Демо2", b.name)}
            assert a.name in body["text"] and b.name in body["text"]
            for config, bundle in (("Демо", a), ("Демо2", b)):
                async with s.get(f"{base}/api/get_object",
                                 params={"name": "Справочник.Номенклатура", "config": config}) as r:
                    body = await r.json()
                assert r.status == 200 and body["outcome"] == "found", body
                assert body["data"]["source_bundle"] == bundle.name
            async with s.get(f"{base}/api/get_object", params={"name": "Справочник.Номенклатура"}) as r:
                body = await r.json()
            assert r.status == 400 and body["error"]["code"] == "config_required"
            async with s.get(f"{base}/api/get_object", params={"name": "x", "config": "Нет"}) as r:
                body = await r.json()
            assert body["error"]["code"] == "unknown_config" and "Демо2" in body["error"]["message"]
            async with s.get(f"{base}/ready") as r:
                body = await r.json()
            assert r.status == 200 and body["state"] == "ready"
            assert [p["bundle"] for p in body["sources"]] == [a.name, b.name]
        # one source swaps on its own; the other keeps its bundle
        a2 = build_only(tmp_path / "erp", "Демо", "erp")
        erp, zup = sources.states
        assert (await erp.reload()).outcome == "reloaded" and (await zup.reload()).outcome == "unchanged"
        assert erp.current.id == a2.name and zup.current.id == b.name
    finally:
        await runner.cleanup()


async def test_a_configuration_claimed_by_two_bundles_is_an_error_naming_both(tmp_path):
    a = build_only(tmp_path / "one", "Демо", "one")
    b = build_sample(tmp_path / "two", name="two")       # Демо and Демо2
    sources, runner, base = await _serve([tmp_path / "one", tmp_path / "two"])
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{base}/api/get_object",
                             params={"name": "Справочник.Номенклатура", "config": "Демо"}) as r:
                body = await r.json()
            assert body["error"]["code"] == "config_conflict", body
            assert a.name in body["error"]["message"] and b.name in body["error"]["message"]
            async with s.get(f"{base}/api/get_object",
                             params={"name": "Справочник.Номенклатура", "config": "Демо2"}) as r:
                assert (await r.json())["outcome"] == "found"     # the unclaimed one still answers
            async with s.get(f"{base}/ready") as r:
                body = await r.json()
            assert body["state"] == "degraded" and len(body["conflicts"]["Демо"]) == 2
    finally:
        await runner.cleanup()


def test_a_folder_of_bundles_directories_stands_for_each(tmp_path):
    build_only(tmp_path / "all" / "erp", "Демо", "erp")
    build_only(tmp_path / "all" / "zup", "Демо2", "zup")
    assert expand_sources([str(tmp_path / "all")]) == [str(tmp_path / "all" / "erp"),
                                                       str(tmp_path / "all" / "zup")]
    assert expand_sources([str(tmp_path / "all" / "erp")]) == [str(tmp_path / "all" / "erp")]


async def test_dashboard_of_a_set_shows_its_first_source(tmp_path):
    pytest.importorskip("v8atlas.server.dashboard")
    a = build_only(tmp_path / "erp", "Демо", "erp")
    build_only(tmp_path / "zup", "Демо2", "zup")
    _, runner, base = await _serve([tmp_path / "erp", tmp_path / "zup"], dashboard=True)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{base}/", headers={"Accept": "text/html"}) as r:
                assert r.status == 200
            async with s.get(f"{base}/ui/bundle") as r:
                assert r.status == 200 and a.name in await r.text()
    finally:
        await runner.cleanup()
