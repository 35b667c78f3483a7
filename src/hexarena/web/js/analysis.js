// The analysis board (#/analysis/GAME): any position of any game, with the built-in best bot's evaluation, best
// line and considered moves, and variations played on the board.
//
// Where a position comes from: a live game or a replay at the ply shown there (?from=GAME_ID&ply=N, the pages'
// Analyse buttons), a line of moves (?line=[JSON list]&params={JSON}&ply=N, this page's own links), a game record
// or moves pasted in the game's notation, a start of one's chosen parameters where the person plays both sides, or
// a position set up stone by stone (?setup={stones, to_move}: the Edit position mode, for games whose GET /api/games
// entry says setup.supported; the others say why and get no editor).
// Every move is checked by the server's rules (POST /api/analysis/GAME/position), never by this page; the moves
// form a tree: the main line (the game, or the first line played), and variations branching off it, each move a
// button. The bot's view comes from POST /api/analysis/GAME for the position shown. This page names no game: the
// board, its moves' spelling and its partial-move checks (probes) are the board module's.

import { getJSON, postJSON, h, SCROLL_BOX, copyButton } from "./api.js";
import { makeBoard, gamesMeta } from "./boards/index.js";
import { moveList as makeMoveList } from "./movelist.js";
import { paramInput, paramsOf } from "./params.js";

// what the server replays in one request (server/analysis_board.py MAX_MOVES): a longer game opens at its start
const MAX_MOVES = 1000;
const THINK_KEY = "hexarena.analysisSeconds";
const AUTO_KEY = "hexarena.analysisAuto";

/** The page's link to a line of moves of `game` (what the Link button and the replay's Analyse give). */
export function analysisLink(game, params, moves, ply = moves.length, setup = null) {
  const q = new URLSearchParams();
  if (params && Object.keys(params).length) q.set("params", JSON.stringify(params));
  if (setup) q.set("setup", JSON.stringify({ stones: setup.stones, to_move: setup.to_move }));
  if (moves.length) q.set("line", JSON.stringify(moves));
  if (ply !== moves.length) q.set("ply", String(ply));
  const qs = q.toString();
  return `#/analysis/${encodeURIComponent(game)}${qs ? `?${qs}` : ""}`;
}

export async function analysisPage(app, { args, params: query }) {
  const games = await gamesMeta();
  if (!args[0]) {  // no game chosen: which one
    app.append(h("h1", "Analysis board"),
      h("div.panel", h("p", "Choose a game to set up a position and see what the built-in best bot makes of it:"),
        h("ul", games.map((g) => h("li", h("a", { href: `#/analysis/${encodeURIComponent(g.name)}` }, g.title))))));
    return null;
  }
  const meta = games.find((g) => g.name === args[0]);
  if (!meta) {
    app.append(h("h1", "Analysis board"), h("p.error", `No game ${JSON.stringify(args[0])} on this server.`),
      h("p", h("a", { href: "#/analysis" }, "Choose a game")));
    return null;
  }
  const game = meta.name;
  const api = `/api/analysis/${encodeURIComponent(game)}`;

  // ----- where the position comes from -----
  let params = {};
  let setup = null;  // a set-up position the moves start from, or none (the game's start)
  let line = [];
  let startPly = null;
  let origin = null;  // a sentence on where the main line comes from
  try {
    if (query.get("params")) params = JSON.parse(query.get("params"));
    if (query.get("line")) line = JSON.parse(query.get("line"));
    if (query.get("setup")) setup = JSON.parse(query.get("setup"));
    if (setup && (typeof setup !== "object" || !Array.isArray(setup.stones))) throw new Error("setup must be {stones, to_move}");
    if (!Array.isArray(line) || line.some((m) => typeof m !== "string")) throw new Error("line must be a list of moves");
  } catch (e) {
    app.append(h("h1", `Analysis: ${meta.title}`), h("p.error", `This link's position does not read (${e.message}).`),
      h("p", h("a", { href: `#/analysis/${encodeURIComponent(game)}` }, "Start from the beginning")));
    return null;
  }
  if (query.get("ply") !== null) startPly = Math.max(0, parseInt(query.get("ply"), 10) || 0);
  const from = query.get("from");
  if (from) {
    const rec = await getJSON(`/api/ui/replay/${encodeURIComponent(from)}`);
    if (rec.game !== game) throw new Error(`game ${from.slice(0, 8)} is ${rec.game}, not ${game}`);
    params = rec.params || {};
    line = rec.moves.map((m) => m.move);
    origin = h("a", { href: `#/replay/${encodeURIComponent(from)}` }, `game ${from.slice(0, 8)}`);
  }
  if (line.length > MAX_MOVES) {
    line = line.slice(0, MAX_MOVES);
    origin = [origin, ` (its first ${MAX_MOVES} moves: the analysis replays no more)`];
  }
  let first;
  try {
    first = await postJSON(`${api}/position`, { params, moves: line, ...(setup ? { setup } : {}) });
  } catch (e) {
    app.append(h("h1", `Analysis: ${meta.title}`), h("p.error", `This position does not play: ${e.message}`),
      h("p", h("a", { href: `#/analysis/${encodeURIComponent(game)}` }, "Start from the beginning")));
    return null;
  }
  params = first.params;
  const from0 = (more) => ({ params, ...(setup ? { setup } : {}), ...more });  // every request's start
  if (setup) origin = origin ?? "played from a set-up position";
  const seats = first.seats;
  const board = await makeBoard(game, params);
  board.setViewer?.(new Set([0, 1]));  // the person plays both sides here

  // ----- the tree of moves -----
  let nextId = 0;
  const makeNode = (parent, move, seat, main) =>
    ({ id: nextId++, parent, move, seat, main, children: [], view: null, analysis: null, el: null });
  const root = makeNode(null, null, null, true);
  const mainNodes = [root];
  for (const m of first.history) {
    const n = makeNode(mainNodes.at(-1), m.move, m.seat, true);
    mainNodes.at(-1).children.push(n);
    mainNodes.push(n);
  }
  mainNodes.at(-1).view = first;
  const pathOf = (n) => { const out = []; for (let x = n; x.parent; x = x.parent) out.push(x.move); return out.reverse(); };
  const plyOf = (n) => { let d = 0; for (let x = n; x.parent; x = x.parent) d++; return d; };
  let current = root;

  // ----- the page -----
  const msg = h("p.msg#msg", { role: "status", "aria-live": "polite" });
  function say(text, kind = "info") { msg.className = `msg ${kind}`; msg.textContent = text; }
  const show = (text, state) => board.showMove?.(text, state) ?? text;
  const btn = (id, text, title, fn) => h(`button.secondary#${id}`, { type: "button", title, "aria-label": title, onclick: fn }, text);
  const firstBtn = btn("first", "|◀", "start position", () => goTo(root));
  const backBtn = btn("back", "◀", "back one move", () => current.parent && goTo(current.parent));
  const fwdBtn = btn("forward", "▶", "forward one move", () => current.children[0] && goTo(current.children[0]));
  const lastBtn = btn("last", "▶|", "end of this line", () => goTo(endOf(current)));
  const mainBtn = h("button#mainline", { type: "button", hidden: true, onclick: () => goTo(mainPoint(current)) }, "Back to the main line");
  const plyLabel = h("span#plylabel.badge", "");
  const boardBox = h("div.boardbox", board.el);

  const evalBar = h("div.evalbar", { title: `evaluation: left favours ${seats[0]}` }, h("div", { style: "width:50%" }));
  const evalText = h("div.muted#evaltext", { style: "font-size:.85rem" }, "");
  const bestMove = h("p#bestmove", "");
  const pvList = h("ol#pv.pv");
  const considered = h("div.considered#considered");
  const notes = h("p.muted#notes", { style: "font-size:.85rem" });
  const thinkSel = h("select#think", { "aria-label": "thinking time" },
    [["0.5", "half a second"], ["1", "1 second"], ["2", "2 seconds"], ["5", "5 seconds"], ["10", "10 seconds"]]
      .map(([v, t]) => h("option", { value: v }, t)));
  try { thinkSel.value = localStorage.getItem(THINK_KEY) || "1"; } catch { thinkSel.value = "1"; }
  if (!thinkSel.value) thinkSel.value = "1";
  const autoBox = h("input#auto", { type: "checkbox" });
  try { autoBox.checked = localStorage.getItem(AUTO_KEY) !== "0"; } catch { autoBox.checked = true; }
  const analyseBtn = h("button#analyse", { type: "button" }, "Analyse this position");

  const moves = makeMoveList(board, { onPick: (p) => goTo(mainNodes[p]) });
  const variations = h("div#variations");
  const lineText = h("textarea.notation#line", { readonly: true });
  const linkA = h("a#position-link", { href: "#" }, "Link to this position");
  const recordBox = h("textarea.notation#record", { "aria-label": "a game record or moves to analyse",
    placeholder: "Paste a game record in this game's notation, or its moves one after another" });
  const loadBtn = h("button#load", { type: "button" }, "Analyse this record");
  const paramsBox = h("div", meta.params.map((p) => paramInput(p, params[p.name])));

  // the position editor: a cell the board reports a click on cycles empty, seat 0's stone, seat 1's. A board
  // reports a click as a move (a cell's name, on boards whose moves are cells) or as the probe of a move's first
  // cell (its coordinates, on boards whose turn is several cells): either is the cell as the game's setup names
  // it. The server draws each step (a draft setup) and says what keeps it from being a position.
  const canSetUp = Boolean(meta.setup?.supported);
  const startView = !canSetUp ? null : (!line.length && !setup) ? first
    : await postJSON(`${api}/position`, { params }).catch(() => null);
  const editCells = startView?.legal && startView.legal.kind !== "none" ? startView.legal : null;
  const editBtn = h("button#edit-position", { type: "button", hidden: !editCells }, "Edit position");
  const toMoveSel = h("select#setup-to-move", seats.map((name, i) => h("option", { value: String(i) }, name)));
  const doneBtn = h("button#setup-done", { type: "button" }, "Done");
  const clearBtn = h("button.secondary#setup-clear", { type: "button" }, "Clear the board");
  const cancelBtn = h("button.secondary#setup-cancel", { type: "button" }, "Cancel");
  const editor = h("div#editor", { hidden: true },
    h("p.muted", { style: "font-size:.85rem" },
      `Click a cell, or press Enter on it, to cycle it: empty, ${seats[0]}, ${seats[1]}. Then choose who moves and press Done.`),
    h("div.controls", h("label", "Side to move ", toMoveSel), doneBtn, clearBtn, cancelBtn));
  const setupNote = canSetUp
    ? (editCells ? "" : h("p.muted#no-setup", { style: "font-size:.85rem" },
      "This board has no click editor: send a position's stones to the analysis API instead (see the guide)."))
    : h("p.muted#no-setup", { style: "font-size:.85rem" },
      `Positions of this game cannot be set up stone by stone: ${meta.setup?.reason ?? "it does not say why"}.`);
  const newBtn = h("button.secondary#new-board", { type: "button" }, "New board with these parameters");

  app.append(
    h("h1", `Analysis: ${meta.title}`),
    origin ? h("p.muted", "The main line is ", origin, ".") : "",  // (the DOM would write null as text)
    h("div.match",
      h("div",
        boardBox,
        h("div.controls", firstBtn, backBtn, fwdBtn, lastBtn, plyLabel, mainBtn),
        editor,
        msg),
      h("div",
        h("div.panel#eval-panel",
          h("h2", "Evaluation"), evalBar,
          // one box of a fixed height for what each answer fills in: the panel keeps its height as answers come and
          // go, so the panels under it (Set up's Load button) do not move under a pointer
          h("div.evalbody", { ...SCROLL_BOX, "aria-label": "evaluation, best line and considered moves" },
            evalText, bestMove,
            h("h2.sub", "Best line"), pvList,
            h("h2.sub", "Considered moves"), considered, notes),
          h("div.controls", h("label", "Think for ", thinkSel), h("label", autoBox, " every position"), analyseBtn)),
        h("div.panel",
          h("h2", "Moves"),
          h("div.moves", { ...SCROLL_BOX, "aria-label": "main line" }, moves.el),
          h("h2.sub", "Variations"), variations,
          h("h2.sub", h("label", { for: "line" }, "This position's record")), lineText,
          h("div.controls", copyButton(lineText), linkA)),
        h("div.panel",
          h("h2", "Set up"),
          h("p.muted", { style: "font-size:.85rem" }, "Paste a record, start a board and play both sides, or edit a position."),
          h("div.controls", editBtn), setupNote,
          recordBox, h("div.controls", loadBtn),
          h("details", h("summary", "Parameters"), paramsBox, h("div.controls", newBtn))))));

  moves.reset(first.history);
  thinkSel.addEventListener("change", () => { try { localStorage.setItem(THINK_KEY, thinkSel.value); } catch { /* this page only */ } });
  autoBox.addEventListener("change", () => {
    try { localStorage.setItem(AUTO_KEY, autoBox.checked ? "1" : "0"); } catch { /* this page only */ }
    if (autoBox.checked) analyse(current);
  });
  analyseBtn.addEventListener("click", () => analyse(current, true));
  loadBtn.addEventListener("click", async () => {
    const text = recordBox.value.trim();
    if (!text) { say("Paste a record or some moves first.", "illegal"); return; }
    try {
      const res = await postJSON(`${api}/position`, { params, record: text });
      location.hash = analysisLink(game, res.params, res.moves);
    } catch (e) { say(`That record does not play: ${e.message}`, "illegal"); }
  });
  newBtn.addEventListener("click", () => { location.hash = analysisLink(game, paramsOf(paramsBox), []); });

  // ----- editing a position -----
  let editing = null;  // the stones being set up, while the editor is open: the cell's JSON -> [cell, seat]
  let drafts = 0;  // the newest draw asked for (an older answer arriving late is dropped)
  const editSetup = () => ({ stones: [...editing.values()], to_move: Number(toMoveSel.value) });
  function cycle(cell) {
    if (!editing) return;
    const key = JSON.stringify(cell);
    const seat = editing.get(key)?.[1];
    if (seat === undefined) editing.set(key, [cell, 0]);
    else if (seat === 0) editing.set(key, [cell, 1]);
    else editing.delete(key);
    drawDraft();
  }
  const editIo = {
    move: cycle,
    async probe(_what, args) { cycle(args); return null; },  // null: the board drops the partial move
    say,
  };
  async function drawDraft() {
    const asked = ++drafts;
    let res;
    try { res = await postJSON(`${api}/position`, { params, setup: { ...editSetup(), draft: true } }); }
    catch (e) { say(e.message, "illegal"); return; }
    if (!editing || asked !== drafts) return;
    board.render(res.state, { seats });
    board.setTurn(editCells, editIo);
    if (res.problem) say(`Not a position to analyse yet: ${res.problem}.`, "illegal");
    else say(`${seats[Number(toMoveSel.value)]} to move: press Done to analyse this position.`, "info");
  }
  function startEdit() {
    // the position shown, as the game writes it in stones (its view's as_setup), else the set-up start, else empty
    const from = current.view?.as_setup ?? (current === root ? setup : null);
    editing = new Map((from?.stones ?? []).map(([cell, seat]) => [JSON.stringify(cell), [cell, seat]]));
    toMoveSel.value = String(from?.to_move ?? 0);
    clearTimeout(timer);
    for (const b of [firstBtn, backBtn, fwdBtn, lastBtn, analyseBtn]) b.disabled = true;
    editor.hidden = false;
    editBtn.hidden = true;
    pvList.replaceChildren(); considered.replaceChildren(); bestMove.textContent = ""; notes.textContent = "";
    evalText.textContent = "Editing a position: press Done to analyse it.";
    drawDraft();
    toMoveSel.focus();
  }
  // leaving: the position shown before the edit comes back (Cancel), or not (Done: the set-up's own page replaces
  // this one, and the old position's analysis shown meanwhile would read as the new one's)
  function stopEdit(restore = true) {
    editing = null;
    editor.hidden = true;
    editBtn.hidden = false;
    analyseBtn.disabled = false;
    if (restore) goTo(current);
  }
  editBtn.addEventListener("click", startEdit);
  toMoveSel.addEventListener("change", () => editing && drawDraft());
  clearBtn.addEventListener("click", () => { if (editing) { editing.clear(); drawDraft(); } });
  cancelBtn.addEventListener("click", () => { stopEdit(); editBtn.focus(); });
  doneBtn.addEventListener("click", async () => {
    if (!editing) return;
    const done = editSetup();
    try { await postJSON(`${api}/position`, { params, setup: done }); }
    catch (e) { say(`Cannot analyse this setup: ${e.message}`, "illegal"); return; }
    stopEdit(false);
    evalText.textContent = "";
    location.hash = analysisLink(game, params, [], 0, done);
  });

  // ----- moving around the tree -----
  function endOf(n) { while (n.children[0]) n = n.children[0]; return n; }
  function mainPoint(n) { while (!n.main) n = n.parent; return n; }

  async function viewOf(n) {
    if (!n.view) n.view = await postJSON(`${api}/position`, from0({ moves: pathOf(n) }));
    return n.view;
  }

  const io = {
    move(text) { play(text); },
    async probe(what, args) {
      try {
        const res = await postJSON(`${api}/probe`, from0({ moves: pathOf(current), what, args }));
        if (res.ok) return { type: "probe", ...res };
        say(`Illegal: ${res.reason}`, "illegal");
      } catch (e) { say(e.message, "illegal"); }
      return null;
    },
    say,
  };

  let shownId = -1;
  async function goTo(n) {
    if (!n || editing) return;
    current = n;
    let view;
    try { view = await viewOf(n); } catch (e) { say(e.message, "illegal"); return; }
    if (current !== n) return;  // a later step overtook this one
    shownId = n.id;
    app.dataset.ply = String(plyOf(n));
    board.render(view.state, { move: n.move, seats });
    board.setTurn(view.over ? null : view.legal, io);
    const style = board.seatStyle?.(view.state);
    const sideName = (seat) => style?.[seat]?.side ?? seats[seat];
    plyLabel.textContent = n.parent ? `move ${plyOf(n)}${n.main ? "" : " (variation)"}` : "start";
    mainBtn.hidden = n.main;
    backBtn.disabled = firstBtn.disabled = !n.parent;
    fwdBtn.disabled = lastBtn.disabled = !n.children.length;
    moves.mark(n.main ? plyOf(n) : 0);
    for (const el of app.querySelectorAll("#variations button[aria-current]")) el.removeAttribute("aria-current");
    n.el?.setAttribute("aria-current", "true");
    lineText.value = view.record ?? "";
    linkA.href = analysisLink(game, params, pathOf(n), undefined, setup);
    if (view.over) {
      const r = view.result;
      say(r ? `The game is over: ${r.winner === null ? "a draw" : `${sideName(r.winner)} wins`}${r.reason ? ` (${r.reason})` : ""}.` : "The game is over.", "info");
    } else {
      say(`${sideName(view.to_move)} to move: play a move on the board to try it.`, "info");
    }
    showAnalysis(n);
    if (autoBox.checked && !n.analysis) analyseSoon(n);
  }

  // a move of the person's: the child already there, else a new one the server checked
  async function play(text) {
    const from = current;
    board.setTurn(null);
    const known = from.children.find((c) => c.move === text);
    if (known) { goTo(known); return; }
    let res;
    try { res = await postJSON(`${api}/position`, from0({ moves: [...pathOf(from), text] })); }
    catch (e) {
      say(`Illegal: ${e.message.replace(/^move \d+ \([^)]*\) is not legal here: /, "")}`, "illegal");
      if (current === from && from.view && !from.view.over) board.setTurn(from.view.legal, io);
      return;
    }
    const last = res.history.at(-1);
    const child = addChild(from, last.move, last.seat);
    child.view = res;
    renderTree();
    goTo(child);
  }

  // a line of moves from `from` (the bot's best line, a considered move): one request checks it all
  async function playLine(from, line, upTo = line.length) {
    let res;
    try { res = await postJSON(`${api}/position`, from0({ moves: [...pathOf(from), ...line] })); }
    catch (e) { say(e.message, "illegal"); return; }
    let n = from;
    const start = plyOf(from);
    for (const m of res.history.slice(start)) n = addChild(n, m.move, m.seat);
    n.view = res;
    renderTree();
    let target = n;
    for (let i = line.length; i > upTo; i--) target = target.parent;
    goTo(target);
  }

  function addChild(parent, move, seat) {
    const known = parent.children.find((c) => c.move === move);
    if (known) return known;
    // playing on from the end of the main line extends it (a set-up position, a record that stops early)
    const main = parent.main && !parent.children.length;
    const child = makeNode(parent, move, seat, main);
    parent.children.push(child);
    if (main) { mainNodes.push(child); moves.add({ seat, move }); }
    return child;
  }

  // every variation as a line of move buttons, after the move it branches from; nested ones follow theirs
  function renderTree() {
    const items = [];
    function walk(n) {
      n.children.forEach((c, i) => {
        if (!c.main && (n.main || i > 0)) items.push(branch(c));
      });
      for (const c of n.children) walk(c);
    }
    function branch(start) {
      const buttons = [];
      for (let n = start; n; n = n.children[0]) {
        const ply = plyOf(n);
        const b = h("button.mv.linkish", { type: "button", onclick: () => goTo(n) }, `${ply}. ${show(n.move)}`);
        n.el = b;
        if (n === current) b.setAttribute("aria-current", "true");
        buttons.push(b, " ");
      }
      const after = start.parent.parent ? `after ${plyOf(start.parent)}. ${show(start.parent.move)}` : "from the start";
      return h("li", h("span.muted", `${after}: `), buttons);
    }
    walk(root);
    variations.replaceChildren(items.length ? h("ol.variations", items) : h("p.muted", "None yet: play a move on the board."));
  }

  // ----- the bot's view -----
  let timer = null;
  function analyseSoon(n) {
    clearTimeout(timer);
    timer = setTimeout(() => { if (current === n) analyse(n); }, 250);
  }

  async function analyse(n, asked = false) {
    if (n.view?.over) { showAnalysis(n); return; }
    if (n.analysis && !asked) { showAnalysis(n); return; }
    n.pending = true;
    if (current === n && !editing) showAnalysis(n);
    try {
      n.analysis = await postJSON(api, from0({ moves: pathOf(n), time_limit: parseFloat(thinkSel.value) }));
    } catch (e) {
      n.analysis = { error: e.message, busy: e.status === 429 };
    }
    n.pending = false;
    app.dataset.answers = String(Number(app.dataset.answers ?? 0) + 1);  // answers taken in, shown or not
    if (current !== n || editing) return;  // the edit's own text stays until Done or Cancel shows a position
    showAnalysis(n);
    if (n.analysis.busy && autoBox.checked) {  // others are analysing: ask again shortly
      n.analysis = null;
      setTimeout(() => { if (current === n) analyse(n); }, 2000);
    }
  }

  function showAnalysis(n) {
    const res = n.analysis;
    evalBar.firstChild.style.width = "50%";
    pvList.replaceChildren();
    considered.replaceChildren();
    bestMove.textContent = "";
    notes.textContent = "";
    if (n.view?.over) { evalText.textContent = "The game is over in this position."; return; }
    if (n.pending) { evalText.textContent = `The best bot is thinking (${thinkSel.selectedOptions[0].textContent})…`; return; }
    if (!res) { evalText.textContent = autoBox.checked ? "" : "Press Analyse to ask the best bot."; return; }
    if (res.error) { evalText.textContent = res.busy ? `${res.error} (asking again shortly)` : `No analysis: ${res.error}`; return; }
    const a = res.analysis;
    notes.textContent = (res.notes || []).map((t) => `${t.charAt(0).toUpperCase()}${t.slice(1)}.`).join(" ");
    if (!a) return;
    const ev = a.evaluation || {};
    const parts = [];
    if (typeof ev.heuristic === "number") {
      evalBar.firstChild.style.width = `${Math.max(0, Math.min(100, 50 + 50 * ev.heuristic))}%`;
      parts.push(`${ev.heuristic >= 0 ? "+" : ""}${ev.heuristic.toFixed(2)} (plus favours ${seats[0]})`);
    }
    const side = n.view?.side ?? "the side to move";
    const outcome = (word) => `${side} ${{ win: "wins", draw: "draws", loss: "loses" }[word] ?? word} with best play`;
    if (ev.proven) parts.push(outcome(ev.proven));
    const winIn = ev.win_in ?? null;
    if (winIn) parts.push(`${winIn > 0 ? seats[0] : seats[1]} wins in ${Math.abs(winIn)}`);
    if (ev.win_probability !== undefined) parts.push(`win chance ${(100 * ev.win_probability).toFixed(0)}% for ${side}`);
    if (ev.depth !== undefined) parts.push(`depth ${ev.depth}`);
    const searched = ev.nodes ?? ev.simulations;
    if (searched !== undefined) parts.push(`${Number(searched).toLocaleString()} ${ev.nodes !== undefined ? "nodes" : "simulations"}`);
    evalText.textContent = `${a.bot}: ${parts.join(", ") || "no evaluation"}${a.seconds !== undefined ? ` in ${a.seconds} s` : ""}`;
    bestMove.replaceChildren("Best move: ", h("strong", show(a.best_move)));
    pvList.replaceChildren(...a.pv.map((m, i) => h("li",
      h("button.mv.linkish", { type: "button", onclick: () => playLine(n, a.pv, i + 1) }, show(m)))));
    if (a.considered.length) {
      considered.replaceChildren(h("ol", a.considered.map((c) => {
        const e = c.evaluation || {};
        const score = [typeof e.heuristic === "number" ? `${e.heuristic >= 0 ? "+" : ""}${e.heuristic.toFixed(2)}` : null,
          e.proven ? `(${outcome(e.proven)})` : null].filter((x) => x !== null).join(" ");
        return h("li", h("button.mv.linkish", { type: "button", onclick: () => playLine(n, [c.move]) },
          `${show(c.move)}${score ? ` ${score}` : ""}`));
      })));
    }
  }

  const keys = (e) => {
    if (editing || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) || board.el.contains(e.target)) return;
    if (e.key === "ArrowLeft" && current.parent) goTo(current.parent);
    else if (e.key === "ArrowRight" && current.children[0]) goTo(current.children[0]);
    else if (e.key === "Home") goTo(root);
    else if (e.key === "End") goTo(endOf(current));
  };
  document.addEventListener("keydown", keys);
  renderTree();
  await goTo(mainNodes[Math.min(startPly ?? mainNodes.length - 1, mainNodes.length - 1)]);
  return () => { clearTimeout(timer); document.removeEventListener("keydown", keys); board.destroy?.(); };
}
