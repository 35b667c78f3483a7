"""Initial schema: games, players per seat, moves, bots, contests, ratings, tournaments.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> Any:
    # Frozen copy of models.json_type(): a migration must not change when the models do.
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("params", _json(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("termination", sa.String(32), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("started_at", _ts(), nullable=True),
        sa.Column("finished_at", _ts(), nullable=True),
        sa.Column("contest_id", sa.String(64), nullable=True),
        sa.Column("tournament_id", sa.String(64), nullable=True),
        sa.CheckConstraint("status IN ('pending', 'running', 'finished', 'aborted')", name=op.f("ck_games_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_index("ix_games_game_created_at", "games", ["game", "created_at"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index(op.f("ix_games_contest_id"), "games", ["contest_id"])
    op.create_index(op.f("ix_games_tournament_id"), "games", ["tournament_id"])

    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_players_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_players")),
    )
    op.create_index(op.f("ix_game_players_name"), "game_players", ["name"])

    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.Text(), nullable=False),
        sa.Column("timestamp", _ts(), nullable=False),
        sa.Column("think_time", sa.Float(), nullable=False),
        sa.Column("evaluation", _json(), nullable=True),
        sa.Column("considerations", _json(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_moves_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "ply", name=op.f("pk_moves")),
    )

    op.create_table(
        "bots",
        sa.Column("bot_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("pass_hash", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("spec", _json(), nullable=True),
        sa.Column("date_registered", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("bot_id", name=op.f("pk_bots")),
    )
    op.create_index(op.f("ix_bots_game"), "bots", ["game"])
    op.create_index(op.f("ix_bots_owner"), "bots", ["owner"])

    op.create_table(
        "contests",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contests")),
    )
    op.create_index(op.f("ix_contests_game"), "contests", ["game"])

    op.create_table(
        "ratings",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("game", "key", name=op.f("pk_ratings")),
    )

    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("config", _json(), nullable=False),
        sa.Column("state", _json(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index(op.f("ix_tournaments_game"), "tournaments", ["game"])
    op.create_index(op.f("ix_tournaments_status"), "tournaments", ["status"])


def downgrade() -> None:
    for table in ("tournaments", "ratings", "contests", "bots", "moves", "game_players", "games"):
        op.drop_table(table)
