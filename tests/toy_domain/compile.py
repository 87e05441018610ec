"""Compile side: detect, parse (plain data, picklable), link into documents."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from v8atlas.compiler.documents import Doc
from v8atlas.formats.domain import Domain, SearchField, Source, SourceError, SourceKind, TomlKey, TomlTable

DOC_DOMAIN = "recipes"


def detect(path: Path) -> str | None:
    return "recipes-text" if path.is_file() and path.suffix == ".recipes" else None


def parse(source: Source, report: Any) -> list[tuple[str, list[str]]]:
    """``# Title`` then one line of comma-separated ingredients, per recipe."""
    recipes: list[tuple[str, list[str]]] = []
    for n, line in enumerate(source.path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("# "):
            recipes.append((line[2:].strip(), []))
        elif line.strip():
            if not recipes:
                raise SourceError(f"line {n}: ingredients before any '# title'")
            recipes[-1][1].extend(i.strip() for i in line.split(",") if i.strip())
    for title, ingredients in recipes:
        if not ingredients:
            report.warn(source.name, f"recipe {title!r} lists no ingredients", code="recipe-empty")
    return recipes


def link(parsed: list[tuple[Source, list[tuple[str, list[str]]]]], ctx: Any) -> None:
    for source, recipes in parsed:
        cuisine = source.options.get("cuisine", "")
        for title, ingredients in recipes:
            ctx.docs.append(Doc(DOC_DOMAIN, f"recipes/{title}", "Recipe", f"Рецепт.{title}",
                                {"title": title, "ingredients": ingredients, "cuisine": cuisine},
                                names=[f"Рецепт.{title}"],
                                fields={"name": title, "ingredients": ", ".join(ingredients)}))
    ctx.counts["recipes"] = sum(len(r) for _, r in parsed)


RECIPES = SourceKind("recipes", detect, "a recipe book (*.recipes)",
                     toml_tables=(TomlTable("recipes", (TomlKey("cuisine", (str,), "where it comes from"),)),))

DOMAIN = Domain("recipes", source_kinds=(RECIPES,), reads=("recipes",), parse=parse, link=link,
                doc_domains=(DOC_DOMAIN,), search_fields=(SearchField("ingredients", 2.0, 0.5),))
