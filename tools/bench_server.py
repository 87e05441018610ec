#!/usr/bin/env python3
"""Server benchmark: start cost, memory, per-call latency, a loopback load run with a hot swap.

    .venv/bin/python tools/bench_server.py [--bundles DIR] [--duration 30] [--clients 50] [--json]

Without --bundles a synthetic bundle (10,000 objects, 5,000 platform elements) is built in a
temporary folder with tests/bundle_factory.py. Every figure is printed with what produced it;
nothing is asserted (docs/perf/server.md records a run). Traffic goes to 127.0.0.1 only and
every loop is bounded in time.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
PY = sys.executable
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2025-11-25"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def rpc(tool: str, args: dict, rid: int = 1) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                       "params": {"name": tool, "arguments": args}}, ensure_ascii=False).encode()


# -- the bundle and the calls ---------------------------------------------------------------------
def prepare_bundles(args: argparse.Namespace, work: Path) -> Path:
    if args.bundles:
        return Path(args.bundles)
    from bundle_factory import build_bundle, synthetic_docs
    docs, edges, info = synthetic_docs(args.objects, args.platform)
    out = work / "bundles"
    t0 = time.perf_counter()
    build_bundle(out, docs, edges=edges, info=info, name="bench")
    print(f"built a synthetic bundle ({args.objects} objects, {args.platform} platform elements) "
          f"in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return out


def mixed_calls(bundles: Path, n: int = 200, seed: int = 3) -> list[tuple[str, dict]]:
    """Realistic calls for whatever the bundle holds: exact names, searches, platform lookups."""
    from v8atlas.formats import Bundle
    from v8atlas.server.snapshot import Snapshot
    snap = Snapshot(Bundle.open(bundles))
    rng = random.Random(seed)
    c = snap.catalog
    cfg = snap.configs[0].name if snap.configs else None
    meta = [d for d in range(len(c)) if c.domain_name(d) == "metadata" and c.config_name(d) == cfg]
    plat = [d for d in range(len(c)) if c.domain_name(d) != "metadata"]
    base = {"config": cfg} if cfg else {}
    calls: list[tuple[str, dict]] = [("list_sources", {})]
    for _ in range(n):
        r = rng.random()
        if meta and r < 0.35:
            calls.append(("get_object", {**base, "name": c.titles[rng.choice(meta)],
                                         "detail": rng.choice(["brief", "fields"])}))
        elif meta and r < 0.55:
            title = c.titles[rng.choice(meta)]
            word = title.split(".", 1)[-1][:6]
            calls.append(("search_metadata", {**base, "query": word, "limit": 10}))
        elif meta and r < 0.65:
            calls.append(("get_relations", {**base, "name": c.titles[rng.choice(meta)]}))
        elif plat and r < 0.85:
            calls.append(("get_platform", {**base, "name": c.titles[rng.choice(plat)]}))
        elif plat:
            calls.append(("search_platform", {**base, "query": c.titles[rng.choice(plat)].split(".")[-1][:5]}))
    return calls


# -- processes ----------------------------------------------------------------------------------------
def start_server(bundles: Path, port: int, env: dict | None = None, poll: float = 2.0) -> subprocess.Popen:
    return subprocess.Popen([PY, "-m", "v8atlas", "serve", "--bundles", str(bundles), "--port", str(port),
                             "--log-level", "WARNING", "--poll", str(poll)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})


def stop(proc: subprocess.Popen) -> str:
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err.decode(errors="replace")


def cpu_seconds(pid: int) -> float:
    """user + system CPU time a live process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CPU: dict[str, list[float]] = {"floor": [], "first_call": []}


def first_call_seconds(bundles: Path, call: tuple[str, dict], runs: int) -> list[float]:
    """Spawn → first successful tools/call over HTTP, wall time, ``runs`` times (CPU time of the
    server up to that answer goes to CPU["first_call"]: far less sensitive to a busy machine)."""
    out = []
    body = rpc(*call)
    for _ in range(runs):
        port = free_port()
        t0 = time.perf_counter()
        proc = start_server(bundles, port)
        try:
            deadline = t0 + 30
            while time.perf_counter() < deadline:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("POST", "/mcp", body, MCP_HEADERS)
                    resp = conn.getresponse()
                    data = resp.read()
                    conn.close()
                    if resp.status == 200 and b'"result"' in data and b'"isError":true' not in data:
                        out.append(time.perf_counter() - t0)
                        CPU["first_call"].append(cpu_seconds(proc.pid))
                        break
                except OSError:
                    time.sleep(0.002)
        finally:
            stop(proc)
    return out


def floor_seconds(runs: int) -> list[float]:
    import resource
    out = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([PY, "-c", "import mcp.server, aiohttp, numpy"], check=True)
        out.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        CPU["floor"].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return out


_OWN_COST_SCRIPT = r"""
import time, sys, json, asyncio
t0 = time.perf_counter()
import mcp.server, aiohttp, numpy            # the floor
t1 = time.perf_counter()
bundles, port, body = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
from v8atlas.server.cli import setup_logging, start
setup_logging("WARNING")

async def main():
    state, mcp, runner = await start(bundles, "127.0.0.1", port, "http", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"
                 b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    await writer.drain()
    data = await reader.read()
    t2 = time.perf_counter()
    ok = b" 200 " in data.split(b"\r\n", 1)[0] and b'"result"' in data and b'"isError":true' not in data
    print(json.dumps({"floor_ms": (t1 - t0) * 1000, "own_ms": (t2 - t1) * 1000, "ok": ok}), flush=True)
    await runner.cleanup()
asyncio.run(main())
"""


def own_cost_in_process(bundles: Path, call: tuple[str, dict], runs: int) -> list[dict]:
    """In one process: the floor's imports, then everything v8atlas adds up to the first
    answered tools/call over HTTP (its imports, opening the bundle, the MCP layer, the site,
    the request). Interpreter start-up is outside both figures, so machine noise matters less."""
    out = []
    for _ in range(runs):
        r = subprocess.run([PY, "-c", _OWN_COST_SCRIPT, str(bundles), str(free_port()), rpc(*call).decode()],
                           capture_output=True, text=True, timeout=60)
        line = next((ln for ln in r.stdout.splitlines() if ln.startswith("{")), None)
        if line and json.loads(line)["ok"]:
            out.append(json.loads(line))
    return out


def start_pairs(bundles: Path, call: tuple[str, dict], runs: int) -> tuple[list[float], list[float]]:
    """Floor and server start measured alternately, so machine load hits both alike."""
    floor, first = [], []
    for _ in range(runs):
        floor += floor_seconds(1)
        first += first_call_seconds(bundles, call, 1)
    return floor, first


def memory_of(pid: int) -> dict[str, float]:
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM"):
                fields[k] = int(v.split()[0]) / 1024
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("Private_Clean", "Private_Dirty"):
                    fields[k] = int(v.split()[0]) / 1024
    except OSError:
        pass
    return fields


# -- HTTP clients ---------------------------------------------------------------------------------------
async def sequential(base: str, calls: list[tuple[str, dict]], n: int, path: str = "/mcp") -> dict[str, list[float]]:
    import aiohttp
    per_tool: dict[str, list[float]] = {}
    errors = 0
    async with aiohttp.ClientSession() as s:
        for i in range(n):
            tool, args = calls[i % len(calls)]
            t0 = time.perf_counter()
            if path == "/mcp":
                async with s.post(base + "/mcp", data=rpc(tool, args, i), headers=MCP_HEADERS) as r:
                    data = await r.read()
                    ok = r.status == 200 and b'"result"' in data
            else:
                async with s.post(f"{base}/api/{tool}", json=args) as r:
                    await r.read()
                    ok = r.status == 200
            dt = (time.perf_counter() - t0) * 1000
            errors += not ok
            per_tool.setdefault(tool, []).append(dt)
    per_tool["_errors"] = [errors]
    return per_tool


async def load(base: str, calls: list[tuple[str, dict]], clients: int, duration: float,
               swap=None) -> dict:
    import aiohttp
    latencies: list[float] = []
    errors: list[str] = []
    bundles_seen: dict[str, int] = {}
    stop_at = time.perf_counter() + duration
    conn = aiohttp.TCPConnector(limit=clients)

    async def client(k: int) -> None:
        rng = random.Random(k)
        async with aiohttp.ClientSession(connector=conn, connector_owner=False) as s:
            i = 0
            while time.perf_counter() < stop_at:
                tool, args = calls[rng.randrange(len(calls))]
                t0 = time.perf_counter()
                try:
                    async with s.post(base + "/mcp", data=rpc(tool, args, i), headers=MCP_HEADERS) as r:
                        data = await r.read()
                        if r.status != 200 or b'"result"' not in data:
                            errors.append(f"{r.status} {data[:120]!r}")
                        elif b'"isError":true' in data:
                            errors.append(f"tool error {data[:200]!r}")
                except Exception as e:  # a failed request is counted, never hidden
                    errors.append(f"{type(e).__name__}: {e}")
                latencies.append((time.perf_counter() - t0) * 1000)
                i += 1

    async def watch() -> None:
        async with aiohttp.ClientSession() as s:
            while time.perf_counter() < stop_at:
                async with s.get(base + "/ready") as r:
                    b = (await r.json()).get("bundle")
                    bundles_seen[b] = bundles_seen.get(b, 0) + 1
                await asyncio.sleep(0.25)

    tasks = [asyncio.create_task(client(k)) for k in range(clients)] + [asyncio.create_task(watch())]
    swap_info = None
    if swap is not None:
        await asyncio.sleep(duration / 2)
        swap_info = await swap()
    await asyncio.gather(*tasks)
    await conn.close()
    return {"requests": len(latencies), "errors": len(errors), "error_examples": errors[:5],
            "p50_ms": pct(latencies, 50), "p99_ms": pct(latencies, 99),
            "rps": len(latencies) / duration, "bundles_seen": bundles_seen, "swap": swap_info}


def wait_ready(base: str, timeout: float = 30) -> None:
    import urllib.request
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/ready", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError("server not ready")


# -- main ------------------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bundles")
    ap.add_argument("--objects", type=int, default=10_000)
    ap.add_argument("--platform", type=int, default=5_000)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--start-runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="v8atlas-bench-"))
    report: dict = {"python": sys.version.split()[0], "cores": os.cpu_count(),
                    "loadavg_before": os.getloadavg()}
    try:
        bundles = prepare_bundles(args, work)
        from v8atlas.formats import Bundle
        b = Bundle.open(bundles)
        report["bundle"] = {"id": b.id, "size_mb": round(b.size_bytes / 2**20, 1), "counts": b.counts}
        calls = mixed_calls(bundles)

        # 1. tokens of tools/list + instructions
        try:
            from v8atlas.server.budget import count_tokens
            report["tokens"] = {enc: count_tokens(enc) for enc in ("o200k_base", "cl100k_base")}
        except ModuleNotFoundError as e:
            report["tokens"] = f"skipped: {e.name} not installed (pip install bpe-openai)"

        # 2. start → first tools/call, next to the import floor (interleaved runs, medians)
        start_call = next((c for c in calls if c[0] == "get_object"), calls[0])
        floor, first = start_pairs(bundles, start_call, args.start_runs)
        inproc = own_cost_in_process(bundles, start_call, max(args.start_runs, 5))
        report["start_in_process"] = {
            "floor_imports_median_ms": statistics.median(x["floor_ms"] for x in inproc),
            "own_median_ms": statistics.median(x["own_ms"] for x in inproc),
            "own_runs_ms": [round(x["own_ms"]) for x in inproc]}
        report["start"] = {"floor_median_ms": statistics.median(floor) * 1000,
                           "first_call_median_ms": statistics.median(first) * 1000,
                           "own_cost_ms": (statistics.median(first) - statistics.median(floor)) * 1000,
                           "floor_cpu_median_ms": statistics.median(CPU["floor"]) * 1000,
                           "first_call_cpu_median_ms": statistics.median(CPU["first_call"]) * 1000,
                           "own_cpu_ms": (statistics.median(CPU["first_call"]) - statistics.median(CPU["floor"])) * 1000,
                           "floor_runs_ms": [round(x * 1000) for x in floor],
                           "first_call_runs_ms": [round(x * 1000) for x in first]}

        # 3. sequential latency (MCP vs JSON API: the MCP layer + bridge overhead), memory after 1,000 calls
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start_server(bundles, port)
        try:
            wait_ready(base)
            mem0 = memory_of(proc.pid)
            asyncio.run(sequential(base, calls, 50))                      # warm-up
            mcp_seq = asyncio.run(sequential(base, calls, 1000))
            mem1 = memory_of(proc.pid)
            api_seq = asyncio.run(sequential(base, calls, 1000, path="/api"))
            all_mcp = [x for k, v in mcp_seq.items() if not k.startswith("_") for x in v]
            all_api = [x for k, v in api_seq.items() if not k.startswith("_") for x in v]
            report["latency"] = {
                "mcp_tools_call_p50_ms": pct(all_mcp, 50), "mcp_tools_call_p99_ms": pct(all_mcp, 99),
                "api_p50_ms": pct(all_api, 50), "api_p99_ms": pct(all_api, 99),
                "mcp_layer_overhead_p50_ms": pct(all_mcp, 50) - pct(all_api, 50),
                "errors": mcp_seq["_errors"][0] + api_seq["_errors"][0],
                "per_tool_p50_ms": {k: round(pct(v, 50), 3) for k, v in mcp_seq.items() if not k.startswith("_")}}
            report["memory_mb"] = {"after_start": mem0, "after_1000_mcp_calls": mem1,
                                   "after_2000_calls": memory_of(proc.pid)}
        finally:
            stop(proc)

        # 4. load with a hot swap in the middle: the same content published again under a new
        # folder name (a recompile that changed nothing but its time stamp), so every call of
        # the mix stays valid and the switch itself is what is measured
        from v8atlas.formats.publish import set_newest
        swap_dir = work / "swap"
        swap_dir.mkdir()
        first = swap_dir / b.path.name
        shutil.copytree(Path(b.path), first)
        stamp = time.strftime("%Y%m%dT%H%M%S000000Z", time.gmtime(time.time() + 1))
        second = swap_dir / f"swapped-{stamp}-{b.path.name.rsplit('-', 1)[-1]}"
        shutil.copytree(Path(b.path), second)
        set_newest(swap_dir, first.name)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start_server(swap_dir, port, poll=0.5)
        try:
            wait_ready(base)

            async def swap() -> dict:
                t0 = time.perf_counter()
                set_newest(swap_dir, second.name)
                import aiohttp
                async with aiohttp.ClientSession() as s:
                    while time.perf_counter() - t0 < 20:
                        async with s.get(base + "/ready") as r:
                            if (await r.json()).get("bundle") == second.name:
                                return {"to": second.name, "seconds_to_switch": round(time.perf_counter() - t0, 3)}
                        await asyncio.sleep(0.05)
                return {"to": second.name, "seconds_to_switch": None}

            report["load"] = asyncio.run(load(base, calls, args.clients, args.duration, swap))
            report["load"]["clients"] = args.clients
            report["load"]["duration_s"] = args.duration
            report["memory_mb"]["after_load"] = memory_of(proc.pid)
        finally:
            err = stop(proc)
            report["server_log_errors"] = [ln for ln in err.splitlines() if "ERROR" in ln or "Traceback" in ln][:5]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["loadavg_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        print_report(report)


def print_report(r: dict) -> None:
    print(f"python {r['python']}, {r['cores']} cores; load average before {r['loadavg_before'][0]:.1f}, "
          f"after {r['loadavg_after'][0]:.1f}; bundle {r['bundle']['id']} ({r['bundle']['size_mb']} MB)")
    t = r["tokens"]
    if isinstance(t, dict):
        for enc, v in t.items():
            print(f"tools/list + instructions ({enc}): {v['total']} tokens ({v['tools_list']} + {v['instructions']}); "
                  f"budget {v['budget']}")
    else:
        print(f"tokens: {t}")
    s = r["start"]
    print(f"start → first tools/call over HTTP: median {s['first_call_median_ms']:.0f} ms {s['first_call_runs_ms']}; "
          f"floor `python -c 'import mcp.server, aiohttp, numpy'`: median {s['floor_median_ms']:.0f} ms "
          f"{s['floor_runs_ms']}; own cost {s['own_cost_ms']:.0f} ms")
    ip = r["start_in_process"]
    print(f"  in one process, after the floor's imports ({ip['floor_imports_median_ms']:.0f} ms): v8atlas's own "
          f"imports + bundle + MCP layer + listen + first answer: median {ip['own_median_ms']:.0f} ms "
          f"{ip['own_runs_ms']}")
    print(f"  CPU time (user+sys) to the same point: server {s['first_call_cpu_median_ms']:.0f} ms, floor "
          f"{s['floor_cpu_median_ms']:.0f} ms, own {s['own_cpu_ms']:.0f} ms")
    lat = r["latency"]
    print(f"sequential tools/call over HTTP (1,000 mixed): p50 {lat['mcp_tools_call_p50_ms']:.2f} ms, "
          f"p99 {lat['mcp_tools_call_p99_ms']:.2f} ms; JSON API p50 {lat['api_p50_ms']:.2f} ms, "
          f"p99 {lat['api_p99_ms']:.2f} ms; MCP layer + bridge ≈ {lat['mcp_layer_overhead_p50_ms']:.2f} ms/call; "
          f"errors {lat['errors']}")
    print("  per tool p50 ms: " + ", ".join(f"{k} {v}" for k, v in lat["per_tool_p50_ms"].items()))
    m = r["memory_mb"]
    for label, v in m.items():
        print(f"memory {label}: VmRSS {v.get('VmRSS', 0):.1f} MB, RssAnon {v.get('RssAnon', 0):.1f} MB, "
              f"private {v.get('Private_Clean', 0) + v.get('Private_Dirty', 0):.1f} MB, RssFile {v.get('RssFile', 0):.1f} MB")
    ld = r["load"]
    print(f"load: {ld['clients']} clients × {ld['duration_s']:.0f} s: {ld['requests']} requests "
          f"({ld['rps']:.0f}/s), errors {ld['errors']}, p50 {ld['p50_ms']:.2f} ms, p99 {ld['p99_ms']:.2f} ms")
    print(f"  hot swap mid-load: {ld['swap']}; /ready saw {ld['bundles_seen']}")
    if ld["error_examples"]:
        print("  errors: " + "; ".join(ld["error_examples"]))
    if r["server_log_errors"]:
        print("server log errors: " + " | ".join(r["server_log_errors"]))


if __name__ == "__main__":
    main()
