"""docs/clients.md: every snippet parses, uses the keys its client reads, and the stdio
command it documents really serves MCP (started here with the SDK's client)."""
from __future__ import annotations

import json
import re
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

from bundle_factory import build_sample

DOC = Path(__file__).resolve().parents[1] / "docs" / "clients.md"
URL = "http://127.0.0.1:5001/mcp"


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 3)
    return text[start:end if end > 0 else None]


def json_in(title: str) -> list[dict]:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section(title), re.S)]


def test_every_snippet_parses():
    for b in blocks("json"):
        json.loads(b)
    for b in blocks("toml"):
        tomllib.loads(b)


def test_client_specific_keys():
    claude = json_in("Claude Code")[0]["mcpServers"]["v8atlas"]
    assert claude["type"] == "http" and claude["url"] == URL
    assert claude["headers"]["Authorization"] == "Bearer ${V8ATLAS_API_TOKEN}"
    codex = [tomllib.loads(b) for b in re.findall(r"```toml\n(.*?)```", section("Codex CLI"), re.S)]
    assert codex[0]["mcp_servers"]["v8atlas"] == {"url": URL, "bearer_token_env_var": "V8ATLAS_API_TOKEN"}
    assert codex[1]["mcp_servers"]["v8atlas"]["args"][:1] == ["stdio"]
    cursor = json_in("Cursor")[0]["mcpServers"]["v8atlas"]
    assert cursor["url"] == URL and "${env:V8ATLAS_API_TOKEN}" in cursor["headers"]["Authorization"]
    vscode = json_in("VS Code (Copilot agent mode)")[0]
    assert "mcpServers" not in vscode and vscode["servers"]["v8atlas"]["url"] == URL
    assert vscode["inputs"][0]["password"] is True
    assert vscode["servers"]["v8atlas"]["headers"]["Authorization"] == "Bearer ${input:v8atlas-token}"
    qwen = json_in("Qwen Code")[0]["mcpServers"]["v8atlas"]
    assert qwen["httpUrl"] == URL and "url" not in qwen


def test_no_snippet_contains_a_literal_token():
    text = DOC.read_text(encoding="utf-8")
    for m in re.finditer(r"Bearer ([^\s\"']+)", text):
        value = m.group(1)
        assert value.startswith(("$", "${", "<")), value


@pytest.mark.anyio
async def test_documented_stdio_command_serves_tools(tmp_path):
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    entry = json_in("Any client over stdio")[0]["mcpServers"]["v8atlas"]
    build_sample(tmp_path / "bundles")
    args = [a if a != "/srv/v8atlas/bundles" else str(tmp_path / "bundles") for a in entry["args"]]
    command = shutil.which(entry["command"]) or str(Path(sys.executable).parent / entry["command"])
    if not Path(command).exists():
        command, args = sys.executable, ["-m", "v8atlas", *args]
    async with Client(StdioServerParameters(command=command, args=args)) as client:
        listed = await client.list_tools()
        assert "get_object" in {t.name for t in listed.tools}


@pytest.fixture
def anyio_backend():
    return "asyncio"
