"""Check a parsed query against a Schema: names, paths, virtual tables, values, functions, unlimited strings.

Only what the bundle proves is an error: a table the configuration lacks, a field a fully known
table lacks, a path through types none of which has the next field, a value that is neither
listed nor ПустаяСсылка, a function newer than the configuration's platform, an unlimited string
where the platform refuses one. Whatever rests on something the checker cannot see (a temporary
table from a manager, a dynamic fragment, an unknown type) is skipped or a warning.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from v8atlas.formats.platform_version import format_version

from ..search_adapter import Filters
from . import ast as A
from .lexer import name_fold as fold
from .schema import Field, Schema, Table, has_unlimited_type
from .words import FUNCTION, PERIOD_WORDS, PRIMITIVE_TYPES

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    severity: str
    line: int
    col: int
    code: str
    message: str
    fix: str = ""

    def as_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"severity": self.severity, "line": self.line, "col": self.col,
                                "code": self.code, "message": self.message}
        if self.fix:
            d["fix"] = self.fix
        return d


@dataclass(slots=True)
class Resolved:
    """What a path names: its possible fields (several for a composite path) or unknown."""
    fields: list[Field] = field(default_factory=list)
    known: bool = False

    @property
    def unlimited(self) -> Field | None:
        return next((f for f in self.fields if f.unlimited), None) if self.known else None


_UNKNOWN = Resolved()
_LEAVES = (type(None), A.Param, A.Literal, A.Fragment)     # expressions that name nothing to check


@dataclass
class Scope:
    sources: dict[str, Table | None]            # folded alias → table (None: not knowable)
    outer: Scope | None = None
    items: dict[str, A.Expr] = field(default_factory=dict)   # select aliases (ORDER BY, ИТОГИ)
    implicit: bool = False                      # a source without КАК: its alias is a guess

    @property
    def complete(self) -> bool:
        return all(t is not None and t.complete for t in self.sources.values())


def _near(name: str, options: list[str], n: int = 5) -> list[str]:
    folded = {fold(o): o for o in options}
    key = fold(name)
    out = [folded[m] for m in difflib.get_close_matches(key, list(folded), n=n, cutoff=0.6)]
    # A name sharing a long head with the asked one (КоличествоОстаток → КоличествоОборот …).
    for cut in range(len(key) - 1, 3, -1):
        same = [o for k, o in folded.items() if k.startswith(key[:cut]) and o not in out]
        if same:
            out += same[: n]
            break
    return out[: n + 3]


def _names(xs: list[str]) -> str:
    return ", ".join(f"`{x}`" for x in xs)


def _listing(xs: list[str], limit: int = 12) -> str:
    return _names(xs[:limit]) + (f" … ({len(xs)} in all; get_object lists them)" if len(xs) > limit else "")


class Checker:
    def __init__(self, schema: Schema, platform_code: int | None = None) -> None:
        self.schema = schema
        self.platform = platform_code if platform_code is not None else schema.platform_code
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self.temp: dict[str, Table | None] = {}
        self.resolved: dict[int, Resolved] = {}      # id(Path) → what it names (the AST outlives the check)

    # -- reporting -------------------------------------------------------------------------------
    def error(self, node: A.Node, code: str, message: str, fix: str = "") -> None:
        self.problems.append(Problem(ERROR, node.line, node.col, code, message, fix))

    def warn(self, node: A.Node, code: str, message: str, fix: str = "") -> None:
        self.problems.append(Problem(WARNING, node.line, node.col, code, message, fix))

    # -- statements -------------------------------------------------------------------------------
    def statements(self, stmts: list[A.Statement]) -> None:
        for st in stmts:
            if isinstance(st, A.Drop):
                self.temp.pop(fold(st.name), None)
                continue
            out = self.query(st, None)
            into = st.parts[0].into
            if into:
                self.temp[fold(into)] = out

    def query(self, q: A.Query, outer: Scope | None) -> Table:
        first: Scope | None = None
        result: Table | None = None
        for i, part in enumerate(q.parts):
            scope, table = self.select(part, outer)
            if i == 0:
                first, result = scope, table
            elif result is not None:
                self._merge_union(result, table)
        assert first is not None and result is not None
        for e in q.order_by:
            self.expr(e, first, "order")
            self.unlimited_in(e, first, "УПОРЯДОЧИТЬ ПО", "order by")
        for e in q.totals:
            self.expr(e, first, "totals")
        # ИНДЕКСИРОВАТЬ ПО names the result's columns (the first part's names), wherever it is written.
        for e in [e for part in q.parts for e in part.index_by] + q.index_by:
            self.expr(e, first, "order")
        for t in q.for_update:
            if len(t.parts) >= 2:
                self.table_name(t, t.parts)
        return result

    def _merge_union(self, result: Table, other: Table) -> None:
        """Columns of a union: names of the first part; types of every part."""
        for name, f in list(result.fields.items()):
            pos = result.names.index(f.name) if f.name in result.names else -1
            if 0 <= pos < len(other.names):
                o = other.fields.get(fold(other.names[pos]))
                if o is None or not f.types or not o.types:
                    result.fields[name] = Field(f.name, (), f.unlimited or bool(o and o.unlimited))
                else:
                    result.fields[name] = Field(f.name, tuple(dict.fromkeys(f.types + o.types)),
                                                f.unlimited or o.unlimited, f.recipe or o.recipe)
        result.complete = result.complete and other.complete

    def select(self, s: A.Select, outer: Scope | None) -> tuple[Scope, Table]:
        scope = Scope({}, outer)
        for src in s.sources:
            self.source(src, scope)
        for src in s.sources:
            self.join_conditions(src, scope)
        for it in s.items:
            if it.alias:
                scope.items[fold(it.alias)] = it.expr
        out = Table("", "subquery")
        auto = 0
        for it in s.items:
            e = it.expr
            is_path = type(e) is A.Path
            if is_path and e.star:
                self.star(e, scope, out)
                continue
            r = self.expr(e, scope, "select")
            name = it.alias or (e.parts[-1] if is_path and e.parts and not e.nested else None)
            if name is None and isinstance(e, (A.Param, A.Fragment)):
                out.complete = False     # `ВЫБРАТЬ &СписокКолонок`: a list the module puts in
            if name is None:
                auto += 1
                name = f"Поле{auto}"     # the platform's own name for an unnamed column
            f = self.expr_field(e, scope, r)
            if f is not None and f.name == name:
                col = f                  # the same value (fields are immutable), not built again
            else:
                col = Field(name, f.types if f else (), bool(f and f.unlimited), f.recipe if f else None)
            out.fields.setdefault(fold(name), col)
            out.names.append(name)
            if s.distinct and f is not None and f.unlimited:
                self.unlimited_error(it.expr, f, "РАЗЛИЧНЫЕ", "distinct")
        if s.where is not None:
            self.expr(s.where, scope, "where")
        for e in s.group_by:
            self.expr(e, scope, "group")
            self.unlimited_in(e, scope, "СГРУППИРОВАТЬ ПО", "group by")
        if s.having is not None:
            self.expr(s.having, scope, "order")
        for t in s.for_update:
            if len(t.parts) >= 2:
                self.table_name(t, t.parts)
        return scope, out

    def star(self, p: A.Path, scope: Scope, out: Table) -> None:
        tables: list[Table | None]
        if p.parts:
            key = fold(p.parts[0])
            if key not in scope.sources:
                out.complete = False
                return
            tables = [scope.sources[key]]
        else:
            tables = list(scope.sources.values())
        for t in tables:
            if t is None or not t.complete:
                out.complete = False
                continue
            for n in t.names:
                f = t.get(n)
                if f and f.name not in out.names:
                    out.fields.setdefault(fold(n), f)
                    out.names.append(n)
        if not tables:
            out.complete = False

    # -- sources -----------------------------------------------------------------------------------
    def source(self, src: A.Source, scope: Scope) -> None:
        if isinstance(src, A.Join):
            self.source(src.left, scope)
            self.source(src.right, scope)
            return
        if isinstance(src, A.SubquerySource):
            t = self.query(src.query, scope.outer)
            alias = src.alias or ""
            scope.sources[fold(alias)] = t
            return
        alias = src.alias or src.parts[-1]
        if not src.alias and len(src.parts) > 1:
            # Without КАК the platform's own alias is not documented here: accept the spellings
            # in use (`СрезПоследних`, `ЦеныНоменклатурыСрезПоследних`) and judge no other head.
            scope.implicit = True
        if src.dynamic:
            scope.sources[fold(alias)] = None
            return
        if len(src.parts) == 1:
            key = fold(src.parts[0])
            if key in self.temp:
                scope.sources[fold(alias)] = self.temp[key]
            else:
                scope.sources[fold(alias)] = None
                self.warn(src, "outside_table", f"`{src.parts[0]}` is not created earlier in this text "
                          "(a temporary tables manager may hold it); its fields are not checked")
            if src.params is not None:
                pass
            return
        table = self.table_name(src, src.parts)
        scope.sources[fold(alias)] = table
        if not src.alias and len(src.parts) > 2:
            scope.sources.setdefault(fold("".join(src.parts[1:])), table)
        if table is not None:
            self.table_params(src, table, scope)
        elif src.params:
            for p in src.params:
                if p is not None:
                    self.expr(p, Scope({}, None), "param")

    def table_name(self, node: A.Node, parts: list[str]) -> Table | None:
        name = ".".join(parts)
        look = self.schema.table(parts)
        if look.status == "found":
            return look.table
        if look.status == "not_a_table":
            if len(parts) >= 2:
                self.error(node, "unknown_table", f"`{name}`: `{parts[0]}` is not a kind of query table",
                           self._class_fix(parts[0]))
            return None
        if look.status == "no_object":
            obj = ".".join(parts[:2])
            guesses = self._object_guesses(parts)
            self.error(node, "unknown_table", f"the configuration has no `{obj}`",
                       f"did you mean {_names(guesses)}?" if guesses else "")
            return None
        tail = parts[-1]
        others = [t for t in look.tables if fold(t) != fold(name)]
        self.error(node, "unknown_table", f"`{look.object_title}` has no table `{tail}`{self._why_no_table(parts)}",
                   f"its tables: {_names(others)}" if others else "it has no other query tables")
        return None

    def _why_no_table(self, parts: list[str]) -> str:
        doc = self.schema.doc(".".join(parts[:2]))
        props = (self.schema.card(doc).get("properties") or {}) if doc is not None else {}
        vt = fold(parts[-1])
        if vt in ("срезпоследних", "срезпервых", "slicelast", "slicefirst") and \
                props.get("periodicity") == "Nonperiodical":
            return " (the register is not periodic)"
        if vt in ("остатки", "остаткииобороты", "balance", "balanceandturnovers") and \
                props.get("register_type") == "Turnovers":
            return " (a turnovers register keeps no balances)"
        return ""

    def _class_fix(self, word: str) -> str:
        from .schema import _TABLE_CLASSES
        near = difflib.get_close_matches(fold(word), sorted(_TABLE_CLASSES), n=2, cutoff=0.6)
        return f"did you mean {_names([n.capitalize() for n in near])}?" if near else ""

    def _object_guesses(self, parts: list[str]) -> list[str]:
        snap, cfg = self.schema.snap, self.schema.cfg
        hits = snap.search.search(parts[1], Filters(domains=("metadata",), config=cfg.index if cfg else None), 8)
        return [snap.title(h.doc) for h in hits if self.schema.is_table_class(snap.title(h.doc).split(".")[0])][:3]

    def table_params(self, src: A.TableSource, table: Table, scope: Scope) -> None:
        if src.params is None:
            return
        if not table.params:
            self.error(src, "table_params", f"`{table.name}` takes no parameters",
                       f"write `{table.name}` without `(…)`")
            return
        given = len(src.params)
        if given > len(table.params):
            self.error(src, "table_params", f"`{table.name}` takes {len(table.params)} parameter(s), "
                       f"{given} given", f"its parameters: {_names(table.params)}")
        # Bare names inside a condition parameter are fields of that table (or its register's).
        own = Scope({"": table}, None)
        doc = self.schema.doc(".".join(src.parts[:2]))
        main = self.schema.main_table(doc) if doc is not None else None
        cond_scope = Scope({"": table, " main": main} if main else {"": table}, None)
        for i, p in enumerate(src.params):
            if p is None:
                continue
            pname = fold(table.params[i]) if i < len(table.params) else ""
            if "услови" in pname or "condition" in pname:
                self.expr(p, cond_scope, "condition")
            else:
                self.expr(p, own, "param")

    def join_conditions(self, src: A.Source, scope: Scope) -> None:
        if isinstance(src, A.Join):
            self.join_conditions(src.left, scope)
            self.join_conditions(src.right, scope)
            if src.on is not None:
                self.expr(src.on, scope, "join")

    # -- expressions -------------------------------------------------------------------------------
    def expr(self, e: A.Expr | None, scope: Scope, ctx: str) -> Resolved:
        # Dispatch on the exact class (the AST classes have no subclasses): `type(e) is` is the
        # cheapest test, and a check asks it about every node.
        kind = type(e)
        if kind in _LEAVES:
            return _UNKNOWN
        if kind is A.Path:
            if e.star:
                return _UNKNOWN
            parts = e.parts
            if len(parts) == 2 and e.base is None and e.nested is None:
                # `Алиас.Поле` of a source of this very select (most paths): what path() and
                # field_of() would find, without going through them.
                sources, head = scope.sources, fold(parts[0])
                table = sources[head] if head in sources else None
                f = table.fields.get(fold(parts[1])) if table is not None else None
                if f is not None:
                    r = Resolved([f], bool(f.types) or f.unlimited)
                    self.resolved[id(e)] = r
                    return r
            r = self.path(e, scope, ctx)
            self.resolved[id(e)] = r
            if e.nested:
                for it in e.nested:
                    self.expr(it.expr, Scope({}, None), "param")   # fields of a tabular section
            return r
        if kind is A.Op:
            for a in e.args:
                self.expr(a, scope, ctx)
            if e.op in ("=", "<>", "<", ">", "<=", ">=") and ctx in ("join",):
                for a in e.args:
                    self.unlimited_in(a, scope, "a join condition", "join")
            if e.op == "REFS" and e.table is not None:
                self.type_ref(e.table)
            return _UNKNOWN
        if kind is A.Call:
            self.call(e, scope, ctx)
            return _UNKNOWN
        if kind is A.Cast:
            self.expr(e.expr, scope, ctx)
            self.cast_type(e.type)
            return _UNKNOWN
        if kind is A.ValueRef:
            self.value_ref(e)
            return _UNKNOWN
        if kind is A.Case:
            self.expr(e.subject, scope, ctx)
            for c, v in e.whens:
                self.expr(c, scope, ctx)
                self.expr(v, scope, ctx)
            self.expr(e.default, scope, ctx)
            return _UNKNOWN
        if kind is A.Subquery:
            self.query(e.query, scope)
            return _UNKNOWN
        return _UNKNOWN

    def call(self, c: A.Call, scope: Scope, ctx: str) -> None:
        ru = FUNCTION.get(c.word)
        period_args = ru in ("НАЧАЛОПЕРИОДА", "КОНЕЦПЕРИОДА", "ДОБАВИТЬКДАТЕ", "РАЗНОСТЬДАТ")
        for a in c.args:
            if period_args and isinstance(a, A.Path) and len(a.parts) == 1 and fold(a.parts[0]).upper() in PERIOD_WORDS:
                continue
            self.expr(a, scope, ctx)
        if ru is None:
            if not self._query_doc(c.word):
                self.warn(c, "unknown_function", f"`{c.name}` is not a query-language function known here "
                          "(it may be a newer platform's)", "check with get_platform")
            return
        since = self.schema.function_since(ru)
        if since and self.platform is not None and self.platform < since[0]:
            self.error(c, "function_version", f"`{c.name}` appeared in platform {since[1]}; this "
                       f"configuration runs on {format_version(self.platform)}",
                       f"use another expression, or raise the platform (compatibility mode) to {since[1]}+")

    def _query_doc(self, word: str) -> bool:
        snap = self.schema.snap
        return any(snap.catalog.domain_name(d) == "query" for d in snap.catalog.lookup("Запрос." + word))

    def cast_type(self, t: A.TypeName) -> None:
        if fold(t.parts[0]).upper() in PRIMITIVE_TYPES or len(t.parts) < 2:
            return
        self.type_ref(t)

    def type_ref(self, t: A.TypeName) -> None:
        """`Справочник.X` in ВЫРАЗИТЬ/ССЫЛКА/ТИП: the object must exist."""
        if not self.schema.is_table_class(t.parts[0]) or len(t.parts) != 2:
            return
        self.table_name(t, t.parts)

    def value_ref(self, v: A.ValueRef) -> None:
        parts = v.parts
        if not parts or parts[0].startswith("&"):
            return
        if v.func == "type":
            if len(parts) == 2 and self.schema.is_table_class(parts[0]):
                self.table_name(v, parts)
            return
        if len(parts) < 3 or not self.schema.is_table_class(parts[0]):
            return                                   # platform enumerations: ВидДвиженияНакопления.Приход
        obj = ".".join(parts[:2])
        doc = self.schema.doc(obj)
        if doc is None:
            if self.schema.table(parts[:2]).status == "no_object":
                self.table_name(v, parts[:2])
            return
        if len(parts) != 3:
            return                                   # БизнесПроцесс.X.ТочкаМаршрута.Y and the like
        allowed = self.schema.value_names(doc)
        if allowed is None or fold(parts[2]) in allowed:
            return
        card = self.schema.card(doc)
        listed = [x["name"] for x in card.get("enum_values") or [] if x.get("name")]
        if not listed:
            stack = list(card.get("predefined") or [])
            while stack:
                p = stack.pop(0)
                if isinstance(p, dict) and p.get("name"):
                    listed.append(p["name"])
                    stack += p.get("children") or []
        what = "value" if card.get("class") == "Enum" else "predefined item"
        near = _near(parts[2], listed)
        fix = f"did you mean {_names(near)}?" if near else (
            f"its {what}s: {_names(listed[:20])}" if listed else f"it has no {what}s; only `ПустаяСсылка`")
        self.error(v, "unknown_value", f"`{obj}` has no {what} `{parts[2]}`", fix)

    # -- paths ----------------------------------------------------------------------------------------
    def path(self, p: A.Path, scope: Scope, ctx: str) -> Resolved:
        if p.base is not None:
            self.expr(p.base, scope, ctx)
            start = self.cast_field(p.base) if isinstance(p.base, A.Cast) else None
            if start is None:
                return _UNKNOWN
            return self.deref(p, Resolved([start], True), p.parts, "ВЫРАЗИТЬ(…)")
        parts = p.parts
        head = fold(parts[0])
        s: Scope | None = scope
        while s is not None:
            if head in s.sources and len(parts) >= 2:
                table = s.sources[head]
                if table is None:
                    return _UNKNOWN
                return self.field_of(p, table, parts[1], parts[2:], parts[0])
            s = s.outer
        # A bare field: of whichever source has it.
        s = scope
        while s is not None:
            for table in s.sources.values():
                if table is not None and table.get(parts[0]) is not None:
                    return self.field_of(p, table, parts[0], parts[1:], "")
            if ctx in ("order", "totals") and head in s.items:
                return _UNKNOWN
            s = s.outer
        if len(parts) == 1 and ctx in ("condition", "param") and head.upper() in PERIOD_WORDS:
            return _UNKNOWN
        if self.schema.is_table_class(parts[0]) and len(parts) >= 3:
            return _UNKNOWN                          # `Справочник.X.Поле`: a full-name reference
        if ctx == "param":
            return _UNKNOWN
        # Certain only when every source of every enclosing scope is fully known.
        s, certain, tables = scope, True, []
        while s is not None:
            certain = certain and s.complete and not (s.implicit and len(parts) > 1)
            tables += [t for t in s.sources.values() if t is not None]
            s = s.outer
        if certain and tables:
            options = [n for t in tables for n in t.names] + [a for a in self._aliases(scope)]
            near = _near(parts[0], options)
            if ctx == "condition":
                where = f"`{tables[0].name}` (a condition parameter reads that table's fields)"
            elif len(tables) > 1:
                where = "the tables of this query"
            else:
                where = f"`{tables[0].name or 'the source'}`"
            self.error(p, "unknown_field", f"`{parts[0]}` is neither a field of {where} nor an alias",
                       f"did you mean {_names(near)}?" if near else "")
        return _UNKNOWN

    def _aliases(self, scope: Scope) -> list[str]:
        return [a for a in scope.sources if a and not a.startswith(" ")]

    def field_of(self, p: A.Path, table: Table, name: str, rest: list[str], alias: str) -> Resolved:
        f = table.get(name)
        if f is None:
            if fold(name) in table.children:
                return _UNKNOWN                      # a tabular section read as a nested table
            if not table.complete:
                return _UNKNOWN
            shown = table.name or (f"`{alias}`" if alias else "the subquery")
            shown = f"`{shown}`" if table.name else shown
            near = _near(name, table.names)
            fix = f"it has {_names(near)}" if near else f"its fields: {_listing(table.names)}"
            self.error(p, "unknown_field", f"{shown} has no field `{name}`", fix)
            return _UNKNOWN
        if not rest:
            return Resolved([f], bool(f.types) or f.unlimited)
        return self.deref(p, Resolved([f], True), rest, f"{alias + '.' if alias else ''}{name}")

    def deref(self, p: A.Path, cur: Resolved, rest: list[str], shown: str) -> Resolved:
        for name in rest:
            targets: list[Table] = []
            primitive: list[str] = []
            defined = [t for f in cur.fields for t in f.types if t.startswith(("ОпределяемыйТип.", "DefinedType."))]
            for f in cur.fields:
                types, known = self.schema.expand(f.types)
                if not known:
                    return _UNKNOWN
                for t in types:
                    tgt = self.schema.ref_target(t)
                    if tgt is False:
                        return _UNKNOWN
                    if tgt is None:
                        primitive.append(t)
                    else:
                        targets.append(tgt)
            if not targets:
                if primitive:
                    types = _names(list(dict.fromkeys(primitive)))
                    what = (f"is {_names(list(dict.fromkeys(defined)))} ({types} in this configuration),"
                            if defined else f"is of type {types},")
                    self.error(p, "bad_path", f"`{shown}` {what} which has no field `{name}`",
                               f"read `{shown}` itself")
                return _UNKNOWN
            hits = [(t, t.get(name)) for t in targets]
            found = [(t, f) for t, f in hits if f is not None]
            if any(fold(name) in t.children for t in targets):
                return _UNKNOWN
            if not found:
                if not all(t.complete for t in targets):
                    return _UNKNOWN
                if len(targets) == 1:
                    near = _near(name, targets[0].names)
                    self.error(p, "unknown_field", f"`{shown}` (`{targets[0].name}`) has no field `{name}`",
                               f"it has {_names(near)}" if near else
                               f"its fields: {_listing(targets[0].names)}")
                else:
                    self.error(p, "unknown_field", f"none of the {len(targets)} types of `{shown}` has a "
                               f"field `{name}`", f"types: {_names([t.name for t in targets[:8]])}")
                return _UNKNOWN
            if len(targets) > 1 and len(found) < len(targets) and len(self.notes) < 5:
                self.notes.append(f"`{shown}.{name}` exists in {len(found)} of {len(targets)} types: "
                                  f"{_names([t.name for t, _ in found[:5]])}"
                                  f"{' …' if len(found) > 5 else ''} (NULL for the others)")
            cur = Resolved([f for _, f in found], True)
            shown = f"{shown}.{name}"
        return cur

    # -- types of expressions --------------------------------------------------------------------------
    def cast_field(self, c: A.Cast) -> Field | None:
        t = c.type
        prim = PRIMITIVE_TYPES.get(fold(t.parts[0]).upper()) if len(t.parts) == 1 else None
        if prim == "string":
            unlimited = not t.size or t.size[0] == "0"
            return Field("", ("Строка (неогр.)" if unlimited else f"Строка({t.size[0]})",), unlimited)
        if prim:
            return Field("", (t.parts[0],))
        if len(t.parts) == 2 and self.schema.is_table_class(t.parts[0]):
            doc = self.schema.doc(".".join(t.parts))
            if doc is not None:
                ref = self.schema.card(doc).get("ref_type")
                if ref:
                    return Field("", (str(ref),))
        return None

    def expr_field(self, e: A.Expr, scope: Scope, r: Resolved) -> Field | None:
        """The one field an expression stands for (a path, a cast), for column types."""
        kind = type(e)
        if kind is A.Cast:
            return self.cast_field(e)
        if kind is A.Path and r.known and r.fields:
            if len(r.fields) == 1:
                return r.fields[0]
            types = tuple(dict.fromkeys(t for f in r.fields for t in f.types))
            return Field(r.fields[0].name, types, any(f.unlimited for f in r.fields))
        return None

    def unlimited_in(self, e: A.Expr, scope: Scope, where: str, code: str) -> None:
        kind = type(e)
        if kind is not A.Path and kind is not A.Cast:
            return
        if kind is A.Path and len(e.parts) == 1 and fold(e.parts[0]) in scope.items \
                and not any(t is not None and t.get(e.parts[0]) for t in scope.sources.values()):
            e = scope.items[fold(e.parts[0])]      # ORDER BY an alias of the select list
            kind = type(e)
            if kind is not A.Path and kind is not A.Cast:
                return
        if kind is A.Cast:
            f = self.cast_field(e)
        else:
            f = self.expr_field(e, scope, self.resolved.get(id(e), _UNKNOWN))
        if f is not None and (f.unlimited or has_unlimited_type(f.types)):
            self.unlimited_error(e, f, where, code)

    def unlimited_error(self, e: A.Expr, f: Field, where: str, code: str) -> None:
        shown = ".".join(e.parts) if isinstance(e, A.Path) and e.parts else (f.name or "the expression")
        recipe = f.recipe or f"ПОДСТРОКА({shown}, 1, 1024)"
        if f.recipe and isinstance(e, A.Path) and e.parts and f.name:
            recipe = f.recipe.replace(f"({f.name},", f"({shown},", 1)
        self.error(e, "unlimited_string", f"`{shown}` is an unlimited string: it cannot be used in {where}",
                   f"use `{recipe}`")

