"""Games may be ``interrupted``: the server stopped mid-game, the moves are kept, there is no result.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = "status IN ('pending', 'running', 'finished', 'aborted')"
_NEW = "status IN ('pending', 'running', 'finished', 'aborted', 'interrupted')"


def _replace(check: str) -> None:
    # batch mode: SQLite cannot ALTER a CHECK constraint, Alembic rebuilds the table there (plain ALTER elsewhere)
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_status"), type_="check")
        batch.create_check_constraint(op.f("ck_games_status"), check)


def upgrade() -> None:
    _replace(_NEW)


def downgrade() -> None:
    op.execute("UPDATE games SET status = 'aborted' WHERE status = 'interrupted'")
    _replace(_OLD)
