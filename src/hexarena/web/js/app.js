// The single-page shell: a hash router (#/lobby, #/play/ID, #/watch/ID, #/join/ID/SEAT, #/replay/ID, #/games, #/bots, #/leaderboard/GAME, #/rules/GAME, #/ladder, #/analysis/GAME).
// Hash routes keep the server side trivial (one static index.html) and make every page linkable.

import { h } from "./api.js";

const routes = {
  lobby: () => import("./lobby.js").then((m) => m.lobbyPage),
  play: () => import("./match.js").then((m) => m.matchPage),
  watch: () => import("./match.js").then((m) => m.matchPage),
  replay: () => import("./replay.js").then((m) => m.replayPage),
  join: () => import("./invite.js").then((m) => m.joinPage),
  games: () => import("./lists.js").then((m) => m.gamesPage),
  bots: () => import("./lists.js").then((m) => m.botsPage),
  leaderboard: () => import("./lists.js").then((m) => m.leaderboardPage),
  rules: () => import("./rules.js").then((m) => m.rulesPage),
  ladder: () => import("./ladder.js").then((m) => m.ladderPage),
  analysis: () => import("./analysis.js").then((m) => m.analysisPage),
};

let cleanup = null;
let newest = 0;  // the route asked for last

function runCleanup(fn) {
  try { fn?.(); } catch (e) { console.error(e); }
}

// Each route builds its page in an #app of its own, put in place of the last: a page builds asynchronously (its
// module, its fetches), and a link followed meanwhile starts the next route. The page it overtook goes on
// building into its detached #app, unseen, and is cleaned up (its timers, its listeners) once built.
async function route() {
  const mine = ++newest;
  const raw = location.hash.replace(/^#\/?/, "") || "lobby";
  const [path, query] = raw.split("?");
  const [name, ...args] = path.split("/");
  const params = new URLSearchParams(query || "");
  const old = document.getElementById("app");
  const app = old.cloneNode(false);  // the same element, attributes and id, without the last page's state
  for (const key of Object.keys(app.dataset)) delete app.dataset[key];
  runCleanup(cleanup);
  cleanup = null;
  for (const a of document.querySelectorAll("[data-nav]")) {
    a.classList.toggle("active", a.dataset.nav === name || (name === "watch" && a.dataset.nav === "lobby"));
  }
  const load = routes[name];
  old.replaceWith(app);
  if (!load) {
    app.append(h("h1", `No page ${JSON.stringify(name)}`), h("p", h("a", { href: "#/lobby" }, "Back to the lobby")));
    return;
  }
  try {
    const page = await load();
    const done = (await page(app, { name, args: args.map(decodeURIComponent), params })) || null;
    if (mine === newest) cleanup = done;
    else runCleanup(done);  // overtaken while it built
  } catch (e) {
    console.error(e);
    app.append(h("p.error", `Could not show this page: ${e.message}`));
  }
}

// the skip link jumps over the navigation to the page's content; its "#app" is no route, so the focus is moved
// by hand (following the link would change the hash and show "No page")
document.querySelector("a.skip")?.addEventListener("click", (e) => {
  e.preventDefault();
  document.getElementById("app").focus();
});

window.addEventListener("hashchange", route);
route();
