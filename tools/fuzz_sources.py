#!/usr/bin/env python3
"""Seeded, bounded fuzzing of the compiler's readers over real files: v8 containers and help books.

    python3 tools/fuzz_sources.py [--cases 600] [--seed 17] [--seconds 300] [--data ../shared/data]

Each case takes one real file (``containers/*.cf|*.epf``, ``help/*/*.hbk``), mutates it (bit
flips, overwritten or duplicated ranges, truncation, hostile byte runs, rewritten hex sizes in
block headers) and reads it the way a compile does: every element of a container (inflated,
nested containers opened one level down); a help book opened and all its pages parsed. A
case fails when the reader raises anything but its own refusal (``ContainerError``,
``HelpBookError``) or a page is left unreported. Prints cases, failures (with their seed, to
replay one: ``--seed S --cases 1``) and the slowest case. Exit status 1 if any case failed.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

from v8atlas.compiler.help.context_book import read_context_book
from v8atlas.compiler.help.hbk import HelpBookError, open_book
from v8atlas.compiler.help.query_book import read_query_book
from v8atlas.compiler.v8container import (
    Container,
    ContainerError,
    inflate_if_deflated,
    is_container,
)

REPO = Path(__file__).resolve().parent.parent
HOSTILE_RUNS = (b"\xd0a" * 4096, b"<h1 " * 4096, b'<p class="V8SH_title">x' * 2048, b"{" * 20000,
                b"9" * 6000, b"\xff" * 4096, b"\x00" * 8192, b"PK\x03\x04" * 512)


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutation of ``data`` and a short description of it."""
    b = bytearray(data)
    kind = rng.choice(("flip", "overwrite", "truncate", "duplicate", "hostile", "header", "zero"))
    n = len(b)
    at = rng.randrange(max(n, 1))
    if kind == "flip":
        for _ in range(rng.randint(1, 16)):
            i = rng.randrange(n)
            b[i] ^= 1 << rng.randrange(8)
    elif kind == "overwrite":
        length = rng.randint(1, 512)
        b[at:at + length] = bytes(rng.randrange(256) for _ in range(length))
    elif kind == "truncate":
        del b[at:]
    elif kind == "duplicate":
        length = rng.randint(1, 4096)
        b[at:at] = b[at:at + length]
    elif kind == "hostile":
        b[at:at] = rng.choice(HOSTILE_RUNS)
    elif kind == "header":
        # block headers: "\r\n<8 hex> <8 hex> <8 hex> \r\n" — make a size or address lie
        starts = [i for i in range(0, n - 31) if b[i:i + 2] == b"\r\n" and b[i + 10:i + 11] == b" "]
        if starts:
            i = rng.choice(starts) + 2 + 9 * rng.randrange(3)
            b[i:i + 8] = rng.choice((b"7fffffff", b"ffffffff", b"00000000", f"{rng.randrange(1 << 32):08x}".encode()))
    else:
        length = rng.randint(1, 4096)
        b[at:at + length] = bytes(min(length, n - at))
    return bytes(b), f"{kind}@{at}"


def read_container(data: bytes, name: str) -> None:
    try:
        outer = Container(data, name=name)
        for el in outer.elements:
            body, _ = inflate_if_deflated(outer.read(el), max_size=64 << 20)
            if is_container(body):
                inner = Container(body, name=f"{name}/{el.name}")
                for sub in inner.elements:
                    inflate_if_deflated(inner.read(sub), max_size=64 << 20)
    except ContainerError:
        pass                      # a refusal naming the element: the expected outcome


def read_book(path: Path) -> None:
    try:
        book = open_book(path)
    except (HelpBookError, ContainerError):
        return
    seen: list[str] = []

    def warn(page: str, message: str) -> None:
        seen.append(page)

    if book.name == "SyntaxHelperQueries":
        read_query_book(book, warn)
    else:
        read_context_book(book, warn, lambda page, what: None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=600)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--seconds", type=float, default=300, help="stop early after this long")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    args = ap.parse_args(argv)
    containers = sorted((args.data / "containers").glob("*.[ce][fp]f"))
    books = sorted((args.data / "help").glob("*/*.hbk"))
    if not containers and not books:
        print(f"no containers or help books under {args.data}", file=sys.stderr)
        return 2
    originals = {p: p.read_bytes() for p in containers + books}
    work = Path(tempfile.mkdtemp(prefix="v8atlas-fuzz-"))
    failures: list[str] = []
    slowest = (0.0, "")
    per_kind = {"container": 0, "book": 0}
    t_start = time.perf_counter()
    done = 0
    try:
        for case in range(args.cases):
            if time.perf_counter() - t_start > args.seconds:
                break
            seed = args.seed * 1_000_003 + case
            rng = random.Random(seed)
            src = rng.choice(rng.choice([c for c in (containers, books) if c]))
            data, what = mutate(originals[src], rng)
            label = f"seed {seed} {src.parent.name}/{src.name} {what}"
            t0 = time.perf_counter()
            try:
                if src.suffix == ".hbk":
                    per_kind["book"] += 1
                    target = work / src.parent.name / src.name
                    target.parent.mkdir(exist_ok=True)
                    target.write_bytes(data)
                    read_book(target)
                else:
                    per_kind["container"] += 1
                    read_container(data, src.name)
            except Exception:  # anything but the readers' own refusals is a failure
                failures.append(f"{label}: {traceback.format_exc(limit=3).strip().splitlines()[-1]}")
            elapsed = time.perf_counter() - t0
            if elapsed > slowest[0]:
                slowest = (elapsed, label)
            done += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"cases {done} ({per_kind['container']} containers, {per_kind['book']} help books), "
          f"seed {args.seed}, {time.perf_counter() - t_start:.1f} s")
    print(f"failures {len(failures)}")
    for f in failures[:20]:
        print(f"  {f}")
    print(f"slowest case {slowest[0] * 1000:.0f} ms: {slowest[1]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
