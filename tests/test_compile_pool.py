"""The compile's worker pool (compiler/pool.py), pool-hashed fingerprints and `compile --timings`:
the same bundle whether the work runs in workers or in-process."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest
from click.testing import CliRunner

from v8atlas.cli import main
from v8atlas.compiler import pool
from v8atlas.compiler.fingerprint import Fingerprinter
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats.hashing import sha256_file

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def test_imap_runs_in_workers_and_gives_every_index_once(monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    with pool.session():
        got = list(pool.imap(_square_and_pid, list(range(50)), chunk=3, threshold=1))
    assert sorted(i for i, _ in got) == list(range(50))
    assert all(r[0] == i * i for i, r in got)
    assert {pid for _, (_, pid) in got} - {os.getpid()}, "no task ran in a worker process"


def test_imap_outside_a_session_or_below_threshold_runs_in_process(monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    outside = list(pool.imap(_square_and_pid, [1, 2, 3], threshold=1))
    with pool.session():
        small = list(pool.imap(_square_and_pid, [1, 2, 3], threshold=10))
    for got in (outside, small):
        assert [(i, r[0]) for i, r in got] == [(0, 1), (1, 4), (2, 9)]
        assert {r[1] for _, r in got} == {os.getpid()}


def _state_item_and_pid(i: int) -> tuple[str, int]:
    return pool.fork_state()[i], os.getpid()


def _waiting_state_item_and_pid(i: int) -> tuple[str, int]:
    """A ``fork_share`` task: each process, at each task, says it has begun one and waits (30 s
    at most) until the other has too — so both hold a task whatever the scheduling."""
    import time
    items, parent, flags = pool.fork_state()
    mine, other = flags if os.getpid() == parent else flags[::-1]
    mine.touch()
    deadline = time.monotonic() + 30
    while not other.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    return items[i], os.getpid()


def test_fork_share_splits_the_tasks_between_this_process_and_one_child(monkeypatch, tmp_path):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    state = [f"объект {i}" for i in range(40)]     # never pickled: the child is forked with it
    with pool.session():
        got = list(pool.fork_share(_waiting_state_item_and_pid, list(range(40)),
                                   (state, os.getpid(), (tmp_path / "parent", tmp_path / "child"))))
    assert sorted(i for i, _ in got) == list(range(40))           # every task once
    assert [r[0] for _, r in sorted(got)] == state
    pids = {pid for _, (_, pid) in got}
    assert os.getpid() in pids and len(pids) == 2                 # this process and one child
    assert pool.fork_state() is None
    # outside a session (or with one core): in-process, in order
    assert list(pool.fork_share(_state_item_and_pid, [0, 1], state)) == [
        (0, (state[0], os.getpid())), (1, (state[1], os.getpid()))]


def _finished_where(result: tuple[str, int]) -> tuple[str, int, int]:
    return (*result, os.getpid())


def test_fork_share_runs_first_here_and_finishes_each_result_where_it_was_made(monkeypatch, tmp_path):
    """``first`` runs in this process once the child is forked (the child takes tasks
    meanwhile), before this process's first task; every result is passed through ``finish`` in
    the process that made it."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    state = [f"объект {i}" for i in range(40)]
    flags = (tmp_path / "parent", tmp_path / "child")
    ran: list[tuple[int, bool]] = []
    first = lambda: ran.append((os.getpid(), flags[0].exists()))  # noqa: E731
    with pool.session():
        got = list(pool.fork_share(_waiting_state_item_and_pid, list(range(40)),
                                   (state, os.getpid(), flags), first=first, finish=_finished_where))
    assert ran == [(os.getpid(), False)]                          # here, before its first task
    assert [r[0] for _, r in sorted(got)] == state
    assert all(made == finished for _, (_, made, finished) in got)
    assert len({made for _, (_, made, _) in got}) == 2
    ran.clear()
    flags[0].unlink()       # outside a session: in-process, first() then the tasks in order
    assert list(pool.fork_share(_state_item_and_pid, [0, 1], state, first=first, finish=_finished_where)) == [
        (0, (state[0], os.getpid(), os.getpid())), (1, (state[1], os.getpid(), os.getpid()))]
    assert ran == [(os.getpid(), False)]


def _first_words_and_pid(texts: list[str]) -> tuple[list[str], int]:
    words = [t.split()[0] for t in texts]
    texts.append("дописано в дочернем процессе")   # a child's write stays in the child
    return words, os.getpid()


def _refuse(name: str) -> None:
    raise ValueError(f"нет объекта {name}")


def test_fork_call_answers_from_a_child_that_saw_the_parents_data(monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    texts = ["Справочник Пользователи", "Документ Заказ"]
    with pool.session():
        words, pid = pool.fork_call(_first_words_and_pid, texts).result()
        failed = pool.fork_call(_refuse, "Склады")
        with pytest.raises(ValueError, match="нет объекта Склады"):
            failed.result()
    assert words == ["Справочник", "Документ"] and pid != os.getpid()
    assert texts == ["Справочник Пользователи", "Документ Заказ"]


SPILLED_SIZES = [56, 24, 24, 16]     # into a spill of 100 bytes, at 8-byte places: the third does not fit


def _spilled(spill: pool.Spill) -> tuple[list[object], int]:
    """Buffers of ``SPILLED_SIZES`` bytes (each byte its buffer's number) put in ``spill``."""
    return [spill.put(bytes([i]) * n) for i, n in enumerate(SPILLED_SIZES)], os.getpid()


def _read_back(spill: pool.Spill, placed: list[object]) -> list[bytes]:
    return [bytes(spill.get(p)) for p in placed]


def test_a_forked_steps_buffers_come_back_through_its_spill_or_else_the_pipe(monkeypatch):
    """A child puts its answer's buffers in a ``Spill`` made before it was forked: those that
    fit are read in place — here, and in a process forked later — the one that does not
    comes through the pipe as it was."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    with pool.session():
        spill = pool.Spill(100)
        placed, pid = pool.fork_call(_spilled, spill).result()
        by_sibling = pool.fork_call(_read_back, spill, placed).result()
    expected = [bytes([i]) * n for i, n in enumerate(SPILLED_SIZES)]
    got = [spill.get(p) for p in placed]
    assert pid != os.getpid() and [bytes(g) for g in got] == by_sibling == expected
    assert [isinstance(p, pool.Spilled) for p in placed] == [True, True, False, True]


def test_fork_call_in_process_with_one_job_or_outside_a_session(monkeypatch):
    texts = ["Справочник Пользователи"]
    outside = pool.fork_call(_first_words_and_pid, texts).result()
    monkeypatch.setenv("V8ATLAS_JOBS", "1")
    with pool.session():
        one_job = pool.fork_call(_first_words_and_pid, texts).result()
        with pytest.raises(ValueError):
            pool.fork_call(_refuse, "Склады")
    assert outside[1] == one_job[1] == os.getpid() and len(texts) == 3


def test_fork_call_not_waited_for_ends_with_the_session(monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    with pool.session():
        pool.fork_call(_first_words_and_pid, ["Справочник Пользователи"])   # never asked for
    assert not pool._forked


def _never_returns() -> None:
    threading.Event().wait()


def _hung(signum, frame):
    raise TimeoutError("the failed session still waits for a forked step")


@contextmanager
def _a_session_that_fails_within(seconds: int) -> Iterator[None]:
    """A pool session ended by an error; the alarm turns an endless join into a failure."""
    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(seconds)
    try:
        with pytest.raises(ValueError, match="a linker failed"):
            with pool.session():
                yield
                raise ValueError("a linker failed")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_failed_compile_stops_the_forked_steps_nobody_will_ask_for(monkeypatch):
    # A step that never answers (or cannot send: a later child holds its pipe) must not hold a
    # failed compile.
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    with _a_session_that_fails_within(60):
        step = pool.fork_call(_never_returns)
    assert step._process.exitcode is not None and not pool._forked


def _write_later(path: str) -> None:
    import time
    time.sleep(1.0)
    Path(path).write_text("written after its parent was discarded")


def _fork_a_writer_and_wait(started: str, path: str) -> None:
    pool.fork_call(_write_later, path)      # the grandchild (a build forking its stores)
    Path(started).touch()
    threading.Event().wait()


def test_a_discarded_step_ends_the_children_it_forked(tmp_path, monkeypatch):
    # The code build forks its record stores; discarding the build (an unchanged recompile, a
    # failed compile) must stop them too, before the folder they write into is removed.
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    started, late = tmp_path / "started", tmp_path / "late"
    with pool.session():
        step = pool.fork_call(_fork_a_writer_and_wait, str(started), str(late))
        for _ in range(600):
            if started.exists():
                break
            threading.Event().wait(0.05)
        assert started.exists()
        pool.discard_forked()
        assert step._process.exitcode is not None
    threading.Event().wait(1.5)       # past the grandchild's sleep
    assert not late.exists()


def _a_megabyte() -> bytes:
    return b"x" * (1 << 20)       # more than a pipe's buffer: the send blocks until read


def test_a_forked_step_whose_reader_is_gone_ends_instead_of_blocking(monkeypatch):
    # The reader may go unread (its process killed, a discarded search child's own steps): the
    # child must get a broken pipe, not keep the read end open itself and block for ever.
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    with pool.session():
        step = pool.fork_call(_a_megabyte)
        step._conn.close()
        step._process.join(30)
        still_blocked = step._process.is_alive()
        step.discard()
    assert not still_blocked


def _write_texts(texts: list[str], out: Path) -> None:
    out.write_text("\n".join(texts), encoding="utf-8")


@pytest.mark.parametrize("jobs", ["2", "1"])
def test_deferred_writes_the_data_as_it_was_when_deferred(tmp_path, monkeypatch, jobs):
    # The linked model is deferred before the index linkers add to its documents and saved
    # once the fingerprint names its file: what is written is the data as it was, forked or not.
    monkeypatch.setenv("V8ATLAS_JOBS", jobs)
    texts = ["Справочник.Пользователи"]
    with pool.session():
        later = pool.deferred(_write_texts, texts)
        texts.append("добавлено после")            # the parent goes on changing its data
        later.go(tmp_path / "saved.txt")
    assert (tmp_path / "saved.txt").read_text(encoding="utf-8") == "Справочник.Пользователи"


def test_deferred_never_told_to_go_writes_nothing_and_ends_with_the_session(tmp_path, monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    with _a_session_that_fails_within(60):
        later = pool.deferred(_write_texts, ["Документ.Заказ"])
    assert later._process.exitcode == 0 and not pool._deferred
    assert not list(tmp_path.iterdir())


def _prepare_texts(path, texts):
    path.write_text("\n".join(texts), encoding="utf-8")


def _name_file(path, target):
    os.replace(path, target)


def _remove_file(path, _texts):
    path.unlink(missing_ok=True)


@pytest.mark.parametrize("jobs", ["2", "1"])
@pytest.mark.parametrize("named", [True, False])
def test_deferred_first_prepares_at_once_and_is_named_or_undone(tmp_path, monkeypatch, jobs, named):
    # A cold compile's parse is written before the linkers change it and named by its key
    # later (pipeline._save_unkeyed): what is named is the data as it was; a job let go
    # leaves no file behind.
    monkeypatch.setenv("V8ATLAS_JOBS", jobs)
    texts, unkeyed = ["Справочник.Пользователи"], tmp_path / ".unkeyed"
    with pool.session():
        later = pool.deferred(_name_file, unkeyed, first=(_prepare_texts, (unkeyed, texts), _remove_file))
        texts.append("добавлено после")            # the link goes on changing the parse
        if named:
            later.go(tmp_path / "keyed.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == (["keyed.txt"] if named else [])
    if named:
        assert (tmp_path / "keyed.txt").read_text(encoding="utf-8") == "Справочник.Пользователи"


def test_meanwhile_runs_in_the_parent_once_the_workers_have_their_tasks(monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    ran: list[int] = []
    with pool.session():
        pool.meanwhile(lambda: ran.append(os.getpid()))
        got = list(pool.imap(_square_and_pid, list(range(20)), chunk=2, threshold=1))
        pool.meanwhile(lambda: ran.append(-1))    # no pooled work follows in this session
    assert ran == [os.getpid()] and len(got) == 20
    assert {pid for _, (_, pid) in got} - {os.getpid()}, "no task ran in a worker process"
    assert not pool._meanwhile


def test_a_compile_reaches_its_parse_without_numpy():
    # numpy (~0.15 s) and the builders are imported while the parse workers parse
    # (pipeline._AFTER_PARSE): the command, the pipeline and every registered domain load without them.
    code = ("import sys; import v8atlas.cli, v8atlas.compiler.cli, v8atlas.compiler.pipeline; "
            "from v8atlas.formats.registry import compile_domains; compile_domains(); "
            "print(sorted(m for m in ('numpy', 'lxml.html') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _folder_fingerprint(root: Path) -> str:
    """The fingerprint's formula, written out: sha256 over "rel\\0sha256(file)\\n", sorted paths."""
    h = hashlib.sha256()
    for p in sorted((p for p in root.rglob("*") if p.is_file()),
                    key=lambda p: p.relative_to(root).parts):
        h.update(f"{p.relative_to(root).as_posix()}\0{sha256_file(p)}\n".encode())
    return h.hexdigest()


def test_pool_hashed_fingerprint_is_the_content_formula(tmp_path, monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    monkeypatch.setattr(pool, "POOL_THRESHOLD", 2)
    root = EXAMPLES / "config-designer"
    cache = tmp_path / "fp.pickle"
    with pool.session():
        fp = Fingerprinter(cache)
        cold = fp(root)
        fp.save()
    assert cold == _folder_fingerprint(root)
    assert fp.bytes_hashed == fp.sizes[root] > 0
    again = Fingerprinter(cache)
    assert again(root) == cold and again.bytes_hashed == 0   # nothing read: stats unchanged


def _content_hash(bundle: Path) -> str:
    return json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))["content_hash"]


def test_same_bundle_from_workers_and_in_process(tmp_path, monkeypatch):
    monkeypatch.setattr(pool, "POOL_THRESHOLD", 2)    # the examples are small: force the pool
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    pooled = compile_bundle([EXAMPLES], tmp_path / "pooled", quiet=True, cache=False)
    monkeypatch.setenv("V8ATLAS_JOBS", "1")
    alone = compile_bundle([EXAMPLES], tmp_path / "alone", quiet=True, cache=False)
    assert _content_hash(pooled.bundle_path) == _content_hash(alone.bundle_path)
    assert [w.as_dict() for w in pooled.report.warnings] == [w.as_dict() for w in alone.report.warnings]


@pytest.mark.parametrize("runs", [1, 2])
def test_timings_print_every_stage_with_wall_and_cpu(tmp_path, runs):
    out = tmp_path / "b"
    for _ in range(runs):   # the second run re-points the unchanged bundle: its own timings
        res = CliRunner().invoke(main, ["compile", str(EXAMPLES), "--out", str(out), "--timings"])
        assert res.exit_code == 0, res.output
    lines = res.stderr.splitlines()
    head = lines.index(next(ln for ln in lines if ln.startswith("stage")))
    stages = {ln[:34].strip(): [float(x) for x in ln[34:].split()[:2]]
              for ln in lines[head + 1:] if ln.strip()}
    expected = {"discover", "fingerprint"} | ({"parse config", "link config", "build search", "publish"}
                                              if runs == 1 else set())
    assert expected <= set(stages), stages
    if runs == 2:
        assert "parse config" not in stages   # nothing parsed when nothing changed
    assert all(wall >= 0 and cpu >= 0 for wall, cpu in stages.values())


def test_fingerprint_finished_by_a_forked_child_is_the_content_formula(tmp_path, monkeypatch):
    """A cold folder comes back Pending (not even walked); a forked child walks and hashes
    it; the result is the formula's, and the stat cache then knows every file."""
    import shutil

    from v8atlas.compiler import fingerprint
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    root = tmp_path / "cfg"
    shutil.copytree(EXAMPLES / "config-designer", root)
    cache = tmp_path / "fp.pickle"
    fp = Fingerprinter(cache)
    pending = fp.begin(root)
    assert isinstance(pending, fingerprint.Pending) and not pending.walked
    with pool.session():
        done = pool.fork_call(fp.complete, [pending]).result()
    assert fp.finish(done[0]) == _folder_fingerprint(root)
    assert fp.bytes_hashed == fp.sizes[root] > 0
    fp.save()
    edited = root / "Configuration.xml"
    edited.write_bytes(edited.read_bytes() + b" ")
    again = Fingerprinter(cache)
    assert again.begin(root) == _folder_fingerprint(root)          # one file changed: hashed now
    assert again.bytes_hashed == edited.stat().st_size
    monkeypatch.setattr(fingerprint, "DEFER_AT", 1)
    edited.write_bytes(edited.read_bytes() + b" ")
    later = Fingerprinter(cache)
    walked = later.begin(root)                                      # walked, its one file pending
    assert isinstance(walked, fingerprint.Pending) and walked.walked and len(walked.missing) == 1
    assert later.finish(later.complete([walked])[0]) == _folder_fingerprint(root)


def _claim_front(work, parent: int):
    from v8atlas.compiler.readhash import read_by_readers
    return work.claim(front=True, leave=read_by_readers)


@pytest.mark.parametrize("who", ["child", "parent", "both", "starved"])
def test_the_fingerprints_work_split_between_child_and_parent_gives_the_formula(tmp_path, monkeypatch, who):
    """The cold walk (and a walked folder's hashing) cut into units claimed from both ends:
    by the child alone, by the parent alone (a child that got no CPU), both at once (one
    unit a claim, so they meet in the middle), or a child whose answer never comes (its
    units done at the end) — the same fingerprint, the formula's, every file hashed once, a
    nested folder (the walk's third level) included."""
    import shutil

    from v8atlas.compiler import fingerprint
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    monkeypatch.setattr(fingerprint, "_UNITS_PER_CLAIM", 1)
    monkeypatch.setattr(fingerprint, "_FILES_PER_UNIT", 1)
    monkeypatch.setattr(fingerprint, "_ENTRIES_PER_UNIT", 1)
    root = tmp_path / "cfg"
    shutil.copytree(EXAMPLES / "config-designer", root)
    (root / "Catalogs" / "Deep" / "Ext" / "More").mkdir(parents=True)
    (root / "Catalogs" / "Deep" / "Ext" / "More" / "x.bin").write_bytes(b"\0" * 10)
    (root / "top.txt").write_text("a file at the top")
    total = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    for walked in (False, True):
        monkeypatch.setattr(fingerprint, "DEFER_AT", 1 if walked else 300)
        cache = tmp_path / f"fp-{walked}.pickle"
        if walked:   # a stat cache knowing one file: the folder is walked, the rest pending
            seed = Fingerprinter(cache)
            seed._seen = {str((root / "top.txt").resolve()): (fingerprint.stat_key((root / "top.txt").stat()),
                                                              sha256_file(root / "top.txt"))}
            seed.save()
        fp = Fingerprinter(cache)
        pending = fp.begin(root)
        assert isinstance(pending, fingerprint.Pending) and pending.walked == walked
        work = fingerprint.Completion(fp, [pending])
        with pool.session():
            child = pool.fork_call(_claim_front, work, os.getpid()) if who in ("child", "both") else None
            if who == "child":
                theirs = child.result()
                listing, own = work.claim(front=False)
                assert own == [] and theirs[0] == listing
                claimed = [theirs, (listing, own)]
            elif who == "starved":   # claimed half from the front, its answer lost
                work._list()
                assert work.claims.settle(len(work.units)) == len(work.units) > 3
                work.claims.take(front=True)
                work.claims.take(front=True)
                claimed = [work.claim(front=False)]
            else:
                claimed = [work.claim(front=False)]
                if child is not None:
                    claimed.append(child.result())
        [done] = work.assemble(*claimed)
        assert fp.finish(done) == _folder_fingerprint(root)
        assert fp.bytes_hashed == total - (len("a file at the top") if walked else 0)
    # another listing's results (the tree changed between the two listings) are not taken
    other = fingerprint.Completion(Fingerprinter(), [Fingerprinter().begin(root)])
    assert other.assemble(("not this listing", [(0, [None])])) == \
        fingerprint.Completion(Fingerprinter(), [Fingerprinter().begin(root)]).assemble()


def _read_in_worker(args: tuple[str, str]) -> int:
    from v8atlas.compiler.config.files import FolderFiles
    root, rel = args
    return len(FolderFiles(Path(root)).read(rel) or b"")


def test_files_the_readers_read_are_not_hashed_again(tmp_path, monkeypatch):
    """A cold folder's descriptors that a reader read while its fingerprint was pending (in a
    pool worker or in-process) are not read again by the fingerprinter; the deeper files are
    the hashing child's, whoever reads them (a reader does not hash them too), and the
    fingerprint is the formula's over the bytes read. A file edited after it was read is
    hashed anew by the next compile."""
    import shutil

    from v8atlas.compiler import fingerprint, readhash
    from v8atlas.compiler.config.files import FolderFiles
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    root = tmp_path / "cfg"
    shutil.copytree(EXAMPLES / "config-designer", root)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    deep = [r for r in files if not fingerprint.read_by_readers(r)]          # hashed by the child
    descriptors = [r for r in files if fingerprint.read_by_readers(r)]       # left to finish
    assert len(deep) >= 3 and len(descriptors) >= 4
    read_before, unread_deep = deep[:-1], deep[-1]
    in_workers, here, edited, unread = descriptors[:-3], descriptors[-3], descriptors[-2], descriptors[-1]
    fp = Fingerprinter(tmp_path / "fp.pickle")
    pending = fp.begin(root)
    assert isinstance(pending, fingerprint.Pending)
    readhash.watch([os.path.realpath(root)])
    try:
        with pool.session():
            folder = FolderFiles(root)
            for rel in read_before:                  # read, yet still the child's to hash
                folder.read(rel)
            hashing = pool.fork_call(fp.complete, [pending])
            sizes = dict(pool.imap(_read_in_worker, [(str(root), r) for r in in_workers],
                                   chunk=2, threshold=1))
            assert len(sizes) == len(in_workers)
            folder.read(here)
            folder.read(edited)
            done = hashing.result()
            as_read = _folder_fingerprint(root)
            (root / edited).write_bytes((root / edited).read_bytes() + b"\n<!-- edited -->")
            # the fingerprint of the bytes the readers read, not of the edit after them
            assert fp.finish(done[0]) == as_read
            fp.save()
    finally:
        readhash.stop()
    assert fp.bytes_hashed == sum((root / r).stat().st_size for r in [*read_before, unread_deep, unread])
    # the edit shows in its stat: the next compile hashes that file again, and only it
    again = Fingerprinter(tmp_path / "fp.pickle")
    assert again.begin(root) == _folder_fingerprint(root) != as_read
    assert again.bytes_hashed == (root / edited).stat().st_size


def _designer_root(which: str) -> Path:
    if which == "examples":
        return EXAMPLES / "config-designer"
    from realdata import extracted     # skips when /work/shared's data is absent
    return extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src" / "cf"


@pytest.mark.parametrize("which", ["examples", pytest.param("ssl", marks=pytest.mark.realdata)])
def test_the_files_left_to_the_readers_are_those_the_configuration_reader_reads(which, monkeypatch):
    """A Designer dump's hashed files split between the hashing child and the readers by
    what the configuration reader reads: none it reads is hashed by the child too (its
    forms' and templates' descriptors, Ext/Predefined.xml below an object's folder — in SSL
    3.1.12 about a thousand files), none left to it goes unread (it would be hashed on the
    compile's critical path)."""
    from v8atlas.compiler.config.domain import DOMAIN as CONFIG
    from v8atlas.compiler.config.domain import may_read
    from v8atlas.compiler.config.files import FolderFiles
    from v8atlas.compiler.fingerprint import walk_files
    from v8atlas.compiler.readhash import read_by_readers
    from v8atlas.compiler.report import CompileReport
    from v8atlas.compiler.sources import discover
    root = _designer_root(which)
    monkeypatch.setenv("V8ATLAS_JOBS", "1")          # the reads happen in this process
    opened: set[str] = set()
    read = FolderFiles.read
    monkeypatch.setattr(FolderFiles, "read", lambda self, rel: opened.add(rel) or read(self, rel))
    assert CONFIG.parse is not None
    CONFIG.parse(discover([root]).sources[0], CompileReport())
    hashed = [rel for rel, _ in walk_files(root) if may_read(rel)]
    deep_read = [rel for rel in hashed if rel in opened and rel.count("/") > 1]
    assert any("/Forms/" in r for r in deep_read) and any(r.endswith("/Ext/Predefined.xml") for r in deep_read)
    assert len(deep_read) > (900 if which == "ssl" else 3)
    assert sorted(rel for rel in hashed if read_by_readers(rel)) == sorted(rel for rel in hashed if rel in opened)


def test_a_cold_compile_of_a_large_folder_gives_the_content_hash_of_one_in_process(tmp_path, monkeypatch):
    """Deferred fingerprint (the readers' digests, the child hashing the rest) or all in
    one process: the same bundle, the same source fingerprint in the manifest."""
    from v8atlas.compiler import fingerprint
    monkeypatch.setattr(pool, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(fingerprint, "DEFER_AT", 1)
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    src = EXAMPLES / "config-designer"
    deferred = compile_bundle([src], tmp_path / "deferred", quiet=True)
    assert "wait for fingerprint" in deferred.report.timings
    monkeypatch.setenv("V8ATLAS_JOBS", "1")
    alone = compile_bundle([src], tmp_path / "alone", quiet=True, cache=False)
    assert _content_hash(deferred.bundle_path) == _content_hash(alone.bundle_path)
    manifest = json.loads((deferred.bundle_path / "manifest.json").read_text(encoding="utf-8"))
    assert [s["sha256"] for s in manifest["sources"]] == [_folder_fingerprint(src)]


# The code link's card child waits for the call counts (``link._CallCounts``) after its last
# batch: neither side of that wait may outlive the other. Run in a fresh interpreter, under a
# timeout, so that a regression fails here instead of hanging the suite.
_COUNTS_SCRIPT = """
import os, signal, sys, time
os.environ["V8ATLAS_JOBS"] = "2"
from v8atlas.compiler import pool
from v8atlas.compiler.code.link import _CallCounts
counts = _CallCounts(100, shared=True)
mine = os.getpid()
def task(i):
    if os.getpid() != mine:
        open(sys.argv[2], "w").write(str(os.getpid()))
    return i
def finish(r):
    counts.wait()
    return r
def first():
    time.sleep(0.5)        # the child has taken its tasks and waits for the counts
    if sys.argv[1] == "child":
        os.kill(int(open(sys.argv[2]).read()), signal.SIGKILL)
        time.sleep(0.2)
        counts.publish([0] * 100, [0] * 100)
    else:
        os.kill(mine, signal.SIGKILL)
try:
    with pool.session():
        list(pool.fork_share(task, list(range(50)), None, first=first, finish=finish))
except RuntimeError as e:
    print("raised:", e)
"""


def test_a_card_child_killed_while_it_waits_for_the_call_counts_fails_the_compile(tmp_path):
    got = subprocess.run([sys.executable, "-c", _COUNTS_SCRIPT, "child", str(tmp_path / "pid")],
                         capture_output=True, text=True, timeout=60)
    assert "raised: a forked compile step ended without an answer" in got.stdout, got.stderr


def test_a_card_child_whose_parent_is_killed_ends_instead_of_waiting(tmp_path):
    pid_file = tmp_path / "pid"
    got = subprocess.run([sys.executable, "-c", _COUNTS_SCRIPT, "parent", str(pid_file)],
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == -signal.SIGKILL
    child = int(pid_file.read_text())
    for _ in range(500):         # it polls its parent every few milliseconds
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        threading.Event().wait(0.01)
    os.kill(child, signal.SIGKILL)
    pytest.fail("the card child went on waiting for a parent that was gone")


# The code domain's read shared with a forked child (``pool.read_shared``): a child killed or
# failing mid-read fails the source's parse with what happened, instead of hanging the compile
# or leaving its modules out unsaid. In a fresh interpreter, under a timeout.
_READ_SCRIPT = """
import os, signal, sys, time
os.environ["V8ATLAS_JOBS"] = "2"
os.environ["V8ATLAS_APART"] = sys.argv[4]
from v8atlas.compiler.code import read as code_read
from v8atlas.compiler.pipeline import compile_bundle
code_read.POOL_THRESHOLD = 1
code_read._STEP = 1
mine = os.getpid()
read_one = code_read._read_one
def dying(files, rel, ref, packer):
    if os.getpid() == mine:
        time.sleep(0.05)         # the child claims its share meanwhile
    elif sys.argv[1] == "killed":
        os.kill(os.getpid(), signal.SIGKILL)
    else:
        raise MemoryError("no memory left")
    return read_one(files, rel, ref, packer)
code_read._read_one = dying
result = compile_bundle([sys.argv[2]], sys.argv[3], quiet=True, cache=False)
for e in result.report.errors:
    print("error:", e.code, e.message)
print("published", result.bundle_path.name)
"""


@pytest.mark.parametrize("apart", ["1", "0"])
@pytest.mark.parametrize("how", ["killed", "raised"])
def test_a_code_read_child_killed_or_failing_fails_the_parse_and_says_why(tmp_path, how, apart):
    """The child reading modules — the code domain's own (run apart), or the read's second
    process (``V8ATLAS_APART=0``) — killed or raising: its source's parse is reported failed,
    and the rest is compiled and published."""
    got = subprocess.run([sys.executable, "-c", _READ_SCRIPT, how, str(EXAMPLES / "config-designer"),
                          str(tmp_path / "out"), apart], capture_output=True, text=True, timeout=120)
    said = {"killed": "error: source-failed RuntimeError: a forked compile step ended without an answer",
            "raised": "error: source-failed MemoryError: no memory left"}[how]
    assert said in got.stdout, got.stdout + got.stderr
    assert "published" in got.stdout, got.stdout + got.stderr


def _killed_holding_the_lock(claims: pool.Claims) -> None:
    with claims._locked():
        os.kill(os.getpid(), signal.SIGKILL)


def test_claims_taken_after_a_process_died_holding_their_lock(monkeypatch):
    # The claims' lock is the kernel's: a child killed inside ``take`` does not hang the other side.
    claims = pool.Claims(10, 3)
    child = pool.get_context("fork").Process(target=_killed_holding_the_lock, args=(claims,))
    child.start()
    child.join(10)
    assert child.exitcode == -signal.SIGKILL
    done = threading.Event()
    got: list[tuple[int, int]] = []
    taker = threading.Thread(target=lambda: (got.extend(claims.ranges(front=True)), done.set()), daemon=True)
    taker.start()
    assert done.wait(10), "the claims stayed locked by a dead process"
    assert got == [(0, 3), (3, 6), (6, 9), (9, 10)]


def _slow_back() -> Callable[[int, int], list[int]]:
    def claim(lo: int, hi: int) -> list[int]:
        threading.Event().wait(0.02)
        return list(range(lo, hi))
    return claim


def _failing_back() -> Callable[[int, int], list[int]]:
    def claim(lo: int, hi: int) -> list[int]:
        raise MemoryError("no memory left in the child")
    return claim


def test_a_shared_read_whose_own_share_fails_stops_its_child(monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    children: list[pool.Forked] = []
    real_fork_call = pool.fork_call
    monkeypatch.setattr(pool, "fork_call", lambda *a: children.append(real_fork_call(*a)) or children[-1])

    def front(lo: int, hi: int) -> None:
        if lo >= 2:
            raise ValueError("this share failed")
        threading.Event().wait(0.02)

    with pool.session():
        with pytest.raises(ValueError, match="this share failed"):
            pool.read_shared(400, 1, front, _slow_back)
        process = children[0]._process
        assert not process.is_alive(), "the child went on reading a share nobody will take"


def test_a_shared_read_raises_the_childs_failure_before_reading_everything(monkeypatch):
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    read: list[int] = []

    def front(lo: int, hi: int) -> None:
        threading.Event().wait(0.005)
        read.extend(range(lo, hi))

    with pool.session():
        with pytest.raises(MemoryError, match="no memory left in the child"):
            pool.read_shared(2000, 1, front, _failing_back)
    assert len(read) < 1000, f"the parent read {len(read)} of 2000 tasks before it heard of the failure"


def _sized_claims(size: int):
    """A ``read_shared`` child's claim maker: a claim's answer is ``size`` bytes a task, its
    first task's index written in them (``back`` of the stream test)."""
    def claim(lo: int, hi: int) -> bytes:
        return lo.to_bytes(4, "little") * ((hi - lo) * size // 4)
    return claim


def test_a_shared_read_streams_the_childs_answers_and_sends_what_does_not_fit_at_the_end(monkeypatch):
    """``read_shared`` with ``room``: the child's answers come through the shared mapping as its
    claims are done, handed to ``arrived`` (the parent's claims go on meanwhile); an answer
    larger than the room left comes with the child's answer at the end. Every claim is answered
    once, in task order, the same bytes either way; ``done`` runs once the parent's share is over."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    mine, arrived, done = [], [], []

    def front(lo: int, hi: int) -> None:
        mine.append((lo, hi))
        time.sleep(0.05)               # the child claims its share meanwhile
    with pool.session():
        got = pool.read_shared(60, 3, front, _sized_claims, 64, room=64 * 3 * 12,
                               arrived=lambda lo, hi, answer: arrived.append((lo, hi, bytes(answer))),
                               done=lambda: done.append(len(arrived)))
    assert got and len(done) == 1
    assert [lo for lo, _hi, _a in got] == sorted(lo for lo, _hi, _a in got)
    assert sorted((lo, hi) for lo, hi, _a in got) == sorted((lo, hi) for lo, hi, _a in arrived)
    covered = sorted(mine + [(lo, hi) for lo, hi, _a in got])
    assert [x for lo, hi in covered for x in range(lo, hi)] == list(range(60))
    for lo, hi, answer in got:
        assert bytes(answer) == _sized_claims(64)(lo, hi)
    streamed = [a for _lo, _hi, a in got if isinstance(a, memoryview)]
    assert streamed and len(streamed) < len(got)   # the room held some of them, not all


def _talking_child(conn, seen: list[str], ready: str) -> None:
    """A ``fork_talk`` child: waits (10 s at most) for ``ready`` to exist before it reads
    anything — if it never does, it reads and answers that it was not ready — then answers
    each message's length with what it saw of the parent's data, and raises on ``"fail"``."""
    for _ in range(1000):
        if os.path.exists(ready):
            break
        time.sleep(0.01)
    else:
        conn.recv()
        pool.answer(conn, ("never ready", seen[0], os.getpid()))
    while True:
        message = conn.recv()
        if message == "fail":
            raise LookupError("no such object: Справочник.НетТакого")
        if message == "stop":
            return
        pool.answer(conn, (len(message), seen[0], os.getpid()))


def test_a_talking_child_answers_each_message_and_its_failure_is_raised_here(tmp_path, monkeypatch):
    """``fork_talk``: a child that sees the parent's data as it was and converses through its
    pipe. A message larger than the pipe holds does not wait for the child to read it (the
    child reads nothing until the parent, past its send, says so); what the child raises is
    raised by the parent's next ``recv``."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    ready = tmp_path / "ready"
    big = "Справочник.Номенклатура " * 200_000            # ~5 MB pickled: far over a pipe's buffer
    with pool.session():
        talk = pool.fork_talk(_talking_child, ["как было"], str(ready))
        talk.send(big)
        ready.touch()                                    # reached only if the send did not block
        size, seen, pid = talk.recv()
        assert (size, seen) == (len(big), "как было") and pid != os.getpid()
        talk.send("fail")
        with pytest.raises(LookupError, match="Справочник.НетТакого"):
            talk.recv()
        other = pool.fork_talk(_talking_child, ["ещё"], str(ready))
        other.send("stop")
        other.close()


def test_serial_streams_share_no_step_but_still_fork_background_jobs(monkeypatch):
    """``set_serial``: a step that would share its work with a child runs in-process
    (``split_call``, ``jobs()`` 1, ``fork_share``), an independent one still forks
    (``fork_call``); the session's end ends it."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    texts = ["Справочник Пользователи"]
    with pool.session():
        assert pool.splits() and pool.jobs() == 2
        assert pool.split_call(_first_words_and_pid, texts).result()[1] != os.getpid()
        pool.set_serial(True)
        assert not pool.splits() and pool.forks() and pool.jobs() == 1
        assert pool.split_call(_first_words_and_pid, texts).result()[1] == os.getpid()
        assert pool.fork_call(_first_words_and_pid, texts).result()[1] != os.getpid()
        shared = list(pool.fork_share(_state_item_and_pid, [0, 1], ["а", "б"]))
        assert {pid for _i, (_item, pid) in shared} == {os.getpid()}
    with pool.session():
        assert pool.splits()


def _dying_child(conn, ready: str) -> None:
    """A ``fork_talk`` child killed (out of memory, say) once the parent's message is sent."""
    for _ in range(1000):
        if os.path.exists(ready):
            break
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_talking_child_killed_with_a_message_unread_is_said_gone(tmp_path, monkeypatch):
    """A child that dies with the parent's message unread resets the pipe: the parent's next
    ``recv`` raises ``ChildGone`` with the child's exit code, as for a child that ended."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    ready = tmp_path / "ready"
    with pool.session():
        talk = pool.fork_talk(_dying_child, str(ready))
        talk.send({"inputs": "Справочник.Номенклатура " * 100})
        time.sleep(0.05)               # (its bytes in the child's socket before it dies)
        ready.touch()
        with pytest.raises(pool.ChildGone, match=r"ended without an answer \(exit code -9\)"):
            talk.recv()


def test_serial_streams_split_again_while_the_other_waits(monkeypatch):
    """``set_serial``'s ``busy``: while the other stream waits (says ``busy()`` False), a step
    asked then shares its work again (``splits()``, ``jobs()``); while it works, not."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    other_works = [True]
    texts = ["Справочник Пользователи"]
    with pool.session():
        pool.set_serial(True, busy=lambda: other_works[0])
        assert not pool.splits() and pool.jobs() == 1
        assert pool.split_call(_first_words_and_pid, texts).result()[1] == os.getpid()
        other_works[0] = False
        assert pool.splits() and pool.jobs() == 2
        assert pool.split_call(_first_words_and_pid, texts).result()[1] != os.getpid()
