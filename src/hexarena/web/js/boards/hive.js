// Hive: pieces on a pointy-top hex grid (UHP axial q, r), stacks shown by their top piece and height, both
// hands beside the board. Pick a piece (in your hand or on the board), then one of its highlighted
// destinations; a click elsewhere is explained by the server. Pillbug throws are listed under the thrown piece.

import { h } from "../api.js";
import { s, axialToPixel, hexPoints, COLOURS, sideToMove } from "./svg.js";
import { keyNav } from "./keynav.js";

const R = 26;
const BUG = { Q: "Queen", S: "Spider", B: "Beetle", G: "Grasshopper", A: "Ant", M: "Mosquito", L: "Ladybug", P: "Pillbug" };
// letters on black tiles use lighter shades of the same hues, so both sides stay readable
const BUG_COLOUR_ON_DARK = { Q: "#f6c05a", S: "#f4a58a", B: "#c4a8f7", G: "#68d391", A: "#90cdf4", M: "#e2e8f0", L: "#fc8181", P: "#81e6d9" };
const BUG_COLOUR = { Q: "#b7791f", S: "#7b341e", B: "#6b46c1", G: "#2f855a", A: "#2b6cb0", M: "#4a5568", L: "#c53030", P: "#319795" };

// how to make a move, shown once on the board of a person's first game of it (match.js)
export const hint = "Click a piece in your hand or on the board, then one of its highlighted cells to place or move it. Surround the other queen to win. The arrow keys and Enter play too.";

export function make() {
  const svg = s("svg", { role: "group", "aria-label": "Hive board" });
  // each hand a named group ("White's hand (yours)"), so its pieces are not read as bare "Q×1" in both hands
  const handTitle = { white: h("strong#hand-white-title", "White's hand"), black: h("strong#hand-black-title", "Black's hand") };
  const hands = {
    white: h("div.hand#hand-white", { role: "group", "aria-labelledby": "hand-white-title" }),
    black: h("div.hand#hand-black", { role: "group", "aria-labelledby": "hand-black-title" }),
  };
  const passBtn = h("button.secondary", { type: "button", hidden: true }, "Pass");
  const el = h("div",
    h("div", handTitle.black, hands.black),
    svg,
    h("div", handTitle.white, hands.white),
    h("div.controls", passBtn));
  // the colours this page plays (from its seats): only their hands are Tab stops; the opponent's pieces can still
  // be clicked or read, but a keyboard player does not tab through them to reach their own
  let viewer = new Set();
  let state = null, io = null, legal = [], selected = null;  // selected: {piece, from} (from null: hand)
  passBtn.addEventListener("click", () => io && io.move("pass"));

  const key = (c) => (c ? `${c[0]},${c[1]}` : "hand");
  const myColour = () => (sideToMove(state, ["white", "black"]) === "black" ? "b" : "w");
  const nav = keyNav(svg, { selector: "[data-cell]", keyOf: (el) => el.dataset.cell, label: cellLabel });
  function cellLabel(el) {
    const k = el.dataset.cell;
    const target = movesOf(selected).some((m) => key(m.to) === k) ? ", a legal destination" : "";
    const piece = el.dataset.piece;
    if (!piece) return `empty ${k}${target}`;
    const isSel = selected && key(selected.from) === k ? ", selected" : "";
    const surrounded = el.dataset.surrounded ? ", surrounded: it lost the game" : "";
    const movable = io && legal.some((m) => m.piece === piece && key(m.from) === k) ? ", can move" : "";
    const height = Number(el.dataset.height || 1);
    const stack = height > 1 ? `, on top of a stack of ${height}` : "";
    return `${piece} ${BUG[piece[1]] || ""} at ${k}${stack}${surrounded}${isSel}${movable}${target}`;
  }
  function deselect() {
    if (!selected || !io) return;
    selected = null;
    io.say("Nothing selected: pick a piece.", "info");
    draw();
  }
  // Escape drops the picked piece, from the board or from a hand
  el.addEventListener("keydown", (e) => { if (e.key === "Escape" && selected) { e.preventDefault(); deselect(); } });

  function movesOf(sel) {
    if (!sel) return [];
    return legal.filter((m) => m.piece === sel.piece && key(m.from) === key(sel.from));
  }

  function pickHand(colour, kind, ev) {
    if (!io) return;
    if (selected && selected.from === null && selected.piece[0] === colour && selected.piece[1] === kind) {
      deselect();  // the picked piece again: put it back
      return;
    }
    if (colour !== myColour()) { io.say(`Those are ${colour === "w" ? "White" : "Black"}'s pieces: pick one of yours.`, "illegal"); return; }
    const m = legal.find((x) => x.from === null && x.piece && x.piece[0] === colour && x.piece[1] === kind);
    if (!m) {
      const queenRule = legal.some((x) => x.from === null) ? " (the queen must be placed by your fourth turn, and not on your first)" : "";
      io.say(`You may not place a ${BUG[kind]} now${queenRule}.`, "illegal");
      return;
    }
    selected = { piece: m.piece, from: null };
    io.say(`${m.piece}: pick a highlighted cell.`, "info");
    draw();
    // picked with the keyboard (a click without a pointer): the focus goes to the first place it may go
    if (ev && ev.detail === 0) { const to = movesOf(selected)[0]?.to; if (to) nav.focusKey(key(to)); }
  }

  async function clickCell(q, r, top) {
    if (!io) return;
    if (top && selected && selected.from && selected.from[0] === q && selected.from[1] === r) {
      deselect();  // the selected piece again: deselect it rather than try to move it onto itself
      return;
    }
    const dest = selected ? movesOf(selected).find((m) => m.to[0] === q && m.to[1] === r) : null;
    if (dest) { io.move(dest.move); return; }
    if (top && (!selected || selected.piece !== top)) {
      const own = legal.filter((m) => m.piece === top && m.from && m.from[0] === q && m.from[1] === r);
      if (own.length) { selected = { piece: top, from: [q, r] }; io.say(`${top}: pick a highlighted cell.`, "info"); draw(); return; }
      if (!selected) {
        const whose = top[0] === myColour() ? "" : ` (it is ${top[0] === "w" ? "White" : "Black"}'s piece)`;
        io.say(`${top} has no legal move now${whose}.`, "illegal");
        return;
      }
    }
    if (!selected) { io.say("Pick a piece first: one in your hand or one on the board.", "illegal"); return; }
    const res = await io.probe("hive_why", [selected.piece, q, r]);
    if (res && res.move) io.move(res.move);
  }

  function draw() {
    svg.replaceChildren();
    const cells = state?.board || [];
    const targets = movesOf(selected);
    const pts = [...cells.map((c) => [c.q, c.r]), ...legal.filter((m) => m.to).map((m) => m.to)];
    if (!pts.length) pts.push([0, 0]);
    const xy = pts.map(([q, r]) => axialToPixel(q, r, R));
    const pad = R * 2.5;
    const minx = Math.min(...xy.map((p) => p[0])) - pad, maxx = Math.max(...xy.map((p) => p[0])) + pad;
    const miny = Math.min(...xy.map((p) => p[1])) - pad, maxy = Math.max(...xy.map((p) => p[1])) + pad;
    // a small hive is centred in the smallest frame, not pinned to its top-left corner
    const vw = Math.max(maxx - minx, R * 10), vh = Math.max(maxy - miny, R * 7);
    svg.setAttribute("viewBox", `${(minx + maxx - vw) / 2} ${(miny + maxy - vh) / 2} ${vw} ${vh}`);
    // the small piece names ("wA2") at 12 px on screen however far the board is scaled down (a phone), up to
    // what fits under the bug's letter in the hexagon
    const scale = svg.clientWidth > 0 ? Math.min(svg.clientWidth / vw, svg.clientHeight / vh || Infinity) : 1;
    const small = Math.min(13, Math.max(9, 12 / scale));
    // empty neighbour cells as a faint grid (clickable for explanations)
    const occupied = new Set(cells.map((c) => `${c.q},${c.r}`));
    const ring = new Set();
    for (const c of cells) for (const [dq, dr] of [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]]) {
      const k = `${c.q + dq},${c.r + dr}`;
      if (!occupied.has(k)) ring.add(k);
    }
    if (!cells.length) ring.add("0,0");
    for (const k of ring) {
      const [q, r] = k.split(",").map(Number);
      const [x, y] = axialToPixel(q, r, R);
      svg.append(s("polygon", { class: "cell", points: hexPoints(x, y, R * 0.96), fill: "#f1f3f6", stroke: "#d5d9e0",
        "data-cell": k, onclick: () => clickCell(q, r, null) }));
    }
    const surrounded = new Set((state?.surrounded || []).map(([q, r]) => `${q},${r}`));  // the queens that lost
    for (const c of cells) {
      const top = c.stack[c.stack.length - 1];
      const [x, y] = axialToPixel(c.q, c.r, R);
      const white = top[0] === "w";
      const g = s("g", { class: "cell", "data-piece": top, "data-cell": `${c.q},${c.r}`, onclick: () => clickCell(c.q, c.r, top) });
      const isSel = selected && selected.from && selected.from[0] === c.q && selected.from[1] === c.r;
      const movable = io && legal.some((m) => m.piece === top && m.from && m.from[0] === c.q && m.from[1] === c.r);
      const lost = surrounded.has(`${c.q},${c.r}`);
      if (lost) { g.dataset.surrounded = "1"; g.classList.add("surrounded"); }
      g.append(s("polygon", { points: hexPoints(x, y, R * 0.96), fill: white ? "#fdfaf0" : "#2d3340",
        stroke: lost ? COLOURS.win : (isSel ? COLOURS.selected : (movable ? "#2f855a" : "#8a94a3")),
        "stroke-width": lost || isSel ? 4 : (movable ? 3 : 1.5) }));
      g.dataset.height = String(c.stack.length);
      // the letters and the stack badge are drawn beside the button, not in it, hidden from screen readers: the
      // button's name says all of it in words, and text inside a named button must be part of its name (WCAG
      // 2.5.3 label in name: the visible "QwQ2" is in no sensible sentence); they let clicks through to it
      const marks = s("g", { "aria-hidden": "true", "pointer-events": "none" });
      marks.append(s("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: (white ? BUG_COLOUR : BUG_COLOUR_ON_DARK)[top[1]] || "#000" }, top[1]));
      marks.append(s("text", { class: "piece-name", x, y: y + 8 + small, "text-anchor": "middle", "font-size": small, fill: white ? "#5b6472" : "#cbd2dc" }, top));
      if (c.stack.length > 1) {
        marks.append(s("circle", { cx: x + R * 0.55, cy: y - R * 0.45, r: 7, fill: "#1d2330", stroke: "#fff" }));
        marks.append(s("text", { x: x + R * 0.55, y: y - R * 0.45 + 3.5, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, c.stack.length));
        g.append(s("title", {}, `stack (bottom to top): ${c.stack.join(", ")}`));
      } else {
        g.append(s("title", {}, lost ? `${top}: surrounded` : top));
      }
      if (state?.last_moved && c.stack.includes(state.last_moved)) {
        g.insertBefore(s("polygon", { points: hexPoints(x, y, R * 1.08), fill: COLOURS.last }), g.firstChild);
      }
      svg.append(g, marks);
    }
    for (const m of targets) {
      const [x, y] = axialToPixel(m.to[0], m.to[1], R);
      svg.append(s("polygon", { class: "cell", points: hexPoints(x, y, R * 0.8), fill: COLOURS.legal, stroke: "#2f855a",
        "stroke-width": 2, "data-target": `${m.to[0]},${m.to[1]}`, onclick: () => io && io.move(m.move) }));
    }
    for (const side of ["white", "black"]) {
      const colour = side[0];
      const box = hands[side];
      box.replaceChildren();
      const hand = state?.hands?.[side] || {};
      for (const [kind, n] of Object.entries(hand)) {
        const canPlace = io && colour === myColour() && legal.some((m) => m.from === null && m.piece && m.piece[0] === colour && m.piece[1] === kind);
        const isSel = selected && selected.from === null && selected.piece[0] === colour && selected.piece[1] === kind;
        const cls = `button.piece.${colour}${canPlace ? ".movable" : ""}${isSel ? ".selected" : ""}`;
        // the visible "Q×1" first in the name (label in name), then the words
        box.append(h(cls, { type: "button", title: `${BUG[kind]} ×${n}`, "data-hand": `${colour}${kind}`,
          "aria-label": `${kind}×${n}: ${n} ${BUG[kind]}${n === 1 ? "" : "s"}`,
          tabindex: viewer.has(colour) ? null : "-1", onclick: (ev) => pickHand(colour, kind, ev) }, `${kind}×${n}`));
      }
      handTitle[side].textContent = `${side === "white" ? "White" : "Black"}'s hand${viewer.has(colour) ? " (yours)" : ""}`;
      if (!Object.keys(hand).length) box.append(h("span.muted", "empty"));
    }
    nav.refresh();
  }

  return {
    el,
    render(st) { state = st; selected = null; draw(); },
    // the seats this page plays (seat 0 is White)
    setViewer(seats) { viewer = new Set([...seats].map((i) => (i === 0 ? "w" : "b"))); draw(); },
    seatStyle() { return [{ colour: "#fdfaf0", label: "white pieces" }, { colour: "#2d3340", label: "black pieces" }]; },
    setTurn(l, handlers) {
      io = l ? handlers : null;
      legal = l?.moves || [];
      selected = null;
      passBtn.hidden = !(io && legal.length === 1 && legal[0].move === "pass");
      draw();
    },
  };
}
