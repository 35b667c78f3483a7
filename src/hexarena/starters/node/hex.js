// A Hex bot for the UAIS protocol: started as `node hex.js black|white`, one message a line on stdin, one answer a
// line on stdout.
//
// Messages: init_board N, make_move (-> a cell such as "c4"), seto X (the opponent played X), sety X (we played X),
// unset X, swap (colours are exchanged), show_board, check_win (-> 1 we won, -1 they won, 0), quit.
//
// Strategy: for every empty cell, how many more stones would each side need to connect its edges if we played
// there (a shortest path where own stones cost 0 and empty cells 1)? Play where their need minus ours is largest.
// That wins when it can, blocks a one-move win, and otherwise shortens our path while lengthening theirs.

"use strict";

const readline = require("readline");

let colour = process.argv[2] === "white" ? "white" : "black";
let size = 11;
let board = new Map(); // "a1" -> "black" | "white"

const other = (c) => (c === "black" ? "white" : "black");
const name = (row, col) => `${String.fromCharCode(97 + row)}${col + 1}`;
const NEIGHBOURS = [[0, -1], [0, 1], [-1, 0], [-1, 1], [1, -1], [1, 0]];

// Stones `who` still needs to connect its edges (black: top to bottom rows, white: left to right columns).
function need(who) {
  const INF = 1e9;
  const dist = Array.from({ length: size }, () => new Array(size).fill(INF));
  const queue = []; // Dijkstra over a plain array: the board is small enough to scan for the nearest cell
  const cost = (r, c) => {
    const p = board.get(name(r, c));
    return p === undefined ? 1 : p === who ? 0 : INF;
  };
  for (let i = 0; i < size; i++) {
    const [r, c] = who === "black" ? [0, i] : [i, 0];
    const d = cost(r, c);
    if (d < dist[r][c]) {
      dist[r][c] = d;
      queue.push([r, c]);
    }
  }
  while (queue.length > 0) {
    let best = 0;
    for (let i = 1; i < queue.length; i++) {
      const [r, c] = queue[i];
      const [br, bc] = queue[best];
      if (dist[r][c] < dist[br][bc]) best = i;
    }
    const [r, c] = queue.splice(best, 1)[0];
    for (const [dr, dc] of NEIGHBOURS) {
      const nr = r + dr;
      const nc = c + dc;
      if (nr < 0 || nc < 0 || nr >= size || nc >= size) continue;
      const d = dist[r][c] + cost(nr, nc);
      if (d < dist[nr][nc]) {
        dist[nr][nc] = d;
        queue.push([nr, nc]);
      }
    }
  }
  let out = INF;
  for (let i = 0; i < size; i++) out = Math.min(out, who === "black" ? dist[size - 1][i] : dist[i][size - 1]);
  return out;
}

function winner() {
  for (const who of ["black", "white"]) if (need(who) === 0) return who;
  return null;
}

function chooseCell() {
  const centre = (size - 1) / 2;
  let best = null;
  let bestScore = -Infinity;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const cell = name(r, c);
      if (board.has(cell)) continue;
      board.set(cell, colour);
      const score = need(other(colour)) - need(colour) - 0.01 * (Math.abs(r - centre) + Math.abs(c - centre));
      board.delete(cell);
      if (score > bestScore) {
        best = cell;
        bestScore = score;
      }
    }
  }
  return best;
}

const say = (line) => process.stdout.write(`${line}\n`); // one write a line: nothing waits in a buffer

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (!cmd) return; // the central program sends blank lines
  switch (cmd) {
    case "init_board":
      size = Number(arg) || 11;
      board = new Map();
      break;
    case "make_move": {
      const cell = chooseCell();
      board.set(cell, colour);
      say(cell);
      break;
    }
    case "seto":
    case "sety":
      if (board.has(arg)) say("error");
      else board.set(arg, cmd === "sety" ? colour : other(colour));
      break;
    case "unset":
      board.delete(arg);
      break;
    case "swap":
      colour = other(colour);
      break;
    case "show_board": {
      let rows = "";
      for (let r = 0; r < size; r++) {
        for (let c = 0; c < size; c++) {
          const p = board.get(name(r, c));
          rows += p === undefined ? "." : p === "black" ? "B" : "W";
        }
        rows += "|";
      }
      say(rows);
      break;
    }
    case "check_win": {
      const won = winner();
      say(won === null ? 0 : won === colour ? 1 : -1);
      break;
    }
    case "quit":
      process.exit(0);
      break;
    default:
      say("error");
  }
});
lines.on("close", () => process.exit(0));
