// Hex: an N x N rhombus of hexagons. Black joins top and bottom (dark edges), White joins left and right (light
// edges). A Swap button; resigning is the play page's own (one Resign for every game, confirmed inline).
// Two notations name a cell: the server's (UAIS, on the wire and in records: letter = row, number = column) and
// the one Hex players know (HexGui, MoHex, LittleGolem: letter = column, number = row). The page shows the
// common one everywhere a person reads a cell (axis labels, cell names, the move list) and sends the server's.

import { h } from "../api.js";
import { s, hexPoints, SQRT3, COLOURS } from "./svg.js";
import { keyNav } from "./keynav.js";

const R = 20;

// how to make a move, shown once on the board of a person's first game of it (match.js): the swap rule is told
// only to a game that has it (on unless the game's params turn it off, as the server's default)
export function hint(params) {
  return ["Click an empty cell to place a stone: join your two sides of the board with a chain.",
    params.swap === false ? "" : "The swap rule is on: the second player may take over the first stone instead of answering it.",
    "The arrow keys and Enter play too."].filter(Boolean).join(" ");
}

export function make(params) {
  let n = params.size || 11;
  const svg = s("svg", { role: "group", "aria-label": "hex board" });
  const swapBtn = h("button.secondary", { type: "button", hidden: true }, "Swap");
  // Large boards on a phone: cells zoomed to a finger's width (44 px) in a box that scrolls (pans); the button
  // switches between that and the whole board at a glance. Decided once the box has a width, then the person's.
  const zoomBtn = h("button.secondary#hex-zoom", { type: "button", "aria-pressed": "false" }, "Zoom");
  const scroller = h("div.scroller", svg);
  const el = h("div", scroller, h("div.controls", swapBtn, zoomBtn));
  let zoomed = null;
  zoomBtn.addEventListener("click", () => { zoomed = !zoomed; draw(); });
  let io = null;
  let premove = null;  // while the opponent thinks: a click queues the cell (premove(cell)), drawn as `queued`
  let queued = null;
  let legal = new Set();
  let state = null;
  swapBtn.addEventListener("click", () => io && io.move("swap"));

  // the latest move on screen: a zoomed board pans its box (and the page) to the opponent's reply
  function showLast() {
    const last = state?.lastMove;
    if (!zoomed || !last || last === lastShown) return;
    lastShown = last;
    svg.querySelector(`[data-cell="${last}"]`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  const centre = (r, c) => [R * SQRT3 * (c + r / 2), R * 1.5 * r];
  const name = (r, c) => `${String.fromCharCode(97 + r)}${c + 1}`;  // the server's (UAIS)
  const STONES = { B: "black stone", W: "white stone" };
  const nav = keyNav(svg, { selector: "[data-cell]", keyOf: (el) => el.dataset.cell,
    label: (el) => { const stone = el.querySelector("[data-stone]")?.dataset.stone;
      return `${showMove(el.dataset.cell)} ${STONES[stone] || "empty"}${el.dataset.win ? ", in the winning chain" : ""}${el.dataset.premove ? ", premove" : ""}`; } });
  let lastShown = null;  // the last move the zoomed board panned to

  function draw() {
    svg.replaceChildren();
    const [x0] = centre(0, 0);
    const [x1, y1] = centre(n - 1, n - 1);
    const pad = R * 2.2;
    const vbw = x1 - x0 + 2 * pad;
    svg.setAttribute("viewBox", `${x0 - pad} ${-pad} ${vbw} ${y1 + 2 * pad}`);
    svg.style.maxWidth = `${Math.max(360, n * 75 + 150)}px`;
    svg.style.margin = "0 auto";
    if (zoomed === null && scroller.clientWidth > 0) {
      zoomed = Math.min(scroller.clientWidth, parseFloat(svg.style.maxWidth)) / vbw * R * SQRT3 < 40;
    }
    svg.classList.toggle("zoomed", !!zoomed);
    svg.style.width = zoomed ? `${vbw * 44 / (R * SQRT3)}px` : "";
    zoomBtn.setAttribute("aria-pressed", String(!!zoomed));
    zoomBtn.textContent = zoomed ? "Whole board" : "Zoom";
    // edges: top/bottom for Black, left/right for White
    const edge = (pts, colour) => svg.append(s("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none",
      stroke: colour, "stroke-width": 7, "stroke-linecap": "round" }));
    const top = [], bottom = [], left = [], right = [];
    for (let i = 0; i < n; i++) {
      const [tx, ty] = centre(0, i); top.push([tx, ty - R * 1.15]);
      const [bx, by] = centre(n - 1, i); bottom.push([bx, by + R * 1.15]);
      const [lx, ly] = centre(i, 0); left.push([lx - R * 1.1, ly]);
      const [rx, ry] = centre(i, n - 1); right.push([rx + R * 1.1, ry]);
    }
    edge(top, "#222"); edge(bottom, "#222"); edge(left, "#c9ccd2"); edge(right, "#c9ccd2");
    const rows = state?.board || [];
    const lastName = state?.lastMove;
    const winning = new Set(state?.winning || []);  // the winner's chain, edge to edge, once the game is won
    const centres = new Map();  // each cell's centre by name, for the chain's line
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const [x, y] = centre(r, c);
        const nm = name(r, c);
        centres.set(nm, [x, y]);
        const ch = rows[r]?.[c] || ".";
        const won = winning.has(nm);
        const g = s("g", { class: won ? "cell win" : "cell", "data-cell": nm,
          onclick: () => { if (io) io.move(nm); else if (premove && ch !== "B" && ch !== "W") premove(nm); } });
        if (won) g.dataset.win = "1";
        if (nm === queued) g.dataset.premove = "1";
        g.append(s("polygon", { points: hexPoints(x, y, R), fill: io && legal.has(nm) ? "#dff0e4" : (won ? "#f9d3cf" : "#f1ede4"),
          stroke: won ? COLOURS.win : "#9aa3b0", "stroke-width": won ? 3 : 1 }));
        if (ch === "B" || ch === "W") {
          g.append(s("circle", { cx: x, cy: y, r: R * 0.68, fill: ch === "B" ? "#222" : "#fafafa", "data-stone": ch,
            stroke: ch === "B" ? "#000" : "#555", "stroke-width": 1.5 }));
        }
        if (nm === queued) g.append(s("circle", { cx: x, cy: y, r: R * 0.55, fill: "none", stroke: COLOURS.selected,
          "stroke-width": 3, "stroke-dasharray": "5 3" }));
        if (nm === lastName) g.append(s("circle", { cx: x, cy: y, r: R * 0.28, fill: COLOURS.last }));
        svg.append(g);
      }
    }
    // the chain drawn through its stones' centres, above the cells, so the connection reads at a glance
    const chain = (state?.winning || []).map((nm) => centres.get(nm)).filter(Boolean);
    if (chain.length > 1) {
      svg.append(s("polyline", { class: "win-line", points: chain.map((p) => p.join(",")).join(" "), fill: "none",
        stroke: COLOURS.win, "stroke-width": 4, "stroke-linecap": "round", "stroke-linejoin": "round", "pointer-events": "none" }));
    }
    // common Hex notation: letters over the columns, numbers beside the rows
    for (let i = 0; i < n; i++) {
      const [lx, ly] = centre(i, 0);
      svg.append(s("text", { x: lx - R * 1.7, y: ly + 4, "font-size": 11, "text-anchor": "middle", fill: "#5b6472", "data-axis": "row" },
        i + 1));
      const [tx, ty] = centre(0, i);
      svg.append(s("text", { x: tx, y: ty - R * 1.5, "font-size": 11, "text-anchor": "middle", fill: "#5b6472", "data-axis": "column" },
        String.fromCharCode(97 + i)));
    }
    nav.refresh();
  }

  return {
    el,
    render(st) { state = st; if (st?.size) n = st.size; draw(); showLast(); },
    // after a swap seat 0 plays White: the seat panel names the colour each seat plays now, not its first name
    seatStyle(st) {
      const colours = st?.colours || ["black", "white"];
      return colours.map((c) => ({ colour: STONE[c], side: c, label: st?.swapped ? "after the swap" : "" }));
    },
    // the colour each move was played with: the seats exchange colours at a swap (the swap itself takes black)
    moveSides(moves) {
      let swapped = false;
      return moves.map((m) => {
        if (m.move === "swap") swapped = !swapped;
        const side = (m.seat === 0) !== swapped ? "black" : "white";
        return { side, colour: STONE[side] };
      });
    },
    showMove,
    // premoves: one stone a turn, so the next one can be queued while the opponent thinks (never a swap)
    premove(handler, cell) { premove = handler; queued = cell; draw(); },
    setTurn(l, handlers) {
      io = l ? handlers : null;
      legal = new Set((l?.moves || []).map((m) => m.move));
      // Swap pressed with the keyboard: the button goes away with the turn, the focus goes to the board (not <body>)
      const swapHadFocus = document.activeElement === swapBtn;
      swapBtn.hidden = !(l && (l.extra || []).includes("swap"));
      draw();
      if (swapHadFocus && swapBtn.hidden) nav.focusKey(nav.current);
    },
  };
}

const STONE = { black: "#222", white: "#fafafa" };

/** A cell in common Hex notation (letter = column) from the server's UAIS one (letter = row): "c5" -> "e3";
 * anything else ("swap") as it is. */
export function showMove(text) {
  const m = /^([a-z])(\d+)$/.exec(text || "");
  return m ? `${String.fromCharCode(96 + Number(m[2]))}${m[1].charCodeAt(0) - 96}` : text;
}
export { COLOURS };
