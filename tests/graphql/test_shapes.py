"""Each GraphQL type that serves one of :mod:`data`'s dicts is built from it (``schema.fields_of``): its fields
are the dict's keys, in their order, so GraphQL and its REST twin cannot drift apart; an ``Id`` key is an ``ID``.
Its other fields take arguments and are resolved from the dict (``strawberry.Parent``): a game's ``turns`` in pages,
a contest's ``rankings`` by method."""

from __future__ import annotations

import pytest

from graphql import GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, get_nullable_type
from hexarena.server.graphql import data
from hexarena.server.graphql.schema import schema
from hexarena.store.contests import Ranking

SHAPES = [
    ("GameType", data.GameTypeJson),
    ("Bot", data.BotJson),
    ("Contest", data.ContestJson),
    ("ContestRanking", Ranking),
    ("Game", data.GameJson),
    ("Turn", data.TurnJson),
]


@pytest.mark.parametrize(("name", "shape"), SHAPES)
def test_a_type_has_its_shape_s_keys_first(name: str, shape: type) -> None:
    graphql_type = schema._schema.type_map[name]
    assert isinstance(graphql_type, GraphQLObjectType)
    fields = graphql_type.fields
    plain = [k for k in shape.__annotations__ if not fields[k].args]  # a key it resolves itself takes arguments
    assert [f for f, field in fields.items() if not field.args] == plain


@pytest.mark.parametrize("name", ["GameType", "Bot", "Contest", "Game"])
def test_an_id_is_an_id(name: str) -> None:
    graphql_type = schema._schema.type_map[name]
    assert isinstance(graphql_type, GraphQLObjectType)
    id_type = graphql_type.fields["id"].type
    assert isinstance(id_type, GraphQLNonNull)
    scalar = get_nullable_type(id_type)
    assert isinstance(scalar, GraphQLScalarType) and scalar.name == "ID"
