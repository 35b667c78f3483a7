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
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from hexarena.server.app import Settings, create_app
from hexarena.server.graphql.schema import schema as graphql_api

# schemathesis is in the test extra, so CI runs these; a checkout without it skips them, saying what to install.
pytest.importorskip("schemathesis", reason="the API fuzzing needs schemathesis: pip install -e '.[test]'")
import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import shutdown_lifespans
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


#: The app under test. Schemathesis starts its lifespan (opening the store) at the first request, in-process;
#: :func:`_store_in_tmp` has pointed it at a fresh SQLite file by then, and ends it with the module.
SETTINGS = Settings()
APP = create_app(SETTINGS)

#: /graphql is strawberry's endpoint (GraphiQL's page on GET): the GraphQL fuzzing below covers it.
openapi_schema = schemathesis.openapi.from_dict(APP.openapi()).exclude(path="/graphql")
openapi_schema.app = APP
graphql_schema = schemathesis.graphql.from_dict(graphql_api.introspect())
graphql_schema.app = APP
graphql_schema.location = "/graphql"


@pytest.fixture(scope="module", autouse=True)
def _store_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    SETTINGS.database_url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'hexarena.sqlite3'}"
    yield
    shutdown_lifespans()


@openapi_schema.parametrize()
@FUZZ
def test_openapi_operations_never_fail_on_client_input(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


@graphql_schema.parametrize()
@FUZZ
def test_graphql_queries_never_fail_on_client_input(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])
