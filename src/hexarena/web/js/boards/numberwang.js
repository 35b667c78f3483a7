// Numberwang: a running total; a turn adds an integer in the allowed range. A number input, not a board.

import { h } from "../api.js";

// how to make a move, shown once on the board of a person's first game of it (match.js)
export const hint = "Type a number and press Add: it is added to the running total. The first player wins when the total reaches 10 or more, the second at -10 or less.";

export function make() {
  const total = h("div", { style: "font-size:3rem;font-weight:700;text-align:center" }, "0");
  const gauge = h("div.muted", { style: "text-align:center" }, "first wins at ≥ 10, second at ≤ −10");
  const input = h("input", { type: "number", step: 1, value: 1, "aria-label": "number to add", style: "width:6rem" });
  const send = h("button", { type: "submit" }, "Add");
  // novalidate: an out-of-range number goes to the server, which says why it is illegal
  const form = h("form.controls", { style: "justify-content:center", novalidate: true }, h("span", "Add "), input, send);
  const last = h("div.muted", { style: "text-align:center" });
  const el = h("div", { style: "padding:1rem" }, total, gauge, last, form);
  let io = null;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (io) io.move(String(input.value).trim());
  });
  function enable(on) { input.disabled = !on; send.disabled = !on; }
  enable(false);
  return {
    el,
    render(state, info = {}) {
      total.textContent = String(state?.n ?? 0);
      last.textContent = info.move !== undefined && info.move !== null ? `last move: ${info.move}` : "";
    },
    setTurn(legal, handlers) {
      io = legal ? handlers : null;
      if (legal && legal.min !== undefined) {
        input.min = legal.min;
        input.max = legal.max;
        form.title = `an integer from ${legal.min} to ${legal.max}`;
      }
      enable(!!io);
      if (io) input.focus();
    },
  };
}
