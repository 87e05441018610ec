"""A generated corpus of damaged and crafted bundles (issue 17, items 6–9), each with the
clean outcome a user must see. Built in code from a small real bundle; nothing is stored.

``MANIFEST_CASES``: edits of manifest.json; ``rehash`` also recomputes ``content_hash`` the
way an attacker who knows the format would, so the schema, not the hash, must catch it.
``POINTER_CASES``: damage to the NEWEST pointer or a bundle folder of a bundles directory.
``FILE_CASES``: damage to the segment files under a manifest that is itself intact.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from v8atlas.formats.hashing import sha256_file
from v8atlas.formats.manifest import content_hash


def rehash(m: dict[str, Any]) -> None:
    try:
        m["content_hash"] = content_hash(m["format_version"], m["compiler_version"], m["segments"],
                                         m.get("records") or {}, m.get("info") or {})
    except (KeyError, TypeError, AttributeError):
        pass      # the edit broke what the hash is computed from: the schema must say so


def _first_segment(m: dict[str, Any]) -> dict[str, Any]:
    return next(iter(m["segments"].values()))


def _array_segment(m: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in m["segments"].values() if s.get("kind") == "array")


def _records_entry(m: dict[str, Any]) -> dict[str, Any]:
    return next(iter(m["records"].values()))


def _point_at(m: dict[str, Any], target: str) -> None:
    """Point the first segment at ``target`` with its real size and sha256 (passes a naive verify)."""
    seg = _first_segment(m)
    real = Path(target) if os.path.isabs(target) else None
    seg["file"] = target
    if real is not None and real.is_file():
        seg["size"] = real.stat().st_size
        seg["sha256"] = sha256_file(real)


@dataclass(frozen=True)
class ManifestCase:
    id: str
    edit: Callable[[dict[str, Any]], Any]    # mutates the manifest, or returns a replacement
    expect: str                              # a regex the error message must match
    rehash: bool = True


MANIFEST_CASES = [
    ManifestCase("file-absolute", lambda m: _point_at(m, "/etc/passwd"), "not a plain file name"),
    ManifestCase("file-dotdot", lambda m: _point_at(m, "../../../../etc/passwd"), "not a plain file name"),
    ManifestCase("file-subdir", lambda m: _point_at(m, "sub/x.bin"), "not a plain file name"),
    ManifestCase("file-hidden", lambda m: _point_at(m, ".."), "not a plain file name"),
    ManifestCase("file-manifest", lambda m: _point_at(m, "manifest.json"), "not a plain file name"),
    ManifestCase("file-not-string", lambda m: _first_segment(m).update(file=["a"]), "not a plain file name"),
    ManifestCase("file-duplicate", lambda m: list(m["segments"].values())[1].update(
        file=_first_segment(m)["file"]), "is also the file of"),
    ManifestCase("records-count", lambda m: _records_entry(m).update(count=_records_entry(m)["count"] + 5),
                 "uint64 offsets for"),
    ManifestCase("records-count-string", lambda m: _records_entry(m).update(count="7"),
                 "count must be a non-negative integer"),
    ManifestCase("records-missing-segment", lambda m: _records_entry(m).update(data="nope"),
                 "must name a segment"),
    ManifestCase("records-data-is-array", lambda m: _records_entry(m).update(offsets=_records_entry(m)["data"]),
                 "which is not a array"),
    ManifestCase("dtype-object", lambda m: _array_segment(m).update(dtype="|O"), "not an allowed dtype"),
    ManifestCase("dtype-unicode", lambda m: _array_segment(m).update(dtype="<U4"), "not an allowed dtype"),
    ManifestCase("dtype-bigendian", lambda m: _array_segment(m).update(dtype=">u4"), "not an allowed dtype"),
    ManifestCase("dtype-structured", lambda m: _array_segment(m).update(dtype=[["a", "<u4"]]),
                 "not an allowed dtype"),
    ManifestCase("shape-lies", lambda m: _array_segment(m).update(shape=[10_000_000]), "does not fit"),
    ManifestCase("shape-negative", lambda m: _array_segment(m).update(shape=[-1]), "non-negative integers"),
    ManifestCase("shape-string", lambda m: _array_segment(m).update(shape="12"), "non-negative integers"),
    ManifestCase("size-string", lambda m: _first_segment(m).update(size="12"), "size must be"),
    ManifestCase("size-bool", lambda m: _first_segment(m).update(size=True), "size must be"),
    ManifestCase("sha-not-hex", lambda m: _first_segment(m).update(sha256="z" * 64), "64 lowercase hex"),
    ManifestCase("kind-unknown", lambda m: _first_segment(m).update(kind="exe"), "kind must be one of"),
    ManifestCase("segment-is-string", lambda m: m["segments"].update(x="oops"), "must be an object"),
    ManifestCase("segments-list", lambda m: m.update(segments=[1, 2]), "segments must be an object"),
    ManifestCase("segments-missing", lambda m: m.pop("segments") and None, "segments must be an object"),
    ManifestCase("records-list", lambda m: m.update(records=[]), "records must be an object"),
    ManifestCase("info-list", lambda m: m.update(info=[1]), "info must be an object"),
    ManifestCase("info-config-string", lambda m: m["info"].update(configurations=["x"]),
                 r"info\.configurations\[0\] must be an object"),
    ManifestCase("info-config-name-int", lambda m: m["info"].update(configurations=[{"name": 5}]),
                 r"info\.configurations\[0\]\.name"),
    ManifestCase("info-help-list", lambda m: m["info"].update(help={"platform_versions": "8.3"}),
                 r"info\.help\.platform_versions must be a list"),
    ManifestCase("sources-entry-int", lambda m: m.update(sources=[5]), r"sources\[0\] must be an object"),
    ManifestCase("sources-size-string", lambda m: m.update(sources=[{"kind": "a", "name": "b", "size": "1"}]),
                 r"sources\[0\]\.size"),
    ManifestCase("version-unknown-major", lambda m: m.update(format_version="9.0"), "not readable"),
    ManifestCase("version-list", lambda m: m.update(format_version=[1]), "is not MAJOR.MINOR"),
    ManifestCase("version-huge", lambda m: m.update(format_version="9" * 5000), "is not MAJOR.MINOR"),
    ManifestCase("hash-edited", lambda m: m.update(content_hash="0" * 64), "content_hash does not match",
                 rehash=False),
    ManifestCase("hash-int", lambda m: m.update(content_hash=5), "content_hash must be a string", rehash=False),
    ManifestCase("array-size-edited", lambda m: _array_segment(m).update(size=_array_segment(m)["size"] + 1),
                 "does not fit"),
    ManifestCase("top-level-list", lambda m: [m], "not a JSON object"),
    ManifestCase("deep-100000", lambda m: "[" * 100_000 + "]" * 100_000, "nests deeper"),
    ManifestCase("deep-in-info", lambda m: m.update(info={"x": json.loads("[" * 40 + "]" * 40)}),
                 "nests deeper"),
    ManifestCase("not-utf8", lambda m: b"\xff\xfe{}", "not UTF-8"),
    ManifestCase("not-json", lambda m: "{bad", "not valid JSON"),
]


def write_manifest(bundle: Path, case: ManifestCase) -> None:
    path = bundle / "manifest.json"
    m = json.loads(path.read_text(encoding="utf-8"))
    out = case.edit(m)
    if out is None:
        out = m
        if case.rehash:
            rehash(m)
    if isinstance(out, bytes):
        path.write_bytes(out)
    elif isinstance(out, str):
        path.write_text(out, encoding="utf-8")
    else:
        path.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")


def _segment_path(bundle: Path, prefix: str = "docs.cards.dat") -> Path:
    m = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    return bundle / m["segments"][prefix]["file"]


def truncate_segment(bundle: Path, prefix: str = "docs.cards.dat") -> Path:
    seg = _segment_path(bundle, prefix)
    with open(seg, "r+b") as f:
        f.truncate(seg.stat().st_size // 3)
    return seg


def flip_bytes(bundle: Path, prefix: str = "docs.cards.dat") -> Path:
    seg = _segment_path(bundle, prefix)
    with open(seg, "r+b") as f:
        f.seek(seg.stat().st_size // 2)
        b = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([b[0] ^ 0xFF]))
    return seg


def _symlink_segment(bundle: Path, target: str) -> None:
    seg = _segment_path(bundle)
    seg.unlink()
    seg.symlink_to(target)


def _fifo_segment(bundle: Path) -> None:
    seg = _segment_path(bundle)
    seg.unlink()
    os.mkfifo(seg)


def _delete_segment(bundle: Path) -> None:
    _segment_path(bundle).unlink()


# Damage to files under an intact manifest: (id, damage, message `verify` must print).
FILE_CASES: list[tuple[str, Callable[[Path], Any], str]] = [
    ("segment-truncated", truncate_segment, "bytes, the manifest says"),
    ("segment-flipped", flip_bytes, "corrupted"),
    ("segment-missing", _delete_segment, "is missing"),
    ("segment-symlink-passwd", lambda b: _symlink_segment(b, "/etc/passwd"), "symlink"),
    ("segment-symlink-inside", lambda b: _symlink_segment(b, "manifest.json"), "symlink"),
    ("segment-fifo", _fifo_segment, "not a regular file"),
]


def _newest_bytes(data: bytes) -> Callable[[Path, Path], None]:
    def damage(bundles: Path, _: Path) -> None:
        (bundles / "NEWEST").write_bytes(data)
    return damage


def _newest_folder(bundles: Path, _: Path) -> None:
    (bundles / "NEWEST").unlink()
    (bundles / "NEWEST").mkdir()


def _outside_symlink(bundles: Path, newest: Path) -> None:
    """The bundle NEWEST names is moved out and replaced by a symlink leading to it."""
    outside = bundles.parent / "elsewhere"
    outside.mkdir(exist_ok=True)
    target = outside / newest.name
    newest.rename(target)
    newest.symlink_to(target, target_is_directory=True)


# Damage to a bundles directory whose NEWEST bundle is good: (id, damage, message).
POINTER_CASES: list[tuple[str, Callable[[Path, Path], None], str]] = [
    ("newest-not-utf8", _newest_bytes(b"\xff\xfe\xfa\n"), "not UTF-8"),
    ("newest-5mb", _newest_bytes(b"a" * (5 << 20)), "longer than"),
    ("newest-folder", _newest_folder, "folder"),
    ("newest-dotdot", _newest_bytes(b"../elsewhere\n"), "not a plain folder name"),
    ("newest-absolute", _newest_bytes(b"/etc\n"), "not a plain folder name"),
    ("newest-missing-folder", _newest_bytes(b"gone-20000101T000000Z-000000000000\n"), "does not exist"),
    ("bundle-symlink-outside", _outside_symlink, "outside the bundles directory"),
]
