"""The documented stdio line, run by the MCP Inspector CLI itself (issue 14, item 9).

docs/clients.md documents
``npx -y @modelcontextprotocol/inspector --cli .venv/bin/v8atlas stdio --bundles DIR --method tools/list``.
The Inspector is installed once into ``$V8ATLAS_TOOLS_CACHE/inspector`` (default
~/.cache/v8atlas-tools), the way tools/conformance.sh installs its suite, and npx runs it from
there. The test skips, saying why, only when npx/npm are missing or the install fails.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bundle_factory import build_sample

INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"
REPO = Path(__file__).resolve().parent.parent


def inspector_home() -> Path:
    """The cache folder holding the Inspector (installed on first use)."""
    if shutil.which("npx") is None or shutil.which("npm") is None:
        pytest.skip("npx/npm are not installed: the MCP Inspector CLI cannot be had")
    root = Path(os.environ.get("V8ATLAS_TOOLS_CACHE", Path.home() / ".cache" / "v8atlas-tools")) / "inspector"
    marker = root / "node_modules" / "@modelcontextprotocol" / "inspector" / "package.json"
    if not marker.is_file() or '"version": "0.15.0"' not in marker.read_text(encoding="utf-8"):
        root.mkdir(parents=True, exist_ok=True)
        if not (root / "package.json").is_file():
            (root / "package.json").write_text('{"private": true}\n', encoding="utf-8")
        r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", INSPECTOR],
                           cwd=root, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            pytest.skip(f"cannot install {INSPECTOR} into {root}: {r.stderr.strip()[-300:]}")
    return root


def v8atlas_command() -> str:
    """The venv's `v8atlas` (what the documented line names), next to this Python."""
    exe = Path(sys.executable).with_name("v8atlas")
    if not exe.is_file():
        pytest.skip(f"no v8atlas console script beside {sys.executable} (install the project with pip -e)")
    return str(exe)


@pytest.fixture(scope="module")
def bundles(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("inspector") / "bundles"
    build_sample(out)
    return out


def inspector(home: Path, *args: str) -> dict:
    r = subprocess.run(["npx", "-y", INSPECTOR, "--cli", *args], cwd=home, capture_output=True,
                       text=True, timeout=120, env={**os.environ, "npm_config_update_notifier": "false"})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_inspector_cli_lists_and_calls_tools_over_the_documented_stdio_line(bundles):
    home = inspector_home()
    exe = v8atlas_command()
    listed = inspector(home, exe, "stdio", "--bundles", str(bundles), "--method", "tools/list")
    assert {t["name"] for t in listed["tools"]} >= {"get_object", "search_metadata", "get_platform"}
    called = inspector(home, exe, "stdio", "--bundles", str(bundles), "--method", "tools/call",
                       "--tool-name", "list_sources")
    assert called["isError"] is False and "(outcome: list)" in called["content"][0]["text"]
    unknown = inspector(home, exe, "stdio", "--bundles", str(bundles), "--method", "tools/call",
                        "--tool-name", "no_such_tool")
    assert unknown["isError"] is True
    assert unknown["content"][0]["text"].startswith("**Error** (unknown_tool)")


def test_documented_line_is_the_one_tested():
    doc = (REPO / "docs" / "clients.md").read_text(encoding="utf-8")
    assert "npx -y @modelcontextprotocol/inspector --cli .venv/bin/v8atlas stdio --bundles bundles" in doc
