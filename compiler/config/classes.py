"""The top-level metadata classes (domain-1c.md §1.2): English/Russian names and folders.

Designer and EDT use the English plural as the folder name (``Catalogs/``); Designer
``Configuration.xml`` names children by the English singular (``<Catalog>X</Catalog>``), EDT
``Configuration.mdo`` by the lowerCamelCase plural (``<catalogs>Catalog.X</catalogs>``).
"""
from __future__ import annotations

from v8atlas.formats.classes import CLASSES  # the one table; re-exported for the readers

EN_TO_RU: dict[str, str] = {en: ru for en, ru, _, _ in CLASSES}
FOLDER: dict[str, str] = {en: folder for en, _, folder, _ in CLASSES}
FOLDER_TO_CLASS: dict[str, str] = {folder: en for en, _, folder, _ in CLASSES}
# EDT Configuration.mdo child element: lowerCamelCase plural (xDTOPackages, wsReferences, httpServices…)
EDT_COLLECTION: dict[str, str] = {}
for _en, _, _folder, _ in CLASSES:
    EDT_COLLECTION[_folder[0].lower() + _folder[1:]] = _en
EDT_COLLECTION.update({"wsReferences": "WSReference", "httpServices": "HTTPService",
                       "xDTOPackages": "XDTOPackage"})

# Classes kept on the Configuration (not among its objects) — EDT stores them inline.
LANGUAGE = "Language"
