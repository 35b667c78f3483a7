// Any other game: its JSON position as text, and its legal moves as buttons (or a text box).

import { h } from "../api.js";

export function make() {
  const pre = h("pre", { style: "white-space:pre-wrap;font-size:.85rem" });
  const moves = h("div.controls");
  const el = h("div", pre, moves);
  return {
    el,
    render(state) { pre.textContent = JSON.stringify(state, null, 1); },
    setTurn(legal, io) {
      moves.replaceChildren();
      if (!legal) return;
      if (legal.kind === "list") {
        for (const m of legal.moves) moves.append(h("button.secondary", { onclick: () => io.move(m.move) }, m.move));
      } else {
        const input = h("input", { type: "text", "aria-label": "move" });
        moves.append(input, h("button", { onclick: () => io.move(input.value) }, "Play"));
      }
    },
  };
}
