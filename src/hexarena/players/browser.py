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
- accepts ``{"type": "takeback"}`` in a casual game (never rated or tournament), whoever's turn it is, as a
  request to the referee (``MatchInfo.offers``, ``referee.offers``): a built-in bot grants it at once, a person
  in the other seat is asked (``{"type": "takeback", "event": "offer", "by": side}``) and answers with
  ``{"type": "takeback", "action": "accept" | "decline"}``; the asker is told ``event: "offered"`` meanwhile, and
  ``declined`` or ``lapsed`` (a move was played instead) with ``granted: false``. Granted, the referee undoes
  the asker's last move and every move after it (position and clocks as before them): the asker gets
  ``{"type": "takeback", "granted": true, "ply": N}`` then a new ``your_turn``, the other person
  ``{"type": "takeback", "event": "taken_back", "ply": N}`` (their turn, if it was, is withdrawn). A refused
  request gets ``{"type": "takeback", "granted": false, "reason": ...}``. ``hello`` says whether this match
  allows takebacks at all (``takebacks``) and whose request stands (``takeback_offer``); each ``your_turn`` and
  ``accepted`` whether one would be granted now (``takeback``), so the page enables its button only then;
- accepts ``{"type": "resign"}`` at any moment of the match, on its turn or not: it fails the seat with the
  contract's ``MatchEnded`` (termination ``resign``), which the referee records as given even while the opponent
  is thinking, so a person never has to wait for a bot to move in order to give up. The page then gets ``end``;
- accepts ``{"type": "abort"}`` while the two seats have not both moved (lichess's rule: either side may call the
  game off before it really began, e.g. the invited friend never came): the match ends ``aborted``, which is no
  result (no winner, no rating change), where a resignation would record a loss against whoever sat opposite.
  Later it is refused with an ``error`` (resign instead). ``hello`` and ``your_turn`` say whether it is allowed
  now (``abortable``), so the page shows its Abort button only then;
- accepts ``{"type": "draw", "action": "offer" | "accept" | "decline"}`` while the game is on (lichess's draw
  offer), through the referee's desk as a takeback is: an offer reaches the person in the other seat (``draw``
  with ``event: "offer"``), who accepts (the match ends a draw, termination ``agreement``) or declines (both are
  told ``declined``); an offer stands until it is answered or its receiver moves instead (``lapsed``). A bot in
  the other seat declines at once. Accepting without an offer from the other seat, offering twice, too many
  offers, or any of it before the start or after the end is refused with an ``error`` saying why. ``hello`` says
  whose offer stands (``draw_offer``: ``mine``, ``theirs``).

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
from collections.abc import Awaitable, Callable, Mapping, Sequence

from hexarena.core.contract import M, MatchEnded, MatchInfo, MoveReply, MoveRequest, OfferNews, Offers, PlayerResult, S
from hexarena.core.errors import BotCrashed, BotTimeout, HexarenaError
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Seat, Termination, other
from hexarena.players.base import BasePlayer

Send = Callable[[str], Awaitable[None]]


_ALREADY_CONNECTED = "this seat is already connected from another page: one connection per seat (close it first)"


class BrowserPlayer(BasePlayer[S, M]):
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
        self._pending: asyncio.Future[MoveReply[M]] | None = None
        self._request: MoveRequest[S, M] | None = None
        self._asked_at = 0.0
        self._grace_task: asyncio.Task[None] | None = None
        self._end: JsonObject | None = None
        #: the latest position this seat knows (start, every move observed, its own moves): what side it plays
        self._state: S | None = None
        #: the seats seen moving in this match: an abort is allowed until both have
        self._movers: set[Seat] = set()
        #: the seat that played each move on the board, by ply: a takeback cuts it and ``_movers`` is rebuilt
        #: from what is left, so a game taken back to before both sides moved may be aborted again
        self._seat_of_ply: list[Seat] = []
        self.seat = 0
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

    def describe(self) -> JsonObject:
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
            await self._takeback(msg.get("action", "offer"))
        elif kind == "draw":
            await self._draw(msg.get("action"))
        else:
            await self._emit({"type": "error", "reason": f"unknown message type {kind!r}"})

    async def _try_move(self, text: JsonValue) -> None:
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
        # a takeback of the move just played may be asked for while the other seat thinks (the page's button)
        await self._emit({"type": "accepted", "move": text, "takeback": self.info.takebacks})

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

    def _desk(self) -> Offers | None:
        """The referee's desk for offers, once the match has started (None before)."""
        return self.info.offers if hasattr(self, "info") else None

    def _can_ask(self, kind: str) -> bool:
        """Whether the desk would take a request of ``kind`` from this seat now (the page enables its button)."""
        desk = self._desk()
        return desk is not None and desk.refusal(self.seat, kind) is None

    async def _draw(self, action: JsonValue) -> None:
        """Offer a draw, or answer the other seat's offer, through the referee's desk (see the module's
        docstring); a refusal is an ``error`` with its reason."""
        if action not in ("offer", "accept", "decline"):
            await self._emit(
                {"type": "error", "reason": f"a draw action is 'offer', 'accept' or 'decline', not {action!r}"}
            )
            return
        desk = self._desk()
        if desk is None:
            refusal: str | None = "the game has not started yet"
        elif action == "offer":
            refusal = await desk.ask(self.seat, "draw")
        else:
            refusal = await desk.answer(self.seat, "draw", action == "accept")
        if refusal is not None:
            await self._emit({"type": "error", "reason": refusal})

    async def _takeback(self, action: JsonValue) -> None:
        """Ask for a takeback, or answer the other person's request, through the referee's desk; a refusal is a
        ``takeback`` with ``granted: false`` and its reason."""
        if action not in ("offer", "accept", "decline"):
            reason = f"a takeback action is 'offer', 'accept' or 'decline', not {action!r}"
            await self._emit({"type": "error", "reason": reason})
            return
        desk = self._desk()
        if desk is None:
            refusal: str | None = "the game has not started yet"
        elif action == "offer":
            refusal = await desk.ask(self.seat, "takeback")
        else:
            refusal = await desk.answer(self.seat, "takeback", action == "accept")
        if refusal is not None:
            await self._emit({"type": "takeback", "granted": False, "reason": refusal})

    async def offered(self, kind: str, by: str) -> bool | None:
        """The other seat offers a draw or asks for a takeback: the person answers on the page, later."""
        await self._emit({"type": kind, "event": "offer", "by": by})
        return None

    async def offer_news(self, news: OfferNews) -> None:
        """What became of an offer: told to the page in the shape it has had since draw offers came."""
        message: JsonObject = {"type": news.kind, "event": news.event}
        if news.by:
            message["by"] = news.by
        if news.reason:
            message["reason"] = news.reason
        if news.kind == "takeback":
            message["mine"] = news.mine
            if news.mine and news.event in ("declined", "lapsed"):
                message["granted"] = False
        await self._emit(message)

    async def taken_back(self, ply: int, state: S) -> None:
        """The referee took the moves from ``ply`` on back. The asker is the seat to move again: it is told
        ``granted``; the other seat's page is told its opponent's move went back (and its turn, if it was, with
        it). Who has moved is what is left on the board (``abortable``): the asker's next ``your_turn`` says so, the
        other page is told here."""
        self._state = state
        del self._seat_of_ply[ply:]
        self._movers = set(self._seat_of_ply)
        if self.info.game.to_move(state) == self.seat:
            await self._emit({"type": "takeback", "granted": True, "ply": ply})
        else:
            taken: JsonObject = {"type": "takeback", "event": "taken_back", "ply": ply, "mine": False}
            await self._emit({**taken, "takeback": self._can_ask("takeback"), "abortable": self.abortable})

    async def _probe(self, msg: JsonObject) -> None:
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
        args = msg.get("args") or []
        try:
            if not isinstance(args, Sequence | Mapping):  # a number: no list of arguments
                raise TypeError(args)
            result = probe(request.state, *list(args))
        except HexarenaError as exc:
            await self._emit({"type": "illegal", "probe": what, "reason": exc.reason})
            return
        except TypeError:
            await self._emit({"type": "error", "reason": f"bad arguments for probe {what!r}"})
            return
        await self._emit({"type": "probe", "what": what, **result})

    # ----- the referee side -----

    async def start(self, info: MatchInfo[S, M]) -> None:
        """Never waits for the person: the referee's ``start_timeout`` (30 s) would abort a match whose seat is
        simply waiting to be taken. The wait happens in ``move`` (``join_timeout``) and, for an open seat, in the
        match manager's expiry, both of which end the match on their own terms."""
        self.info = info
        self.seat = info.seat
        self._state = info.initial_state
        if self._send is not None:
            await self._emit(self._hello())

    async def observe(self, seat: Seat, move: M, state: S) -> None:
        """Keeps the position, so a resignation while the opponent thinks names the side this seat plays now,
        and who has moved (for ``abortable``)."""
        self._state = state
        self._movers.add(seat)
        self._seat_of_ply.append(seat)

    def _side(self, state: S | None = None) -> str:
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

    async def move(self, request: MoveRequest[S, M]) -> MoveReply[M]:
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

    async def finish(self, result: PlayerResult[S]) -> None:
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

    def _hello(self) -> JsonObject:
        info = self.info
        return {
            "type": "hello",
            "match_id": info.match_id,
            "game": info.game.name,
            "seat": info.seat,
            "side": self._side(),
            "takebacks": info.takebacks,
            "abortable": self.abortable,
            "draw_offer": self._offer_view("draw"),
            "takeback_offer": self._offer_view("takeback"),
            "opponent": info.opponent,
            "params": info.params,
            "grace": self.grace,
        }

    def _offer_view(self, kind: str) -> str | None:
        """Whose offer of ``kind`` stands, as this seat sees it (``mine``, ``theirs``), for a page that
        reconnects."""
        desk = self._desk()
        return None if desk is None else desk.standing(self.seat).get(kind)

    def _your_turn(self) -> JsonObject:
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
            "takeback": self._can_ask("takeback"),
            "abortable": self.abortable,
            "time_limit": None if request.time_limit is None else max(0.0, request.time_limit - spent),
            "time_left": None if request.time_left is None else max(0.0, request.time_left - spent),
        }

    async def _emit(self, message: JsonObject) -> None:
        send = self._send
        if send is None:
            return
        try:
            await send(json.dumps(message))
        except Exception:  # the socket died under us: treat it as a disconnect (grace applies)
            self.disconnect(send)


__all__ = ["BrowserPlayer"]
