"""Where a recompile started from the dashboard takes its sources from."""
from __future__ import annotations

import json

import pytest

from v8atlas.server.dashboard.rebuild import RebuildUnavailable, plan_sources


def test_last_compile_arguments_are_used_when_nothing_else_says(tmp_path, monkeypatch):
    monkeypatch.delenv("V8ATLAS_SOURCES", raising=False)
    src = tmp_path / "project"
    src.mkdir()
    (src / "dictionary.json").write_text("{}", encoding="utf-8")
    bundles = tmp_path / "bundles"
    (bundles / ".cache").mkdir(parents=True)
    (bundles / ".cache" / "compile-args.json").write_text(
        json.dumps({"sources": [str(src)], "name": "x", "bundle": "x-1-2"}), encoding="utf-8")
    manifest = {"sources": [{"kind": "dictionary", "name": "dictionary.json"}]}
    plan = plan_sources(manifest, cwd=tmp_path / "elsewhere", bundles_dir=bundles)
    assert plan.sources == [src]
    assert plan.dictionary == src / "dictionary.json"


def test_recorded_sources_that_are_gone_are_not_used(tmp_path, monkeypatch):
    monkeypatch.delenv("V8ATLAS_SOURCES", raising=False)
    bundles = tmp_path / "bundles"
    (bundles / ".cache").mkdir(parents=True)
    (bundles / ".cache" / "compile-args.json").write_text(
        json.dumps({"sources": [str(tmp_path / "gone")]}), encoding="utf-8")
    with pytest.raises(RebuildUnavailable, match="V8ATLAS_SOURCES"):
        plan_sources({"sources": []}, cwd=tmp_path, bundles_dir=bundles)
