// Noughts and crosses: a 3x3 grid; rows a-c from the top, columns 1-3 ("b2" is the centre).

import { s, COLOURS } from "./svg.js";
import { keyNav } from "./keynav.js";

const CELL = 100;

// how to make a move, shown once on the board of a person's first game of it (match.js)
export const hint = "Click an empty square to place your mark: three in a row wins. The arrow keys and Enter play too.";

export function make() {
  const svg = s("svg", { viewBox: "-20 -20 340 340", role: "group", "aria-label": "noughts and crosses board",
    style: "max-width:520px;margin:0 auto" });
  let io = null;
  let premove = null;  // while the opponent thinks: a click queues the cell (premove(cell)), drawn as `queued`
  let queued = null;
  let legal = new Set();
  let state = null;
  let last = null;

  function name(r, c) { return `${"abc"[r]}${c + 1}`; }
  const MARKS = { X: "X", O: "O" };
  const nav = keyNav(svg, { selector: "[data-cell]", keyOf: (el) => el.dataset.cell,
    label: (el) => { const [r, c] = ["abc".indexOf(el.dataset.cell[0]), Number(el.dataset.cell[1]) - 1];
      return `${el.dataset.cell} ${MARKS[state?.board?.[r]?.[c]] || "empty"}${el.dataset.premove ? ", premove" : ""}`; } });

  function draw() {
    svg.replaceChildren();
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        const n = name(r, c);
        const mark = state?.board?.[r]?.[c] || "";
        const g = s("g", { class: "cell", "data-cell": n,
          onclick: () => { if (io) io.move(n); else if (premove && !mark) premove(n); } });
        if (n === queued) g.dataset.premove = "1";
        g.append(s("rect", {
          x: c * CELL, y: r * CELL, width: CELL, height: CELL, rx: 6,
          fill: io && legal.has(n) ? COLOURS.legal : "#fff", stroke: "#9aa3b0", "stroke-width": 2,
        }));
        if (n === queued) g.append(s("rect", { x: c * CELL + 10, y: r * CELL + 10, width: CELL - 20, height: CELL - 20, rx: 6,
          fill: "none", stroke: COLOURS.selected, "stroke-width": 4, "stroke-dasharray": "10 6" }));
        if (n === last) g.append(s("rect", { x: c * CELL + 4, y: r * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 6,
          fill: "none", stroke: COLOURS.last, "stroke-width": 5 }));
        const cx = c * CELL + CELL / 2, cy = r * CELL + CELL / 2;
        if (mark === "X") {
          g.append(s("path", { d: `M${cx - 28} ${cy - 28}L${cx + 28} ${cy + 28}M${cx + 28} ${cy - 28}L${cx - 28} ${cy + 28}`,
            stroke: COLOURS.p0, "stroke-width": 12, "stroke-linecap": "round" }));
        } else if (mark === "O") {
          g.append(s("circle", { cx, cy, r: 30, fill: "none", stroke: COLOURS.p1, "stroke-width": 11 }));
        }
        svg.append(g);
      }
    }
    for (let i = 0; i < 3; i++) {
      svg.append(s("text", { x: -10, y: i * CELL + CELL / 2 + 5, "text-anchor": "middle", "font-size": 13, fill: "#5b6472" }, "abc"[i]));
      svg.append(s("text", { x: i * CELL + CELL / 2, y: -6, "text-anchor": "middle", "font-size": 13, fill: "#5b6472" }, i + 1));
    }
    const line = state?.line;
    if (line && line.length === 3) {
      const p = (i) => [(i % 3) * CELL + CELL / 2, Math.floor(i / 3) * CELL + CELL / 2];
      const [a, b] = [p(line[0]), p(line[2])];
      // the win colour: the last move's yellow ring would make the winning three look like one more highlight
      svg.append(s("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: COLOURS.win, "stroke-width": 8,
        "stroke-linecap": "round", opacity: 0.8 }));
    }
    nav.refresh();
  }

  return {
    el: svg,
    render(st, info = {}) { state = st; last = info.move || null; draw(); },
    // premoves: one move a turn, so the next one can be queued while the opponent thinks (the play page decides
    // when; see boards/index.js)
    premove(handler, cell) { premove = handler; queued = cell; draw(); },
    setTurn(l, handlers) {
      io = l ? handlers : null;
      legal = new Set((l?.moves || []).map((m) => m.move));
      draw();
    },
  };
}
