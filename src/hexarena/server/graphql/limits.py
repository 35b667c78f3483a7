"""What one GraphQL query may cost, and the gate every query passes through.

Why: one query of 2,000 aliases of ``game(id) { turns { move } state }`` once ran 70 s, answered 97 MB and held
every connection of the database pool, so a ``POST /api/matches`` beside it waited 55 s. The bounds, cheapest
first:

* while parsing and validating (strawberry's own extensions, before any resolver runs): at most
  ``MAX_TOKENS`` tokens, ``MAX_ALIASES`` aliases and ``MAX_QUERY_DEPTH`` levels (the deepest useful query,
  ``gameType { game { turns { move } } }``, is 3; the limit keeps a future nested field from multiplying);
* per list field: ``limit`` (default and cap ``MAX_PAGE``) and ``offset`` arguments, and ``turns`` of a game
  come in pages of at most ``MAX_TURNS``; a larger ``limit`` is an error that names the cap;
* per query: ``GraphQLLimits.timeout`` seconds, then it is cancelled with an error;
* per server: at most ``max_queries`` queries at once (one more is refused with 429) and at most
  ``db_connections`` database connections held by GraphQL resolvers at once, fewer than the smallest pool
  (SQLite file: 5 + 10 overflow; PostgreSQL: 10 + 20), so matches and the REST API always find one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from fastapi import HTTPException

#: Levels of nested selections: ``gameType { game { turns { move } } }`` is 3.
MAX_QUERY_DEPTH = 3
#: Aliases in one document: enough to compare a few games side by side.
MAX_ALIASES = 20
#: Lexical tokens in one document (the full introspection query is under 200).
MAX_TOKENS = 2000
#: Items of one list field (games, bots, contests, rankings) per page.
MAX_PAGE = 100
#: Turns of one game per page.
MAX_TURNS = 500
#: Seconds one query may run.
QUERY_TIMEOUT = 10.0
#: Queries running at once in one server.
MAX_CONCURRENT_QUERIES = 8
#: Database connections GraphQL resolvers may hold at once (the SQLite file pool is 5 + 10 overflow).
DB_CONNECTIONS = 3


class PageError(ValueError):
    """A page argument out of range; the message is shown to the client as the GraphQL error."""


def check_page(limit: int, offset: int, cap: int) -> None:
    """Refuse a negative page or one larger than ``cap``, saying which and what the cap is."""
    if limit < 0:
        raise PageError(f"limit must be 0 or more, got {limit}")
    if limit > cap:
        raise PageError(f"limit {limit} is above the cap of {cap}; page with offset")
    if offset < 0:
        raise PageError(f"offset must be 0 or more, got {offset}")


@dataclass(frozen=True)
class GraphQLLimits:
    """The per-server bounds (the per-document ones are fixed in the schema)."""

    timeout: float = QUERY_TIMEOUT
    max_queries: int = MAX_CONCURRENT_QUERIES
    db_connections: int = DB_CONNECTIONS


class QueryGate:
    """One per app: counts running queries and holds the semaphore resolvers take before touching the store."""

    def __init__(self, limits: GraphQLLimits) -> None:
        self.limits = limits
        self.running = 0
        self.db = asyncio.Semaphore(limits.db_connections)

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one query slot for the block; 429 at once when every slot is taken (queueing would only move
        the pile-up into memory)."""
        if self.running >= self.limits.max_queries:
            raise HTTPException(
                status_code=429,
                detail=f"{self.limits.max_queries} GraphQL queries are running; try again shortly",
                headers={"Retry-After": "1"},
            )
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1

    def timeout_message(self) -> str:
        return (
            f"the query ran longer than {self.limits.timeout:g} s and was cancelled; "
            "ask for fewer games, turns or aliases"
        )
