"""Forms, schemas and roles as plain, format-neutral dicts: for comparing two readers' output
(``tools/diff_models.py``). Dropped: the file each came from."""
from __future__ import annotations

from typing import Any

from v8atlas.compiler.config.normalize import to_plain

from .model import UIModel
from .read import form_key, template_key


def _plain(x: Any) -> dict[str, Any]:
    d = to_plain(x)
    d.pop("file", None)
    return d


def _role(r: Any) -> dict[str, Any]:
    d = _plain(r)
    for o in d["objects"]:
        o.pop("line", None)
    return d


def ui_dict(ui: UIModel) -> dict[str, Any]:
    return {"forms": {form_key(f): _plain(f) for f in ui.forms},
            "templates": {template_key(t): _plain(t) for t in ui.templates},
            "roles": {r.name: _role(r) for r in ui.roles}}
