"""Where the sources are, where the dictionary goes, and recompile + reload on request.

The server never imports the compiler: a rebuild runs ``v8atlas compile … --out BUNDLES``
as a child process (the same Python, so the same install), then switches the server to
the new bundle. The sources come, in this order, from:

1. ``V8ATLAS_SOURCES`` (paths separated by ``os.pathsep``) or the server's own list of sources
   (``state.sources`` when the server has one);
2. the arguments of the last compile into this bundles directory on this machine
   (``BUNDLES/.cache/compile-args.json``, written by ``v8atlas compile``);
3. the bundle's manifest: each source's recorded name (relative to the sources' common
   folder), resolved against the server's working folder — so this works when the server runs
   from that folder — plus a ``v8atlas.toml`` found beside them.

The dictionary is ``V8ATLAS_DICTIONARY`` if set, else a dictionary among (or inside) the
sources, else the compiled one when it is found from here, else ``dictionary.json`` in the
first source folder that is not itself a configuration (or beside the first configuration).
"""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from v8atlas.formats.version import COMPILE_ARGS

PROJECT_FILE = "v8atlas.toml"
DICTIONARY_NAME = "dictionary.json"
COMPILE_TIMEOUT_S = 30 * 60
LOG_TAIL = 4000


class RebuildUnavailable(Exception):
    """The server cannot tell where its sources are; the message says what to set."""


@dataclass
class SourcePlan:
    sources: list[Path]                 # arguments of `v8atlas compile`
    dictionary: Path                    # where aliases are written
    origin: str                         # how the list was found (shown on the page)
    missing: list[str] = field(default_factory=list)   # recorded sources not found here

    def compile_args(self) -> list[str]:
        args = [str(p) for p in self.sources]
        if not any(_inside(self.dictionary, p) for p in self.sources):
            args.append(str(self.dictionary))
        return args


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def _recorded_compile_args(bundles_dir: Path | None) -> list[Path]:
    if bundles_dir is None:
        return []
    try:
        record = json.loads((bundles_dir / ".cache" / COMPILE_ARGS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    paths = [Path(p) for p in record.get("sources") or [] if isinstance(p, str)]
    return paths if paths and all(p.exists() for p in paths) else []


def plan_sources(manifest: dict[str, Any], explicit: list[str] | None = None,
                 dictionary: str | None = None, cwd: Path | None = None,
                 bundles_dir: Path | None = None) -> SourcePlan:
    cwd = cwd or Path.cwd()
    env_sources = os.environ.get("V8ATLAS_SOURCES")
    dictionary = dictionary or os.environ.get("V8ATLAS_DICTIONARY")
    missing: list[str] = []
    recorded = [s for s in manifest.get("sources") or [] if isinstance(s, dict)]
    if explicit:
        sources, origin = [Path(p) for p in explicit], "the server's --sources"
    elif env_sources:
        sources, origin = [Path(p) for p in env_sources.split(os.pathsep) if p], "V8ATLAS_SOURCES"
    elif recorded_args := _recorded_compile_args(bundles_dir):
        sources, origin = recorded_args, "the last compile into this bundles directory"
    else:
        sources, origin = [], "the bundle's manifest"
        for s in recorded:
            p = Path(str(s.get("name", "")))
            p = p if p.is_absolute() else cwd / p
            if p.exists():
                sources.append(p)
            else:
                missing.append(str(s.get("name")))
        for folder in {p.parent for p in sources}:
            if (folder / PROJECT_FILE).is_file() and folder / PROJECT_FILE not in sources:
                sources.insert(0, folder / PROJECT_FILE)
    if not sources:
        raise RebuildUnavailable(
            "the sources of this bundle are not found from the server's working folder "
            f"({', '.join(missing) or 'the manifest lists none'}); start the server with "
            "V8ATLAS_SOURCES=path1:path2 (the same paths `v8atlas compile` was given)")
    return SourcePlan(sources, _dictionary_path(dictionary, sources, recorded, cwd), origin, missing)


def _dictionary_path(explicit: str | None, sources: list[Path], recorded: list[dict[str, Any]],
                     cwd: Path) -> Path:
    if explicit:
        return Path(explicit)
    for p in sources:                      # a dictionary given as a source, or one inside a source folder
        if p.is_file() and p.suffix == ".json" and p.name.startswith("dictionary"):
            return p
        if p.is_dir() and (p / DICTIONARY_NAME).is_file():
            return p / DICTIONARY_NAME
    for s in recorded:                     # one the bundle was compiled from, if it is found from here
        name = str(s.get("name", ""))
        candidate = Path(name) if Path(name).is_absolute() else cwd / name
        if s.get("kind") == "dictionary" and name.endswith(".json") and candidate.is_file():
            return candidate
    # A folder argument that is not itself one source (e.g. `examples/`) is rescanned at
    # every compile, so a dictionary put there is picked up without changing the arguments.
    for p in sources:
        if p.is_dir() and not (p / "Configuration.xml").exists() and not (p / "src").is_dir():
            return p / DICTIONARY_NAME
    first = next((p for p in sources if p.name != PROJECT_FILE), sources[0])
    return first.parent / DICTIONARY_NAME


@dataclass
class RebuildResult:
    ok: bool
    command: list[str]
    exit_code: int | None
    seconds: float
    log: str                   # stderr+stdout tail
    bundle_path: str | None    # the last stdout line on success
    reload_message: str = ""


async def run_compile(plan: SourcePlan, bundles_dir: Path, timeout_s: float = COMPILE_TIMEOUT_S) -> RebuildResult:
    """Run the compile in a worker thread with a plain blocking subprocess: no asyncio child
    watcher is involved, so it works the same from any event loop (the server's, or a test's
    loop in a background thread)."""
    return await asyncio.to_thread(_compile_blocking, plan, bundles_dir, timeout_s)


def _compile_blocking(plan: SourcePlan, bundles_dir: Path, timeout_s: float) -> RebuildResult:
    cmd = [sys.executable, "-m", "v8atlas", "compile", *plan.compile_args(), "--out", str(bundles_dir), "--quiet"]
    t0 = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, stdin=subprocess.DEVNULL, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return RebuildResult(False, cmd, None, time.perf_counter() - t0,
                             f"compile did not finish in {timeout_s:.0f} s and was stopped", None)
    except OSError as e:
        return RebuildResult(False, cmd, None, time.perf_counter() - t0, f"compile could not start: {e}", None)
    stdout = done.stdout.decode("utf-8", "replace")
    stderr = done.stderr.decode("utf-8", "replace")
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    log = (stderr + ("\n" if stderr and stdout else "") + stdout)[-LOG_TAIL:]
    ok = done.returncode == 0 and bool(lines)
    return RebuildResult(ok, cmd, done.returncode, time.perf_counter() - t0, log, lines[-1] if ok else None)
