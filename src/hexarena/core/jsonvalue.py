"""The type of a JSON document, as ``json.dumps`` takes it and ``json.loads`` returns it.

Why: a value that crosses a wire, a journal or a JSON column is one of these, whatever it holds; naming that
type, instead of ``Any``, makes a reader narrow (``isinstance``) before relying on a field's shape. Arrays and
objects are the read-only ``Sequence`` and ``Mapping`` (``json.dumps`` writes a tuple as an array too), so a
``list[str]`` or a ``dict[str, int]`` is a JSON value as it is; a :data:`JsonObject` is a ``dict`` to build.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias, TypeVar

#: Any JSON value.
JsonValue: TypeAlias = "bool | int | float | str | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
#: A JSON object, as a message or a view is built.
JsonObject: TypeAlias = "dict[str, JsonValue]"

N = TypeVar("N", int, float)


def number(value: JsonValue, kind: type[N]) -> N:
    """``int(value)`` or ``float(value)`` of a JSON value that holds a number (or its text); TypeError otherwise,
    ValueError for a text that is no number."""
    if isinstance(value, int | float | str):
        return kind(value)
    raise TypeError(f"expected a number, got {value!r}")


__all__ = ["JsonObject", "JsonValue", "number"]
