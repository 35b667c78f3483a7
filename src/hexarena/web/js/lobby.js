// Lobby: create a match of any registered game (its parameters, clock, and each seat a person, a built-in
// bot, a bot URL or any player spec the server knows), see live games, join an open human seat.

import { getJSON, postJSON, h, playerName, personName, savePersonName, personSecret } from "./api.js";
import { saveToken } from "./tokens.js";
import { rulesLink } from "./rules.js";
import { paramInput, paramsOf } from "./params.js";

// Everything that differs from game to game comes from the game's own declarations in GET /api/games: its
// parameters in words (label, effect, named choices), its clock presets and default, and the bots at an address
// that can take a seat (each player scheme declares the games it plays). This page names no game.

export async function lobbyPage(app, { params } = {}) {
  const [games, kinds] = await Promise.all([getJSON("/api/games"), getJSON("/api/players")]);
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  // {schemes, engines, server_only}; older servers answered the schemes map alone
  const specHelp = kinds.schemes || kinds;
  const engines = kinds.engines || [];
  const gameSel = h("select#game", { name: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const paramsBox = h("div");
  const seatsBox = h("div");
  const clockType = h("select#clock-type", ["none", "turn", "match", "incremental"].map((k) => h("option", { value: k }, k)));
  const clockSecs = h("input#clock-seconds", { type: "number", min: 1, step: "any", value: 300, style: "width:7rem" });
  const clockInc = h("input#clock-increment", { type: "number", min: 0, step: "any", value: 2, style: "width:7rem" });
  // lichess-style clock presets, the game's own (one of them its default); the fields below stay for any other clock
  const presetBox = h("div.presets#clock-presets", { role: "group", "aria-label": "clock presets" });
  let presets = [];
  function showPresets(game) {
    presets = game.clock_presets || [];
    presetBox.replaceChildren(...presets.map((p) => h("button.secondary.preset",
      { type: "button", "aria-pressed": "false", dataset: { preset: p.label }, onclick: () => usePreset(p) }, p.label)));
  }
  function usePreset(p) {
    clockType.value = p.type;
    if (p.seconds !== undefined) clockSecs.value = p.seconds;
    if (p.increment !== undefined) clockInc.value = p.increment;
    syncClock();
  }
  const msg = h("p.msg");
  const createBtn = h("button#create", { type: "submit" }, "Create match");
  // unticked: the usual rule (games between bots are rated, games with a person are casual and allow takebacks)
  const ratedBox = h("input#rated", { type: "checkbox", "aria-describedby": "rated-help" });
  const form = h("form.panel",
    h("h2", "New match"),
    h("label", h("span", "Game"), gameSel), h("p", rulesLink(gameSel)),
    paramsBox,
    h("div.label", h("span.muted", "Time control"), presetBox),
    h("label", h("span", "Clock"), clockType),
    h("label.clock-seconds", h("span", "Seconds"), clockSecs),
    h("label.clock-increment", h("span", "Increment (s)"), clockInc),
    seatsBox,
    h("div.param", h("label", h("span", "Rated"), ratedBox),
      h("small.muted.param-help#rated-help", "The result moves both players' ratings on the leaderboard, people's too; no takebacks. Unticked: games with a person are casual.")),
    createBtn, msg);
  const liveBox = h("div.tablewrap");
  const remoteHelp = h("li#remote-help");  // filled for the chosen game: the protocols that can reach its bots
  // Who can sit in a seat, in plain words; the exact spec syntax (for the API and the command line) is folded away.
  const playerHelp = h("div#player-help.muted",
    h("p", "Each seat is played by one of these:"),
    h("ul",
      h("li", h("strong", "Me"), ": you play on this page."),
      h("li", h("strong", "Open seat"), ": for a friend: the game page gives you a link to send them (anyone in this lobby can join it too)."),
      h("li", h("strong", "Built-in bot"), ": a computer player that runs on this server."),
      remoteHelp,
      engines.length ? h("li", h("strong", "Engine"), ": a program the server's operator has set up.") : null));
  const specDetails = h("details.muted",
    h("summary", "Player specs for the API and the command line"),
    h("p", ...Object.values(specHelp).flatMap((t) => [h("code", t), h("br")]),
      engines.length ? ["Engines registered by the operator: ", engines.map((e) => h("code", `engine:${e} `))] : null));
  app.append(h("h1", "Lobby"), h("div.grid2", form, h("div.panel", h("h2", "Live games"), liveBox, playerHelp, specDetails)));

  function syncClock() {
    const t = clockType.value;
    form.querySelector(".clock-seconds").hidden = t === "none";
    form.querySelector(".clock-increment").hidden = t !== "incremental";
    const now = { type: t, seconds: Number(clockSecs.value), increment: Number(clockInc.value) };
    for (const b of presetBox.children) {
      const p = presets.find((x) => x.label === b.dataset.preset);
      const same = p.type === now.type && (p.type === "none" || p.seconds === now.seconds)
        && (p.type !== "incremental" || p.increment === now.increment);
      b.setAttribute("aria-pressed", String(same));
    }
  }
  for (const el of [clockType, clockSecs, clockInc]) el.addEventListener("input", syncClock);
  clockType.addEventListener("change", syncClock);

  function seatInput(game, i) {
    const bots = game.builtin_bots || [];
    const remote = new Map((game.remote_players || []).map((r) => [r.scheme, r]));
    const kind = h("select", { id: `seat${i}-kind` },
      h("option", { value: "you" }, "Me (play here)"),
      h("option", { value: "open" }, "Open seat (someone joins)"),
      bots.map((b) => h("option", { value: `builtin:${b}` }, `Built-in bot: ${b}`)),
      engines.map((e) => h("option", { value: `engine:${e}` }, `Engine: ${e}`)),
      [...remote.keys()].map((s) => h("option", { value: s }, `Bot address (${s})`)),
      h("option", { value: "spec" }, "Other player spec…"));
    if (i === 1 && bots.length) kind.value = `builtin:${bots.includes("random") ? "random" : bots[0]}`;
    const extra = h("input", { id: `seat${i}-extra`, type: "text", style: "width:16rem" });
    const extraLabel = h("label", h("span", ""), extra);
    function sync() {
      const v = kind.value;
      extraLabel.hidden = false;
      if (v === "you" || v === "open") { extraLabel.firstChild.textContent = "Name"; extra.placeholder = "human"; }
      else if (remote.has(v)) { extraLabel.firstChild.textContent = "Bot address"; extra.placeholder = remote.get(v).example || ""; }
      else if (v === "spec") { extraLabel.firstChild.textContent = "Spec"; extra.placeholder = "engine:NAME (registered with --engine)"; }
      else extraLabel.hidden = true;
      // the name this browser keeps for its person, for "Me" only (never left in another kind's field)
      if (v === "you" && !extra.value) extra.value = personName();
      else if (v !== "you" && extra.value && extra.value === personName()) extra.value = "";
    }
    kind.addEventListener("change", sync);
    sync();
    return { remote, el: h("fieldset", { style: "border:1px solid var(--line);border-radius:6px;margin:.5rem 0" },
      h("legend", `Seat ${i + 1}: ${game.seats[i]}`), h("label", h("span", "Player"), kind), extraLabel), kind, extra };
  }

  let seatInputs = [];
  function syncGame() {
    const game = byName[gameSel.value];
    paramsBox.replaceChildren(...game.params.map((p) => paramInput(p)));
    seatInputs = [seatInput(game, 0), seatInput(game, 1)];
    seatsBox.replaceChildren(...seatInputs.map((s) => s.el));
    const remote = (game.remote_players || []).map((r) => r.scheme);
    remoteHelp.hidden = !remote.length;
    remoteHelp.replaceChildren(h("strong", "Bot address"), ` (${remote.join(", ")}): your own bot program, reached at its address; it must be running.`);
    showPresets(game);
    const preset = presets.find((p) => p.label === game.default_preset) || presets[0];
    if (preset) usePreset(preset);
  }
  gameSel.addEventListener("change", syncGame);
  if (params?.get("game") && byName[params.get("game")]) gameSel.value = params.get("game");  // "New game" links
  syncGame();
  syncClock();

  function specOf(seat) {
    const v = seat.kind.value, x = seat.extra.value.trim();
    // "you": this browser's seat (its token comes back in the answer); "open": anyone's, taken by the first joiner
    if (v === "you") return x ? `browser:${x}` : "browser";
    if (v === "open") return x ? `open:${x}` : "open";
    if (seat.remote.has(v)) { if (!x) throw new Error("enter the bot's address"); return `${v}:${x}`; }
    if (v === "spec") { if (!x) throw new Error("enter a player spec"); return x; }
    return v;
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    msg.className = "msg";
    msg.textContent = "";
    const game = byName[gameSel.value];
    const params = paramsOf(paramsBox);
    const clock = { type: clockType.value };
    if (clock.type !== "none") clock.seconds = parseFloat(clockSecs.value);
    if (clock.type === "incremental") clock.increment = parseFloat(clockInc.value);
    try {
      const players = seatInputs.map(specOf);
      createBtn.disabled = true;
      const res = await postJSON("/api/matches", { game: game.name, params, players, clock, person: personSecret(),
        ...(ratedBox.checked ? { rated: true } : {}) });
      let mine = 0;
      seatInputs.forEach((s, i) => {
        if (s.kind.value === "you") {
          saveToken(res.game_id, game.seats[i], res.tokens[game.seats[i]]);
          savePersonName(s.extra.value.trim());
          mine++;
        }
      });
      location.hash = mine ? `#/play/${res.game_id}` : `#/watch/${res.game_id}`;
    } catch (err) {
      msg.className = "msg illegal";
      msg.textContent = err.message;
    } finally {
      createBtn.disabled = false;
    }
  });

  async function refresh() {
    let live;
    try { live = await getJSON("/api/matches/live"); } catch (e) { liveBox.replaceChildren(h("p.error", e.message)); return; }
    if (!live.length) { liveBox.replaceChildren(h("p.muted", "No game is being played right now.")); return; }
    liveBox.replaceChildren(h("table#live",
      h("thead", h("tr", h("th", "Game"), h("th", "Players"), h("th", "Moves"), h("th", h("span.sr-only", "Actions")))),
      h("tbody", live.map((m) => h("tr", { "data-game": m.game_id },
        h("td", byName[m.game]?.title || m.game),
        h("td", m.players.map((p, i) => [i ? " vs " : "", h(`span.seat${i}`, playerName(p))])),
        h("td", m.ply),
        h("td", h("a", { href: `#/watch/${m.game_id}` }, "watch"),
          (m.open_seats || []).map((seat) => [" ", h("button.secondary", { type: "button", onclick: () => join(m.game_id, seat) }, `join as ${seat}`)])))))));
  }

  async function join(id, seat) {
    try {
      const res = await postJSON(`/api/ui/matches/${id}/join`, { seat, name: personName() || undefined, person: personSecret() });
      saveToken(id, res.seat, res.token);
      location.hash = `#/play/${id}`;
    } catch (err) {
      alert(err.message);
      refresh();
    }
  }

  refresh();
  const timer = setInterval(refresh, 3000);
  return () => clearInterval(timer);
}
