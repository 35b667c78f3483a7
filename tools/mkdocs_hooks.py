"""mkdocs hooks: pages generated from the code at build time, so the reference cannot drift from it.

``reference/openapi.md`` is written from the server's own OpenAPI schema (``create_app().openapi()``), and the
schema itself is published beside it as ``reference/openapi.json``.
"""

from __future__ import annotations

import json
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

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


def on_files(files: Files, config: MkDocsConfig) -> Files:
    schema = _schema()
    files.append(File.generated(config, _PAGE, content=render(schema)))
    files.append(File.generated(config, _SCHEMA, content=json.dumps(schema, indent=2)))
    return files
