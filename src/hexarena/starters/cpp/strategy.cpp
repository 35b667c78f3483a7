// A turn is two stones, placed one after the other:
//   1. win:   a line of win_distance cells holding only our stones and at most as many empty cells as we have
//             stones left this turn -> fill it;
//   2. block: a line the opponent could complete next turn (at most 2 empty cells, none of ours) -> put a stone
//             on the cell that spoils the most such lines;
//   3. build: otherwise the cell whose lines hold the most of our stones (and a little: of theirs).
// Only cells near the stones are considered (within 2 steps, and never beyond view_distance), so each pick is quick.
#include "strategy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

namespace {

const Cell AXES[3] = {{1, 0}, {0, 1}, {1, -1}};

int distance(Cell a, Cell b) {
    int dq = a.first - b.first, dr = a.second - b.second;
    return std::max({std::abs(dq), std::abs(dr), std::abs(dq + dr)});
}

// Empty cells within min(2, view_distance) steps of a stone: every one is a legal place (in a fixed order).
std::vector<Cell> candidates(const Board& board, const Rules& rules) {
    int reach = std::min(2, rules.view_distance);
    std::set<Cell> out;
    for (const auto& [stone, side] : board) {
        for (int dq = -reach; dq <= reach; ++dq) {
            for (int dr = -reach; dr <= reach; ++dr) {
                Cell c{stone.first + dq, stone.second + dr};
                if (distance(c, stone) <= reach && !board.count(c)) out.insert(c);
            }
        }
    }
    return {out.begin(), out.end()};
}

// One run of win_distance cells: how many stones of each side, how many empty cells.
struct Line {
    int mine = 0, theirs = 0, empty = 0;
};

// Every line of `length` cells through c, counted for `me`.
std::vector<Line> lines_through(const Board& board, Cell c, int length, char me) {
    std::vector<Line> out;
    for (const Cell& axis : AXES) {
        for (int back = 0; back < length; ++back) {
            Line line;
            for (int i = 0; i < length; ++i) {
                Cell at{c.first + axis.first * (i - back), c.second + axis.second * (i - back)};
                auto it = board.find(at);
                if (it == board.end()) ++line.empty;
                else if (it->second == me) ++line.mine;
                else ++line.theirs;
            }
            out.push_back(line);
        }
    }
    return out;
}

// One stone for `me`, with `left` stones (counting this one) still to place this turn.
Cell pick_stone(const Board& board, char me, int left, const Rules& rules) {
    std::vector<Cell> cells = candidates(board, rules);
    // 1. Win: a line with none of theirs and no more empty cells than stones we still have.
    for (const Cell& c : cells)
        for (const Line& l : lines_through(board, c, rules.win_distance, me))
            if (l.theirs == 0 && l.empty <= left) return c;
    // 2. Block: the cell on the most lines the opponent could finish next turn (two stones).
    Cell block{};
    int blocked = 0;
    for (const Cell& c : cells) {
        int hits = 0;
        for (const Line& l : lines_through(board, c, rules.win_distance, me))
            if (l.mine == 0 && l.empty <= 2) ++hits;
        if (hits > blocked) block = c, blocked = hits;
    }
    if (blocked > 0) return block;
    // 3. Build: lines that are still ours to complete count most, by how full they are.
    Cell best = cells.front();
    double best_score = -1;
    for (const Cell& c : cells) {
        double score = 0;
        for (const Line& l : lines_through(board, c, rules.win_distance, me)) {
            if (l.theirs == 0) score += std::pow(4.0, l.mine);
            if (l.mine == 0) score += std::pow(2.0, l.theirs);
        }
        if (score > best_score) best = c, best_score = score;
    }
    return best;
}

}  // namespace

std::array<Cell, 2> choose_move(Board& board, char me, const Rules& rules) {
    Cell first = pick_stone(board, me, 2, rules);
    board[first] = me;
    Cell second = pick_stone(board, me, 1, rules);
    board.erase(first);
    return {first, second};
}
