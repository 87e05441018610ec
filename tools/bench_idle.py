#!/usr/bin/env python3
"""Idle and slow clients: how many of N sockets a running server keeps open, second by second.

    .venv/bin/python tools/bench_idle.py [--sockets 1000] [--seconds 25]

Starts ``v8atlas serve`` on the sample bundle (tests/bundle_factory.py) on 127.0.0.1, opens
``--sockets`` connections (half send nothing, half send an unfinished request header), and
prints how many the server still holds every few seconds, then whether a fresh request is
still answered. Nothing is asserted; docs/performance.md records a run.
"""
from __future__ import annotations

import argparse
import http.client
import os
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port: int, limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/health")
            if c.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sockets", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=25)
    args = ap.parse_args()
    from bundle_factory import build_sample
    tmp = Path(tempfile.mkdtemp(prefix="v8atlas-idle-"))
    build_sample(tmp / "b")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "v8atlas.cli", "serve", "--bundles", str(tmp / "b"),
                               "--port", str(port), "--poll", "0", "--log-level", "WARNING"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "API_TOKEN": "", "ADMIN_TOKEN": ""})
    socks: list[socket.socket] = []
    try:
        wait_ready(port)
        sel = selectors.DefaultSelector()
        for i in range(args.sockets):
            s = socket.create_connection(("127.0.0.1", port))
            if i % 2:
                s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # never finished
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
            socks.append(s)
        print(f"opened {len(socks)} sockets ({len(socks) // 2} silent, {len(socks) - len(socks) // 2} "
              f"with an unfinished header); load average {os.getloadavg()[0]:.1f}")
        open_now = set(socks)
        t0 = time.monotonic()
        next_print = 0.0
        while time.monotonic() - t0 < args.seconds:
            for key, _ in sel.select(timeout=0.5):
                s = key.fileobj
                try:
                    data = s.recv(4096)
                except (ConnectionResetError, BlockingIOError):
                    data = b""
                if not data:
                    sel.unregister(s)
                    open_now.discard(s)
            elapsed = time.monotonic() - t0
            if elapsed >= next_print:
                print(f"  t={elapsed:5.1f} s: {len(open_now)} of {len(socks)} still open")
                next_print += 5
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", "/health")
        print(f"after {args.seconds:g} s: {len(open_now)} still open; a fresh /health answers "
              f"{c.getresponse().status}")
    finally:
        for s in socks:
            s.close()
        server.terminate()
        server.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
