// A Hive engine for the Universal Hive Protocol (UHP), base game only: started as `node hive.js`, commands on stdin,
// every answer ends with a line `ok`.
//
// Commands: info, newgame [Base | GameString], play MoveString, pass, validmoves, bestmove [time|depth ...],
// undo [N], options, exit.
//
// The rules (the UHP/Mzinga conventions hexarena uses): the queen may not enter on a player's first turn and must by
// the fourth; nothing moves before its own queen is down; a move may not split the hive; ground moves slide through
// gaps (never between two pieces) while keeping contact; beetles climb, through gates no higher than where they go.
//
// Strategy (bestmove): a move that surrounds their queen; else never one that lets them surround ours next turn;
// else the move that puts the most pieces around their queen and the fewest around ours.

"use strict";

const readline = require("readline");

const NAME = "node-starter-hive";
const VERSION = "0.1.0";
const COUNTS = { Q: 1, S: 2, B: 2, G: 3, A: 3 };
// Directions, with how a MoveString writes "the new place is on this side of the reference piece".
const DIRS = [
  { dq: 1, dr: 0, write: (ref) => `${ref}-` },
  { dq: 0, dr: 1, write: (ref) => `${ref}\\` },
  { dq: -1, dr: 1, write: (ref) => `/${ref}` },
  { dq: -1, dr: 0, write: (ref) => `-${ref}` },
  { dq: 0, dr: -1, write: (ref) => `\\${ref}` },
  { dq: 1, dr: -1, write: (ref) => `${ref}/` },
];

const key = (q, r) => `${q},${r}`;
const cellOf = (k) => k.split(",").map(Number);
const neighbours = (k) => {
  const [q, r] = cellOf(k);
  return DIRS.map((d) => key(q + d.dq, r + d.dr));
};

// ---------------------------------------------------------------- the position

class Position {
  constructor() {
    this.stacks = new Map(); // "q,r" -> pieces bottom to top, e.g. ["wQ", "bB1"]
    this.where = new Map(); // piece -> "q,r"
    this.moves = []; // MoveStrings played, "pass" included
  }

  clone() {
    const copy = new Position();
    for (const [k, s] of this.stacks) copy.stacks.set(k, [...s]);
    copy.where = new Map(this.where);
    copy.moves = [...this.moves];
    return copy;
  }

  get colour() {
    return this.moves.length % 2 === 0 ? "w" : "b";
  }

  get turn() {
    return Math.floor(this.moves.length / 2) + 1; // the player to move's turn number
  }

  height(k) {
    return (this.stacks.get(k) || []).length;
  }

  top(k) {
    const s = this.stacks.get(k);
    return s && s.length ? s[s.length - 1] : null;
  }

  put(piece, k) {
    if (!this.stacks.has(k)) this.stacks.set(k, []);
    this.stacks.get(k).push(piece);
    this.where.set(piece, k);
  }

  lift(piece) {
    const k = this.where.get(piece);
    const s = this.stacks.get(k);
    s.pop();
    if (s.length === 0) this.stacks.delete(k);
    this.where.delete(piece);
    return k;
  }

  surrounded(colour) {
    const k = this.where.get(`${colour}Q`);
    return k !== undefined && neighbours(k).every((n) => this.stacks.has(n));
  }

  // "InProgress", "WhiteWins", "BlackWins", "Draw" (or "NotStarted").
  state() {
    if (this.moves.length === 0) return "NotStarted";
    const w = this.surrounded("w");
    const b = this.surrounded("b");
    if (w && b) return "Draw";
    if (w) return "BlackWins";
    if (b) return "WhiteWins";
    return "InProgress";
  }

  gameString() {
    const turn = `${this.colour === "w" ? "White" : "Black"}[${this.turn}]`;
    return ["Base", this.state(), turn, ...this.moves].join(";");
  }

  // ------------------------------------------------------------ legal moves: [{piece, to: "q,r"}] (to null: pass)

  legalMoves() {
    if (this.state() !== "InProgress" && this.state() !== "NotStarted") return [];
    const me = this.colour;
    const out = this.placements(me);
    if (this.where.has(`${me}Q`)) {
      for (const [piece, k] of [...this.where]) { // (a copy: destinations() lifts and puts pieces back)
        if (piece[0] === me && this.top(k) === piece) {
          for (const to of this.destinations(piece)) out.push({ piece, to });
        }
      }
    }
    return out.length ? out : [{ piece: null, to: null }];
  }

  placements(me) {
    const queenDown = this.where.has(`${me}Q`);
    let bugs = [];
    for (const [bug, n] of Object.entries(COUNTS)) {
      for (let i = 1; i <= n; i++) {
        const piece = bug === "Q" ? `${me}Q` : `${me}${bug}${i}`;
        if (!this.where.has(piece)) {
          bugs.push(piece); // only the lowest-numbered bug of each kind enters next
          break;
        }
      }
    }
    if (this.turn === 1) bugs = bugs.filter((p) => p !== `${me}Q`);
    if (this.turn === 4 && !queenDown) bugs = [`${me}Q`];
    let cells;
    if (this.stacks.size === 0) cells = [key(0, 0)];
    else if (this.stacks.size === 1) cells = neighbours([...this.stacks.keys()][0]);
    else {
      cells = new Set();
      for (const [k] of this.stacks) {
        if (this.top(k)[0] !== me) continue;
        for (const n of neighbours(k)) {
          if (!this.stacks.has(n) && neighbours(n).every((m) => !this.stacks.has(m) || this.top(m)[0] === me)) {
            cells.add(n);
          }
        }
      }
      cells = [...cells];
    }
    const out = [];
    for (const piece of bugs) for (const to of cells) out.push({ piece, to });
    return out;
  }

  // True if the hive stays in one piece without `k`'s top piece (only matters when it stands alone).
  canLeave(k) {
    if (this.height(k) > 1) return true;
    const rest = [...this.stacks.keys()].filter((c) => c !== k);
    const seen = new Set([rest[0]]);
    const todo = [rest[0]];
    while (todo.length) {
      for (const n of neighbours(todo.pop())) {
        if (n !== k && this.stacks.has(n) && !seen.has(n)) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
    return seen.size === rest.length;
  }

  // The two cells beside the step from a to b (its neighbours in common).
  static gates(a, b) {
    const nb = new Set(neighbours(b));
    return neighbours(a).filter((n) => nb.has(n));
  }

  // One ground step a -> b (b empty): through a gap, never losing contact with the hive.
  canSlide(a, b) {
    if (this.stacks.has(b)) return false;
    const [g1, g2] = Position.gates(a, b);
    return this.stacks.has(g1) !== this.stacks.has(g2);
  }

  destinations(piece) {
    const from = this.where.get(piece);
    if (!this.canLeave(from)) return [];
    const bug = piece[1];
    this.lift(piece); // look at the hive without the moving piece
    let out;
    if (bug === "Q") out = neighbours(from).filter((n) => this.canSlide(from, n));
    else if (bug === "B") out = this.beetleSteps(from);
    else if (bug === "G") out = this.jumps(from);
    else if (bug === "S") out = this.walks(from, 3);
    else out = this.walks(from, Infinity);
    this.put(piece, from);
    return out;
  }

  beetleSteps(from) {
    const out = [];
    const level = this.height(from);
    for (const to of neighbours(from)) {
      const [g1, g2] = Position.gates(from, to);
      const target = this.height(to);
      if (level === 0 && target === 0) {
        if (this.canSlide(from, to)) out.push(to);
      } else if (Math.min(this.height(g1), this.height(g2)) <= Math.max(level, target)) {
        out.push(to);
      }
    }
    return out;
  }

  jumps(from) {
    const out = [];
    const [q, r] = cellOf(from);
    for (const d of DIRS) {
      let n = 1;
      while (this.stacks.has(key(q + d.dq * n, r + d.dr * n))) n++;
      if (n > 1) out.push(key(q + d.dq * n, r + d.dr * n));
    }
    return out;
  }

  // Cells reached by exactly `steps` slides without going back over a cell (spider), or by any number (ant).
  walks(from, steps) {
    const ends = new Set();
    const go = (at, path, left) => {
      if (left === 0) {
        ends.add(at);
        return;
      }
      for (const n of neighbours(at)) {
        if (!path.has(n) && this.canSlide(at, n)) {
          path.add(n);
          go(n, path, left - 1);
          path.delete(n);
        }
      }
    };
    if (steps !== Infinity) go(from, new Set([from]), steps);
    else {
      const seen = new Set([from]);
      const todo = [from];
      while (todo.length) {
        const at = todo.pop();
        for (const n of neighbours(at)) {
          if (!seen.has(n) && this.canSlide(at, n)) {
            seen.add(n);
            ends.add(n);
            todo.push(n);
          }
        }
      }
    }
    ends.delete(from);
    return [...ends];
  }

  // ------------------------------------------------------------ MoveStrings

  write(move) {
    if (move.piece === null) return "pass";
    if (this.stacks.size === 0) return move.piece;
    if (this.stacks.has(move.to) && this.top(move.to) !== move.piece) return `${move.piece} ${this.top(move.to)}`;
    const [q, r] = cellOf(move.to);
    for (const d of DIRS) {
      const ref = this.top(key(q - d.dq, r - d.dr));
      if (ref !== null && ref !== move.piece) return `${move.piece} ${d.write(ref)}`;
      // the moving piece can't be its own reference, but the piece it stands on can
      const s = this.stacks.get(key(q - d.dq, r - d.dr));
      if (s && s.length > 1 && ref === move.piece) return `${move.piece} ${d.write(s[s.length - 2])}`;
    }
    throw new Error(`no reference piece next to ${move.to}`);
  }

  // The legal move a MoveString names, or throws with the reason.
  read(text) {
    const legal = this.legalMoves();
    const found = legal.find((m) => this.write(m) === text || this.same(m, text));
    if (!found) throw new Error(`${text} is not a legal move here`);
    return found;
  }

  // Whether `text` names move `m` with another reference piece than the one `write` picks.
  same(m, text) {
    if (m.piece === null) return text === "pass";
    const [piece, where] = text.split(" ");
    if (piece !== m.piece) return false;
    if (where === undefined) return this.stacks.size === 0;
    const match = /^([-/\\]?)(w|b)([QSBGA][1-3]?)([-/\\]?)$/.exec(where);
    if (!match) return false;
    const ref = this.where.get(match[2] + match[3]);
    if (ref === undefined) return false;
    if (!match[1] && !match[4]) return ref === m.to;
    const [q, r] = cellOf(ref);
    return DIRS.some((d) => d.write(match[2] + match[3]) === where && key(q + d.dq, r + d.dr) === m.to);
  }

  // Play `move`; the record keeps `text` (the MoveString as the host wrote it) when given.
  play(move, text = this.write(move)) {
    if (move.piece !== null) {
      if (this.where.has(move.piece)) this.lift(move.piece);
      this.put(move.piece, move.to);
    }
    this.moves.push(text);
  }
}

// ---------------------------------------------------------------- choosing a move

function occupiedAround(pos, colour) {
  const k = pos.where.get(`${colour}Q`);
  return k === undefined ? 0 : neighbours(k).filter((n) => pos.stacks.has(n)).length;
}

function bestMove(pos) {
  const me = pos.colour;
  const them = me === "w" ? "b" : "w";
  let best = null;
  let bestScore = -Infinity;
  for (const move of pos.legalMoves()) {
    const after = pos.clone();
    after.play(move);
    let score;
    if (after.surrounded(them) && !after.surrounded(me)) score = 1e9; // we win
    else if (after.surrounded(me)) score = -1e9; // we lose (or draw)
    else if (occupiedAround(after, me) === 5 && after.legalMoves().some((reply) => winsFor(after, reply, them))) {
      score = -1e8; // they would surround our queen next turn
    } else {
      score = 10 * occupiedAround(after, them) - 12 * occupiedAround(after, me) + Math.random();
    }
    if (score > bestScore) {
      best = move;
      bestScore = score;
    }
  }
  return pos.write(best);
}

function winsFor(pos, move, colour) {
  const other = colour === "w" ? "b" : "w";
  const copy = pos.clone();
  copy.play(move);
  return copy.surrounded(other) && !copy.surrounded(colour);
}

// ---------------------------------------------------------------- the protocol

// A position from a GameString (or "Base"); throws on expansions or a bad move.
function replay(gameString) {
  const parts = gameString.split(";");
  if (parts[0] !== "Base") throw new Error(`only the base game is supported, not ${parts[0]}`);
  const pos = new Position();
  for (const text of parts.slice(3)) pos.play(pos.read(text), text);
  return pos;
}

function main() {
  let game = replay("Base");
  const say = (...lines) => process.stdout.write(lines.map((l) => `${l}\n`).join("") + "ok\n");
  say(`id ${NAME} ${VERSION}`);
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  input.on("line", (line) => {
    const [cmd, ...args] = line.trim().split(/\s+/);
    const arg = args.join(" ");
    try {
      if (!cmd) return;
      if (cmd === "info") say(`id ${NAME} ${VERSION}`);
      else if (cmd === "newgame") {
        game = replay(arg || "Base");
        say(game.gameString());
      } else if (cmd === "play" || cmd === "pass") {
        let move;
        try {
          move = game.read(cmd === "pass" ? "pass" : arg);
        } catch (err) {
          say(`invalidmove ${err.message}`);
          return;
        }
        game.play(move, cmd === "pass" ? "pass" : arg);
        say(game.gameString());
      } else if (cmd === "validmoves") say(game.legalMoves().map((m) => game.write(m)).join(";"));
      else if (cmd === "bestmove") say(bestMove(game));
      else if (cmd === "undo") {
        const n = Number(args[0] || 1);
        game = replay(["Base", "", "", ...game.moves.slice(0, Math.max(0, game.moves.length - n))].join(";"));
        say(game.gameString());
      } else if (cmd === "options") say();
      else if (cmd === "exit") process.exit(0);
      else say(`err unknown command ${cmd}`);
    } catch (err) {
      say(`err ${err.message}`);
    }
  });
  input.on("close", () => process.exit(0));
}

main();
