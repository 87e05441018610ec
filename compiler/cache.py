"""The compiler's cache files (parsed sources, linked models, file hashes): authenticated pickles.

A cache file lives in ``BUNDLES/.cache/``, a folder that may be shared or writable by others;
unpickling a planted file would run its code. Parsed sources are trees of many dataclasses
(configuration models, help records), so a plain-data format would need a serializer per type;
instead each file carries an HMAC-SHA256 of its payload under a key that lives *outside* the
bundles folder, in the user's own cache folder (``$V8ATLAS_CACHE_KEY``, else
``$XDG_CACHE_HOME/v8atlas/cache.key``, else ``~/.cache/v8atlas/cache.key``; created with
mode 0600). Nothing is unpickled before its tag checks out; a file that does not check out
is a miss and is rebuilt, never trusted. A key file that others can read or write (or that
belongs to another user) is not used: caching is then off for the run, with one line on stderr.
"""
from __future__ import annotations

import copyreg
import hashlib
import hmac
import io
import marshal
import os
import pickle
import secrets
import stat
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

MAGIC = b"V8ATLAS-CACHE-1\n"
_TAG_LEN = hashlib.sha256().digest_size
_HEAD = len(MAGIC) + _TAG_LEN      # the payload's offset
_KEY_LEN = 32

_keys: dict[str, bytes] = {}      # key file → key, read once per process
_forms: dict[type, Callable[[Any], Any]] = {}   # type → its reducer in cache files (``cache_form``)
_key_problem_said = False


def key_path() -> Path:
    explicit = os.environ.get("V8ATLAS_CACHE_KEY")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "v8atlas" / "cache.key"


class CacheKeyError(Exception):
    """The key file exists but must not be trusted (or cannot be made)."""


def _read_key(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CacheKeyError(f"{path}: not a regular file")
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            raise CacheKeyError(f"{path}: belongs to another user")
        if st.st_mode & 0o077:
            raise CacheKeyError(f"{path}: readable or writable by others (mode "
                                f"{stat.S_IMODE(st.st_mode):o}; it must be 600)")
        key = os.read(fd, 4 * _KEY_LEN)
    finally:
        os.close(fd)
    if len(key) < _KEY_LEN:
        raise CacheKeyError(f"{path}: shorter than {_KEY_LEN} bytes")
    return key


def _make_key(path: Path) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = secrets.token_bytes(_KEY_LEN)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:       # another compile made it first: use theirs
        return _read_key(path)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


def cache_key() -> bytes | None:
    """This user's cache key (made on first use), or None when caching must be off."""
    global _key_problem_said
    path = key_path()
    if str(path) in _keys:
        return _keys[str(path)]
    try:
        key = _read_key(path) if path.exists() else _make_key(path)
    except (OSError, CacheKeyError) as e:
        if not _key_problem_said:
            print(f"v8atlas: the cache key is not used, caching is off for this run: {e}",
                  file=sys.stderr)
            _key_problem_said = True
        return None
    _keys[str(path)] = key
    return key


def _tag(key: bytes, payload: bytes) -> bytes:
    return hmac.new(key, payload, hashlib.sha256).digest()


def cache_form(cls: type, reducer: Callable[[Any], Any]) -> None:
    """Write instances of ``cls`` into cache files as ``reducer(obj)`` says (a ``__reduce__``
    tuple): a form cheaper to write than the plain pickle, e.g. bytes already pickled by a
    pool worker. Only cache files use it; every other pickle of ``cls`` stays plain."""
    _forms[cls] = reducer


def dumps(obj: Any) -> bytes:
    """The cache files' pickle of ``obj`` (with the registered cache forms)."""
    out = io.BytesIO()
    _pickler(out).dump(obj)
    return out.getvalue()


def instance(cls: type, state: dict[str, Any]) -> Any:
    """An instance of ``cls`` from its state, the attribute names interned as unpickling an
    instance's state does (a cache form's restore)."""
    obj = cls.__new__(cls)
    obj.__dict__.update((sys.intern(k), v) for k, v in state.items())
    return obj


def marshalled(obj: Any) -> Any:
    """``obj`` (plain data: str, bytes, int, float, bool, None, tuple, list, dict, set) as
    marshal's bytes, which a pickle then writes as one object (no memo entry per value, and
    faster to write and read back than the objects pickled one by one); ``obj`` itself when it
    holds anything marshal refuses (a class of its own). ``unmarshalled`` reverses it."""
    try:
        return marshal.dumps(obj)
    except ValueError:
        return obj


def unmarshalled(stored: Any) -> Any:
    return marshal.loads(stored) if isinstance(stored, bytes) else stored


def _pickler(out: Any) -> pickle.Pickler:
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    if _forms:
        pickler.dispatch_table = {**copyreg.dispatch_table, **_forms}   # looked up by type, in C
    return pickler


def save(path: Path, obj: Any) -> bool:
    """Write ``obj`` atomically (temp file, then rename); False when caching is off."""
    return save_parts(path, (obj,))


def save_parts(path: Path, parts: Iterable[Any]) -> bool:
    """Write ``parts`` atomically as one cache file, each a pickle with a memo of its own, taken
    from the iterable one at a time and let go once written (``load_parts`` reads them back):
    a large whole given as parts made on demand (the linked model's code index, in columns of
    row chunks) never has more than one part and its memo in memory. A pickler's memo holds
    every object it has written — at SSL × 12 the linked model's saver grew by 0.7 GB over
    the parent's data with it. False when caching is off."""
    key = cache_key()
    if key is None:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(MAGIC)
            f.write(bytes(_TAG_LEN))    # the tag's place, written once the payload is
            out = _Tagging(f, hmac.new(key, digestmod=hashlib.sha256))
            pickler = _pickler(out)
            for part in parts:          # streamed: a parse of ERP scale is never a second copy
                pickler.dump(part)
                pickler.clear_memo()
                del part                # (not held while the next part is made)
            f.seek(len(MAGIC))
            f.write(out.mac.digest())
        os.replace(tmp, path)
    except BaseException:               # (an unpicklable value, a full disk): leave nothing
        tmp.unlink(missing_ok=True)
        raise
    return True


class _Tagging:
    """A file the payload is written to, through its HMAC."""

    def __init__(self, f: Any, mac: Any) -> None:
        self.f, self.mac = f, mac

    def write(self, data: Any) -> int:
        self.mac.update(data)
        return self.f.write(data)


def load(path: Path) -> tuple[bool, Any]:
    """(True, object) for a file this user's compiler wrote; (False, None) for anything else:
    absent, not a regular file, damaged, planted, or written under another key (each of the
    last three said on stderr: a file that was there and is not used)."""
    data = _authentic(path)
    if data is None:
        return False, None
    try:
        return True, pickle.loads(memoryview(data)[_HEAD:])   # (not a second copy of a large file)
    except Exception as e:  # authentic but unreadable (a class renamed since): a miss
        return _refused(path, f"unreadable ({type(e).__name__}: {e})")


def load_parts(path: Path) -> tuple[bool, Iterator[Any]]:
    """(True, the parts ``save_parts`` wrote, unpickled one by one as the iterator is advanced)
    for a file this user's compiler wrote, else (False, an empty iterator) as ``load`` says.
    A part that cannot be unpickled (a class renamed since) raises ``CacheUnreadable``."""
    data = _authentic(path)
    if data is None:
        return False, iter(())
    return True, _unpickled_parts(path, data)


class CacheUnreadable(Exception):
    """An authentic cache file whose content this compiler cannot read back."""


def _unpickled_parts(path: Path, data: bytes) -> Iterator[Any]:
    f = io.BytesIO(data)    # shares the bytes' buffer (never written to)
    f.seek(_HEAD)
    while f.tell() < len(data):
        try:
            part = pickle.load(f)   # a fresh unpickler per part: no memo kept from the last
        except Exception as e:
            _refused(path, f"unreadable ({type(e).__name__}: {e})")
            raise CacheUnreadable(str(path)) from e
        yield part
        del part


def _authentic(path: Path) -> bytes | None:
    """The file's bytes when its tag checks out under this user's key, else None (said on
    stderr when the file was there and is not used)."""
    key = cache_key()
    if key is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read()
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) < _HEAD or not data.startswith(MAGIC):
        _refused(path, "not a v8atlas cache file (truncated, or written by something else)")
        return None
    payload = memoryview(data)[_HEAD:]   # (not a second copy of a large file)
    if not hmac.compare_digest(data[len(MAGIC):_HEAD], _tag(key, payload)):
        _refused(path, "its tag does not check out (damaged, truncated, or written under "
                       "another key)")
        return None
    return data


def _refused(path: Path, why: str) -> tuple[bool, None]:
    """A cache file present but not used: one line on stderr (the compile rebuilds it)."""
    print(f"v8atlas: cache file {path} not used, {why}; rebuilt from the sources",
          file=sys.stderr)
    return False, None
