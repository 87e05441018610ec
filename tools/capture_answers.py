"""Capture every tool's answer on a fixed list of inputs, to compare before/after a refactor.

    python tools/capture_answers.py SOURCE... --out answers.json

Compiles SOURCE(s) into a temporary folder, calls each tool in-process and writes
{"call": {"outcome", "text", "data"}} as sorted JSON. Diff two such files to see what changed.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from v8atlas.compiler.pipeline import compile_bundle  # noqa: E402
from v8atlas.formats.reader import Bundle  # noqa: E402
from v8atlas.server.snapshot import Snapshot  # noqa: E402
from v8atlas.server.tools import call  # noqa: E402

CALLS: list[tuple[str, dict[str, object]]] = [
    ("list_sources", {}),
    ("search_metadata", {"query": "пользователи"}),
    ("search_metadata", {"query": "номенклатура", "limit": 3}),
    ("search_metadata", {"query": "валюта", "kind": "Справочник"}),
    ("search_metadata", {"query": "zzzqqq"}),
    ("search_metadata", {"query": "контрагенты"}),
    ("search_metadata", {"query": "остатки товаров"}),
    ("get_object", {"name": "Справочник.Пользователи"}),
    ("get_object", {"name": "Справочник.Пользователи", "detail": "full"}),
    ("get_object", {"name": "Справочник.Номенклатура", "detail": "fields"}),
    ("get_object", {"name": "Справочник.Нет"}),
    ("get_object", {"name": "Пользователи"}),
    ("get_object", {"name": "Документ.ПриходнаяНакладная", "detail": "full"}),
    ("get_object", {"name": "РегистрНакопления.ОстаткиТоваров", "detail": "full"}),
    ("get_relations", {"name": "Справочник.Пользователи"}),
    ("get_relations", {"name": "Справочник.Номенклатура", "direction": "in"}),
    ("get_relations", {"name": "Справочник.Нет"}),
    ("search_platform", {"query": "найти в массиве"}),
    ("search_platform", {"query": "подстрока", "scope": "query"}),
    ("search_platform", {"query": "zzzqqq"}),
    ("get_platform", {"name": "Массив.Найти"}),
    ("get_platform", {"name": "СтрНайти"}),
    ("get_platform", {"name": "ПОДСТРОКА"}),
    ("get_platform", {"name": "Найти"}),
    ("get_platform", {"name": "Нет.Такого"}),
    ("compare_configurations", {"a": "x", "b": "y"}),
    # long answers: these page (a cursor and its continuation are captured too)
    ("get_relations", {"name": "Справочник.Пользователи", "direction": "in", "weak": True}),
    ("get_relations", {"name": "Справочник.ВнешниеПользователи", "weak": True}),
    ("get_object", {"name": "Справочник.Пользователи", "detail": "full"}),
    ("get_object", {"name": "РегистрСведений.НастройкиВерсийРасширений", "detail": "full"}),
    ("get_object", {"name": "Документ.ПриходнаяНакладная", "detail": "fields"}),
    ("get_platform", {"name": "Массив"}),
    ("get_platform", {"name": "ГлобальныйКонтекст"}),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sources", nargs="+")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        res = compile_bundle(args.sources, tmp, cache=False, quiet=True)
        snap = Snapshot(Bundle.open(res.bundle_path))
        configs = [c for c in snap.configs] if hasattr(snap, "configs") else []
        calls = list(CALLS)
        names = [str(getattr(c, "name", c)) for c in configs]
        calls.append(("compare_configurations", {"a": "БазоваяКонфигурация", "b": "ДемоТорговля"}))
        if len(names) >= 2:
            calls.append(("compare_configurations", {"a": names[0], "b": names[1]}))
        out: dict[str, object] = {}
        for name, kwargs in calls:
            variants = [kwargs] + [dict(kwargs, config=c) for c in names[:3] if name != "list_sources"
                                   and name != "compare_configurations"]
            for v in variants:
                r = call(snap, name, v)
                out[f"{name} {json.dumps(v, ensure_ascii=False, sort_keys=True)}"] = r.as_json()
                cursor = (r.data or {}).get("cursor") if r.data else None
                if cursor:
                    r2 = call(snap, name, dict(v, cursor=cursor))
                    out[f"{name} {json.dumps(v, ensure_ascii=False, sort_keys=True)} +cursor"] = r2.as_json()
    Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True, default=str),
                              encoding="utf-8")
    print(f"{len(out)} answers → {args.out}")


if __name__ == "__main__":
    main()
