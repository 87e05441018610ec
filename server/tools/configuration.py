"""The configuration domain's tools: metadata objects, their relations, configuration diffs,
and query texts checked against them."""
from __future__ import annotations

from v8atlas.formats.domain import ServePart

from .compare import compare_configurations
from .metadata import get_object, search_metadata
from .query import MAX_QUERY_TEXT, check_query
from .relations import get_relations
from .spec import CONFIG, CURSOR, LIMIT, Param, ToolSpec

SERVE = ServePart("configuration", tools=(
    ToolSpec("search_metadata", "Search metadata",
             "Find configuration objects by words, synonym or partial name; says why each matched.",
             (Param("query", "string", required=True), CONFIG,
              Param("kind", "string", "Class, e.g. Catalog or Справочник"), LIMIT),
             search_metadata),
    ToolSpec("get_object", "Get object",
             "An object's card by exact name (Справочник.X): attributes with types, tabular sections, "
             "query tables, movements, relations, roles; also Справочник.X.Форма.Y, Отчет.X.Макет.Y.",
             (Param("name", "string", required=True), CONFIG,
              Param("detail", "string", default="brief", enum=("brief", "fields", "full")),
              Param("table", "string", "One query table with typed fields, e.g. Остатки"), CURSOR),
             get_object),
    ToolSpec("get_relations", "Get relations",
             "One step of relations of an object: what it references and what references it.",
             (Param("name", "string", required=True), CONFIG,
              Param("direction", "string", default="both", enum=("both", "out", "in")),
              Param("kind", "string", "Edge kind, e.g. attribute_type, movement, form_handler"),
              Param("weak", "boolean", "Include weak edges (wide composite types)", default=False),
              CURSOR),
             get_relations),
    ToolSpec("compare_configurations", "Compare configurations",
             "Objects and fields added, removed or changed between configurations a and b "
             "(or one object with name).",
             (Param("a", "string", required=True), Param("b", "string", required=True),
              Param("name", "string", "One object to diff field by field"), CURSOR),
             compare_configurations),
    ToolSpec("check_query", "Check query",
             "Check a 1C query text against the configuration: tables, virtual tables, fields and paths, "
             "ЗНАЧЕНИЕ values, unlimited strings, functions of its platform. ok, or problems with line:col and fix.",
             (Param("text", "string", required=True, max_length=MAX_QUERY_TEXT), CONFIG),
             check_query),
))
