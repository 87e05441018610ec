"""A small stand-in for the server (issue 6) that the dashboard tests run against.

It answers the JSON API contract of docs (briefs/api.md) — ``/api/<tool>`` with
``{"outcome", "text", "data"}`` — over a handful of objects, checks tokens the way the
server's middleware does (header token, or a dashboard session through the registered
validator), and holds a real (tiny) bundle so that the dashboard's own pages read a real
manifest. Aliases come from the dictionary file at reload, as a recompiled bundle would.
No tests here: the helpers are imported by tests/test_dashboard*.py.
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from aiohttp import web

from v8atlas.formats import Bundle
from v8atlas.formats import schema as S
from v8atlas.formats.writer import BundleWriter

CONFIG = "Демо"
OBJECTS = {
    "Документ.ЗаказПокупателя": ("Document", "Заказ покупателя", ["Контрагент: СправочникСсылка.Контрагенты",
                                                                  "Номенклатура: СправочникСсылка.Номенклатура"]),
    "Справочник.Контрагенты": ("Catalog", "Контрагенты", ["ИНН: Строка(12)"]),
    "Справочник.Номенклатура": ("Catalog", "Номенклатура", ["Артикул: Строка(25)"]),
    "РегистрНакопления.ТоварыНаСкладах": ("AccumulationRegister", "Товары на складах",
                                          ["Номенклатура: СправочникСсылка.Номенклатура"]),
}
# Many neighbours, to see "shown N of M" and the limit at work.
EXTRA = {f"Справочник.Вид{i:02d}": ("Catalog", f"Вид {i}", []) for i in range(60)}
PLATFORM = {"Массив.Найти": "Ищет элемент в массиве. Возвращает индекс или `Неопределено`."}
HELP_VERSIONS = ["8.3.24", "8.3.27"]


def write_stub_bundle(bundles: Path) -> Path:
    with BundleWriter(bundles, "demo", compiler_version="test") as w:
        w.add_array("ids", np.arange(4, dtype="<u4"))
        w.add_json(S.DOC_META, {"kinds": ["Catalog", "Document"], "configs": [CONFIG], "count": 0})
        w.add_source("configuration", "demo-config", 10, "cd" * 32, format="designer")
        w.add_source("help", "8.3.27/shcntx_ru.hbk", 20, "ef" * 32, format="hbk")
        w.counts.update({"documents": len(OBJECTS) + len(EXTRA), "edges": 64})
        w.info.update({"help_versions": HELP_VERSIONS})
        w.report = {"errors": [], "warnings": [
            {"source": "8.3.27/shcntx_ru.hbk", "code": "broken-page", "message": "страница <b>Foo</b> не читается",
             "file": "objects/Foo.html"},
            {"source": "dictionary.json", "code": "alias-missing-object",
             "message": "синоним «старый» ведёт к Справочник.Нет — такого объекта нет"}],
            "unknown": [{"what": "demo-config: property Foo", "count": 2, "example": "Catalogs/X.xml"}]}
    return w.published


@dataclass
class StubState:
    bundles_dir: Path
    dictionary: Path
    bundle: Bundle = None  # type: ignore[assignment]
    aliases: dict[str, list[str]] = field(default_factory=dict)
    reloads: int = 0

    def __post_init__(self) -> None:
        self.bundle = Bundle.open(self.bundles_dir)

    def reload(self) -> str:
        self.bundle = Bundle.open(self.bundles_dir)
        self.reloads += 1
        self.aliases = {}
        if self.dictionary.is_file():
            data = json.loads(self.dictionary.read_text(encoding="utf-8"))
            self.aliases = dict((data.get("aliases") or {}).get(CONFIG) or {})
        return f"reloaded {self.bundle.id}"


def _all_objects() -> dict[str, tuple[str, str, list[str]]]:
    return {**OBJECTS, **EXTRA}


def _search_metadata(state: StubState, args: dict[str, str]) -> dict[str, Any]:
    query = args.get("query", "").strip()
    if not query:
        return {"outcome": "error", "error": {"code": "bad_argument", "message": "query is empty"}}
    results = []
    for phrase, names in state.aliases.items():
        if phrase.lower() == query.lower():
            results += [{"name": n, "config": CONFIG, "kind": _all_objects().get(n, ("?",))[0],
                         "why": [f"alias «{phrase}» (dictionary)"], "score": 10.0} for n in names]
    words = [w for w in query.lower().split() if len(w) > 2]
    for name, (kind, synonym, _) in OBJECTS.items():
        hit = [w for w in words if w[:5] in name.lower() or w[:5] in synonym.lower()]
        if hit and all(r["name"] != name for r in results):
            results.append({"name": name, "config": CONFIG, "kind": kind, "synonym": synonym, "score": 1.0 * len(hit),
                            "why": [f"words {', '.join(hit)} in field synonym"]})
    text = f"## search_metadata: {len(results)} result(s) for «{query}»\n" + "".join(
        f"- `{r['name']}` — {'; '.join(r['why'])}\n" for r in results)
    return {"outcome": "list" if results else "not_found", "text": text, "data": {"results": results}}


def _search_platform(args: dict[str, str]) -> dict[str, Any]:
    query = args.get("query", "").lower()
    results = [{"name": n, "kind": "method", "why": ["words найти in field name"]}
               for n in PLATFORM if any(w[:4] in n.lower() for w in query.split() if len(w) > 3)]
    return {"outcome": "list" if results else "not_found",
            "text": f"{len(results)} platform element(s) for «{args.get('query', '')}»", "data": {"results": results}}


def _get_object(args: dict[str, str]) -> dict[str, Any]:
    name = args.get("name", "")
    detail = args.get("detail", "brief")
    if name not in _all_objects():
        near = [n for n in OBJECTS if n.split(".")[0] == name.split(".")[0]][:3]
        return {"outcome": "not_found", "text": f"**not found**: `{name}` is not an object of {CONFIG}.\n",
                "data": {"candidates": [{"name": n} for n in near]}}
    kind, synonym, fields = _all_objects()[name]
    text = f"# {name}\n{synonym} ({kind}, configuration {CONFIG})\n"
    if detail in ("fields", "full"):
        text += "\n## Реквизиты\n" + "".join(f"- {f}\n" for f in fields)
    if detail == "full":
        text += "\n## Стандартные реквизиты\n- Ссылка: " + name.replace(".", "Ссылка.", 1) + "\n"
    text += f"\n_detail: {detail}_\n"
    return {"outcome": "found", "text": text, "data": {"name": name, "detail": detail}}


def _get_platform(args: dict[str, str]) -> dict[str, Any]:
    name = args.get("name", "")
    if name not in PLATFORM:
        return {"outcome": "not_found", "text": f"`{name}`: no such platform element", "data": {}}
    version = args.get("version") or "8.3.27"
    return {"outcome": "found", "text": f"# {name}\n{PLATFORM[name]}\n\nplatform version: {version}\n",
            "data": {"name": name, "versions": HELP_VERSIONS}}


def _get_relations(args: dict[str, str]) -> dict[str, Any]:
    name = args.get("name", "")
    objects = _all_objects()
    if name not in objects:
        return {"outcome": "not_found", "text": f"`{name}` is not an object of {CONFIG}", "data": {}}
    try:
        limit = int(args.get("limit") or 50)
    except ValueError:
        return {"outcome": "error", "error": {"code": "bad_argument", "message": "limit is not a number"}}
    if not 1 <= limit <= 1000:
        return {"outcome": "error", "error": {"code": "bad_argument", "message": "limit must be 1..1000"}}
    weak = args.get("weak") in ("1", "true")
    if name == "Документ.ЗаказПокупателя":
        neigh = ["Справочник.Контрагенты", "Справочник.Номенклатура", "РегистрНакопления.ТоварыНаСкладах", *EXTRA]
    elif name == "Справочник.Номенклатура":
        neigh = ["Документ.ЗаказПокупателя", "РегистрНакопления.ТоварыНаСкладах"]
    else:
        neigh = ["Документ.ЗаказПокупателя"]
    edges_all = [{"src": name, "dst": n, "kind": "attribute_type", "label": n.split(".")[1],
                  "weak": n.startswith("Справочник.Вид") and int(n[-2:]) % 2 == 1} for n in neigh]
    edges = [e for e in edges_all if weak or not e["weak"]]
    shown_edges = edges[:limit]
    ids = [name] + [e["dst"] for e in shown_edges]
    nodes = [{"id": n, "name": n, "title": objects[n][1], "kind": objects[n][0], "config": CONFIG} for n in ids]
    return {"outcome": "found", "text": f"{name}: {len(shown_edges)} of {len(edges)} relations",
            "data": {"nodes": nodes, "edges": shown_edges, "total": len(edges), "shown": len(shown_edges)}}


def _list_sources() -> dict[str, Any]:
    text = (f"## Конфигурации\n| Имя | Версия | Платформа |\n|---|---|---|\n| {CONFIG} | 1.0.1 | 8.3.27 (из Configuration.xml) |\n\n"
            "## Справка\n- загружены: 8.3.24, 8.3.27\n- нет: 8.3.25\n")
    return {"outcome": "list", "text": text, "data": {"configurations": [{"name": CONFIG}]}}


def build_stub_app(state: StubState, api_token: str | None, admin_token: str | None) -> web.Application:
    """The stand-in server: token middleware + /api/<tool> + the dashboard's setup()."""
    from v8atlas.server import dashboard
    from v8atlas.server.dashboard.routes import DASHBOARD_KEY

    @web.middleware
    async def tokens(request: web.Request, handler):
        if request.path.startswith("/api/") and (api_token or admin_token):
            given = request.headers.get("X-Api-Token", "")
            ok = any(t and hmac.compare_digest(given, t) for t in (api_token, admin_token))
            if not ok and request.app[DASHBOARD_KEY].validate_for_api(request) is None:
                return web.json_response({"outcome": "error", "error": {
                    "code": "unauthorized", "message": "a token is required"}}, status=401)
        return await handler(request)

    async def api(request: web.Request) -> web.Response:
        tool = request.match_info["tool"]
        args = dict(request.query)
        handlers = {
            "search_metadata": lambda: _search_metadata(state, args),
            "search_platform": lambda: _search_platform(args),
            "get_object": lambda: _get_object(args),
            "get_platform": lambda: _get_platform(args),
            "get_relations": lambda: _get_relations(args),
            "list_sources": _list_sources,
        }
        if tool not in handlers:
            return web.json_response({"outcome": "error", "error": {"code": "unknown_tool", "message": tool}}, status=404)
        result = handlers[tool]()
        return web.json_response(result, status=400 if result["outcome"] == "error" else 200)

    app = web.Application(middlewares=[tokens])
    app.router.add_get("/api/{tool}", api)
    dashboard.setup(app, state)
    return app
