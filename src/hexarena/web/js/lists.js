// Games and bots: listings with filters; every game links to its replay (or to the live view).

import { getJSON, h, playerName, resultText, fmtDate } from "./api.js";
import { s } from "./boards/svg.js";

export async function gamesPage(app, { params }) {
  const games = await getJSON("/api/games");
  const seatsOf = Object.fromEntries(games.map((g) => [g.name, g.seats]));
  const titleOf = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const gameSel = h("select#f-game", h("option", { value: "" }, "any game"), games.map((g) => h("option", { value: g.name }, g.title)));
  const player = h("input#f-player", { type: "text", placeholder: "player name" });
  const result = h("select#f-result", [["", "any result"], ["win", "decisive"], ["draw", "draw"], ["finished", "finished"],
    ["running", "running"], ["aborted", "aborted"], ["interrupted", "interrupted"]].map(([v, t]) => h("option", { value: v }, t)));
  gameSel.value = params.get("game") || "";
  player.value = params.get("player") || "";
  result.value = params.get("result") || "";
  const box = h("div.tablewrap");
  const form = h("form.filters",
    h("label", h("span", "Game"), gameSel), h("label", h("span", "Player"), player), h("label", h("span", "Result"), result),
    h("button", { type: "submit" }, "Filter"));
  app.append(h("h1", "Games"), h("div.panel", form, box));

  async function load() {
    const q = new URLSearchParams();
    if (gameSel.value) q.set("game", gameSel.value);
    if (player.value.trim()) q.set("player", player.value.trim());
    if (result.value) q.set("result", result.value);
    q.set("limit", "200");
    let rows;
    try { rows = await getJSON(`/api/ui/games?${q}`); } catch (e) { box.replaceChildren(h("p.error", e.message)); return; }
    if (!rows.length) { box.replaceChildren(h("p.muted", "No game matches.")); return; }
    // explicit table roles: on a phone the rows are laid out as cards (style.css), which would drop a table's
    // own semantics in some browsers; the game by its title, not the registry's name
    box.replaceChildren(h("table#games", { role: "table" },
      h("thead", { role: "rowgroup" }, h("tr", { role: "row" },
        ["Game", "Players", "Result", "Moves", "Started", h("span.sr-only", "Link")].map((t) => h("th", { role: "columnheader" }, t)))),
      h("tbody", { role: "rowgroup" }, rows.map((g) => h("tr", { role: "row", "data-game": g.game_id },
        h("td", { role: "cell" }, titleOf[g.game] || g.game),
        h("td", { role: "cell" }, g.players.map((p, i) => [i ? " vs " : "", h(`span.seat${i}`, playerName(p))])),
        h("td", { role: "cell" }, resultText(g, seatsOf[g.game])),
        h("td", { role: "cell", dataset: { moves: g.moves ?? "" } }, g.moves ?? ""),
        h("td", { role: "cell" }, fmtDate(g.created_at)),
        h("td", { role: "cell" }, g.status === "running" ? h("a", { href: `#/watch/${g.game_id}` }, "watch") : h("a", { href: `#/replay/${g.game_id}` }, "replay")))))));
  }
  form.addEventListener("submit", (e) => { e.preventDefault(); load(); });
  for (const el of [gameSel, result]) el.addEventListener("change", load);
  await load();
}

export async function botsPage(app, { params }) {
  const games = await getJSON("/api/games");
  const titleOf = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const gameSel = h("select#f-game", h("option", { value: "" }, "any game"), games.map((g) => h("option", { value: g.name }, g.title)));
  gameSel.value = params.get("game") || "";
  const box = h("div.tablewrap");
  app.append(h("h1", "Bots"), h("div.panel", h("div.filters", h("label", h("span", "Game"), gameSel)), box));
  async function load() {
    const rows = await getJSON(`/api/ui/bots${gameSel.value ? `?game=${gameSel.value}` : ""}`);
    box.replaceChildren(h("table#bots",
      h("thead", h("tr", ["Game", "Bot", "Kind", "Rating", h("span.sr-only", "Links")].map((t) => h("th", t)))),
      h("tbody", rows.map((b) => h("tr",
        h("td", titleOf[b.game] || b.game), h("td", b.name), h("td", b.kind),
        h("td", b.rating !== undefined ? `${b.rating} (${b.games} games)` : ""),
        h("td", h("a", { href: `#/games?game=${b.game}&player=${encodeURIComponent(b.kind === "builtin" ? `builtin:${b.name}` : b.name)}` }, "games")))))));
  }
  gameSel.addEventListener("change", load);
  await load();
}

// The leaderboard of one game (#/leaderboard/GAME): the stored ratings, best first (GET /leaderboard/{game}).
export async function leaderboardPage(app, { args }) {
  const games = await getJSON("/api/games");
  const name = args[0] || games[0]?.name || "";
  const gameSel = h("select#f-game", games.map((g) => h("option", { value: g.name }, g.title)));
  gameSel.value = name;
  gameSel.addEventListener("change", () => { location.hash = `#/leaderboard/${gameSel.value}`; });
  const box = h("div.tablewrap");
  app.append(h("h1", "Leaderboard"), h("div.panel", h("div.filters", h("label", h("span", "Game"), gameSel)), box));
  let board;
  try { board = await getJSON(`/leaderboard/${encodeURIComponent(name)}`); } catch (e) { box.replaceChildren(h("p.error", e.message)); return; }
  if (!board.ratings.length) { box.replaceChildren(h("p.muted", "Nobody is rated in this game yet: every finished game between bots is rated (tournaments and single matches, from the API or this lobby), and so is a game with a person that was created rated (tick Rated in the lobby); other games with a person are casual (not rated).")); return; }
  // each player's ratings over time, as a small plot in the row (a store without history: no plots)
  let history = {};
  try { history = (await getJSON(`/api/ui/leaderboard/${encodeURIComponent(name)}/history?limit=${Math.min(board.ratings.length, 100)}`)).history; } catch { /* none */ }
  box.replaceChildren(h("table#leaderboard",
    h("thead", h("tr", ["Rank", "Player", "Rating", "History", "Games", "Updated"].map((t) => h("th", t)))),
    h("tbody", board.ratings.map((r) => h("tr",
      h("td", r.rank),
      h("td", r.person
        // a person: their display name (two people may share one), marked; the mark's title holds their key
        ? [r.name, " ", h("span.badge.person", { title: `a person (${r.player})` }, "person")]
        : h("a", { href: `#/games?game=${board.game}&player=${encodeURIComponent(r.player)}` }, r.name ?? r.player)),
      ratingCell(r), h("td", ratingPlot(history[r.player] || [])), h("td", r.games),
      h("td", fmtDate(r.updated_at)))))));
}

/** A Glicko-2 rating as lichess shows it: "1523 ± 120" (twice the deviation: the rating is in that range 95 % of
 * the time), or "1523?" while it is provisional (deviation 110 or more: still a guess). */
function ratingCell(r) {
  const rating = Math.round(r.rating);
  if (r.rd === undefined) return h("td", rating);
  const spread = Math.round(2 * r.rd);
  return r.provisional
    ? h("td", { title: `provisional: too few games to be sure (deviation ${Math.round(r.rd)})` }, `${rating}?`)
    : h("td", { title: `95 % of the time between ${rating - spread} and ${rating + spread}` }, `${rating} ± ${spread}`);
}

/** A rating history as a small line plot (oldest left), with its first and last rating said in words. */
export function ratingPlot(points) {
  if (points.length < 2) return points.length ? h("span.muted", "one rating") : "";
  const W = 160, H = 36, pad = 3;
  const ys = points.map((p) => p.rating);
  const lo = Math.min(...ys), hi = Math.max(...ys), span = hi - lo || 1;
  const yOf = (y) => H - pad - (H - 2 * pad) * (y - lo) / span;
  const xy = ys.map((y, i) => [pad + (W - 2 * pad) * i / (ys.length - 1), yOf(y)]);
  const line = s("polyline", { points: xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "), fill: "none",
    stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" });
  // the deviation band (rating ± 2·RD) where the points have one: clipped by the plot, so a wide band fills it
  const band = points.every((p) => typeof p.rd === "number")
    ? s("polygon", { points: [...points.map((p, i) => [xy[i][0], yOf(p.rating + 2 * p.rd)]),
      ...points.map((p, i) => [xy[i][0], yOf(p.rating - 2 * p.rd)]).reverse()]
      .map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "), fill: "currentColor", "fill-opacity": 0.15, stroke: "none" })
    : null;
  const [lx, ly] = xy[xy.length - 1];
  const words = `rating history: ${Math.round(ys[0])} to ${Math.round(ys[ys.length - 1])} over ${ys.length} updates`
    + ` (low ${Math.round(lo)}, high ${Math.round(hi)})`;
  return s("svg", { class: "ratingplot", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": words },
    s("title", {}, words), ...(band ? [band] : []), line, s("circle", { cx: lx, cy: ly, r: 3, fill: "currentColor" }));
}
