"""The parsed query: statements, selects, sources and expressions (positions are 1-based)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Node:
    line: int
    col: int


@dataclass(slots=True)
class Path(Node):
    parts: list[str]                  # `Т.Ссылка.Родитель` → ["Т", "Ссылка", "Родитель"]
    star: bool = False                # `Т.*`
    nested: list[SelectItem] | None = None   # `Т.Товары.(Номенклатура, Количество КАК К)`
    base: Expr | None = None       # `ВЫРАЗИТЬ(Х КАК Справочник.Т).Поле`: parts read from base


@dataclass(slots=True)
class Param(Node):
    name: str


@dataclass(slots=True)
class Literal(Node):
    value: str
    kind: str                          # number | string | bool | null | undefined


@dataclass(slots=True)
class Fragment(Node):
    """Something the module fills in before running (`#Условие`, `%1`): not checkable."""
    text: str


@dataclass(slots=True)
class Call(Node):
    name: str                          # as written
    word: str                          # folded upper-case
    args: list[Expr]
    distinct: bool = False
    star: bool = False                 # КОЛИЧЕСТВО(*)


@dataclass(slots=True)
class TypeName(Node):
    parts: list[str]                   # `Справочник.Пользователи`, `СТРОКА`
    size: list[str] = field(default_factory=list)   # `СТРОКА(100)` → ["100"]


@dataclass(slots=True)
class Cast(Node):
    expr: Expr
    type: TypeName


@dataclass(slots=True)
class ValueRef(Node):
    """ЗНАЧЕНИЕ(Перечисление.X.Y) and ТИП(Справочник.X): the argument as a dotted name."""
    func: str                          # "value" | "type"
    parts: list[str]


@dataclass(slots=True)
class Case(Node):
    subject: Expr | None
    whens: list[tuple[Expr, Expr]]
    default: Expr | None


@dataclass(slots=True)
class Op(Node):
    """Any operator: arithmetic, comparison, logic, В, МЕЖДУ, ПОДОБНО, ЕСТЬ NULL, ССЫЛКА."""
    op: str            # "=", "+", "AND", "NOT", "IN", "IN_HIERARCHY", "BETWEEN", "LIKE", "IS_NULL", "REFS", "TUPLE"
    args: list[Expr]
    negated: bool = False
    table: TypeName | None = None      # REFS


@dataclass(slots=True)
class Subquery(Node):
    query: Query


Expr = Path | Param | Literal | Fragment | Call | Cast | ValueRef | Case | Op | Subquery


@dataclass(slots=True)
class SelectItem(Node):
    expr: Expr
    alias: str | None = None


@dataclass(slots=True)
class TableSource(Node):
    parts: list[str]                   # `РегистрНакопления.X.Остатки`
    params: list[Expr | None] | None = None   # virtual-table parameters, positional (None = omitted)
    alias: str | None = None
    dynamic: bool = False              # `ИЗ &Таблица`, `ИЗ #Таблица`


@dataclass(slots=True)
class SubquerySource(Node):
    query: Query
    alias: str | None = None


@dataclass(slots=True)
class Join(Node):
    kind: str                          # LEFT | RIGHT | FULL | INNER
    left: Source
    right: Source
    on: Expr | None


Source = TableSource | SubquerySource | Join


@dataclass(slots=True)
class Select(Node):
    items: list[SelectItem]
    distinct: bool = False
    top: str | None = None
    into: str | None = None
    into_pos: tuple[int, int] | None = None
    sources: list[Source] = field(default_factory=list)
    where: Expr | None = None
    group_by: list[Expr] = field(default_factory=list)
    having: Expr | None = None
    for_update: list[TypeName] = field(default_factory=list)
    index_by: list[Expr] = field(default_factory=list)


@dataclass(slots=True)
class Query(Node):
    parts: list[Select]                # ОБЪЕДИНИТЬ [ВСЕ] parts
    order_by: list[Expr] = field(default_factory=list)
    totals: list[Expr] = field(default_factory=list)   # ИТОГИ aggregates and ПО fields
    index_by: list[Expr] = field(default_factory=list)
    for_update: list[TypeName] = field(default_factory=list)


@dataclass(slots=True)
class Drop(Node):
    name: str


Statement = Query | Drop
