// How the bot picks its two stones. Edit strategy.cpp to make the bot stronger; main.cpp speaks the protocol.
#pragma once

#include <array>
#include <map>
#include <utility>

// An axial hex coordinate (q, r).
using Cell = std::pair<int, int>;
// Occupied cells -> 'x' or 'o'.
using Board = std::map<Cell, char>;

// The match's distances (the game server may change them with a config packet).
struct Rules {
    int view_distance = 8;
    int win_distance = 6;
};

// The turn for `me` on `board` (left as it was): two distinct legal cells.
std::array<Cell, 2> choose_move(Board& board, char me, const Rules& rules);
