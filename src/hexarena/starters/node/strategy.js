// How the bot picks its two stones. Edit this file to make the bot stronger; serve.js speaks the protocol.
//
// The board is a Map from "q,r" to "x" or "o". A turn is two stones, placed one after the other:
//   1. win:   a line of `winDistance` cells holding only our stones and at most as many empty cells as we have
//             stones left this turn -> fill it;
//   2. block: a line the opponent could complete next turn (at most 2 empty cells, none of ours) -> put a stone
//             on the cell that spoils the most such lines;
//   3. build: otherwise the cell whose lines hold the most of our stones (and a little: of theirs).
// Only cells near the stones are considered (within 2 steps, and never beyond `viewDistance`), so each pick is quick.

"use strict";

const AXES = [[1, 0], [0, 1], [1, -1]];

const key = (q, r) => `${q},${r}`;

function distance(aq, ar, bq, br) {
  const dq = aq - bq;
  const dr = ar - br;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}

// Empty cells within min(2, viewDistance) steps of a stone: every one of them is a legal place.
function candidates(board, viewDistance) {
  const reach = Math.min(2, viewDistance);
  const seen = new Set();
  const out = [];
  for (const k of board.keys()) {
    const [q, r] = k.split(",").map(Number);
    for (let dq = -reach; dq <= reach; dq++) {
      for (let dr = -reach; dr <= reach; dr++) {
        if (distance(0, 0, dq, dr) > reach) continue;
        const c = key(q + dq, r + dr);
        if (!board.has(c) && !seen.has(c)) {
          seen.add(c);
          out.push([q + dq, r + dr]);
        }
      }
    }
  }
  return out;
}

// Every line of `length` cells through (q, r): for each, how many stones of each side and which cells are empty.
function linesThrough(board, q, r, length) {
  const lines = [];
  for (const [aq, ar] of AXES) {
    for (let back = 0; back < length; back++) {
      const line = { x: 0, o: 0, empty: [] };
      for (let i = 0; i < length; i++) {
        const cq = q + aq * (i - back);
        const cr = r + ar * (i - back);
        const p = board.get(key(cq, cr));
        if (p === undefined) line.empty.push([cq, cr]);
        else line[p]++;
      }
      lines.push(line);
    }
  }
  return lines;
}

// One stone for `me`, with `left` stones (counting this one) still to place this turn.
function pickStone(board, me, left, rules) {
  const them = me === "x" ? "o" : "x";
  const length = rules.winDistance;
  const cells = candidates(board, rules.viewDistance);

  // 1. Win: a line with none of theirs and no more empty cells than stones we still have.
  for (const [q, r] of cells) {
    for (const line of linesThrough(board, q, r, length)) {
      if (line[them] === 0 && line.empty.length <= left) return [q, r];
    }
  }
  // 2. Block: the cell on the most lines the opponent could finish next turn (two stones).
  let block = null;
  let blocked = 0;
  for (const [q, r] of cells) {
    let hits = 0;
    for (const line of linesThrough(board, q, r, length)) {
      if (line[me] === 0 && line.empty.length <= 2) hits++;
    }
    if (hits > blocked) {
      block = [q, r];
      blocked = hits;
    }
  }
  if (block !== null) return block;
  // 3. Build: lines that are still ours to complete count most, by how full they are.
  let best = cells[0];
  let bestScore = -1;
  for (const [q, r] of cells) {
    let score = 0;
    for (const line of linesThrough(board, q, r, length)) {
      if (line[them] === 0) score += 4 ** line[me];
      if (line[me] === 0) score += 2 ** line[them];
    }
    if (score > bestScore) {
      best = [q, r];
      bestScore = score;
    }
  }
  return best;
}

// The turn for `me` on `board` (which is left as it was): two distinct legal cells, [[q, r], [q, r]].
function chooseMove(board, me, rules) {
  const first = pickStone(board, me, 2, rules);
  board.set(key(...first), me);
  const second = pickStone(board, me, 1, rules);
  board.delete(key(...first));
  return [first, second];
}

module.exports = { chooseMove, key };
