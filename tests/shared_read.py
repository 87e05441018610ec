"""A read shared for sure (``pool.read_shared``) in tests, whose dumps are small: this process
takes the first claim only and the forked child, waiting for that claim, all the others. Only
the reads' claims are so split (the fingerprint's and the link's keep theirs)."""
from __future__ import annotations

import struct
import time

from v8atlas.compiler import pool


class _OneThenTheChild(pool.Claims):
    def take(self, front: bool) -> tuple[int, int]:
        lo = struct.unpack_from("<q", self.range, 0)[0]
        if front:
            return super().take(True) if lo == 0 else (lo, lo)
        deadline = time.monotonic() + 60     # a regression fails the test, not hangs the suite
        while lo == 0:
            assert time.monotonic() < deadline, "the parent never took its first claim"
            time.sleep(0.001)
            lo = struct.unpack_from("<q", self.range, 0)[0]
        return super().take(False)


def one_claim_then_the_child(monkeypatch) -> None:
    read_shared = pool.read_shared

    def shared(*args, **kwargs):
        claims = pool.Claims
        pool.Claims = _OneThenTheChild
        try:
            return read_shared(*args, **kwargs)
        finally:
            pool.Claims = claims

    monkeypatch.setattr(pool, "read_shared", shared)
