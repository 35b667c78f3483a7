"""A person playing any game in the browser, over a small JSON protocol (``WS /api/play?token=``).

Why not the HTTTX ``human`` player: that one speaks bws packets and only knows HTTTX; a person needs every game,
an explanation when a click is illegal, and a page reload that does not forfeit the game. So this adapter:

- sends ``your_turn`` with the position (``game.to_json``), the legal moves in a clickable form and the time;
- PRE-VALIDATES every ``{"type": "move", "move": "<notation>"}`` with ``game.play`` and answers a bad one with
  ``{"type": "illegal", "reason": ...}``, keeping the request open: a person never loses on a misclick;
- takes one socket at a time: a second connection while one is live is refused (``nope``, then closed with 1008)
  and never reaches the seat, so a token that leaked cannot be used to act beside, or instead of, the person
  playing. Refusing is safer than replacing: replacing would let whoever holds a copy of the token take the seat
  over from the person at any moment;
- lets the same token reconnect within ``grace`` seconds of a disconnect (a reload); after that the seat
  forfeits (``BotCrashed``), exactly like a bot that went away. The clock keeps running meanwhile;
- accepts ``{"type": "takeback"}`` on its turn in a casual game against a built-in bot: the referee undoes the
  person's last move and the bot's reply (position and clocks as before them) and the page gets
  ``{"type": "takeback", "granted": true, "ply": N}`` then a new ``your_turn``; anywhere else
  ``{"type": "takeback", "granted": false, "reason": ...}``. ``hello`` says whether this match allows takebacks
  at all (``takebacks``) and each ``your_turn`` whether one would be granted now (``takeback``: the seat has a
  move of its own to take back), so the page enables its button only then;
- accepts ``{"type": "resign"}`` at any moment of the match, on its turn or not: it fails the seat with the
  contract's ``MatchEnded`` (termination ``resign``), which the referee records as given even while the opponent
  is thinking, so a person never has to wait for a bot to move in order to give up. The page then gets ``end``;
- accepts ``{"type": "abort"}`` while the two seats have not both moved (lichess's rule: either side may call the
  game off before it really began, e.g. the invited friend never came): the match ends ``aborted``, which is no
  result (no winner, no rating change), where a resignation would record a loss against whoever sat opposite.
  Later it is refused with an ``error`` (resign instead). ``hello`` and ``your_turn`` say whether it is allowed
  now (``abortable``), so the page shows its Abort button only then;
- accepts ``{"type": "draw", "action": "offer" | "accept" | "decline"}`` while the game is on (lichess's draw
  offer): an offer reaches the person in the other seat (``draw`` with ``event: "offer"``), who accepts (the match
  ends a draw, termination ``agreement``) or declines (both are told ``declined``); an offer stands until it is
  answered or its receiver moves instead (``lapsed``). A bot in the other seat declines at once. Accepting
  without an offer from the other seat, offering twice, or any of it before the start or after the end is
  refused with an ``error`` saying why. ``hello`` says whose offer stands (``draw_offer``: ``mine``, ``theirs``).

A seat is either the creator's (its token is in the create answer) or, with ``open_seat=True`` (the ``open``
spec), open to anyone: it has no token until the first person joins it, and the match manager ends the match
``aborted`` if nobody has taken it within its ``open_seat_seconds`` of the start (it sets ``join_timeout`` to the
same, so that an open seat asked to move waits as long, and also ends ``aborted`` where no manager runs it).

The page talks to the player through ``connect`` / ``handle`` / ``disconnect``; the server route owns the socket.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hexarena.core.contract import MatchEnded, MatchInfo, MoveReply, MoveRequest, PlayerResult, Takeback
from hexarena.core.errors import BotCrashed, BotTimeout, HexarenaError
from hexarena.core.types import Outcome, Seat, Termination, other
from hexarena.players.base import BasePlayer
from hexarena.players.draw_offer import DrawTable, table_for

Send = Callable[[str], Awaitable[None]]


_ALREADY_CONNECTED = "this seat is already connected from another page: one connection per seat (close it first)"


class BrowserPlayer(BasePlayer):
    """A human seat driven by a browser page. ``kind = "human"`` so the match manager gives it a token."""

    kind = "human"

    def __init__(
        self,
        name: str = "human",
        *,
        join_timeout: float = 600.0,
        grace: float = 30.0,
        open_seat: bool = False,
    ) -> None:
        super().__init__()
        self.name = name or "human"
        #: created open to anyone (joined through the lobby) rather than for the match's creator
        self.open_seat = open_seat
        #: the key of the person playing here (``hexarena.core.person``), when their browser sent its identity:
        #: what they are rated under in a rated game, kept as the seat's spec
        self.person: str | None = None
        self.join_timeout = join_timeout
        self.grace = grace
        self._send: Send | None = None
        self._claimed = False
        self._joined = asyncio.Event()
        self._pending: asyncio.Future[MoveReply] | None = None
        self._request: MoveRequest | None = None
        self._asked_at = 0.0
        self._grace_task: asyncio.Task[None] | None = None
        self._end: dict[str, Any] | None = None
        #: the latest position this seat knows (start, every move observed, its own moves): what side it plays
        self._state: Any = None
        #: the seats seen moving in this match: an abort is allowed until both have
        self._movers: set[Seat] = set()
        self.seat = 0
        #: the match's draw offers, shared with the other seat when a person plays it (set at the start)
        self._draws: DrawTable | None = None
        #: set once the match is over and the person was told; the server then closes the socket
        self.done = asyncio.Event()

    # ----- what the lobby sees -----

    @property
    def attached(self) -> bool:
        """True once a person's socket has been bound to the seat (whether or not it is still connected)."""
        return self._claimed

    @property
    def connected(self) -> bool:
        return self._send is not None

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "spec": self.person or "browser"}

    # ----- the socket side -----

    async def attach(self, send: Send) -> bool:
        """A token of this seat used on the HTTTX ``/ws`` route: refuse politely (that route speaks bws
        packets); the seat itself is unaffected and keeps waiting for its page."""
        await send(json.dumps({"type": "nope", "reason": "this seat plays in the web UI: WS /api/play?token=..."}))
        return False

    def receive(self, text: str | bytes) -> None:
        """Frames sent to the ``/ws`` route for this seat are ignored (see ``attach``)."""

    def detach(self) -> None:
        """The ``/ws`` socket closed: nothing to do, it was never this seat's socket."""

    async def connect(self, send: Send) -> bool:
        """Bind (or re-bind, after a reload) the person's socket and bring the page up to date; False, after a
        ``nope``, when another socket holds the seat (one live socket per seat: the second one is refused)."""
        if self._send is not None:
            await send(json.dumps({"type": "nope", "reason": _ALREADY_CONNECTED}))
            return False
        self._claimed = True
        self._send = send
        if self._grace_task is not None:
            self._grace_task.cancel()
            self._grace_task = None
        if hasattr(self, "info"):
            await self._emit(self._hello())
        if self._end is not None:
            await self._emit(self._end)
        elif self._pending is not None and not self._pending.done():
            await self._emit(self._your_turn())
        self._joined.set()
        return True

    def disconnect(self, send: Send) -> None:
        """The socket ``send`` belongs to closed; start the grace period unless another socket replaced it."""
        if self._send is not send:
            return
        self._send = None
        if self.done.is_set() or self._grace_task is not None:
            return
        self._grace_task = asyncio.create_task(self._forfeit_later())

    async def _forfeit_later(self) -> None:
        await asyncio.sleep(self.grace)
        if self._send is None and not self.done.is_set():
            self.fail(BotCrashed(f"the player left and did not come back within {self.grace:g} s"))

    async def handle(self, text: str | bytes) -> None:
        """One frame from the page. Nothing the page sends can cost the person the game: bad input is answered."""
        try:
            msg = json.loads(text)
        except ValueError:
            await self._emit({"type": "error", "reason": f"not JSON: {str(text)[:80]!r}"})
            return
        if not isinstance(msg, dict):
            await self._emit({"type": "error", "reason": "a message is a JSON object with a 'type'"})
            return
        kind = msg.get("type")
        if kind == "ping":
            await self._emit({"type": "pong"})
        elif kind == "move":
            await self._try_move(msg.get("move"))
        elif kind == "probe":
            await self._probe(msg)
        elif kind == "resign":
            await self._resign()
        elif kind == "abort":
            await self._abort()
        elif kind == "takeback":
            await self._ask_takeback()
        elif kind == "draw":
            await self._draw(msg.get("action"))
        else:
            await self._emit({"type": "error", "reason": f"unknown message type {kind!r}"})

    async def _try_move(self, text: Any) -> None:
        pending, request = self._pending, self._request
        if pending is None or pending.done() or request is None:
            await self._emit({"type": "illegal", "move": text, "reason": "it is not your turn"})
            return
        if not isinstance(text, str):
            await self._emit({"type": "illegal", "move": text, "reason": f"a move is text, got {text!r}"})
            return
        game = self.info.game
        try:
            move = game.parse(text)
            game.play(request.state, move)
        except HexarenaError as exc:
            await self._emit({"type": "illegal", "move": text, "reason": exc.reason})
            return
        self._state = game.play(request.state, move)
        self._movers.add(self.seat)
        pending.set_result(MoveReply(move=move))
        await self._emit({"type": "accepted", "move": text})

    async def _resign(self) -> None:
        """Give up now. Goes through ``fail`` (not the pending move) so it works while the opponent thinks too."""
        if self._end is not None or self.done.is_set():
            await self._emit({"type": "error", "reason": "the game is already over"})
            return
        if not hasattr(self, "info"):
            await self._emit({"type": "error", "reason": "the game has not started yet"})
            return
        if self.failure is not None:
            await self._emit({"type": "error", "reason": "the game is already ending"})
            return
        outcome = Outcome(other(self.seat), Termination.RESIGN, f"{self._side()} resigned")
        self.fail(MatchEnded(outcome, culprit=self.seat))

    @property
    def abortable(self) -> bool:
        """Whether an abort would be granted now: the game is on and the two seats have not both moved."""
        return self._end is None and not self.done.is_set() and self.failure is None and len(self._movers) < 2

    async def _abort(self) -> None:
        """Call the game off before it began: through ``fail`` like a resignation (so it works while the other
        seat is empty or thinking), but ``aborted`` with no winner and no culprit."""
        if not hasattr(self, "info"):
            await self._emit({"type": "error", "reason": "the game has not started yet"})
            return
        if not self.abortable:
            reason = (
                "the game is already over"
                if self._end is not None or self.done.is_set()
                else ("both sides have moved: the game can no longer be aborted (resign instead)")
            )
            await self._emit({"type": "error", "reason": reason})
            return
        outcome = Outcome(None, Termination.ABORTED, f"{self._side()} aborted the game before it began")
        self.fail(MatchEnded(outcome))

    def _draw_refusal(self) -> str | None:
        """Why no draw can be offered or answered now (before the start, once over or ending), or None."""
        if not hasattr(self, "info") or self._draws is None:
            return "the game has not started yet"
        if self._end is not None or self.done.is_set():
            return "the game is already over"
        if self.failure is not None:
            return "the game is already ending"
        return None

    async def _draw(self, action: Any) -> None:
        """Offer a draw, or answer the other seat's offer (see the module's docstring)."""
        if action not in ("offer", "accept", "decline"):
            await self._emit(
                {"type": "error", "reason": f"a draw action is 'offer', 'accept' or 'decline', not {action!r}"}
            )
            return
        refusal = self._draw_refusal()
        if refusal is not None:
            await self._emit({"type": "error", "reason": refusal})
            return
        table = self._draws
        assert table is not None
        theirs = table.offer is not None and table.offer != self.seat
        if action == "offer" and not theirs:
            if table.offer == self.seat:
                await self._emit({"type": "error", "reason": "you already offered a draw: wait for the answer"})
                return
            opponent = table.opposite(self.seat)
            if opponent is None:  # a bot: it plays on
                await self._emit({"type": "draw", "event": "declined", "by": "opponent", "reason": "bots play on"})
                return
            table.offer = self.seat
            await self._emit({"type": "draw", "event": "offered"})
            await opponent.draw_news({"type": "draw", "event": "offer", "by": self._side()})
            return
        if not theirs:
            await self._emit({"type": "error", "reason": "there is no draw offer from your opponent to answer"})
            return
        table.offer = None
        opponent = table.opposite(self.seat)
        if action == "decline":
            await self._emit({"type": "draw", "event": "declined", "by": "you"})
            if opponent is not None:
                await opponent.draw_news({"type": "draw", "event": "declined", "by": "opponent"})
            return
        # accepted (or both offered): a draw both agreed to, at once, whoever's turn it is
        self.fail(MatchEnded(Outcome(None, Termination.AGREEMENT, "draw by agreement")))

    async def draw_news(self, message: dict[str, Any]) -> None:
        """The other seat offered, or answered this seat's offer: tell the page."""
        await self._emit(message)

    async def _ask_takeback(self) -> None:
        """Take back this seat's last move and the bot's reply: on this seat's turn, in a match that allows it
        (``MatchInfo.takebacks``: a casual game against a built-in bot). The referee grants it at once and asks
        again in the earlier position (``taken_back`` tells the page); anything else is refused with why."""
        reason = self._takeback_refusal()
        if reason is not None:
            await self._emit({"type": "takeback", "granted": False, "reason": reason})
            return
        assert self._pending is not None
        self._pending.set_exception(Takeback())

    def _takeback_refusal(self) -> str | None:
        """Why a takeback asked for now would be refused, or None when it would be granted. One rule for the
        answer to a request and for ``your_turn``'s ``takeback`` flag, so the page's button is enabled exactly
        when pressing it works."""
        pending, request = self._pending, self._request
        if not hasattr(self, "info") or not self.info.takebacks:
            return "takebacks are only for casual games against a built-in bot (not rated or tournament games)"
        if pending is None or pending.done() or request is None:
            return "ask for a takeback on your turn, once the bot has replied"
        if not any(seat == self.seat for seat, _ in request.history):
            return "you have no move to take back yet"
        return None

    async def taken_back(self, ply: int, state: Any) -> None:
        """The referee took the moves from ``ply`` on back (a takeback this seat asked for)."""
        self._state = state
        await self._emit({"type": "takeback", "granted": True, "ply": ply})

    async def _probe(self, msg: dict[str, Any]) -> None:
        """A partial move checked on its own (HTTTX: the first stone), so a bad first click is explained."""
        request, what = self._request, msg.get("what")
        game = self.info.game if hasattr(self, "info") else None
        probe = None if game is None else game.probes().get(str(what))
        if probe is None:
            await self._emit({"type": "error", "reason": f"no probe {what!r} for {game.name if game else 'this game'}"})
            return
        if request is None or self._pending is None or self._pending.done():
            await self._emit({"type": "illegal", "probe": what, "reason": "it is not your turn"})
            return
        try:
            result = probe(request.state, *list(msg.get("args") or []))
        except HexarenaError as exc:
            await self._emit({"type": "illegal", "probe": what, "reason": exc.reason})
            return
        except TypeError:
            await self._emit({"type": "error", "reason": f"bad arguments for probe {what!r}"})
            return
        await self._emit({"type": "probe", "what": what, **result})

    # ----- the referee side -----

    async def start(self, info: MatchInfo) -> None:
        """Never waits for the person: the referee's ``start_timeout`` (30 s) would abort a match whose seat is
        simply waiting to be taken. The wait happens in ``move`` (``join_timeout``) and, for an open seat, in the
        match manager's expiry, both of which end the match on their own terms."""
        self.info = info
        self.seat = info.seat
        self._state = info.initial_state
        self._draws = table_for(info.match_id)
        self._draws.sit(self.seat, self)
        if self._send is not None:
            await self._emit(self._hello())

    async def observe(self, seat: Seat, move: Any, state: Any) -> None:
        """Keeps the position, so a resignation while the opponent thinks names the side this seat plays now,
        and who has moved (for ``abortable``)."""
        self._state = state
        self._movers.add(seat)
        draws = self._draws
        if draws is not None and draws.offer is not None and draws.offer != seat and seat != self.seat:
            # the receiver of this seat's offer moved instead of answering: the offer lapses (lichess)
            draws.offer = None
            await self._emit({"type": "draw", "event": "lapsed"})

    def _side(self, state: Any = None) -> str:
        """The side this seat plays (the game knows: after a Hex swap the second seat plays black)."""
        game = self.info.game
        state = self._state if state is None else state
        return str(game.seat_names[self.seat] if state is None else game.side_name(state, self.seat))

    async def seated(self) -> None:
        """Return once a person's page has taken the seat: the referee asks for no move (and runs no clock)
        before every seat is taken, so nobody's time runs while the invited friend has not arrived. Bounded by
        ``join_timeout``: a seat offered to anyone that nobody took ends the match ``aborted`` (no game was
        played, so no result); the creator's own seat left empty is a timeout of that seat."""
        if self._joined.is_set():
            return
        try:
            await asyncio.wait_for(self._joined.wait(), self.join_timeout)
        except TimeoutError:
            if self.open_seat:
                side = self.info.game.seat_names[self.seat]
                reason = f"nobody joined seat {side} within {self.join_timeout:g} s"
                raise MatchEnded(Outcome(None, Termination.ABORTED, reason)) from None
            raise BotTimeout(f"nobody joined within {self.join_timeout:g} s") from None

    async def move(self, request: MoveRequest) -> MoveReply:
        self._state = request.state
        await self.seated()  # already taken when a referee runs the match; kept for callers that ask directly
        self._request = request
        self._asked_at = time.monotonic()
        self._pending = asyncio.get_running_loop().create_future()
        try:
            await self._emit(self._your_turn())
            return await self._pending
        finally:
            self._pending = None
            self._request = None

    async def finish(self, result: PlayerResult) -> None:
        outcome = result.outcome
        game = self.info.game if hasattr(self, "info") else None
        self._end = {
            "type": "end",
            "winner": None if outcome.winner is None or game is None else game.seat_names[outcome.winner],
            "winner_side": None
            if outcome.winner is None or game is None
            else game.side_name(result.final_state, outcome.winner),
            "winner_seat": outcome.winner,
            "you": "draw" if outcome.winner is None else ("won" if outcome.winner == self.seat else "lost"),
            "termination": str(outcome.termination),
            "reason": outcome.reason,
        }
        if self._grace_task is not None:
            self._grace_task.cancel()
            self._grace_task = None
        try:
            await self._emit(self._end)
        finally:
            self.done.set()

    # ----- messages -----

    def _hello(self) -> dict[str, Any]:
        info = self.info
        return {
            "type": "hello",
            "match_id": info.match_id,
            "game": info.game.name,
            "seat": info.seat,
            "side": self._side(),
            "takebacks": info.takebacks,
            "abortable": self.abortable,
            "draw_offer": self._offer_view(),
            "opponent": info.opponent,
            "params": info.params,
            "grace": self.grace,
        }

    def _offer_view(self) -> str | None:
        """Whose draw offer stands, as this seat sees it (``mine``, ``theirs``), for a page that reconnects."""
        offer = None if self._draws is None else self._draws.offer
        return None if offer is None else ("mine" if offer == self.seat else "theirs")

    def _your_turn(self) -> dict[str, Any]:
        request = self._request
        assert request is not None
        game = self.info.game
        spent = time.monotonic() - self._asked_at
        return {
            "type": "your_turn",
            "seat": self.seat,
            "side": self._side(request.state),
            "ply": game.ply(request.state),
            "state": game.to_json(request.state),
            "legal": game.legal_view(request.state),
            "takeback": self._takeback_refusal() is None,
            "abortable": self.abortable,
            "time_limit": None if request.time_limit is None else max(0.0, request.time_limit - spent),
            "time_left": None if request.time_left is None else max(0.0, request.time_left - spent),
        }

    async def _emit(self, message: dict[str, Any]) -> None:
        send = self._send
        if send is None:
            return
        try:
            await send(json.dumps(message))
        except Exception:  # the socket died under us: treat it as a disconnect (grace applies)
            self.disconnect(send)


__all__ = ["BrowserPlayer"]
