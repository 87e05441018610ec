"""The manifest schema: checked in full before a single segment is opened or mapped.

A manifest is data from disk, possibly crafted. Everything later code relies on is checked
here, once: segment files are plain names inside the bundle folder, dtypes come from an
allow-list, array shapes fit their sizes, record stores point at segments of the right kind
and length, nesting and size are bounded, and the content hash is recomputed from the
segment hashes. A failure is a ``BundleFormatError`` naming the key at fault, never a
``TypeError`` or ``RecursionError`` further down.
"""
from __future__ import annotations

import hashlib
import json
import re
from math import prod
from pathlib import Path
from typing import Any


from .chunked import KIND as CHUNKED, MAX_FRAME, MSGPACK
from .errors import BundleFormatError
from .safeio import open_regular
from .version import MANIFEST_NAME, PIN_MARKER, READABLE_MAJORS, REPORT_NAME

MAX_MANIFEST_BYTES = 64 << 20     # the SSL × 8 manifest is a few hundred KB (its info and sources)
MAX_DEPTH = 32                    # the writer nests 5–6 levels (info.help.configurations.<name>…)
MAX_SEGMENTS = 10_000
MAX_NAME = 200                    # a segment or file name; the writer's longest is ~40 characters

# Every dtype the writer stores (BundleWriter.add_array): little-endian numbers, bools, bytes.
_DTYPE = re.compile(r"^(?:<(?:u[1248]|i[1248]|f[48])|\|(?:u1|i1|b1|S[1-9][0-9]{0,3}))$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_PLAIN = re.compile(r"^[^/\\\x00-\x1f.][^/\\\x00-\x1f]*$")
KINDS = ("array", "blob", "json")
_RESERVED = {MANIFEST_NAME, PIN_MARKER, REPORT_NAME}


def content_hash(format_version: str, compiler_version: str, segments: dict[str, Any],
                 records: dict[str, Any], info: dict[str, Any]) -> str:
    """The bundle's identity: written by the compiler, recomputed by every reader."""
    h = hashlib.sha256()
    h.update(f"v8atlas-bundle {format_version} {compiler_version}\n".encode())
    for name in sorted(segments):
        h.update(f"{name} {segments[name]['sha256']}\n".encode())
    h.update(json.dumps(records, sort_keys=True).encode())
    h.update(json.dumps(info, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


def is_plain_name(name: object) -> bool:
    """A file name with no directory part, not hidden, not `.`/`..`: it stays in its folder."""
    return isinstance(name, str) and 0 < len(name) <= MAX_NAME and bool(_PLAIN.match(name))


def parse_manifest(raw: bytes, where: str) -> dict[str, Any]:
    """Decode and validate manifest bytes; ``where`` names the file in every message."""
    if len(raw) > MAX_MANIFEST_BYTES:
        raise BundleFormatError(f"{where}: manifest is {len(raw)} bytes (limit {MAX_MANIFEST_BYTES})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BundleFormatError(f"{where}: manifest is not UTF-8 ({e.reason} at byte {e.start})") from None
    _check_nesting(text, where)
    try:
        manifest = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BundleFormatError(f"{where}: manifest is not valid JSON ({e})") from None
    validate(manifest, where)
    return manifest


def _check_nesting(text: str, where: str) -> None:
    """Refuse deep nesting before json.loads recurses into it (one linear pass)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise BundleFormatError(f"{where}: manifest nests deeper than {MAX_DEPTH} levels")
        elif ch in "]}":
            depth -= 1


def _fail(where: str, key: str, problem: str) -> BundleFormatError:
    return BundleFormatError(f"{where}: {key} {problem}")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _want(where: str, key: str, value: object, kind: type | tuple[type, ...], what: str) -> None:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _fail(where, key, f"must be {what}, not {type(value).__name__}")


def check_version(version: object, where: str) -> None:
    version = str(version) if isinstance(version, (str, int, float)) else ""
    major = version.split(".", 1)[0]
    if not major.isdigit() or len(major) > 6:
        raise BundleFormatError(f"{where}: format_version {version[:40]!r} is not MAJOR.MINOR", version)
    if int(major) not in READABLE_MAJORS:
        raise BundleFormatError(
            f"{where}: bundle format {version} is not readable by this v8atlas "
            f"(reads {', '.join(f'{v}.x' for v in READABLE_MAJORS)}); recompile the sources with this version or upgrade v8atlas",
            version)


def validate(m: object, where: str) -> None:
    """Check a decoded manifest; raises BundleFormatError naming the first bad key."""
    if not isinstance(m, dict):
        raise BundleFormatError(f"{where}: manifest is not a JSON object")
    check_version(m.get("format_version"), where)
    for key in ("compiler_version", "content_hash"):
        _want(where, key, m.get(key), str, "a string")
    for key in ("name", "created_at", "report"):
        if m.get(key) is not None:
            _want(where, key, m[key], str, "a string")
    if m.get("report") is not None and not is_plain_name(m["report"]):
        raise _fail(where, "report", "must be a plain file name inside the bundle")
    for key in ("info", "counts"):
        if m.get(key) is not None:
            _want(where, key, m[key], dict, "an object")
    sources = m.get("sources", [])
    _want(where, "sources", sources, list, "a list")
    for i, src in enumerate(sources):
        _want(where, f"sources[{i}]", src, dict, "an object")
        for key in ("kind", "name"):
            _want(where, f"sources[{i}].{key}", src.get(key), str, "a string")
        if not _is_int(src.get("size")) or src["size"] < 0:
            raise _fail(where, f"sources[{i}].size", "must be a non-negative integer")
    segments = m.get("segments")
    _want(where, "segments", segments, dict, "an object")
    if len(segments) > MAX_SEGMENTS:
        raise _fail(where, "segments", f"has {len(segments)} entries (limit {MAX_SEGMENTS})")
    files: dict[str, str] = {}
    for name, seg in segments.items():
        _check_segment(where, name, seg)
        if seg["file"] in files:
            raise _fail(where, f"segments[{name!r}].file", f"is also the file of {files[seg['file']]!r}")
        files[seg["file"]] = name
    records = m.get("records", {})
    _want(where, "records", records, dict, "an object")
    major = int(str(m["format_version"]).split(".", 1)[0])
    for name, entry in records.items():
        _check_records(where, name, entry, segments)
        key = f"records[{str(name)[:MAX_NAME]!r}]"
        if entry.get("kind") == CHUNKED and major < 2:
            raise _fail(where, f"{key}.kind", "is chunked in a 1.x bundle")
        if entry.get("encoding") is not None and major < 3:     # (a 2.x reader reads it as bytes)
            raise _fail(where, f"{key}.encoding", f"is {MSGPACK!r} in a {major}.x bundle")
    if m.get("info") is not None:
        _check_info(where, m["info"])
    expected = content_hash(m["format_version"], m["compiler_version"], segments, records,
                            m.get("info") or {})
    if m["content_hash"] != expected:
        raise _fail(where, "content_hash", "does not match the segment hashes, records and info "
                                           "it is computed from (the manifest was edited)")


def _check_info(where: str, info: dict[str, Any]) -> None:
    """``info`` as formats/info.py reads it: each declared field of the type of its default."""
    from dataclasses import MISSING, fields

    from .info import BundleInfo, ConfigurationInfo, HelpInfo

    def check(obj: object, cls: Any, key: str) -> None:
        _want(where, key, obj, dict, "an object")
        assert isinstance(obj, dict)
        for f in fields(cls):
            if f.name not in obj or obj[f.name] is None:
                continue
            default = f.default if f.default is not MISSING else (
                f.default_factory() if f.default_factory is not MISSING else None)  # type: ignore[misc]
            if isinstance(default, (str, bool, int, list, dict)):
                kind = type(default)
                what = {str: "a string", bool: "true or false", int: "an integer", list: "a list",
                        dict: "an object"}[kind]
                if kind is bool:
                    if not isinstance(obj[f.name], bool):
                        raise _fail(where, f"{key}.{f.name}", "must be true or false")
                else:
                    _want(where, f"{key}.{f.name}", obj[f.name], kind, what)

    check(info, BundleInfo, "info")
    for i, c in enumerate(info.get("configurations") or []):
        check(c, ConfigurationInfo, f"info.configurations[{i}]")
        if not isinstance(c.get("name"), str) or not c["name"]:
            raise _fail(where, f"info.configurations[{i}].name", "must be a non-empty string")
    if isinstance(info.get("help"), dict):
        check(info["help"], HelpInfo, "info.help")
    if not all(isinstance(n, str) for n in info.get("config_order") or []):
        raise _fail(where, "info.config_order", "must be a list of strings")


def _check_segment(where: str, name: str, seg: object) -> None:
    key = f"segments[{name[:MAX_NAME]!r}]"
    if len(name) > MAX_NAME:
        raise _fail(where, key, f"name is longer than {MAX_NAME} characters")
    _want(where, key, seg, dict, "an object")
    assert isinstance(seg, dict)
    if not is_plain_name(seg.get("file")) or seg["file"] in _RESERVED:
        raise _fail(where, f"{key}.file", f"{str(seg.get('file'))[:80]!r} is not a plain file name "
                                          f"inside the bundle folder")
    size = seg.get("size")
    if not _is_int(size) or size < 0:
        raise _fail(where, f"{key}.size", "must be a non-negative integer")
    if not isinstance(seg.get("sha256"), str) or not _HEX64.match(seg["sha256"]):
        raise _fail(where, f"{key}.sha256", "must be 64 lowercase hex digits")
    kind = seg.get("kind")
    if kind not in KINDS:
        raise _fail(where, f"{key}.kind", f"must be one of {', '.join(KINDS)}")
    if kind == "array":
        dtype = seg.get("dtype")
        if not isinstance(dtype, str) or not _DTYPE.match(dtype):
            raise _fail(where, f"{key}.dtype", f"{str(dtype)[:40]!r} is not an allowed dtype")
        shape = seg.get("shape")
        if (not isinstance(shape, list) or len(shape) > 4
                or not all(_is_int(d) and 0 <= d < 1 << 62 for d in shape)):
            raise _fail(where, f"{key}.shape", "must be a list of at most 4 non-negative integers")
        # every allowed dtype ends in its item size in bytes (<u4, |b1, |S24): no numpy needed
        # here (a compile checks manifests before it imports numpy)
        if prod(shape) * int(dtype[2:]) != size:
            raise _fail(where, f"{key}.shape", f"{shape} of {dtype} does not fit {size} bytes")


def _check_records(where: str, name: str, entry: object, segments: dict[str, Any]) -> None:
    key = f"records[{str(name)[:MAX_NAME]!r}]"
    _want(where, key, entry, dict, "an object")
    assert isinstance(entry, dict)
    count = entry.get("count")
    if not _is_int(count) or count < 0:
        raise _fail(where, f"{key}.count", "must be a non-negative integer")
    if entry.get("kind") is not None:
        if entry["kind"] != CHUNKED:
            raise _fail(where, f"{key}.kind", f"must be {CHUNKED!r} or absent")
        return _check_chunked(where, key, entry, segments)
    if "encoding" in entry:     # a per-record store is msgpack by definition: nothing to choose
        raise _fail(where, f"{key}.encoding", "is for chunked stores only")
    for part, kind in (("data", "blob"), ("offsets", "array"), ("dict", "blob")):
        ref = entry.get(part)
        if part == "dict" and ref is None:
            continue
        if not isinstance(ref, str) or ref not in segments:
            raise _fail(where, f"{key}.{part}", "must name a segment of this manifest")
        if segments[ref]["kind"] != kind:
            raise _fail(where, f"{key}.{part}", f"names segment {ref!r}, which is not a {kind}")
    off = segments[entry["offsets"]]
    if off["dtype"] != "<u8" or off["shape"] != [count + 1]:
        raise _fail(where, f"{key}.offsets", f"must be {count + 1} uint64 offsets for {count} records")


def _check_chunked(where: str, key: str, entry: dict[str, Any], segments: dict[str, Any]) -> None:
    """A chunked record store's entry (formats/chunked.py)."""
    count = entry["count"]
    for part, kind in (("data", "blob"), ("frames", "array"), ("index", "array")):
        ref = entry.get(part)
        if not isinstance(ref, str) or ref not in segments:
            raise _fail(where, f"{key}.{part}", "must name a segment of this manifest")
        if segments[ref]["kind"] != kind:
            raise _fail(where, f"{key}.{part}", f"names segment {ref!r}, which is not a {kind}")
    frames = segments[entry["frames"]]
    if frames["dtype"] != "<u8" or len(frames["shape"]) != 1 or frames["shape"][0] < 1:
        raise _fail(where, f"{key}.frames", "must be uint64 offsets, one more than the frames")
    index = segments[entry["index"]]
    if index["dtype"] != "<u4" or index["shape"] != [count, 3]:
        raise _fail(where, f"{key}.index", f"must be {count} × 3 uint32 (frame, start, end)")
    frame_max = entry.get("frame_max")
    if not _is_int(frame_max) or not 0 <= frame_max <= MAX_FRAME:
        raise _fail(where, f"{key}.frame_max", f"must be an integer 0..{MAX_FRAME}")
    if entry.get("encoding", MSGPACK) != MSGPACK:
        raise _fail(where, f"{key}.encoding", f"must be {MSGPACK!r} or absent")


def read_manifest_file(bundle_path: Path) -> dict[str, Any]:
    """Read ``bundle_path/manifest.json`` (bounded, a regular file) and validate it."""
    path = bundle_path / MANIFEST_NAME
    try:
        with open_regular(path) as f:
            raw = f.read(MAX_MANIFEST_BYTES + 1)
    except FileNotFoundError:
        raise BundleFormatError(f"{bundle_path.name}: no {MANIFEST_NAME}; not a bundle") from None
    except OSError as e:
        raise BundleFormatError(f"{bundle_path.name}/{MANIFEST_NAME}: unreadable manifest "
                                f"({e.strerror or e})") from None
    return parse_manifest(raw, f"{bundle_path.name}/{MANIFEST_NAME}")
