// Hexagon dots: a triangular lattice of dots (short even rows sit half a spacing right). Click two
// neighbouring dots to draw a line; closing a hexagon captures it (filled in the capturer's colour).
// For a screen reader every dot says the lines drawn from it (and by whom) and the lines that may be drawn from
// it now; a picked dot's legal neighbours say "draw the line from ..."; each drawn line and captured hexagon is
// an image named for its owner. So every legal line can be found and played with the arrows and Enter alone.

import { s, COLOURS } from "./svg.js";
import { keyNav } from "./keynav.js";

const D = 60;
const H = D * Math.sqrt(3) / 2;

// how to make a move, shown once on the board of a person's first game of it (match.js)
export const hint = "Click two neighbouring dots to draw the line between them; closing a hexagon captures it and you move again. The arrow keys and Enter play too.";

export function make(params) {
  let rows = params.rows || 5, cols = params.cols || 5;
  const svg = s("svg", { role: "group", "aria-label": "hexagon dots board" });
  let state = null, io = null, legal = [], picked = null, last = null;

  const pos = (r, c) => [(c + (r % 2 === 0 ? 0.5 : 0)) * D, r * H];
  const key = (r, c) => `${r},${c}`;
  const seatOf = (owner) => seatOfIn(state, owner);
  const seatOfIn = (st, owner) => {
    const players = st?.players || [];
    const name = owner && typeof owner === "object" ? owner.name : owner;
    const i = players.findIndex((p) => p.name === name);
    return i < 0 ? 0 : i;
  };

  const ownerName = (owner) => {
    const players = state?.players || [];
    return players[seatOf(owner)]?.name || (owner && typeof owner === "object" ? owner.name : owner) || "nobody";
  };
  const list = (xs) => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`);
  // the dots a line may be drawn to from dot k now (the legal moves of the side to move), and the drawn lines
  const legalFrom = (k) => legal.flatMap((m) => (key(...m.a) === k ? [key(...m.b)] : key(...m.b) === k ? [key(...m.a)] : []));
  const drawnFrom = (k) => (state?.lines || []).flatMap((ln) => {
    const [a, b] = ln.endpoints.map((e) => key(e.row, e.col));
    return a === k ? [`${b} (${ownerName(ln.owner)})`] : b === k ? [`${a} (${ownerName(ln.owner)})`] : [];
  });
  function dotLabel(el) {
    const k = el.dataset.dot;
    const parts = [`dot ${k}`];
    const from = picked ? key(...picked) : null;
    if (from === k) parts.push(`picked: draw a line to ${list(legalFrom(k))} (Escape drops it)`);
    else if (from && legalFrom(from).includes(k)) parts.push(`draw the line from ${from} to here`);
    const drawn = drawnFrom(k);
    if (drawn.length) parts.push(`lines drawn to ${list(drawn)}`);
    if (io && !from) {
      const can = legalFrom(k);
      parts.push(can.length ? `can draw to ${list(can)}` : "no line can be drawn from here");
    }
    return parts.join(", ");
  }

  const nav = keyNav(svg, { selector: "[data-dot]", keyOf: (el) => el.dataset.dot, label: dotLabel,
    cancel: () => { if (picked) { picked = null; draw(); io?.say("Nothing picked: pick a dot.", "info"); } } });

  function click(r, c) {
    if (!io) return;
    if (picked && picked[0] === r && picked[1] === c) { picked = null; draw(); return; }
    if (!picked) { picked = [r, c]; draw(); return; }
    const a = picked;
    picked = null;
    draw();
    io.move(`${a[0]},${a[1]}-${r},${c}`);
  }

  function draw() {
    svg.replaceChildren();
    const pad = D * 0.6;
    svg.setAttribute("viewBox", `${-pad} ${-pad} ${(cols - 1) * D + 2 * pad} ${(rows - 1) * H + 2 * pad}`);
    svg.style.maxWidth = `${Math.max(320, cols * 90)}px`;
    svg.style.margin = "0 auto";
    for (const hx of state?.hexagons || []) {
      const [cx, cy] = pos(hx.center.row, hx.center.col);
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 3 * i;
        pts.push(`${cx + D * Math.cos(a)},${cy + D * Math.sin(a)}`);
      }
      const seat = seatOf(hx.owner);
      svg.append(s("polygon", { points: pts.join(" "), fill: seat ? COLOURS.p1 : COLOURS.p0, opacity: 0.35,
        "data-hex": key(hx.center.row, hx.center.col), role: "img",
        "aria-label": `hexagon around ${key(hx.center.row, hx.center.col)}, captured by ${ownerName(hx.owner)}` }));
      svg.append(s("text", { "aria-hidden": "true", x: cx, y: cy - 10, "text-anchor": "middle", "font-size": 16, "font-weight": 700,
        fill: seat ? COLOURS.p1 : COLOURS.p0 }, seat ? "2" : "1"));
    }
    // legal lines from the picked dot, as hints
    if (io && picked) {
      for (const m of legal) {
        const [a, b] = [m.a, m.b];
        let other = null;
        if (a[0] === picked[0] && a[1] === picked[1]) other = b;
        else if (b[0] === picked[0] && b[1] === picked[1]) other = a;
        if (!other) continue;
        const [x1, y1] = pos(picked[0], picked[1]);
        const [x2, y2] = pos(other[0], other[1]);
        svg.append(s("line", { x1, y1, x2, y2, stroke: "#2f855a", "stroke-width": 4, "stroke-dasharray": "6 6", opacity: 0.7 }));
      }
    }
    const lines = state?.lines || [];
    lines.forEach((ln, i) => {
      const [a, b] = ln.endpoints;
      const [x1, y1] = pos(a.row, a.col);
      const [x2, y2] = pos(b.row, b.col);
      const isLast = last && i === lines.length - 1;
      if (isLast) svg.append(s("line", { x1, y1, x2, y2, stroke: COLOURS.last, "stroke-width": 13, "stroke-linecap": "round" }));
      svg.append(s("line", { x1, y1, x2, y2, stroke: seatOf(ln.owner) ? COLOURS.p1 : COLOURS.p0, "stroke-width": 6,
        "stroke-linecap": "round", "data-line": `${a.row},${a.col}-${b.row},${b.col}`, role: "img",
        "aria-label": `line ${a.row},${a.col} to ${b.row},${b.col}, drawn by ${ownerName(ln.owner)}${isLast ? ", the last move" : ""}` }));
    });
    const endpoints = new Set();
    if (io) for (const m of legal) { endpoints.add(key(...m.a)); endpoints.add(key(...m.b)); }
    for (let r = 0; r < rows; r++) {
      const n = r % 2 === 0 ? cols - 1 : cols;
      for (let c = 0; c < n; c++) {
        const [x, y] = pos(r, c);
        const isPicked = picked && picked[0] === r && picked[1] === c;
        const g = s("g", { class: "cell", "data-dot": key(r, c), onclick: () => click(r, c) });
        g.append(s("circle", { cx: x, cy: y, r: D * 0.45, fill: "transparent" }));  // a finger-sized target
        g.append(s("circle", { cx: x, cy: y, r: isPicked ? 10 : 7,
          fill: isPicked ? COLOURS.selected : "#1d2330" }));
        if (io && !isPicked && endpoints.has(key(r, c))) g.append(s("circle", { cx: x, cy: y, r: 12, fill: "none", stroke: "#2f855a", "stroke-width": 2 }));
        svg.append(g);
      }
    }
    nav.refresh();
  }

  return {
    el: svg,
    // the running score on each player card: hexagons captured so far
    seatStyle(st) {
      const counts = [0, 0];
      for (const hx of st?.hexagons || []) if (hx.owner) counts[seatOfIn(st, hx.owner)] += 1;
      return counts.map((n, i) => ({ colour: i ? COLOURS.p1 : COLOURS.p0, label: `${n} hexagon${n === 1 ? "" : "s"}` }));
    },
    render(st, info = {}) {
      state = st;
      if (st?.rows) { rows = st.rows; cols = st.cols; }
      last = info.move || (st?.lines?.length ? "yes" : null);
      picked = null;
      draw();
    },
    setTurn(l, handlers) {
      io = l ? handlers : null;
      legal = l?.moves || [];
      picked = null;
      draw();
    },
  };
}
