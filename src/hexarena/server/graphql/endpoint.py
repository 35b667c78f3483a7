"""The strawberry side of ``/graphql``: its router, each operation inside the app's query gate and time limit.

Imported on the first request to ``/graphql`` (see :class:`hexarena.server.graphql.LazyGraphQL`), not at start:
strawberry, graphql-core and the schema take longer to import than the rest of a start.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from cross_web import HTTPException as StrawberryHTTPException
from fastapi import APIRouter
from strawberry.fastapi import GraphQLRouter
from strawberry.types import ExecutionResult

from graphql import GraphQLError
from hexarena.server.graphql.limits import QueryGate
from hexarena.server.graphql.schema import schema


class BoundedGraphQLRouter(GraphQLRouter[Any, Any]):
    """strawberry's FastAPI router, each operation inside the app's query gate and under its time limit."""

    def decode_json(self, data: str | bytes) -> object:
        """strawberry answers 400 only to a syntax error: a body ``json.loads`` refuses otherwise (an integer
        over Python's 4,300-digit limit, nesting deeper than the parser goes) escaped as a 500, after which the
        server drops the client's keep-alive connection. The same 400 as the REST routes' instead."""
        try:
            return json.loads(data)
        except (ValueError, RecursionError) as exc:
            text = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise StrawberryHTTPException(400, f"the body is not usable JSON: {type(exc).__name__}: {text}") from None

    async def execute_single(self, request: Any, *args: Any, **kwargs: Any) -> ExecutionResult:
        gate: QueryGate = request.app.state.graphql_gate
        with gate.slot():
            try:
                async with asyncio.timeout(gate.limits.timeout) as deadline:
                    return await super().execute_single(request, *args, **kwargs)
            except TimeoutError:
                if not deadline.expired():
                    raise
                return ExecutionResult(data=None, errors=[GraphQLError(gate.timeout_message())])


async def _no_context() -> None:
    """strawberry's default context getter is a plain lambda, which FastAPI runs in a worker thread: a thread hop
    per GraphQL request. None still gives resolvers strawberry's default context (the request and response)."""
    return None


def graphql_router(path: str) -> APIRouter:
    """``path`` served by strawberry: GraphiQL on GET, queries on POST (and GET), subscriptions' WebSocket."""
    return BoundedGraphQLRouter(schema, graphql_ide="graphiql", context_getter=_no_context, prefix=path)


__all__ = ["BoundedGraphQLRouter", "graphql_router"]
