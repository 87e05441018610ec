"""tools/ci_bundle.sh against a local origin: compile, verify, publish, print the hash; a
server pulling from that origin gets exactly that bundle. The CI examples call the script."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from v8atlas.formats.origin import fetch_pointer, pull

ROOT = Path(__file__).resolve().parent.parent


def test_ci_bundle_script_publishes_what_a_server_pulls(tmp_path):
    origin = tmp_path / "origin"
    env = {"V8ATLAS": f"{sys.executable} -m v8atlas", "PATH": "/usr/bin:/bin"}
    r = subprocess.run(["bash", str(ROOT / "tools/ci_bundle.sh"), "--to", f"file://{origin}/",
                        "--out", str(tmp_path / "bundles"), str(ROOT / "examples")],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    digest = r.stdout.strip().splitlines()[-1]
    assert len(digest) == 64
    pointer = fetch_pointer(f"file://{origin}/", None, 5)
    cached = pull(f"file://{origin}/", pointer.name, tmp_path / "cache")
    assert json.loads((cached / "manifest.json").read_text())["content_hash"] == digest
    # a failing step stops the job with a non-zero status
    bad = subprocess.run(["bash", str(ROOT / "tools/ci_bundle.sh"), "--to", f"file://{origin}/",
                          str(tmp_path / "nothing-here")], capture_output=True, text=True, env=env,
                         timeout=120)
    assert bad.returncode != 0


def test_ci_examples_call_the_script():
    for path in ("examples/ci/github-actions.yml", "examples/ci/gitlab-ci.yml"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "tools/ci_bundle.sh" in text and "V8ATLAS_ORIGIN_TOKEN" in text, path
