"""End to end with the SDK's own client: stdio and streamable HTTP, both protocol eras.

initialize (or server/discover), tools/list, every tool, and a bad call per transport.
The bundle is the sample compiled from ``examples/`` when the compilers are present,
else the fixture bundle from bundle_factory.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from bundle_factory import build_sample

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[1]
V8ATLAS = [sys.executable, "-m", "v8atlas"]

TOOL_NAMES = {"list_sources", "search_metadata", "get_object", "get_relations", "search_platform",
              "get_platform", "compare_configurations", "check_query", "search_code", "get_procedure"}
EXAMPLES = REPO / "examples"
# (tool, arguments, expected outcome, a line the answer must contain)
SAMPLE_CALLS = [
    ("list_sources", {}, "list", "`ДемоТорговля`"),
    ("search_metadata", {"query": "остатки товаров", "config": "ДемоТорговля"}, "found",
     "`РегистрНакопления.ОстаткиТоваров`"),
    ("get_object", {"name": "РегистрНакопления.ОстаткиТоваров", "config": "ДемоТорговля",
                    "detail": "fields"}, "found", "КоличествоНачальныйОстаток"),
    ("get_object", {"name": "Документ.ПриходТовара", "config": "ДемоТорговля", "detail": "fields"},
     "found", "ПОДСТРОКА(Комментарий, 1, 1024)"),
    ("get_relations", {"name": "Документ.ПриходТовара", "config": "ДемоТорговля"}, "found",
     "movement → `РегистрНакопления.ОстаткиТоваров`"),
    ("search_platform", {"query": "разделить строку", "config": "ДемоТорговля"}, "found",
     "`Глобальный контекст.СтрРазделить`"),
    ("get_platform", {"name": "СтрРазделить", "config": "ДемоТорговля"}, "found", "StrSplit"),
    ("get_platform", {"name": "Запрос.ЕСТЬNULL", "config": "ДемоТорговля"}, "found", "ISNULL"),
    ("compare_configurations", {"a": "ДемоТорговля", "b": "ДемоТорговля_EDT"}, "found", "(identical)"),
    ("check_query", {"text": "ВЫБРАТЬ О.КоличествоОстаток ИЗ РегистрНакопления.ОстаткиТоваров.Обороты КАК О",
                     "config": "ДемоТорговля"}, "problems", "`КоличествоОборот`"),
    ("search_code", {"query": "обновить цены", "config": "ДемоТорговля"}, "found",
     "`ОбщегоНазначения.ОбновитьЦены`"),
    ("get_procedure", {"name": "ОбщегоНазначения.ОбновитьЦены", "config": "ДемоТорговля"}, "found",
     "Процедура ОбновитьЦены() Экспорт"),
]
FIXTURE_CALLS = [
    ("list_sources", {}, "list", "`Демо`"),
    ("search_metadata", {"query": "заказ покупателя", "config": "Демо"}, "found", "ЗаказПокупателя"),
    ("get_object", {"name": "Документ.ЗаказПокупателя", "config": "Демо", "detail": "fields"}, "found",
     "ПОДСТРОКА(Комментарий"),
    ("get_relations", {"name": "Документ.ЗаказПокупателя", "config": "Демо"}, "found", "movement"),
    ("search_platform", {"query": "найти", "config": "Демо"}, "found", "Массив.Найти"),
    ("get_platform", {"name": "СтрРазделить", "config": "Демо"}, "found", "StrSplit"),
    ("compare_configurations", {"a": "Демо", "b": "Демо2"}, "found", "Справочник.Склады"),
    ("search_code", {"query": "цены", "config": "Демо"}, "unavailable", "has no code index"),
    ("get_procedure", {"name": "ОбщегоНазначения.ОбновитьЦены", "config": "Демо"}, "unavailable",
     "has no code index"),
]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> tuple[Path, list]:
    """The sample compiled from examples/ (configuration in both formats + help books)."""
    out = tmp_path_factory.mktemp("bundles")
    try:
        from v8atlas.compiler.pipeline import compile_bundle
        compile_bundle([str(EXAMPLES)], out, quiet=True)
        return out, SAMPLE_CALLS
    except (ImportError, SystemExit, FileNotFoundError):
        build_sample(out)
        return out, FIXTURE_CALLS


@pytest.fixture(scope="module")
def bundles(compiled) -> Path:
    return compiled[0]


@pytest.fixture(scope="module")
def calls(compiled) -> list:
    return compiled[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def http_server(bundles):
    port = _free_port()
    proc = subprocess.Popen([*V8ATLAS, "serve", "--bundles", str(bundles), "--port", str(port),
                             "--log-level", "WARNING"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode())
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    proc.terminate()
    out, err = proc.communicate(timeout=10)
    assert out == b""                                   # nothing but logs on stderr
    assert b"Traceback" not in err, err.decode()


async def _exercise(client: Client, calls: list) -> None:
    listed = await client.list_tools()
    assert {t.name for t in listed.tools} == TOOL_NAMES
    for t in listed.tools:
        assert t.annotations.read_only_hint is True
        assert t.input_schema["type"] == "object"
    seen = set()
    for name, args, outcome, needle in calls:
        r = await client.call_tool(name, args)
        assert not r.is_error, (name, r.content)
        text = r.content[0].text
        assert f"outcome: {outcome}" in text.lower(), (name, text)
        assert needle in text, (name, needle, text)
        seen.add(name)
    assert seen == TOOL_NAMES
    bad = await client.call_tool("get_object", {"name": 5})
    assert bad.is_error and "`name` must be a string" in bad.content[0].text
    extra = await client.call_tool("get_object", {"name": "x", "colour": "red"})
    assert extra.is_error and "has no argument 'colour'" in extra.content[0].text
    unknown = await client.call_tool("no_such_tool", {})
    assert unknown.is_error
    assert unknown.content[0].text.startswith("**Error** (unknown_tool): no tool 'no_such_tool'; tools: ")
    cfg = await client.call_tool("search_metadata", {"query": "x", "config": "Нет"})
    assert cfg.is_error and "unknown_config" in cfg.content[0].text


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_http_with_sdk_client(http_server, calls, mode):
    async with Client(http_server, mode=mode) as client:
        await _exercise(client, calls)


async def test_stdio_with_sdk_client(bundles, calls):
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "v8atlas", "serve", "--transport", "stdio",
                                         "--bundles", str(bundles), "--log-level", "WARNING"])
    async with Client(params) as client:
        await _exercise(client, calls)


async def test_stdio_command_takes_no_transport_option(bundles, calls):
    """`v8atlas stdio` (bundles from the environment): the form that survives wrappers."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "v8atlas", "stdio"],
                                   env={**os.environ, "V8ATLAS_BUNDLES": str(bundles)})
    async with Client(params) as client:
        await _exercise(client, calls)


async def test_both_transports_from_one_process(bundles, calls):
    """--transport both: a spawned stdio server also listens on HTTP (the dashboard's case)."""
    import aiohttp
    port = _free_port()
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "v8atlas", "serve", "--transport", "both", "--port", str(port),
                                         "--bundles", str(bundles), "--log-level", "WARNING"])
    async with Client(params) as client:
        r = await client.call_tool("list_sources", {})
        assert not r.is_error
        async with aiohttp.ClientSession() as s:
            async with s.post(f"http://127.0.0.1:{port}/api/list_sources", json={}) as resp:
                body = await resp.json()
                assert resp.status == 200

                def steady(text: str) -> list[str]:      # the bundle-age line ticks
                    return [ln for ln in text.splitlines() if not ln.startswith("Bundle `")]
                assert steady(body["text"]) == steady(r.content[0].text)
