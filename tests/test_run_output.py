"""`make run` for a person (issue 14, item 11): the install prints no setuptools banners (every
data folder is a listed package), and the server's start-up log ends with the URLs to open."""
from __future__ import annotations

import ast
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from bundle_factory import build_sample

REPO = Path(__file__).resolve().parent.parent


def setup_packages() -> dict[str, str]:
    """setup.py's package → folder map, computed without running setup()."""
    source = (REPO / "setup.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    tree.body = [n for n in tree.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call))]
    scope: dict = {}
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        exec(compile(tree, "setup.py", "exec"), scope)
        return dict(scope["_dirs"])
    finally:
        os.chdir(cwd)


def test_every_folder_with_package_data_is_a_listed_package():
    """setuptools prints a 30-line BuildBackendWarning banner for each data folder that is not
    a listed package (help/data, search/data, dashboard/static, static/vendor)."""
    listed = set(setup_packages().values())
    for root in ("v8atlas", "compiler", "formats", "server"):
        for d in (REPO / root).rglob("*"):
            if not d.is_dir() or "__pycache__" in d.parts or any(p.startswith(".") for p in d.parts):
                continue
            if any(f.is_file() for f in d.iterdir()):
                assert d.relative_to(REPO).as_posix() in listed, d


def test_makefile_installs_quietly():
    venv = (REPO / "Makefile").read_text(encoding="utf-8").split("$(VENV)/.installed:", 1)[1].split("\n\n", 1)[0]
    assert all("-qq" in line for line in venv.splitlines() if "pip install" in line), venv


def test_start_up_log_ends_with_the_urls_to_open(tmp_path):
    build_sample(tmp_path / "b")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "v8atlas", "serve", "--bundles", str(tmp_path / "b"),
                             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                time.sleep(0.1)
        time.sleep(1.0)     # the start-up check and the closing lines follow the listening socket
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    lines = [ln for ln in err.decode().splitlines() if " INFO " in ln and "stopped" not in ln]
    assert lines[-2].endswith(f"dashboard (open in a browser): http://127.0.0.1:{port}/"), lines
    assert lines[-1].endswith(f"MCP for agents (streamable HTTP): http://127.0.0.1:{port}/mcp"), lines
    assert out == b""
