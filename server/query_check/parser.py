"""Recursive-descent parser of the 1C query language (batches, unions, joins, virtual tables).

Composition-schema braces are handled as the schema does: `{ВЫБРАТЬ …}`, `{ГДЕ …}`,
`{ХАРАКТЕРИСТИКИ …}` and the like are field lists for the report settings — skipped; braces
around a join, a condition or a parameter are optional parts of the query — read through.
"""
from __future__ import annotations

from . import ast as A
from .lexer import EOF, FRAGMENT, IDENT, NUMBER, PARAM, PUNCT, STRING, Token, tokenize
from .words import FUNCTION, KEYWORD, SOFT

_JOIN_WORDS = {"LEFT", "RIGHT", "FULL", "INNER", "JOIN"}
_COMPARE = {"=", "<>", "<", ">", "<=", ">="}
_ARITH = {"+": 0, "-": 0, "*": 1, "/": 1, "%": 1}
_PREDICATE_WORDS = {"NOT", "IN", "BETWEEN", "LIKE", "IS", "REFS"}
# Keywords after which an expression is over (a lone path before one needs no precedence climb).
_EXPR_END = {"AS", "FROM", "INTO", "WHERE", "GROUP", "HAVING", "UNION", "ORDER", "TOTALS", "FOR", "INDEX",
             "AUTOORDER", "BY", "ASC", "DESC", "HIERARCHY", "ONLY", "THEN", "ELSE", "END", "WHEN",
             "LEFT", "RIGHT", "FULL", "INNER", "JOIN"}
# Words after `{` that open a settings block of a composition schema, not query text.
_DCS_BLOCKS = {"SELECT", "WHERE", "ORDER", "GROUP", "TOTALS", "ХАРАКТЕРИСТИКИ", "CHARACTERISTICS",
               "BY"}
# Words that end an expression list / a clause.
_CLAUSE_END = {"FROM", "WHERE", "GROUP", "HAVING", "UNION", "ORDER", "TOTALS", "FOR", "INTO", "INDEX",
               "AUTOORDER", "BY", "LEFT", "RIGHT", "FULL", "INNER", "JOIN", "WHEN", "THEN", "ELSE",
               "END", "AS", "ASC", "DESC", "HIERARCHY", "AND", "OR"}


class ParseError(Exception):
    def __init__(self, message: str, tok: Token) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, tok.line, tok.col


def _strip_dcs(tokens: list[Token]) -> tuple[list[Token], bool]:
    """Drop composition-schema braces: settings blocks whole, other braces alone."""
    out: list[Token] = []
    saw = False
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind == PUNCT and t.text == "{":
            saw = True
            nxt = tokens[i + 1] if i + 1 < len(tokens) else t
            depth, j, fields = 0, i, False
            while j < len(tokens) and tokens[j].kind != EOF:
                if tokens[j].kind == PUNCT and tokens[j].text == "{":
                    depth += 1
                elif tokens[j].kind == PUNCT and tokens[j].text == "}":
                    depth -= 1
                    if depth == 0:
                        break
                elif tokens[j].text == "*" and tokens[j - 1].text == ".":
                    fields = True                    # `{(Склад).* КАК Склад}`: a field list
                j += 1
            if fields or nxt.kind == IDENT and (KEYWORD.get(nxt.word) in _DCS_BLOCKS or nxt.word in _DCS_BLOCKS):
                i = j + 1
                continue
            i += 1
            continue
        if t.kind == PUNCT and t.text == "}":
            saw = True
            i += 1
            continue
        out.append(t)
        i += 1
    return out, saw


class Parser:
    def __init__(self, text: str) -> None:
        self.all_tokens = tokenize(text)
        if "{" in text or "}" in text:
            self.tokens, self.dcs = _strip_dcs(self.all_tokens)
        else:
            self.tokens, self.dcs = self.all_tokens, False
        # Keyword of each token, looked up once (the parser asks about every token many times).
        self.kws = [KEYWORD.get(t.word) if t.kind == IDENT else None for t in self.tokens]
        self.last = len(self.tokens) - 1
        self.i = 0

    # -- token helpers -----------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        j = self.i + k
        return self.tokens[min(self.last, j)]

    def kw(self, tok: Token | None = None) -> str | None:
        if tok is None:
            return self.kws[self.i]
        return KEYWORD.get(tok.word) if tok.kind == IDENT else None

    def at_kw(self, *words: str) -> bool:
        return self.kws[self.i] in words

    def at_punct(self, *chars: str) -> bool:
        t = self.tokens[self.i]
        return t.kind == PUNCT and t.text in chars

    def advance(self) -> Token:
        t = self.tokens[self.i]
        if self.i < self.last:
            self.i += 1
        return t

    def accept_kw(self, *words: str) -> bool:
        if self.at_kw(*words):
            self.advance()
            return True
        return False

    def expect_kw(self, word: str, what: str) -> Token:
        if not self.at_kw(word):
            raise self.error(f"expected {what}")
        return self.advance()

    def expect_punct(self, ch: str) -> Token:
        if not self.at_punct(ch):
            raise self.error(f"expected `{ch}`")
        return self.advance()

    def error(self, message: str) -> ParseError:
        t = self.tok
        shown = "end of text" if t.kind == EOF else f"`{t.text}`"
        return ParseError(f"{message}, found {shown}", t)

    def name(self, what: str = "a name") -> Token:
        """An identifier; soft keywords count, reserved words do not."""
        t = self.tok
        if t.kind == IDENT and (self.kw(t) is None or self.kw(t) in SOFT):
            return self.advance()
        raise self.error(f"expected {what}")

    # -- statements --------------------------------------------------------------------------
    def batch(self) -> list[A.Statement]:
        out: list[A.Statement] = []
        while True:
            while self.at_punct(";"):
                self.advance()
            if self.tok.kind == EOF:
                return out
            out.append(self.statement())
            if not self.at_punct(";") and self.tok.kind != EOF:
                raise self.error("expected `;` or the end of the query")

    def statement(self) -> A.Statement:
        t = self.tok
        if self.accept_kw("DROP"):
            n = self.name("a temporary table name")
            return A.Drop(t.line, t.col, n.text)
        return self.query()

    def query(self) -> A.Query:
        t = self.tok
        parts = [self.select_part()]
        while self.accept_kw("UNION"):
            self.accept_kw("ALL")
            parts.append(self.select_part())
        q = A.Query(t.line, t.col, parts)
        while True:
            if self.at_kw("ORDER"):
                self.advance()
                self.expect_kw("BY", "ПО after УПОРЯДОЧИТЬ")
                q.order_by += self.order_list()
            elif self.accept_kw("AUTOORDER"):
                pass
            elif self.at_kw("TOTALS"):
                self.advance()
                q.totals += self.totals()
            elif self.at_kw("FOR") and self.kw(self.peek()) == "UPDATE":
                self.advance(), self.advance()
                q.for_update += self.for_update_tables()
            elif self.at_kw("INDEX"):
                self.advance()
                self.expect_kw("BY", "ПО after ИНДЕКСИРОВАТЬ")
                q.index_by += self.expr_list()
            else:
                return q

    def select_part(self) -> A.Select:
        if self.at_punct("(") and self.kw(self.peek()) == "SELECT":   # (ВЫБРАТЬ …) ОБЪЕДИНИТЬ …
            self.advance()
            inner = self.query()
            self.expect_punct(")")
            return inner.parts[0]
        t = self.expect_kw("SELECT", "ВЫБРАТЬ")
        sel = A.Select(t.line, t.col, [])
        while True:
            if self.accept_kw("ALLOWED"):
                continue
            if self.accept_kw("DISTINCT"):
                sel.distinct = True
                continue
            if self.at_kw("TOP"):
                self.advance()
                if self.tok.kind != NUMBER:
                    raise self.error("expected a number after ПЕРВЫЕ")
                sel.top = self.advance().text
                continue
            break
        sel.items = self.select_items()
        if self.at_kw("INTO"):
            self.advance()
            n = self.name("a temporary table name")
            sel.into, sel.into_pos = n.text, (n.line, n.col)
        if self.accept_kw("FROM"):
            sel.sources = self.sources()
        self.select_tail(sel)
        if self.accept_kw("WHERE"):
            sel.where = self.expr()
        self.select_tail(sel)
        if self.at_kw("GROUP"):
            self.advance()
            self.expect_kw("BY", "ПО after СГРУППИРОВАТЬ")
            sel.group_by = self.group_list()
        if self.accept_kw("HAVING"):
            sel.having = self.expr()
        self.select_tail(sel)
        return sel

    def select_tail(self, sel: A.Select) -> None:
        """ДЛЯ ИЗМЕНЕНИЯ and ИНДЕКСИРОВАТЬ ПО of one select (read leniently at any clause end)."""
        while True:
            if self.at_kw("FOR") and self.kw(self.peek()) == "UPDATE":
                self.advance(), self.advance()
                sel.for_update += self.for_update_tables()
            elif self.at_kw("INDEX") and self.kw(self.peek()) == "BY":
                self.advance(), self.advance()
                sel.index_by += self.expr_list()
            else:
                return

    def select_items(self) -> list[A.SelectItem]:
        items = []
        while True:
            t = self.tok
            if self.at_punct("*"):
                self.advance()
                items.append(A.SelectItem(t.line, t.col, A.Path(t.line, t.col, [], star=True)))
            else:
                e = self.expr()
                items.append(A.SelectItem(t.line, t.col, e, self.alias()))
            if not self.at_punct(","):
                return items
            self.advance()

    def alias(self) -> str | None:
        if self.accept_kw("AS"):
            return self.name("an alias after КАК").text
        if self.tok.kind == IDENT and self.kw() is None:
            return self.advance().text
        return None

    def order_list(self) -> list[A.Expr]:
        out = []
        while True:
            out.append(self.expr())
            self.accept_kw("ASC") or self.accept_kw("DESC") or self.accept_kw("HIERARCHY")
            self.accept_kw("ASC") or self.accept_kw("DESC")
            if not self.at_punct(","):
                return out
            self.advance()

    def group_list(self) -> list[A.Expr]:
        if self.at_kw("GROUPING") and self.kw(self.peek()) == "SETS":
            self.advance(), self.advance()
            self.expect_punct("(")
            out: list[A.Expr] = []
            while not self.at_punct(")"):
                if self.at_punct("("):
                    self.advance()
                    if not self.at_punct(")"):
                        out += self.expr_list()
                    self.expect_punct(")")
                else:
                    out.append(self.expr())
                if self.at_punct(","):
                    self.advance()
            self.advance()
            return out
        return self.expr_list()

    def expr_list(self) -> list[A.Expr]:
        out = [self.expr()]
        while self.at_punct(","):
            self.advance()
            out.append(self.expr())
        return out

    def totals(self) -> list[A.Expr]:
        out: list[A.Expr] = []
        if not self.at_kw("BY"):
            while True:
                out.append(self.expr())
                self.alias()
                if not self.at_punct(","):
                    break
                self.advance()
        self.expect_kw("BY", "ПО in ИТОГИ")
        while True:
            if self.accept_kw("OVERALL"):
                pass
            else:
                out.append(self.expr())
                self.alias()
                self.accept_kw("ONLY")
                self.accept_kw("HIERARCHY")
                if self.accept_kw("PERIODS"):
                    self.expect_punct("(")
                    self.expr_list()
                    self.expect_punct(")")
            if not self.at_punct(","):
                return out
            self.advance()

    def for_update_tables(self) -> list[A.TypeName]:
        out = []
        while self.tok.kind == IDENT and self.kw() is None:
            t = self.tok
            out.append(A.TypeName(t.line, t.col, self.dotted()))
            if not self.at_punct(","):
                break
            self.advance()
        return out

    def dotted(self) -> list[str]:
        parts = [self.name().text]
        while self.at_punct(".") and self.peek().kind == IDENT:
            self.advance()
            parts.append(self.advance().text)
        return parts

    # -- sources -----------------------------------------------------------------------------
    def sources(self) -> list[A.Source]:
        out = [self.join_chain()]
        while self.at_punct(","):
            self.advance()
            out.append(self.join_chain())
        return out

    def join_kind(self) -> str | None:
        k = self.kw()
        if k in ("LEFT", "RIGHT", "FULL", "INNER") and self.peek().kind == PUNCT and self.peek().text == "(":
            return None
        if k == "JOIN":
            return "INNER"
        if k in ("LEFT", "RIGHT", "FULL", "INNER"):
            return k
        return None

    def join_chain(self) -> A.Source:
        left = self.source()
        while (kind := self.join_kind()) is not None:
            left = self.join(left, kind)
        return left

    def join(self, left: A.Source, kind: str) -> A.Join:
        t = self.advance()
        if kind != "INNER" or self.kw(t) == "INNER":
            self.accept_kw("OUTER")
            if self.kw(t) != "JOIN":
                self.expect_kw("JOIN", "СОЕДИНЕНИЕ")
        right = self.source()
        while (inner := self.join_kind()) is not None:   # nested: А ЛЕВОЕ СОЕДИНЕНИЕ Б ЛЕВОЕ СОЕДИНЕНИЕ В ПО … ПО …
            right = self.join(right, inner)
        self.expect_kw("BY", "ПО (the join condition)")
        return A.Join(t.line, t.col, kind, left, right, self.expr())

    def source(self) -> A.Source:
        t = self.tok
        if self.at_punct("("):
            if self.kw(self.peek()) == "SELECT":
                self.advance()
                q = self.query()
                self.expect_punct(")")
                return A.SubquerySource(t.line, t.col, q, self.alias())
            self.advance()
            inner = self.join_chain()
            self.expect_punct(")")
            return inner
        if t.kind in (PARAM, FRAGMENT):
            self.advance()
            return A.TableSource(t.line, t.col, [t.text], alias=self.alias(), dynamic=True)
        if t.kind != IDENT or (self.kw() is not None and self.kw() not in SOFT):
            raise self.error("expected a table")
        parts = self.dotted()
        src = A.TableSource(t.line, t.col, parts)
        if self.at_punct("("):
            src.params = self.table_params()
        src.alias = self.alias()
        return src

    def table_params(self) -> list[A.Expr | None]:
        self.expect_punct("(")
        out: list[A.Expr | None] = []
        expect_value = True
        while not self.at_punct(")"):
            if self.tok.kind == EOF:
                raise self.error("expected `)` closing the table parameters")
            if self.at_punct(","):
                if expect_value:
                    out.append(None)
                self.advance()
                expect_value = True
                continue
            out.append(self.expr())
            expect_value = False
        if expect_value and out:
            out.append(None)
        self.advance()
        return out

    # -- expressions -------------------------------------------------------------------------
    def expr(self) -> A.Expr:
        fast = self._lone_path()
        if fast is not None:
            return fast
        left = self.and_expr()
        while self.kws[self.i] == "OR":
            t = self.advance()
            left = A.Op(t.line, t.col, "OR", [left, self.and_expr()])
        return left

    def _lone_path(self) -> A.Path | None:
        """A name or dotted path that is the whole expression (most select items, group and
        order items): built directly instead of through every precedence level."""
        i, toks, kws = self.i, self.tokens, self.kws
        t = toks[i]
        if t.kind != IDENT or kws[i] is not None:
            return None
        j = i + 1
        while toks[j].kind == PUNCT and toks[j].text == "." and toks[j + 1].kind == IDENT:
            j += 2
        end = toks[j]
        if not (end.kind == EOF or end.kind == PUNCT and end.text in (",", ")", ";")
                or kws[j] in _EXPR_END):
            return None
        self.i = j
        return A.Path(t.line, t.col, [toks[k].text for k in range(i, j, 2)])

    def and_expr(self) -> A.Expr:
        left = self.not_expr()
        while self.kws[self.i] == "AND":
            t = self.advance()
            left = A.Op(t.line, t.col, "AND", [left, self.not_expr()])
        return left

    def not_expr(self) -> A.Expr:
        if self.kws[self.i] == "NOT":
            t = self.advance()
            return A.Op(t.line, t.col, "NOT", [self.not_expr()])
        return self.predicate()

    def predicate(self) -> A.Expr:
        left = self._binary(0)
        t = self.tokens[self.i]
        if t.kind == PUNCT:
            if t.text in _COMPARE:
                self.i += 1   # `А <> ИСТИНА В (…)`: the right side is a whole predicate
                return A.Op(t.line, t.col, t.text, [left, self.predicate()])
            return left
        if self.kws[self.i] not in _PREDICATE_WORDS:
            return left
        negated = False
        if self.at_kw("NOT") and self.kw(self.peek()) in ("IN", "BETWEEN", "LIKE", "REFS"):
            self.advance()
            negated = True
        k = self.kw()
        if k == "IN":
            self.advance()
            op = "IN"
            if self.accept_kw("HIERARCHY"):
                op = "IN_HIERARCHY"
            return A.Op(t.line, t.col, op, [left, *self.in_list()], negated)
        if k == "BETWEEN":
            self.advance()
            low = self.additive()
            self.expect_kw("AND", "И in МЕЖДУ")
            return A.Op(t.line, t.col, "BETWEEN", [left, low, self.additive()], negated)
        if k == "LIKE":
            self.advance()
            args = [left, self.additive()]
            if self.accept_kw("ESCAPE"):
                args.append(self.additive())
            return A.Op(t.line, t.col, "LIKE", args, negated)
        if k == "IS":
            self.advance()
            neg = self.accept_kw("NOT")
            self.expect_kw("NULL", "NULL after ЕСТЬ")
            return A.Op(t.line, t.col, "IS_NULL", [left], neg)
        if k == "REFS":
            self.advance()
            tt = self.tok
            return A.Op(t.line, t.col, "REFS", [left], negated, A.TypeName(tt.line, tt.col, self.dotted()))
        if negated:
            raise self.error("expected В, МЕЖДУ, ПОДОБНО or ССЫЛКА after НЕ")
        return left

    def in_list(self) -> list[A.Expr]:
        t = self.tok
        if not self.at_punct("("):
            if self.tok.kind == PARAM:     # `В &Список`: read it; an error here would not be certain
                return [A.Param(t.line, t.col, self.advance().text)]
            raise self.error("expected `(` after В")
        self.advance()
        if self.at_kw("SELECT"):
            q = self.query()
            self.expect_punct(")")
            return [A.Subquery(t.line, t.col, q)]
        if self.at_punct(")"):
            raise self.error("expected a value list in В (…)")
        out = self.expr_list()
        self.expect_punct(")")
        return out

    def additive(self) -> A.Expr:
        """Arithmetic by precedence climbing: one loop instead of a call per level."""
        return self._binary(0)

    def _binary(self, min_prec: int) -> A.Expr:
        t = self.tokens[self.i]
        if t.kind == PUNCT and t.text in ("-", "+"):
            self.i += 1
            left: A.Expr = A.Op(t.line, t.col, "NEG", [self._binary(2)])
        else:
            left = self.primary()
        while True:
            t = self.tokens[self.i]
            prec = _ARITH.get(t.text) if t.kind == PUNCT else None
            if prec is None or prec < min_prec:
                return left
            self.i += 1
            left = A.Op(t.line, t.col, t.text, [left, self._binary(prec + 1)])

    def primary(self) -> A.Expr:
        t = self.tok
        if t.kind == NUMBER:
            self.advance()
            return A.Literal(t.line, t.col, t.text, "number")
        if t.kind == STRING:
            self.advance()
            return A.Literal(t.line, t.col, t.text, "string")
        if t.kind == PARAM:
            self.advance()
            return A.Param(t.line, t.col, t.text)
        if t.kind == FRAGMENT:
            self.advance()
            return A.Fragment(t.line, t.col, "#" + t.text)
        if t.kind == PUNCT and t.text == "%":
            self.advance()
            if self.tok.kind == NUMBER:
                return A.Fragment(t.line, t.col, "%" + self.advance().text)
            raise self.error("expected an expression")
        if self.at_punct("("):
            self.advance()
            if self.at_kw("SELECT"):
                q = self.query()
                self.expect_punct(")")
                return A.Subquery(t.line, t.col, q)
            items = self.expr_list()
            self.expect_punct(")")
            return items[0] if len(items) == 1 else A.Op(t.line, t.col, "TUPLE", items)
        if t.kind != IDENT:
            raise self.error("expected an expression")
        k = self.kw()
        nxt_paren = self.peek().kind == PUNCT and self.peek().text == "("
        if k in ("TRUE", "FALSE"):
            self.advance()
            return A.Literal(t.line, t.col, t.text, "bool")
        if k == "NULL":
            self.advance()
            return A.Literal(t.line, t.col, t.text, "null")
        if k == "UNDEFINED":
            self.advance()
            return A.Literal(t.line, t.col, t.text, "undefined")
        if k == "CASE":
            return self.case()
        if k in ("VALUE", "TYPE") and nxt_paren:
            self.advance(), self.advance()
            parts = self.value_path()
            self.expect_punct(")")
            return A.ValueRef(t.line, t.col, "value" if k == "VALUE" else "type", parts)
        if k == "CAST" and nxt_paren:
            self.advance(), self.advance()
            e = self.expr()
            self.expect_kw("AS", "КАК in ВЫРАЗИТЬ")
            ty = self.type_name()
            self.expect_punct(")")
            cast = A.Cast(t.line, t.col, e, ty)
            if self.at_punct(".") and self.peek().kind == IDENT:
                return self.path_tail(A.Path(t.line, t.col, [], base=cast))
            return cast
        if nxt_paren and (k is None or k in SOFT or t.word in FUNCTION):
            return self.call()
        if k is not None and k not in SOFT:
            raise self.error("expected an expression")
        return self.path()

    def value_path(self) -> list[str]:
        if self.tok.kind == PARAM:           # ТИП(&Тип): filled in by the module
            return ["&" + self.advance().text]
        parts = [self.advance().text] if self.tok.kind == IDENT else []
        if not parts:
            raise self.error("expected a name")
        while self.at_punct("."):
            self.advance()
            if self.tok.kind != IDENT:
                raise self.error("expected a name after `.`")
            parts.append(self.advance().text)
        return parts

    def type_name(self) -> A.TypeName:
        t = self.tok
        if t.kind != IDENT:
            raise self.error("expected a type")
        ty = A.TypeName(t.line, t.col, self.value_path())
        if self.at_punct("("):
            self.advance()
            while not self.at_punct(")"):
                if self.tok.kind == EOF:
                    raise self.error("expected `)`")
                tok = self.advance()
                if tok.kind == NUMBER:
                    ty.size.append(tok.text)
            self.advance()
        return ty

    def call(self) -> A.Call:
        t = self.advance()
        self.expect_punct("(")
        c = A.Call(t.line, t.col, t.text, t.word, [])
        if self.at_punct("*"):
            self.advance()
            c.star = True
        else:
            if self.accept_kw("DISTINCT"):
                c.distinct = True
            elif self.accept_kw("ALL"):
                pass
            if not self.at_punct(")"):
                while True:
                    if self.at_punct(","):          # ДОБАВИТЬКДАТЕ(, …) is not valid, but
                        c.args.append(A.Literal(self.tok.line, self.tok.col, "", "omitted"))
                    else:
                        c.args.append(self.expr())
                    if not self.at_punct(","):
                        break
                    self.advance()
        self.expect_punct(")")
        return c

    def case(self) -> A.Case:
        t = self.advance()
        subject = None if self.at_kw("WHEN") else self.expr()
        whens = []
        while self.accept_kw("WHEN"):
            cond = self.expr()
            self.expect_kw("THEN", "ТОГДА")
            whens.append((cond, self.expr()))
        if not whens:
            raise self.error("expected КОГДА in ВЫБОР")
        default = self.expr() if self.accept_kw("ELSE") else None
        self.expect_kw("END", "КОНЕЦ closing ВЫБОР")
        return A.Case(t.line, t.col, subject, whens, default)

    def path(self) -> A.Path:
        t = self.advance()
        nxt = self.tokens[self.i]
        if nxt.kind != PUNCT or nxt.text != ".":          # the common case: a bare name
            return A.Path(t.line, t.col, [t.text])
        return self.path_tail(A.Path(t.line, t.col, [t.text]))

    def path_tail(self, p: A.Path) -> A.Path:
        tokens = self.tokens
        while True:
            t = tokens[self.i]
            if t.kind != PUNCT or t.text != ".":
                return p
            self.i += 1
            nxt = tokens[self.i]
            if nxt.kind == IDENT:                            # `.Поле`: the common case
                p.parts.append(nxt.text)
                self.i += 1
                continue
            if self.at_punct("*"):
                self.advance()
                p.star = True
                break
            if self.at_punct("("):                  # Т.Товары.(Номенклатура, Количество)
                self.advance()
                p.nested = self.select_items()
                self.expect_punct(")")
                break
            raise self.error("expected a field name after `.`")
        return p


def parse(text: str) -> tuple[list[A.Statement], bool, list[Token]]:
    """Statements of ``text``, whether it had composition-schema braces, its template fragments."""
    p = Parser(text)
    return p.batch(), p.dcs, [t for t in p.tokens if t.kind == FRAGMENT]
