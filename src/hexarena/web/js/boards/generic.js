// Any game without a board of its own (a plugin game such as examples/nim): the position as a table of its
// JSON fields, the last move, and the moves the server says are legal. A short list is a row of buttons
// (filtered by typing); a long one, or none at all (kind "text"), leaves the text box: the server validates
// whatever is typed with the game's own parser and says why a move is refused. Needs nothing from the game
// beyond the generic move list (each game's Game.legal_view), so it works for every registered game.

import { h } from "../api.js";

// More legal moves than this are not drawn as buttons until the filter narrows them down.
const MAX_BUTTONS = 60;

function show(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) return value.join("  ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

// how to make a move, shown once on the board of a person's first game of it (match.js)
export const hint = "Pick one of the legal moves under the position, or type a move in the game's notation and send it: the server says why a move is refused.";

export function make() {
  const table = h("table.generic-position", { "aria-label": "position" });
  const last = h("div.muted", { "data-last-move": "" });
  const input = h("input", {
    type: "text",
    id: "generic-move",
    "aria-label": "move",
    placeholder: "type a move",
    autocomplete: "off",
    spellcheck: "false",
  });
  const send = h("button", { type: "submit" }, "Play");
  const form = h("form.controls", { novalidate: true }, input, send);
  const buttons = h("div.controls.generic-moves", { role: "group", "aria-label": "legal moves" });
  const count = h("div.muted");
  const el = h("div.generic-board", { style: "padding:1rem" }, table, last, form, count, buttons);
  let io = null;
  let moves = [];

  function listMoves() {
    const wanted = input.value.trim().toLowerCase();
    const shown = moves.filter((m) => m.toLowerCase().startsWith(wanted));
    buttons.replaceChildren(
      ...(shown.length <= MAX_BUTTONS ? shown : []).map((m) =>
        h("button.secondary", { type: "button", dataset: { move: m }, onclick: () => io && io.move(m) }, m),
      ),
    );
    count.textContent = !io ? "" : moves.length === 0 ? "type your move" :
      shown.length > MAX_BUTTONS ? `${shown.length} legal moves: type to narrow them down` :
      `${shown.length} of ${moves.length} legal moves`;
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (io && text) io.move(text);
  });
  input.addEventListener("input", listMoves);

  function enable(on) { input.disabled = !on; send.disabled = !on; }
  enable(false);
  form.hidden = true; // shown from the seat's first turn: a replay or a spectator has nothing to play
  return {
    el,
    render(state, info = {}) {
      table.replaceChildren(
        ...Object.entries(state || {}).map(([k, v]) => h("tr", { dataset: { field: k } }, h("th", k), h("td", show(v)))),
      );
      last.textContent = info.move !== undefined && info.move !== null ? `last move: ${info.move}` : "";
    },
    setTurn(legal, handlers) {
      io = legal ? handlers : null;
      if (legal) form.hidden = false; // from the first turn on (a spectator never gets one)
      moves = legal && Array.isArray(legal.moves) ? legal.moves.map((m) => m.move) : [];
      input.value = "";
      enable(!!io);
      listMoves();
      if (io) input.focus();
    },
  };
}
