"""Publish to an origin and pull from it (file:// and a static HTTP layout): conditional polls,
every hash verified before the swap, the old bundle kept on any failure, back-off, /ready."""
from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from bundle_factory import build_sample
from origin_stand import Stand
from v8atlas.cli import main as cli
from v8atlas.formats import BundleError
from v8atlas.formats.origin import publish, pull
from v8atlas.server.origin_sync import OriginSync
from v8atlas.server.state import ServerState

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def two_bundles(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("src") / "b"
    return build_sample(root, second_config=False, name="one"), build_sample(root, name="two")


async def _follow(url: str, cache: Path, poll: float = 0.05) -> tuple[ServerState, OriginSync]:
    state = ServerState(cache, poll_interval=0)
    cache.mkdir(parents=True, exist_ok=True)
    state.load_initial()
    await state.start()
    return state, OriginSync(url, cache, state, poll_interval=poll, timeout=2.0)


async def test_file_origin_publish_pull_and_swap(two_bundles, tmp_path):
    one, two = two_bundles
    origin = tmp_path / "origin"
    r = CliRunner().invoke(cli, ["publish", str(one), "--to", f"file://{origin}/"])
    assert r.exit_code == 0 and json.loads((one / "manifest.json").read_text())["content_hash"] in r.output
    state, sync = await _follow(f"file://{origin}/", tmp_path / "cache")
    try:
        assert state.readiness == "unavailable"          # nothing pulled yet
        assert await sync.check_once() is True
        assert state.current.id == one.name and state.readiness == "ready"
        assert await sync.check_once() is False           # pointer unchanged: nothing pulled
        publish(two, f"file://{origin}/")
        assert await sync.check_once() is True and state.current.id == two.name
        body = state.ready()[1]
        assert body["origin"]["newest"] == two.name and str(origin) not in json.dumps(body)
    finally:
        await state.stop()


async def test_http_origin_put_conditional_get_and_pull(two_bundles, tmp_path):
    one, two = two_bundles
    stand = await Stand(tmp_path / "www").start()
    state, sync = await _follow(stand.url, tmp_path / "cache")
    try:
        await asyncio.to_thread(publish, one, stand.url)
        assert (tmp_path / "www" / "NEWEST").read_text().strip() == one.name
        assert await sync.check_once() is True and state.current.id == one.name
        before = stand.not_modified
        assert await sync.check_once() is False and stand.not_modified == before + 1   # 304
        await asyncio.to_thread(publish, two, stand.url)
        assert await sync.check_once() is True and state.current.id == two.name
        assert sorted(p.name for p in (tmp_path / "cache").iterdir() if not p.name.startswith(".")) == \
            sorted(["NEWEST", one.name, two.name])
    finally:
        await state.stop()
        await stand.stop()


def _damage_hash(www: Path, name: str) -> None:
    seg = next(p for p in (www / name).iterdir() if p.name.startswith("docs.cards"))
    data = bytearray(seg.read_bytes())
    data[len(data) // 2] ^= 0xFF
    seg.write_bytes(bytes(data))


BAD_ORIGINS = [
    ("http-500", lambda stand, www, name: setattr(stand, "fault", "500"), "HTTP 500"),
    ("timeout", lambda stand, www, name: setattr(stand, "fault", "stall"), "timed out"),
    ("truncated", lambda stand, www, name: setattr(stand, "fault", "truncate"), "truncated|IncompleteRead"),
    ("hash-mismatch", lambda stand, www, name: _damage_hash(www, name), "does not match its sha256"),
    ("newest-missing-folder", lambda stand, www, name: (www / "NEWEST").write_text("gone-1-2\n"), "HTTP 404"),
    ("newest-dotdot", lambda stand, www, name: (www / "NEWEST").write_text("../secret\n"),
     "not a plain folder name"),
    ("redirect-loop", lambda stand, www, name: setattr(stand, "fault", "redirect"), "redirect"),
]


@pytest.mark.parametrize("case_id,damage,expect", BAD_ORIGINS, ids=[c[0] for c in BAD_ORIGINS])
async def test_bad_origin_keeps_the_served_bundle_and_backs_off(case_id, damage, expect, two_bundles, tmp_path):
    one, two = two_bundles
    www = tmp_path / "www"
    stand = await Stand(www).start()
    state, sync = await _follow(stand.url, tmp_path / "cache", poll=0.2)
    try:
        await asyncio.to_thread(publish, one, stand.url)
        assert await sync.check_once() is True
        await asyncio.to_thread(publish, two, stand.url)
        damage(stand, www, two.name)
        assert await sync.check_once() is False
        assert await sync.check_once() is False
        assert state.current.id == one.name                 # the old bundle keeps serving
        ok, body = state.ready()
        assert ok and body["state"] == "degraded", body
        assert body["origin"]["failures"] == 2
        import re
        assert re.search(expect, body["origin"]["last_error"]), body["origin"]
        assert "retry_in" in body["origin"]
        # second failure in a row: the delay doubled from the 0.2 s poll interval
        assert sync.next_try_at - sync.last_error_at == pytest.approx(0.4, abs=0.01)
        assert not any(p.name.startswith(".tmp-") for p in (tmp_path / "cache").iterdir())
        from v8atlas.server.metrics import Metrics
        text = Metrics([state]).render().decode()
        assert 'v8atlas_origin_failures_total{source="cache"} 2.0' in text, text
        # The origin is repaired: the next try pulls the new bundle.
        stand.fault = None
        shutil.rmtree(www / two.name, ignore_errors=True)
        await asyncio.to_thread(publish, two, stand.url)
        assert await sync.check_once() is True and state.current.id == two.name
        assert state.readiness == "ready" and "last_error" not in state.ready()[1]["origin"]
    finally:
        await state.stop()
        await stand.stop()


async def test_pull_refuses_a_manifest_that_does_not_validate(two_bundles, tmp_path):
    one, _ = two_bundles
    origin = tmp_path / "origin"
    publish(one, f"file://{origin}/")
    m = json.loads((origin / one.name / "manifest.json").read_text())
    next(iter(m["segments"].values()))["file"] = "../../../../etc/passwd"
    (origin / one.name / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(BundleError, match="not a plain file name"):
        pull(f"file://{origin}/", one.name, tmp_path / "cache")
    assert not (tmp_path / "cache" / one.name).exists()


def test_publish_refuses_a_damaged_bundle(two_bundles, tmp_path):
    one, _ = two_bundles
    copy = tmp_path / "c" / one.name
    shutil.copytree(one, copy)
    _damage_hash(tmp_path / "c", one.name)
    r = CliRunner().invoke(cli, ["publish", str(copy), "--to", f"file://{tmp_path}/origin/"])
    assert r.exit_code == 1 and "fails verification, not published" in r.output
    assert not (tmp_path / "origin" / "NEWEST").exists()


async def test_cache_keeps_a_few_bundles_not_every_one_pulled(tmp_path):
    from v8atlas.server.origin_sync import CACHE_KEEP
    origin = tmp_path / "origin"
    state, sync = await _follow(f"file://{origin}/", tmp_path / "cache")
    try:
        made = [build_sample(tmp_path / "src", second_config=bool(i % 2), name=f"b{i}")
                for i in range(CACHE_KEEP + 2)]
        for b in made:
            publish(b, f"file://{origin}/")
            assert await sync.check_once() is True and state.current.id == b.name
        kept = sorted(p.name for p in (tmp_path / "cache").iterdir() if p.is_dir() and not p.name.startswith("."))
        assert kept == sorted(b.name for b in made[-CACHE_KEEP:])
    finally:
        await state.stop()


def test_serve_sources_from_the_command_line(tmp_path):
    from v8atlas.server.cli import cache_for, make_state
    url = "https://user:secret@artifacts.example/v8atlas/erp/"
    state = make_state(url, 2.0, str(tmp_path / "cache"))
    assert state.origin is not None and state.source == cache_for(url, str(tmp_path / "cache"))
    assert state.source.is_dir() and "secret" not in state.label and "user" not in state.label
    assert state.label == "https://artifacts.example/v8atlas/erp/"
    plain = make_state(str(tmp_path), 2.0, None)
    assert plain.origin is None and plain.source == tmp_path
