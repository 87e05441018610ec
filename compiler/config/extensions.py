"""Configuration extensions: attach to a base, overlay, and name checks across sources.

``overlay(base, *extensions)`` returns a new ``Configuration`` — the base as the platform
sees it with the extensions applied (the base object itself is not modified):

* an extension's own objects (ObjectBelonging Native) are added, ``origin`` = extension name;
* an adopted object (Adopted) overlays the base object of the same class and name (matched
  by ``extended_uuid`` first, then by name): the base object gets ``extended_by`` += extension,
  the extension's own attributes, tabular sections, dimensions, resources, enum values,
  forms, commands and templates are appended with ``origin`` = extension name; adopted
  children add nothing (they are the base's own); an adopted object's properties only
  override the base where the extension states them (rarely: adopted objects state almost
  nothing);
* an adopted object with no base object is left out and reported (``problems``, as
  ``Unmatched``) — the extension was made for another configuration version.

``check_unique_names(configs)`` raises DuplicateConfiguration when two sources declare the
same configuration name; ``attach(configs)`` pairs extensions with bases.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import NamedTuple

from .model import ADOPTED, Configuration, MDObject


class DuplicateConfiguration(Exception):
    """Two sources claim the same configuration name."""


class ExtensionError(Exception):
    """An extension cannot be attached (base named but absent, or ambiguous)."""


def check_unique_names(configs: list[Configuration]) -> None:
    """Configurations (not extensions) are addressed by name: two with one name is an error."""
    seen: dict[str, Configuration] = {}
    for c in configs:
        key = ("ext:" if c.is_extension else "") + c.name.casefold()
        if key in seen:
            other = seen[key]
            kind = "extension" if c.is_extension else "configuration"
            raise DuplicateConfiguration(
                f"two sources declare the {kind} name {c.name!r}: {other.source} and {c.source}; "
                f"a bundle addresses configurations by name — compile them into separate bundles "
                f"or drop one")
        seen[key] = c


@dataclass
class Attached:
    base: Configuration
    extensions: list[Configuration] = field(default_factory=list)


def attach(configs: list[Configuration]) -> tuple[list[Attached], list[str]]:
    """Pair each extension with its base: ``base_name`` (from v8atlas.toml) or, when there is
    exactly one base configuration, that one. Returns (pairs, problems)."""
    bases = [c for c in configs if not c.is_extension]
    by_name = {c.name.casefold(): Attached(c) for c in bases}
    problems: list[str] = []
    for ext in (c for c in configs if c.is_extension):
        if ext.base_name:
            target = by_name.get(ext.base_name.casefold())
            if target is None:
                problems.append(f"extension {ext.name} ({ext.source}): base configuration "
                                f"{ext.base_name!r} is not among the sources")
                continue
        elif len(bases) == 1:
            target = by_name[bases[0].name.casefold()]
        else:
            problems.append(f"extension {ext.name} ({ext.source}): cannot tell its base among "
                            f"{len(bases)} configurations; set base = \"Name\" in its [[extension]] table")
            continue
        target.extensions.append(ext)
    return list(by_name.values()), problems


_CHILD_LISTS = ("attributes", "tabular_sections", "dimensions", "resources", "accounting_flags",
                "ext_dimension_accounting_flags", "addressing_attributes", "columns", "enum_values",
                "forms", "templates", "commands", "recalculations")


def _merge_object(base: MDObject, adopted: MDObject, ext_name: str) -> None:
    if ext_name not in base.extended_by:
        base.extended_by.append(ext_name)
    for lst in _CHILD_LISTS:
        target = getattr(base, lst)
        for child in getattr(adopted, lst):
            if child.belonging == ADOPTED:
                # an adopted tabular section may still get the extension's own attributes
                if lst == "tabular_sections":
                    mine = next((t for t in base.tabular_sections if t.name == child.name), None)
                    if mine is not None:
                        for a in child.attributes:
                            if a.belonging != ADOPTED:
                                a2 = copy.copy(a)
                                a2.origin = ext_name
                                mine.attributes.append(a2)
                continue
            c2 = copy.copy(child)
            c2.origin = ext_name
            target.append(c2)
    for kind, children in adopted.other_children.items():
        for child in children:
            if child.belonging != ADOPTED:
                c2 = copy.copy(child)
                c2.origin = ext_name
                base.other_children.setdefault(kind, []).append(c2)
    for k, v in adopted.props.items():
        base.props[k] = v   # an adopted object states only what the extension controls


class Unmatched(NamedTuple):
    """An adopted object with no object in the base (the extension was made for another version)."""
    extension: Configuration
    obj: MDObject


def overlay(base: Configuration, *extensions: Configuration,
            problems: list[Unmatched] | None = None) -> Configuration:
    """Base + extensions, as a new Configuration; ``problems`` collects adopted objects
    without a base object, each with its extension (whose source the report names)."""
    merged = copy.deepcopy(base)
    # Only the base's own objects can be adopted: an extension never adopts another one's.
    index = {(o.cls, o.name): o for o in merged.objects}
    by_uuid = {o.uuid: o for o in merged.objects if o.uuid}
    for ext in extensions:
        for obj in ext.objects:
            if obj.belonging == ADOPTED:
                target = by_uuid.get(obj.extended_uuid) or index.get((obj.cls, obj.name))
                if target is None:
                    if problems is not None:
                        problems.append(Unmatched(ext, obj))
                    continue
                _merge_object(target, copy.deepcopy(obj), ext.name)
            else:
                own = copy.deepcopy(obj)
                own.origin = ext.name
                merged.objects.append(own)
        merged.extensions.append(ext.name)
    return merged
