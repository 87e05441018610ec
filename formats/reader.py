"""Bundle: a published bundle opened read-only by mmap; nothing is read whole at open.

Opening reads manifest.json and checks the format major version. Segments are mapped on
first use and handed out as zero-copy numpy views; a record is one slice of the mapping,
one zstd frame and one msgpack decode, so any record is O(1) to reach.
"""
from __future__ import annotations

import json
import mmap
import os
import threading
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator

import msgpack
import numpy as np
import zstandard

from .errors import BundleCorrupt, BundleFormatError
from .hashing import sha256_file
from .publish import resolve_bundle_path
from .version import FORMAT_MAJOR, MANIFEST_NAME, PIN_MARKER, REPORT_NAME


def unpack_record(data: bytes | memoryview) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def read_manifest(bundle_path: Path) -> dict[str, Any]:
    path = bundle_path / MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BundleFormatError(f"{bundle_path}: no {MANIFEST_NAME}; not a bundle") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise BundleFormatError(f"{path}: unreadable manifest ({e})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("segments"), dict):
        raise BundleFormatError(f"{path}: manifest has no segment table")
    version = str(manifest.get("format_version", ""))
    major = version.split(".", 1)[0]
    if not major.isdigit():
        raise BundleFormatError(f"{path}: format_version {version!r} is not MAJOR.MINOR", version)
    if int(major) != FORMAT_MAJOR:
        raise BundleFormatError(
            f"{bundle_path.name}: bundle format {version} is not readable by this v8atlas "
            f"(reads {FORMAT_MAJOR}.x); recompile the sources with this version or upgrade v8atlas",
            version)
    return manifest


class RecordStore:
    """Random access to msgpack+zstd records by index."""

    def __init__(self, name: str, data: memoryview, offsets: np.ndarray, zdict: bytes | None) -> None:
        self.name = name
        self._data = data
        self._offsets = offsets
        self._zdict = zstandard.ZstdCompressionDict(zdict) if zdict else None
        self._local = threading.local()  # a ZstdDecompressor is not thread-safe

    def _dctx(self) -> zstandard.ZstdDecompressor:
        d = getattr(self._local, "dctx", None)
        if d is None:
            d = (zstandard.ZstdDecompressor(dict_data=self._zdict) if self._zdict is not None
                 else zstandard.ZstdDecompressor())
            self._local.dctx = d
        return d

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def raw(self, i: int) -> bytes:
        if not 0 <= i < len(self):
            raise IndexError(f"record {i} out of range 0..{len(self) - 1} in {self.name}")
        start, end = int(self._offsets[i]), int(self._offsets[i + 1])
        if end < start or end > len(self._data):
            raise BundleCorrupt(f"record store {self.name}: record {i} lies outside its data", self.name)
        try:
            return self._dctx().decompress(self._data[start:end])
        except zstandard.ZstdError as e:
            raise BundleCorrupt(f"record store {self.name}: record {i} does not decompress ({e})",
                                self.name) from None

    def __getitem__(self, i: int) -> Any:
        return unpack_record(self.raw(i))

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]


class Bundle:
    """A read-only view of one published bundle."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        self.path = path
        self.manifest = manifest
        self._maps: dict[str, mmap.mmap | bytes] = {}
        self._lock = threading.Lock()
        self._json: dict[str, Any] = {}
        self._stores: dict[str, RecordStore] = {}

    @classmethod
    def open(cls, path: str | os.PathLike) -> "Bundle":
        """Open a bundle folder, or the newest bundle of a bundles directory."""
        bundle_path = resolve_bundle_path(path)
        return cls(bundle_path, read_manifest(bundle_path))

    # -- identity -------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.path.name

    @property
    def content_hash(self) -> str:
        return str(self.manifest.get("content_hash", ""))

    @property
    def info(self) -> dict[str, Any]:
        return self.manifest.get("info") or {}

    @property
    def counts(self) -> dict[str, Any]:
        return self.manifest.get("counts") or {}

    def has(self, segment: str) -> bool:
        return segment in self.manifest["segments"]

    def has_records(self, name: str) -> bool:
        return name in (self.manifest.get("records") or {})

    # -- segments -------------------------------------------------------------------------
    def _meta(self, segment: str) -> dict[str, Any]:
        try:
            return self.manifest["segments"][segment]
        except KeyError:
            raise BundleCorrupt(f"{self.id}: segment {segment!r} is not in this bundle "
                                f"(compiled by an older compiler? recompile)", segment) from None

    def _buffer(self, segment: str) -> mmap.mmap | bytes:
        buf = self._maps.get(segment)
        if buf is not None:
            return buf
        meta = self._meta(segment)
        path = self.path / str(meta["file"])
        with self._lock:
            if segment in self._maps:
                return self._maps[segment]
            try:
                size = path.stat().st_size
            except FileNotFoundError:
                raise BundleCorrupt(f"{self.id}: segment {segment!r} is missing ({path.name})",
                                    segment) from None
            if size != meta["size"]:
                raise BundleCorrupt(f"{self.id}: segment {segment!r} is {size} bytes, the manifest "
                                    f"says {meta['size']}", segment)
            if size == 0:
                buf = b""
            else:
                with open(path, "rb") as f:
                    buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            self._maps[segment] = buf
            return buf

    def array(self, segment: str) -> np.ndarray:
        meta = self._meta(segment)
        if meta.get("kind") != "array":
            raise BundleCorrupt(f"{self.id}: segment {segment!r} is not an array", segment)
        dtype = np.dtype(meta["dtype"])
        shape = tuple(meta["shape"])
        count = int(np.prod(shape)) if shape else 1
        if count * dtype.itemsize != meta["size"]:
            raise BundleCorrupt(f"{self.id}: segment {segment!r}: shape {shape} of {dtype} does not "
                                f"fit {meta['size']} bytes", segment)
        buf = self._buffer(segment)
        return np.frombuffer(buf, dtype=dtype, count=count).reshape(shape)

    def blob(self, segment: str) -> memoryview:
        return memoryview(self._buffer(segment))

    def json(self, segment: str) -> Any:
        if segment not in self._json:
            try:
                self._json[segment] = json.loads(bytes(self.blob(segment)).decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as e:
                raise BundleCorrupt(f"{self.id}: segment {segment!r} is not valid JSON ({e})",
                                    segment) from None
        return self._json[segment]

    def records(self, name: str) -> RecordStore:
        store = self._stores.get(name)
        if store is None:
            try:
                entry = self.manifest["records"][name]
            except KeyError:
                raise BundleCorrupt(f"{self.id}: record store {name!r} is not in this bundle",
                                    name) from None
            offsets = self.array(entry["offsets"])
            if len(offsets) != entry["count"] + 1:
                raise BundleCorrupt(f"{self.id}: record store {name!r} has {len(offsets) - 1} offsets "
                                    f"for {entry['count']} records", name)
            zdict = bytes(self.blob(entry["dict"])) if entry.get("dict") else None
            store = RecordStore(name, self.blob(entry["data"]), offsets, zdict)
            self._stores[name] = store
        return store

    def report(self) -> dict[str, Any]:
        """The compile report (warnings, unknowns, timings); outside the content hash."""
        name = self.manifest.get("report")
        if not name:
            return {}
        try:
            return json.loads((self.path / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    # -- integrity ------------------------------------------------------------------------
    def verify(self) -> list[str]:
        """Recompute every segment's sha256; return problems (empty when intact)."""
        problems = []
        for name, meta in self.manifest["segments"].items():
            path = self.path / str(meta.get("file", ""))
            try:
                size = path.stat().st_size
            except FileNotFoundError:
                problems.append(f"segment {name!r} is missing ({path.name})")
                continue
            if size != meta.get("size"):
                problems.append(f"segment {name!r} is {size} bytes, the manifest says {meta.get('size')}")
                continue
            if sha256_file(path) != meta.get("sha256"):
                problems.append(f"segment {name!r} is corrupted (sha256 differs from the manifest)")
        expected = {str(m.get("file")) for m in self.manifest["segments"].values()}
        expected |= {MANIFEST_NAME, PIN_MARKER, str(self.manifest.get("report") or REPORT_NAME)}
        for extra in sorted(p.name for p in self.path.iterdir() if p.name not in expected):
            problems.append(f"file {extra!r} is not part of this bundle (added after publishing?)")
        return problems

    def close(self) -> None:
        """Drop the mappings; views still held elsewhere keep their pages alive until freed."""
        maps, self._maps = self._maps, {}
        self._stores.clear()
        for m in maps.values():
            if isinstance(m, mmap.mmap):
                try:
                    m.close()
                except BufferError:
                    pass  # a live numpy view still uses it; the GC closes it with the last view

    def __enter__(self) -> "Bundle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @cached_property
    def size_bytes(self) -> int:
        return sum(int(m.get("size", 0)) for m in self.manifest["segments"].values())


def open_bundle(path: str | os.PathLike) -> Bundle:
    return Bundle.open(path)
