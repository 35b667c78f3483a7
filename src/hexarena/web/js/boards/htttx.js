// HTTTX: an infinite hexagonal board. Drag to pan, wheel or the buttons to zoom, "fit" to frame every stone.
// The view-distance area (where a stone may go) is shaded; the hovered cell's (q, r) is shown. A turn is two
// clicks: the first stone is checked by the server (probe), then the second completes the move.

import { h } from "../api.js";
import { s, axialToPixel, pixelToAxial, hexPath, COLOURS, sideToMove } from "./svg.js";

const R = 20;
const parseMove = (text) => {
  const m = /\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]/.exec(text || "");
  return m ? [[+m[1], +m[2]], [+m[3], +m[4]]] : [];
};

// how to make a move, shown once on the board of a person's first game of it (match.js)
export const hint = "Click two empty cells: you place two stones a turn, and six in a row wins. Drag to move the board; the arrow keys and Enter play too.";

export function make(params) {
  // the board takes the focus as a whole: the arrow keys move a cursor cell over the endless grid
  const svg = s("svg", { class: "infinite", role: "application", tabindex: 0, "data-cursor": "0,0",
    "aria-label": "HTTTX board: the arrow keys move the cursor, Enter places a stone, Escape takes the first one back" });
  const shade = s("path", { fill: "#e8eefb", stroke: "#c3cde0", "stroke-width": 1 });
  const extra = s("path", { fill: "rgba(47,133,90,0.18)", stroke: "#b6d9c2", "stroke-width": 1 });
  const marks = s("g");
  const stones = s("g");
  const overlay = s("g");
  const hoverCell = s("path", { fill: "none", stroke: "#1d2330", "stroke-width": 2, opacity: 0.5 });
  const cursorCell = s("path", { class: "cursor", fill: "none", stroke: COLOURS.selected, "stroke-width": 4 });
  svg.append(shade, extra, marks, stones, overlay, hoverCell, cursorCell);
  const hover = h("div.hover", "");
  const cursorStatus = h("p.sr-only.cursor-status", { "aria-live": "polite" });
  const zin = h("button.secondary", { type: "button", title: "zoom in" }, "+");
  const zout = h("button.secondary", { type: "button", title: "zoom out" }, "−");
  const fitB = h("button.secondary", { type: "button", title: "show every stone" }, "fit");
  const el = h("div", { style: "position:relative" }, svg, hover, h("div.zoom", zin, zout, fitB), cursorStatus);

  let state = null, io = null, legalSet = new Set(), first = null, second = null, info = {};
  let view = { x: 0, y: 0, zoom: 1 };  // centre in board units, pixels per unit
  let follow = true;  // keep every stone in view until the person pans or zooms
  const V = () => state?.view_distance ?? params.view_distance ?? 8;
  const key = (q, r) => `${q},${r}`;

  function size() {
    const r = svg.getBoundingClientRect();
    return [Math.max(r.width, 100), Math.max(r.height, 100)];
  }
  function applyView() {
    const [w, hgt] = size();
    const vw = w / view.zoom, vh = hgt / view.zoom;
    svg.setAttribute("viewBox", `${view.x - vw / 2} ${view.y - vh / 2} ${vw} ${vh}`);
  }
  function fit() {
    const cells = state?.cells || [];
    let xs = [0], ys = [0];
    if (cells.length) {
      xs = []; ys = [];
      for (const c of cells) { const [x, y] = axialToPixel(c.q, c.r, R); xs.push(x); ys.push(y); }
    }
    const pad = R * 5;
    const minx = Math.min(...xs) - pad, maxx = Math.max(...xs) + pad, miny = Math.min(...ys) - pad, maxy = Math.max(...ys) + pad;
    const [w, hgt] = size();
    // on a touch screen the cells stay finger-sized (48 px): a far stone is then panned to, not shrunk into view
    const touch = matchMedia("(pointer: coarse), (max-width: 600px)").matches ? 48 / (R * Math.sqrt(3)) : 0;
    view = { x: (minx + maxx) / 2, y: (miny + maxy) / 2,
      zoom: Math.max(touch, Math.min(w / (maxx - minx), hgt / (maxy - miny), 2.5)) };
    applyView();
  }
  function zoomBy(f, cx, cy) {
    follow = false;
    const nz = Math.min(6, Math.max(0.08, view.zoom * f));
    if (cx !== undefined) {  // keep the board point under the pointer fixed
      view.x = cx - (cx - view.x) * view.zoom / nz;
      view.y = cy - (cy - view.y) * view.zoom / nz;
    }
    view.zoom = nz;
    applyView();
  }
  zin.addEventListener("click", () => zoomBy(1.25));
  zout.addEventListener("click", () => zoomBy(0.8));
  fitB.addEventListener("click", () => { follow = true; fit(); });

  function toBoard(ev) {
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [pt.x, pt.y];
  }

  // pan with a drag; a press that does not move is a click
  let drag = null;
  svg.addEventListener("pointerdown", (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y, moved: false, id: ev.pointerId };
  });
  svg.addEventListener("pointermove", (ev) => {
    const [bx, by] = toBoard(ev);
    const [q, r] = pixelToAxial(bx, by, R);
    hover.textContent = `q ${q}, r ${r}`;
    const [hx, hy] = axialToPixel(q, r, R);
    hoverCell.setAttribute("d", hexPath(hx, hy, R));
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) > 5) { drag.moved = true; svg.setPointerCapture?.(drag.id); svg.style.cursor = "grabbing"; }
    if (drag.moved) { follow = false; view.x = drag.vx - dx / view.zoom; view.y = drag.vy - dy / view.zoom; applyView(); }
  });
  svg.addEventListener("pointerup", (ev) => {
    const d = drag;
    drag = null;
    svg.style.cursor = "";
    if (d && !d.moved) {
      const [bx, by] = toBoard(ev);
      click(...pixelToAxial(bx, by, R));
    }
  });
  svg.addEventListener("pointerleave", () => { hover.textContent = ""; hoverCell.setAttribute("d", ""); });
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const [bx, by] = toBoard(ev);
    zoomBy(ev.deltaY < 0 ? 1.15 : 1 / 1.15, bx, by);
  }, { passive: false });
  const ro = new ResizeObserver(() => (follow ? fit() : applyView()));
  ro.observe(svg);

  // ----- the keyboard cursor -----
  let cursor = [0, 0];
  const even = (n) => ((n % 2) + 2) % 2 === 0;
  // up and down zigzag between the two cells above (below) so the cursor stays in its screen column
  const STEP = {
    ArrowRight: ([q, r]) => [q + 1, r], ArrowLeft: ([q, r]) => [q - 1, r],
    ArrowUp: ([q, r]) => [even(r) ? q + 1 : q, r - 1], ArrowDown: ([q, r]) => [even(r) ? q : q - 1, r + 1],
  };
  function describe([q, r]) {
    const stone = (state?.cells || []).find((c) => c.q === q && c.r === r);
    if (stone) return `q ${q}, r ${r}: ${stone.p === "x" ? "X" : "O"} stone`;
    if (first && first[0] === q && first[1] === r) return `q ${q}, r ${r}: your first stone`;
    const open = first ? second?.has(key(q, r)) : legalSet.has(key(q, r));
    return `q ${q}, r ${r}: empty${io ? (open ? ", playable" : ", out of reach") : ""}`;
  }
  function drawCursor() {
    const [x, y] = axialToPixel(cursor[0], cursor[1], R);
    cursorCell.setAttribute("d", document.activeElement === svg ? hexPath(x, y, R) : "");
    svg.dataset.cursor = key(...cursor);
  }
  function moveCursor(next) {
    cursor = next;
    const [x, y] = axialToPixel(cursor[0], cursor[1], R);
    const [w, hgt] = size();
    const hw = w / view.zoom / 2 - R * 1.5, hh = hgt / view.zoom / 2 - R * 1.5;
    if (Math.abs(x - view.x) > hw || Math.abs(y - view.y) > hh) { follow = false; view.x = x; view.y = y; applyView(); }
    drawCursor();
    cursorStatus.textContent = describe(cursor);
  }
  svg.addEventListener("keydown", (ev) => {
    if (STEP[ev.key]) { ev.preventDefault(); ev.stopPropagation(); moveCursor(STEP[ev.key](cursor)); }
    else if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); click(...cursor); }
    else if (ev.key === "Escape" && first) { ev.preventDefault(); click(...first); }
  });
  svg.addEventListener("focus", () => { drawCursor(); cursorStatus.textContent = describe(cursor); });
  svg.addEventListener("blur", drawCursor);

  async function click(q, r) {
    if (!io) return;
    if (first && first[0] === q && first[1] === r) { first = null; second = null; drawTurn(); io.say("First stone taken back.", "info"); return; }
    if (!first) {
      const res = await io.probe("htttx_first", [q, r]);
      if (!res) return;  // illegal: the reason is already shown
      first = [q, r];
      second = new Set(res.cells.map((c) => key(c[0], c[1])));
      if (res.wins) {
        // the first stone wins: the rules ignore the second, but a move is two cells (the notation's grammar and
        // every bot protocol), so one legal cell goes with it; the move list and the board leave it out
        const c = res.cells[0];
        io.move(`[${q},${r}][${c[0]},${c[1]}]`);
        return;
      }
      drawTurn();
      io.say(`First stone at (${q}, ${r}); now place the second (click the first again to take it back).`, "info");
      return;
    }
    const a = first;
    io.move(`[${a[0]},${a[1]}][${q},${r}]`);
  }

  function draw() {
    const v = V();
    const occupied = new Set((state?.cells || []).map((c) => key(c.q, c.r)));
    const area = new Set();
    let d = "";
    for (const c of state?.cells || []) {
      for (let dq = -v; dq <= v; dq++) {
        for (let dr = Math.max(-v, -dq - v); dr <= Math.min(v, -dq + v); dr++) {
          const k = key(c.q + dq, c.r + dr);
          if (area.has(k)) continue;
          area.add(k);
          const [x, y] = axialToPixel(c.q + dq, c.r + dr, R);
          d += hexPath(x, y, R);
        }
      }
    }
    shade.setAttribute("d", d);
    shade.setAttribute("fill", io ? "#dff0e4" : "#e8eefb");
    stones.replaceChildren();
    for (const c of state?.cells || []) {
      const [x, y] = axialToPixel(c.q, c.r, R);
      const seat = c.p === "x" ? 0 : 1;
      stones.append(s("circle", { cx: x, cy: y, r: R * 0.78, fill: seat ? COLOURS.p1 : COLOURS.p0, "data-stone": `${c.q},${c.r}` }));
      stones.append(s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#fff" }, seat ? "O" : "X"));
    }
    marks.replaceChildren();
    for (const [q, r] of parseMove(info.move)) {
      if (!occupied.has(key(q, r))) continue;  // a second stone the rules ignored (the first one won) is not there
      const [x, y] = axialToPixel(q, r, R);
      marks.append(s("circle", { cx: x, cy: y, r: R * 0.98, fill: COLOURS.last }));
    }
    for (const [q, r] of state?.win_line || []) {
      const [x, y] = axialToPixel(q, r, R);
      marks.append(s("circle", { class: "win", cx: x, cy: y, r: R * 1.05, fill: "none", stroke: "#2f855a", "stroke-width": 4 }));
    }
    (info.considerations || []).slice(0, 6).forEach((opt, i) => {
      for (const [q, r] of opt.pieces || []) {
        if (occupied.has(key(q, r))) continue;
        const [x, y] = axialToPixel(q, r, R);
        marks.append(s("circle", { cx: x, cy: y, r: R * 0.4, fill: "none", stroke: "#7b341e", "stroke-width": 2,
          "stroke-dasharray": "3 2", opacity: 0.8 }));
        marks.append(s("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 10, fill: "#7b341e" }, i + 1));
      }
    });
    drawTurn();
  }

  function drawTurn() {
    overlay.replaceChildren();
    let d = "";
    if (io && first && second) {
      for (const k of second) {
        if (legalSet.has(k)) continue;
        const [q, r] = k.split(",").map(Number);
        const [x, y] = axialToPixel(q, r, R);
        d += hexPath(x, y, R);
      }
      const [x, y] = axialToPixel(first[0], first[1], R);
      const seat = sideToMove(state, ["x", "o"]) === "o" ? 1 : 0;
      overlay.append(s("circle", { cx: x, cy: y, r: R * 0.78, fill: seat ? COLOURS.p1 : COLOURS.p0, opacity: 0.55,
        stroke: "#1d2330", "stroke-dasharray": "4 3", "stroke-width": 2, "data-pending": `${first[0]},${first[1]}` }));
    }
    extra.setAttribute("d", d);
    if (document.activeElement === svg) cursorStatus.textContent = describe(cursor);
  }

  // the winning six brought on screen when the game is won, wherever the person had panned (or zoomed) to:
  // centred, and zoomed out as far as it takes to show all six
  let winShown = "";
  function showWin() {
    const line = state?.win_line || [];
    const k = JSON.stringify(line);
    if (!line.length) { winShown = ""; return; }
    if (k === winShown) return;
    winShown = k;
    const pts = line.map(([q, r]) => axialToPixel(q, r, R));
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const minx = Math.min(...xs), maxx = Math.max(...xs), miny = Math.min(...ys), maxy = Math.max(...ys);
    const [w, hgt] = size();
    const pad = R * 2;
    view = { x: (minx + maxx) / 2, y: (miny + maxy) / 2,
      zoom: Math.min(view.zoom, w / (maxx - minx + 2 * pad), hgt / (maxy - miny + 2 * pad)) };
    follow = false;
    applyView();
  }

  return {
    el,
    render(st, inf = {}) {
      state = st; info = inf; first = null; second = null;
      draw();
      if (follow) fit();
      showWin();
    },
    setTurn(l, handlers) {
      io = l ? handlers : null;
      legalSet = new Set((l?.cells || []).map((c) => key(c[0], c[1])));
      first = null; second = null;
      draw();
    },
    // stones the rules place before the first move (X's at the origin): listed above the moves
    startMoves() { return [{ seat: 0, label: "X", move: "[0,0]", note: "placed by the rules at the start" }]; },
    fit,
    // a turn whose first stone won: the rules ignore its second stone (it is not on the board), so the list shows
    // the first alone. The pair is still sent and recorded, as the notation's grammar wants two cells a turn.
    showMove(text, st) {
      const [a, b] = parseMove(text);
      if (!a || !st?.win_line?.length) return text;
      const placed = (st.cells || []).some((c) => c.q === b[0] && c.r === b[1]);
      return placed ? text : `[${a[0]},${a[1]}]`;
    },
    destroy() { ro.disconnect(); },
  };
}
