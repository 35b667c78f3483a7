"""mkdocs hooks: pages generated from the code at build time, so the reference cannot drift from it.

``reference/openapi.md`` is written from the server's own OpenAPI schema (``create_app().openapi()``), and the
schema itself is published beside it as ``reference/openapi.json``.

Every game's rules come from the rules it publishes (``hexarena.games.rules``), with each example position drawn
by the game's own engine into ``games/pictures/GAME-N.svg``. A game with a hand-written page
(``docs/games/GAME.md``: facts for bot authors) gets its rules where the page says ``<!-- hexarena:rules -->``;
a game without one gets a page of its rules alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

_PAGE = "reference/openapi.md"
_SCHEMA = "reference/openapi.json"
_METHODS = ("get", "post", "put", "patch", "delete")


def _schema() -> dict[str, Any]:
    from hexarena.server.app import create_app

    return create_app().openapi()


def _ref_name(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    return str(schema.get("type", "object"))


def _kind(spec: dict[str, Any]) -> str:
    if "$ref" in spec:
        return _ref_name(spec)
    if "anyOf" in spec:
        return " or ".join(_kind(s) for s in spec["anyOf"])
    if spec.get("type") == "array" and "items" in spec:
        return f"array of {_kind(spec['items'])}"
    return str(spec.get("type", "any"))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _fields(components: dict[str, Any], name: str) -> list[str]:
    model = components.get(name, {})
    required = set(model.get("required", []))
    rows = []
    for field, spec in model.get("properties", {}).items():
        kind = _kind(spec)
        description = _cell(spec.get("description", ""))
        rows.append(f"| `{field}` | {kind} | {'yes' if field in required else 'no'} | {description} |")
    return rows


def render(schema: dict[str, Any]) -> str:
    """The Markdown page: every path and method with its summary, description and request body's fields."""
    components = schema.get("components", {}).get("schemas", {})
    lines = [
        "# HTTP API reference (generated)",
        "",
        "Written at build time from the server's own OpenAPI schema; the schema itself: "
        "[openapi.json](openapi.json). A running server serves it at `/openapi.json` and browsable at `/docs`.",
        "",
    ]
    for path, item in sorted(schema.get("paths", {}).items()):
        for method in _METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            lines += [f"## `{method.upper()} {path}`", ""]
            if operation.get("summary"):
                lines += [_cell(operation["summary"]), ""]
            if operation.get("description"):
                lines += [operation["description"].strip(), ""]
            for parameter in operation.get("parameters", []):
                lines.append(
                    f"- {parameter.get('in', '')} `{parameter['name']}`"
                    + (" (required)" if parameter.get("required") else "")
                    + (f": {_cell(parameter['description'])}" if parameter.get("description") else "")
                )
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body is not None:
                name = _ref_name(body)
                rows = _fields(components, name)
                lines += ["", f"Body: `{name}`", ""]
                if rows:
                    lines += ["| field | type | required | |", "|---|---|---|---|", *rows]
            lines.append("")
    return "\n".join(lines) + "\n"


RULES_MARKER = "<!-- hexarena:rules -->"
#: Game rules by page path, for the hand-written pages that hold the marker (filled by ``on_files``).
_RULES_BY_PAGE: dict[str, str] = {}


def rules_markdown(page: dict[str, Any], picture: Callable[[int], str], heading: int = 2) -> str:
    """The Markdown of a game's published rules (``hexarena.games.rules.published``): its summary, then each
    section with its example pictures; ``picture(n)`` is the path of the n-th picture (from 1)."""
    lines = [page["summary"], ""]
    n = 0
    for section in page["sections"]:
        lines += [f"{'#' * heading} {section['title']}", "", section["text"], ""]
        for example in section["examples"]:
            n += 1
            moves = " ".join(f"`{m}`" for m in example["moves"]) or "none (the start)"
            params = ", ".join(f"`{k}={v}`" for k, v in example["params"].items())
            lines += [
                f"![{example['caption']}]({picture(n)})",
                "",
                f"*{example['caption']}.* Moves: {moves}" + (f"; parameters {params}" if params else "") + ".",
                "",
            ]
    return "\n".join(lines)


def _rules_pages(files: Files, config: MkDocsConfig) -> None:
    from hexarena.core.registry import available_games
    from hexarena.games.rules import published

    _RULES_BY_PAGE.clear()
    for name, game in sorted(available_games().items()):
        page = published(game)
        if not page["published"]:
            continue
        pictures = [e["svg"] for s in page["sections"] for e in s["examples"]]
        for n, svg in enumerate(pictures, 1):
            files.append(File.generated(config, f"games/pictures/{name}-{n}.svg", content=svg))
        path = f"games/{name}.md"
        if files.get_file_from_path(path) is not None:
            _RULES_BY_PAGE[path] = rules_markdown(page, lambda n, name=name: f"pictures/{name}-{n}.svg")
        else:
            body = rules_markdown(page, lambda n, name=name: f"pictures/{name}-{n}.svg")
            files.append(File.generated(config, path, content=f"# {page['title']}\n\n{body}"))


def on_files(files: Files, config: MkDocsConfig) -> Files:
    schema = _schema()
    files.append(File.generated(config, _PAGE, content=render(schema)))
    files.append(File.generated(config, _SCHEMA, content=json.dumps(schema, indent=2)))
    _rules_pages(files, config)
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """A hand-written game page gets its game's rules at its marker; a page without the marker fails the build
    (its rules would silently be missing)."""
    rules = _RULES_BY_PAGE.get(page.file.src_uri)
    if rules is None:
        return markdown
    if RULES_MARKER not in markdown:
        raise PluginError(f"{page.file.src_uri} must hold {RULES_MARKER} where its game's generated rules go")
    return markdown.replace(RULES_MARKER, rules)
