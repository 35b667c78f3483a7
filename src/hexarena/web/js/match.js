// Watch and Play: one page. The spectator socket (/spectate/ID) draws the board, the moves, the clocks, the
// evaluation bar and the considered moves; each seat token this browser holds opens a seat socket
// (/api/play?token=) that turns clicks into moves when it is that seat's turn. Each seat the person holds gets
// a Resign button, confirmed inline (a modal confirm() would block the page's sockets and clocks), usable at any
// moment, on the person's turn or while the bot thinks. Until both sides have moved there is an Abort button
// too (lichess's rule): it calls the game off with no result, e.g. when the invited friend never came.
// Offer draw and Takeback are requests to the referee: a bot answers at once, a person on their page (Accept or
// Decline), whoever's turn it is. On a board whose turn is one move (the board module has premove()), a click
// while the opponent thinks queues a premove, played the moment the turn comes if still legal (the server checks
// it as any move), dropped with a word if not; a second click on it or Escape cancels it.

import { getJSON, postJSON, h, wsURL, fmtClock, playerName, ratingText, download, copyButton, SCROLL_BOX } from "./api.js";
import { seatTokens, saveToken } from "./tokens.js";
import { makeBoard } from "./boards/index.js";
import { invitePanel } from "./invite.js";
import { rulesLink } from "./rules.js";
import { moveList as makeMoveList } from "./movelist.js";

const PLAIN_ENDINGS = { normal: "by the rules", time: "time", illegal_move: "illegal move", protocol: "the bot broke its protocol",
  disconnect: "the other side left", resign: "resigned", aborted: "aborted", agreement: "draw by agreement" };

const SOUND_KEY = "hexarena.sound";
const PACE_KEY = "hexarena.liveSpeed";
function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

export async function matchPage(app, { args, name }) {
  const id = args[0];
  app.dataset.turns = "0";
  const info = await getJSON(`/api/ui/matches/${encodeURIComponent(id)}`);
  // over already (a game between instant bots can end before the page opens): a spectator gets the replay
  // playing from the first move at the watch speed; a player the final position
  if (!info.live) { location.replace(name === "watch" ? `#/replay/${id}?ply=0&play=1` : `#/replay/${id}`); return null; }
  const games = await getJSON("/api/games");
  const meta = games.find((g) => g.name === info.game) || { title: info.game, seats: info.seats };
  const seats = info.seats;
  const board = await makeBoard(info.game, info.params);
  const msg = h("p.msg#msg", { role: "status", "aria-live": "polite" });
  // what a screen reader says as the game goes on: every move (the opponent's too) and the result
  const announce = h("p.sr-only#announce", { "aria-live": "polite" });
  // focusable by script: a game's end takes the focus here when the control that had it went away or was disabled
  const result = h("div.result#result", { hidden: true, tabindex: "-1" });
  const resignBox = h("div.resign#resign", { hidden: true });
  // a timer per seat, named for the seat (a screen reader says "black's clock 4:52", not a bare time)
  const clocks = seats.map((seat) => h("span.clock", { role: "timer", "aria-label": `${seat}'s clock` }, "—"));
  const playerEls = seats.map((seat, i) => h(`div.player#player${i}`,
    h("span", h(`span.dot.p${i}`), h("strong", seat), " ", h("span.pname", playerName(info.players[i])), h("span.prating.muted", ratingText(info.players[i])), h("span.you"), " ", h("span.colour")),
    clocks[i]));
  // rated or casual, said where a person looks for who plays (the server decides: ``rating_mode``)
  const modeNote = h("p.muted.rating-mode#rated-mode", info.rating_mode === "rated"
    ? "Rated game: the result moves the ratings; no takebacks."
    : "Casual game: no rating moves; takebacks are allowed.");
  const evalBar = h("div.evalbar", { title: "evaluation: left favours the first seat" }, h("div", { style: "width:50%" }));
  const evalText = h("div.muted#evaltext", { style: "font-size:.85rem" }, "no evaluation reported");
  const considered = h("div.considered", { ...SCROLL_BOX, "aria-label": "considered moves" });
  // only a bot reports an evaluation (a built-in one or any other program): between two people the panel would
  // say "no evaluation reported" for the whole game, so it is left out (a seat not known yet counts as a bot)
  const anyBot = seats.some((_, i) => (info.players[i] || {}).kind !== "human");
  const evalPanel = h("div.panel#eval-panel", { hidden: !anyBot },
    h("h2", "Evaluation"), evalBar, evalText, h("h2.sub", "Considered moves"), considered);
  // the moves paired by turn as lichess shows them ("1. b2 a1"), as the replay lists them
  // a click on a move shows that position (lichess): the game goes on meanwhile, "Back to live" returns to it
  const moves = makeMoveList(board, { onPick: (p) => viewPly(p) });
  const moveList = moves.el;
  const liveBtn = h("button#back-to-live", { type: "button", hidden: true }, "Back to live");
  // the game so far in its notation (HTTTX Notation, Hive's UHP GameString...), fetched when asked for
  const notation = h("textarea.notation#live-notation", { readonly: true, "aria-label": "notation of the game so far", hidden: true });
  const exportBtn = h("button.secondary#export", { type: "button" }, "Notation");
  // the analysis board at the position shown (the one looked back at, else the live one), in the same tab
  const analyseA = h("a.button.secondary#analyse", { href: "#/analysis",
    onclick: () => { analyseA.href = `#/analysis/${encodeURIComponent(info.game)}?from=${encodeURIComponent(id)}&ply=${browsing ?? moves.length}`; } }, "Analyse");
  const copyBtn = copyButton(notation);
  copyBtn.hidden = true;
  const dlBtn = h("button.secondary", { type: "button", hidden: true }, "Download");
  exportBtn.addEventListener("click", async () => {
    try { notation.value = (await getJSON(`/api/ui/replay/${encodeURIComponent(id)}`)).export || ""; }
    catch (e) { notation.value = e.message; }
    notation.hidden = copyBtn.hidden = dlBtn.hidden = false;
  });
  dlBtn.addEventListener("click", () => download(`${info.game}-${id.slice(0, 8)}.txt`, notation.value));
  const startList = (board.startMoves?.() || []).map((sm) =>
    h(`p.auto.seat${sm.seat}`, { title: sm.note }, `${sm.label} ${sm.move}`, h("span.muted", ` (${sm.note})`)));
  const replayLink = h("a", { href: `#/replay/${id}` }, "replay");
  const boardBox = h("div.boardbox", board.el);
  // flip the board (lichess): the view turns half a turn, the pieces' letters stay upright; clicks and the arrow
  // keys follow what is on screen. Remembered in this browser.
  const FLIP_KEY = "hexarena.flipped";
  const flipBtn = h("button.secondary#flip", { type: "button", "aria-pressed": "false", title: "turn the board round" }, "Flip board");
  function setFlip(on) {
    boardBox.classList.toggle("flipped", on);
    flipBtn.setAttribute("aria-pressed", String(on));
  }
  try { setFlip(localStorage.getItem(FLIP_KEY) === "on"); } catch { /* storage disabled */ }
  flipBtn.addEventListener("click", () => {
    const on = !boardBox.classList.contains("flipped");
    setFlip(on);
    try { localStorage.setItem(FLIP_KEY, on ? "on" : "off"); } catch { /* this page only */ }
  });
  // a spectator's watch speed ("live", or a move every so often); the player of a seat always sees it live
  const holdsSeat = Object.keys(seatTokens(id)).length > 0;
  const paceSel = h("select#pace", ["0", "0.25", "0.5", "1", "2"].map((v) =>
    h("option", { value: v }, v === "0" ? "live" : `a move every ${v} s`)));
  try { paceSel.value = localStorage.getItem(PACE_KEY) || "0"; } catch { paceSel.value = "0"; }
  if (!paceSel.value || holdsSeat) paceSel.value = "0";
  let pace = parseFloat(paceSel.value) || 0;
  const behind = h("span.muted#behind");
  const catchUpBtn = h("button.secondary#catch-up", { type: "button", hidden: true }, "Catch up");
  const paceBox = holdsSeat ? null
    : h("div.controls.pace", h("label", { for: "pace" }, "Watch speed"), paceSel, behind, catchUpBtn);

  // ----- sound on moves: off until the person turns it on, remembered in this browser -----
  const soundBtn = h("button.secondary#sound", { type: "button", "aria-pressed": String(soundOn()) }, "Sound");
  let audio = null;
  soundBtn.addEventListener("click", () => {
    const on = !soundOn();
    try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* storage disabled: this page only */ }
    soundBtn.setAttribute("aria-pressed", String(on));
    if (on) { audio ||= new AudioContext(); audio.resume(); }  // made in a click: browsers let it play
  });
  const wake = () => { if (audio) audio.resume(); };
  document.addEventListener("pointerdown", wake);
  function beep(freq, seconds = 0.08) {
    if (!soundOn()) return;
    try {
      audio ||= new AudioContext();
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + seconds);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + seconds);
      document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
    } catch { /* no audio device: silence */ }
  }
  app.append(
    h("h1", `${meta.title} `, h("span.badge#mode", name === "play" ? "playing" : "watching"), " ", h("small.muted", id.slice(0, 8))),
    h("p", rulesLink(info.game, meta.title)),
    result,  // on top: the first thing a person looks for when a game ends, visible without scrolling
    // grid areas: beside the board on a wide screen; on a phone the player cards (and clocks) sit above it
    h("div.match.live",
      h("div.main", boardBox, liveBtn, msg, resignBox, paceBox, announce),
      h("div.players", playerEls, modeNote),
      h("div.side",
        evalPanel,
        h("div.panel", h("h2", "Moves"), replayLink, h("div.moves", { ...SCROLL_BOX, "aria-label": "moves" }, startList, moveList),
          h("div.controls", exportBtn, copyBtn, dlBtn, soundBtn, flipBtn, analyseA), notation))));

  const clock = info.clock || { kind: "none" };
  let remaining = [null, null];
  let toMoveSeatNow = null;  // tick() reads it as toMoveSeat
  let since = performance.now();
  let over = false;
  let mySeats = new Set();
  // an open seat nobody took yet: the page waits (turns held, an invite link shown) until somebody joins
  let waiting = !!(info.open_seats || []).length;
  const invite = waiting ? invitePanel(id, info.open_seats[0]) : null;
  if (invite) boardBox.before(invite);
  function hideInvite() {  // the game started (or ended): nobody is waited for any more
    if (waiting) tell("Your opponent joined: the game starts.");
    waiting = false;
    if (invite) invite.hidden = true;
  }
  function stopWaiting() {
    hideInvite();
    clearInterval(seatPoll);
  }
  // until the seat is taken; then once more for the joiner's name (the turn may have come before the poll did)
  const seatPoll = waiting ? setInterval(async () => {
    let now;
    try { now = await getJSON(`/api/ui/matches/${encodeURIComponent(id)}`); } catch { return; }
    if ((now.open_seats || []).length && now.live) return;
    info.players = now.players;
    now.players.forEach((p, i) => {
      playerEls[i].querySelector(".pname").textContent = playerName(p);
      playerEls[i].querySelector(".prating").textContent = ratingText(p);
    });
    if (now.live) hideInvite();
    clearInterval(seatPoll);
  }, 1000) : null;

  function say(text, kind = "info") { msg.className = `msg ${kind}`; msg.textContent = text; }
  // nobody in the other seat yet: the creator is not told "Your move" to an empty room, and no clock runs
  if (waiting) say("Waiting for an opponent to join: the game starts when they do.", "info");

  // ----- resigning: one control per seat this browser plays -----
  const seatSockets = new Map();  // seat index -> its current socket (a reconnect replaces it)
  function addResign(seat, takebacks) {
    if (over || resignBox.querySelector(`.resign-ask[data-seat="${seat}"]`)) return;
    const ask = h("button.secondary.resign-ask", { type: "button", dataset: { seat: String(seat) } }, "Resign");
    const yes = h("button.danger.resign-yes", { type: "button" }, "Yes");
    const no = h("button.secondary.resign-no", { type: "button" }, "No");
    const confirm = h("span.resign-confirm", { hidden: true, role: "group", "aria-label": "confirm resignation" },
      h("span", "Really resign?"), yes, no);
    ask.addEventListener("click", () => { ask.hidden = true; confirm.hidden = false; no.focus(); });
    no.addEventListener("click", () => { confirm.hidden = true; ask.hidden = false; ask.focus(); });
    yes.addEventListener("click", () => {
      const ws = seatSockets.get(seat);
      if (!ws || ws.readyState !== WebSocket.OPEN) { say("Not connected to the game: try again in a moment.", "illegal"); return; }
      yes.disabled = no.disabled = true;
      ws.send(JSON.stringify({ type: "resign" }));
      say("Resigning…", "info");
    });
    resignBox.append(h("span.resign-seat", ask, confirm));
    if (!resignBox.querySelector("#abort")) {
      // no confirmation: an abort costs nobody anything (no result, no rating), unlike a resignation
      const abort = h("button.secondary#abort", { type: "button", hidden: true,
        title: "call the game off before it began: no result for anyone" }, "Abort");
      abort.addEventListener("click", () => {
        const ws = seatSockets.get(seat);
        if (!ws || ws.readyState !== WebSocket.OPEN) { say("Not connected to the game: try again in a moment.", "illegal"); return; }
        abort.disabled = true;
        ws.send(JSON.stringify({ type: "abort" }));
        say("Aborting…", "info");
      });
      resignBox.append(abort);
    }
    // a takeback in a casual game (the server says so in its hello: never in a rated or tournament game): a
    // built-in bot grants it at once, a person is asked. The button starts disabled: each of the person's turns
    // says whether there is a move of theirs to take back (not on the first turn, nor when the bot opened and they
    // have not replied); against a person it may be asked while they think too, against a bot it is disabled
    // while the bot thinks; and while a request waits for its answer, and after the game.
    // a draw offer (lichess): to a person, who accepts or declines on their page; a bot declines at once
    if (!resignBox.querySelector("#draw-offer")) {
      const offer = h("button.secondary#draw-offer", { type: "button", title: "offer your opponent a draw" }, "Offer draw");
      offer.addEventListener("click", () => {
        if (!sendOffer(seat, "draw", "offer")) return;
        offer.disabled = true;  // once: the answer (or a move instead of one) enables it again
      });
      resignBox.append(offer);
    }
    if (takebacks && !resignBox.querySelector("#takeback")) {
      const back = h("button.secondary#takeback", { type: "button", disabled: true, title: "ask to take back your last move and the replies to it" }, "Takeback");
      back.addEventListener("click", () => {
        if (!sendOffer(seat, "takeback", "offer")) return;
        back.disabled = true;  // once: the answer (a new turn, or a refusal with its reason) decides what next
      });
      resignBox.append(back);
    }
    resignBox.hidden = false;
    if (mySeats.size > 1) resignBox.querySelectorAll(".resign-ask").forEach((b) => { b.textContent = `Resign as ${seats[Number(b.dataset.seat)]}`; });
  }
  // a person's first game of this game (a seat of theirs said hello: never a spectator's page): how to make a
  // move, under the board until they press "Got it", remembered in this browser. It takes no focus: it is
  // reached by Tab after the board, and "Got it" hands the focus back to the board.
  const hintKey = `hexarena.hinted.${info.game}`;
  let hintBox = null;
  function showHint() {
    if (hintBox || !board.hint) return;
    try { if (localStorage.getItem(hintKey)) return; } catch { /* storage disabled: shown on each game */ }
    const gotIt = h("button.secondary#hint-ok", { type: "button" }, "Got it");
    hintBox = h("div.panel.first-hint#first-hint", { role: "note", "aria-label": "how to make a move" },
      h("p", h("strong", "How to play: "), board.hint), h("div.controls", gotIt));
    gotIt.addEventListener("click", () => {
      try { localStorage.setItem(hintKey, "1"); } catch { /* this page only */ }
      const back = boardBox.querySelector("[tabindex='0'], button:not([disabled]), input:not([disabled])");
      hintBox.remove();
      (back || msg).focus?.();
    });
    boardBox.after(hintBox);
  }
  // the Abort button follows the server's word (hello, each turn) and the moves seen: gone once both sides moved
  const movedSeats = new Set();
  let serverAbortable = false;
  function showAbort(flag) {
    if (flag !== undefined) serverAbortable = flag;
    const abort = resignBox.querySelector("#abort");
    if (!abort) return;
    const ok = !over && serverAbortable && movedSeats.size < 2;
    if (!ok && abort === document.activeElement) resignBox.querySelector(".resign-ask")?.focus();
    abort.hidden = !ok;
    abort.disabled = !ok;
  }
  function closeResign() {  // the game is over: nothing left to resign (nor a draw or a takeback to answer)
    hideDrawBox();
    hideAskBox(takebackBox);
    cancelPremove(null);
    resignBox.querySelectorAll(".resign-confirm").forEach((c) => { c.hidden = true; });
    resignBox.querySelectorAll(".resign-ask").forEach((b) => { b.hidden = false; });
    resignBox.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    showAbort(false);
  }
  // ----- draw offers and takeback requests: the seat socket carries them to the referee; the other person's
  // answer comes back on it -----
  const drawBox = h("div.panel.draw-offer#draw-box", { hidden: true, role: "group", "aria-label": "draw offer" });
  const takebackBox = h("div.panel.draw-offer#takeback-box", { hidden: true, role: "group", "aria-label": "takeback request" });
  resignBox.after(drawBox, takebackBox);
  function sendOffer(seat, type, action) {
    const ws = seatSockets.get(seat);
    if (!ws || ws.readyState !== WebSocket.OPEN) { say("Not connected to the game: try again in a moment.", "illegal"); return false; }
    ws.send(JSON.stringify({ type, action }));
    return true;
  }
  function drawOfferReady(yes) {
    const btn = resignBox.querySelector("#draw-offer");
    if (btn) btn.disabled = over || !yes;
  }
  // the other person's request, with Accept and Decline (ids `${type}-accept`, `${type}-decline`); the focus goes
  // to Accept only when it was nowhere in particular, so a person typing or playing is not interrupted
  function showAskBox(box, seat, type, text) {
    const yes = h(`button#${type}-accept`, { type: "button" }, "Accept");
    const no = h(`button.secondary#${type}-decline`, { type: "button" }, "Decline");
    const answer = (action) => () => { if (sendOffer(seat, type, action)) { yes.disabled = no.disabled = true; } };
    yes.addEventListener("click", answer("accept"));
    no.addEventListener("click", answer("decline"));
    box.replaceChildren(h("strong", text), " ", h("span.controls", yes, no));
    box.hidden = false;
    tell(`${text}.`);
  }
  function hideAskBox(box, back) {
    const had = box.contains(document.activeElement);
    box.hidden = true;
    box.replaceChildren();
    if (had) [back, resignBox.querySelector(".resign-ask")].find((b) => b && !b.disabled)?.focus();
  }
  function hideDrawBox() { hideAskBox(drawBox, resignBox.querySelector("#draw-offer")); }
  const capital = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  function showDraw(seat, m) {
    if (m.event === "offer") {
      showAskBox(drawBox, seat, "draw", `${capital(m.by)} offers a draw`);
    } else if (m.event === "offered") {
      say("Draw offered: waiting for the answer.", "info");
    } else if (m.event === "declined") {
      hideDrawBox();
      drawOfferReady(true);
      say(m.by === "you" ? "You declined the draw." : `Your draw offer was declined${m.reason ? `: ${m.reason}` : ""}.`, "info");
      tell(m.by === "you" ? "Draw declined." : "Your draw offer was declined.");
    } else if (m.event === "lapsed") {
      drawOfferReady(true);
      say("Your draw offer lapsed: your opponent moved instead.", "info");
    }
  }
  function canTakeBack(yes) {  // the Takeback button (if this game has one) follows the server's word
    const back = resignBox.querySelector("#takeback");
    if (back) back.disabled = over || !yes;
  }
  // a takeback: asked for by this page (granted, declined, lapsed) or by the other person (offer, taken back)
  function showTakeback(seat, m) {
    const hideBox = () => hideAskBox(takebackBox, resignBox.querySelector("#takeback"));
    if (m.event === "offer") {
      showAskBox(takebackBox, seat, "takeback", `${capital(m.by)} asks to take back their last move`);
    } else if (m.event === "offered") {
      canTakeBack(false);
      say("Takeback asked: waiting for your opponent's answer.", "info");
    } else if (m.event === "declined") {
      if (m.mine) { canTakeBack(true); say(`Your takeback was declined${m.reason ? `: ${m.reason}` : ""}.`, "info"); tell("Your takeback was declined."); }
      else { hideBox(); say("You declined the takeback.", "info"); }
    } else if (m.event === "lapsed") {
      if (m.mine) say("Your takeback request lapsed: a move was played instead.", "info");
      else hideBox();
    } else if (m.event === "taken_back") {  // the other person's move went back: it is their turn again
      hideBox();
      board.setTurn(null);
      pendingTurn = null;
      canTakeBack(!!m.takeback);
      showAbort(!!m.abortable);
      offerPremove();
      say("Your opponent took back their last move: their turn again.", "info");
      tell("Your opponent took back their last move.");
    } else if (m.granted) {
      tookBack = true;
      tell(againstPerson() ? "Your last move was taken back." : "Your last move and the bot's reply were taken back.");
    } else {
      say(`No takeback: ${m.reason}.`, "illegal");
      canTakeBack(false);
    }
  }
  let tookBack = false;  // the next turn is the one a takeback gave back

  // ----- premoves: the next move queued while the opponent thinks, on boards whose turn is one move -----
  let premove = null;  // the queued move's text, or null
  function queuePremove(text) {  // the board's click while the opponent thinks
    if (waiting || over) return;  // nobody opposite yet: a click does nothing, as it always did
    if (premove === text) { cancelPremove("Premove cancelled."); return; }
    premove = text;
    board.premove(queuePremove, text);
    say(`Premove ${moves.show(text)}: played when your turn comes, if still legal (click it again or press Escape to cancel).`, "info");
  }
  function offerPremove() {  // the opponent's turn: clicks queue a premove (one seat held, a board that has them)
    if (typeof board.premove !== "function" || over || mySeats.size !== 1) return;
    board.premove(queuePremove, premove);
  }
  function cancelPremove(text) {
    const had = premove !== null;
    premove = null;
    if (typeof board.premove === "function") board.premove(over ? null : queuePremove, null);
    if (had && text) say(text, "info");
  }
  function stopPremove() {  // the turn came: the board takes moves again, the queued one is handed back
    const queued = premove;
    premove = null;
    if (typeof board.premove === "function") board.premove(null, null);
    return queued;
  }
  document.addEventListener("keydown", onEscape);
  function onEscape(e) { if (e.key === "Escape" && premove !== null) cancelPremove("Premove cancelled."); }
  function reopenResign() {  // the server refused (e.g. the game had not started): let the person try again
    if (over) return;
    resignBox.querySelectorAll(".resign-yes, .resign-no").forEach((b) => { b.disabled = false; });
  }

  // A clock turns red in its last tenth-or-so: 10 s of a long clock, a quarter of a short one (a 2 s turn clock
  // is not red from its first moment on).
  const lowBelow = Math.min(10, 0.25 * (clock.seconds || 0));
  let flagged = null;  // the seat that ran out of time: its clock reads 0, whatever the last report said

  // tick() draws the clocks and sets itself up again for when what they show next changes (a second, a tenth in
  // the last ten seconds), not at a fixed rate: an idle page with a running clock redraws once a second, and a
  // page whose clocks are stopped is not redrawn at all (a tab left open must not keep a core busy). Whatever
  // changes the clocks calls it at once; the one-second check behind that costs no drawing when nothing changed.
  let timer = null;
  function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
  function tick() {
    clearTimeout(timer);
    const dt = (performance.now() - since) / 1000;
    const toMoveSeat = waiting ? null : toMoveSeatNow;  // nobody's clock is shown running before both sit down
    let next = 1;  // seconds until what a clock shows changes
    for (let i = 0; i < 2; i++) {
      let v = null;
      const running = i === toMoveSeat && !over;
      if (clock.kind === "match" || clock.kind === "incremental") {
        v = remaining[i];
        if (v !== null && running) v -= dt;
      } else if (clock.kind === "turn") {
        v = running ? clock.seconds - dt : clock.seconds;
      }
      if (i === flagged && v !== null) v = 0;
      setText(clocks[i], clock.kind === "none" ? (running ? `${Math.floor(dt)} s` : "") : fmtClock(v));
      clocks[i].classList.toggle("low", v !== null && v < lowBelow && (i === toMoveSeat || i === flagged));
      playerEls[i].classList.toggle("tomove", running);
      if (running && clock.kind === "none") next = Math.min(next, Math.ceil(dt + 1e-3) - dt);
      else if (running && v !== null && v > 0) next = Math.min(next, v < 10.05 ? 0.1 : v - Math.floor(v) || 1);
    }
    timer = setTimeout(tick, Math.max(20, next * 1000 + 10));
  }
  tick();

  // How the game ended in plain words: the rules' own sentence ("black connected top and bottom", "white
  // resigned"), else the kind of ending ("time", "draw"); never the termination code in brackets.
  function endDetail(m) {
    if (m.detail) return m.detail;
    if (m.winner_seat === null) {
      return m.termination === "turn_limit" ? "draw by the turn limit" : m.termination === "agreement" ? "draw by agreement" : "draw";
    }
    return PLAIN_ENDINGS[m.termination] || m.termination.replace(/_/g, " ");
  }

  function seatIndex(label) {
    if (label === null || label === undefined) return null;
    const i = seats.indexOf(label);
    return i < 0 ? null : i;
  }

  function showEval(evaluation, considerations) {
    const hsc = evaluation && typeof evaluation.heuristic === "number" ? evaluation.heuristic : null;
    if (hsc !== null) {
      const w = Math.max(0, Math.min(100, 50 + 50 * hsc));
      evalBar.firstChild.style.width = `${w}%`;
      evalText.textContent = `heuristic ${hsc.toFixed(3)}${evaluation.win_in ? `, win in ${evaluation.win_in}` : ""}`;
    } else if (evaluation && evaluation.win_in) {
      evalBar.firstChild.style.width = evaluation.win_in > 0 ? "100%" : "0%";
      evalText.textContent = `win in ${evaluation.win_in}`;
    }
    if (considerations && considerations.length) {
      considered.replaceChildren(h("ol", considerations.slice(0, 12).map((c) => h("li",
        c.pieces ? c.pieces.map((p) => `[${p[0]},${p[1]}]`).join("") : (c.move !== undefined ? moves.show(c.move) : JSON.stringify(c)),
        c.evaluation && typeof c.evaluation.heuristic === "number" ? ` (${c.evaluation.heuristic.toFixed(2)})` : ""))));
    }
  }

  function tell(text) { announce.textContent = text; }

  // ----- after the game: a rematch (colours swapped, same game, parameters and clock) and a new game -----
  // the game's end as a dialog in the page (not modal: the board, the moves and the notation stay usable): the
  // result and what to do next, a rematch, a new game, the replay to go through the game again
  const afterGame = h("div.controls#after-game", { hidden: true });
  const endDialog = h("section.end-dialog#end-dialog", { role: "dialog", "aria-labelledby": "result", hidden: true });
  result.replaceWith(endDialog);
  endDialog.append(result, afterGame);
  async function opponentSpec(seat) {
    const now = await getJSON(`/api/ui/matches/${encodeURIComponent(id)}`);  // a joiner's name came later
    const p = now.players[seat] || {};
    if (p.kind === "human") return "open";  // a person: the rematch waits for them with an invite link
    return p.spec || (p.kind === "builtin" ? `builtin:${p.name}` : null);
  }
  async function rematch(btn) {
    const mine = [...mySeats][0], other = 1 - mine;
    btn.disabled = true;
    try {
      const players = [];
      players[mine] = await opponentSpec(other);
      players[other] = "browser";
      if (!players[mine]) throw new Error("this opponent cannot be asked for a rematch from here: use New game");
      const c = info.clock || { kind: "none" };
      const clockSpec = c.kind === "none" ? { type: "none" } : { type: c.kind, seconds: c.seconds, increment: c.increment ?? undefined };
      const res = await postJSON("/api/matches", { game: info.game, params: info.params || {}, players, clock: clockSpec });
      saveToken(res.game_id, seats[other], res.tokens[seats[other]]);
      location.hash = `#/play/${res.game_id}`;
    } catch (err) {
      btn.disabled = false;
      say(err.message, "illegal");
    }
  }
  // ----- a rematch between two people: offered on one page, accepted or declined on the other -----
  const offerBox = h("div.panel.rematch-offer#rematch-offer", { hidden: true, role: "status" });
  afterGame.after(offerBox);
  let rematchPoll = null, offerShown = "";
  function againstPerson() {
    const mine = [...mySeats][0];
    return mySeats.size === 1 && (info.players[1 - mine] || {}).kind === "human";
  }
  async function rematchAsk(action) {
    const token = seatTokens(id)[seats[[...mySeats][0]]];
    return postJSON(`/api/ui/matches/${encodeURIComponent(id)}/rematch`, { token, action });
  }
  function showRematch(st) {
    if (st.game_id && st.token) {  // accepted: each person moves to the new game, in the other seat
      clearInterval(rematchPoll);
      saveToken(st.game_id, st.seat, st.token);
      location.hash = `#/play/${st.game_id}`;
      return;
    }
    const btn = afterGame.querySelector("#rematch");
    const them = playerName(info.players[1 - [...mySeats][0]]);
    const key = st.offer ? `${st.offer.mine}:${st.declined}` : "";
    if (btn) {
      const waitingForAnswer = !!st.offer && st.offer.mine && !st.declined;
      btn.disabled = waitingForAnswer;
      btn.textContent = waitingForAnswer ? "Rematch offered" : "Rematch";
    }
    if (key === offerShown) return;  // unchanged: leave the buttons (and the keyboard focus) where they are
    offerShown = key;
    if (!st.offer) { offerBox.hidden = true; return; }
    if (st.offer.mine) {
      offerBox.replaceChildren(h("span", st.declined ? `${them} declined the rematch.` : `Rematch offered to ${them}: waiting for an answer.`));
    } else if (st.declined) {
      offerBox.replaceChildren(h("span", "You declined the rematch."));
    } else {
      const yes = h("button#rematch-accept", { type: "button" }, "Accept");
      const no = h("button.secondary#rematch-decline", { type: "button" }, "Decline");
      const answer = (action) => async () => {
        yes.disabled = no.disabled = true;
        try { showRematch(await rematchAsk(action)); } catch (err) { say(err.message, "illegal"); yes.disabled = no.disabled = false; }
      };
      yes.addEventListener("click", answer("accept"));
      no.addEventListener("click", answer("decline"));
      offerBox.replaceChildren(h("strong", `${st.offer.by} offers a rematch`), " ", h("span.controls", yes, no));
      tell(`${st.offer.by} offers a rematch.`);
    }
    offerBox.hidden = false;
  }
  function followRematch() {
    if (rematchPoll || !againstPerson()) return;
    const poll = async () => {
      try { showRematch(await rematchAsk("status")); } catch (err) {
        // refused (no rematch for this game, or it is gone): asking every second would be refused every time
        if (err.status >= 400 && err.status < 500) { clearInterval(rematchPoll); afterGame.querySelector("#rematch")?.remove(); }
      }
    };
    rematchPoll = setInterval(poll, 1000);
    poll();
  }
  async function offerRematch(btn) {
    btn.disabled = true;
    try { showRematch(await rematchAsk("offer")); } catch (err) { btn.disabled = false; say(err.message, "illegal"); }
  }
  function showAfterGame(nobodyCame) {
    afterGame.replaceChildren();
    if (mySeats.size === 1 && !nobodyCame) {  // never a rematch against somebody who never sat down
      const btn = h("button#rematch", { type: "button" }, "Rematch");
      btn.addEventListener("click", () => (againstPerson() ? offerRematch(btn) : rematch(btn)));
      afterGame.append(btn);
      followRematch();
    }
    afterGame.append(h("a.button.secondary#new-game", { href: `#/lobby?game=${encodeURIComponent(info.game)}` }, "New game"),
      h("a.button.secondary#replay-link", { href: `#/replay/${encodeURIComponent(id)}` }, "Replay the game"));
    afterGame.hidden = false;
    endDialog.hidden = false;
  }

  function addMove(m) {
    movedSeats.add(m.seat);
    showAbort();
    moves.add(m);
    moveList.parentElement.scrollTop = 1e9;
  }

  // ----- stepping back through the game while it goes on -----
  let browsing = null;  // the ply shown instead of the live position, or null
  let pendingTurn = null;  // this page's turn while it looks back: {legal, io}, given back to the board on return
  async function viewPly(p) {
    if (p >= moves.length) { backToLive(); return; }
    let st;
    try { st = (await getJSON(`/api/ui/replay/${encodeURIComponent(id)}/states?start=${p}&count=1`)).states[0]; }
    catch (err) { say(err.message, "illegal"); return; }
    if (!st) return;
    browsing = p;
    app.dataset.browsing = String(p);
    board.setTurn(null);
    board.render(st, { move: moves.history[p - 1]?.move ?? null, seats });
    moves.mark(p);
    liveBtn.hidden = false;
    say(`Move ${p} of ${moves.length}: the game goes on meanwhile (Back to live to play on).`, "info");
  }
  function backToLive() {
    if (browsing === null) return;
    const had = document.activeElement === liveBtn;
    browsing = null;
    delete app.dataset.browsing;
    liveBtn.hidden = true;
    moves.mark(0);
    if (lastState) board.render(lastState, { move: lastMove, considerations: lastConsiderations, seats });
    if (pendingTurn && !over) { board.setTurn(pendingTurn.legal, pendingTurn.io); say("Your move.", "info"); }
    else say("Back to the live game.", "info");
    if (had) boardBox.querySelector('[tabindex="0"]')?.focus();
  }
  liveBtn.addEventListener("click", backToLive);

  let lastMove = null, lastConsiderations = null, lastState = null;
  function render(state) {
    lastState = state;
    if (browsing !== null) return;  // looking back: the live position waits for "Back to live"
    board.render(state, { move: lastMove, considerations: lastConsiderations, seats });
    styleSeats(state);
  }
  function styleSeats(state) {
    const style = board.seatStyle?.(state);
    if (!style) return;
    style.forEach((st, i) => {
      playerEls[i].querySelector(".dot").style.background = st.colour;
      // the side the seat plays now (a Hex swap exchanges them), else the seat's own name
      playerEls[i].querySelector("strong").textContent = st.side ?? seats[i];
      clocks[i].setAttribute("aria-label", `${st.side ?? seats[i]}'s clock`);
      playerEls[i].querySelector(".colour").textContent = st.label || "";
    });
  }

  // ----- the spectator stream -----
  const spec = new WebSocket(wsURL(`/spectate/${encodeURIComponent(id)}`));
  spec.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "board_update" || m.type === "end") paced(m);
    else { if (m.type === "setup") dropQueue(); showSpec(m); }
  };

  // ----- watch speed: a spectator may follow fast bots a move at a time; the moves wait in a queue -----
  let queue = [], gate = null;
  function paced(m) {
    if (!pace) { showSpec(m); return; }
    if (gate === null && !queue.length) { showSpec(m); gate = setTimeout(drain, pace * 1000); return; }
    queue.push(m);
    showBehind();
  }
  function drain() {
    gate = null;
    const m = queue.shift();
    if (m === undefined) return;
    showSpec(m);
    showBehind();
    gate = setTimeout(drain, pace * 1000);
  }
  function dropQueue() { clearTimeout(gate); gate = null; queue = []; showBehind(); }
  function catchUp() {
    clearTimeout(gate);
    gate = null;
    while (queue.length) showSpec(queue.shift());
    showBehind();
  }
  function showBehind() {
    const n = queue.filter((q) => q.type === "board_update").length;
    behind.textContent = n ? `${n} move${n === 1 ? "" : "s"} behind live` : "";
    catchUpBtn.hidden = !queue.length;
  }
  paceSel.addEventListener("change", () => {
    pace = parseFloat(paceSel.value) || 0;
    try { localStorage.setItem(PACE_KEY, paceSel.value); } catch { /* this page only */ }
    if (!pace) catchUp();
  });
  catchUpBtn.addEventListener("click", catchUp);

  function showSpec(m) {
    if (m.type === "setup") {
      moves.reset();
      movedSeats.clear();  // a takeback sends the moves left: who has moved is recounted (Abort may come back)
      for (const mv of m.moves || []) addMove(mv);
      showAbort();
      const last = (m.moves || []).at(-1);
      lastMove = last ? last.move : null;
      lastConsiderations = last ? last.considerations : null;  // afresh: a takeback sends the position again
      if (last) showEval(last.evaluation, last.considerations);
      remaining = m.clocks || [null, null];
      toMoveSeatNow = seatIndex(m.to_move);
      since = performance.now();
      if (!mySeats.size || toMoveSeatNow === null || !mySeats.has(toMoveSeatNow)) render(m.state);
      else lastState = m.state;
      tick();
    } else if (m.type === "board_update") {
      addMove(m);
      tell(`${moves.sideOf(moves.length, seats)} played ${moves.show(m.move)}.`);
      beep(m.seat ? 440 : 660);
      lastMove = m.move;
      lastConsiderations = m.considerations;
      showEval(m.evaluation, m.considerations);
      remaining = m.clocks || remaining;
      toMoveSeatNow = seatIndex(m.to_move);
      since = performance.now();
      render(m.state);
    } else if (m.type === "end") {
      over = true;
      pendingTurn = null;
      backToLive();  // the final position, whatever was being looked at
      const nobodyCame = waiting;  // the open seat was still empty when the game ended
      stopWaiting();
      toMoveSeatNow = null;
      board.setTurn(null);
      render(m.state);
      // the side the winner plays at the end (after a Hex swap seat 1 plays white), not its seat's first name
      const side = m.winner_side ?? m.winner;
      const who = m.termination === "aborted" ? "Game aborted" : m.winner === null ? "Draw"
        : `${side.charAt(0).toUpperCase()}${side.slice(1)} wins${m.termination === "time" ? " on time" : ""}`;
      if (m.termination === "time" && m.winner_seat !== null) flagged = 1 - m.winner_seat;
      // green when the person here won, red when they lost, neutral for a draw or a spectator
      const mine = mySeats.size === 1 ? [...mySeats][0] : null;
      const feel = mine === null || m.winner_seat === null ? "neutral" : m.winner_seat === mine ? "won" : "lost";
      result.className = `result ${feel}`;
      result.hidden = false;
      closeResign();
      app.querySelector("#mode").textContent = "finished";
      result.textContent = `${who}: ${endDetail(m)}`;
      tell(`Game over. ${result.textContent}.`);
      showAfterGame(nobodyCame);
      // the control the person was using (numberwang's input, the board) is disabled now: the focus would fall
      // to <body> and a keyboard or screen-reader user would start again from the top of the page
      const active = document.activeElement;
      if (!active || active === document.body || active.disabled || !active.isConnected) result.focus();
      beep(330, 0.3);
      tick();
    } else if (m.type === "nope") {
      say(m.reason, "illegal");
    }
  }

  // ----- seat sockets: one per token this browser holds for the match -----
  const sockets = [];
  const tokens = seatTokens(id);
  for (const [seatName, token] of Object.entries(tokens)) openSeat(seatName, token);

  function openSeat(seatName, token, attempt = 0) {
    const ws = new WebSocket(wsURL(`/api/play?token=${encodeURIComponent(token)}`));
    const seat = seats.indexOf(seatName);
    sockets.push(ws);
    if (seat >= 0) seatSockets.set(seat, ws);
    let probeWaiter = null;
    const io = {
      move(text) { ws.send(JSON.stringify({ type: "move", move: text })); },
      probe(what, args) {
        return new Promise((resolve) => {
          probeWaiter = resolve;
          ws.send(JSON.stringify({ type: "probe", what, args }));
        });
      },
      say,
    };
    function takeTurn(m) {
      lastState = m.state;
      pendingTurn = { legal: m.legal, io };
      if (browsing === null) {
        board.render(m.state, { move: lastMove, considerations: lastConsiderations, seats });
        board.setTurn(m.legal, io);
      }
      styleSeats(m.state);
      canTakeBack(!!m.takeback);
      toMoveSeatNow = m.seat;
      if (clock.kind === "turn" && m.time_limit !== null) { since = performance.now() - (clock.seconds - m.time_limit) * 1000; }
      if ((clock.kind === "match" || clock.kind === "incremental") && m.time_left !== null) {
        remaining = [...remaining];
        remaining[m.seat] = m.time_left;
        since = performance.now();
      }
      say(tookBack ? `Move taken back: your move again (${m.side}).` : `Your move (${m.side})${browsing === null ? "" : ": Back to live to play"}.`, "info");
      tookBack = false;
      tick();  // the clocks at once, not at their next change
      app.dataset.turns = String(Number(app.dataset.turns || 0) + 1);  // lets tests (and styles) tell turns apart
    }
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "hello") {
        mySeats.add(m.seat);
        showHint();
        playerEls[m.seat].querySelector(".you").textContent = " (you)";
        seatSockets.set(m.seat, ws);
        addResign(m.seat, !!m.takebacks);
        if (m.draw_offer === "mine") drawOfferReady(false);
        if (m.draw_offer === "theirs") showDraw(m.seat, { event: "offer", by: "your opponent" });  // after a reload
        if (m.takeback_offer === "theirs") showTakeback(m.seat, { event: "offer", by: "your opponent" });
        board.setViewer?.(mySeats);
        showAbort(!!m.abortable);
        offerPremove();  // until the turn comes (a your_turn right after this hello takes the board back)
      } else if (m.type === "your_turn") {
        // the server asks for a move only once every seat is taken: the friend is here even if the poll that
        // notices it has not run yet, so the invite goes and the turn is taken now (the clock runs from now)
        hideInvite();
        const queued = stopPremove();
        takeTurn(m);
        showAbort(!!m.abortable);
        if (queued !== null) {  // the premove: played at once if the position still allows it
          if ((m.legal?.moves || []).some((x) => x.move === queued)) io.move(queued);
          else say(`Premove ${moves.show(queued)} dropped: it is no longer legal. Your move (${m.side}).`, "illegal");
        }
      } else if (m.type === "draw") {
        showDraw(seat, m);
      } else if (m.type === "takeback") {
        showTakeback(seat, m);
      } else if (m.type === "illegal") {
        if (probeWaiter) { const w = probeWaiter; probeWaiter = null; w(null); }
        say(`Illegal: ${m.reason}`, "illegal");
      } else if (m.type === "probe") {
        if (probeWaiter) { const w = probeWaiter; probeWaiter = null; w(m); }
      } else if (m.type === "accepted") {
        board.setTurn(null);
        pendingTurn = null;
        hideDrawBox();  // a move instead of an answer: the offer lapsed
        hideAskBox(takebackBox);
        // against a person a takeback may be asked while they think; a bot replies before it would matter
        canTakeBack(!!m.takeback && againstPerson());
        say(`You played ${moves.show(m.move)}.`, "info");
        offerPremove();
      } else if (m.type === "end") {
        over = true;
        board.setTurn(null);
        closeResign();
        const said = m.termination === "aborted" ? "Game aborted." : m.you === "won" ? "You won!" : m.you === "lost" ? "You lost." : "Draw.";
        say(said, m.you === "lost" ? "illegal" : "info");
      } else if (m.type === "nope") {
        say(`Seat ${seatName}: ${m.reason}`, "illegal");
      } else if (m.type === "error") {
        reopenResign();
        say(m.reason, "illegal");
      }
    };
    ws.onclose = () => {
      if (over || closing) return;
      if (attempt < 5) setTimeout(() => { if (!closing) openSeat(seatName, token, attempt + 1); }, 1000);
    };
  }

  let closing = false;
  return () => {
    closing = true;
    document.removeEventListener("pointerdown", wake);
    document.removeEventListener("keydown", onEscape);
    if (audio) audio.close();
    clearTimeout(timer);
    clearInterval(seatPoll);
    clearInterval(rematchPoll);
    clearTimeout(gate);
    spec.close();
    for (const ws of sockets) ws.close();
    board.destroy?.();
  };
}
