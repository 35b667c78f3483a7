// Board renderers by game. Each module exports make(params) -> board with:
//   board.el                      the element to insert (usually an <svg>)
//   board.render(state, info)     draw a position (info: {move, considerations, seats})
//   board.setTurn(legal, io)      enable clicks for the person to move (legal: server's clickable moves;
//                                 io: {move(text), probe(what, args), say(text, kind)}); setTurn(null) disables
//   board.startMoves?()           stones the rules place before the first move, for the move list
//   board.destroy?()              release listeners

const modules = {
  htttx: () => import("./htttx.js"),
  hex: () => import("./hex.js"),
  hexdots: () => import("./hexdots.js"),
  hive: () => import("./hive.js"),
  tictactoe: () => import("./tictactoe.js"),
  numberwang: () => import("./numberwang.js"),
};

export async function makeBoard(game, params) {
  const load = modules[game] || (() => import("./generic.js"));
  const mod = await load();
  return mod.make(params || {});
}
