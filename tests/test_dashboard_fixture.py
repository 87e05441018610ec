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
            self.aliases = {a["phrase"]: a["targets"] for a in data.get("aliases") or []
                            if a.get("config") in (None, CONFIG)}
        return f"reloaded {self.bundle.id}"


def _all_objects() -> dict[str, tuple[str, str, list[str]]]:
    return {**OBJECTS, **EXTRA}


def _node(name: str) -> dict[str, Any]:
    ids = list(_all_objects())
    return {"id": ids.index(name), "name": f"{CONFIG}/{name}", "title": name, "kind": _all_objects()[name][0],
            "config": CONFIG, "domain": "metadata"}


def _search_metadata(state: StubState, args: dict[str, str]) -> dict[str, Any]:
    query = args.get("query", "").strip()
    if not query:
        return {"outcome": "error", "error": {"code": "bad_argument", "message": "query is empty"}}
    results = []
    for phrase, names in state.aliases.items():
        if phrase.lower() == query.lower():
            results += [{**_node(n), "why": f"alias «{phrase}» (dictionary.json)", "score": 10.0} for n in names]
    words = [w for w in query.lower().split() if len(w) > 2]
    for name, (kind, synonym, _) in OBJECTS.items():
        hit = [w for w in words if w[:5] in name.lower() or w[:5] in synonym.lower()]
        if hit and all(r["name"] != name for r in results):
            results.append({**_node(name), "synonym": synonym, "score": 1.0 * len(hit),
                            "why": f"words {', '.join(hit)} in field synonym"})
    text = f"## search_metadata: {len(results)} result(s) for «{query}»\n" + "".join(
        f"- `{r['title']}` — {r['why']}\n" for r in results)
    return {"outcome": "found" if results else "not_found", "text": text, "data": {"hits": results}}


def _search_platform(args: dict[str, str]) -> dict[str, Any]:
    query = args.get("query", "").lower()
    results = [{"id": 900, "name": n, "title": n, "kind": "method", "config": None, "domain": "platform",
                "why": "words найти in field name"}
               for n in PLATFORM if any(w[:4] in n.lower() for w in query.split() if len(w) > 3)]
    return {"outcome": "found" if results else "not_found",
            "text": f"{len(results)} platform element(s) for «{args.get('query', '')}»", "data": {"hits": results}}


def _get_object(args: dict[str, str]) -> dict[str, Any]:
    name = args.get("name", "")
    detail = args.get("detail", "brief")
    if name not in _all_objects():
        near = [n for n in OBJECTS if n.split(".")[0] == name.split(".")[0]][:3]
        return {"outcome": "not_found", "text": f"**not found**: `{name}` is not an object of {CONFIG}.\n",
                "data": {"candidates": [_node(n) for n in near]}}
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


PAGE = 25   # the real tool pages by answer size; a fixed page is enough to exercise cursors


def _get_relations(args: dict[str, str]) -> dict[str, Any]:
    name = args.get("name", "")
    objects = _all_objects()
    unknown = set(args) - {"name", "config", "direction", "kind", "weak", "cursor"}
    if unknown:
        return {"outcome": "error", "error": {"code": "bad_argument", "message": f"unknown argument {sorted(unknown)}"}}
    if name not in objects:
        # like the real tool: nearest names of the same class, as nodes, and the same in the text
        near = [n for n in OBJECTS if n.split(".")[0] == name.split(".")[0]][:3]
        text = f"**Outcome: not_found** — no object named {name!r}.\n"
        if near:
            text += "Nearest names (guesses, not matches):\n" + "".join(f"- `{n}`\n" for n in near)
        return {"outcome": "not_found", "text": text,
                "data": {"candidates": [{"id": list(objects).index(n), "name": f"{CONFIG}/{n}", "title": n,
                                         "kind": objects[n][0], "config": CONFIG} for n in near],
                         "nodes": [], "edges": [], "total": 0, "shown": 0}}
    weak = args.get("weak") in ("1", "true")
    offset = int(args.get("cursor") or 0)
    if name == "Документ.ЗаказПокупателя":
        neigh = ["Справочник.Контрагенты", "Справочник.Номенклатура", "РегистрНакопления.ТоварыНаСкладах", *EXTRA]
    elif name == "Справочник.Номенклатура":
        neigh = ["Документ.ЗаказПокупателя", "РегистрНакопления.ТоварыНаСкладах"]
    else:
        neigh = ["Документ.ЗаказПокупателя"]
    ids = list(objects)
    edges_all = [{"src": ids.index(name), "dst": ids.index(n), "kind": "attribute_type", "label": n.split(".")[1],
                  "weak": n.startswith("Справочник.Вид") and int(n[-2:]) % 2 == 1} for n in neigh]
    edges = [e for e in edges_all if weak or not e["weak"]]
    page = edges[offset:offset + PAGE]
    node_ids = sorted({ids.index(name)} | {e["dst"] for e in page})
    data = {"object": _node(name), "nodes": [_node(ids[i]) for i in node_ids], "edges": page,
            "total": len(edges), "shown": len(page), "weak_hidden": len(edges_all) - len(edges)}
    if offset + PAGE < len(edges):
        data["cursor"] = str(offset + PAGE)
    return {"outcome": "found", "text": f"**Outcome: found** — relations of `{name}`: {len(page)} shown of {len(edges)}",
            "data": data}


def _list_sources() -> dict[str, Any]:
    text = (f"# Sources (outcome: list)\n\n## Configurations (1)\n- `{CONFIG}` version 1.0.1; platform 8.3.27 from "
            "Configuration.xml; 64 objects\n\n## Platform and query-language help\n- help versions loaded: 8.3.24, 8.3.27\n")
    return {"outcome": "list", "text": text, "data": {
        "configs": [{"name": CONFIG, "synonym": "Демонстрационная", "version": "1.0.1", "platform_version": "8.3.27",
                     "platform_source": "Configuration.xml (CompatibilityMode)", "compatibility_mode": "8.3.24",
                     "objects": len(_all_objects()), "extensions": [], "base": None}],
        "help": {"loaded": HELP_VERSIONS, "missing": ["8.3.25"], "unused": []}}}


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
