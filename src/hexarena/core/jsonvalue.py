"""The type of a JSON document as ``json.loads`` returns it and ``json.dumps`` takes it.

Why: a value that crosses a wire, a journal or a JSON column is one of these, whatever it holds; naming that
type, instead of ``Any``, makes a reader narrow (``isinstance``) before relying on a field's shape.
"""

from __future__ import annotations

from typing import TypeAlias

#: Any JSON value.
JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
#: A JSON object.
JsonObject: TypeAlias = "dict[str, JsonValue]"

__all__ = ["JsonObject", "JsonValue"]
