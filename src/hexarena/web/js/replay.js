// Replay: any stored (or live) game step by step: first, back, forward, last, a slider, the arrow keys, and
// its notation to copy or download.

import { getJSON, h, playerName, resultText, download, copyButton, SCROLL_BOX } from "./api.js";
import { makeBoard } from "./boards/index.js";
import { moveList as makeMoveList } from "./movelist.js";

export async function replayPage(app, { args, params }) {
  const id = args[0];
  const rec = await getJSON(`/api/ui/replay/${encodeURIComponent(id)}`);
  const games = await getJSON("/api/games");
  const meta = games.find((g) => g.name === rec.game) || { title: rec.game };
  const board = await makeBoard(rec.game, rec.params);
  // short games come with every position; long ones are fetched in chunks as the person steps through them
  const n = rec.states ? rec.states.length - 1 : rec.plies;
  const chunks = new Map();
  async function stateAt(p) {
    if (rec.states) return rec.states[p];
    const c = Math.floor(p / rec.chunk);
    if (!chunks.has(c)) {
      chunks.set(c, getJSON(`/api/ui/replay/${encodeURIComponent(id)}/states?start=${c * rec.chunk}&count=${rec.chunk}`)
        .then((r) => r.states));
    }
    const list = await chunks.get(c);
    return list[p - c * rec.chunk];
  }
  let ply = Math.min(n, Math.max(0, parseInt(params.get("ply") ?? String(n), 10) || 0));
  const slider = h("input#slider", { type: "range", min: 0, max: n, value: ply, "aria-label": "ply" });
  const label = h("span#plylabel.badge", `${ply} / ${n}`);  // right from the first paint, not after go()
  const btn = (idTxt, text, title, fn) => h(`button.secondary#${idTxt}`, { type: "button", title, onclick: fn }, text);
  // paired by turn, as the live page lists them; a click on a move goes there
  const moves = makeMoveList(board, { onPick: (p) => go(p) });
  const moveList = moves.el;
  const startList = (board.startMoves?.() || []).map((sm) =>
    h(`p.auto.seat${sm.seat}`, { title: sm.note }, `${sm.label} ${sm.move}`, h("span.muted", ` (${sm.note})`)));
  const notation = h("textarea.notation#notation", { readonly: true, "aria-label": "notation of the game" }, rec.export || rec.notation || "");
  const copyBtn = copyButton(notation);
  const dlBtn = h("button.secondary", { type: "button" }, "Download");
  const info = h("div.muted");
  // watch speed: play the moves one by one (a game between instant bots that was over in 0.1 s can be followed)
  const SPEED_KEY = "hexarena.watchSpeed";
  const speedSel = h("select#speed", { "aria-label": "watch speed" },
    [["0.25", "4 moves a second"], ["0.5", "2 moves a second"], ["1", "1 move a second"], ["2", "a move every 2 s"]]
      .map(([v, text]) => h("option", { value: v }, text)));
  try { speedSel.value = localStorage.getItem(SPEED_KEY) || "0.5"; } catch { speedSel.value = "0.5"; }
  if (!speedSel.value) speedSel.value = "0.5";
  speedSel.addEventListener("change", () => { try { localStorage.setItem(SPEED_KEY, speedSel.value); } catch { /* this page only */ } });
  const playBtn = h("button#play", { type: "button", "aria-pressed": "false" }, "Play");
  // the analysis board at the position shown (its href follows the ply)
  const analyseA = h("a.button.secondary#analyse", { href: "#" }, "Analyse");
  let playing = null;
  function stopPlaying() { clearTimeout(playing); playing = null; playBtn.textContent = "Play"; playBtn.setAttribute("aria-pressed", "false"); }
  function step() {
    playing = setTimeout(async () => {
      if (ply >= n) { stopPlaying(); return; }
      await go(ply + 1);
      if (playing !== null) step();
    }, parseFloat(speedSel.value) * 1000);
  }
  function startPlaying() {
    if (ply >= n) go(0);
    playBtn.textContent = "Pause";
    playBtn.setAttribute("aria-pressed", "true");
    step();
  }
  playBtn.addEventListener("click", () => (playing !== null ? stopPlaying() : startPlaying()));
  app.append(
    h("h1", `Replay: ${meta.title} `, h("small.muted", id.slice(0, 8))),
    h("div.match",
      h("div",
        h("div.boardbox", board.el),
        h("div.controls",
          btn("first", "|◀", "first", () => go(0)), btn("back", "◀", "back", () => go(ply - 1)),
          slider,
          btn("forward", "▶", "forward", () => go(ply + 1)), btn("last", "▶|", "last", () => go(n)), label),
        h("div.controls", playBtn, speedSel, analyseA),
        info),
      h("div",
        h("div.panel",
          h("div", rec.players.map((p, i) => h("div.seatline", h(`span.dot.p${i}`), h("strong.side", rec.seats[i]), " ", playerName(p), " ", h("span.colour")))),
          h("p#replay-result", rec.winner_side && rec.reason
            // the side the winner played (after a Hex swap, not its seat's first name) and how, in the rules' words
            ? [h("strong", `${rec.winner_side.charAt(0).toUpperCase()}${rec.winner_side.slice(1)} wins`), `: ${rec.reason}`]
            : [h("strong", resultText(rec, rec.seats)), rec.reason ? ` — ${rec.reason}` : ""]),
          rec.replay_error ? h("p.error", `Replay stops early: ${rec.replay_error}`) : null),
        h("div.panel", h("h2", "Moves"), h("div.moves", { ...SCROLL_BOX, "aria-label": "moves" }, startList, moveList)),
        h("div.panel", h("h2", h("label", { for: "notation" }, "Notation")), notation, h("div.controls", copyBtn, dlBtn)))));

  // the last move with the final position (HTTTX: a second stone the rules ignored after a winning first one is
  // not listed), inline or from the last chunk (which the page shows first anyway); a game cut at the replay's
  // bound has no final position here, and its last move is listed as recorded
  const last = rec.moves.length;
  const final = last && !rec.truncated ? (rec.states ? rec.states[last] : await stateAt(last)) : undefined;
  moves.reset(rec.moves.map((m, i) => (i === last - 1 && final ? { ...m, state: final } : m)));
  dlBtn.addEventListener("click", () => download(`${rec.game}-${id.slice(0, 8)}.txt`, notation.value));
  slider.addEventListener("input", () => go(parseInt(slider.value, 10)));

  let shown = -1;
  async function go(p) {
    ply = Math.min(n, Math.max(0, p));
    slider.value = ply;
    label.textContent = `${ply} / ${n}`;
    analyseA.href = `#/analysis/${encodeURIComponent(rec.game)}?from=${encodeURIComponent(id)}&ply=${ply}`;
    const want = ply;
    const state = await stateAt(want);
    if (want !== ply || state === undefined) return;  // a later step overtook this one
    shown = want;
    app.dataset.shown = String(shown);
    const mv = ply > 0 ? rec.moves[ply - 1] : null;
    board.render(state, { move: mv ? mv.move : null, considerations: mv ? mv.considerations : null });
    const style = board.seatStyle?.(state);
    if (style) {
      for (const [i, line] of [...app.querySelectorAll(".seatline")].entries()) {
        line.querySelector(".dot").style.background = style[i].colour;
        line.querySelector(".side").textContent = style[i].side ?? rec.seats[i];
        line.querySelector(".colour").textContent = style[i].label || "";
      }
    }
    moves.mark(ply);
    info.textContent = mv ? `ply ${ply}: ${moves.sideOf(ply, rec.seats)} played ${moves.show(mv.move)}${mv.think_time !== undefined ? ` in ${Number(mv.think_time).toFixed(3)} s` : ""}` : "start position";
  }
  const keys = (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowLeft") go(ply - 1);
    else if (e.key === "ArrowRight") go(ply + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(n);
  };
  document.addEventListener("keydown", keys);
  requestAnimationFrame(() => { go(ply); if (params.get("play") === "1") startPlaying(); });
  return () => { stopPlaying(); document.removeEventListener("keydown", keys); board.destroy?.(); };
}
