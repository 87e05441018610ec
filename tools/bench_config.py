#!/usr/bin/env python3
"""Benchmark the configuration readers: cold parse wall time and peak RSS, linear growth.

    python tools/bench_config.py [SOURCE ...] [--copies N] [--compile]

Without arguments it reads SSL 3.1.10 and 3.1.12 (Designer) and SSL 3.1.10 (EDT) from the
test cache (tests/realdata.py extracts them). ``--copies N`` also reads a synthetic dump with
the SSL 3.1.12 objects repeated N times (renamed copies in a temp folder) to show growth.
Each measurement runs in a fresh process so peak RSS is that read's own.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from v8atlas.compiler.config.classes import FOLDER  # noqa: E402

_CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from v8atlas.compiler.config.plugin import read_configuration
from v8atlas.compiler.report import CompileReport
t = time.perf_counter()
cfg = read_configuration(Path(sys.argv[1]), CompileReport())
wall = time.perf_counter() - t
self_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"objects": len(cfg.objects), "wall_s": round(wall, 2),
                  "peak_rss_mb": round(max(self_rss, kids_rss) / 1024)}))
"""


def measure(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


_NOT_READ = ("Form.xml", "Template.*", "Picture.*", "*.png", "*.bin", "Rights.xml", "Help", "Help.xml",
             "Schedule.xml", "*.html")
_SKIP_BODIES = shutil.ignore_patterns("*.bsl", *_NOT_READ)
# With their modules: one configuration as large as an ERP's code (SSL × 12 ≈ 26,000 modules).
_KEEP_MODULES = shutil.ignore_patterns(*_NOT_READ)


def replicate(src: Path, copies: int, dst: Path, ignore=_SKIP_BODIES, *, modules: bool = False) -> Path:
    """SSL objects repeated ``copies`` times under new names (Name → Name_kN), one dump;
    ``ignore`` says which files of an object's folder are not copied (bodies, by default).
    ``modules``: the copies carry their ``.bsl`` modules too (text unchanged, so a copy's code
    calls the original common modules), for the code domain at ERP scale."""
    if modules:
        ignore = _KEEP_MODULES
    shutil.copytree(src, dst)
    cx = (src / "Configuration.xml").read_text(encoding="utf-8-sig")
    head, body = cx.split("<ChildObjects>", 1)
    children, tail = body.split("</ChildObjects>", 1)
    extra = []
    for k in range(1, copies):
        for m in re.finditer(r"<(\w+)>([^<]+)</\1>", children):
            cls, name = m.group(1), m.group(2)
            if cls in ("Language", "Subsystem"):
                continue
            folder = src / FOLDER.get(cls, cls)
            if not (folder / f"{name}.xml").is_file():
                continue
            new = f"{name}_k{k}"
            text = (folder / f"{name}.xml").read_text(encoding="utf-8-sig").replace(
                f"<Name>{name}</Name>", f"<Name>{new}</Name>", 1)
            (dst / folder.name / f"{new}.xml").write_text(text, encoding="utf-8")
            if (folder / name).is_dir():   # the descriptor files the reader opens (not bodies/modules)
                shutil.copytree(folder / name, dst / folder.name / new, ignore=ignore)
            extra.append(f"<{cls}>{new}</{cls}>")
    (dst / "Configuration.xml").write_text(head + "<ChildObjects>" + children + "\n".join(extra)
                                           + "</ChildObjects>" + tail, encoding="utf-8")
    return dst


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("sources", nargs="*", type=Path)
    ap.add_argument("--copies", type=int, default=0)
    ap.add_argument("--compile", action="store_true",
                    help="also run `v8atlas compile` on SSL 3.1.12 twice (cold, then no change), "
                         "and once on the --copies dump")
    args = ap.parse_args()
    if args.sources:
        sources = [(str(p), p) for p in args.sources]
    else:
        from realdata import extracted
        sources = [
            ("SSL 3.1.10 Designer", extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.10.441.tar.zst") / "src/cf"),
            ("SSL 3.1.12 Designer", extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src/cf"),
            ("SSL 3.1.10 EDT", extracted("configs/ssl-3.1-edt/ssl_3_1_edt-configuration-3.1.10.441.tar.zst") / "configuration"),
        ]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.copies > 1:
            src = sources[1][1] if not args.sources else sources[0][1]
            sources.append((f"SSL 3.1.12 ×{args.copies}", replicate(src, args.copies, Path(tmp) / "big")))
        for label, path in sources:
            m = measure(path)
            rows.append((label, m))
            print(f"{label:24s} objects {m['objects']:6d}  wall {m['wall_s']:6.2f} s  "
                  f"peak RSS {m['peak_rss_mb']:5d} MB  ({m['objects'] / max(m['wall_s'], 1e-9):.0f} objects/s)")
        if args.compile:
            src = sources[1][1] if not args.sources else sources[0][1]
            out = Path(tmp) / "bundles"
            for label in ("cold compile", "no-change compile"):
                m = compile_once(src, out)
                print(f"{label:24s} wall {m['wall_s']:6.2f} s  peak RSS {m['peak_rss_mb']:5d} MB  ({m['result']})")
            if args.copies > 1:   # the second size of the linear-growth check, compiled whole
                m = compile_once(sources[-1][1], Path(tmp) / "bundles-big")
                print(f"{'cold compile ×' + str(args.copies):24s} wall {m['wall_s']:6.2f} s  "
                      f"peak RSS {m['peak_rss_mb']:5d} MB  ({m['result']})")
    return 0


def compile_once(src: Path, out: Path, exe: str | None = None, env: dict | None = None) -> dict:
    """``v8atlas compile SRC --out OUT`` in a child; wall time, the children's CPU time (user +
    system, all processes of the compile: less sensitive to a shared machine's load) and peak RSS.
    ``exe``/``env``: another v8atlas to compare with (a baseline checkout)."""
    code = ("import json, resource, subprocess, sys, time\n"
            "t = time.perf_counter()\n"
            "p = subprocess.run([sys.argv[1], 'compile', sys.argv[2], '--out', sys.argv[3]],"
            " capture_output=True, text=True)\n"
            "wall = time.perf_counter() - t\n"
            "ru = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "rss, cpu = ru.ru_maxrss, ru.ru_utime + ru.ru_stime\n"
            "steps = [ln for ln in p.stderr.splitlines() if 're-pointed' in ln or 'published' in ln]\n"
            "last = (steps or p.stderr.strip().splitlines() or [''])[-1].split('] ', 1)[-1]\n"
            "print(json.dumps({'wall_s': round(wall, 2), 'cpu_s': round(cpu, 2), 'peak_rss_mb': round(rss / 1024),"
            " 'result': last[-60:]}))\n")
    exe = exe or str(Path(sys.executable).with_name("v8atlas"))
    res = subprocess.run([sys.executable, "-c", code, exe, str(src), str(out)], check=True,
                         capture_output=True, text=True, env=env).stdout
    return json.loads(res.strip().splitlines()[-1])


if __name__ == "__main__":
    sys.exit(main())
