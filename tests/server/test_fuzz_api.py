"""Property-based fuzzing of the whole HTTP API from its own OpenAPI schema (schemathesis), and of its GraphQL
schema: whatever a client sends, the server answers without a 5xx, with the content type and body its schema
declares.

Runs in-process against the ASGI app (schemathesis drives its lifespan, so the real store opens: SQLite in a
temporary directory), a bounded number of examples per operation. Each test is one pytest item that runs every
operation as a subtest of its own (reported with its method and path).
Valid and invalid inputs are both generated (schemathesis' positive and negative modes): the invalid ones are
what hostile clients send.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, settings

from hexarena.server.app import Settings, create_app
from hexarena.server.graphql.schema import schema as graphql_api

# schemathesis is in the test extra, so CI runs these; a checkout without it skips them, saying what to install.
pytest.importorskip("schemathesis", reason="the API fuzzing needs schemathesis: pip install -e '.[test]'")
import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import shutdown_lifespans
from schemathesis.schemas import BaseSchema
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

#: Examples per operation: enough to hit every field's edges (huge numbers, odd Unicode, wrong types) in CI time. A
#: longer hunt: HEXARENA_FUZZ_EXAMPLES=500 HEXARENA_FUZZ_RANDOM=1 (fresh inputs each run, not CI's fixed ones).
EXAMPLES = int(os.environ.get("HEXARENA_FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("HEXARENA_FUZZ_RANDOM"),  # CI: the same inputs each run, reproducible anywhere
    suppress_health_check=list(HealthCheck),
    database=None,
)
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]

#: each test fuzzes every operation: the longest single tests of the suite
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    """The app under test, on a fresh SQLite file. Schemathesis starts its lifespan (opening the store) at the
    first request, in-process, and :func:`shutdown_lifespans` ends it with the module."""
    settings = Settings()
    settings.database_url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'hexarena.sqlite3'}"
    yield create_app(settings)
    shutdown_lifespans()


# The schemas load from fixtures, when the tests run, not at import: schemathesis then builds each operation's
# cases in the one worker that runs them. Loaded at import, every pytest-xdist worker built all of them (the coverage
# phase's cases included) while collecting, each run, whichever worker ran them.
@pytest.fixture(scope="module")
def openapi_schema(fuzzed_app: FastAPI) -> BaseSchema:
    schema = schemathesis.openapi.from_dict(fuzzed_app.openapi())
    schema.app = fuzzed_app
    return schema


@pytest.fixture(scope="module")
def graphql_schema(fuzzed_app: FastAPI) -> BaseSchema:
    schema = schemathesis.graphql.from_dict(graphql_api.introspect())
    schema.app = fuzzed_app
    schema.location = "/graphql"
    return schema


#: /graphql is strawberry's endpoint (GraphiQL's page on GET): the GraphQL fuzzing below covers it. (The filter
#: goes on the lazy schema: the one the fixture returns is filtered by it when the test runs.)
@schemathesis.pytest.from_fixture("openapi_schema").exclude(path="/graphql").parametrize()
@FUZZ
def test_openapi_operations_never_fail_on_client_input(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


@schemathesis.pytest.from_fixture("graphql_schema").parametrize()
@FUZZ
def test_graphql_queries_never_fail_on_client_input(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])
