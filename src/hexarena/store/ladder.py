"""The ladder's tables: its bots (registered once, paired until paused) and the bookkeeping of its games.

Why a mixin of its own: the ladder is one more feature on the server's one database (the games themselves are
ordinary rows of ``games``, rated by the recorder like any other); what it adds is who is on the ladder, at what
pace each bot may play, each bot's record and failure streak, and which ladder games are still to be settled.
Counters move in the transaction that settles a game (:meth:`LadderMixin.finish_ladder_game`), and only if the
game was not settled before, so a result is never counted twice, by two instances or after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import delete, func, insert, or_, select, update

from hexarena.core.jsonvalue import JsonObject
from hexarena.store.base import MAX_LIMIT, StoreBase, now
from hexarena.store.errors import NotFound
from hexarena.store.models import ladder_bots, ladder_games
from hexarena.store.validate import check_id, check_int, check_name, check_text, clean_json, redact_spec

ACTIVE = "active"
PAUSED = "paused"


class LadderBotJson(TypedDict):
    """A ladder entry as the API and the page show it (:meth:`LadderBot.public`)."""

    name: str
    game: str
    spec: str
    owner: str
    status: str
    max_concurrent: int
    games_per_hour: int | None
    games: int
    wins: int
    draws: int
    losses: int
    forfeits: int
    failures_in_row: int
    pause_reason: str | None
    created_at: str
    updated_at: str


class LadderGameJson(TypedDict):
    """A ladder game as the API shows it (:meth:`LadderGame.to_json`); ``players``: first, second."""

    game_id: str
    game: str
    players: list[str]
    started_at: str
    finished_at: str | None
    winner: int | None
    termination: str | None
    reason: str | None
    failed: str | None


@dataclass(frozen=True, slots=True)
class LadderBot:
    """A ladder entry as stored (``spec`` is kept whole: the server plays it; :meth:`public` redacts it)."""

    name: str
    game: str
    spec: str
    owner: str
    status: str
    max_concurrent: int
    games_per_hour: int | None
    games: int
    wins: int
    draws: int
    losses: int
    forfeits: int
    failures_in_row: int
    pause_reason: str | None
    #: The check-bot report a paused bot's owner is shown; None when it has none.
    report: JsonObject | None
    created_at: datetime
    updated_at: datetime

    def public(self) -> LadderBotJson:
        """The entry as the API and the page show it: secrets in its spec blanked, the report left out (it is
        served with the entry's own page)."""
        return {
            "name": self.name,
            "game": self.game,
            "spec": redact_spec(self.spec),
            "owner": self.owner,
            "status": self.status,
            "max_concurrent": self.max_concurrent,
            "games_per_hour": self.games_per_hour,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "forfeits": self.forfeits,
            "failures_in_row": self.failures_in_row,
            "pause_reason": self.pause_reason,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class LadderGame:
    """One ladder game: its bots (``first`` moved first) and, once settled, how it ended."""

    game_id: str
    game: str
    first: str
    second: str
    started_at: datetime
    finished_at: datetime | None
    winner: int | None
    termination: str | None
    reason: str | None
    failed: str | None

    def to_json(self) -> LadderGameJson:
        return {
            "game_id": self.game_id,
            "game": self.game,
            "players": [self.first, self.second],
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "winner": self.winner,
            "termination": self.termination,
            "reason": self.reason,
            "failed": self.failed,
        }


class LadderMixin(StoreBase):
    """The ladder part of :class:`hexarena.store.Store`."""

    async def add_ladder_bot(
        self, name: str, game: str, spec: str, owner: str, *, max_concurrent: int = 1, games_per_hour: int | None = None
    ) -> LadderBot:
        """Register a bot; Conflict when the name is taken (a name is a rating key: it stays one bot's)."""
        at = now()
        row: dict[str, Any] = {
            "name": check_id(name, "ladder bot name"),
            "game": check_name(game, "game"),
            "spec": check_text(spec, "spec"),
            "owner": check_text(owner, "owner"),
            "status": ACTIVE,
            "max_concurrent": check_int(max_concurrent, "max_concurrent", minimum=1),
            "games_per_hour": None
            if games_per_hour is None
            else check_int(games_per_hour, "games_per_hour", minimum=1),
            "games": 0,
            "wins": 0,
            "draws": 0,
            "losses": 0,
            "forfeits": 0,
            "failures_in_row": 0,
            "pause_reason": None,
            "report": None,
            "created_at": at,
            "updated_at": at,
        }
        conflict = f"a ladder bot named {name!r} exists already; choose another name"
        await self._insert_new("add_ladder_bot", ladder_bots, row, conflict)
        return LadderBot(**row)

    async def list_ladder_bots(self, *, game: str | None = None) -> list[LadderBot]:
        """Every ladder bot (of ``game``), by name."""
        stmt = select(ladder_bots).order_by(ladder_bots.c.name).limit(MAX_LIMIT)
        if game is not None:
            stmt = stmt.where(ladder_bots.c.game == game)
        async with self._read("list_ladder_bots") as conn:
            return [LadderBot(**r) for r in (await conn.execute(stmt)).mappings()]

    async def count_ladder_bots(self) -> int:
        async with self._read("count_ladder_bots") as conn:
            return int(await conn.scalar(select(func.count()).select_from(ladder_bots)) or 0)

    async def get_ladder_bot(self, name: str) -> LadderBot | None:
        if len(name) > 64:
            return None
        async with self._read("get_ladder_bot") as conn:
            row = (await conn.execute(select(ladder_bots).where(ladder_bots.c.name == name))).mappings().first()
        return None if row is None else LadderBot(**row)

    async def set_ladder_status(self, name: str, status: str, *, reason: str | None = None) -> LadderBot:
        """Pause (with the reason its owner is shown) or resume a bot; resuming clears its failure streak and
        its report. NotFound for an unknown name."""
        if status not in (ACTIVE, PAUSED):
            raise ValueError(f"a ladder status is {ACTIVE!r} or {PAUSED!r}, not {status!r}")
        values: dict[str, Any] = {"status": status, "updated_at": now()}
        if status == ACTIVE:
            values.update(failures_in_row=0, pause_reason=None, report=None)
        else:
            values["pause_reason"] = check_text(reason or "paused by the operator", "reason")
        async with self._write("set_ladder_status") as conn:
            done = await conn.execute(update(ladder_bots).where(ladder_bots.c.name == name).values(**values))
        if not done.rowcount:
            raise NotFound(f"no ladder bot named {name!r}")
        found = await self.get_ladder_bot(name)
        assert found is not None
        return found

    async def set_ladder_report(self, name: str, report: JsonObject) -> None:
        """Keep the check-bot report that tells a paused bot's owner what is wrong."""
        async with self._write("set_ladder_report") as conn:
            await conn.execute(
                update(ladder_bots)
                .where(ladder_bots.c.name == name)
                .values(report=clean_json(report, "check-bot report"), updated_at=now())
            )

    async def remove_ladder_bot(self, name: str) -> bool:
        """Take a bot off the ladder (its games and rating stay); False if there was none."""
        async with self._write("remove_ladder_bot") as conn:
            done = await conn.execute(delete(ladder_bots).where(ladder_bots.c.name == name))
        return bool(done.rowcount)

    async def start_ladder_game(self, game_id: str, game: str, first: str, second: str) -> None:
        row = {"game_id": check_id(game_id, "game id"), "game": game, "first": first, "second": second}
        async with self._write("start_ladder_game") as conn:
            await conn.execute(insert(ladder_games), {**row, "started_at": now()})

    async def finish_ladder_game(
        self,
        game_id: str,
        *,
        winner: int | None,
        termination: str,
        reason: str,
        failed: str | None,
        result: bool,
    ) -> bool:
        """Settle a ladder game once: its row, and its bots' records (``result``: it counts as a game; ``failed``:
        the bot that forfeited it, whose failure streak grows while the other's ends). False when it was settled
        already (another instance, or before a restart) or is unknown: nothing is counted twice."""
        settled_at = now()
        async with self._write("finish_ladder_game") as conn:
            done = await conn.execute(
                update(ladder_games)
                .where(ladder_games.c.game_id == game_id, ladder_games.c.finished_at.is_(None))
                .values(
                    finished_at=settled_at,
                    winner=winner,
                    termination=check_name(termination, "termination"),
                    reason=check_text(reason, "reason")[:2000],
                    failed=failed,
                )
            )
            if not done.rowcount:
                return False
            row = (await conn.execute(select(ladder_games).where(ladder_games.c.game_id == game_id))).mappings().one()
            for seat, name in enumerate((row["first"], row["second"])):
                t = ladder_bots.c
                values: dict[str, Any] = {"updated_at": settled_at}
                if name == failed:
                    values.update(failures_in_row=t.failures_in_row + 1, forfeits=t.forfeits + 1)
                elif result:
                    values["failures_in_row"] = 0
                if result:
                    values["games"] = t.games + 1
                    if winner is None:
                        values["draws"] = t.draws + 1
                    elif winner == seat:
                        values["wins"] = t.wins + 1
                    else:
                        values["losses"] = t.losses + 1
                await conn.execute(update(ladder_bots).where(t.name == name).values(**values))
        return True

    async def note_ladder_failure(self, name: str) -> int:
        """A bot failed before its game existed (it did not answer): its streak grows; the new streak."""
        t = ladder_bots.c
        async with self._write("note_ladder_failure") as conn:
            await conn.execute(
                update(ladder_bots)
                .where(t.name == name)
                .values(failures_in_row=t.failures_in_row + 1, forfeits=t.forfeits + 1, updated_at=now())
            )
            return int(await conn.scalar(select(t.failures_in_row).where(t.name == name)) or 0)

    async def get_ladder_game(self, game_id: str) -> LadderGame | None:
        """One ladder game by its match's id, or None (not a ladder game)."""
        stmt = select(ladder_games).where(ladder_games.c.game_id == check_id(game_id, "game id"))
        async with self._read("get_ladder_game") as conn:
            row = (await conn.execute(stmt)).mappings().first()
        return None if row is None else LadderGame(**row)

    async def list_ladder_games(
        self, *, bot: str | None = None, unfinished: bool = False, limit: int = 50
    ) -> list[LadderGame]:
        """Ladder games, newest first: of one bot, or only those not settled yet."""
        limit = min(check_int(limit, "limit"), MAX_LIMIT)
        stmt = select(ladder_games).order_by(ladder_games.c.started_at.desc(), ladder_games.c.game_id).limit(limit)
        if bot is not None:
            stmt = stmt.where(or_(ladder_games.c.first == bot, ladder_games.c.second == bot))
        if unfinished:
            stmt = stmt.where(ladder_games.c.finished_at.is_(None))
        async with self._read("list_ladder_games") as conn:
            return [LadderGame(**r) for r in (await conn.execute(stmt)).mappings()]


__all__ = ["ACTIVE", "PAUSED", "LadderBot", "LadderGame", "LadderMixin"]
