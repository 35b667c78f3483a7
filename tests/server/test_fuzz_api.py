"""Property-based fuzzing of the whole HTTP API from its own OpenAPI schema (schemathesis), and of its GraphQL
schema: whatever a client sends, the server answers without a 5xx, with the content type and body its schema
declares.

Runs in-process against the ASGI app (schemathesis drives its lifespan, so the real store opens: SQLite in a
temporary directory), a bounded number of examples per operation so the suite stays well under a minute.
Valid and invalid inputs are both generated (schemathesis' positive and negative modes): the invalid ones are
what hostile clients send.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import shutdown_lifespans
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from hexarena.server.app import Settings, create_app
from hexarena.server.graphql.schema import schema as graphql_api

#: Examples per operation: enough to hit every field's edges (NaN, huge numbers, odd Unicode) in CI time. A
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


#: The app under test, with a store in a fresh SQLite file. Schemathesis starts its lifespan (opening the store)
#: at the first request, in-process, and :func:`_close` ends it with the module.
DATA_DIR = Path(tempfile.mkdtemp(prefix="hexarena-fuzz-"))
APP = create_app(Settings(database_url=f"sqlite+aiosqlite:///{DATA_DIR / 'hexarena.sqlite3'}"))

#: /graphql is strawberry's endpoint (GraphiQL's page on GET): the GraphQL fuzzing below covers it.
openapi_schema = schemathesis.openapi.from_dict(APP.openapi()).exclude(path="/graphql")
openapi_schema.app = APP
graphql_schema = schemathesis.graphql.from_dict(graphql_api.introspect())
graphql_schema.app = APP
graphql_schema.location = "/graphql"


@pytest.fixture(scope="module", autouse=True)
def _close() -> Iterator[None]:
    yield
    shutdown_lifespans()
    shutil.rmtree(DATA_DIR, ignore_errors=True)


@openapi_schema.parametrize()
@FUZZ
def test_openapi_operations_never_fail_on_client_input(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


@graphql_schema.parametrize()
@FUZZ
def test_graphql_queries_never_fail_on_client_input(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])
