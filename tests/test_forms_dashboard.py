"""The dashboard card page shows a form as an indented item tree and a schema as data sets →
fields (headless Chromium, as tests/test_dashboard_e2e.py; skips the same way without it)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import forms_fixture as F  # noqa: E402
from test_dashboard_e2e import CHROMIUM, CHROMIUM_FLAGS, OUT, LoopbackServer, login  # noqa: E402

playwright_api = pytest.importorskip("playwright.sync_api")
API, ADMIN = "forms-read-token-" + "r" * 24, "forms-admin-token-" + "a" * 24


class _Server:
    kind = "forms"

    def __init__(self, url: str) -> None:
        self.url = url


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from v8atlas.compiler.pipeline import compile_bundle
    from v8atlas.server.app import build_app
    from v8atlas.server.auth import AuthConfig
    from v8atlas.server.state import ServerState
    tmp = tmp_path_factory.mktemp("forms-dash")
    compile_bundle([F.designer_dump(tmp)], tmp / "bundles", quiet=True, cache=False)
    state = ServerState(tmp / "bundles", poll_interval=0)
    state.load_initial()
    auth = AuthConfig.from_env({"API_TOKEN": API, "ADMIN_TOKEN": ADMIN}, host="127.0.0.1")
    saved = {k: os.environ.get(k) for k in ("API_TOKEN", "ADMIN_TOKEN")}
    os.environ.update(API_TOKEN=API, ADMIN_TOKEN=ADMIN)
    try:
        with LoopbackServer(build_app(state, auth=auth)) as srv:
            yield _Server(srv.url)
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)


@pytest.fixture(scope="module")
def page(server):
    OUT.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        pg = browser.new_page(viewport={"width": 1360, "height": 900}, locale="ru-RU")
        pg.set_default_timeout(30000)
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        login(pg, server, API, "/sources")
        yield pg
        browser.close()
        assert not errors, f"JavaScript errors on the page: {errors}"


def _depth_and_left(page, code: str) -> tuple[int, float]:
    """The nesting depth of the card view's list item named ``code`` and where it starts on screen."""
    name = page.locator(f"#card-body .card-view li > code:text-is('{code}')").first
    depth = int(name.evaluate("e => e.parentElement.getAttribute('data-depth')") or 0)
    return depth, float(name.evaluate("e => e.getBoundingClientRect().left"))


def test_form_card_is_an_indented_item_tree(page, server):
    # drawn from the structured card (/ui/card), not from the agent's text
    name = "Справочник.Номенклатура.Форма.ФормаЭлемента"
    page.goto(f"{server.url}/card?name={quote(name)}&detail=fields")
    page.wait_for_selector("#card-body .card-view")
    group = _depth_and_left(page, "UsualGroup ГруппаШапка")
    field = _depth_and_left(page, "InputField Код")
    column = _depth_and_left(page, "InputField ЦеныЦена")
    assert (group[0], field[0], column[0]) == (0, 1, 3)
    assert group[1] < field[1] < column[1]
    view = page.locator("#card-body .card-view").inner_text()
    assert "Реквизиты формы" in view and "OnOpen→ПриОткрытии (нет процедуры в модуле)" in view
    assert page.locator("#card-body details.raw-answer .agent-text").count() == 1   # the agent's text, one click away
    page.screenshot(path=str(OUT / "forms-card-form.png"), full_page=True)


def test_schema_card_shows_data_sets_then_fields(page, server):
    name = "Справочник.Номенклатура.Макет.Ценник"
    page.goto(f"{server.url}/card?name={quote(name)}&detail=fields")
    page.wait_for_selector("#card-body .card-view")
    data_set = _depth_and_left(page, "Цены")
    field = _depth_and_left(page, "Номенклатура")
    assert (data_set[0], field[0]) == (0, 1) and data_set[1] < field[1]
    view = page.locator("#card-body .card-view").inner_text()
    assert "query (источник ИсточникДанных1)" in view and "Номенклатура «Товар»" in view
    page.screenshot(path=str(OUT / "forms-card-schema.png"), full_page=True)
