// Lobby: create a match of any registered game (its parameters, clock, and each seat a person, a built-in
// bot, a bot URL or any player spec the server knows), see live games, join an open human seat.

import { getJSON, postJSON, h, playerName, personName, savePersonName } from "./api.js";
import { saveToken } from "./tokens.js";

// Time controls as lichess shows them: minutes+increment, a per-move limit, or none.
export const PRESETS = [
  { label: "1 min", type: "match", seconds: 60 },
  { label: "3+2", type: "incremental", seconds: 180, increment: 2 },
  { label: "5+3", type: "incremental", seconds: 300, increment: 3 },
  { label: "10+5", type: "incremental", seconds: 600, increment: 5 },
  { label: "15+10", type: "incremental", seconds: 900, increment: 10 },
  { label: "30 s a move", type: "turn", seconds: 30 },
  { label: "No clock", type: "none" },
];
// a game's default: a few minutes for a short game, more for the long thinking of Hex and Hive
const DEFAULT_PRESET = { tictactoe: "1 min", numberwang: "1 min", hexdots: "5+3", htttx: "5+3", hex: "10+5", hive: "10+5" };

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
  // lichess-style clock presets, one of them each game's default; the fields below stay for any other clock
  const presetBox = h("div.presets#clock-presets", { role: "group", "aria-label": "clock presets" },
    PRESETS.map((p) => h("button.secondary.preset", { type: "button", "aria-pressed": "false", dataset: { preset: p.label },
      onclick: () => usePreset(p) }, p.label)));
  function usePreset(p) {
    clockType.value = p.type;
    if (p.seconds !== undefined) clockSecs.value = p.seconds;
    if (p.increment !== undefined) clockInc.value = p.increment;
    syncClock();
  }
  const msg = h("p.msg");
  const createBtn = h("button#create", { type: "submit" }, "Create match");
  const form = h("form.panel",
    h("h2", "New match"),
    h("label", h("span", "Game"), gameSel),
    paramsBox,
    h("div.label", h("span.muted", "Time control"), presetBox),
    h("label", h("span", "Clock"), clockType),
    h("label.clock-seconds", h("span", "Seconds"), clockSecs),
    h("label.clock-increment", h("span", "Increment (s)"), clockInc),
    seatsBox,
    createBtn, msg);
  const liveBox = h("div.tablewrap");
  // Who can sit in a seat, in plain words; the exact spec syntax (for the API and the command line) is folded away.
  const playerHelp = h("div#player-help.muted",
    h("p", "Each seat is played by one of these:"),
    h("ul",
      h("li", h("strong", "Me"), ": you play on this page."),
      h("li", h("strong", "Open seat"), ": for a friend: the game page gives you a link to send them (anyone in this lobby can join it too)."),
      h("li", h("strong", "Built-in bot"), ": a computer player that runs on this server."),
      h("li", h("strong", "Bot URL"), " (HTTTX): your own bot program, reached at its web address; it must be running."),
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
      const p = PRESETS.find((x) => x.label === b.dataset.preset);
      const same = p.type === now.type && (p.type === "none" || p.seconds === now.seconds)
        && (p.type !== "incremental" || p.increment === now.increment);
      b.setAttribute("aria-pressed", String(same));
    }
  }
  for (const el of [clockType, clockSecs, clockInc]) el.addEventListener("input", syncClock);
  clockType.addEventListener("change", syncClock);

  function paramInput(p) {
    const id = `param-${p.name}`;
    let input;
    if (p.type === "bool") {
      input = h("input", { type: "checkbox", id, name: p.name, checked: !!p.default });
    } else if (p.choices) {
      input = h("select", { id, name: p.name }, p.choices.map((c) => h("option", { value: c, selected: c === p.default }, c === "" ? "(none)" : c)));
    } else {
      input = h("input", { id, name: p.name, type: p.type === "int" || p.type === "float" ? "number" : "text",
        min: p.minimum ?? undefined, max: p.maximum ?? undefined, step: p.type === "int" ? 1 : "any",
        value: p.default ?? "", placeholder: p.nullable ? "none" : undefined, style: "width:7rem" });
    }
    input.dataset.param = p.name;
    input.dataset.type = p.type;
    input.dataset.nullable = p.nullable ? "1" : "";
    return h("label", { title: p.help }, h("span", p.name.replace(/_/g, " ")), input, " ", h("small.muted", p.help));
  }

  function seatInput(game, i) {
    const bots = game.builtin_bots || [];
    const kind = h("select", { id: `seat${i}-kind` },
      h("option", { value: "you" }, "Me (play here)"),
      h("option", { value: "open" }, "Open seat (someone joins)"),
      bots.map((b) => h("option", { value: `builtin:${b}` }, `Built-in bot: ${b}`)),
      engines.map((e) => h("option", { value: `engine:${e}` }, `Engine: ${e}`)),
      game.name === "htttx" ? [h("option", { value: "bws" }, "Bot URL (bws)"), h("option", { value: "stateless" }, "Bot URL (stateless)")] : null,
      h("option", { value: "spec" }, "Other player spec…"));
    if (i === 1 && bots.length) kind.value = `builtin:${bots.includes("random") ? "random" : bots[0]}`;
    const extra = h("input", { id: `seat${i}-extra`, type: "text", style: "width:16rem" });
    const extraLabel = h("label", h("span", ""), extra);
    function sync() {
      const v = kind.value;
      extraLabel.hidden = false;
      if (v === "you" || v === "open") { extraLabel.firstChild.textContent = "Name"; extra.placeholder = "human"; }
      else if (v === "bws" || v === "stateless") { extraLabel.firstChild.textContent = "Bot URL"; extra.placeholder = "http://127.0.0.1:8765/capabilities.json"; }
      else if (v === "spec") { extraLabel.firstChild.textContent = "Spec"; extra.placeholder = "engine:NAME (registered with --engine)"; }
      else extraLabel.hidden = true;
      // the name this browser keeps for its person, for "Me" only (never left in another kind's field)
      if (v === "you" && !extra.value) extra.value = personName();
      else if (v !== "you" && extra.value && extra.value === personName()) extra.value = "";
    }
    kind.addEventListener("change", sync);
    sync();
    return { el: h("fieldset", { style: "border:1px solid var(--line);border-radius:6px;margin:.5rem 0" },
      h("legend", `Seat ${i + 1}: ${game.seats[i]}`), h("label", h("span", "Player"), kind), extraLabel), kind, extra };
  }

  let seatInputs = [];
  function syncGame() {
    const game = byName[gameSel.value];
    paramsBox.replaceChildren(...game.params.map(paramInput));
    seatInputs = [seatInput(game, 0), seatInput(game, 1)];
    seatsBox.replaceChildren(...seatInputs.map((s) => s.el));
    usePreset(PRESETS.find((p) => p.label === (DEFAULT_PRESET[game.name] || "5+3")));
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
    if (v === "bws" || v === "stateless") { if (!x) throw new Error("enter the bot's URL"); return `${v}:${x}`; }
    if (v === "spec") { if (!x) throw new Error("enter a player spec"); return x; }
    return v;
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    msg.className = "msg";
    msg.textContent = "";
    const game = byName[gameSel.value];
    const params = {};
    for (const input of paramsBox.querySelectorAll("[data-param]")) {
      const t = input.dataset.type;
      if (t === "bool") params[input.dataset.param] = input.checked;
      else if (input.value === "" && input.dataset.nullable) params[input.dataset.param] = null;
      else if (t === "int") params[input.dataset.param] = parseInt(input.value, 10);
      else if (t === "float") params[input.dataset.param] = parseFloat(input.value);
      else params[input.dataset.param] = input.value;
    }
    const clock = { type: clockType.value };
    if (clock.type !== "none") clock.seconds = parseFloat(clockSecs.value);
    if (clock.type === "incremental") clock.increment = parseFloat(clockInc.value);
    try {
      const players = seatInputs.map(specOf);
      createBtn.disabled = true;
      const res = await postJSON("/api/matches", { game: game.name, params, players, clock });
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
      const res = await postJSON(`/api/ui/matches/${id}/join`, { seat });
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
