"""Read the forms, composition schemas and roles of one configuration source.

``read_ui(files, cfg, source, report)`` lists every file to open from the configuration
model (object forms and templates, common forms and templates, roles, form modules), reads
them over the config reader's process pool (``objects.read_all``: parse a file, keep the
model, drop the tree) and returns a ``UIModel``. A broken file is reported with file and
line and left out; the rest is read.
"""
from __future__ import annotations

import os
import re
import zipfile
import zlib

from v8atlas.compiler.config.files import SourceFiles
from v8atlas.compiler.config.model import Configuration, MDObject
from v8atlas.compiler.config.objects import FileContext, load_xml, read_all
from v8atlas.compiler.config.xmlsafe import local
from v8atlas.compiler.report import CompileReport

from . import form_designer, form_edt
from .model import Form, Role, Template, UIModel
from .rights import read_rights
from .schema import read_schema

DCS = "DataCompositionSchema"
# A form, schema or rights file larger than this is refused (reported, the rest compiles):
# real ones stay under 1 MB (SSL's largest form is 0.3 MB).
MAX_FILE_BYTES = int(os.environ.get("V8ATLAS_UI_MAX_BYTES", str(64 * 1024 * 1024)))
ORDINARY_REASON = ("ordinary (non-managed) form: its layout is a binary container (Form.bin) "
                   "that is not read")

# Task kinds: what the worker does with the file. The owner and the name travel in the task
# (``kind|owner|name``) so that a worker needs nothing but the task.
FORM_DESIGNER, FORM_EDT, SCHEMA, RIGHTS, MODULE = "form-designer", "form-edt", "schema", "rights", "module"

# Procedure and function headers of a form module (the bounded scan used until the code
# domain links handlers): at a line's start, optional same-line directives (`&НаКлиенте`
# usually stands on the line before), Async, then the keyword and the name.
_PROC = re.compile(r"^[ \t]*(?:&\w+[ \t]+)*(?:Асинх[ \t]+|Async[ \t]+)?"
                   r"(?:Процедура|Функция|Procedure|Function)[ \t]+([^\W\d]\w*)[ \t]*\(",
                   re.IGNORECASE | re.MULTILINE | re.UNICODE)


def task(kind: str, owner: str, name: str) -> str:
    return f"{kind}|{owner}|{name}"


def _too_big(files: SourceFiles, rel: str, source: str, report: CompileReport) -> bool:
    size = files.size(rel)
    if size is not None and size > MAX_FILE_BYTES:
        report.error(source, f"the file is {size / 2**20:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MB "
                     f"limit for a form, schema or rights file (V8ATLAS_UI_MAX_BYTES); what it holds is "
                     f"left out", code="ui-file-too-large", file=rel, line=1)
        return True
    return False


def procedures(data: bytes) -> list[str]:
    body = data.decode("utf-8-sig", errors="replace")
    return list(dict.fromkeys(m.group(1) for m in _PROC.finditer(body)))


def read_object(files: SourceFiles, source: str, kind_owner_name: str, rel: str, report: CompileReport,
                known: bool) -> object | None:
    """One file → a Form / Template / Role / procedure-name list (the pool's worker entry)."""
    kind, owner, name = kind_owner_name.split("|", 2)
    if kind == MODULE:
        try:
            data = files.read(rel)
        except (OSError, zipfile.BadZipFile, zlib.error):
            data = None
        return None if data is None else procedures(data)
    if files.size(rel) is None:
        # A dump without some bodies (a partial dump, a generated sample) still compiles: the
        # object's card lists the form or role; its own card says the layout is absent.
        what = {FORM_DESIGNER: "form", FORM_EDT: "form", SCHEMA: "composition schema", RIGHTS: "rights"}[kind]
        report.warn(source, f"the {what} file is absent, though the configuration lists {owner} "
                    f"{name}; its content is left out", code="ui-file-missing", file=rel)
        return None
    if _too_big(files, rel, source, report):
        return None
    root = load_xml(files, rel, source, report)
    if root is None:
        return None
    ctx = FileContext(source, report, rel)
    if kind in (FORM_DESIGNER, FORM_EDT):
        if local(root) != "Form":
            report.error(source, f"the root element is <{local(root)}>, expected <Form>; the form is "
                         f"left out", code="ui-bad-root", file=rel, line=root.sourceline)
            return None
        reader = form_designer if kind == FORM_DESIGNER else form_edt
        return reader.read_form(root, Form(owner, name, file=rel), ctx)
    if kind == SCHEMA:
        if local(root) != DCS:
            report.error(source, f"the root element is <{local(root)}>, expected <{DCS}>; the schema is "
                         f"left out", code="ui-bad-root", file=rel, line=root.sourceline)
            return None
        return Template(owner, name, DCS, schema=read_schema(root, ctx), file=rel)
    if kind == RIGHTS:
        if local(root) != "Rights":
            report.error(source, f"the root element is <{local(root)}>, expected <Rights>; the role's "
                         f"rights are left out", code="ui-bad-root", file=rel, line=root.sourceline)
            return None
        return read_rights(root, Role(name, file=rel))
    raise ValueError(f"unknown task kind {kind}")


def _base(obj: MDObject, edt: bool) -> str:
    """The object's folder in the dump: ``Catalogs/X`` (Designer) or ``src/Catalogs/X`` (EDT)."""
    f = obj.source_file
    if edt:
        return f.rsplit("/", 1)[0]
    return f.removesuffix(".xml")


def _form_paths(base: str, edt: bool, common: bool) -> tuple[str, str]:
    """(form body, form module) of a form whose folder is ``base``."""
    if edt:
        return f"{base}/Form.form", f"{base}/Module.bsl"
    return f"{base}/Ext/Form.xml", f"{base}/Ext/Form/Module.bsl"


def read_ui(files: SourceFiles, cfg: Configuration, source: str, report: CompileReport) -> UIModel:
    edt = cfg.format == "edt"
    ui = UIModel(cfg.name)
    tasks: list[tuple[str, str, bool]] = []
    slots: list[tuple[str, object]] = []           # where each task's result goes
    form_kind = FORM_EDT if edt else FORM_DESIGNER

    def add_form(owner: str, name: str, folder: str, form_type: str, synonym: dict[str, str]) -> None:
        form = Form(owner, name, form_type or "Managed", synonym=dict(synonym))
        ui.forms.append(form)
        if form.form_type != "Managed":
            form.not_read = ORDINARY_REASON
            return
        body, module = _form_paths(folder, edt, owner.startswith("CommonForm."))
        form.file = body
        tasks.append((task(form_kind, owner, name), body, True))
        slots.append(("form", form))
        tasks.append((task(MODULE, owner, name), module, True))
        slots.append(("module", form))

    def add_template(owner: str, name: str, folder: str, template_type: str, synonym: dict[str, str]) -> None:
        t = Template(owner, name, template_type or "SpreadsheetDocument", synonym=dict(synonym))
        ui.templates.append(t)
        if t.template_type != DCS:
            return
        t.file = f"{folder}/Template.dcs" if edt else f"{folder}/Ext/Template.xml"
        tasks.append((task(SCHEMA, owner, name), t.file, True))
        slots.append(("template", t))

    for obj in cfg.objects:
        if not obj.source_file or obj.belonging == "Adopted":
            continue
        base = _base(obj, edt)
        ref = obj.full_name
        if obj.cls == "CommonForm":
            add_form(ref, obj.name, base, str(obj.props.get("form_type") or ""), obj.synonym)
        elif obj.cls == "CommonTemplate":
            add_template(ref, obj.name, base, str(obj.props.get("template_type") or ""), obj.synonym)
        elif obj.cls == "Role":
            role = Role(obj.name)
            ui.roles.append(role)
            role.file = f"{base}/Rights.rights" if edt else f"{base}/Ext/Rights.xml"
            tasks.append((task(RIGHTS, ref, obj.name), role.file, True))
            slots.append(("role", role))
        for f in obj.forms:
            add_form(ref, f.name, f"{base}/Forms/{f.name}", str(f.props.get("form_type") or ""), f.synonym)
        for t in obj.templates:
            add_template(ref, t.name, f"{base}/Templates/{t.name}", str(t.props.get("template_type") or ""),
                         t.synonym)

    results = read_all(files, source, "v8atlas.compiler.forms.read", tasks, report)
    for (slot, target), result in zip(slots, results):
        if result is None:
            if slot in ("form", "template"):
                target.not_read = "its file is absent or could not be read (the compile report says why)"
            continue
        if slot == "form":
            _copy(result, target)
        elif slot == "module":
            if not target.not_read:      # a module without a readable form body links nothing
                ui.modules[form_key(target)] = result
        elif slot in ("template", "role"):
            _copy(result, target)
    return ui


def form_key(form: Form) -> str:
    return form.owner if form.common else f"{form.owner}.Form.{form.name}"


def template_key(t: Template) -> str:
    return t.owner if t.common else f"{t.owner}.Template.{t.name}"


def _copy(src: object, dst: object) -> None:
    dst.__dict__.update(src.__dict__)
