"""Read the forms, composition schemas and roles of one configuration source.

Two steps, as the domain contract has them (docs/architecture.md):

* ``parse_dump(files, fmt, source, report)`` — the domain's parse: finds every form body,
  composition schema and rights file of the dump *by path* (no configuration model needed),
  reads them over the config reader's process pool (``objects.read_all``: parse a file, keep
  the model, drop the tree) and returns a ``ParsedUI`` keyed by sub-object address. A broken
  file is reported with file and line and left out; the rest is read. Form modules are the
  code domain's: their procedures reach the handler check through its ``CodeIndex``
  (``handlers.py``), so no module is read twice.
* ``assemble(cfg, parsed, source, report)`` — at link time, with the configuration model the
  configuration domain hands over: every form and template the configuration lists, with its
  type and synonym, gets its body (or the reason it has none: ordinary form, other template
  kind, file absent).

``read_ui`` does both, for tools and tests that read one source.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from v8atlas.compiler.config.classes import FOLDER_TO_CLASS
from v8atlas.compiler.config.files import SourceFiles
from v8atlas.compiler.config.model import Configuration, MDObject
from v8atlas.compiler.config.objects import FileContext, load_xml, read_all
from v8atlas.compiler.config.xmlsafe import local
from v8atlas.compiler.report import CompileReport

from . import form_designer, form_edt
from .domain import UI_LEAVES
from .model import Form, Role, Template, UIModel
from .rights import read_rights, shared_text
from .schema import read_schema

DCS = "DataCompositionSchema"
# A form, schema or rights file larger than this is refused (reported, the rest compiles):
# real ones stay under 1 MB (SSL's largest form is 0.3 MB).
MAX_FILE_BYTES = int(os.environ.get("V8ATLAS_UI_MAX_BYTES", str(64 * 1024 * 1024)))
ORDINARY_REASON = ("ordinary (non-managed) form: its layout is a binary container (Form.bin) "
                   "that is not read")
ABSENT_REASON = "its file is absent or could not be read (the compile report says why)"

# Task kinds: what the worker does with the file; the sub-object address travels with it.
# A Designer ``Ext/Template.xml`` may hold any template kind: its worker reads the head first.
FORM_DESIGNER, FORM_EDT, SCHEMA, RIGHTS = "form-designer", "form-edt", "schema", "rights"
MAYBE_SCHEMA = "template"

# Where each kind of file lies, by format: (task kind, path pattern). ``folder``/``obj`` name
# the owner (a class folder and an object), ``name`` the form, template or role.
_N = r"(?P<name>[^/]+)"
_OWNER = r"(?P<folder>[^/]+)/(?P<obj>[^/]+)"
_PATTERNS = {
    "designer": [(FORM_DESIGNER, rf"{_OWNER}/Forms/{_N}/Ext/Form\.xml"),
                 (FORM_DESIGNER, rf"CommonForms/{_N}/Ext/Form\.xml"),
                 (MAYBE_SCHEMA, rf"{_OWNER}/Templates/{_N}/Ext/Template\.xml"),
                 (MAYBE_SCHEMA, rf"CommonTemplates/{_N}/Ext/Template\.xml"),
                 (RIGHTS, rf"Roles/{_N}/Ext/Rights\.xml")],
    "edt": [(FORM_EDT, rf"src/{_OWNER}/Forms/{_N}/Form\.form"),
            (FORM_EDT, rf"src/CommonForms/{_N}/Form\.form"),
            (SCHEMA, rf"src/{_OWNER}/Templates/{_N}/Template\.dcs"),
            (SCHEMA, rf"src/CommonTemplates/{_N}/Template\.dcs"),
            (RIGHTS, rf"src/Roles/{_N}/Rights\.rights")],
}
_COMPILED = {fmt: [(kind, re.compile(p)) for kind, p in pats] for fmt, pats in _PATTERNS.items()}
# The file names those patterns end in: most of a dump's files are told apart by one endswith.
_LEAVES = UI_LEAVES
# Designer keeps every template kind in Ext/Template.xml: a schema is told by its root element.
_SCHEMA_HEAD = re.compile(rb"<(?:\w+:)?DataCompositionSchema[\s>]")
# What a Designer template worker returns for a template of another kind (not an error).
NOT_A_SCHEMA = "not a schema"


@dataclass
class ParsedUI:
    """What the parse found, by sub-object address (``Catalog.X.Form.Y``, ``CommonForm.Z``,
    ``Report.X.Template.Y``, ``Role.R``): bodies, and the files that failed to read."""
    format: str
    forms: dict[str, Form] = field(default_factory=dict)
    templates: dict[str, Template] = field(default_factory=dict)
    roles: dict[str, Role] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)      # address → file that failed to read


def form_key(form: Form) -> str:
    return form.owner if form.common else f"{form.owner}.Form.{form.name}"


def template_key(t: Template) -> str:
    return t.owner if t.common else f"{t.owner}.Template.{t.name}"


def _address(kind: str, m: re.Match) -> tuple[str, str, str] | None:
    """(owner, name, address) of a matched path; None for a folder that is no metadata class."""
    name = m.group("name")
    groups = m.groupdict()
    if groups.get("folder"):
        cls = FOLDER_TO_CLASS.get(groups["folder"])
        if cls is None:
            return None
        owner = f"{cls}.{groups['obj']}"
        child = "Template" if kind in (SCHEMA, MAYBE_SCHEMA) else "Form"
        return owner, name, f"{owner}.{child}.{name}"
    if kind == RIGHTS:
        return f"Role.{name}", name, f"Role.{name}"
    cls = "CommonTemplate" if kind in (SCHEMA, MAYBE_SCHEMA) else "CommonForm"
    return f"{cls}.{name}", name, f"{cls}.{name}"


def _tasks(files: SourceFiles, fmt: str) -> list[tuple[str, str, bool]]:
    tasks = []
    for rel in sorted(r for r in files.files() if r.endswith(_LEAVES)):
        for kind, pattern in _COMPILED[fmt]:
            m = pattern.fullmatch(rel)
            if m is None:
                continue
            where = _address(kind, m)
            if where is None:
                break
            tasks.append((f"{kind}|{where[0]}|{where[1]}|{where[2]}", rel, True))
            break
    return tasks


def _too_big(files: SourceFiles, rel: str, source: str, report: CompileReport) -> bool:
    size = files.size(rel)
    if size is not None and size > MAX_FILE_BYTES:
        report.error(source, f"the file is {size / 2**20:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MB "
                     f"limit for a form, schema or rights file (V8ATLAS_UI_MAX_BYTES); what it holds is "
                     f"left out", code="ui-file-too-large", file=rel, line=1)
        return True
    return False


def read_object(files: SourceFiles, source: str, task: str, rel: str, report: CompileReport,
                known: bool) -> object | None:
    """One file → a Form / Template / Role (the pool's worker entry); ``NOT_A_SCHEMA`` for a
    Designer template of another kind, None for a file that failed (reported)."""
    kind, owner, name, _ = task.split("|", 3)
    if kind == MAYBE_SCHEMA:
        if not _SCHEMA_HEAD.search(files.head(rel, 1024)):
            return NOT_A_SCHEMA             # a spreadsheet, text or HTML template: not read
        kind = SCHEMA
    if _too_big(files, rel, source, report):
        return None
    root = load_xml(files, rel, source, report)
    if root is None:
        return None
    ctx = FileContext(source, report, rel)
    expected = {FORM_DESIGNER: "Form", FORM_EDT: "Form", SCHEMA: DCS, RIGHTS: "Rights"}[kind]
    if local(root) != expected:
        report.error(source, f"the root element is <{local(root)}>, expected <{expected}>; what the file "
                     f"holds is left out", code="ui-bad-root", file=rel, line=root.sourceline)
        return None
    if kind in (FORM_DESIGNER, FORM_EDT):
        reader = form_designer if kind == FORM_DESIGNER else form_edt
        return reader.read_form(root, Form(owner, name, file=rel), ctx)
    if kind == SCHEMA:
        return Template(owner, name, DCS, schema=read_schema(root, ctx), file=rel)
    return read_rights(root, Role(name, file=rel))


def parse_dump(files: SourceFiles, fmt: str, source: str, report: CompileReport) -> ParsedUI:
    tasks = _tasks(files, fmt)
    parsed = ParsedUI(fmt)
    results = read_all(files, source, "v8atlas.compiler.forms.read", tasks, report)
    for (task, rel, _), result in zip(tasks, results):
        kind, _, _, address = task.split("|", 3)
        if result is None:
            parsed.files[address] = rel
            continue
        if isinstance(result, str):      # NOT_A_SCHEMA (it came back pickled: compare by value)
            continue
        if kind in (SCHEMA, MAYBE_SCHEMA):
            parsed.templates[address] = result
        elif kind == RIGHTS:
            # texts shared across the workers' batches too (rights.shared_text)
            result.templates = [(n, shared_text(t)) for n, t in result.templates]
            parsed.roles[address] = result
        else:
            parsed.forms[address] = result
    return parsed


def _base(obj: MDObject, edt: bool) -> str:
    """The object's folder in the dump: ``Catalogs/X`` (Designer) or ``src/Catalogs/X`` (EDT)."""
    f = obj.source_file
    if edt:
        return f.rsplit("/", 1)[0]
    return f.removesuffix(".xml")


def assemble(cfg: Configuration, parsed: ParsedUI, source: str, report: CompileReport) -> UIModel:
    """Every form, template and role the configuration lists, with what the parse read of it."""
    edt = parsed.format == "edt"
    ui = UIModel(cfg.name)

    def absent(what: str, owner: str, name: str, rel: str) -> None:
        report.warn(source, f"the {what} file is absent, though the configuration lists {owner} {name}; "
                    f"its content is left out", code="ui-file-missing", file=rel)

    def add_form(owner: str, name: str, folder: str, form_type: str, synonym: dict[str, str]) -> None:
        form = Form(owner, name, form_type or "Managed", synonym=dict(synonym))
        address = owner if owner.startswith("CommonForm.") else f"{owner}.Form.{name}"
        body = parsed.forms.get(address)
        form.file = f"{folder}/Form.form" if edt else f"{folder}/Ext/Form.xml"
        if form.form_type != "Managed":
            form.not_read = ORDINARY_REASON
        elif body is None:
            form.not_read = ABSENT_REASON
            if address not in parsed.files:      # a file that failed to read is reported already
                absent("form", owner, name, form.file)
        else:
            for k in ("title", "handlers", "items", "attributes", "commands", "parameters"):
                setattr(form, k, getattr(body, k))
        ui.forms.append(form)

    def add_template(owner: str, name: str, folder: str, template_type: str, synonym: dict[str, str]) -> None:
        t = Template(owner, name, template_type or "SpreadsheetDocument", synonym=dict(synonym))
        ui.templates.append(t)
        if t.template_type != DCS:
            return
        address = owner if owner.startswith("CommonTemplate.") else f"{owner}.Template.{name}"
        t.file = f"{folder}/Template.dcs" if edt else f"{folder}/Ext/Template.xml"
        body = parsed.templates.get(address)
        if body is None:
            t.not_read = ABSENT_REASON
            if address not in parsed.files:
                absent("composition schema", owner, name, t.file)
        else:
            t.schema = body.schema

    for obj in cfg.objects:
        if not obj.source_file:
            continue
        base = _base(obj, edt)
        ref = obj.full_name
        if obj.cls == "CommonForm":
            add_form(ref, obj.name, base, str(obj.props.get("form_type") or ""), obj.synonym)
        elif obj.cls == "CommonTemplate":
            add_template(ref, obj.name, base, str(obj.props.get("template_type") or ""), obj.synonym)
        elif obj.cls == "Role":
            role = parsed.roles.get(ref)
            if role is None:
                role = Role(obj.name, file=f"{base}/Rights.rights" if edt else f"{base}/Ext/Rights.xml")
                if ref not in parsed.files:
                    absent("rights", ref, "", role.file)
            ui.roles.append(role)
        for f in obj.forms:
            add_form(ref, f.name, f"{base}/Forms/{f.name}", str(f.props.get("form_type") or ""), f.synonym)
        for t in obj.templates:
            add_template(ref, t.name, f"{base}/Templates/{t.name}", str(t.props.get("template_type") or ""),
                         t.synonym)
    return ui


def read_ui(files: SourceFiles, cfg: Configuration, source: str, report: CompileReport) -> UIModel:
    """Both steps for one source (tools, tests): parse the dump, assemble with its model."""
    return assemble(cfg, parse_dump(files, cfg.format, source, report), source, report)
