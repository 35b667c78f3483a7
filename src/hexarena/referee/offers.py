"""The referee's desk for draw offers and takeback requests between the two seats (lichess's buttons).

Why the referee owns them: an offer is made by one seat and answered by the other, and only the referee reaches
both and can carry the answer out (end the match, undo moves while either seat is thinking). So a seat asks
here (``MatchInfo.offers``); the desk checks the request against the rules below, asks the other seat
(``Player.offered``: a person answers later on their page, a bot at once) and, once accepted, has the referee
end the match a draw by agreement or take the asker's last move back with every move after it.

The rules, each refusal said in words for the person who asked:

- nothing before the first move may be asked for, nor once the match is over or ending;
- one standing offer of each kind: asking twice is refused (wait for the answer); offering a draw while the
  other seat's offer stands accepts it (both want a draw); a takeback asked while the other seat's stands is
  refused (answer theirs first);
- takebacks only in a casual match (never rated or tournament: ``MatchConfig.takebacks``), by a person, facing a
  built-in bot (which grants at once) or another person, and only with a move of the asker's own on the board;
- an offer lapses when a move is played instead of an answer: a draw offer when its receiver moves (the offerer
  may offer and then move, as on lichess), a takeback request on any move (what it would take back changed);
- at most :data:`MAX_OFFERS` of each kind per seat per game, so a seat cannot flood the other's page.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from hexarena.core.contract import OFFER_KINDS, OfferNews
from hexarena.core.types import Seat, other

if TYPE_CHECKING:
    from hexarena.referee.match import Referee

log = logging.getLogger(__name__)

#: Offers of each kind one seat may make in one game, answered or not. Takebacks are more: a person practising
#: against a built-in bot takes moves back often, and each is granted at once.
MAX_OFFERS = {"draw": 10, "takeback": 50}

_ASKED = {"draw": "offered a draw", "takeback": "asked for a takeback"}
_NAMED = {"draw": "draw offer", "takeback": "takeback request"}
#: Why a bot's at-once "no" was given, for the page of the person who asked.
_BOT_NO = {"draw": "bots play on", "takeback": "your opponent does not take moves back"}


class OfferDesk:
    """The offers of one match (``Referee.desk``), implementing the contract's ``Offers``."""

    def __init__(self, referee: Referee) -> None:
        self._referee = referee
        #: kind -> the seat whose offer stands
        self._standing: dict[str, Seat] = {}
        #: per seat, kind -> offers made this game (bounded by MAX_OFFERS)
        self._made: tuple[dict[str, int], dict[str, int]] = ({}, {})
        #: True while moves are being played: from the first move asked for to the end
        self.open = False

    # ----- the contract's Offers -----

    def refusal(self, seat: Seat, kind: str) -> str | None:
        if kind not in OFFER_KINDS:
            return f"an offer is a {' or a '.join(repr(k) for k in OFFER_KINDS)}, not {kind!r}"
        closed = self._closed()
        if closed is not None:
            return closed
        referee = self._referee
        if kind == "takeback":
            why = referee.takeback_refusal(seat)
            if why is not None:
                return why
        standing = self._standing.get(kind)
        if standing == seat:
            return f"you already {_ASKED[kind]}: wait for the answer"
        if standing is not None:
            return f"your opponent {_ASKED[kind]}: answer theirs first"
        if kind == "takeback":
            if referee.undo_pending:
                return "a takeback is being carried out: try again in a moment"
            if referee.last_ply_of(seat) is None:
                return "you have no move to take back yet"
        made = self._made[seat].get(kind, 0)
        if made >= MAX_OFFERS[kind]:
            return f"you have {_ASKED[kind]} {made} times this game, the most one game allows"
        return None

    async def ask(self, seat: Seat, kind: str) -> str | None:
        if kind == "draw" and self._standing.get(kind) == other(seat) and self._closed() is None:
            return await self.answer(seat, kind, True)  # both want a draw: agreed
        why = self.refusal(seat, kind)
        if why is not None:
            return why
        made = self._made[seat]
        made[kind] = made.get(kind, 0) + 1
        referee = self._referee
        self._standing[kind] = seat
        try:
            reply = await referee.players[other(seat)].offered(kind, referee.side_of(seat))
        except Exception:  # a player's bug must not end the match: taken as a "no"
            log.exception("%s: asking the other seat about a %s failed", referee.match_id, kind)
            reply = False
        if self._standing.get(kind) != seat:  # answered (or lapsed) while it was being asked
            return None
        if reply is None:  # a person: asked on their page, answers through ``answer``
            await self._tell(seat, OfferNews(kind, "offered", mine=True))
            return None
        del self._standing[kind]
        if reply:
            self._carry_out(seat, kind)
        else:
            await self._tell(seat, OfferNews(kind, "declined", mine=True, by="opponent", reason=_BOT_NO[kind]))
        return None

    async def answer(self, seat: Seat, kind: str, accept: bool) -> str | None:
        if kind not in OFFER_KINDS:
            return self.refusal(seat, kind)
        closed = self._closed()
        if closed is not None:
            return closed
        asker = other(seat)
        if self._standing.get(kind) != asker:
            return f"there is no {_NAMED[kind]} from your opponent to answer"
        del self._standing[kind]
        if accept:
            self._carry_out(asker, kind)
            return None
        await self._tell(seat, OfferNews(kind, "declined", mine=False, by="you"))
        await self._tell(asker, OfferNews(kind, "declined", mine=True, by="opponent"))
        return None

    def standing(self, seat: Seat) -> dict[str, str]:
        return {kind: ("mine" if by == seat else "theirs") for kind, by in self._standing.items()}

    # ----- the referee's side -----

    @property
    def busy(self) -> bool:
        """Whether an offer stands (the referee's hot path asks before telling the desk of a move)."""
        return bool(self._standing)

    async def moved(self, seat: Seat) -> None:
        """``seat`` played a move: the offers it lapses go, and their seats are told."""
        if self._standing.get("draw") == other(seat):
            del self._standing["draw"]
            await self._tell(other(seat), OfferNews("draw", "lapsed", mine=True))
        asker = self._standing.pop("takeback", None)
        if asker is not None:
            await self._tell(asker, OfferNews("takeback", "lapsed", mine=True))
            await self._tell(other(asker), OfferNews("takeback", "lapsed", mine=False))

    def close(self) -> None:
        """The match is over: nothing more may be asked or answered."""
        self.open = False
        self._standing.clear()

    # ----- helpers -----

    def _closed(self) -> str | None:
        """Why nothing may be asked or answered now (before the first move, once over or ending), or None."""
        referee = self._referee
        if referee.result is not None:
            return "the game is already over"
        if not self.open:
            return "the game has not started yet"
        if referee.ending():
            return "the game is already ending"
        return None

    def _carry_out(self, asker: Seat, kind: str) -> None:
        if kind == "draw":
            self._referee.agree_draw()
        else:
            self._referee.undo_for(asker)

    async def _tell(self, seat: Seat, news: OfferNews) -> None:
        try:
            await self._referee.players[seat].offer_news(news)
        except Exception:  # telling is best effort: a dead page learns the state when it reconnects
            log.exception("%s: telling seat %d about a %s failed", self._referee.match_id, seat, news.kind)


__all__ = ["MAX_OFFERS", "OfferDesk"]
