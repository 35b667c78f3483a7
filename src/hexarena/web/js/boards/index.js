// Board renderers by game. Each module exports make(params) -> board with:
//   board.el                      the element to insert (usually an <svg>)
//   board.render(state, info)     draw a position (info: {move, considerations, seats})
//   board.setTurn(legal, io)      enable clicks for the person to move (legal: server's clickable moves;
//                                 io: {move(text), probe(what, args), say(text, kind)}); setTurn(null) disables
//   board.premove?(handler, move) premoves, for games whose turn is one move (tic-tac-toe, Hex): while the
//                                 opponent thinks a click calls handler(move) instead of playing; `move` is the
//                                 queued one, drawn marked (data-premove); premove(null, null) turns it off.
//                                 A game whose turn is several moves (HTTTX's two stones, a dots player who moves
//                                 again after closing a hexagon) or whose moves depend on the opponent's reply
//                                 (Hive's pieces and their destinations) has none
//   board.startMoves?()           stones the rules place before the first move, for the move list
//   board.destroy?()              release listeners
// and the module may export `hint`: a sentence on how to make a move in its game, which the match page shows a
// person on their first game of it, or a function of the game's params returning it (a rule only some games
// have is told only to those); board.hint here, FALLBACK_HINT for a module without one.
// Which module draws which game is the game's own declaration (Game.board_module), carried by GET /api/games
// as the module's URL: this page names no game, so a plugin game brings its own board, and a game with none
// gets the generic one (its position as a table, its legal moves as buttons or a text box).

import { getJSON } from "../api.js";

// how to move on a board whose module says nothing of it (a plugin's own board)
const FALLBACK_HINT = "Make your move on the board when the page says it is your turn: a move the rules refuse is explained here.";

let meta = null;  // one GET /api/games per page load, shared by every board made on it

export function gamesMeta() {
  if (!meta) meta = getJSON("/api/games").catch((e) => { meta = null; throw e; });
  return meta;
}

export async function makeBoard(game, params) {
  const url = (await gamesMeta()).find((g) => g.name === game)?.board;
  let mod;
  try {
    mod = url ? await import(url) : null;
  } catch (e) {
    console.error(`the board of ${game} (${url}) did not load; showing the generic board`, e);
  }
  mod = mod || (await import("./generic.js"));
  const board = mod.make(params || {});
  board.hint = hintOf(mod, game, params || {});
  return board;
}

// the module's hint for a game with these params; a hint function that throws is the module's bug, not the page's
function hintOf(mod, game, params) {
  let said = mod.hint;
  if (typeof said === "function") {
    try {
      said = said(params);
    } catch (e) {
      console.error(`the board of ${game} gave no hint`, e);
    }
  }
  return typeof said === "string" && said ? said : FALLBACK_HINT;
}
