"""get_relations at ERP scale: one catalog with 40,000 incoming edges (26,667 weak); prints p50s.

Run: .venv/bin/python tools/bench_relations.py   (docs/perf/server.md, "Relations at scale")
"""
import sys
import time
import tempfile
sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parent.parent / 'tests'))
from bundle_factory import build_bundle
from v8atlas.compiler.documents import Doc, Edge
from v8atlas.formats import Bundle
from v8atlas.server.snapshot import Snapshot
from v8atlas.server import tools
N = 20000
cfg = "ERP"
docs = [Doc("metadata", f"{cfg}/Справочник.Пользователи", "Catalog", "Справочник.Пользователи",
            {"name": "Пользователи", "class": "Catalog"}, fields={"name": "Пользователи"}, config=cfg)]
edges = []
for i in range(N):
    t = f"Документ.Д{i:05d}"
    docs.append(Doc("metadata", f"{cfg}/{t}", "Document", t, {"name": f"Д{i:05d}", "class": "Document"},
                    fields={"name": f"Д{i:05d}"}, config=cfg))
    edges.append(Edge(f"{cfg}/{t}", f"{cfg}/Справочник.Пользователи", "attribute_type", "Автор", weak=True))
    edges.append(Edge(f"{cfg}/{t}", f"{cfg}/Справочник.Пользователи", "attribute_type", "Ответственный", weak=i % 3 == 0))
t0 = time.perf_counter()
info = {"configurations": [{"name": cfg, "platform_version": "8.3.24"}], "config_order": [cfg]}
path = build_bundle(tempfile.mkdtemp(), docs, edges=edges, info=info)
print(f"build {time.perf_counter()-t0:.1f}s")
snap = Snapshot(Bundle.open(path))
args = {"name": "Справочник.Пользователи", "direction": "in", "weak": True}
tools.call(snap, "get_relations", args)
for label, a in (("first page, weak=true", args), ("first page, strong only", {**args, "weak": False})):
    ts = []
    for _ in range(50):
        t = time.perf_counter()
        r = tools.call(snap, "get_relations", a)
        ts.append(time.perf_counter() - t)
    ts.sort()
    print(f"{label}: total {r.data['total']} shown {r.data['shown']} p50 {ts[25]*1000:.2f} ms")
r = tools.call(snap, "get_relations", args)
for _ in range(100):
    r = tools.call(snap, "get_relations", {**args, "cursor": r.data["cursor"]})
ts = []
for _ in range(50):
    t = time.perf_counter()
    tools.call(snap, "get_relations", {**args, "cursor": r.data["cursor"]})
    ts.append(time.perf_counter() - t)
ts.sort()
print(f"page 102 (offset {r.data['page']['offset']}): p50 {ts[25]*1000:.2f} ms")
ts = []
for _ in range(50):
    t = time.perf_counter()
    tools.call(snap, "get_object", {"name": "Справочник.Пользователи"})
    ts.append(time.perf_counter() - t)
ts.sort()
print(f"get_object brief (relations summary): p50 {ts[25]*1000:.2f} ms")
