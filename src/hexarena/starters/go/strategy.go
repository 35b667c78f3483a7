// How the bot picks its two stones. Edit this file to make the bot stronger; main.go speaks the protocol.
//
// A turn is two stones, placed one after the other:
//  1. win:   a line of WinDistance cells holding only our stones and at most as many empty cells as we have
//     stones left this turn -> fill it;
//  2. block: a line the opponent could complete next turn (at most 2 empty cells, none of ours) -> put a stone
//     on the cell that spoils the most such lines;
//  3. build: otherwise the cell whose lines hold the most of our stones (and a little: of theirs).
//
// Only cells near the stones are considered (within 2 steps, and never beyond ViewDistance), so each pick is quick.
package main

import (
	"math"
	"sort"
)

// Cell is an axial hex coordinate.
type Cell struct{ Q, R int }

// Board maps occupied cells to "x" or "o".
type Board map[Cell]string

// Rules are the match's distances (the game server may change them with a config packet).
type Rules struct{ ViewDistance, WinDistance int }

var axes = []Cell{{1, 0}, {0, 1}, {1, -1}}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func distance(a, b Cell) int {
	dq, dr := a.Q-b.Q, a.R-b.R
	return max3(abs(dq), abs(dr), abs(dq+dr))
}

func max3(a, b, c int) int {
	if b > a {
		a = b
	}
	if c > a {
		a = c
	}
	return a
}

// candidates are the empty cells within min(2, ViewDistance) steps of a stone: every one is a legal place.
// They are sorted so that the bot plays the same way every time on the same board.
func candidates(board Board, rules Rules) []Cell {
	reach := 2
	if rules.ViewDistance < reach {
		reach = rules.ViewDistance
	}
	seen := map[Cell]bool{}
	var out []Cell
	for stone := range board {
		for dq := -reach; dq <= reach; dq++ {
			for dr := -reach; dr <= reach; dr++ {
				c := Cell{stone.Q + dq, stone.R + dr}
				if distance(c, stone) > reach || seen[c] {
					continue
				}
				if _, taken := board[c]; !taken {
					seen[c] = true
					out = append(out, c)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Q != out[j].Q {
			return out[i].Q < out[j].Q
		}
		return out[i].R < out[j].R
	})
	return out
}

// line is one run of WinDistance cells: how many stones of each side, how many empty cells.
type line struct{ mine, theirs, empty int }

// linesThrough lists every line of `length` cells through c, counted for `me`.
func linesThrough(board Board, c Cell, length int, me string) []line {
	var out []line
	for _, axis := range axes {
		for back := 0; back < length; back++ {
			var l line
			for i := 0; i < length; i++ {
				at := Cell{c.Q + axis.Q*(i-back), c.R + axis.R*(i-back)}
				switch p, ok := board[at]; {
				case !ok:
					l.empty++
				case p == me:
					l.mine++
				default:
					l.theirs++
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// pickStone chooses one stone for `me`, with `left` stones (counting this one) still to place this turn.
func pickStone(board Board, me string, left int, rules Rules) Cell {
	cells := candidates(board, rules)
	// 1. Win: a line with none of theirs and no more empty cells than stones we still have.
	for _, c := range cells {
		for _, l := range linesThrough(board, c, rules.WinDistance, me) {
			if l.theirs == 0 && l.empty <= left {
				return c
			}
		}
	}
	// 2. Block: the cell on the most lines the opponent could finish next turn (two stones).
	block, blocked := Cell{}, 0
	for _, c := range cells {
		hits := 0
		for _, l := range linesThrough(board, c, rules.WinDistance, me) {
			if l.mine == 0 && l.empty <= 2 {
				hits++
			}
		}
		if hits > blocked {
			block, blocked = c, hits
		}
	}
	if blocked > 0 {
		return block
	}
	// 3. Build: lines that are still ours to complete count most, by how full they are.
	best, bestScore := cells[0], -1.0
	for _, c := range cells {
		score := 0.0
		for _, l := range linesThrough(board, c, rules.WinDistance, me) {
			if l.theirs == 0 {
				score += math.Pow(4, float64(l.mine))
			}
			if l.mine == 0 {
				score += math.Pow(2, float64(l.theirs))
			}
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// ChooseMove returns the turn for `me` on `board` (left as it was): two distinct legal cells.
func ChooseMove(board Board, me string, rules Rules) [2]Cell {
	first := pickStone(board, me, 2, rules)
	board[first] = me
	second := pickStone(board, me, 1, rules)
	delete(board, first)
	return [2]Cell{first, second}
}
