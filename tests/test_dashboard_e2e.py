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
import re
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

CHROMIUM = os.environ.get("V8ATLAS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUT = Path(__file__).resolve().parent.parent / "test-output" / "dashboard"
API, ADMIN = "e2e-read-token-0123456789abcdefghijkl", "e2e-admin-token-0123456789abcdefghijk"

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


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class Backend:
    """What a test needs to know about the server it drives, and what to expect from its data."""

    def __init__(self, kind: str, url: str, dictionary: Path, bundle, expect: dict) -> None:
        self.kind, self.url, self.dictionary, self.bundle, self.expect = kind, url, dictionary, bundle, expect

    def bundle_id(self) -> str:
        return self.bundle().id

    def report(self) -> dict:
        """The compile report of the bundle being served, as the compiler wrote it."""
        import json
        path = Path(self.bundle().path) / "report.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


REAL_EXPECT = {
    "config": "ДемоТорговля", "search": "остатки товаров на складе", "first_hit": "РегистрНакопления.ОстаткиТоваров",
    "why": "в имени", "card": "Документ.ПриходТовара", "fields_marker": "`Количество`",
    "full_marker": "detail=full", "ref_link": "СправочникСсылка.Партнеры",
    "graph": "Справочник.Номенклатура", "graph_click": "Документ.ПриходТовара",
    "alias_phrase": "поступление от поставщика", "alias_target": "Документ.ПриходТовара",
    # the help versions shipped in examples/help (folder names are the versions)
    "help_marker": sorted(p.name for p in (EXAMPLES / "help").iterdir() if p.is_dir())[0],
}


def _real_backend(tmp: Path):
    """The sample configuration + help books compiled by `v8atlas compile`, served by build_app."""
    import subprocess
    from v8atlas.server.app import build_app
    from v8atlas.server.auth import AuthConfig
    from v8atlas.server.state import ServerState
    sources = tmp / "sources"
    shutil.copytree(EXAMPLES, sources)
    os.environ["V8ATLAS_SOURCES"] = str(sources)
    done = subprocess.run([sys.executable, "-m", "v8atlas", "compile", str(sources), "--out", str(tmp / "bundles"),
                           "--quiet"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    state = ServerState(tmp / "bundles", poll_interval=0)
    state.load_initial()
    auth = AuthConfig.from_env({"API_TOKEN": API, "ADMIN_TOKEN": ADMIN}, host="127.0.0.1")
    return build_app(state, auth=auth), sources / "dictionary.json", lambda: state.current.bundle


@pytest.fixture(scope="module", params=["real"])
def server(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"dash-e2e-{request.param}")
    from v8atlas.server.dashboard import routes
    saved_env = {k: os.environ.get(k) for k in ("API_TOKEN", "ADMIN_TOKEN", "V8ATLAS_SOURCES")}
    saved_compile = routes.run_compile
    os.environ.update(API_TOKEN=API, ADMIN_TOKEN=ADMIN)
    try:
        app, dictionary, bundle = _real_backend(tmp)
        with LoopbackServer(app) as srv:
            yield Backend(request.param, srv.url, dictionary, bundle,
                          REAL_EXPECT)
    finally:
        routes.run_compile = saved_compile
        for k, v in saved_env.items():
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
    pg.set_default_timeout(30000)   # the machine is shared; waits end as soon as the page is ready
    dialogs: list[str] = []
    errors: list[str] = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.dialogs, pg.js_errors = dialogs, errors
    yield pg
    context.close()
    assert not dialogs, f"a script ran from data: {dialogs}"
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page, server, name: str) -> None:
    page.screenshot(path=str(OUT / f"{server.kind}-{name}.png"), full_page=True)


def login(page, server, token: str, next_path: str = "/sources") -> None:
    page.goto(f"{server.url}{next_path}")
    page.wait_for_url("**/login**")
    page.fill("#token", token)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_path.split('?')[0]}**")


def test_sources_page(page, server):
    x = server.expect
    page.goto(f"{server.url}/sources")
    page.wait_for_url("**/login**")
    shot(page, server, "01-login")
    login(page, server, API)
    page.wait_for_selector("[data-testid=configs]")
    assert server.bundle_id() in page.inner_text("[data-testid=bundle-facts]")
    assert x["config"] in page.inner_text("[data-testid=configs]")
    assert x["help_marker"] in page.inner_text("[data-testid=help-versions]")
    report = server.report()
    errors, warnings = report.get("errors", []), report.get("warnings", [])
    assert f"Ошибок: {len(errors)}, предупреждений: {len(warnings)}" in page.inner_text("[data-testid=report-summary]")
    # sources: names exactly as the manifest records them (relative, never this machine's paths),
    # kinds and formats in words, help versions in numeric order, counts labelled in Russian
    manifest_names = [s["name"] for s in server.bundle().manifest["sources"]]
    shown = page.eval_on_selector_all("[data-testid=bundle-sources] tbody td:nth-child(2)", "els => els.map(e => e.textContent)")
    assert sorted(shown) == sorted(manifest_names) and not any(n.startswith("/") for n in shown)
    kinds = page.eval_on_selector_all("[data-testid=bundle-sources] tbody td:nth-child(1)", "els => els.map(e => e.textContent)")
    assert "configuration" not in kinds and "конфигурация" in kinds
    help_rows = [n for n in shown if n.count("/") and n.split("/")[-2][:1].isdigit()]
    versions = [tuple(int(x) for x in n.split("/")[-2].split(".")) for n in help_rows]
    assert versions == sorted(versions), help_rows
    counts = page.inner_text("[data-testid=bundle-counts]")
    assert "documents" not in counts and "документов в индексе" in counts
    for w in (errors + warnings)[:1]:       # markup in a message is shown as text, under its code
        assert w["code"] in page.inner_text("#report") and w["message"][:60] in page.inner_text("#report")
    shot(page, server, "02-sources")


def test_search_shows_reasons_and_offers_an_alias(page, server):
    x = server.expect
    login(page, server, API, f"/search?q={quote(x['search'])}")
    page.wait_for_selector("[data-testid=hits-metadata] li")
    first = page.locator("[data-testid=hits-metadata] li").first
    assert x["first_hit"] in first.inner_text()
    assert x["why"] in first.locator("[data-testid=why]").inner_text()
    if server.kind == "real":     # the query's own words (not stems) and the fields, in Russian
        why = first.locator("[data-testid=why]").inner_text()
        assert "слова: «остатки» в имени" in why and "«товаров» в" in why, why
        assert " in " not in why and "words" not in why, why
    page.wait_for_selector("#platform-results .outcome")
    shot(page, server, "03-search")
    first.locator("a.alias-link").click()
    page.wait_for_url("**/alias**")
    assert page.input_value("#phrase") == x["search"]


def test_card_detail_switch(page, server):
    x = server.expect
    login(page, server, API, f"/card?name={quote(x['card'])}&config={quote(x['config'])}")
    page.wait_for_selector("#card-body .agent-text", state="attached")
    brief = page.text_content("[data-testid=raw-text]")
    assert brief and x["fields_marker"] not in brief
    page.locator("[data-testid=detail-switch] a", has_text="поля").click()
    page.wait_for_url("**detail=fields**")
    page.wait_for_selector("#card-body .agent-text", state="attached")
    fields = page.text_content("[data-testid=raw-text]")
    assert x["fields_marker"] in fields and fields != brief
    if server.kind == "real":   # the card itself in Russian, from the structured card
        view = page.inner_text("[data-testid=card-view]")
        assert "Реквизиты" in view and "Таблицы запросов" in view and "Имя\tТип" in view, view
        for english in ("Attributes", "Query tables", "Standard attributes", "presence unverified"):
            assert english not in view, english
    # a reference type inside the text links to its own card
    link = page.locator("#card-body a.name-link", has_text=x["ref_link"]).first
    target = x["ref_link"].replace("СправочникСсылка.", "Справочник.")
    assert f"name={quote(target)}" in link.get_attribute("href")
    shot(page, server, "04-card-fields")
    page.locator("[data-testid=detail-switch] a", has_text="полностью").click()
    page.wait_for_url("**detail=full**")
    page.wait_for_selector("#card-body .agent-text", state="attached")
    if server.kind == "real":   # the agent's own text is one click away
        page.click("[data-testid=agent-answer] summary")
    page.click("text=показать исходный markdown")
    raw = page.inner_text("[data-testid=raw-text]")
    assert x["full_marker"] in raw and x["card"] in raw
    shot(page, server, "05-card-full-raw")
    page.goto(f"{server.url}{link.get_attribute('href')}")
    page.wait_for_selector("#card-body .agent-text", state="attached")
    assert target in page.inner_text("#card-title")


def test_platform_card_and_version_switch(page, server):
    login(page, server, API, f"/card?name={quote('Массив.Найти')}&config={quote(server.expect['config'])}")
    page.wait_for_selector(".agent-text")
    assert "элемент платформы" in page.inner_text(".result-head")
    options = page.eval_on_selector_all("#version option", "els => els.map(e => e.value).filter(Boolean)")
    assert len(options) >= 2
    shot(page, server, "06-platform-card")
    page.select_option("#version", options[0])
    page.wait_for_url(f"**version={options[0]}**")
    page.wait_for_selector(".agent-text")
    shown = ".".join(options[0].split(".")[:3])          # the tool names versions as 8.3.24
    # the dashboard asks the tool for that version (get_platform version=…), not the configuration's
    assert f"for platform {shown}\n" in page.inner_text("[data-testid=raw-text]")
    shot(page, server, "06-platform-card-version")
    # a type's member list links each member to its own card
    page.goto(f"{server.url}/card?kind=platform&name={quote('Массив')}")
    page.wait_for_selector(".agent-text")
    page.locator("#card-body a.name-link", has_text="Найти").first.click()
    page.wait_for_selector(".agent-text")
    assert page.inner_text("#card-title") == "Массив.Найти"
    assert "найдено" in page.inner_text(".result-head")


def relations_work(page, server) -> None:
    """The graph tests need the server's get_relations; a failure there is the server's, named."""
    x = server.expect
    resp = page.request.get(f"{server.url}/api/get_relations", params={"name": x["graph"], "config": x["config"]},
                            headers={"X-Api-Token": API})
    body = resp.json()
    assert body.get("outcome") == "found", body


def test_graph_recentres_on_click(page, server):
    x = server.expect
    relations_work(page, server)
    login(page, server, API, f"/graph?name={quote(x['graph'])}&config={quote(x['config'])}&limit=15")
    page.wait_for_selector(f'#graph[data-centre="{x["graph"]}"], [data-testid=graph-status] .message')
    status = page.inner_text("[data-testid=graph-status]")
    m = re.search(r"показано (\d+) из (\d+)", status)
    assert m, status
    shown = page.evaluate("v8graph.edges().length")
    assert int(m.group(1)) == shown and shown <= int(m.group(2))
    assert page.evaluate("v8graph.nodes().length") <= 16
    shot(page, server, "07-graph")
    box = page.locator("#graph").bounding_box()
    # hover an edge: its direction and label appear
    pos = page.evaluate("""(n) => { const e = v8graph.edges().filter(e => e.source().data('name') === n || e.target().data('name') === n)[0];
        const p = e.renderedMidpoint(); return [p.x, p.y]; }""", x["graph_click"])
    page.mouse.move(box["x"] + pos[0], box["y"] + pos[1])
    page.wait_for_selector("#edge-tip:not([hidden])")
    assert " → " in page.inner_text("#edge-tip") and x["graph_click"] in page.inner_text("#edge-tip")
    # click a node: it becomes the centre
    pos = page.evaluate("""(n) => { const node = v8graph.nodes().filter(x => x.data('name') === n)[0];
        const p = node.renderedPosition(); return [p.x, p.y]; }""", x["graph_click"])
    page.mouse.click(box["x"] + pos[0], box["y"] + pos[1])
    page.wait_for_selector(f'#graph[data-centre="{x["graph_click"]}"]')
    assert f"name={quote(x['graph_click'])}" in page.url
    assert page.evaluate("v8graph.nodes('.centre').data('name')") == x["graph_click"]
    shot(page, server, "08-graph-recentred")


def test_graph_limit_and_weak_edges(page, server):
    x = server.expect
    relations_work(page, server)
    login(page, server, API, f"/graph?name={quote(x['graph'])}&config={quote(x['config'])}&limit=100000&weak=1")
    page.wait_for_selector(f'#graph[data-centre="{x["graph"]}"]')
    status = page.inner_text("[data-testid=graph-status]")
    assert "вне диапазона 15…400: взят 400" in status
    shot(page, server, "09-graph-limit-weak")


def test_alias_refused_without_admin_token(page, server):
    x = server.expect
    login(page, server, API, f"/alias?phrase={quote(x['alias_phrase'])}")
    # #access is filled in by the page's script once it has asked the server: wait for it
    page.locator("#access", has_text="Сохранять синонимы может только администратор").wait_for()
    page.fill("#targets", x["alias_target"])
    with page.expect_response(lambda r: r.url.endswith("/alias") and r.request.method == "POST") as posted:
        page.click("button[value=save]")
    assert posted.value.status == 403
    page.wait_for_selector("section.message")
    assert "Нужен токен администратора" in page.inner_text("main")
    shot(page, server, "10-alias-refused")
    assert not server.dictionary.exists()
    # a cross-site form post with the same cookie: refused by the Origin check, with a page
    resp = page.request.post(f"{server.url}/alias", form={"phrase": "x", "targets": x["alias_target"]},
                             headers={"Origin": "http://evil.example"})
    assert resp.status == 403 and "другого сайта" in resp.text()
    assert not server.dictionary.exists()


def test_alias_as_admin_reaches_the_next_search(page, server):
    x = server.expect
    login(page, server, API, f"/search?q={quote(x['alias_phrase'])}&config={quote(x['config'])}")
    page.wait_for_selector("#meta-results .result-head, #meta-results .message")
    assert "alias" not in page.inner_text("#meta-results")
    page.click("form.logout button")
    login(page, server, ADMIN, f"/alias?phrase={quote(x['alias_phrase'])}&config={quote(x['config'])}")
    assert page.input_value("#phrase") == x["alias_phrase"]
    page.fill("#targets", x["alias_target"])
    page.locator("#targets").blur()
    page.wait_for_selector("#target-check .ok-text")
    shot(page, server, "11-alias-form")
    with page.expect_response(lambda r: r.url.endswith("/alias") and r.request.method == "POST",
                              timeout=120000) as posted:
        page.click("button[value=rebuild]")
    assert posted.value.status == 200, posted.value.text()
    page.wait_for_selector("section.message.ok")
    assert "Пересобрано и перезагружено" in page.inner_text("main")
    shot(page, server, "12-alias-rebuilt")
    page.goto(f"{server.url}/search?q={quote(x['alias_phrase'])}&config={quote(x['config'])}")
    page.wait_for_selector("[data-testid=hits-metadata] li")
    first = page.locator("[data-testid=hits-metadata] li").first
    assert x["alias_target"] in first.inner_text()
    assert "синоним словаря «" in first.locator("[data-testid=why]").inner_text()
    # reasons in the interface's language: no English reason text, no index stems
    for line in page.locator("[data-testid=why] li").all_inner_texts():
        assert not line.startswith(("words:", "alias ", "exact name")), line
        assert not re.search(r"\S+ in \w", line), line
    shot(page, server, "13-search-after-alias")
    page.goto(f"{server.url}/alias?config={quote(x['config'])}")
    page.wait_for_selector("[data-testid=existing-aliases]")
    assert x["alias_phrase"] in page.inner_text("[data-testid=existing-aliases]")


def test_global_alias_is_shown_and_removable(page, server):
    """An alias without a configuration is listed for every configuration, marked so, and an
    admin removes it from the list (the per-configuration aliases stay)."""
    import json
    x = server.expect
    data = json.loads(server.dictionary.read_text(encoding="utf-8")) if server.dictionary.exists() else {}
    before = list(data.get("aliases", []))
    data["aliases"] = before + [{"phrase": "<b>общий</b> синоним", "targets": [x["alias_target"]]}]
    server.dictionary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    login(page, server, ADMIN, f"/alias?config={quote(x['config'])}")
    page.wait_for_selector("[data-testid=existing-aliases]")
    row = page.locator("[data-testid=existing-aliases] tr[data-scope='*']")
    assert row.count() == 1
    assert "<b>общий</b> синоним" in row.inner_text() and "все конфигурации" in row.inner_text()
    shot(page, server, "17-alias-global")
    row.locator("button", has_text="удалить").click()
    page.wait_for_selector("section.message.ok")
    assert "все конфигурации" in page.inner_text("main")
    assert json.loads(server.dictionary.read_text(encoding="utf-8"))["aliases"] == before


def test_bad_input_gets_clear_pages(page, server):
    payload = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    login(page, server, API, f"/search?q={quote(payload)}")
    page.wait_for_selector("#meta-results .result-head, #meta-results .message")
    assert page.input_value("#q") == payload
    # guesses are not called matches: a not_found answer with hits says they are guesses
    for side in ("metadata", "platform"):
        head = page.inner_text(f"[data-testid=head-{side}]")
        if "не найдено" in head and page.locator(f"[data-testid=hits-{side}] li").count():
            assert "догадки" in head, head
    shot(page, server, "14-search-payload")
    page.goto(f"{server.url}/card?name={quote('Справочник.' + payload)}")
    page.wait_for_selector(".outcome, #card-body .message")
    assert "не найдено" in page.inner_text("#card-body") or "ошибка" in page.inner_text("#card-body").lower()
    assert payload in page.inner_text("#card-title")
    shot(page, server, "15-card-unknown")
    # an unknown object's graph: a clear message, the nearest names as links to their graphs,
    # no empty canvas, the payload shown as text
    page.goto(f"{server.url}/graph?name={quote('Документ.' + payload)}&config={quote(server.expect['config'])}")
    page.wait_for_selector("[data-testid=graph-not-found]")
    message = page.inner_text("[data-testid=graph-not-found]")
    assert "не найдено" in message and payload in message and "**Outcome" not in message
    links = page.eval_on_selector_all("[data-testid=graph-not-found] ul.candidates a",
                                      "els => els.map(a => [a.textContent, a.getAttribute('href')])")
    assert links and all(t.startswith("Документ.") and h.startswith("/graph?") and f"name={quote(t)}" in h
                         for t, h in links)
    assert not page.locator(".graph-wrap").is_visible()
    shot(page, server, "15b-graph-unknown")
    page.click("[data-testid=graph-not-found] ul.candidates a >> nth=0")
    page.wait_for_selector(f'#graph[data-centre="{links[0][0]}"]')
    assert page.locator(".graph-wrap").is_visible()
    page.context.add_cookies([{"name": "v8atlas_session", "value": "eyJyIjoiYWRtaW4ifQ.Zm9yZ2Vk",
                               "url": server.url}])
    page.goto(f"{server.url}/sources")
    page.wait_for_url("**/login**")
    assert "Сессия недействительна" in page.inner_text("main")
    shot(page, server, "16-forged-cookie")
