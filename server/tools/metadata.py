"""search_metadata and get_object: objects of a configuration, by words or by exact name."""
from __future__ import annotations

from typing import Any

from v8atlas.formats.text import fold

from ..search_adapter import Filters
from ..snapshot import Snapshot
from . import answer as A
from .code import code_blocks
from .common import address, node, resolve_config, resolve_kind
from .render import (field_line, generic_blocks, is_type_value, item_lines, item_text, list_blocks,
                     text_of, type_text, value_text)
from .result import FOUND, NOT_FOUND, ToolResult
from .ui_blocks import form_blocks, rights_blocks, roles_blocks, template_blocks

METADATA = "metadata"

# Card keys with their own rendering, in the order they are shown; anything else goes last.
_HEAD_KEYS = ("name", "full_name", "title", "class", "class_ru", "class_en", "kind", "synonym", "owner",
              "comment", "config", "key", "extension", "schema", "language", "class_name", "class_alias",
              "full_name_alias", "ref_type", "ref_type_alias", "source_file", "synonyms", "known")
_FIELD_SECTIONS = (("standard_attributes", "Standard attributes"), ("attributes", "Attributes"),
                   ("dimensions", "Dimensions"), ("resources", "Resources"),
                   ("addressing_attributes", "Addressing attributes"),
                   ("accounting_flags", "Accounting flags"),
                   ("ext_dimension_accounting_flags", "Subconto accounting flags"),
                   ("columns", "Columns"), ("values", "Values"), ("enum_values", "Values"))
_LIST_SECTIONS = (("movements", "Writes to registers"),
                  ("recorders", "Recorded by (documents)"), ("register_records", "Writes to registers"),
                  ("registers", "Registers written"), ("documents", "Documents"),
                  ("based_on", "Based on"), ("owners", "Owners"), ("subordinates", "Subordinate catalogs"),
                  ("content", "Content"), ("common_attributes", "Common attributes"),
                  ("route_points", "Route points"), ("recalculations", "Recalculations"),
                  ("subsystems", "Nested subsystems"), ("forms", "Forms"), ("commands", "Commands"),
                  ("templates", "Templates"), ("predefined", "Predefined items"))
_BRIEF_LISTS = ("movements", "recorders", "register_records", "registers", "based_on", "owners", "documents")
# Card lists whose items are also edges of the graph: get_relations pages through them.
_EDGE_OF = {"movements": ("movement", "out"), "recorders": ("movement", "in"),
            "register_records": ("movement", "out"), "based_on": ("based_on", "out"),
            "owners": ("owner", "out"), "subordinates": ("owner", "in"),
            "documents": ("journal_document", "out"), "content": ("subsystem_content", "out"),
            "common_attributes": ("common_attribute", "in")}
# Properties that hold lists of objects, by class: the edge kind that lists them.
_PROPERTY_EDGE = {("ExchangePlan", "content"): "exchange_plan_content",
                  ("CommonAttribute", "content"): "common_attribute",
                  ("Subsystem", "content"): "subsystem_content",
                  ("DocumentJournal", "registered_documents"): "journal_document",
                  ("DefinedType", "type"): "defined_type",
                  ("EventSubscription", "source"): "subscription_source",
                  ("FunctionalOption", "content"): "functional_option",
                  ("Sequence", "documents"): "sequence"}


def _relations_hint(title: str, kind: str, direction: str) -> str:
    return f"get_relations name=`{title}` kind={kind} direction={direction}"


def property_blocks(props: dict[str, Any], cls: str, title: str, full: bool) -> list[str]:
    """Plain properties on one line; types and lists of objects each on their own block."""
    simple, blocks = [], []
    for k, v in props.items():
        if v in (None, "", [], {}):
            continue
        if is_type_value(v):
            blocks.append(f"**{k}**: {type_text(v, full)}")
        elif isinstance(v, list) and (len(v) > 5 or any(isinstance(x, (dict, list)) for x in v)):
            edge = _PROPERTY_EDGE.get((cls, k))
            blocks += list_blocks(k, v, full, _relations_hint(title, edge, "out") if edge else "")
        else:
            simple.append(f"{k}: {value_text(v, full)}")
    return (["**Properties:** " + "; ".join(simple)] if simple else []) + blocks


def extension_blocks(ext: Any) -> tuple[list[str], list[str]]:
    """What extensions did to the object (base+extensions views): head lines, body blocks."""
    if not isinstance(ext, dict):
        return [f"Extension: {value_text(ext)}"], []
    head, body = [], []
    if ext.get("added_by"):
        head.append(f"Added by extension `{ext['added_by']}` (not in the base configuration).")
    if ext.get("adopted_by"):
        head.append("Adopted by extension(s): " + ", ".join(f"`{e}`" for e in ext["adopted_by"])
                    + " (the base object, changed or extended there).")
    additions = ext.get("additions")
    if isinstance(additions, dict):
        for name, items in additions.items():
            body.append(f"**Added by extension `{name}`** ({len(items)}): "
                        + ", ".join(f"`{i}`" for i in items))
    for k, v in ext.items():
        if k not in ("added_by", "adopted_by", "additions") and v not in (None, "", [], {}):
            head.append(f"Extension {k}: {value_text(v)}")
    return head, body


def empty_domain(snap: Snapshot) -> ToolResult | None:
    if snap.docs_per_domain.get(METADATA, 0) == 0 or not snap.configs:
        return A.unavailable(f"no configuration is loaded in bundle `{snap.id}`; compile a "
                             "configuration dump (`v8atlas compile DUMP …`) to ask about objects.",
                             {"reason": "no_configuration"})
    return None


def search_metadata(snap: Snapshot, query: str, config: str | None = None, kind: str | None = None,
                    limit: int = 10) -> ToolResult:
    if (r := empty_domain(snap)) is not None:
        return r
    cfg = resolve_config(snap, config)
    k = resolve_kind(snap, kind, METADATA)
    found = snap.search.find(query, Filters(domains=(METADATA,), config=cfg.index if cfg else None,
                                            kind=k), limit)
    hits = found.hits
    where = f" in `{cfg.name}`" if cfg else ""
    among = f" among {k}" if k else ""
    data = {"engine": snap.search.engine, **found.as_data()}
    if not hits:
        return A.answer(NOT_FOUND, f"nothing matches {query!r}{where}{among}. Try other words, "
                        "a synonym or drop `kind`.", found.explain_lines(), {"hits": [], **data})
    if found.guesses_only:
        lines = [A.headline(NOT_FOUND, f"no confident match for {query!r}{where}{among}; "
                            "nearest guesses (not matches; check before use):")]
        outcome = NOT_FOUND
    else:
        shown = f"{len(hits)} of {found.total}" if found.total > len(hits) else f"{len(hits)}"
        lines = [A.headline(FOUND, f"{shown} object(s) for {query!r}{where}"
                                   f"{f' ({k})' if k else ''}; ask `get_object` with the exact name:")]
        outcome = FOUND
    lines += found.explain_lines()
    data_hits = []
    for i, h in enumerate(hits, 1):
        card = snap.catalog.card(h.doc)
        syn = text_of(card.get("synonym")) if isinstance(card, dict) else ""
        syn_part = f" — {syn}" if syn and syn != snap.title(h.doc).rsplit(".", 1)[-1] else ""
        guess = " · guess" if h.fuzzy and outcome == FOUND else ""
        lines.append(f"{i}. {address(snap, h.doc)}{syn_part} · {snap.catalog.kind_name(h.doc)}{guess}"
                     f" · why: {h.why or 'text match'}")
        data_hits.append({**node(snap, h.doc), "synonym": syn, "score": round(h.score, 4), "why": h.why,
                          "matches": list(h.matches), "fuzzy": h.fuzzy})
    return ToolResult(outcome, "\n".join(lines) + "\n", {"hits": data_hits, **data})


def object_line(snap: Snapshot, doc: int) -> str:
    return f"- {address(snap, doc)} · {snap.catalog.kind_name(doc)}"


def candidates(snap: Snapshot, name: str, domains: tuple[str, ...], config_index: int | None
               ) -> list[int]:
    docs = [d for d in snap.catalog.lookup(name) if snap.catalog.domain_name(d) in domains]
    if config_index is not None:
        docs = [d for d in docs if int(snap.catalog.config[d]) == config_index]
    return docs


def nearest(snap: Snapshot, name: str, domains: tuple[str, ...], config_index: int | None,
            version: int | None = None, limit: int = 5) -> list[int]:
    """Guesses for a name that did not resolve: the parent address, then search hits."""
    out: list[int] = []
    parts = name.split(".")
    while len(parts) > 2:
        parts = parts[:-1]
        out += candidates(snap, ".".join(parts), domains, config_index)
    words = name.replace(".", " ")
    out += [h.doc for h in snap.search.search(words, Filters(domains=domains, config=config_index,
                                                             version=version), limit)]
    return list(dict.fromkeys(out))[:limit]


def get_object(snap: Snapshot, name: str, config: str | None = None, detail: str = "brief",
               table: str | None = None, cursor: str | None = None) -> ToolResult:
    if (r := empty_domain(snap)) is not None:
        return r
    cfg = resolve_config(snap, config, required_when_many=False)
    docs = candidates(snap, name, (METADATA,), cfg.index if cfg else None)
    args = {"name": name, "config": cfg.name if cfg else None, "detail": detail, "table": table,
            "cursor": cursor}
    if not docs:
        guesses = nearest(snap, name, (METADATA,), cfg.index if cfg else None)
        return A.not_found(f"no object named {name!r}{f' in `{cfg.name}`' if cfg else ''}.", guesses,
                           lambda d: object_line(snap, d), lambda d: node(snap, d))
    if len(docs) > 1:
        return A.ambiguous(f"{name!r} names {len(docs)} objects; ask again with one of:", docs,
                           lambda d: object_line(snap, d), lambda d: node(snap, d))
    doc = docs[0]
    card = snap.catalog.card(doc)
    if table:
        outcome, head, body = query_table(snap, doc, card if isinstance(card, dict) else {}, table)
        return A.paged(snap, "get_object", args, outcome, head, body,
                      {"object": node(snap, doc), "table": table})
    head, body = object_blocks(snap, doc, card if isinstance(card, dict) else {"value": card}, detail)
    return A.paged(snap, "get_object", args, FOUND, head, body,
                  {"object": node(snap, doc), "detail": detail})


def object_blocks(snap: Snapshot, doc: int, card: dict[str, Any], detail: str
                  ) -> tuple[list[str], list[str]]:
    full = detail == "full"
    title = snap.title(doc)
    cfg = snap.catalog.config_name(doc)
    kind = snap.catalog.kind_name(doc)
    syn = text_of(card.get("synonym"))
    head = [A.headline(FOUND, f"`{title}` · {kind}") + (f" · config `{cfg}`" if cfg else "")
            + (f" · detail={detail}" if detail != "brief" else "")]
    if syn:
        head.append(f"Synonym: {syn}")
    if card.get("ref_type") and detail != "brief":
        head.append(f"Reference type: `{card['ref_type']}`"
                    + (f" / `{card['ref_type_alias']}`" if card.get("ref_type_alias") else ""))
    if card.get("comment"):
        head.append(f"Comment: {text_of(card['comment'])}")
    if card.get("known") is False:
        head.append("Kind unknown to the reader: the card holds what it could read.")
    if card.get("owner"):
        head.append(f"Owner: `{card['owner']}`")
    ext = card.get("extension")
    ext_head, ext_body = extension_blocks(ext) if ext else ([], [])
    head += ext_head
    body: list[str] = []
    props = card.get("properties")
    if isinstance(props, dict) and props:
        body += property_blocks(props, str(card.get("class") or kind), title, full)
    elif props:
        body.append(f"**Properties:** {value_text(props, full)}")
    done = set(_HEAD_KEYS) | {"properties"}
    # Query tables first: they are what code is written against; long lists come after.
    qt = card.get("query_tables")
    if isinstance(qt, list) and qt:
        done.add("query_tables")
        body += query_table_blocks(qt, detail)
    listed_recorders = _recorder_types(card)

    for key, label in _FIELD_SECTIONS:
        fields = card.get(key)
        if not isinstance(fields, list) or not fields:
            continue
        done.add(key)
        if detail == "brief":
            names = [str(f.get("name", "?")) if isinstance(f, dict) else str(f) for f in fields]
            shown = ", ".join(f"`{n}`" for n in names[:12])
            body.append(f"**{label}** ({len(fields)}): {shown}{' …' if len(names) > 12 else ''}")
        else:
            body.append(f"**{label}** ({len(fields)}):")
            body += [field_line(_point_to_recorders(f, listed_recorders), full) for f in fields]

    ts = card.get("tabular_sections")
    if isinstance(ts, list) and ts:
        done.add("tabular_sections")
        if detail == "brief":
            body.append(f"**Tabular sections** ({len(ts)}): " + ", ".join(
                f"`{t.get('name', '?')}` ({len(t.get('attributes') or [])} fields)" if isinstance(t, dict)
                else f"`{t}`" for t in ts))
        else:
            body.append(f"**Tabular sections** ({len(ts)}):")
            for t in ts:
                if not isinstance(t, dict):
                    body.append(f"- `{t}`")
                    continue
                syn_t = text_of(t.get("synonym"))
                attrs = t.get("attributes") or []
                origin = f" [from extension `{t['origin']}`]" if t.get("origin") else ""
                body.append(f"- `{t.get('name', '?')}`{f' — {syn_t}' if syn_t else ''}{origin} "
                            f"({len(attrs)} fields):")
                body += [field_line(a, full, indent="  ") for a in attrs]

    mv = card.get("movements")
    if isinstance(mv, dict):
        card = dict(card)
        card["movements"] = mv.get("registers")
        if mv.get("recorders"):
            card["recorders"] = mv["recorders"]
        for k, v in mv.items():
            if k not in ("registers", "recorders") and v:
                card[f"movements_{k}"] = v
    for key, label in _LIST_SECTIONS:
        v = card.get(key)
        if v in (None, "", [], {}):
            continue
        if detail == "brief" and key not in _BRIEF_LISTS:
            n = len(v) if isinstance(v, (list, dict)) else 1
            body.append(f"**{label}**: {n} (detail=full lists them)")
            done.add(key)
            continue
        done.add(key)
        edge = _EDGE_OF.get(key)
        hint = _relations_hint(title, *edge) if edge else ""
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v) and detail != "brief":
            body.append(f"**{label}** ({len(v)}):")
            body += item_lines(v, full)       # forms, commands, route points, predefined (nested)…
        elif isinstance(v, list):
            body += list_blocks(label, v, full, hint)
        else:
            body.append(f"**{label}**: {value_text(v, full)}")

    body += code_blocks(card, done)    # modules, handlers and a common module's API (code domain)
    body += ext_body
    done.add("extension")
    # Forms, schemas and rights (compiler/forms): sub-object cards and sections of objects.
    for key, render in (("form", form_blocks), ("template", template_blocks), ("rights", rights_blocks)):
        if isinstance(card.get(key), dict):
            done.add(key)
            body += render(card[key], detail)
    if isinstance(card.get("roles"), list) and card["roles"]:
        done.add("roles")
        body += roles_blocks(card["roles"], detail, "Role" if card.get("language") == "en" else "Роль")
    other = card.get("other_children")
    if isinstance(other, dict) and other:
        done.add("other_children")
        for kind_name, items in other.items():
            if not isinstance(items, list):
                body.append(f"**{kind_name}**: {value_text(items, full)}")
            elif detail == "brief":
                body.append(f"**{kind_name}** ({len(items)}): {value_text(items, False, 5)} (detail=fields lists them)")
            else:
                body.append(f"**{kind_name}** ({len(items)}):")
                body += [field_line(x, full) if isinstance(x, dict) and ("type" in x or "types" in x)
                         else f"- {item_text(x, full)}" for x in items]
    rel = card.get("relations")
    done.add("relations")
    summary = snap.graph.summary(doc) if snap.graph is not None else None
    if not summary and isinstance(rel, dict):
        summary = rel
    if summary:
        if True:
            parts = []
            for key, label in (("out", "outgoing"), ("in", "incoming"), ("out_weak", "weak outgoing"),
                               ("in_weak", "weak incoming")):
                if isinstance(summary.get(key), dict) and summary.get(key):
                    parts.append(f"{label}: " + ", ".join(f"{k} {n}" for k, n in summary[key].items()))
            body.append("**Relations**: " + "; ".join(parts) + " (get_relations lists them)")

    rest = [k for k in card if k not in done and card[k] not in (None, "", [], {})]
    if detail == "full" and card.get("source_file"):
        body.append(f"Source file in the dump: `{card['source_file']}`")
    if rest:
        if detail == "full":
            for k in rest:
                body += generic_blocks(k, card[k], full)
        else:
            body.append("Also in the card (detail=full): " + ", ".join(rest))
    if detail == "brief":
        body.append("More: detail=fields (fields with types, query tables) or detail=full.")
    return head, body


def _recorder_types(card: dict[str, Any]) -> set[str]:
    """Object names of the documents the card lists as recorders ("recorded by")."""
    mv = card.get("movements")
    recorders = mv.get("recorders") if isinstance(mv, dict) else None
    return {str(r).split(".", 1)[-1] for r in recorders} if isinstance(recorders, list) else set()


def _point_to_recorders(f: Any, recorders: set[str]) -> Any:
    """A field typed by exactly the recorder documents (Регистратор) names the list instead of
    repeating it: the card lists those documents once, under "Recorded by"."""
    types = f.get("types") if isinstance(f, dict) else None
    if not recorders or len(recorders) <= 3 or not isinstance(types, list) or \
            {str(t).split(".", 1)[-1] for t in types} != recorders:
        return f
    head = str(types[0]).split(".", 1)[0]
    return {**f, "types": None, "type": f"{head} of the {len(types)} documents under «Recorded by»"}


def query_table(snap: Snapshot, doc: int, card: dict[str, Any], table: str) -> tuple[str, list[str], list[str]]:
    """(outcome, head, body) for one query table of the card, by full or short name."""
    tables = [t for t in card.get("query_tables") or [] if isinstance(t, dict)]
    want = fold(table)
    title = snap.title(doc)

    def names(t: dict[str, Any]) -> list[str]:
        full = [str(t.get("name") or ""), str(t.get("alias") or "")]
        return [fold(n) for n in full] + [fold(n.split(".", 2)[-1]) for n in full if n.count(".") >= 2]

    hit = next((t for t in tables if want in names(t)), None)
    if hit is None:
        listed = ", ".join(f"`{t.get('name')}`" for t in tables) or "none"
        return NOT_FOUND, [A.headline(NOT_FOUND, f"`{title}` has no query table {table!r}; "
                                             f"its query tables: {listed}.")], []
    params = hit.get("params") or []
    head = [A.headline(FOUND, f"query table `{hit.get('name')}`"
                       + (f"({', '.join(map(str, params))})" if params else "") + f" of `{title}`")]
    body = [f"Alias: `{hit['alias']}`"] if hit.get("alias") else []
    fields = hit.get("fields") or []
    body.append(f"**Fields** ({len(fields)}):")
    body += [field_line(f, True) for f in fields]
    if hit.get("note"):
        body.append(f"Note: {text_of(hit['note'])}")
    return FOUND, head, body


def query_table_blocks(tables: list[Any], detail: str) -> list[str]:
    """Query tables: names always; parameters and generated field names outside brief."""
    if detail == "brief":
        names = [str(t.get("name", "?")) if isinstance(t, dict) else str(t) for t in tables]
        return [f"**Query tables** ({len(names)}): " + ", ".join(f"`{n}`" for n in names)]
    full = detail == "full"
    out = [f"**Query tables** ({len(tables)}):"]
    for t in tables:
        if not isinstance(t, dict):
            out.append(f"- `{t}`")
            continue
        params = t.get("params") or t.get("parameters") or []
        p_text = ", ".join(p.get("name", "?") if isinstance(p, dict) else str(p) for p in params)
        kind = t.get("kind")
        lines = [f"- `{t.get('name', '?')}" + (f"({p_text})`" if params else "`")
                 + (f" — {kind}" if kind and kind != "object" else "")
                 + (f" — {text_of(t.get('description'))}" if t.get("description") else "")]
        fields = t.get("fields") or []
        names = [str(f.get("name", "?")) if isinstance(f, dict) else str(f) for f in fields]
        if names:
            if full or len(names) <= 40:
                lines.append("  fields: " + ", ".join(names))
            else:
                lines.append(f"  fields ({len(names)}): " + ", ".join(names[:40]) + " … (detail=full)")
        for f in fields:
            if isinstance(f, dict) and f.get("unlimited"):
                lines.append(field_line(f, full, indent="  "))
        if t.get("note") and full:
            lines.append(f"  note: {text_of(t['note'])}")
        out.append("\n".join(lines))
    return out


__all__ = ["search_metadata", "get_object", "candidates", "nearest", "type_text"]
