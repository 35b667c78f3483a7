"""Glicko-2 ratings: the Elo ratings stored so far become Glicko-2 standings.

The columns were there from the start (``rd``, ``sigma``), but Elo left them at the defaults, so an Elo row reads
as a newcomer's: a bot with 500 rated games would be "provisional" and its next result would move it by a
hundred points. So the rating is kept (Elo's and Glicko-2's scales are the same: 1500, 400 points a factor of ten
in odds) and the deviation is what Glicko-2 would have brought a newcomer's 350 down to after as many games as
the row counts, each an even game against a settled opponent (the same per-game update the store now runs, with
the volatility's growth between games, which keeps it above about 60). The volatility is the default 0.06. History
rows get the deviation of their own game count, so the plots' bands read the same way.

Data only, in one ``UPDATE`` a table (a ``CASE`` over the game count, computed here with the constants frozen, so
this migration keeps its meaning whatever later code does; it also runs in offline ``--sql`` mode). The downgrade
changes nothing: Elo ignored both columns.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEWCOMER_RD = 350.0
SIGMA = 0.06
SCALE = 400.0 / math.log(10.0)  # Glicko-2's internal scale
#: Games after which the seeded deviation no longer changes to a tenth of a point (it has reached its floor).
MAX_GAMES = 120


def seeded_deviations() -> list[float]:
    """The deviation after 0, 1, ... ``MAX_GAMES`` even games against a settled opponent (g = 1, E = 1/2)."""
    out = [NEWCOMER_RD]
    phi = NEWCOMER_RD / SCALE
    for _ in range(MAX_GAMES):
        phi = 1.0 / math.sqrt(1.0 / (phi * phi + SIGMA * SIGMA) + 0.25)
        out.append(round(phi * SCALE, 1))
    return out


def _seed(table: str) -> None:
    t = sa.table(table, sa.column("rd", sa.Float()), sa.column("sigma", sa.Float()), sa.column("games", sa.Integer()))
    rds = seeded_deviations()
    by_games = sa.case(*((t.c.games <= n, sa.literal(rd, sa.Float())) for n, rd in enumerate(rds)), else_=rds[-1])
    op.execute(t.update().values(rd=by_games, sigma=sa.literal(SIGMA, sa.Float())))


def upgrade() -> None:
    _seed("ratings")
    _seed("rating_history")


def downgrade() -> None:
    pass
