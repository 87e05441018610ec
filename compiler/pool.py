"""How a compile uses both cores: the fingerprinter's worker pool, the readers' and builders'
forked children.

One pool per compile (``session``): its processes start on first use (~100 ms) and are shut
down when the session ends, so a small compile that never needs them pays nothing. The
fingerprinter calls ``imap(fn, tasks, chunk=…)`` with a module-level ``fn`` and picklable tasks; results
come back *in completion order* as ``(index, result)`` pairs, chunk by chunk, so the caller
consumes (links, merges) each as it arrives and never waits on one worker's slowest file
while the other is idle. Below ``threshold`` tasks, or with one core, or outside a session,
the same calls run in-process (same results, same order guarantees).

Workers are forked from the parent, so they inherit its imports; state a worker needs per
source (an opened zip, say) is cached in the worker by the task function itself.
``fork_share`` is for work over data the parent already holds (a linked model): it forks a
child *after* setting that data, so the child reads it copy-on-write instead of receiving it
pickled, and shares the tasks with this process; only the child's results come back.
``read_shared`` is the readers' form of it (the configuration's objects, the forms, the code's modules):
claims of several tasks, the child's answer per claim, its file digests merged here.
"""
from __future__ import annotations

import fcntl
import mmap
import os
import pickle
import signal
import struct
import tempfile
import threading
import time
from contextlib import contextmanager
from multiprocessing import get_context
from multiprocessing.reduction import ForkingPickler
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple, Sequence

from . import readhash

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

POOL_THRESHOLD = 300      # tasks; below this the pool's start-up costs more than it saves

_executor: ProcessPoolExecutor | None = None
_active = False          # inside a session: the pool may be started
_worker_cpu = 0.0        # CPU seconds the workers spent on chunks returned so far
_fork_state: Any = None  # what fork_share's child reads (set before it is forked)
_background: list[Any] = []   # forked children writing caches; the session waits for them
_forked: list["Forked"] = []  # fork_call children whose answer was not taken yet
_deferred: list["Deferred"] = []  # deferred children not told to go yet
_meanwhile: list[Callable[[], None]] = []   # for the parent to run while its workers work
# Work is not shared with forked children (``set_serial``): a domain runs apart in a child of
# its own (``compiler/apart.py``), and the compile is two serial streams, one a core.
_serial = False
_busy: Callable[[], bool] | None = None    # while serial: whether the other stream works now


def worker_cpu() -> float:
    """CPU seconds spent in pool workers on finished chunks (stage timings add it)."""
    return _worker_cpu


def cores() -> int:
    """Processes a compile may keep busy: ``V8ATLAS_JOBS`` when set, else the machine's cores
    (at most 2 here)."""
    env = os.environ.get("V8ATLAS_JOBS")
    if env and env.isdigit():
        return max(1, int(env))
    return min(2, os.cpu_count() or 1)


def jobs() -> int:
    """Workers a step may share its work with: ``cores()``, or 1 while the compile runs serial
    streams (``set_serial``) and the other works."""
    return 1 if _serial_now() else cores()


def _serial_now() -> bool:
    return _serial and (_busy is None or _busy())


def set_serial(on: bool, busy: Callable[[], bool] | None = None) -> None:
    """Share no step's work with forked children from now on (``splits()`` is False, ``jobs()``
    1): the caller has handed a domain's whole parse, link and build to a child of its own
    (``compiler/apart.py``), and two serial streams, one a core, beat sharing each step —
    every split costs its fork, its copies and its transport (docs/perf/code.md, session 12).
    Background jobs (``background``, ``deferred``) still fork. Until the session's end.
    ``busy()``: whether the other stream works now; while it waits (a dump with little code:
    the code domain's child is done), a step asked then shares its work again."""
    global _serial, _busy
    _serial, _busy = on, (busy if on else None)


@contextmanager
def session() -> Iterator[None]:
    """The pool's lifetime: one compile. Nested sessions share the outer one's pool."""
    global _active
    if _active:
        yield
        return
    _active = True
    try:
        yield
    finally:
        _active = False
        _stop_pool()
        discard_forked()   # an answer nobody asked for (the compile failed): drop it
        while _deferred:   # never told to go (the compile failed or needed no save): end it
            _deferred.pop().drop()
        _meanwhile.clear()
        set_serial(False)
        while _background:
            _background.pop().join()


def forks() -> bool:
    """Whether a step handed to ``background``/``fork_call``/``deferred`` runs in a child:
    inside a session with two cores or more (else it runs in-process)."""
    return _active and cores() >= 2


def splits() -> bool:
    """Whether a step shares its work with a forked child (``split_call``, ``fork_share``):
    ``forks()``, unless the compile runs serial streams and the other works (``set_serial``)."""
    return forks() and not _serial_now()


def discard_forked() -> None:
    """Stop every ``fork_call`` child whose answer was not taken (the compile failed or needs
    no bundle): before the folder they write into goes."""
    while _forked:
        _forked.pop().discard()


def background(fn: Callable[..., None], *args: Any) -> None:
    """``fn(*args)`` in a forked child that sees the parent's data as it is now (copy-on-write,
    nothing pickled across), while the parent goes on; the session waits for it before the
    compile returns. For work off the critical path whose failure costs only speed (writing
    a cache file). Outside a session or with one core it runs now, in-process."""
    if not forks():
        fn(*args)
        return
    _stop_pool()   # never fork while the pool's manager thread runs
    child = get_context("fork").Process(target=fn, args=args)
    child.start()
    _background.append(child)


class Forked:
    """What ``fork_call`` started: ``result()`` waits for the child and returns its answer
    (or raises what it raised)."""

    def __init__(self, value: Any = None, conn: Any = None, process: Any = None) -> None:
        self._value, self._conn, self._process = value, conn, process
        self._owner = os.getpid()

    def result(self, reap: bool = True) -> Any:
        """``reap``: wait for the child to end, else the session waits (its exit — unmapping
        a parse's few hundred MB — need not hold up the caller)."""
        if self._conn is None:
            return self._value
        if self in _forked:
            _forked.remove(self)
        try:
            ok, value = self._conn.recv()
        except EOFError:
            ok, value = False, RuntimeError("a forked compile step ended without an answer "
                                            f"(exit code {self._process.exitcode})")
        finally:
            self._conn.close()
            self._conn = None
            # A child forked later may take the answer of its parent's child; only the
            # parent reaps it (at the session's end).
            if self._owner == os.getpid():
                if reap:
                    self._process.join()
                else:
                    _background.append(self._process)
        if not ok:
            raise value
        self._value = value
        return value

    def ready(self, timeout: float) -> bool:
        """Whether the answer is there, waiting at most ``timeout`` seconds (in-process: it is)."""
        return self._conn is None or self._conn.poll(timeout)

    def discard(self) -> None:
        # The answer is not wanted (the compile failed): stop the child rather than wait for
        # it to finish and fail its send — a child forked later may hold this pipe's read end
        # too, and a step that never returns would hold the failed compile forever.
        if self in _forked:
            _forked.remove(self)
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._process.terminate()
            self._process.join()


class Spilled(NamedTuple):
    """Where ``Spill.put`` copied a buffer: its first byte and its length."""
    start: int
    size: int


class Spill:
    """Room for a forked child's answers beside the pipe: an anonymous shared mapping, made
    before the child is forked (its pages cost nothing until written). The child copies its
    answers' large buffers in (``put``) and sends their places; the parent — or a process
    forked from it later — reads them in place (``get``): no pickling, no two new copies
    (20 MB through the pipe cost the process taking them ≈ 0.1 s CPU and 20 k page faults).
    A buffer that does not fit is answered as it is (pickled). ``read_shared``'s stream."""

    def __init__(self, size: int) -> None:
        try:
            self._map = mmap.mmap(-1, max(size, 1))    # MAP_SHARED | MAP_ANONYMOUS
        except OSError:         # no room to map (strict overcommit): everything goes by the pipe
            self._map = mmap.mmap(-1, 1)
        self._at = 0                               # written below this (in the child)

    def put(self, data: Any) -> Any:
        """``data`` (a C-contiguous buffer) copied into the mapping: its place; else ``data``."""
        view = memoryview(data).cast("B")
        start = (self._at + 7) & ~7        # aligned: arrays read back in place stay aligned
        end = start + view.nbytes
        if end > len(self._map):
            return data
        self._map[start:end] = view
        place = Spilled(start, view.nbytes)
        self._at = end
        return place

    def get(self, placed: Any) -> Any:
        """What ``put`` answered, read back: a view of the mapping, or the buffer itself."""
        if not isinstance(placed, Spilled):
            return placed
        return memoryview(self._map)[placed.start:placed.start + placed.size]


def _answer(conn: Any, fn: Callable[..., Any], args: tuple) -> None:
    try:
        answer: tuple[bool, Any] = (True, fn(*args))
    except BaseException as e:   # noqa: BLE001 — handed to the parent, which raises it
        answer = (False, e)
    try:
        conn.send(answer)
    except (BrokenPipeError, OSError):
        pass                      # the parent no longer wants it
    except Exception as e:       # an unpicklable answer or exception: say what it was
        conn.send((False, RuntimeError(f"a forked compile step's answer could not be sent back: "
                                       f"{type(e).__name__}: {e}")))
    conn.close()


def fork_call(fn: Callable[..., Any], *args: Any) -> Forked:
    """``fn(*args)`` in a child forked now, which sees the parent's data as it is (copy-on-write,
    nothing pickled out), while the parent goes on with other work; ``.result()`` brings the
    answer back (pickled). For a stage independent of the ones the parent runs meanwhile
    (the search index, built while the graph and domain builds run). Outside a session or
    with one core it runs now, in-process."""
    if not forks():
        return Forked(fn(*args))
    conn, child = _fork_piped(_answer, fn, args, parent_sends=False)
    handle = Forked(None, conn, child)
    _forked.append(handle)
    return handle


def split_call(fn: Callable[..., Any], *args: Any) -> Forked:
    """``fork_call`` for a step that shares the caller's work (a build beside the others, a
    part of a step): in-process when the compile runs serial streams (``splits()``)."""
    return fork_call(fn, *args) if splits() else Forked(fn(*args))


class ChildGone(RuntimeError):
    """A ``fork_talk`` child ended without the answer asked for (killed — out of memory, say)."""


class Talk:
    """A child forked by ``fork_talk``, and the parent's end of the two-way pipe to it: the
    parent ``send``s, the child answers what ``recv`` returns (an exception the child raised
    is raised here). ``discard`` stops it; a compile that fails discards it (``_forked``)."""

    def __init__(self, conn: Any, process: Any) -> None:
        self._conn, self._process = conn, process
        self._sending: threading.Thread | None = None

    def send(self, message: Any) -> None:
        """``message`` on its way: pickled now, written by a thread (a large one fills the
        pipe, and the child reads it only when it needs it; the caller goes on meanwhile)."""
        self._sending = _send_soon(self._conn, message, self._sending)

    def recv(self) -> Any:
        """The child's next answer; what it raised is raised here, and ``ChildGone`` when it
        ended without one (its end closed, or reset: it died with a message of ours unread)."""
        try:
            ok, value = self._conn.recv()
        except (EOFError, OSError):
            self._process.join(1)
            ok, value = False, ChildGone("a forked compile step ended without an answer "
                                         f"(exit code {self._process.exitcode})")
        if not ok:
            self.discard()
            raise value
        return value

    def close(self) -> None:
        """The conversation is over: the session reaps the child (its exit need not hold up
        the caller)."""
        if self in _forked:
            _forked.remove(self)
        self._conn.close()
        _background.append(self._process)

    def discard(self) -> None:
        if self in _forked:
            _forked.remove(self)
        if not self._conn.closed:
            self._conn.close()
            self._process.terminate()
            self._process.join()


def fork_talk(fn: Callable[..., None], *args: Any) -> Talk:
    """``fn(conn, *args)`` in a child forked now, holding its end of a two-way pipe: it
    answers with ``answer(conn, value)`` and takes what the parent ``Talk.send``s with
    ``conn.recv()``; what it raises reaches the parent's next ``Talk.recv``. Only with
    ``forks()``: the caller runs the work in-process otherwise."""
    parent_end, child = _fork_piped(_talked, fn, args, parent_sends=True, duplex=True)
    talk = Talk(parent_end, child)
    _forked.append(talk)     # type: ignore[arg-type]
    return talk


def answer(conn: Any, value: Any) -> None:
    """A ``fork_talk`` child's answer to the parent's next ``Talk.recv``: pickled now, written
    by a thread (the parent reads it when it needs it; the child goes on meanwhile)."""
    global _answering
    _answering = _send_soon(conn, (True, value), _answering)


_answering: threading.Thread | None = None   # a ``fork_talk`` child's answer being written


def _send_soon(conn: Any, message: Any, before: threading.Thread | None) -> threading.Thread:
    """``message`` pickled here and written to ``conn`` by a thread, after ``before``'s."""
    payload = ForkingPickler.dumps(message)
    if before is not None:
        before.join()
    thread = threading.Thread(target=_write, args=(conn, payload), daemon=True)
    thread.start()
    return thread


def _write(conn: Any, payload: Any) -> None:
    try:
        conn.send_bytes(payload)
    except Exception:   # the other end is gone, or this one closed under the write: nobody reads it
        pass


def _talked(conn: Any, fn: Callable[..., None], args: tuple) -> None:
    """A ``fork_talk`` child: the parent's background jobs and deferred children are not its
    own (their copies here are dropped, not joined); its own are waited for at its end."""
    _background.clear()
    _deferred.clear()
    _meanwhile.clear()
    try:
        fn(conn, *args)
        if _answering is not None:
            _answering.join()
    except BaseException as e:   # noqa: BLE001 — handed to the parent, which raises it
        if _answering is not None:
            _answering.join()
        try:
            conn.send((False, e))
        except Exception:        # an unpicklable exception, or the parent gone
            try:
                conn.send((False, RuntimeError(f"{type(e).__name__}: {e}")))
            except Exception:
                pass
    finally:
        conn.close()
        while _deferred:         # never told to go: let go
            _deferred.pop().drop()
        while _background:
            _background.pop().join()


def _fork_piped(target: Callable[..., None], fn: Callable[..., Any], args: tuple,
                parent_sends: bool, duplex: bool = False) -> tuple[Any, Any]:
    """A child forked now running ``target(conn, fn, args)``, and the parent's end of the
    one-way pipe between them (the parent's sending end when ``parent_sends``; ``duplex``:
    a two-way pipe instead)."""
    _stop_pool()   # never fork while the pool's manager thread runs
    ctx = get_context("fork")
    recv, send = ctx.Pipe(duplex=duplex)
    child_end, parent_end = (recv, send) if parent_sends else (send, recv)
    child = ctx.Process(target=_closing, args=(parent_end, target, child_end, fn, args))
    child.start()
    child_end.close()
    return parent_end, child


def _closing(parent_end: Any, target: Callable[..., None], conn: Any, fn: Callable[..., Any],
             args: tuple) -> None:
    """``target(conn, fn, args)`` in the child, with the parent's end closed first: a child
    holding both ends never sees its reader go (a parent killed or gone before it reads would
    leave the child blocked in its write for ever)."""
    parent_end.close()
    # The parent's fork_call handles copied into this child are not its to end; its own
    # children (a build that forks its stores) end with it when it is discarded.
    _forked.clear()
    signal.signal(signal.SIGTERM, _end_own_children)
    target(conn, fn, args)


def _end_own_children(_signum: int, _frame: Any) -> None:
    discard_forked()
    os._exit(1)


class Deferred:
    """What ``deferred`` started: a child holding the parent's data as it was, waiting for the
    rest of its arguments (``go``) or to be let go (``drop``)."""

    def __init__(self, fn: Callable[..., None], conn: Any = None, process: Any = None,
                 snapshot: bytes = b"", undo: tuple | None = None) -> None:
        self._fn, self._conn, self._process, self._snapshot = fn, conn, process, snapshot
        self._undo = undo   # in-process: ``first`` of ``deferred``, undone when let go

    def go(self, *later: Any) -> None:
        if self in _deferred:
            _deferred.remove(self)
        if self._conn is None:   # in-process: on the data as it was when deferred
            self._undo = None
            self._fn(*pickle.loads(self._snapshot), *later)
            return
        try:
            self._conn.send((True, later))
        except OSError:   # the child is gone (its ``first`` failed): the job is lost, as a cache
            pass
        self._conn.close()
        self._conn = None
        _background.append(self._process)   # the session waits for it, like a background job

    def drop(self) -> None:
        if self in _deferred:
            _deferred.remove(self)
        if self._undo is not None:
            undo, self._undo = self._undo, None
            undo[2](*undo[1])
        if self._conn is not None:
            try:
                self._conn.send((False, ()))
            except OSError:
                pass   # the child is gone already
            self._conn.close()
            self._conn = None
            self._process.join()


def _await_go(conn: Any, fn: Callable[..., None], packed: tuple) -> None:
    args, first = packed
    go = False
    try:
        if first is not None:
            first[0](*first[1])
        go, later = conn.recv()
    except EOFError:   # the parent ended without a word: nothing to do
        pass
    finally:
        conn.close()
        if not go and first is not None:
            first[2](*first[1])
    if go:
        fn(*args, *later)


def deferred(fn: Callable[..., None], *args: Any,
             first: tuple[Callable[..., None], tuple, Callable[..., None]] | None = None) -> Deferred:
    """``fn(*args, *later)`` on the parent's data *as it is now*, run once ``.go(*later)`` gives
    the rest (``.drop()``, or the session's end, lets it go undone). For a background job
    whose input is complete before its destination is known: the linked model, as the model
    linkers left it, saved under a key the fingerprint gives after the index linkers have added
    to its documents. Forked now (copy-on-write; the child waits); outside a session or with
    one core the arguments are pickled now and ``fn`` runs in-process at ``go``.

    ``first`` = (prepare, its arguments, undo): ``prepare`` runs in the child at once, before it
    waits — the costly part, done while the parent goes on and before it changes the data (a
    parse written to a temporary file while the link drops what it has read) — and ``undo``
    instead of ``fn`` when the job is let go; in-process, ``prepare`` runs now."""
    if not forks():
        if first is not None:
            first[0](*first[1])
        handle = Deferred(fn, snapshot=pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL),
                          undo=first)
        if first is not None and _active:
            _deferred.append(handle)   # undone at the session's end if never told to go
        return handle
    conn, child = _fork_piped(_await_go, fn, (args, first), parent_sends=True)
    handle = Deferred(fn, conn, child)
    _deferred.append(handle)
    return handle


class Claims:
    """A range of ``n`` work items shared by this process and children forked after it (an
    anonymous shared mapping and a lock, inherited by the fork), taken ``step`` at a time
    from either end: one process from the front, the other from the back, until they meet.
    The split follows the work whoever gets the CPU (the link's documents, the fingerprint's
    walk); each item is done once."""

    def __init__(self, n: int, step: int) -> None:
        self.step = max(1, step)
        self.range = mmap.mmap(-1, 16)
        struct.pack_into("<qq", self.range, 0, 0, n)
        # A record lock on an unlinked file, not a semaphore: the kernel drops it with a
        # process that dies holding it (a semaphore held by a killed child hung the other
        # side for ever). The forked child shares the file; the lock is per process.
        self._lockfile = tempfile.TemporaryFile()

    @contextmanager
    def _locked(self) -> Iterator[None]:
        fd = self._lockfile.fileno()
        fcntl.lockf(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(fd, fcntl.LOCK_UN)

    def settle(self, n: int) -> int:
        """A range made unsized (``n = -1``: its items are listed by whichever process comes
        first) sized ``n`` by the first caller; the size it has."""
        with self._locked():
            hi = struct.unpack_from("<q", self.range, 8)[0]
            if hi < 0:
                hi = n
                struct.pack_into("<q", self.range, 8, n)
            return hi

    def take(self, front: bool) -> tuple[int, int]:
        """(start, end) of the next claim, empty once the two ends have met."""
        with self._locked():
            lo, hi = struct.unpack_from("<qq", self.range, 0)
            if front:
                end = min(lo + self.step, hi)
                struct.pack_into("<q", self.range, 0, end)
                return lo, end
            start = max(hi - self.step, lo)
            struct.pack_into("<q", self.range, 8, start)
            return start, hi

    def ranges(self, front: bool) -> Iterator[tuple[int, int]]:
        """Every claim from one end (``take``) until the two ends have met."""
        while (got := self.take(front))[0] < got[1]:
            yield got


def read_shared(n: int, step: int, front: Callable[[int, int], None],
                back: Callable[..., Callable[[int, int], Any]], *args: Any, room: int = 0,
                arrived: Callable[[int, int, Any], None] | None = None,
                done: Callable[[], None] | None = None) -> list[tuple[int, int, Any]]:
    """Tasks ``0 … n`` read by this process and one child forked now (``Claims``, ``step`` tasks
    a claim): this process calls ``front(lo, hi)`` on its claims from the front, in order, its
    results kept where it makes them (nothing of its share pickled or copied); the child sets
    itself up by ``back(*args)`` (its own file handles, say) and calls what that returns on its
    claims from the back. Returns the child's ``(lo, hi, answer)`` in task order — a suffix of
    the tasks — once the two ends have met, its notes of the files it read (``readhash``)
    merged here and its CPU counted. The parent's imports for the later stages run meanwhile.
    The caller decides it is worth a fork (many tasks, ``jobs() >= 2``); a reader called
    outside a compile still forks. A child that fails or is killed raises here (``Forked``).

    ``room`` > 0 (answers that are buffers: bytes): each answer is streamed as its claim is
    done — copied into a shared mapping of ``room`` bytes (``Spill``), its place sent — and
    handed to ``arrived(lo, hi, view)`` between this process's claims, so what it makes of the
    answers is mostly done by the time the ends meet, not after (docs/perf/code.md, round 2,
    session 10: the parse's critical path). An answer that does not fit comes at the end."""
    with session():
        claims = Claims(n, step)
        stream = _Stream(room) if room > 0 and forks() else None
        child = fork_call(_from_the_back, claims, os.getpid(), back, stream, *args)
        got: list[tuple[int, int, Any]] = []
        early = None
        try:
            if stream is not None:
                stream.forked()
            run_meanwhile()
            for lo, hi in claims.ranges(front=True):
                front(lo, hi)
                if stream is not None:
                    stream.take(got, arrived, wait=False)
                if child.ready(0):   # an answer before the ends met is a failure: raise it now
                    early = child.result(reap=False)
            if done is not None:
                done()
            if stream is not None:
                stream.take(got, arrived, wait=True)
            rest, read, cpu = early if early is not None else child.result(reap=False)
        except BaseException:
            child.discard()          # this share failed: the child's is not wanted either
            raise
    count_worker_cpu(cpu)
    readhash.merge(read)
    if arrived is not None:
        for lo, hi, answer in rest:
            arrived(lo, hi, answer)
    return sorted(got + rest, key=_first)


def _first(claim: tuple) -> int:
    return claim[0]


class _Stream:
    """The child's answers of ``read_shared`` as they are made: copied into a shared mapping
    (``Spill``), their places sent through a pipe — small messages, so the child never waits
    for this process to read (a pipe holds 64 KB); the end marked by ``None``."""

    def __init__(self, room: int) -> None:
        self.spill = Spill(room)
        self.recv, self.send = get_context("fork").Pipe(duplex=False)

    def forked(self) -> None:
        """In the parent once the child is forked: only the child writes (its end seen as EOF)."""
        self.send.close()

    def put(self, lo: int, hi: int, answer: Any) -> bool:
        """In the child: ``answer`` streamed (False: it does not fit; it goes at the end)."""
        placed = self.spill.put(answer)
        if not isinstance(placed, Spilled):
            return False
        self.send.send((lo, hi, placed))
        return True

    def end(self) -> None:
        self.send.send(None)
        self.send.close()

    def take(self, into: list[tuple[int, int, Any]],
             arrived: Callable[[int, int, Any], None] | None, wait: bool) -> None:
        """The answers sent so far (``wait``: all of them, until the end or the child is gone),
        each read in place from the mapping and handed to ``arrived``."""
        while self.recv is not None and (wait or self.recv.poll()):
            try:
                message = self.recv.recv()
            except EOFError:       # the child failed: its answer (``Forked.result``) says why
                message = None
            if message is None:
                self.recv.close()
                self.recv = None
                return
            lo, hi, placed = message
            answer = self.spill.get(placed).toreadonly()   # bytes-like, and like bytes hashable
            into.append((lo, hi, answer))
            if arrived is not None:
                arrived(lo, hi, answer)


def _from_the_back(claims: Claims, parent: int, back: Callable[..., Callable[[int, int], Any]],
                   stream: _Stream | None, *args: Any
                   ) -> tuple[list[tuple[int, int, Any]], dict, float]:
    """``read_shared``'s child: its claims' answers in task order (those not streamed), its
    readhash notes, its CPU. Each answer is made as its claim is read (bytes to send, say:
    streamed at once, or only the sending is left when the two ends meet). It stops when
    ``parent`` is gone: nobody would read the answer."""
    t0 = time.process_time()
    readhash.forget()       # the parent's notes are the parent's already
    claim = back(*args)
    answers = []
    try:
        for lo, hi in claims.ranges(front=False):
            if os.getppid() != parent:
                os._exit(1)
            answer = claim(lo, hi)
            if stream is None or not stream.put(lo, hi, answer):
                answers.append((lo, hi, answer))
    finally:
        if stream is not None:
            stream.end()
    answers.reverse()
    return answers, readhash.take(), time.process_time() - t0


def _stop_pool() -> None:
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=True)
        _executor = None


def _pool() -> ProcessPoolExecutor:
    global _executor
    if _executor is None:
        # imported here: the configuration's read forks no pool (``config/objects.py``), and
        # concurrent.futures' process pool brings 16 ms of imports before the parse
        from concurrent.futures import ProcessPoolExecutor
        _executor = ProcessPoolExecutor(max_workers=jobs(), mp_context=get_context("fork"),
                                        initializer=readhash.forget)
    return _executor


def _run_chunk(fn: Callable[[Any], Any], start: int, tasks: Sequence[Any]
               ) -> tuple[int, list[Any], float, dict]:
    t0 = time.process_time()
    results = [fn(t) for t in tasks]
    # the digests of the source files this chunk read (a cold compile's fingerprint uses them)
    return start, results, time.process_time() - t0, readhash.take()


def fork_state() -> Any:
    """In a ``fork_share`` task: the state the parent set (in-process: the same object)."""
    return _fork_state


def imap(fn: Callable[[Any], Any], tasks: Sequence[Any], *, chunk: int = 0,
         threshold: int | None = None) -> Iterator[tuple[int, Any]]:
    """``(index, fn(task))`` for every task, over the pool when it is worth it, as they finish.

    ``chunk``: tasks per round trip (default: about 16 chunks per worker, so a slow chunk at
    the end holds up at most 1/16 of one worker's share)."""
    n = jobs()
    if not _active or n < 2 or len(tasks) < (POOL_THRESHOLD if threshold is None else threshold):
        for i, t in enumerate(tasks):
            yield i, fn(t)
        return
    yield from _pooled(_pool(), fn, tasks, chunk or max(8, len(tasks) // (n * 16)))


def fork_share(fn: Callable[[Any], Any], tasks: Sequence[Any], state: Any, *,
               first: Callable[[], None] | None = None,
               finish: Callable[[Any], Any] | None = None) -> Iterator[tuple[int, Any]]:
    """``(index, fn(task))`` for every task, shared by this process and one child forked now (``Claims``: this
    process takes tasks from the front, the child from the back, until they meet), which
    sees ``state`` through ``fork_state()``; this process's results come as it makes them, the
    child's (pickled) once it is done. Against two forked pool workers (``fork_imap``, before): one fork
    less, and this process's share neither pickled nor copied page by page (docs/perf/code.md,
    "the build and the forks"). In-process when nothing is forked (``forks()``).

    ``first()``: this process's work before its first task, once the child is forked and
    taking tasks (work the tasks need only at their end, e.g. data ``finish`` waits for);
    ``finish(result)``: each result made final — in this process as it is made, in the
    child after all its tasks (it may wait there for what ``first`` makes)."""
    global _fork_state
    _fork_state = state
    done = finish or _same
    try:
        if not splits() or len(tasks) < 2:
            if first is not None:
                first()
            for i, t in enumerate(tasks):
                yield i, done(fn(t))
            return
        claims = Claims(len(tasks), 1)
        child = fork_call(_claimed, fn, tasks, claims, done)
        if first is not None:
            first()
        for lo, hi in claims.ranges(front=True):
            for i in range(lo, hi):
                yield i, done(fn(tasks[i]))
        yield from child.result()
    finally:
        _fork_state = None


def _same(x: Any) -> Any:
    return x


def _claimed(fn: Callable[[Any], Any], tasks: Sequence[Any], claims: "Claims",
             finish: Callable[[Any], Any] = _same) -> list[tuple[int, Any]]:
    """``fork_share``'s child: the tasks it claims from the back, with their indexes."""
    made = [(i, fn(tasks[i])) for lo, hi in claims.ranges(front=False) for i in range(lo, hi)]
    return [(i, finish(r)) for i, r in made]


def meanwhile(fn: Callable[[], None]) -> None:
    """``fn()`` in the parent, once, the next time it hands the pool's workers their tasks (they
    are forked by then and working), before it waits for their first answer, or a forked
    child its share (``run_meanwhile``: ``read_shared``): for work the
    parent needs later and need not give its workers (importing the later stages' modules).
    Never run if no pooled work comes in this session."""
    _meanwhile.append(fn)


def run_meanwhile() -> None:
    """What ``meanwhile`` put off, now: the caller has handed its work to other processes."""
    while _meanwhile:
        _meanwhile.pop(0)()


def count_worker_cpu(seconds: float) -> None:
    """CPU a forked child spent on a stage's share of the work (the stage's timing adds it)."""
    global _worker_cpu
    _worker_cpu += seconds


def _pooled(executor: ProcessPoolExecutor, fn: Callable[[Any], Any], tasks: Sequence[Any],
            size: int) -> Iterator[tuple[int, Any]]:
    from concurrent.futures import FIRST_COMPLETED, wait
    pending: set[Future] = {executor.submit(_run_chunk, fn, i, tasks[i:i + size])
                            for i in range(0, len(tasks), size)}
    run_meanwhile()
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                start, results, cpu, read = f.result()
                count_worker_cpu(cpu)
                readhash.merge(read)
                for k, r in enumerate(results):
                    yield start + k, r
    finally:
        for f in pending:   # the consumer stopped early (an error): drop what has not started
            f.cancel()
