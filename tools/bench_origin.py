"""The cost of moving bundles: one publish and one pull+verify per bundle, and the memory of
one process serving several bundles against one process per bundle.

    .venv/bin/python tools/bench_origin.py pull BUNDLES... [--repeat 3]
    .venv/bin/python tools/bench_origin.py memory BUNDLES_DIR BUNDLES_DIR BUNDLES_DIR

``pull``: publishes each bundle to a file:// origin and to a local static HTTP origin (Python's
ThreadingHTTPServer on loopback), then times ``formats.origin.pull`` into an empty cache
(download, sha256 of every file, verify) — best and median of ``--repeat``.
``memory``: starts ``v8atlas serve`` once with every bundles directory and once per directory,
sends each configuration the same warm-up calls, and prints RSS and PSS (from
/proc/PID/smaps_rollup: shared pages split between the processes that map them).
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from v8atlas.formats.origin import publish, pull
from v8atlas.formats.publish import resolve_bundle_path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def bench_pull(paths: list[str], repeat: int) -> None:
    for spec in paths:
        bundle = resolve_bundle_path(spec)
        size = sum(p.stat().st_size for p in bundle.iterdir())
        with tempfile.TemporaryDirectory(prefix="v8atlas-origin-") as tmp:
            root = Path(tmp) / "www"
            t0 = time.perf_counter()
            publish(bundle, f"file://{root}/")
            t_publish = time.perf_counter() - t0
            port = _free_port()
            httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                                    functools.partial(_Quiet, directory=str(root)))
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            try:
                for label, url in (("file://", f"file://{root}/"), ("http://", f"http://127.0.0.1:{port}/")):
                    times = []
                    for i in range(repeat):
                        cache = Path(tmp) / f"cache-{label[:4]}-{i}"
                        t0 = time.perf_counter()
                        pull(url, bundle.name, cache)
                        times.append(time.perf_counter() - t0)
                        shutil.rmtree(cache)
                    print(f"{bundle.name}: {size / 2**20:.1f} MiB; publish to file:// {t_publish:.2f} s; "
                          f"pull+verify over {label} best {min(times):.2f} s, median "
                          f"{statistics.median(times):.2f} s ({repeat} runs)")
            finally:
                httpd.shutdown()


def _mem(pid: int) -> tuple[float, float]:
    rss = pss = 0.0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) / 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) / 1024
    return rss, pss


def _get(url: str, timeout: float = 30) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


def _wait_ready(base: str, timeout: float = 120) -> None:
    t0 = time.time()
    while time.time() - t0 < timeout:
        try:
            if _get(f"{base}/ready", 2).get("ready"):
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError(base)


def _warm(base: str) -> None:
    """The same calls for every configuration a server lists: cards, searches, relations."""
    configs = [c["name"] for c in _get(f"{base}/api/list_sources")["data"]["configs"]]
    from urllib.parse import urlencode
    for c in configs:
        for tool, args in (("search_metadata", {"query": "пользователи", "config": c}),
                           ("search_metadata", {"query": "заказ покупателя", "config": c}),
                           ("get_object", {"name": "Справочник.Пользователи", "config": c, "detail": "full"}),
                           ("get_relations", {"name": "Справочник.Пользователи", "config": c})):
            try:
                _get(f"{base}/api/{tool}?{urlencode(args)}")
            except OSError:
                pass


def _serve(dirs: list[str]) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "v8atlas", "serve", "--port", str(port), "--poll", "0", "--log-level", "WARNING"]
    for d in dirs:
        cmd += ["--bundles", d]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={k: v for k, v in os.environ.items() if k not in ("API_TOKEN", "ADMIN_TOKEN")})
    base = f"http://127.0.0.1:{port}"
    _wait_ready(base)
    _warm(base)
    return proc, base


def bench_memory(dirs: list[str]) -> None:
    procs = []
    try:
        one, _ = _serve(dirs)
        procs.append(one)
        rss1, pss1 = _mem(one.pid)
        one.terminate()
        one.wait(10)
        many = [_serve([d])[0] for d in dirs]
        procs += many
        mems = [_mem(p.pid) for p in many]
        rss3, pss3 = sum(m[0] for m in mems), sum(m[1] for m in mems)
        print(f"one process, {len(dirs)} bundles: RSS {rss1:.0f} MB, PSS {pss1:.0f} MB")
        print(f"{len(dirs)} processes, one bundle each: RSS {rss3:.0f} MB in all "
              f"({', '.join(f'{m[0]:.0f}' for m in mems)}), PSS {pss3:.0f} MB in all")
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("pull")
    p.add_argument("bundles", nargs="+")
    p.add_argument("--repeat", type=int, default=3)
    m = sub.add_parser("memory")
    m.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    if args.mode == "pull":
        bench_pull(args.bundles, args.repeat)
    else:
        bench_memory(args.dirs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
