// The ladder (#/ladder, #/ladder/BOT): standings, running and recent games, and each bot's record with why it is
// paused and the check-bot report its owner reads. The page refreshes itself while it is shown: the ladder is live.

import { getJSON, h, fmtDate, SCROLL_BOX } from "./api.js";

const REFRESH_MS = 5000;

export async function ladderPage(app, { args }) {
  const box = h("div");
  app.append(box);
  const show = args[0] ? () => botView(box, args[0]) : () => standingsView(box);
  await show();
  const timer = setInterval(() => show().catch((e) => console.error(e)), REFRESH_MS);
  return () => clearInterval(timer);
}

function rating(s) {
  const r = Math.round(s.rating);
  return s.provisional ? `${r}?` : `${r} ± ${Math.round(2 * s.rd)}`;
}

function record(s) {
  return `${s.wins} / ${s.draws} / ${s.losses}`;
}

function gameLink(g) {
  return g.finished_at
    ? h("a", { href: `#/replay/${g.game_id}` }, "replay")
    : h("a", { href: `#/watch/${g.game_id}` }, "watch");
}

function outcome(g) {
  if (!g.finished_at) return "playing";
  if (g.failed) return `${g.failed} forfeited (${g.termination})`;
  if (g.winner === null) return g.termination === "normal" || g.termination === "turn_limit" ? "draw" : `no result (${g.termination})`;
  return `${g.players[g.winner]} won`;
}

function gamesTable(id, label, games) {
  if (!games.length) return h("p.muted", "No ladder game yet.");
  return h("div.tablewrap", { ...SCROLL_BOX, "aria-label": label }, h(`table#${id}`,
    h("thead", h("tr", ["Players", "Result", "Started", h("span.sr-only", "Link")].map((t) => h("th", t)))),
    h("tbody", games.map((g) => h("tr", { "data-game": g.game_id },
      h("td", g.players.map((p, i) => [i ? " vs " : "", h("a", { href: `#/ladder/${encodeURIComponent(p)}` }, p)])),
      h("td", outcome(g)), h("td", fmtDate(g.started_at)), h("td", gameLink(g)))))));
}

async function standingsView(box) {
  let ladder;
  try { ladder = await getJSON("/api/ladder"); } catch (e) { box.replaceChildren(h("p.error", e.message)); return; }
  const pace = ladder.pace;
  const rows = ladder.standings;
  box.replaceChildren(
    h("h1", "Ladder"),
    h("p.muted#ladder-pace", `Up to ${pace.games_per_hour} games an hour, ${pace.concurrency} at once; a bot is paused `
      + `after ${pace.fail_limit} forfeits in a row. Ladder games are rated on the leaderboard.`),
    h("div.panel", h("h2", "Standings"), rows.length
      ? h("div.tablewrap", { ...SCROLL_BOX, "aria-label": "Ladder standings" }, h("table#ladder",
        h("thead", h("tr", ["Rank", "Bot", "Game", "Rating", "Games", "W / D / L", "Forfeits", "Status"].map((t) => h("th", t)))),
        h("tbody", rows.map((s, i) => h("tr", { "data-bot": s.name },
          h("td", i + 1), h("td", h("a", { href: `#/ladder/${encodeURIComponent(s.name)}` }, s.name)), h("td", s.game),
          h("td", rating(s)), h("td", String(s.games)), h("td", record(s)), h("td", String(s.forfeits)),
          h("td", s.status === "paused" ? h("span.error", { title: s.pause_reason || "" }, "paused") : "active"))))))
      : h("p.muted", "No bot on the ladder yet: `hexarena ladder register NAME URL --owner WHO`, or POST /api/ladder/bots.")),
    h("div.panel", h("h2", "Recent games"), gamesTable("ladder-games", "Recent ladder games", ladder.recent)));
}

async function botView(box, name) {
  let bot;
  try { bot = await getJSON(`/api/ladder/bots/${encodeURIComponent(name)}`); } catch (e) {
    box.replaceChildren(h("h1", name), h("p.error", e.message), h("p", h("a", { href: "#/ladder" }, "Back to the ladder")));
    return;
  }
  const facts = [["Game", bot.game], ["Owner", bot.owner], ["Rating", rating(bot)], ["Games", String(bot.games)],
    ["Wins / draws / losses", record(bot)], ["Forfeits", String(bot.forfeits)], ["Status", bot.status], ["Bot", bot.spec]];
  box.replaceChildren(
    h("p", h("a", { href: "#/ladder" }, "← The ladder")),
    h("h1", bot.name),
    bot.status === "paused" ? h("div.panel#ladder-paused", { role: "status" }, h("h2", "Paused"), h("p", bot.pause_reason || "")) : null,
    h("div.panel", h("dl#ladder-bot", facts.map(([k, v]) => [h("dt", k), h("dd", v)]))),
    bot.report ? h("div.panel", h("h2", "check-bot report"), reportView(bot.report)) : null,
    h("div.panel", h("h2", "Games"), gamesTable("ladder-bot-games", `Ladder games of ${bot.name}`, bot.games_list)));
}

function reportView(report) {
  if (!report.checks) return h("p.muted", report.note || "No report.");
  return h("div.tablewrap", { ...SCROLL_BOX, "aria-label": "check-bot report" }, h("table#ladder-report",
    h("thead", h("tr", ["Check", "Result", "Details"].map((t) => h("th", t)))),
    h("tbody", report.checks.map((c) => h("tr", { "data-check": c.check },
      h("td", c.check), h("td", c.status),
      h("td", c.detail,
        c.sent ? h("div", h("b", "sent: "), c.sent) : null,
        c.expected ? h("div", h("b", "expected: "), c.expected) : null,
        c.fix ? h("div", h("b", "fix: "), c.fix) : null))))));
}
