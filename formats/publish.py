"""The bundles directory: the NEWEST pointer, listing, leftovers of killed compiles, retention.

Layout of a bundles directory::

    NEWEST                               one line: the folder name of the bundle to serve
    sample-20261130T101500123456Z-3f2a…/  published bundles (immutable)
    .tmp-sample-4242-9c1e…/              a compile in progress (or killed): never read
"""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import BundleNotFound
from .manifest import is_plain_name
from .safeio import open_regular
from .version import MANIFEST_NAME, NEWEST_POINTER, PIN_MARKER, TEMP_PREFIX, VERIFIED_DIR

# A temporary folder older than this is a leftover even if its pid was reused.
_LEFTOVER_AGE_S = 6 * 3600


def fsync_path(path: Path) -> None:
    """A file's bytes, or a folder's entries, on disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def set_newest(bundles_dir: Path, folder_name: str) -> None:
    """Replace the pointer atomically: write a temporary file, fsync, rename over NEWEST."""
    tmp = bundles_dir / f"{TEMP_PREFIX}{NEWEST_POINTER}.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(folder_name + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, bundles_dir / NEWEST_POINTER)
    fsync_path(bundles_dir)


@dataclass(frozen=True)
class BundleEntry:
    path: Path
    name: str
    stamp: str
    hash12: str
    pinned: bool


def _parse_folder(path: Path) -> BundleEntry | None:
    parts = path.name.rsplit("-", 2)
    if path.name.startswith(".") or len(parts) != 3 or not (path / MANIFEST_NAME).is_file():
        return None
    name, stamp, hash12 = parts
    return BundleEntry(path, name, stamp, hash12, (path / PIN_MARKER).exists())


def list_bundles(bundles_dir: Path) -> list[BundleEntry]:
    """Published bundles, oldest first (by UTC stamp in the folder name)."""
    if not bundles_dir.is_dir():
        return []
    # A folder symlink leading outside the directory is not a bundle of it (a planted link).
    entries = [e for p in bundles_dir.iterdir()
               if p.is_dir() and (e := _parse_folder(p)) and (not p.is_symlink() or inside(p, bundles_dir))]
    return sorted(entries, key=lambda e: (e.stamp, e.path.name))


MAX_POINTER_BYTES = 1024   # one folder name and a newline


def read_newest_name(bundles_dir: Path) -> str | None:
    """The folder name NEWEST holds; None when there is no NEWEST. A pointer that is not one
    short UTF-8 line naming a plain folder is refused (BundleNotFound says why)."""
    pointer = bundles_dir / NEWEST_POINTER
    try:
        with open_regular(pointer) as f:
            raw = f.read(MAX_POINTER_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise BundleNotFound(f"{pointer}: {NEWEST_POINTER} {e.strerror or e}; expected a file "
                             f"holding one bundle folder name") from None
    return parse_pointer(raw, str(pointer))


def parse_pointer(raw: bytes, where: str) -> str | None:
    """Check NEWEST's bytes (from disk or an origin): one plain folder name, or None if empty."""
    if len(raw) > MAX_POINTER_BYTES:
        raise BundleNotFound(f"{where}: {NEWEST_POINTER} is longer than {MAX_POINTER_BYTES} bytes; "
                             f"expected one bundle folder name")
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise BundleNotFound(f"{where}: {NEWEST_POINTER} is not UTF-8 text; expected one bundle "
                             f"folder name") from None
    if not text:
        return None
    if not is_plain_name(text):
        raise BundleNotFound(f"{where}: {NEWEST_POINTER} names {text[:80]!r}, which is not a plain "
                             f"folder name inside the bundles directory")
    return text


def inside(folder: Path, root: Path) -> bool:
    """Does ``folder`` (after resolving symlinks) stay inside ``root``?"""
    try:
        return folder.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False


def resolve_bundle_path(path: str | os.PathLike) -> Path:
    """A bundle folder itself, or a bundles directory resolved through its NEWEST pointer."""
    p = Path(path)
    if (p / MANIFEST_NAME).is_file():
        return p
    if not p.exists():
        raise BundleNotFound(f"{p}: no such bundle or bundles directory")
    if not p.is_dir():
        raise BundleNotFound(f"{p}: not a directory")
    newest = read_newest_name(p)
    if newest is not None:
        target = p / newest
        if not (target / MANIFEST_NAME).is_file():
            raise BundleNotFound(
                f"{p}/{NEWEST_POINTER} names bundle {newest!r}, which does not exist there "
                f"(removed by hand?); recompile, or point it at one of: "
                f"{', '.join(e.path.name for e in list_bundles(p)) or 'none present'}")
        if not inside(target, p):
            raise BundleNotFound(f"{p}/{NEWEST_POINTER} names bundle {newest!r}, a symlink leading "
                                 f"outside the bundles directory; refused")
        return target
    bundles = list_bundles(p)
    if not bundles:
        raise BundleNotFound(f"{p}: no bundle here (run `v8atlas compile ... --out {p}` first)")
    return bundles[-1].path


def find_bundle_by_hash(bundles_dir: Path, content_hash: str) -> Path | None:
    for e in reversed(list_bundles(bundles_dir)):
        if e.hash12 == content_hash[:12]:
            try:
                manifest = json.loads((e.path / MANIFEST_NAME).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if manifest.get("content_hash") == content_hash:
                return e.path
    return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def cleanup_leftovers(bundles_dir: Path) -> list[Path]:
    """Remove temporary folders of compiles that are no longer running."""
    removed = []
    if not bundles_dir.is_dir():
        return removed
    now = time.time()
    for p in bundles_dir.iterdir():
        if not p.name.startswith(TEMP_PREFIX):
            continue
        pid_part = p.name[len(TEMP_PREFIX):].rsplit("-", 2)
        try:
            pid = int(pid_part[-2]) if len(pid_part) == 3 else -1
        except ValueError:
            pid = -1
        try:
            age = now - p.stat().st_mtime
        except FileNotFoundError:
            continue
        if (pid > 0 and pid != os.getpid() and not _pid_alive(pid)) or age > _LEFTOVER_AGE_S:
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)
            removed.append(p)
    return removed


def prune(bundles_dir: Path, keep: int) -> list[Path]:
    """Keep the newest ``keep`` bundles; never delete the one NEWEST names or a pinned one."""
    if keep < 1:
        raise ValueError("keep must be at least 1")
    newest = read_newest_name(bundles_dir)
    bundles = list_bundles(bundles_dir)
    removed = []
    for e in bundles[:-keep] if len(bundles) > keep else []:
        if e.pinned or e.path.name == newest:
            continue
        shutil.rmtree(e.path, ignore_errors=True)
        (bundles_dir / VERIFIED_DIR / f"{e.path.name}.json").unlink(missing_ok=True)
        removed.append(e.path)
    return removed


def pin(bundle_path: Path, pinned: bool = True) -> None:
    marker = bundle_path / PIN_MARKER
    if pinned:
        marker.write_text("pinned: kept by retention\n", encoding="utf-8")
    else:
        marker.unlink(missing_ok=True)
