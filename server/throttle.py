"""Failed logins and wrong tokens, counted per client: guessing is slowed to a crawl.

A client (its address as the socket reports it) may fail ``MAX_FAILURES`` times within
``WINDOW_S`` seconds; past that every request of it that presents a token or a login is
answered 429 with ``Retry-After`` until the window has moved on, right token or not (a right
token let through while blocked would still tell a guesser when it hit). Tokens are at least
32 characters (auth.py), so the limit is for defence in depth; it is generous so that people
mistyping a token are not locked out. Behind a reverse proxy every client has the proxy's
address and shares one budget.

Memory is bounded: at most ``MAX_CLIENTS`` addresses are tracked, the stalest dropped first.
"""
from __future__ import annotations

import time
from collections import OrderedDict, deque

MAX_FAILURES = 20
WINDOW_S = 60.0
MAX_CLIENTS = 10_000


class FailureThrottle:
    def __init__(self, max_failures: int = MAX_FAILURES, window_s: float = WINDOW_S,
                 max_clients: int = MAX_CLIENTS) -> None:
        self.max_failures = max_failures
        self.window_s = window_s
        self.max_clients = max_clients
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, client: str, now: float) -> deque[float] | None:
        times = self._failures.get(client)
        if times is None:
            return None
        while times and times[0] <= now - self.window_s:
            times.popleft()
        if not times:
            del self._failures[client]
            return None
        return times

    def retry_after(self, client: str, now: float | None = None) -> int:
        """Seconds until ``client`` may try again; 0 when it is not blocked."""
        now = time.monotonic() if now is None else now
        times = self._recent(client, now)
        if times is None or len(times) < self.max_failures:
            return 0
        return max(1, int(times[-self.max_failures] + self.window_s - now + 0.999))

    def failed(self, client: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        times = self._recent(client, now)
        if times is None:
            times = self._failures[client] = deque(maxlen=self.max_failures)
            while len(self._failures) > self.max_clients:
                self._failures.popitem(last=False)
        else:
            self._failures.move_to_end(client)
        times.append(now)


def client_of(request) -> str:
    """The address a request came from (the peer of the socket; never a header)."""
    return request.remote or "?"
