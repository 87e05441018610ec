"""The dashboard in headless Chromium (Debian's chromium driven by Playwright) against a server
on loopback: sources, search with reasons, a card and its detail switch, the graph re-centred by a
click, an alias created as admin and used by the next search after recompile + reload, the same
write refused without the admin token, and bad input answered with clear pages.

Screenshots of every page go to test-output/dashboard/ for a person to look at.
Needs: `tools/setup_browser.sh` (chromium + the playwright Python package).
"""
from __future__ import annotations

import asyncio
import os
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_dashboard_fixture import CONFIG, StubState, build_stub_app, write_stub_bundle  # noqa: E402

CHROMIUM = os.environ.get("V8ATLAS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUT = Path(__file__).resolve().parent.parent / "test-output" / "dashboard"
API, ADMIN = "e2e-read-token", "e2e-admin-token"

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed (run tools/setup_browser.sh)")
if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
    pytest.skip(f"chromium is not installed at {CHROMIUM} (run tools/setup_browser.sh; CI installs it)",
                allow_module_level=True)


class LoopbackServer:
    """An aiohttp app served on 127.0.0.1 from a background thread."""

    def __init__(self, app) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.port = 0

    def __enter__(self) -> "LoopbackServer":
        from aiohttp import web
        self.thread.start()

        async def start():
            self.runner = web.AppRunner(self.app)
            await self.runner.setup()
            site = web.TCPSite(self.runner, "127.0.0.1", 0)
            await site.start()
            return site._server.sockets[0].getsockname()[1]
        self.port = asyncio.run_coroutine_threadsafe(start(), self.loop).result(30)
        return self

    def __exit__(self, *exc) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dash-e2e")
    sources = tmp / "sources"
    sources.mkdir()
    old_env = {k: os.environ.get(k) for k in ("API_TOKEN", "ADMIN_TOKEN", "V8ATLAS_SOURCES")}
    os.environ.update(API_TOKEN=API, ADMIN_TOKEN=ADMIN, V8ATLAS_SOURCES=str(sources))
    write_stub_bundle(tmp / "bundles")
    state = StubState(tmp / "bundles", sources / "dictionary.json")

    # The stand-in server has no compiler behind it: "recompile" publishes the same bundle and
    # the reload re-reads the dictionary, as the real server would see it in the new bundle.
    from v8atlas.server.dashboard import routes
    from v8atlas.server.dashboard.rebuild import RebuildResult
    real_compile = routes.run_compile

    async def fake_compile(plan, bundles_dir, timeout_s=0):
        assert plan.dictionary.is_file()
        return RebuildResult(True, ["v8atlas", "compile", *plan.compile_args()], 0, 0.05,
                             f"published {state.bundle.id}", str(state.bundle.path))
    routes.run_compile = fake_compile
    try:
        with LoopbackServer(build_stub_app(state, API, ADMIN)) as srv:
            srv.state = state
            yield srv
    finally:
        routes.run_compile = real_compile
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def browser():
    OUT.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="ru-RU")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    dialogs: list[str] = []
    errors: list[str] = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.dialogs, pg.js_errors = dialogs, errors
    yield pg
    context.close()
    assert not dialogs, f"a script ran from data: {dialogs}"
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page, name: str) -> None:
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


def login(page, server, token: str, next_path: str = "/sources") -> None:
    page.goto(f"{server.url}{next_path}")
    page.wait_for_url("**/login**")
    page.fill("#token", token)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_path.split('?')[0]}**")


def test_sources_page(page, server):
    page.goto(f"{server.url}/sources")
    page.wait_for_url("**/login**")
    shot(page, "01-login")
    login(page, server, API)
    page.wait_for_selector("[data-testid=configs]")
    assert server.state.bundle.id in page.inner_text("[data-testid=bundle-facts]")
    assert CONFIG in page.inner_text("[data-testid=configs]")
    assert "8.3.25" in page.inner_text("[data-testid=help-versions]")          # missing help version
    assert "Ошибок: 0, предупреждений: 2" in page.inner_text("[data-testid=report-summary]")
    assert "страница <b>Foo</b> не читается" in page.inner_text("#report")   # shown as text, not markup
    shot(page, "02-sources")


def test_search_shows_reasons_and_offers_an_alias(page, server):
    login(page, server, API, f"/search?q={quote('заказ покупателя')}")
    page.wait_for_selector("[data-testid=hits-metadata] li")
    first = page.locator("[data-testid=hits-metadata] li").first
    assert "Документ.ЗаказПокупателя" in first.inner_text()
    assert "in field synonym" in first.locator("[data-testid=why]").inner_text()
    page.wait_for_selector("#platform-results .outcome")
    shot(page, "03-search")
    first.locator("a.alias-link").click()
    page.wait_for_url("**/alias**")
    assert page.input_value("#phrase") == "заказ покупателя"


def test_card_detail_switch(page, server):
    login(page, server, API, f"/search?q={quote('заказ покупателя')}")
    page.locator("[data-testid=hits-metadata] a.hit-name").first.click()
    page.wait_for_url("**/card**")
    page.wait_for_selector(".agent-text")
    assert "Реквизиты" not in page.inner_text("#card-body")
    page.locator("[data-testid=detail-switch] a", has_text="поля").click()
    page.wait_for_url("**detail=fields**")
    page.wait_for_selector(".agent-text")
    body = page.inner_text("#card-body")
    assert "Реквизиты" in body and "Стандартные реквизиты" not in body
    # a reference type inside the text links to its own card
    link = page.locator("#card-body a.name-link", has_text="СправочникСсылка.Контрагенты")
    assert "name=%D0%A1%D0%BF%D1%80%D0%B0%D0%B2%D0%BE%D1%87%D0%BD%D0%B8%D0%BA.%D0%9A" in link.get_attribute("href")
    shot(page, "04-card-fields")
    page.locator("[data-testid=detail-switch] a", has_text="полностью").click()
    page.wait_for_url("**detail=full**")
    page.wait_for_selector(".agent-text")
    assert "Стандартные реквизиты" in page.inner_text("#card-body")
    page.click("text=показать исходный markdown")
    raw = page.inner_text("[data-testid=raw-text]")
    assert raw.startswith("# Документ.ЗаказПокупателя") and "_detail: full_" in raw
    shot(page, "05-card-full-raw")


def test_graph_recentres_on_click(page, server):
    login(page, server, API, f"/graph?name={quote('Документ.ЗаказПокупателя')}&limit=15")
    page.wait_for_selector('#graph[data-centre="Документ.ЗаказПокупателя"]')
    status = page.inner_text("[data-testid=graph-status]")
    assert "показано 15 из 33" in status and "слабые скрыты (30)" in status
    assert page.evaluate("v8graph.nodes().length") == 16
    shot(page, "06-graph")
    # hover an edge: its direction and label appear
    pos = page.evaluate("""() => { const e = v8graph.edges().filter(e => e.target().data('name') === 'Справочник.Номенклатура')[0];
        const p = e.renderedMidpoint(); return [p.x, p.y]; }""")
    box = page.locator("#graph").bounding_box()
    page.mouse.move(box["x"] + pos[0], box["y"] + pos[1])
    page.wait_for_selector("#edge-tip:not([hidden])")
    assert "Документ.ЗаказПокупателя → Справочник.Номенклатура" in page.inner_text("#edge-tip")
    # click a node: it becomes the centre
    pos = page.evaluate("""() => { const n = v8graph.nodes().filter(n => n.data('name') === 'Справочник.Номенклатура')[0];
        const p = n.renderedPosition(); return [p.x, p.y]; }""")
    page.mouse.click(box["x"] + pos[0], box["y"] + pos[1])
    page.wait_for_selector('#graph[data-centre="Справочник.Номенклатура"]')
    assert "name=%D0%A1%D0%BF%D1%80" in page.url
    assert page.evaluate("v8graph.nodes('.centre').data('name')") == "Справочник.Номенклатура"
    shot(page, "07-graph-recentred")


def test_graph_limit_and_weak_edges(page, server):
    login(page, server, API, f"/graph?name={quote('Документ.ЗаказПокупателя')}&limit=100000&weak=1")
    page.wait_for_selector('#graph[data-centre="Документ.ЗаказПокупателя"]')
    status = page.inner_text("[data-testid=graph-status]")
    assert "вне диапазона 15…400: взят 400" in status
    assert "показано 63 из 63" in status            # all pages followed, weak edges included
    assert page.evaluate("v8graph.edges('.weak').length") == 30
    shot(page, "08-graph-limit-weak")


def test_alias_refused_without_admin_token(page, server):
    login(page, server, API, f"/alias?phrase={quote('оформление продажи')}")
    assert "Сохранять синонимы может только администратор" in page.inner_text("#access")
    page.fill("#targets", "Документ.ЗаказПокупателя")
    page.click("button[value=save]")
    page.wait_for_selector("section.message")
    assert "Нужен токен администратора" in page.inner_text("main")
    shot(page, "09-alias-refused")
    assert not server.state.dictionary.exists()
    # a cross-site form post with the same cookie: refused by the Origin check
    resp = page.request.post(f"{server.url}/alias", form={"phrase": "x", "targets": "Документ.ЗаказПокупателя"},
                             headers={"Origin": "http://evil.example"})
    assert resp.status == 403 and "другого сайта" in resp.text()


def test_alias_as_admin_reaches_the_next_search(page, server):
    login(page, server, API, f"/search?q={quote('оформление продажи')}")
    page.wait_for_selector("#meta-results .result-head, #meta-results .message")
    assert "Документ.ЗаказПокупателя" not in page.inner_text("#meta-results")
    page.click("form.logout button")
    login(page, server, ADMIN, f"/alias?phrase={quote('оформление продажи')}&config={quote(CONFIG)}")
    assert page.input_value("#phrase") == "оформление продажи"
    page.fill("#targets", "Документ.ЗаказПокупателя")
    page.locator("#targets").blur()
    page.wait_for_selector("#target-check .ok-text")
    shot(page, "10-alias-form")
    page.click("button[value=rebuild]")
    page.wait_for_selector("section.message.ok")
    assert "Пересобрано и перезагружено" in page.inner_text("main")
    shot(page, "11-alias-rebuilt")
    page.goto(f"{server.url}/search?q={quote('оформление продажи')}")
    page.wait_for_selector("[data-testid=hits-metadata] li")
    first = page.locator("[data-testid=hits-metadata] li").first
    assert "Документ.ЗаказПокупателя" in first.inner_text() and "alias" in first.inner_text()
    shot(page, "12-search-after-alias")
    page.goto(f"{server.url}/alias?config={quote(CONFIG)}")
    page.wait_for_selector("[data-testid=existing-aliases]")
    assert "оформление продажи" in page.inner_text("[data-testid=existing-aliases]")


def test_bad_input_gets_clear_pages(page, server):
    payload = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    login(page, server, API, f"/search?q={quote(payload)}")
    page.wait_for_selector("#meta-results .result-head, #meta-results .message")
    assert page.input_value("#q") == payload
    shot(page, "13-search-payload")
    page.goto(f"{server.url}/card?name={quote('Справочник.' + payload)}")
    page.wait_for_selector(".outcome")
    assert "не найдено" in page.inner_text("#card-body")
    assert payload in page.inner_text("#card-title")
    shot(page, "14-card-unknown")
    page.goto(f"{server.url}/graph?name={quote('Документ.Нет')}")
    page.wait_for_selector("[data-testid=graph-status] .message")
    assert "не найден" in page.inner_text("[data-testid=graph-status]")
    page.context.add_cookies([{"name": "v8atlas_session", "value": "eyJyIjoiYWRtaW4ifQ.Zm9yZ2Vk",
                               "url": server.url}])
    page.goto(f"{server.url}/sources")
    page.wait_for_url("**/login**")
    assert "Сессия недействительна" in page.inner_text("main")
    shot(page, "15-forged-cookie")
