"""The dashboard on real data: SSL (БСП) 3.1.12 + three platform help versions, compiled by
`v8atlas compile`, served by build_app on loopback, walked through in headless Chromium.

Prints how long each page takes to show its data and how long alias → recompile → reload
takes (docs/perf/dashboard.md); saves screenshots as test-output/dashboard/ssl-*.png.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from realdata import data_path, extracted  # noqa: E402
from test_dashboard_e2e import (ADMIN, API, CHROMIUM, CHROMIUM_FLAGS, OUT, LoopbackServer,  # noqa: E402
                                playwright_api)

pytestmark = [pytest.mark.realdata, pytest.mark.slow]
HELP_VERSIONS = ("8.3.5.1570", "8.3.23.1997", "8.3.27.2130")


@pytest.fixture(scope="module")
def ssl_server(tmp_path_factory):
    from v8atlas.server.app import build_app
    from v8atlas.server.auth import AuthConfig
    from v8atlas.server.state import ServerState

    ssl = extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src"
    tmp = tmp_path_factory.mktemp("dash-ssl")
    sources = tmp / "sources"
    sources.mkdir()
    # copies, not symlinks: a source folder never follows links out of itself (docs/compile.md)
    shutil.copytree(ssl, sources / "ssl")
    for v in HELP_VERSIONS:
        shutil.copytree(data_path("help", v), sources / v)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "v8atlas", "compile", str(sources), "--out", str(tmp / "bundles"),
                           "--quiet"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    print(f"\ncompile SSL 3.1.12 + {len(HELP_VERSIONS)} help versions: {time.perf_counter() - t0:.1f} s")
    saved = {k: os.environ.get(k) for k in ("V8ATLAS_SOURCES",)}
    os.environ["V8ATLAS_SOURCES"] = str(sources)
    state = ServerState(tmp / "bundles", poll_interval=0)
    state.load_initial()
    app = build_app(state, auth=AuthConfig.from_env({"API_TOKEN": API, "ADMIN_TOKEN": ADMIN}, host="127.0.0.1"))
    try:
        with LoopbackServer(app) as srv:
            srv.dictionary = sources / "dictionary.json"
            yield srv
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)
        shutil.rmtree(tmp / "bundles", ignore_errors=True)


def test_walk_through_ssl(ssl_server):
    OUT.mkdir(parents=True, exist_ok=True)
    base = ssl_server.url
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1360, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/login?next=/sources")
        page.fill("#token", ADMIN)
        page.click("button[type=submit]")
        page.wait_for_url("**/sources")

        def visit(label: str, path: str, selector: str) -> str:
            t0 = time.perf_counter()
            page.goto(base + path)
            page.wait_for_selector(selector, timeout=60000)
            print(f"{label:>24}: {1000 * (time.perf_counter() - t0):6.0f} ms")
            page.screenshot(path=str(OUT / f"ssl-{label}.png"), full_page=True)
            return page.inner_text("main")

        text = visit("01-sources", "/sources", "[data-testid=configs]")
        assert "БиблиотекаСтандартныхПодсистем" in text and "8.3.27.2130" in text
        text = visit("02-search", f"/search?q={quote('версии подсистем')}", "[data-testid=hits-metadata] li")
        assert "РегистрСведений.ВерсииПодсистем" in page.inner_text("[data-testid=hits-metadata] li >> nth=0")
        text = visit("03-card-fields", f"/card?name={quote('РегистрСведений.ВерсииПодсистем')}&detail=fields",
                     "[data-testid=card-view]")
        assert "ИмяПодсистемы" in text and "Измерения" in text
        visit("04-platform-8.3.5", f"/card?name={quote('Массив.Найти')}&kind=platform&version=8.3.5.1570", ".agent-text")
        visit("05-graph-100", f"/graph?name={quote('Справочник.Пользователи')}&limit=100", "#graph[data-centre]")
        assert page.evaluate("v8graph.nodes().length") <= 101
        visit("06-graph-400-weak", f"/graph?name={quote('Справочник.Пользователи')}&limit=400&weak=1",
              "#graph[data-centre]")
        print(f"{'':>24}  {page.inner_text('[data-testid=graph-status]')}")
        phrase = "кто работает в программе"
        visit("07-alias-form", f"/alias?phrase={quote(phrase)}", "#existing")
        page.fill("#targets", "Справочник.Пользователи")
        t0 = time.perf_counter()
        page.click("button[value=rebuild]")
        page.wait_for_selector("section.message", timeout=600000)
        print(f"{'alias+recompile+reload':>24}: {1000 * (time.perf_counter() - t0):6.0f} ms")
        assert "Пересобрано и перезагружено" in page.inner_text("main"), page.inner_text("main")
        page.screenshot(path=str(OUT / "ssl-08-rebuilt.png"), full_page=True)
        visit("09-search-after", f"/search?q={quote(phrase)}", "[data-testid=hits-metadata] li")
        first = page.inner_text("[data-testid=hits-metadata] li >> nth=0")
        assert "Справочник.Пользователи" in first and "синоним словаря «" in first
        browser.close()
        assert not errors, errors
