"""GraphQL errors that are the client's fault say so: ``extensions.code = "BAD_USER_INPUT"``.

Why: GraphQL answers 200 whatever happens, so a client (or a fuzzer) tells a bad argument from a server bug only
by the error's code, the convention of Apollo and graphql-core alike. An error raised on purpose because of the
client's input (a ``HexarenaError``: an unknown game, a name the store refuses, a record that does not exist) is
labelled; anything else, a failing database included, stays unlabelled: a server error.
"""

from __future__ import annotations

from collections.abc import Iterator

from strawberry.extensions import SchemaExtension

from hexarena.core.errors import HexarenaError
from hexarena.server.graphql.limits import PageError
from hexarena.store.errors import Conflict, InvalidRecord, NotFound, StoreError

CLIENT_ERROR_CODE = "BAD_USER_INPUT"


class ClientErrors(SchemaExtension):
    """Label each error whose cause is a ``HexarenaError`` as the client's (see the module docstring)."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        for error in getattr(result, "errors", None) or ():
            if is_client_error(error.original_error):
                error.extensions = {**(error.extensions or {}), "code": CLIENT_ERROR_CODE}


def is_client_error(exc: BaseException | None) -> bool:
    """An error hexarena raised because of the request (the store's refusals too, not its failures)."""
    if isinstance(exc, StoreError):
        return isinstance(exc, (InvalidRecord, NotFound, Conflict))
    return isinstance(exc, HexarenaError | PageError)


__all__ = ["CLIENT_ERROR_CODE", "ClientErrors", "is_client_error"]
