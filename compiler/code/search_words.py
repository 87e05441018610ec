"""What an object's modules say about it, as words for metadata search (docs/search.md, round 2,
session 8): the opening comment of its modules and the first sentence of each exported
procedure's description, filed in the owning metadata document's ``module_doc`` search field
(a low-weight search field of its own, declared in domain.py).

Measured and not served (it lost a query of the existing SSL set at every weight and gained
none on the tuning halves): written only when ``V8ATLAS_SEARCH_TRY`` names ``module_doc``.

A sentence said in the modules of many objects — a licence header, the description of an
interface procedure the library asks every object to implement («Определяет настройки объекта
для подсистемы ВерсионированиеОбъектов») — says nothing about any one of them and is left out.
"""
from __future__ import annotations

import os
from collections import Counter, defaultdict
from typing import Any, Callable, Iterable

from .doccomment import summary
from .index import CodeIndex, ModuleEntry
from .model import ModuleKind as K

FIELD = "module_doc"
TRY_ENV = "V8ATLAS_SEARCH_TRY"   # comma-separated compile-time trials (docs/search.md, session 8)
# The modules that describe the object itself; a form's or command's module describes its UI.
KINDS = frozenset({K.COMMON, K.OBJECT, K.MANAGER, K.RECORD_SET, K.VALUE_MANAGER})
MAX_SHARED = 2          # a sentence in the modules of more owners than this is boilerplate
MAX_SENTENCES = 48      # per owner, in module and procedure order: a summary, not the API


def _sentences(index: CodeIndex, e: ModuleEntry) -> Iterable[str]:
    if e.doc:
        yield summary(e.doc, 300)
    for pid in e.procs:
        pe = index.procs[pid]
        if pe.proc.export and pe.summary:
            yield pe.summary


def add_module_words(index: CodeIndex, modules: Iterable[int], view: str,
                     docs_by_key: dict[str, Any], doc_key: Callable[[str, str], str]) -> None:
    """Set ``doc.fields[FIELD]`` of the metadata documents that own ``modules`` (module ids of
    one view)."""
    if FIELD not in {t.strip() for t in os.environ.get(TRY_ENV, "").split(",")}:
        return
    per_owner: dict[str, list[str]] = defaultdict(list)
    for mid in modules:
        e = index.modules[mid]
        if e.ref.kind not in KINDS or e.ref.owner == "Configuration":
            continue
        seen = per_owner[e.ref.owner]
        for s in _sentences(index, e):
            if s not in seen:
                seen.append(s)
    owners = Counter(s for sentences in per_owner.values() for s in sentences)
    for owner, sentences in per_owner.items():
        doc = docs_by_key.get(doc_key(view, owner))
        kept = [s for s in sentences if owners[s] <= MAX_SHARED][:MAX_SENTENCES]
        if doc is not None and kept:
            doc.fields[FIELD] = " ".join(kept)
