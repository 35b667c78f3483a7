"""Print the import cycles among a package's modules: the strongly connected components of its import graph.

A cycle hidden behind an import deferred into a function still ties the modules together (neither can be read,
tested or moved without the other), so every import counts, deferred ones too; imports under ``TYPE_CHECKING``
count with ``--typing`` (they never run, but a type spelled in a module above is still a tie to it). Usage:
``python tools/import_cycles.py [--typing] [PREFIX ...]`` (default: the server and the bot SDK); prints one line
per cycle and the count last.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import grimp

DEFAULT_PREFIXES = ("hexarena.server", "hexarena.bots.sdk")


def cycles(prefixes: Iterable[str], typing: bool = False) -> list[list[str]]:
    """The components of two or more modules (Tarjan's algorithm) among the modules under ``prefixes``."""
    wanted = tuple(prefixes)
    graph = grimp.build_graph("hexarena", exclude_type_checking_imports=not typing, cache_dir=None)
    modules = sorted(m for m in graph.modules if any(m == p or m.startswith(p + ".") for p in wanted))
    inside = set(modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(root: str) -> None:  # iterative, so a deep graph cannot hit the recursion limit
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for module in modules:
        if module not in index:
            visit(module)
    return sorted(found)


def main(argv: list[str]) -> int:
    typing = "--typing" in argv
    prefixes = [a for a in argv if a != "--typing"]
    found = cycles(prefixes or DEFAULT_PREFIXES, typing=typing)
    for component in found:
        print(f"{len(component)} modules: " + " <-> ".join(component))
    print(f"{len(found)} cycles")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
