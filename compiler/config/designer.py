"""Designer XML reader (DumpConfigToFiles, hierarchical layout) → ``Configuration``.

Reads ``Configuration.xml``, then one ``<Folder>/<Name>.xml`` per listed object (plus
``Ext/Predefined.xml``, ``Ext/Content.xml`` of exchange plans, ``Forms/<F>.xml`` and
``Templates/<T>.xml`` for their kind, nested subsystems). Form bodies, templates and modules
are not opened. Each object file is parsed, turned into its model and dropped; with many
objects the files are spread over a process pool.

Type prefixes are resolved through each element's in-scope namespace map, so a local
re-declaration (``<v8:Type xmlns:d5p1="…/current-config">d5p1:CatalogRef.X</v8:Type>``) reads
the same as ``cfg:CatalogRef.X``.
"""
from __future__ import annotations

from typing import Any, Callable

from lxml import etree

from ..readhash import OWN_FILE_FOLDERS as _OWN_FILE_FOLDERS   # (the fingerprint leaves them to us)
from ..report import CompileReport
from .build import fill_field_defaults, fill_object_defaults, finish_header
from .classes import FOLDER
from .files import SourceFiles
from . import predefined, qualifiers
from .flowchart import route_points
from .errors import ConfigSourceError
from .objects import FileContext, add_objects, bad_object_name, load_xml, note_unknown_kind, read_received
from .model import (ADOPTED, ANY_REF, BINARY, BOOLEAN, CHARACTERISTIC, CONFIG_TYPE, DATE,
                    DEFINED_TYPE, NULL, NUMBER, OTHER, OWN, PLATFORM, REF, REF_SET, STRING, UUID,
                    VALUE_STORAGE, Attribute, Child, Configuration, MDObject, PredefinedItem,
                    TabularSection, TypeDescription, TypeRef)
from .spec import (CHILD_COLLECTIONS, CONFIG_EXTRA, CONFIG_FIELDS, FIELD_PROPS, IGNORED,
                   PREDEFINED_CLASSES, TYPED_KINDS, field_keys, lower_first, object_prop)
from .xmlsafe import elements, local, parse_bytes, text

NS_MD = "http://v8.1c.ru/8.3/MDClasses"
NS_XR = "http://v8.1c.ru/8.3/xcf/readable"
NS_V8 = "http://v8.1c.ru/8.1/data/core"
NS_CFG = "http://v8.1c.ru/8.1/data/enterprise/current-config"
NS_XS = "http://www.w3.org/2001/XMLSchema"
NS_XSI = "http://www.w3.org/2001/XMLSchema-instance"

_XS_TYPES = {"string": STRING, "decimal": NUMBER, "dateTime": DATE, "boolean": BOOLEAN,
             "base64Binary": BINARY}
_V8_TYPES = {"ValueStorage": VALUE_STORAGE, "UUID": UUID, "Null": NULL}

# ---------------------------------------------------------------------------------------
# Value decoding


# The tags a language string is made of, by their local name without a call to ``local``
# (12,000 strings per SSL); other namespaces still go through it.
_T_LANG, _T_CONTENT = f"{{{NS_V8}}}lang", f"{{{NS_V8}}}content"
_LOCAL_NAMES = {_T_LANG: "lang", _T_CONTENT: "content"}


def local_string(el: etree._Element | None) -> dict[str, str]:
    out: dict[str, str] = {}
    if el is None:
        return out
    for item in el:     # an entity reference here has no children: it adds nothing
        if len(item) == 2:
            # the shape Designer writes, <v8:lang/> then <v8:content/> as leaves: taken by
            # position (12,000 strings per SSL), the general loop below for anything else
            lang_el, content_el = item
            if lang_el.tag == _T_LANG and content_el.tag == _T_CONTENT and \
                    not len(lang_el) and not len(content_el):
                lang, content = lang_el.text, content_el.text
                lang = lang.strip() if lang else ""
                content = content.strip() if content else ""
                if lang or content:
                    out[lang] = content
                continue
        lang = content = ""
        for c in item.iterchildren(etree.Element):
            n = _LOCAL_NAMES.get(c.tag) or local(c)
            if n == "lang":
                lang = text(c)
            elif n == "content":
                content = text(c)
        if lang or content:
            out[lang] = content
    return out


def ref_list(el: etree._Element) -> list[str]:
    return [text(c) for c in elements(el) if text(c)]


def config_type_ref(value: str) -> TypeRef:
    """``CatalogRef.X`` / ``DefinedType.X`` / ``CatalogObject.X`` / ``AnyIBRef`` (no prefix)."""
    head, _, rest = value.partition(".")
    if head in ("AnyIBRef", "AnyRef"):
        return TypeRef(ANY_REF)
    if head == "DefinedType":
        return TypeRef(DEFINED_TYPE, name=rest)
    if head == "Characteristic":
        return TypeRef(CHARACTERISTIC, name=rest)
    if head.endswith("Ref"):
        return TypeRef(REF, ref_class=head, name=rest) if rest else TypeRef(REF_SET, ref_class=head)
    return TypeRef(CONFIG_TYPE, ref_class=head, name=rest)


# Designer spells a few platform types differently from EDT; the model uses EDT's names.
PLATFORM_RENAMES = {"ValueListType": "ValueList"}
CONFIG_SINGLETONS = frozenset({"ConstantsSet", "ReportBuilder"})     # current-config types without an object name


def _qname(el: etree._Element, value: str) -> tuple[str, str]:
    prefix, sep, name = value.partition(":")
    if not sep:
        return (el.nsmap.get(None, ""), value)
    return (el.nsmap.get(prefix, ""), name)


def type_member(el: etree._Element, value: str) -> TypeRef:
    ns, name = _qname(el, value)
    if ns == NS_XS:
        kind = _XS_TYPES.get(name)
        return TypeRef(kind) if kind else TypeRef(PLATFORM, name=name)
    if ns == NS_CFG:
        return config_type_ref(name)
    if ns == NS_V8:
        kind = _V8_TYPES.get(name)
        return TypeRef(kind) if kind else TypeRef(PLATFORM, name=PLATFORM_RENAMES.get(name, name))
    if "data-composition-system" in ns and not name.startswith("DataComposition"):
        # dcsset:Filter, dcscor:Field … are DataCompositionFilter, DataCompositionField in EDT
        return TypeRef(PLATFORM, name="DataComposition" + name)
    if ns:
        return TypeRef(PLATFORM, name=PLATFORM_RENAMES.get(name, name))
    return TypeRef(OTHER, name=value)


def type_description(el: etree._Element) -> TypeDescription:
    members: list[TypeRef] = []
    quals: dict[str, etree._Element] = {}
    for c in el:      # plain iterator; an entity reference's local name is "", matching nothing
        n = local(c)
        if n in ("Type", "TypeSet"):
            members.append(type_member(c, text(c)))
        elif n == "TypeId":
            members.append(TypeRef(OTHER, name=text(c)))
        elif n.endswith("Qualifiers"):
            quals[n] = c
    qualifiers.apply(members, quals, qualifiers.DESIGNER)
    return TypeDescription(members)


def _int(s: str) -> int:
    try:
        return int(s.strip() or 0)
    except ValueError:
        return 0


def _qname_value(el: etree._Element) -> str:
    value = text(el)
    if not value:
        return ""
    ns, name = _qname(el, value)
    return f"{{{ns}}}{name}" if ns else name


def _common_attribute_content(el: etree._Element) -> list[dict[str, str]]:
    items = []
    for it in elements(el):
        d = {local(c): text(c) for c in elements(it)}
        items.append({"metadata": d.get("Metadata", ""), "use": d.get("Use", "Auto") or "Auto",
                      "conditional_separation": d.get("ConditionalSeparation", "")})
    return items


# Property kind (spec.Prop.kind) → its decoder: looked up once per tag in the action tables below.
def _decode_bool(el: etree._Element) -> bool:
    """A flag's text decoded in one call: 14,000 flags per SSL."""
    t = text(el) if len(el) else el.text
    return t is not None and t.strip().lower() == "true"


_DECODERS: dict[str, Callable[[etree._Element], Any]] = {
    "bool": _decode_bool,
    "int": lambda el: _int(text(el)),
    "str": text,
    "ref": text,
    "refs": ref_list,
    "type": type_description,
    "lstr": local_string,
    "qname": _qname_value,
    "common_attribute_content": _common_attribute_content,
}


# ---------------------------------------------------------------------------------------
# Object files


_T_NAME = f"{{{NS_MD}}}Name"
_T_SYNONYM = f"{{{NS_MD}}}Synonym"
_T_COMMENT = f"{{{NS_MD}}}Comment"
_T_BELONGING = f"{{{NS_MD}}}ObjectBelonging"
_T_EXTENDED = f"{{{NS_MD}}}ExtendedConfigurationObject"


_COMMON_TAGS = (_T_NAME, _T_SYNONYM, _T_COMMENT, _T_BELONGING, _T_EXTENDED)
_T_PROPERTIES = f"{{{NS_MD}}}Properties"
_T_CHILD_OBJECTS = f"{{{NS_MD}}}ChildObjects"


def _common_values(first: dict[str, etree._Element]) -> tuple[str, dict[str, str], str, str, str]:
    """name, synonym, comment, belonging, extended uuid from the first element of each tag."""
    get = first.get
    belonging_el, extended_el = get(_T_BELONGING), get(_T_EXTENDED)   # only in extensions
    belonging = ADOPTED if belonging_el is not None and text(belonging_el) == "Adopted" else OWN
    return (text(get(_T_NAME)), local_string(get(_T_SYNONYM)), text(get(_T_COMMENT)), belonging,
            text(extended_el) if extended_el is not None else "")


def _common(props_el: etree._Element | None) -> tuple[str, dict[str, str], str, str, str]:
    """name, synonym, comment, belonging, extended uuid.

    One pass over the properties, filtered by tag in C: five ``find`` calls scanned them five
    times, and the absent ones (belonging, extended object: only in extensions) to the end —
    a tenth of the reader's time. The first element of each tag counts, as with ``find``."""
    if props_el is None:
        return "", {}, "", OWN, ""
    first: dict[str, etree._Element] = {}
    for c in props_el.iterchildren(*_COMMON_TAGS):
        first.setdefault(c.tag, c)
    return _common_values(first)


_COMMON_NAMES = frozenset({"Name", "Synonym", "Comment", "ObjectBelonging",
                           "ExtendedConfigurationObject"})

# What to do with a property element, decided once per (owner, tag) and kept in a table:
# the Python model building is ~80 elements per object, and working out the local name, the
# common/ignored/unknown checks and the spec for each of them was most of the reader's time.
# An action is (op,) or (op, model key, decoder) or (op, unknown note).
_SKIP, _COMMON, _STD, _PROP, _TYPE, _UNKNOWN = range(6)
_Action = tuple[Any, ...]


def _object_action(cls: str, known: bool, tag: str) -> _Action:
    if tag in _COMMON_TAGS:
        return (_COMMON,)
    n = tag[tag.rfind("}") + 1:]
    if n in _COMMON_NAMES:
        return (_SKIP,)
    if n == "StandardAttributes":
        return (_STD,)
    spec = object_prop(cls, n)
    if spec is not None and known:
        return (_PROP, spec.key, _DECODERS[spec.kind])
    if n not in IGNORED:
        return (_UNKNOWN, f"{cls} property {n}")
    return (_SKIP,)


def _field_action(kind: str, keys: tuple[str, ...], tag: str) -> _Action:
    if tag in _COMMON_TAGS:
        return (_COMMON,)
    n = tag[tag.rfind("}") + 1:]
    if n in _COMMON_NAMES:
        return (_SKIP,)
    if n == "Type" and "Type" in keys:
        return (_TYPE,)
    if n == "StandardAttributes":
        return (_STD,)
    if n in keys:
        spec = FIELD_PROPS[n]
        return (_PROP, spec.key, _DECODERS[spec.kind])
    if n not in IGNORED and n not in FIELD_PROPS:
        return (_UNKNOWN, f"{kind} property {n}")
    return (_SKIP,)


_OBJECT_ACTIONS: dict[tuple[str, bool], dict[str, _Action]] = {}
_FIELD_ACTIONS: dict[tuple[str, str], dict[str, _Action]] = {}

def _standard_attributes(el: etree._Element) -> dict[str, dict[str, Any]]:
    """Only what differs from the platform default (EDT lists only those)."""
    out: dict[str, dict[str, Any]] = {}
    for sa in elements(el):
        name = sa.get("name", "")
        d: dict[str, Any] = {}
        # the two of its ~20 properties we keep, filtered by local name in C (``{*}``: any namespace)
        for c in sa.iterchildren("{*}Synonym", "{*}FillChecking"):
            n = local(c)
            if n == "Synonym":
                syn = local_string(c)
                if syn:
                    d["synonym"] = syn
            elif n == "FillChecking" and text(c) not in ("", "DontCheck"):
                d["fill_checking"] = text(c)
        if name and d:
            out[name] = d
    return out


def _read_properties(props_el: etree._Element, actions: dict[str, _Action],
                     decide: Callable[[str], _Action], ctx: FileContext, std_in_props: bool
                     ) -> tuple[dict[str, Any], TypeDescription | None,
                                dict[str, dict[str, Any]] | None, dict[str, etree._Element]]:
    """One pass over <Properties>: the kept properties (document order), the type, the last
    standard attributes (also put in the properties when ``std_in_props`` and not empty, as a
    field keeps them) and the first element of each common tag. ``decide`` gives the action of
    a tag not in ``actions`` yet."""
    props: dict[str, Any] = {}
    typ = std = None
    first: dict[str, etree._Element] = {}
    for p in props_el:   # every child node; an entity reference's table entry is _SKIP
        tag = p.tag
        a = actions.get(tag)
        if a is None:
            # an entity reference (``etree.Entity``: its tag is no string) is no element
            a = actions[tag] = decide(tag) if isinstance(tag, str) else (_SKIP,)
        op = a[0]
        if op == _SKIP:      # most of them: 76,000 of 130,000 per SSL
            continue
        if op == _PROP:
            props[a[1]] = a[2](p)
        elif op == _COMMON:
            if tag not in first:
                first[tag] = p
        elif op == _TYPE:
            typ = type_description(p)
        elif op == _STD:
            std = _standard_attributes(p)
            if std_in_props and std:
                props["standard_attributes"] = std
        elif op == _UNKNOWN:
            ctx.unknown(a[1])
    return props, typ, std, first


def _field_props(owner: str, kind: str, props_el: etree._Element, ctx: FileContext
                 ) -> tuple[dict, TypeDescription | None, dict[str, etree._Element]]:
    """The field's properties, its type and the first element of each common tag, in one pass."""
    actions = _FIELD_ACTIONS.get((owner, kind))
    if actions is None:
        actions = _FIELD_ACTIONS[(owner, kind)] = {}
    props, typ, _, first = _read_properties(
        props_el, actions, lambda tag: _field_action(kind, field_keys(owner, kind), tag), ctx, True)
    return props, typ, first


def _parts(el: etree._Element) -> tuple[etree._Element | None, etree._Element | None]:
    """The first <Properties> and <ChildObjects> of an object element, in one pass."""
    props_el = co = None
    for c in el:     # a few children; a plain iterator is cheaper to make than a tag-filtered one
        tag = c.tag
        if tag == _T_PROPERTIES:
            if props_el is None:
                props_el = c
        elif tag == _T_CHILD_OBJECTS and co is None:
            co = c
    return props_el, co


def _read_child(owner: str, kind: str, el: etree._Element, ctx: FileContext) -> Any:
    """An inline child (attribute, tabular section, command, enum value, URL template…)."""
    props_el, co = _parts(el)
    if props_el is not None:
        props, typ, first = _field_props(owner, kind, props_el, ctx)
        name, syn, comment, belonging, _ = _common_values(first)
    else:
        props, typ = {}, None
        name, syn, comment, belonging, _ = _common(None)
    uuid = el.get("uuid", "")
    fill_field_defaults(owner, kind, props, belonging)
    if kind in TYPED_KINDS:
        return Attribute(name, uuid, syn, comment, typ or TypeDescription(), props, belonging)
    if kind == "TabularSection":
        std = props.pop("standard_attributes", {})
        ts = TabularSection(name, uuid, syn, comment, [], props, std, belonging)
        if co is not None:
            for c in elements(co):
                if local(c) == "Attribute":
                    ts.attributes.append(_read_child(f"{owner}.TabularSection", "Attribute", c, ctx))
                else:
                    ctx.unknown(f"TabularSection child {local(c)}")
        return ts
    child = Child(name, uuid, syn, comment, props, {}, belonging)
    if typ is not None:
        child.props["type"] = typ
    if co is not None:
        for c in co:
            ck = local(c)
            if ck:       # "": an entity reference, no element
                child.children.setdefault(ck, []).append(_read_child(kind, ck, c, ctx))
    return child


_BARE_TAGS = (*_COMMON_TAGS, "{*}FormType", "{*}TemplateType")


def _bare_child(files: SourceFiles, base: str, kind: str, name: str, ctx: FileContext) -> Child:
    """A child with its own file (form, template, recalculation): its kind property only."""
    child = Child(name)
    sub = _OWN_FILE_FOLDERS.get(kind)
    if sub is None:
        return child
    root = load_xml(files, f"{base}/{sub}/{name}.xml", ctx.source, ctx.report)
    if root is None:
        return child
    for obj in elements(root):
        child.uuid = obj.get("uuid", "")
        props_el, co = _parts(obj)
        if props_el is None:
            continue
        # one pass, filtered in C: the common tags, and the kind property by local name
        first: dict[str, etree._Element] = {}
        for p in props_el.iterchildren(*_BARE_TAGS):
            tag = p.tag
            if tag in _COMMON_TAGS:
                if tag not in first:
                    first[tag] = p
            else:
                child.props[FIELD_PROPS[local(p)].key] = text(p)
        _, syn, comment, belonging, _ = _common_values(first)
        child.synonym, child.comment, child.belonging = syn, comment, belonging
        if kind in ("Form", "Template") and belonging != ADOPTED:
            key = FIELD_PROPS["FormType" if kind == "Form" else "TemplateType"]
            child.props.setdefault(key.key, key.default)
        if co is not None:    # recalculation dimensions, external table fields/forms…
            for c in elements(co):
                ck = local(c)
                if len(c) == 0 and text(c):
                    child.children.setdefault(ck, []).append(Child(text(c)))
                else:
                    child.children.setdefault(ck, []).append(_read_child(kind, ck, c, ctx))
    return child


def _read_predefined(files: SourceFiles, base: str, ctx: FileContext) -> list[PredefinedItem]:
    rel = f"{base}/Ext/Predefined.xml"
    root = load_xml(files, rel, ctx.source, ctx.report)
    if root is None:
        return []
    item_ctx = FileContext(ctx.source, ctx.report, rel)
    found = []
    for el in elements(root):
        if local(el) == "Item":
            found.append(el)
        else:
            item_ctx.unknown(f"Predefined element {local(el)}")
    return predefined.items(found, type_description, item_ctx.unknown)


def _read_exchange_content(files: SourceFiles, base: str, ctx: FileContext) -> list[dict[str, str]]:
    root = load_xml(files, f"{base}/Ext/Content.xml", ctx.source, ctx.report)
    if root is None:
        return []
    out = []
    for it in elements(root):
        d = {local(c): text(c) for c in elements(it)}
        out.append({"metadata": d.get("Metadata", ""), "auto_record": d.get("AutoRecord", "Deny")})
    return out


def read_object(files: SourceFiles, source: str, cls: str, rel: str, report: CompileReport,
                known: bool = True, listed_in: str = "Configuration.xml") -> MDObject | None:
    """Parse one object file into its model; problems go to ``report`` and give None."""
    root = load_xml(files, rel, source, report,
                    missing=f"the file is missing, though {listed_in} lists this {cls}")
    if root is None:
        return None
    ctx = FileContext(source, report, rel)
    obj_el = next(elements(root), None)
    if obj_el is None:
        report.error(source, "the file holds no object: <MetaDataObject> is empty", code="empty", file=rel)
        return None
    el_cls = local(obj_el)
    if known and el_cls != cls:
        report.warn(source, f"the file holds a {el_cls}, expected a {cls} (read as {cls})",
                    code="class-mismatch", file=rel)
    props_el, co = _parts(obj_el)
    props: dict[str, Any] = {}
    std: dict[str, dict[str, Any]] | None = None
    first: dict[str, etree._Element] = {}
    if props_el is not None:
        actions = _OBJECT_ACTIONS.get((cls, known))
        if actions is None:
            actions = _OBJECT_ACTIONS[(cls, known)] = {}
        props, _, std, first = _read_properties(
            props_el, actions, lambda tag: _object_action(cls, known, tag), ctx, False)
    name, syn, comment, belonging, ext = _common_values(first)
    obj = MDObject(cls=el_cls if not known else cls, name=name, uuid=obj_el.get("uuid", ""),
                   synonym=syn, comment=comment, known=known, belonging=belonging,
                   extended_uuid=ext, props=props, source_file=rel)
    if std is not None:
        obj.standard_attributes = std
    fill_object_defaults(cls, obj.props, belonging)
    base = rel[:-4]   # folder of the object's own files: Catalogs/X
    if co is not None:
        for c in co:     # plain iterator (cheaper to make than a filtered one, 2,700 per SSL)
            kind = local(c)
            if not kind:     # an entity reference, no element
                continue
            if cls == "Subsystem" and kind == "Subsystem":
                sub = read_object(files, source, "Subsystem", f"{base}/Subsystems/{text(c)}.xml", report,
                                  listed_in=rel)
                if sub is not None:
                    obj.subsystems.append(sub)
                continue
            target = CHILD_COLLECTIONS.get(kind)
            if target is None:
                ctx.unknown(f"{cls} child {kind}")
                continue
            if len(c) == 0 and text(c):          # bare name: the child has its own file
                child: Any = _bare_child(files, base, kind, text(c), ctx)
            else:
                child = _read_child(cls, kind, c, ctx)
            field_name = target[0]
            if field_name == "other":
                obj.other_children.setdefault(kind, []).append(child)
            else:
                getattr(obj, field_name).append(child)
    if cls in PREDEFINED_CLASSES:
        obj.predefined = _read_predefined(files, base, ctx)
    if cls == "ExchangePlan":
        obj.props["content"] = _read_exchange_content(files, base, ctx)
    if cls == "BusinessProcess":
        _read_route_points(files, f"{base}/Ext/Flowchart.xml", obj, ctx)
    return obj


def _read_route_points(files: SourceFiles, rel: str, obj: MDObject, ctx: FileContext) -> None:
    root = load_xml(files, rel, ctx.source, ctx.report)
    if root is not None:
        obj.other_children["RoutePoint"] = route_points(root, FileContext(ctx.source, ctx.report, rel).unknown)


# ---------------------------------------------------------------------------------------
# Configuration.xml


_CONFIG_PROPS = CONFIG_FIELDS
_CONFIG_EXTRA = frozenset(CONFIG_EXTRA)


def read_configuration_header(files: SourceFiles, source: str, report: CompileReport
                              ) -> tuple[Configuration, list[tuple[str, str]]]:
    data = files.read("Configuration.xml")
    if data is None:
        raise ConfigSourceError("Configuration.xml is missing")
    root = parse_bytes(data, "Configuration.xml")   # malformed header: whole source fails
    if local(root) != "MetaDataObject":
        raise ConfigSourceError(f"Configuration.xml: the root element is <{local(root)}>, "
                                f"expected <MetaDataObject>")
    cfg_el = next(elements(root), None)
    if cfg_el is None or local(cfg_el) != "Configuration":
        found = local(cfg_el) if cfg_el is not None else "nothing"
        raise ConfigSourceError(f"Configuration.xml holds <{found}>, expected <Configuration>")
    props_el = cfg_el.find(f"{{{NS_MD}}}Properties")
    name, syn, comment, belonging, _ = _common(props_el)
    cfg = Configuration(name=name, uuid=cfg_el.get("uuid", ""), synonym=syn, comment=comment,
                        format="designer", format_version=root.get("version", ""))
    if props_el is not None:
        for p in elements(props_el):
            n = local(p)
            if n in _CONFIG_PROPS:
                setattr(cfg, _CONFIG_PROPS[n], text(p))
            elif n == "DefaultLanguage":
                cfg.default_language = text(p).partition(".")[2] or text(p)
            elif n in _CONFIG_EXTRA:
                cfg.props[lower_first(n)] = text(p)
            elif n == "DefaultRoles":
                cfg.props["defaultRoles"] = ref_list(p)
            elif n not in _COMMON_NAMES and n not in IGNORED:
                report.note_unknown(source, f"Configuration property {n}", "Configuration.xml")
    finish_header(cfg, belonging)
    children: list[tuple[str, str]] = []
    co = cfg_el.find(f"{{{NS_MD}}}ChildObjects")
    if co is not None:
        for c in elements(co):
            children.append((local(c), text(c)))
    return cfg, children


# ---------------------------------------------------------------------------------------
# Whole source

def _object_path(files: SourceFiles, cls: str, name: str) -> tuple[str, bool]:
    folder = FOLDER.get(cls)
    if folder:
        return f"{folder}/{name}.xml", True
    # An unknown kind: guess the folder the way every known class does (English plural).
    for guess in (cls + "s", cls + "es", cls):
        if files.exists(f"{guess}/{name}.xml"):
            return f"{guess}/{name}.xml", False
    return f"{cls}s/{name}.xml", False


def read_designer(files: SourceFiles, source: str, report: CompileReport) -> Configuration:
    cfg, children = read_configuration_header(files, source, report)
    tasks: list[tuple[str, str, bool]] = []
    for cls, name in children:
        if bad_object_name(report, source, cls, name, "Configuration.xml"):
            continue
        rel, known = _object_path(files, cls, name)
        if not known:
            note_unknown_kind(report, source, cls, name, "Configuration.xml")
            if not files.exists(rel):
                cfg.objects.append(MDObject(cls=cls, name=name, known=False))
                continue
        tasks.append((cls, rel, known))
    add_objects(cfg, tasks, read_received(files, source, __name__, tasks, report))
    return cfg
