"""Role rights (``Roles/<R>/Ext/Rights.xml``; EDT ``Rights.rights``): one XML format in both dumps."""
from __future__ import annotations

from sys import intern

from lxml import etree
from v8atlas.compiler.config.xmlsafe import elements, local, text

from .model import Role, RoleObject

# Restriction templates are repeated in every role that uses them (SSL: 7.3 M characters, of
# which 0.8 M distinct): one string object per distinct text, so a pickle of many roles (a
# worker's batch, the parse cache) holds each text once.
_TEXTS: dict[str, str] = {}


def shared_text(t: str) -> str:
    return _TEXTS.setdefault(t, t)


_FLAGS = {"setForNewObjects": "set_for_new_objects",
          "setForAttributesByDefault": "set_for_attributes_by_default",
          "independentRightsOfChildObjects": "independent_rights_of_child_objects"}


def _object(el: etree._Element) -> RoleObject:
    obj = RoleObject("", line=el.sourceline or 0)
    for c in elements(el):
        n = local(c)
        if n == "name":
            obj.name = text(c)
        elif n == "right":
            right = value = condition = ""
            for r in elements(c):
                rn = local(r)
                if rn == "name":
                    right = intern(text(r))     # a dozen right names in every object of every role
                elif rn == "value":
                    value = text(r)
                elif rn == "restrictionByCondition":
                    for cond in elements(r):
                        if local(cond) == "condition":
                            condition = (cond.text or "").strip()
            obj.rights[right] = value == "true"
            if condition:
                obj.restrictions[right] = condition
    return obj


def read_rights(root: etree._Element, role: Role) -> Role:
    for c in elements(root):
        n = local(c)
        if n in _FLAGS:
            setattr(role, _FLAGS[n], text(c) == "true")
        elif n == "object":
            role.objects.append(_object(c))
        elif n == "restrictionTemplate":
            name = body = ""
            for x in elements(c):
                if local(x) == "name":
                    name = text(x)
                elif local(x) == "condition":
                    body = (x.text or "").strip()
            role.templates.append((name, shared_text(body)))
    # Designer and EDT list objects in different orders; the model is sorted by name.
    role.objects.sort(key=lambda o: o.name)
    return role
