"""nginx in front of replicas on loopback, nginx as the static origin, and a bounded load run.

Used by tests/test_balancer.py (and for the figures in docs/performance.md). Everything binds
127.0.0.1 on free ports; every process started here is stopped by ``Cluster.stop``.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


NGINX_CONF = """
{user}
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    log_format up '$status $upstream_addr $upstream_status';
    # The origin: a static folder, GET with ETag (nginx's default), PUT to publish.
    server {{
        listen 127.0.0.1:{origin_port};
        root {root}/www;
        client_max_body_size 1g;
        location / {{ dav_methods PUT; create_full_put_path on; dav_access user:rw group:r all:r; }}
    }}
    upstream replicas {{
{upstreams}
        keepalive 16;
    }}
    # The balancer: a replica that refuses, drops or is not ready (503) is skipped for the next.
    server {{
        listen 127.0.0.1:{lb_port};
        access_log {root}/lb.log up;
        location / {{
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host 127.0.0.1;
            proxy_connect_timeout 1s;
            proxy_read_timeout 10s;
            proxy_next_upstream error timeout http_502 http_503 http_504;
            proxy_next_upstream_tries 3;
        }}
    }}
}}
"""


@dataclass
class Replica:
    port: int
    cache: Path
    log: Path
    proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Cluster:
    root: Path
    n: int = 3
    poll: float = 1.0
    origin_port: int = field(default_factory=free_port)
    lb_port: int = field(default_factory=free_port)
    replicas: list[Replica] = field(default_factory=list)
    nginx: subprocess.Popen | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.origin_port}/"

    @property
    def lb(self) -> str:
        return f"http://127.0.0.1:{self.lb_port}"

    def start_nginx(self) -> None:
        for d in ("www", "body", "proxy", "fcgi", "uwsgi", "scgi"):
            (self.root / d).mkdir(parents=True, exist_ok=True)
        self.replicas = [Replica(free_port(), self.root / f"cache{i}", self.root / f"replica{i}.log")
                         for i in range(self.n)]
        ups = "\n".join(f"        server 127.0.0.1:{r.port} max_fails=1 fail_timeout=2s;" for r in self.replicas)
        conf = self.root / "nginx.conf"
        conf.write_text(NGINX_CONF.format(user="user root;" if os.geteuid() == 0 else "", root=self.root,
                                          origin_port=self.origin_port, lb_port=self.lb_port, upstreams=ups))
        self.nginx = subprocess.Popen([nginx_binary(), "-c", str(conf), "-p", str(self.root),
                                       "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                                      stderr=open(self.root / "nginx.stderr", "wb"))

    def start_replica(self, r: Replica) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("API_TOKEN", "ADMIN_TOKEN")}
        r.proc = subprocess.Popen(
            [sys.executable, "-m", "v8atlas", "serve", "--bundles", self.origin, "--cache", str(r.cache),
             "--port", str(r.port), "--poll", str(self.poll), "--log-level", "WARNING"],
            stdout=subprocess.DEVNULL, stderr=open(r.log, "ab"), env=env)

    def kill_replica(self, r: Replica) -> None:
        if r.proc is not None and r.proc.poll() is None:
            r.proc.send_signal(signal.SIGKILL)
            r.proc.wait(10)

    def stop(self) -> None:
        for proc in [r.proc for r in self.replicas] + [self.nginx]:
            _terminate(proc)

    def lb_retries(self) -> int:
        """Requests nginx had to send to a second replica (the log lists several upstreams)."""
        try:
            return sum(1 for line in (self.root / "lb.log").read_text().splitlines() if "," in line)
        except OSError:
            return 0


def _terminate(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


async def wait_ready(s: aiohttp.ClientSession, base: str, bundle: str | None, timeout: float) -> float:
    """Seconds until ``base``/ready serves ``bundle`` (any when None); raises on timeout."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        try:
            async with s.get(f"{base}/ready", timeout=aiohttp.ClientTimeout(total=2)) as r:
                body = await r.json()
                if body.get("ready") and (bundle is None or body.get("bundle") == bundle):
                    return time.perf_counter() - t0
        except (aiohttp.ClientError, asyncio.TimeoutError, ValueError):
            pass
        await asyncio.sleep(0.05)
    raise TimeoutError(f"{base} did not serve {bundle or 'a bundle'} within {timeout} s")


@dataclass
class LoadResult:
    ok: int = 0
    failed: int = 0
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    bundles: dict[str, int] = field(default_factory=dict)

    def pct(self, q: float) -> float:
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")

    def line(self, label: str) -> str:
        return (f"{label}: {self.ok + self.failed} requests, {self.failed} failed, "
                f"p50 {self.pct(0.5):.1f} ms, p99 {self.pct(0.99):.1f} ms")


QUERIES = [("get_object", {"name": "Справочник.Номенклатура", "config": "Демо"}),
           ("search_metadata", {"query": "заказ", "config": "Демо"}),
           ("list_sources", {})]


async def load(base: str, seconds: float, concurrency: int = 4,
               until: asyncio.Event | None = None) -> LoadResult:
    """GET /api/<tool> from ``concurrency`` clients for ``seconds`` (and, given ``until``, until
    it is set: a slow machine must not end the run before what it watches happened); a non-200
    answer is a failure."""
    res = LoadResult()
    stop_at = time.perf_counter() + seconds

    def running() -> bool:
        return time.perf_counter() < stop_at or (until is not None and not until.is_set())

    async def client(k: int) -> None:
        async with aiohttp.ClientSession() as s:
            i = k
            while running():
                tool, params = QUERIES[i % len(QUERIES)]
                i += 1
                t0 = time.perf_counter()
                try:
                    async with s.get(f"{base}/api/{tool}", params=params,
                                     timeout=aiohttp.ClientTimeout(total=15)) as r:
                        body = await r.json()
                        if r.status != 200:
                            res.failed += 1
                            res.failures.append(f"{r.status} {str(body)[:120]}")
                            continue
                        if tool == "list_sources":
                            b = body["data"]["bundle"]["id"]
                            res.bundles[b] = res.bundles.get(b, 0) + 1
                except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as e:
                    res.failed += 1
                    res.failures.append(f"{type(e).__name__}: {e}")
                    continue
                res.ok += 1
                res.latencies.append(time.perf_counter() - t0)

    await asyncio.gather(*(client(k) for k in range(concurrency)))
    return res
