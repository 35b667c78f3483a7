"""The learned evaluation table the ``search`` bot plays with: ``eval_weights.json``, shipped in this package.

Why data and not code: the table is fitted by ``tools/train_htttx_eval.py`` (self-play, logistic regression on
game outcomes) and anyone may refit it; the engines only read it. Both engines take it as their ``table`` argument
(``search_py.check_table`` says its shape), so the C search and its Python reference evaluate alike. A win
distance the file has no table for is played with the hand-made ``W`` (``search_py.weights``).

The file: ``{"version": 1, "made_by": "...", "scale": 300, "tables": {"6": {"own": [...], "opp": [...]}}}``;
``own[k]`` is what a window holding k stones of the side to move and none of the opponent's adds, ``opp[k]``
what a window holding k of the opponent's only takes away, in units of 1/``scale`` of the fitted log-odds of
winning.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hexarena.bots.htttx.search_py import Table, check_table

WEIGHTS = Path(__file__).with_name("eval_weights.json")
#: The file format this module reads.
VERSION = 1


def read_tables(path: Path) -> dict[int, Table]:
    """The tables of a weights file by win distance; a malformed file is refused, saying what is wrong."""
    try:
        doc: Any = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the HTTTX evaluation weights {path}: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("tables"), dict):
        raise ValueError(
            f"{path} is not a version {VERSION} HTTTX weights file (a JSON object with 'version' and 'tables'):"
            " regenerate it with tools/train_htttx_eval.py"
        )
    out: dict[int, Table] = {}
    for key, entry in doc["tables"].items():
        if not str(key).isdigit() or not isinstance(entry, dict):
            raise ValueError(f"{path}: tables are keyed by win distance, each {{'own': [...], 'opp': [...]}}")
        length = int(key)
        try:
            out[length] = check_table((entry.get("own"), entry.get("opp")), length)  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{path}: the table for win distance {length}: {exc}") from exc
    return out


@cache
def shipped_tables() -> dict[int, Table]:
    """The package's tables (read once)."""
    return read_tables(WEIGHTS)


def table_for(win_distance: int) -> Table | None:
    """The shipped table for ``win_distance``, or None (the engines then use ``W``)."""
    return shipped_tables().get(win_distance)
