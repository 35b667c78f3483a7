"""Per-game behaviour lives with the game: no code outside ``hexarena/games/`` branches on a game's name.

A generic layer (server, players, referee, store, wire...) that writes ``game.name == "htttx"`` grows a branch for
every new game, and a game installed from outside the tree never gets one. Each game's presentation, notation,
colours and protocol shapes are methods and attributes of its own package instead (issue 14, item 2). This scan
reads the source's syntax tree, so a comment or a docstring naming a game does not count, but any comparison of
a value to a game's name or alias (``==``, ``!=``, ``in``, ``not in`` on a literal, a tuple/list/set of literals,
or a ``match`` case) does.
"""

from __future__ import annotations

import ast
from pathlib import Path

from hexarena.core.registry import available_games

ROOT = Path(__file__).resolve().parents[1] / "src" / "hexarena"


def _game_names() -> set[str]:
    """Every registered game's name and alias, the wire ids other systems use for them included."""
    from hexarena.core import registry

    names = set(available_games())
    names.update(getattr(registry, "_ALIASES", {}))
    names.update(("noughtsandcrosses", "noughts_and_crosses", "tic_tac_toe"))  # in case the aliases move
    return names


def _literals(node: ast.expr) -> list[str]:
    """The string literals ``node`` is (a constant) or holds (a tuple, list, set or frozenset(...) of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for e in node.elts for s in _literals(e)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set"):
        return [s for a in node.args for s in _literals(a)]
    return []


def name_branches(source: str, filename: str, names: set[str]) -> list[str]:
    """``file:line: code`` of every comparison or match case of a value against one of ``names``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        hits: list[str] = []
        if isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops
        ):
            hits = [s for operand in (node.left, *node.comparators) for s in _literals(operand) if s in names]
        elif isinstance(node, ast.match_case):
            hits = [
                p.value.value
                for p in ast.walk(node.pattern)
                if isinstance(p, ast.MatchValue)
                and isinstance(p.value, ast.Constant)
                and isinstance(p.value.value, str)
                and p.value.value in names
            ]
        if hits:
            line = getattr(node, "lineno", getattr(getattr(node, "pattern", None), "lineno", 0))
            found.append(f"{filename}:{line}: {', '.join(sorted(set(hits)))}")
    return found


def test_the_scan_catches_each_form_of_a_name_branch() -> None:
    """The scan itself must be able to fail: every form of branch it claims to catch, caught."""
    names = {"htttx", "hex", "noughtsandcrosses"}
    source = "\n".join(
        [
            'if game.name == "htttx": pass',
            'if info.game.name != "hex": pass',
            'if name in ("hex", "other"): pass',
            'if game_name == "noughtsandcrosses": pass',
            'if record.game == "htttx": pass',
            'x = "htttx" if g == "htttx" else g',
            'match name:\n    case "hex":\n        pass',
            'if name in {"hex"}: pass',
        ]
    )
    assert len(name_branches(source, "t.py", names)) == 8
    # not branches: naming a game to fetch it, other string comparisons, a dialect called like no game
    fine = 'g = get_game("htttx")\nif dialect.name == "sqlite": pass\nx = {"hex": 1}\n'
    assert name_branches(fine, "t.py", names) == []


def test_no_generic_code_branches_on_a_game_name() -> None:
    names = _game_names()
    assert {"htttx", "hex", "hexdots", "hive", "tictactoe", "numberwang"} <= names
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "games":
            continue
        found += name_branches(path.read_text(encoding="utf-8"), str(rel), names)
    assert found == []
