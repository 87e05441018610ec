"""A wall-clock bound around a step of parsing untrusted input (one help page).

Parsers are written to run in linear time; this is the second line: a step that still runs
past its bound is interrupted with ``TimeLimitExceeded`` (SIGALRM; Python's regex engine
checks for signals, so a runaway match is interrupted too) and the caller skips that piece.
Only the main thread can take signals: elsewhere (and on systems without ``setitimer``) the
step runs unbounded.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


class TimeLimitExceeded(Exception):
    """The step ran past its bound."""


def _can_alarm() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    if seconds <= 0 or not _can_alarm():
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise TimeLimitExceeded(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
