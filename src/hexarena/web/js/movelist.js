// The move list of the live page and of the replay, one component so both read the same: the moves paired by
// turn as lichess shows them ("1. b2 a1"), a row per turn, the first mover's column first; a seat that moves
// twice in a row (an extra turn for a captured hexagon) starts a new row with "…" in the other column.
// Each move is written the way the board shows cells (Hex: common notation, not the server's) and marked with
// the colour it was played with when the board says so (Hex: the seats exchange colours at a swap). A click on
// a move calls onPick(ply) (the replay goes there, the live page shows that position).

import { h } from "./api.js";

export function moveList(board, { onPick } = {}) {
  const el = h("ol.paired#movelist");
  let history = [];  // {seat, move} of every ply so far
  let spans = [];  // the element of each ply
  let firstSeat = null;

  function add(m) {
    if (firstSeat === null) firstSeat = m.seat;
    history.push({ seat: m.seat, move: m.move });
    const ply = history.length;
    const side = board.moveSides?.(history).at(-1);
    const slot = m.seat === firstSeat ? 0 : 1;
    const shown = show(m.move, m.state);
    const mv = h(`span.mv.seat${m.seat}`, {
      title: m.think_time !== undefined && m.think_time !== null ? `${Number(m.think_time).toFixed(3)} s` : "",
      dataset: { ply: String(ply), ...(side ? { side: side.side } : {}) },
      onclick: onPick ? () => onPick(ply) : undefined,
    }, side ? [h("span.dot", { style: `background:${side.colour}`, "aria-hidden": "true" }), h("span.sr-only", `${side.side} `)] : null, shown);
    if (side) mv.classList.remove(`seat${m.seat}`);  // its colour is the stone's, not the seat's
    spans.push(mv);
    let row = el.lastElementChild;
    if (!row || slot === 0 || row.children[2].textContent) {
      row = h("li", h("span.num.muted", `${el.children.length + 1}.`), h("span.slot"), h("span.slot"));
      el.append(row);
      if (slot === 1) row.children[1].textContent = "…";
    }
    row.children[1 + slot].replaceChildren(mv);
    return mv;
  }

  function reset(moves = []) {
    el.replaceChildren();
    history = [];
    spans = [];
    firstSeat = null;
    for (const m of moves) add(m);
  }

  /** Highlight ply `ply` (0: none) and scroll it into the list's view. */
  function mark(ply) {
    spans.forEach((s, i) => s.classList.toggle("current", i === ply - 1));
    const cur = spans[ply - 1];
    if (cur) {
      const box = el.parentElement;
      const top = cur.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) box.scrollTop = top - box.clientHeight / 2;
    }
  }

  // state: the position after the move when known (HTTTX lists a winning first stone alone)
  function show(text, state) { return board.showMove?.(text, state) ?? text; }

  /** The side that played ply `ply` (1-based), by the board's colours when it has them, else the seat's name. */
  function sideOf(ply, seats) {
    const side = board.moveSides?.(history.slice(0, ply)).at(-1);
    return side ? side.side : seats[history[ply - 1]?.seat] ?? "";
  }

  return { el, add, reset, mark, show, sideOf, get length() { return history.length; }, get history() { return history; } };
}
