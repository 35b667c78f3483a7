// SVG helpers shared by the board renderers: element creation and hexagon geometry (pointy-top, axial q/r).

export const NS = "http://www.w3.org/2000/svg";
export const SQRT3 = Math.sqrt(3);

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** Pixel centre of axial cell (q, r) for hexagons of circumradius `size` (pointy top). */
export function axialToPixel(q, r, size) {
  return [size * SQRT3 * (q + r / 2), size * 1.5 * r];
}

/** The axial cell under pixel (x, y) (cube rounding). */
export function pixelToAxial(x, y, size) {
  const qf = (SQRT3 / 3 * x - y / 3) / size;
  const rf = (2 / 3 * y) / size;
  const sf = -qf - rf;
  let q = Math.round(qf), r = Math.round(rf);
  const sr = Math.round(sf);
  const dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(sr - sf);
  if (dq > dr && dq > ds) q = -r - sr;
  else if (dr > ds) r = -q - sr;
  return [q, r];
}

/** Polygon points of a pointy-top hexagon. */
export function hexPoints(cx, cy, size) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(2)},${(cy + size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** The same hexagon as a closed path segment (to batch thousands of cells into one <path>). */
export function hexPath(cx, cy, size) {
  let d = "";
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    d += `${i ? "L" : "M"}${(cx + size * Math.cos(a)).toFixed(1)} ${(cy + size * Math.sin(a)).toFixed(1)}`;
  }
  return d + "Z";
}

export function hexDistance(q1, r1, q2, r2) {
  const dq = q1 - q2, dr = r1 - r2;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}

// "last" marks the last move, "selected" what the person picked: two colours, so one is never taken for the other
export const COLOURS = { p0: "#1f5fbf", p1: "#b83c0a", last: "#f6c000", selected: "#805ad5", win: "#d62d20", legal: "rgba(47,133,90,0.30)", ink: "#1d2330" };

/** The side to move in a game's JSON position: every game's ``to_json`` says ``to_move`` (the seat, null once the
 * game is over), read here as a name from ``sides``. */
export function sideToMove(state, sides) {
  if (!state) return null;
  const seat = state.to_move;
  return typeof seat === "number" ? sides[seat] ?? null : null;
}
