"""The ladder: bots registered once and paired continuously (``ladder_bots``), and its games (``ladder_games``).

A ladder game is an ordinary match in ``games`` (recorded and rated like any other); ``ladder_games`` is the
ladder's own bookkeeping of it: the two bots, and once over how it ended and which bot failed, so a restarted
server settles the games its predecessor left unfinished and each bot's record and failure streak stay right.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> Any:
    # Frozen copy of models.json_type(): a migration must not change when the models do.
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ladder_bots",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("max_concurrent", sa.Integer(), nullable=False),
        sa.Column("games_per_hour", sa.Integer(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("forfeits", sa.Integer(), nullable=False),
        sa.Column("failures_in_row", sa.Integer(), nullable=False),
        sa.Column("pause_reason", sa.Text(), nullable=True),
        sa.Column("report", _json(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.CheckConstraint("status IN ('active', 'paused')", name=op.f("ck_ladder_bots_status")),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_ladder_bots")),
    )
    op.create_index(op.f("ix_ladder_bots_game"), "ladder_bots", ["game"])
    op.create_table(
        "ladder_games",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("first", sa.String(64), nullable=False),
        sa.Column("second", sa.String(64), nullable=False),
        sa.Column("started_at", _ts(), nullable=False),
        sa.Column("finished_at", _ts(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("termination", sa.String(32), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("failed", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_ladder_games")),
    )
    op.create_index("ix_ladder_games_started_at", "ladder_games", ["started_at"])
    op.create_index(op.f("ix_ladder_games_first"), "ladder_games", ["first"])
    op.create_index(op.f("ix_ladder_games_second"), "ladder_games", ["second"])


def downgrade() -> None:
    op.drop_index(op.f("ix_ladder_games_second"), table_name="ladder_games")
    op.drop_index(op.f("ix_ladder_games_first"), table_name="ladder_games")
    op.drop_index("ix_ladder_games_started_at", table_name="ladder_games")
    op.drop_table("ladder_games")
    op.drop_index(op.f("ix_ladder_bots_game"), table_name="ladder_bots")
    op.drop_table("ladder_bots")
