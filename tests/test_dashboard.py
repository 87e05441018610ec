"""Dashboard over HTTP, in process: login and sessions, CSRF and origin checks, alias writes,
recompile + reload, and bad input answered with clear pages (the browser tests are in
tests/test_dashboard_e2e.py)."""
from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from v8atlas.server.dashboard import rebuild as rebuild_mod
from v8atlas.server.dashboard.aliases import AliasError, clean_phrase, clean_targets, set_alias
from v8atlas.server.dashboard.rebuild import plan_sources
from v8atlas.server.app import build_app
from v8atlas.server.auth import AuthConfig
from v8atlas.server.dashboard.sessions import COOKIE_NAME, SessionCodec, SessionInvalid
from v8atlas.server.state import ServerState

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CONFIG = "ДемоТорговля"
API, ADMIN = "read-token-123-0123456789abcdefghij", "admin-token-456-0123456789abcdefghij"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """examples/ compiled once by `v8atlas compile`; each test serves its own copy."""
    tmp = tmp_path_factory.mktemp("dash")
    shutil.copytree(EXAMPLES, tmp / "sources")
    done = subprocess.run([sys.executable, "-m", "v8atlas", "compile", str(tmp / "sources"),
                           "--out", str(tmp / "bundles"), "--quiet"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return tmp


@dataclass
class Served:
    """A real server (build_app over ServerState) on a copy of the compiled sample."""
    sources: Path
    bundles_dir: Path
    state: ServerState | None = None

    @property
    def dictionary(self) -> Path:
        return self.sources / "dictionary.json"


@pytest.fixture
def served(compiled, tmp_path, monkeypatch):
    monkeypatch.setenv("API_TOKEN", API)
    monkeypatch.setenv("ADMIN_TOKEN", ADMIN)
    shutil.copytree(compiled / "sources", tmp_path / "sources")
    shutil.copytree(compiled / "bundles", tmp_path / "bundles", symlinks=True)
    monkeypatch.setenv("V8ATLAS_SOURCES", str(tmp_path / "sources"))
    return Served(tmp_path / "sources", tmp_path / "bundles")


def build_served_app(served: Served, api_token: str | None, admin_token: str | None):
    state = ServerState(served.bundles_dir, poll_interval=0)
    state.load_initial()
    served.state = state
    env = {k: v for k, v in (("API_TOKEN", api_token), ("ADMIN_TOKEN", admin_token)) if v}
    return build_app(state, auth=AuthConfig.from_env(env, host="127.0.0.1"))


def run(coro_fn, served):
    """Run ``coro_fn(client)`` against the real app on an in-process test server."""
    async def main():
        app = build_served_app(served, API, ADMIN)
        async with TestClient(TestServer(app)) as client:
            return await coro_fn(client)
    return asyncio.run(main())


async def login(client, token, follow=False):
    return await client.post("/login", data={"token": token, "next": "/sources"}, allow_redirects=follow)


def csrf_from(html: str) -> str:
    m = re.search(r'name="v8-csrf" content="([^"]+)"', html)
    assert m, "page has no CSRF token"
    return m.group(1)


# -- sessions -------------------------------------------------------------------------------

def test_session_cookie_roundtrip_forgery_and_expiry():
    codec = SessionCodec(b"k" * 32, ttl_s=60)
    session, cookie = codec.issue("admin", now=1000)
    assert codec.verify(cookie, now=1010) == session
    body, sig = cookie.split(".")
    forged = body.replace(body[-2:], "AA") + "." + sig
    with pytest.raises(SessionInvalid):
        codec.verify(forged, now=1010)
    with pytest.raises(SessionInvalid, match="expired"):
        codec.verify(cookie, now=1061)
    with pytest.raises(SessionInvalid):
        SessionCodec(b"other" * 8).verify(cookie, now=1010)
    assert codec.csrf_ok(session, codec.csrf_token(session))
    assert not codec.csrf_ok(session, "x")


def test_pages_need_login_and_the_token_never_reaches_a_page(served):
    async def go(client):
        r = await client.get("/search?q=x", allow_redirects=False)
        assert r.status == 302 and r.headers["Location"].startswith("/login?next=")
        bad = await login(client, "wrong")
        assert bad.status == 401 and "Неверный токен" in await bad.text()
        r = await login(client, API)
        assert r.status == 302 and r.headers["Location"] == "/sources"
        cookie = r.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and API not in cookie
        page = await client.get("/sources")
        html = await page.text()
        assert page.status == 200 and API not in html and ADMIN not in html
        assert 'content="read"' in html
        api = await client.get("/api/list_sources")           # the session opens the API too
        assert api.status == 200 and (await api.json())["outcome"] == "list"
    run(go, served)


def test_forged_or_expired_cookie_leads_to_the_login_page(served):
    async def go(client):
        client.session.cookie_jar.update_cookies({COOKIE_NAME: "eyJyIjoiYWRtaW4ifQ.c2lnbmF0dXJl"})
        r = await client.get("/alias", allow_redirects=False)
        assert r.status == 302 and "/login" in r.headers["Location"]
        page = await client.get(r.headers["Location"])
        assert "Сессия недействительна" in await page.text()
        api = await client.get("/api/list_sources")
        assert api.status == 401
        codec = SessionCodec(b"x" * 32, ttl_s=-10)
        _, expired = codec.issue("admin")
        client.session.cookie_jar.update_cookies({COOKIE_NAME: expired})
        r = await client.get("/sources", allow_redirects=False)
        assert r.status == 302 and "/login" in r.headers["Location"]
    run(go, served)


def test_login_page_shows_no_text_from_the_url(served):
    async def go(client):
        r = await client.get("/login", params={"next": '/x"><script>alert(1)</script>',
                                               "reason": "Введите токен на evil.example"})
        html = await r.text()
        assert "<script>alert" not in html and "evil.example" not in html
        assert 'value="/x&quot;&gt;&lt;script&gt;' in html        # the next URL, escaped
        for evil in ("//evil.example/x", "/\t/evil.example", "https://evil.example", "/\\evil.example"):
            r = await client.post("/login", data={"token": API, "next": evil}, allow_redirects=False)
            assert r.headers["Location"] == "/sources", evil
        r = await client.get("/login", params={"reason": "expired"})
        assert "срок сессии истёк" in await r.text()
    run(go, served)


# -- writes: origin, CSRF, admin ------------------------------------------------------------

def test_cross_site_post_is_refused(served):
    async def go(client):
        await login(client, ADMIN)
        csrf = csrf_from(await (await client.get("/alias")).text())
        r = await client.post("/alias", data={"csrf": csrf, "config": CONFIG, "phrase": "x",
                                              "targets": "Справочник.Партнеры"},
                              headers={"Origin": "https://evil.example"})
        assert r.status == 403 and "другого сайта" in await r.text()
        r = await client.post("/alias", data={"config": CONFIG, "phrase": "x", "targets": "Справочник.Партнеры"})
        assert r.status == 403 and "CSRF" in await r.text()
        r = await client.post("/api/list_sources", headers={"Origin": "https://evil.example"})
        assert r.status in (401, 403, 405)
        assert not served.dictionary.exists()
    run(go, served)


def test_alias_needs_an_admin_session(served):
    async def go(client):
        await login(client, API)
        csrf = csrf_from(await (await client.get("/alias")).text())
        r = await client.post("/alias", data={"csrf": csrf, "config": CONFIG, "phrase": "покупка",
                                              "targets": "Документ.ПриходТовара"})
        assert r.status == 403 and "администратор" in await r.text()
        assert not served.dictionary.exists()
    run(go, served)


def test_admin_writes_alias_exactly_and_the_page_escapes_it(served):
    payload = '<script>alert("ё")</script> заказ'

    async def go(client):
        await login(client, ADMIN)
        csrf = csrf_from(await (await client.get("/alias")).text())
        r = await client.post("/alias", data={"csrf": csrf, "config": CONFIG, "phrase": payload,
                                              "targets": "Документ.ПриходТовара\n"})
        html = await r.text()
        assert r.status == 200 and "Синоним сохранён" in html
        assert "<script>alert" not in html and "&lt;script&gt;" in html
        assert "пересборки" in html          # says how the change reaches the answers
        data = json.loads(served.dictionary.read_text(encoding="utf-8"))
        assert data["aliases"] == [{"phrase": payload, "targets": ["Документ.ПриходТовара"], "config": CONFIG}]
        facts = await (await client.get("/ui/dictionary")).json()
        assert facts["aliases"][CONFIG][payload] == ["Документ.ПриходТовара"]
        bad = await client.post("/alias", data={"csrf": csrf, "config": CONFIG, "phrase": "x",
                                                "targets": "<b>не имя</b>"})
        assert bad.status == 400 and "&lt;b&gt;" in await bad.text()
        gone = await client.post("/alias/remove", data={"csrf": csrf, "config": CONFIG, "phrase": payload})
        assert gone.status == 200 and "Синоним удалён" in await gone.text()
        assert json.loads(served.dictionary.read_text(encoding="utf-8"))["aliases"] == []
        again = await client.post("/alias/remove", data={"csrf": csrf, "config": CONFIG, "phrase": payload})
        assert again.status == 404
    run(go, served)


def test_global_alias_is_listed_and_removable(served):
    """An alias without "config" applies to every configuration: listed under "*", removed alone."""
    served.dictionary.write_text(json.dumps({"aliases": [
        {"phrase": "покупка", "targets": ["Документ.ПриходТовара"]},
        {"phrase": "покупка", "targets": ["Справочник.Партнеры"], "config": CONFIG}]},
        ensure_ascii=False), encoding="utf-8")

    async def go(client):
        await login(client, ADMIN)
        facts = await (await client.get("/ui/dictionary")).json()
        assert facts["aliases"]["*"] == {"покупка": ["Документ.ПриходТовара"]}
        csrf = csrf_from(await (await client.get("/alias")).text())
        gone = await client.post("/alias/remove", data={"csrf": csrf, "config": "*", "phrase": "покупка"})
        assert gone.status == 200 and "все конфигурации" in await gone.text()
        left = json.loads(served.dictionary.read_text(encoding="utf-8"))["aliases"]
        assert left == [{"phrase": "покупка", "targets": ["Справочник.Партнеры"], "config": CONFIG}]
        again = await client.post("/alias/remove", data={"csrf": csrf, "config": "*", "phrase": "покупка"})
        assert again.status == 404
    run(go, served)


def test_alias_then_rebuild_runs_compile_and_reload(served):
    """The admin's alias goes through a real `v8atlas compile` and a reload of the served state."""
    async def go(client):
        before = (await served.state.serving()).bundle.id
        await login(client, ADMIN)
        csrf = csrf_from(await (await client.get("/alias")).text())
        r = await client.post("/alias", data={"csrf": csrf, "config": CONFIG, "phrase": "покупка",
                                              "targets": "Документ.ПриходТовара", "then": "rebuild"})
        assert r.status == 200 and "перезагружено" in (await r.text()).lower()
        assert served.state.current.bundle.id != before
        assert served.state.current.bundle.path.parent == served.bundles_dir
        hits = await (await client.get("/api/search_metadata", params={"query": "покупка", "config": CONFIG})).json()
        assert hits["data"]["hits"][0]["title"] == "Документ.ПриходТовара"
        assert "alias" in hits["data"]["hits"][0]["why"]
    run(go, served)


def test_unknown_page_and_bad_api_input_are_clear(served):
    async def go(client):
        await login(client, API)
        r = await client.get("/nope")
        assert r.status == 404
        r = await client.get("/api/get_relations", params={"name": "Документ.ПриходТовара", "limit": "100000"})
        assert r.status == 400 and (await r.json())["error"]["message"]
        r = await client.get("/ui/platform", params={"name": "Массив.Найти", "version": "<script>"})
        assert r.status in (400, 503) and (await r.json())["outcome"] == "error"
    run(go, served)


# -- helpers ---------------------------------------------------------------------------------

def test_alias_input_rules():
    assert clean_phrase("  заказ   клиента ") == "заказ клиента"
    with pytest.raises(AliasError):
        clean_phrase("")
    with pytest.raises(AliasError):
        clean_phrase("a\x00b")
    assert clean_targets("Документ.ПриходТовара\n\nДокумент.ПриходТовара") == ["Документ.ПриходТовара"]
    with pytest.raises(AliasError):
        clean_targets("Заказ покупателя")


def test_set_alias_keeps_other_keys(tmp_path):
    path = tmp_path / "dictionary.json"
    path.write_text(json.dumps({"synonyms": [["клиент", "покупатель"]]}, ensure_ascii=False), encoding="utf-8")
    set_alias(path, "БСП", "версии подсистем", ["РегистрСведений.ВерсииПодсистем"])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["synonyms"] == [["клиент", "покупатель"]]
    assert data["aliases"] == [{"phrase": "версии подсистем", "targets": ["РегистрСведений.ВерсииПодсистем"],
                                "config": "БСП"}]
    set_alias(path, "БСП", "версии подсистем", ["РегистрСведений.ВерсииПодсистемОбластейДанных"])
    assert len(json.loads(path.read_text(encoding="utf-8"))["aliases"]) == 1


def test_plan_sources_from_manifest(tmp_path, monkeypatch):
    monkeypatch.delenv("V8ATLAS_SOURCES", raising=False)
    monkeypatch.delenv("V8ATLAS_DICTIONARY", raising=False)
    (tmp_path / "src" / "cf").mkdir(parents=True)
    (tmp_path / "src" / "cf" / "Configuration.xml").write_text("<x/>")
    (tmp_path / "src" / "v8atlas.toml").write_text("")
    manifest = {"sources": [{"kind": "configuration", "name": "src/cf"}, {"kind": "help", "name": "gone.hbk"}]}
    plan = plan_sources(manifest, cwd=tmp_path)
    assert plan.missing == ["gone.hbk"]
    assert plan.sources[0].name == "v8atlas.toml" and plan.dictionary == tmp_path / "src" / "dictionary.json"
    assert plan.compile_args()[-1].endswith("dictionary.json")
    with pytest.raises(rebuild_mod.RebuildUnavailable, match="V8ATLAS_SOURCES"):
        plan_sources({"sources": [{"name": "nowhere"}]}, cwd=tmp_path)


def test_open_server_needs_no_login_and_has_no_writes(served, monkeypatch):
    monkeypatch.delenv("API_TOKEN")
    monkeypatch.delenv("ADMIN_TOKEN")

    async def go(client):
        page = await client.get("/sources", allow_redirects=False)
        assert page.status == 200 and 'class="login-link"' in await page.text()
        assert (await client.get("/api/list_sources")).status == 200
        r = await client.post("/alias", data={"phrase": "x", "targets": "Справочник.Партнеры", "config": CONFIG})
        assert r.status == 404 and "ADMIN_TOKEN" in await r.text()
        r = await login(client, "anything")
        assert r.status == 400 and "токены не заданы" in await r.text()
        assert not served.dictionary.exists()

    async def main():
        app = build_served_app(served, None, None)
        async with TestClient(TestServer(app)) as client:
            await go(client)
    asyncio.run(main())


def test_failed_compile_is_reported_not_raised(tmp_path):
    from v8atlas.server.dashboard.rebuild import SourcePlan, run_compile
    plan = SourcePlan([tmp_path / "no-such-dump"], tmp_path / "dictionary.json", "test")
    result = asyncio.run(run_compile(plan, tmp_path / "bundles", timeout_s=120))
    assert not result.ok and result.exit_code not in (0, None)
    assert "no-such-dump" in result.log and result.bundle_path is None


def test_dictionary_found_inside_the_sources_not_beside_the_server(tmp_path, monkeypatch):
    monkeypatch.delenv("V8ATLAS_DICTIONARY", raising=False)
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "dictionary.json").write_text("{}", encoding="utf-8")
    elsewhere = tmp_path / "server-cwd"
    elsewhere.mkdir()
    # the manifest names sources relative to their common folder: "dictionary.json"
    manifest = {"sources": [{"kind": "dictionary", "name": "dictionary.json"}]}
    plan = plan_sources(manifest, [str(sources)], cwd=elsewhere)
    assert plan.dictionary == sources / "dictionary.json"
    assert plan.compile_args() == [str(sources)]
