"""EDT project reader (``src/Configuration/Configuration.mdo``, ``src/<Folder>/<Name>/<Name>.mdo``).

Fills the same model as the Designer reader. EDT omits properties that have their default
value (domain-1c.md §4.9); the shared spec (``spec.py``) supplies them. Element names are
the Designer property names with a lower-case first letter; children are repeated elements
named by their collection (``attributes``, ``tabularSections``…); forms and templates are
listed inline, so no extra file is opened for them.
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from ..report import CompileReport
from .build import fill_field_defaults, fill_object_defaults, finish_header
from .classes import EDT_COLLECTION, FOLDER
from .designer import CONFIG_SINGLETONS, _read_route_points, config_type_ref
from .files import SourceFiles
from . import predefined, qualifiers
from .errors import ConfigSourceError
from .objects import FileContext, add_objects, bad_object_name, load_xml, note_unknown_kind, read_received
from .model import (ADOPTED, BINARY, BOOLEAN, DATE, NULL, NUMBER, OWN, PLATFORM, STRING, UUID,
                    VALUE_STORAGE, Attribute, Child, Configuration, MDObject,
                    TabularSection, TypeDescription, TypeRef)
from .spec import (CHILD_COLLECTIONS, EDT_CHILD_COLLECTIONS, EDT_IGNORED, FIELD_PROPS, IGNORED,
                   PREDEFINED_CLASSES, TYPED_KINDS, CONFIG_EXTRA, CONFIG_FIELDS, edt_to_designer,
                   field_keys, lower_first, object_prop)
from .xmlsafe import elements, local, parse_bytes, text

NS_XSI = "http://www.w3.org/2001/XMLSchema-instance"
_PRIMITIVES = {"String": STRING, "Number": NUMBER, "Date": DATE, "Boolean": BOOLEAN,
               "BinaryData": BINARY, "ValueStorage": VALUE_STORAGE, "UUID": UUID, "Null": NULL}
_COMMON = frozenset({"name", "synonym", "comment", "objectBelonging", "extendedConfigurationObject"})


def local_string(els: list[etree._Element]) -> dict[str, str]:
    out: dict[str, str] = {}
    for el in els:
        key = value = ""
        for c in elements(el):
            if local(c) == "key":
                key = text(c)
            elif local(c) == "value":
                value = text(c)
        out[key] = value
    return out


def type_member(value: str) -> TypeRef:
    kind = _PRIMITIVES.get(value)
    if kind:
        return TypeRef(kind)
    head = value.partition(".")[0]
    if head in ("DefinedType", "Characteristic", "AnyRef", "AnyIBRef") or head.endswith(("Ref", "Object",
                                                                                        "RecordSet", "Manager")):
        return config_type_ref(value)
    if "." in value or value in CONFIG_SINGLETONS:
        return config_type_ref(value)
    return TypeRef(PLATFORM, name=value)


def type_description(el: etree._Element) -> TypeDescription:
    members: list[TypeRef] = []
    quals: dict[str, etree._Element] = {}
    for c in elements(el):
        n = local(c)
        if n == "types":
            members.append(type_member(text(c)))
        elif n.endswith("Qualifiers"):
            quals[n] = c
    qualifiers.apply(members, quals, qualifiers.EDT)
    return TypeDescription(members)


def _bool(s: str) -> bool:
    return s.strip().lower() == "true"


def decode(kind: str, els: list[etree._Element]) -> Any:
    el = els[0]
    if kind == "bool":
        return _bool(text(el))
    if kind == "int":
        try:
            return int(text(el) or 0)
        except ValueError:
            return 0
    if kind in ("str", "ref"):
        return text(el)
    if kind == "refs":
        return [text(e) for e in els if text(e)]
    if kind == "type":
        return type_description(el)
    if kind == "lstr":
        return local_string(els)
    if kind == "qname":
        d = {local(c): text(c) for c in elements(el)}
        if not d:
            return text(el)
        return f"{{{d['nsUri']}}}{d.get('name', '')}" if d.get("nsUri") else d.get("name", "")
    if kind == "common_attribute_content":
        out = []
        for e in els:
            d = {local(c): text(c) for c in elements(e)}
            out.append({"metadata": d.get("metadata", ""), "use": d.get("use", "Auto") or "Auto",
                        "conditional_separation": d.get("conditionalSeparation", "")})
        return out
    if kind == "exchange_plan_content":
        out = []
        for e in els:
            d = {local(c): text(c) for c in elements(e)}
            out.append({"metadata": d.get("mdObject", ""), "auto_record": d.get("autoRecord", "Deny")})
        return out
    raise ValueError(kind)


def _group(el: etree._Element) -> dict[str, list[etree._Element]]:
    """Children by element name, in order (EDT repeats an element for each list item)."""
    out: dict[str, list[etree._Element]] = {}
    for c in elements(el):
        out.setdefault(local(c), []).append(c)
    return out


def _common(g: dict[str, list[etree._Element]]) -> tuple[str, dict[str, str], str, str, str]:
    name = text(g["name"][0]) if "name" in g else ""
    syn = local_string(g.get("synonym", []))
    comment = text(g["comment"][0]) if "comment" in g else ""
    belonging = ADOPTED if "objectBelonging" in g and text(g["objectBelonging"][0]) == "Adopted" else OWN
    ext = text(g["extendedConfigurationObject"][0]) if "extendedConfigurationObject" in g else ""
    return name, syn, comment, belonging, ext


def _standard_attributes(els: list[etree._Element]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for sa in els:
        g = _group(sa)
        name = text(g["name"][0]) if "name" in g else ""
        d: dict[str, Any] = {}
        syn = local_string(g.get("synonym", []))
        if syn:
            d["synonym"] = syn
        if "fillChecking" in g and text(g["fillChecking"][0]) not in ("", "DontCheck"):
            d["fill_checking"] = text(g["fillChecking"][0])
        if name and d:
            out[name] = d
    return out


def _read_child(owner: str, kind: str, el: etree._Element, ctx: FileContext) -> Any:
    g = _group(el)
    name, syn, comment, belonging, _ = _common(g)
    uuid = el.get("uuid", "")
    keys = field_keys(owner, kind)
    props: dict[str, Any] = {}
    typ = None
    std: dict[str, dict[str, Any]] = {}
    nested: dict[str, list[Any]] = {}
    for n, els in g.items():
        if n in _COMMON or n in EDT_IGNORED:
            continue
        dn = edt_to_designer(n)
        if dn == "Type" and "Type" in keys:
            typ = type_description(els[0])
        elif n == "standardAttributes":
            std = _standard_attributes(els)
        elif kind == "TabularSection" and n == "attributes":
            continue
        elif n in ("methods", "parameters", "fields", "dimensions", "resources"):
            nested[n] = els
        elif dn in keys:
            spec = FIELD_PROPS[dn]
            props[spec.key] = decode(spec.kind, els)
        elif kind in ("Form", "Template") and dn in ("FormType", "TemplateType"):
            props[FIELD_PROPS[dn].key] = text(els[0])
        elif dn not in IGNORED and dn not in FIELD_PROPS:
            ctx.unknown(f"{kind} property {n}")
    if kind in ("Form", "Template") and belonging != ADOPTED:
        key = FIELD_PROPS["FormType" if kind == "Form" else "TemplateType"]
        props.setdefault(key.key, key.default)
    fill_field_defaults(owner, kind, props, belonging)
    if kind in TYPED_KINDS:
        return Attribute(name, uuid, syn, comment, typ or TypeDescription(), props, belonging)
    if kind == "TabularSection":
        ts = TabularSection(name, uuid, syn, comment, [], props, std, belonging)
        for a in g.get("attributes", []):
            ts.attributes.append(_read_child(f"{owner}.TabularSection", "Attribute", a, ctx))
        return ts
    child = Child(name, uuid, syn, comment, props, {}, belonging)
    if typ is not None:
        child.props["type"] = typ
    sub_kind = {"methods": "Method", "parameters": "Parameter", "fields": "Field",
                "dimensions": "Dimension", "resources": "Resource"}
    for n, els in nested.items():
        ck = sub_kind[n]
        child.children[ck] = [_read_child(kind, ck, e, ctx) for e in els]
    return child


def read_object(files: SourceFiles, source: str, cls: str, rel: str, report: CompileReport,
                known: bool = True, listed_in: str = "Configuration.mdo") -> MDObject | None:
    root = load_xml(files, rel, source, report,
                    missing=f"the file is missing, though {listed_in} lists this {cls}")
    if root is None:
        return None
    ctx = FileContext(source, report, rel)
    el_cls = local(root)
    if known and el_cls != cls:
        report.warn(source, f"the file holds a {el_cls}, expected a {cls} (read as {cls})",
                    code="class-mismatch", file=rel)
    g = _group(root)
    name, syn, comment, belonging, ext = _common(g)
    obj = MDObject(cls=cls if known else el_cls, name=name, uuid=root.get("uuid", ""), synonym=syn,
                   comment=comment, known=known, belonging=belonging, extended_uuid=ext,
                   source_file=rel)
    base = rel.rsplit("/", 1)[0]    # src/Catalogs/X
    for n, els in g.items():
        if n in _COMMON or n in EDT_IGNORED:
            continue
        if n == "standardAttributes":
            obj.standard_attributes = _standard_attributes(els)
            continue
        if n == "predefined" and cls in PREDEFINED_CLASSES:
            items = []
            for p in els:
                items.extend(e for e in elements(p) if local(e) == "items")
            obj.predefined = predefined.items(items, type_description, ctx.unknown)
            continue
        if cls == "Subsystem" and n == "subsystems":
            for e in els:
                sub_name = text(e)
                sub = read_object(files, source, "Subsystem",
                                  f"{base}/Subsystems/{sub_name}/{sub_name}.mdo", report, listed_in=rel)
                if sub is not None:
                    obj.subsystems.append(sub)
            continue
        kind = EDT_CHILD_COLLECTIONS.get(n)
        if kind is not None and known:
            target = CHILD_COLLECTIONS[kind][0]
            for e in els:
                if len(e) == 0 and text(e):   # a reference to a child with its own file
                    child: Any = Child(text(e).rsplit(".", 1)[-1])
                else:
                    child = _read_child(cls, kind, e, ctx)
                if target == "other":
                    obj.other_children.setdefault(kind, []).append(child)
                else:
                    getattr(obj, target).append(child)
            continue
        dn = edt_to_designer(n)
        spec = object_prop(cls, dn)
        if spec is not None and known:
            obj.props[spec.key] = decode(spec.kind, els)
        elif dn not in IGNORED:
            ctx.unknown(f"{cls} property {n}")
    fill_object_defaults(cls, obj.props, belonging)
    if cls == "BusinessProcess":
        _read_route_points(files, f"{base}/Flowchart.scheme", obj, ctx)
    return obj


_CONFIG_PROPS = {lower_first(k): v for k, v in CONFIG_FIELDS.items()}
_CONFIG_EXTRA = frozenset(lower_first(k) for k in CONFIG_EXTRA)

CONFIG_MDO = "src/Configuration/Configuration.mdo"


def read_configuration_header(files: SourceFiles, source: str, report: CompileReport
                              ) -> tuple[Configuration, list[tuple[str, str]]]:
    data = files.read(CONFIG_MDO)
    if data is None:
        raise ConfigSourceError(f"{CONFIG_MDO} is missing")
    root = parse_bytes(data, CONFIG_MDO)
    if local(root) != "Configuration":
        raise ConfigSourceError(f"{CONFIG_MDO}: the root element is <{local(root)}>, "
                                f"expected <mdclass:Configuration>")
    g = _group(root)
    name, syn, comment, belonging, _ = _common(g)
    cfg = Configuration(name=name, uuid=root.get("uuid", ""), synonym=syn, comment=comment,
                        format="edt", format_version="")
    children: list[tuple[str, str]] = []
    for n, els in g.items():
        if n in _CONFIG_PROPS:
            setattr(cfg, _CONFIG_PROPS[n], text(els[0]))
        elif n == "defaultLanguage":
            cfg.default_language = text(els[0]).partition(".")[2] or text(els[0])
        elif n in _CONFIG_EXTRA:
            cfg.props[n] = text(els[0])
        elif n == "defaultRoles":
            cfg.props["defaultRoles"] = [text(e) for e in els]
        elif n == "languages":
            for e in els:
                cfg.languages.append(_language(e))
        elif n in EDT_COLLECTION:
            for e in els:
                ref = text(e)
                cls, _, obj_name = ref.partition(".")
                children.append((cls if obj_name else EDT_COLLECTION[n], obj_name or ref))
        elif n in _COMMON or n in EDT_IGNORED or edt_to_designer(n) in IGNORED:
            continue
        elif all("." in text(e) and not len(e) for e in els):
            # a collection of a kind this reader does not know: its items are "Kind.Name"
            for e in els:
                cls, _, obj_name = text(e).partition(".")
                children.append((cls, obj_name))
        else:
            report.note_unknown(source, f"Configuration property {n}", CONFIG_MDO)
    # An extension project names its base project in DT-INF/PROJECT.PMF ("Base-Project: X").
    pmf = files.read("DT-INF/PROJECT.PMF")
    if pmf:
        for line in pmf.decode("utf-8", "replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Base-Project" and value.strip():
                cfg.base_name = value.strip()
    finish_header(cfg, belonging)
    return cfg, children


def _language(el: etree._Element) -> MDObject:
    g = _group(el)
    name, syn, comment, belonging, ext = _common(g)
    obj = MDObject(cls="Language", name=name, uuid=el.get("uuid", ""), synonym=syn, comment=comment,
                   belonging=belonging, extended_uuid=ext,
                   source_file=CONFIG_MDO)
    if "languageCode" in g:
        obj.props["language_code"] = text(g["languageCode"][0])
    fill_object_defaults("Language", obj.props, belonging)
    return obj


def read_edt(files: SourceFiles, source: str, report: CompileReport) -> Configuration:
    cfg, children = read_configuration_header(files, source, report)
    tasks: list[tuple[str, str, bool]] = []
    for cls, name in children:
        if bad_object_name(report, source, cls, name, CONFIG_MDO):
            continue
        folder = FOLDER.get(cls)
        known = folder is not None
        if not known:
            note_unknown_kind(report, source, cls, name, CONFIG_MDO)
            folder = cls + "s"
            if not files.exists(f"src/{folder}/{name}/{name}.mdo"):
                cfg.objects.append(MDObject(cls=cls, name=name, known=False))
                continue
        tasks.append((cls, f"src/{folder}/{name}/{name}.mdo", known))
    add_objects(cfg, tasks, read_received(files, source, __name__, tasks, report))
    return cfg
