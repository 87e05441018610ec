#!/usr/bin/env python3
"""Cold `v8atlas compile --timings` on SSL 3.1.12 × N copies: wall, CPU, peak RSS, per stage.

    python tools/bench_compile.py [--copies 1,2,4,8] [--dumps DIR] [--svg FILE] [--exe V8ATLAS]
                                  [--skip code --skip forms]

Each size is compiled cold (fresh --out) in a child; the child's CPU (user+sys, its pool
workers included) and peak RSS come from RUSAGE_CHILDREN. The replicated dumps are made once
under ``--dumps`` (tools/bench_config.py's ``replicate``) and reused by later runs.
``--svg`` draws wall time and CPU time against the document count (a plain SVG, no plotting
library needed). The load average is printed with every row: the machine is shared.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tools"))

from bench_config import replicate  # noqa: E402

_CHILD = ("import json, resource, subprocess, sys, time\n"
          "t = time.perf_counter()\n"
          "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
          "wall = time.perf_counter() - t\n"
          "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
          "print(json.dumps({'rc': p.returncode, 'wall_s': wall, 'cpu_s': r.ru_utime + r.ru_stime,\n"
          "                  'peak_rss_mb': r.ru_maxrss / 1024, 'stderr': p.stderr}))\n")

_STAGE = re.compile(r"^(\S.*?)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+\d+%\s*$")
_DOCS = re.compile(r"build index \((\d+) documents")


def compile_cold(exe: list[str], src: Path, out: Path, timings: bool = True,
                 skip: tuple[str, ...] = ()) -> dict:
    cmd = [*exe, "compile", str(src), "--out", str(out)] + (["--timings"] if timings else [])
    cmd += [a for d in skip for a in ("--skip", d)]
    res = subprocess.run([sys.executable, "-c", _CHILD, *cmd], check=True, capture_output=True,
                         text=True).stdout
    m = json.loads(res.strip().splitlines()[-1])
    if m["rc"] != 0:
        raise SystemExit(f"compile failed:\n{m['stderr']}")
    stages = {}
    for line in m.pop("stderr").splitlines():
        s = _STAGE.match(line)
        if s:
            stages[s.group(1)] = (float(s.group(2)), float(s.group(3)))
        d = _DOCS.search(line)
        if d:
            m["documents"] = int(d.group(1))
    m["stages"] = stages
    m["load"] = os.getloadavg()[0]
    # the bundle's content hash: a faster compile must publish the same bundle
    manifests = sorted(out.glob("*/manifest.json"), key=lambda p: p.stat().st_mtime)
    m["content_hash"] = json.loads(manifests[-1].read_text(encoding="utf-8"))["content_hash"] if manifests else ""
    for manifest in manifests:   # the code domain's counts, when it ran
        code = json.loads(manifest.read_text(encoding="utf-8")).get("counts", {}).get("code") or {}
        m["modules"] = sum(v.get("modules", 0) for v in code.values())
        m["procedures"] = sum(v.get("procedures", 0) for v in code.values())
    return m


def svg_plot(rows: list[dict], path: Path) -> None:
    """Wall and CPU seconds against documents, with the straight line through 0 and ×1."""
    w, h, pad = 560, 340, 50
    xmax = max(r["documents"] for r in rows) * 1.05
    ymax = max(max(r["wall_s"], r["cpu_s"]) for r in rows) * 1.1

    def xy(x: float, y: float) -> tuple[float, float]:
        return pad + x / xmax * (w - 2 * pad), h - pad - y / ymax * (h - 2 * pad)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" '
             f'font-size="11"><rect width="{w}" height="{h}" fill="white"/>',
             f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="black"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="black"/>',
             f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">documents (SSL 3.1.12 × 1, 2, 4, 8)</text>',
             f'<text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" text-anchor="middle">seconds</text>']
    for k in range(6):
        yv = ymax * k / 5
        _, yy = xy(0, yv)
        parts.append(f'<text x="{pad - 6}" y="{yy + 4}" text-anchor="end">{yv:.0f}</text>')
    for r in rows:
        xx, _ = xy(r["documents"], 0)
        parts.append(f'<text x="{xx}" y="{h - pad + 14}" text-anchor="middle">{r["documents"]}</text>')
    for key, colour in (("wall_s", "#c0392b"), ("cpu_s", "#2c6fbb")):
        pts = " ".join("%.1f,%.1f" % xy(r["documents"], r[key]) for r in rows)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for r in rows:
            cx, cy = xy(r["documents"], r[key])
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3" fill="{colour}"/>')
        first = rows[0]   # linear growth from the first size: the dashed line to compare with
        slope = first[key] / first["documents"]
        x0, y0 = xy(0, 0)
        x1, y1 = xy(xmax, min(slope * xmax, ymax))
        parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{colour}" '
                     f'stroke-dasharray="4 4" opacity="0.5"/>')
    loads = ", ".join(f"{r['load']:.1f}" for r in rows)
    parts += [f'<text x="{pad + 10}" y="{pad - 20}" fill="#c0392b">wall s</text>',
              f'<text x="{pad + 60}" y="{pad - 20}" fill="#2c6fbb">CPU s (both cores)</text>',
              f'<text x="{pad + 190}" y="{pad - 20}">dashed: ×1 scaled linearly; load {loads}</text>',
              "</svg>"]
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", default="1,2,4,8")
    ap.add_argument("--src", type=Path, default=None, help="a Designer dump (default: SSL 3.1.12)")
    ap.add_argument("--dumps", type=Path, default=Path(tempfile.gettempdir()) / "v8atlas-bench-dumps")
    ap.add_argument("--modules", action="store_true",
                    help="the copies carry their BSL modules (one configuration of SSL × N modules)")
    ap.add_argument("--svg", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--exe", default=str(Path(sys.executable).with_name("v8atlas")),
                    help="the v8atlas command to measure (e.g. another checkout's)")
    ap.add_argument("--no-timings", action="store_true", help="for a v8atlas without --timings")
    ap.add_argument("--skip", action="append", default=[], metavar="DOMAIN",
                    help="passed to compile (repeatable): --skip code --skip forms = the structure compile")
    args = ap.parse_args()
    src = args.src
    if src is None:
        from realdata import extracted
        src = extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src/cf"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(c) for c in args.copies.split(",")]:
            dump = src if n == 1 else args.dumps / (f"x{n}-modules" if args.modules else f"x{n}")
            if n > 1 and not (dump / "Configuration.xml").is_file():
                args.dumps.mkdir(parents=True, exist_ok=True)
                replicate(src, n, dump, modules=args.modules)
            m = compile_cold(args.exe.split(), dump, Path(tmp) / f"out{n}", not args.no_timings,
                             tuple(args.skip))
            m["copies"] = n
            rows.append(m)
            print(f"×{n}: {m.get('documents', 0):6d} documents  wall {m['wall_s']:6.2f} s  "
                  f"CPU {m['cpu_s']:6.2f} s ({100 * m['cpu_s'] / m['wall_s']:.0f} %)  "
                  f"peak RSS {m['peak_rss_mb']:5.0f} MB  load {m['load']:.1f}  "
                  f"content hash {m['content_hash'][:12]}"
                  + (f"  {m['modules']} modules, {m['procedures']} procedures" if m.get("modules") else ""),
                  flush=True)
            for label, (wall, cpu) in m["stages"].items():
                print(f"      {label:28s} wall {wall:7.3f}  cpu {cpu:7.3f}")
    if args.svg and len(rows) > 1:
        svg_plot(rows, args.svg)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
