"""Bundles travelling through an origin: a static layout any web server or folder can hold.

Layout of an origin (the same as a bundles directory, so ``file://`` of one works)::

    NEWEST                     one line: the folder name of the bundle to serve
    <bundle>/manifest.json     the manifest lists every other file of the bundle
    <bundle>/<segment files>

``publish`` uploads a verified bundle (files first, the manifest next, NEWEST last, so a
reader never sees a pointer to a half-uploaded bundle): into a folder for ``file://``, by
HTTP PUT (WebDAV, an artifact repository, nginx ``dav_methods PUT``) for ``http(s)://``.
``pull`` fetches the pointer with a conditional request and, for a bundle the cache does not
hold, downloads it into a temporary folder of the cache, hashing every file against the
manifest as it arrives; only a bundle that verifies in full is renamed into the cache and
pointed at by the cache's NEWEST. Any failure leaves the cache as it was.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from .errors import BundleError
from .manifest import MAX_MANIFEST_BYTES, parse_manifest
from .publish import MAX_POINTER_BYTES, fsync_path, parse_pointer, read_newest_name, set_newest
from .reader import Bundle
from .safeio import open_regular
from .version import MANIFEST_NAME, NEWEST_POINTER, PIN_MARKER, REPORT_NAME, TEMP_PREFIX

TOKEN_ENV = "V8ATLAS_ORIGIN_TOKEN"     # Authorization: Bearer for a private origin (publish and pull)
_CHUNK = 1 << 20


class OriginError(BundleError):
    """The origin cannot be read or written, or what it serves does not check out."""


@dataclass
class Pointer:
    name: str | None          # the bundle folder NEWEST names (None: 304, unchanged)
    etag: str | None


def is_origin_url(text: str) -> bool:
    return text.startswith(("http://", "https://", "file://"))


def _file_root(url: str) -> Path:
    parsed = urllib.parse.urlparse(url)
    if parsed.netloc not in ("", "localhost"):
        raise OriginError(f"{url}: a file:// origin must be local (file:///path/)")
    return Path(urllib.parse.unquote(parsed.path))


def _join(url: str, *parts: str) -> str:
    return url.rstrip("/") + "/" + "/".join(urllib.parse.quote(p) for p in parts)


def _request(url: str, method: str = "GET", data: BinaryIO | bytes | None = None,
             headers: dict[str, str] | None = None, length: int | None = None) -> urllib.request.Request:
    req = urllib.request.Request(url, method=method, data=data, headers=dict(headers or {}))
    token = os.environ.get(TOKEN_ENV)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if length is not None:
        req.add_header("Content-Length", str(length))
    return req


def _describe(url: str, e: Exception) -> str:
    if isinstance(e, urllib.error.HTTPError):
        return f"{url}: HTTP {e.code} {e.reason}"
    if isinstance(e, urllib.error.URLError):
        return f"{url}: {e.reason}"
    return f"{url}: {type(e).__name__}: {e}"


# -- publishing ------------------------------------------------------------------------------
def publish(bundle_path: Path, url: str, *, timeout: float = 60.0) -> str:
    """Verify ``bundle_path`` and upload it to the origin at ``url``; returns its content hash."""
    bundle = Bundle.open(bundle_path)
    problems = bundle.verify()
    if problems:
        raise OriginError(f"{bundle.id} fails verification, not published: {'; '.join(problems[:5])}")
    present = {p.name for p in bundle.path.iterdir()}
    files = sorted((bundle.expected_files() - {MANIFEST_NAME, PIN_MARKER}) & present)
    files.append(MANIFEST_NAME)                         # last: its presence means the files are there
    if url.startswith("file://"):
        _publish_dir(bundle, files, _file_root(url))
    elif url.startswith(("http://", "https://")):
        for name in files:
            _put(_join(url, bundle.id, name), bundle.path / name, timeout)
        _put_bytes(_join(url, NEWEST_POINTER), (bundle.id + "\n").encode(), timeout)
    else:
        raise OriginError(f"{url}: an origin is file:///path/ or http(s)://host/path/")
    return bundle.content_hash


def _publish_dir(bundle: Bundle, files: list[str], root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    final = root / bundle.id
    if not (final / MANIFEST_NAME).is_file():
        tmp = root / f"{TEMP_PREFIX}{bundle.id}-{os.getpid()}-{secrets.token_hex(3)}"
        tmp.mkdir()
        try:
            for name in files:
                with open_regular(bundle.path / name) as src, open(tmp / name, "wb") as dst:
                    shutil.copyfileobj(src, dst, _CHUNK)
                    dst.flush()
                    os.fsync(dst.fileno())
            fsync_path(tmp)
            os.replace(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    set_newest(root, bundle.id)


def _put(url: str, path: Path, timeout: float) -> None:
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        _send(_request(url, "PUT", f, {"Content-Type": "application/octet-stream"}, size), url, timeout)


def _put_bytes(url: str, data: bytes, timeout: float) -> None:
    _send(_request(url, "PUT", data, {"Content-Type": "text/plain"}, len(data)), url, timeout)


def _send(req: urllib.request.Request, url: str, timeout: float) -> None:
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
    except (OSError, ValueError) as e:
        raise OriginError(f"upload failed: {_describe(url, e)}") from None


# -- pulling -----------------------------------------------------------------------------------
def _open_remote(url: str, timeout: float, headers: dict[str, str] | None = None):
    return urllib.request.urlopen(_request(url, headers=headers), timeout=timeout)


def fetch_pointer(url: str, etag: str | None, timeout: float) -> Pointer:
    """NEWEST of the origin; ``name`` None when unchanged since ``etag`` (HTTP 304)."""
    if url.startswith("file://"):
        path = _file_root(url) / NEWEST_POINTER
        try:
            st = path.stat()
        except OSError as e:
            raise OriginError(f"{url}: {NEWEST_POINTER} cannot be read ({e.strerror or e})") from None
        tag = f"{st.st_ino}-{st.st_size}-{st.st_mtime_ns}"
        if tag == etag:
            return Pointer(None, etag)
        try:
            name = read_newest_name(path.parent)
        except BundleError as e:
            raise OriginError(f"{url}: {e}") from None
        if name is None:
            raise OriginError(f"{url}: {NEWEST_POINTER} is empty")
        return Pointer(name, tag)
    where = _join(url, NEWEST_POINTER)
    headers = {"If-None-Match": etag} if etag else {}
    try:
        with _open_remote(where, timeout, headers) as r:
            raw = r.read(MAX_POINTER_BYTES + 1)
            new_tag = r.headers.get("ETag") or r.headers.get("Last-Modified")
    except urllib.error.HTTPError as e:
        if e.code == 304:
            return Pointer(None, etag)
        raise OriginError(_describe(where, e)) from None
    except (OSError, ValueError) as e:
        raise OriginError(_describe(where, e)) from None
    try:
        name = parse_pointer(raw, where)
    except BundleError as e:
        raise OriginError(str(e)) from None
    if name is None:
        raise OriginError(f"{where}: {NEWEST_POINTER} is empty")
    return Pointer(name, new_tag)


def _read_file(url: str, bundle: str, name: str, limit: int, timeout: float) -> Iterator[bytes]:
    """The bytes of one file of a bundle at the origin, at most ``limit`` + 1 of them.

    ``timeout`` bounds each socket wait; a server dripping bytes slower than 1 MiB per
    ``timeout`` seconds (plus a 10 × ``timeout`` allowance) is cut off too."""
    if url.startswith("file://"):
        root = _file_root(url)
        try:
            with open_regular(root / bundle / name) as f:
                left = limit + 1
                while left > 0 and (chunk := f.read(min(_CHUNK, left))):
                    left -= len(chunk)
                    yield chunk
        except OSError as e:
            raise OriginError(f"{url}: {bundle}/{name} cannot be read ({e.strerror or e})") from None
        return
    where = _join(url, bundle, name)
    allowed = timeout * (10 + limit / _CHUNK)
    deadline = time.monotonic() + allowed
    try:
        with _open_remote(where, timeout) as r:
            left = limit + 1
            while left > 0 and (chunk := r.read(min(_CHUNK, left))):
                left -= len(chunk)
                if time.monotonic() > deadline:
                    raise OriginError(f"{where}: took longer than {allowed:.0f} s")
                yield chunk
    except (OSError, ValueError) as e:     # HTTPError, URLError, timeouts, a cut connection
        raise OriginError(_describe(where, e)) from None


def pull(url: str, name: str, cache: Path, *, timeout: float = 30.0) -> Path:
    """Download bundle ``name`` from the origin into ``cache`` (verified) and point the cache's
    NEWEST at it. A bundle the cache already holds is not downloaded again."""
    final = cache / name
    cache.mkdir(parents=True, exist_ok=True)
    if not (final / MANIFEST_NAME).is_file():
        tmp = cache / f"{TEMP_PREFIX}{name}-{os.getpid()}-{secrets.token_hex(3)}"
        tmp.mkdir()
        try:
            raw = b"".join(_read_file(url, name, MANIFEST_NAME, MAX_MANIFEST_BYTES, timeout))
            manifest = parse_manifest(raw, f"{url} {name}/{MANIFEST_NAME}")
            for seg_name, seg in manifest["segments"].items():
                _download(url, name, seg["file"], seg["size"], seg["sha256"], tmp, timeout, seg_name)
            if manifest.get("report") == REPORT_NAME:
                _download_optional(url, name, REPORT_NAME, tmp, timeout)
            (tmp / MANIFEST_NAME).write_bytes(raw)
            problems = Bundle(tmp, manifest).verify()
            if problems:
                raise OriginError(f"{url} {name}: " + "; ".join(problems[:5]))
            fsync_path(tmp)
            os.replace(tmp, final)
            Bundle(final, manifest).mark_verified()
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    else:
        bundle = Bundle.open(final)
        problems = bundle.verify_fast()
        if problems:
            raise OriginError(f"the cached copy of {name} fails verification: {'; '.join(problems[:3])}")
    if read_newest_name(cache) != name:
        set_newest(cache, name)
    return final


def _download(url: str, bundle: str, file: str, size: int, sha256: str, into: Path, timeout: float,
              segment: str) -> None:
    h = hashlib.sha256()
    got = 0
    with open(into / file, "wb") as out:
        for chunk in _read_file(url, bundle, file, size, timeout):
            got += len(chunk)
            if got > size:
                raise OriginError(f"{url} {bundle}: segment {segment!r} is longer than the manifest's "
                                  f"{size} bytes")
            h.update(chunk)
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    if got != size:
        raise OriginError(f"{url} {bundle}: segment {segment!r} arrived truncated ({got} of {size} bytes)")
    if h.hexdigest() != sha256:
        raise OriginError(f"{url} {bundle}: segment {segment!r} does not match its sha256 in the manifest")


def _download_optional(url: str, bundle: str, file: str, into: Path, timeout: float) -> None:
    """The compile report: outside the content hash, so a missing one is no failure."""
    try:
        data = b"".join(_read_file(url, bundle, file, MAX_MANIFEST_BYTES, timeout))
    except OriginError:
        return
    if len(data) <= MAX_MANIFEST_BYTES:
        (into / file).write_bytes(data)


__all__ = ["OriginError", "Pointer", "fetch_pointer", "is_origin_url", "publish", "pull"]
