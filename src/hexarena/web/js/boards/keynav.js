// Keyboard play for boards drawn as cells (SVG groups or shapes with a data-* key): one cell at a time sits in
// the tab order (a roving tabindex), the arrow keys move the focus to the nearest cell in that direction on
// screen (so one helper serves the square, rhombus, lattice and free-form Hive boards alike), Enter or Space
// plays it exactly as a click does (the board's own click handler runs), and Escape calls the board's cancel
// (drop a picked Hive piece or dot). Boards redraw their cells for every position; refresh() after each draw
// labels the cells for screen readers and puts the focus back on the same cell when the board had it, so a
// keyboard player never falls back to the top of the page when the opponent moves.

const DIRS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The element nearest to `from` in direction (dx, dy). Left and right stay in the row (within 31 degrees: a
 * hex neighbour up-left is 60 degrees off, not in the row); up and down take the next row, whose hex cells sit
 * 30 degrees off the vertical (within 50 degrees), nearest first, straightest on a tie. */
export function nearestInDirection(from, items, dx, dy) {
  const cone = dx ? 0.6 : 1.2;
  const centre = (el) => { const b = el.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; };
  const [x0, y0] = centre(from);
  let best = null, bestScore = Infinity;
  for (const el of items) {
    if (el === from) continue;
    const [x, y] = centre(el);
    const along = (x - x0) * dx + (y - y0) * dy;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along < 1 || across > along * cone) continue;
    const score = along + 0.5 * across;
    if (score < bestScore - 0.5) { best = el; bestScore = score; }
  }
  return best;
}

/**
 * keyNav(root, {selector, keyOf, label, cancel}) -> {refresh(), focusKey(key)}.
 * selector: the cells; keyOf(el): a cell's stable name across redraws; label(el): what a screen reader says for
 * it (its name and content); cancel(): Escape.
 */
export function keyNav(root, { selector, keyOf, label, cancel }) {
  let current = null;  // the key of the focus cell
  // Chromium puts an <svg> itself in the tab order: one stop too many before the cells
  if (root instanceof SVGSVGElement && !root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
  let inside = false;  // the board has (or just had, before a redraw) the focus
  const items = () => [...root.querySelectorAll(selector)];
  const find = (key) => items().find((el) => keyOf(el) === key) || null;

  function setCurrent(el, focus) {
    for (const other of root.querySelectorAll(`${selector}[tabindex="0"]`)) other.setAttribute("tabindex", "-1");
    el.setAttribute("tabindex", "0");
    current = keyOf(el);
    if (focus) el.focus();
  }

  root.addEventListener("focusin", (e) => {
    const el = e.target.closest?.(selector);
    if (el && root.contains(el)) { inside = true; if (keyOf(el) !== current) setCurrent(el, false); }
  });
  root.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !root.contains(e.relatedTarget)) inside = false;
  });
  root.addEventListener("keydown", (e) => {
    const el = e.target.closest?.(selector);
    if (!el || !root.contains(el)) return;
    if (DIRS[e.key]) {
      e.preventDefault();
      e.stopPropagation();  // the replay page steps with the arrows too: not while the board has them
      const next = nearestInDirection(el, items(), ...DIRS[e.key]);
      if (next) setCurrent(next, true);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    } else if (e.key === "Escape") {
      if (cancel) { e.preventDefault(); cancel(); }
    }
  });

  return {
    refresh() {
      const all = items();
      if (!all.length) return;
      const el = find(current) || all[Math.floor(all.length / 2)];
      for (const c of all) {
        c.setAttribute("tabindex", c === el ? "0" : "-1");
        c.setAttribute("role", "button");
        c.setAttribute("aria-label", label(c));
      }
      current = keyOf(el);
      const active = document.activeElement;
      // back on the same cell without scrolling: it is where it was, and the board may just have panned to a reply
      if (inside && (!active || active === document.body || !active.isConnected)) el.focus({ preventScroll: true });
    },
    focusKey(key) { const el = find(key); if (el) { inside = true; setCurrent(el, true); } },
    get current() { return current; },
  };
}
