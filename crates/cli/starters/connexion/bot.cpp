// Connexion starter bot (C++20).
//
// What it does: one-ply greedy. For every tile in hand and every empty cell
// it computes how much its OWN score would grow (first player: groups of the
// same pattern; second player: groups of the same colour; score = sum of the
// squared group sizes) and plays the best, breaking ties at random.
//
// Build: g++ -std=c++20 -O2 -Wall -Wextra -o bot bot.cpp
// Test:  versus-h match connexion ./bot builtin:greedy --seed 1
//
// Protocol (one line in, at most one line out, always flushed):
//   READY FIRST|SECOND -> OK
//   INIT A1..A5 B1..B5    own five tiles, then the opponent's five
//   TIME t_mine t_opp  -> PUT <cell> <tile>   e.g. PUT a1+ R1
//   GET T                 the tile we drew (X0: the bag was empty)
//   OPP p T1 T2 t         the opponent put T1 on p, drew T2, used t ms
//   FINISH                exit without printing anything
// Debug output must go to std::cerr: stdout belongs to the judge.
//
// The places to change are marked CHANGE HERE.
// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.cpp?data=FILE`),
// never at compile time, so read it with a stream, not #include:
//   std::ifstream file("data.bin", std::ios::binary);   // #include <fstream>, <iterator>
//   std::vector<char> data{std::istreambuf_iterator<char>(file), {}};
//   std::cerr << "data.bin: " << data.size() << " bytes\n";

#include <algorithm>
#include <array>
#include <cstdint>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

// Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots.
const std::set<std::string> MISSING = {"a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"};

std::array<bool, 72> exists;
std::array<std::vector<int>, 72> neighbours;
std::array<std::string, 72> board;    // tile ("R1") or "" when empty
std::vector<std::string> hand;        // our visible tiles
std::vector<std::string> opp_hand;    // the opponent's (not used by the greedy rule)
int me = 1;                           // which char of a tile our groups share: 1 = pattern, 0 = colour
std::uint64_t rng_state = 20250101;   // fixed seed: a game can be replayed exactly

// xorshift64, the same generator in all five starters, so they play alike.
int rng_below(int n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return static_cast<int>(rng_state % static_cast<std::uint64_t>(n));
}

std::string cell_name(int i) {
    return {static_cast<char>('a' + i / 12), static_cast<char>('1' + (i / 2) % 6), i % 2 ? '+' : '-'};
}

int cell_index(const std::string& name) {
    return (name[0] - 'a') * 12 + (name[1] - '1') * 2 + (name[2] == '+');
}

void setup() {
    for (int i = 0; i < 72; i++) exists[i] = !MISSING.contains(cell_name(i));
    for (int i = 0; i < 72; i++) {
        int c = i / 12, r = (i / 2) % 6, plus = i % 2;
        // A '-' cell touches the '+' of its own square and the '+' cells to
        // the left and above; a '+' cell is the mirror image (right, below).
        int near[3][2] = {{c, r}, {plus ? c + 1 : c - 1, r}, {c, plus ? r + 1 : r - 1}};
        for (auto [nc, nr] : near) {
            int j = nc * 12 + nr * 2 + (1 - plus);
            if (nc >= 0 && nc < 6 && nr >= 0 && nr < 6 && exists[j]) neighbours[i].push_back(j);
        }
    }
}

// Size of the group of tiles with tile[attr] == key around start.
int group_size(int start, char key, int attr, std::array<bool, 72>& seen) {
    std::vector<int> stack = {start};
    seen[start] = true;
    int size = 0;
    while (!stack.empty()) {
        int i = stack.back();
        stack.pop_back();
        size++;
        for (int j : neighbours[i]) {
            if (!seen[j] && !board[j].empty() && board[j][attr] == key) {
                seen[j] = true;
                stack.push_back(j);
            }
        }
    }
    return size;
}

// How much the score grouping by tile[attr] grows if tile goes on cell.
int gain(int cell, const std::string& tile, int attr) {
    std::array<bool, 72> seen{};
    int merged = 1, squares = 0;
    for (int j : neighbours[cell]) {
        if (!seen[j] && !board[j].empty() && board[j][attr] == tile[attr]) {
            int s = group_size(j, tile[attr], attr, seen);
            merged += s;  // the new tile merges all those groups into one
            squares += s * s;
        }
    }
    return merged * merged - squares;
}

std::pair<int, std::string> choose_move() {
    int best = -1;
    std::vector<std::pair<int, std::string>> best_moves;
    for (std::size_t t = 0; t < hand.size(); t++) {
        // a second copy of a tile adds nothing
        if (std::find(hand.begin(), hand.begin() + t, hand[t]) != hand.begin() + t) continue;
        for (int cell = 0; cell < 72; cell++) {
            if (!exists[cell] || !board[cell].empty()) continue;
            // CHANGE HERE: the evaluation. E.g. also subtract what the
            // opponent would gain from the same tile: gain(cell, hand[t], 1 - me).
            int value = gain(cell, hand[t], me);
            if (value > best) best = value, best_moves.clear();
            if (value == best) best_moves.emplace_back(cell, hand[t]);
        }
    }
    return best_moves[rng_below(static_cast<int>(best_moves.size()))];
}

void remove_tile(std::vector<std::string>& tiles, const std::string& tile) {
    // erase, not swap: the hand keeps the order the tiles came in
    tiles.erase(std::find(tiles.begin(), tiles.end(), tile));
}

int main() {
    std::ios::sync_with_stdio(false);
    setup();
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        if (!(in >> cmd)) continue;
        if (cmd == "READY") {
            std::string side;
            in >> side;
            me = side == "FIRST" ? 1 : 0;
            std::cout << "OK" << std::endl;
        } else if (cmd == "INIT") {
            std::string tile;
            hand.clear();
            opp_hand.clear();
            for (int i = 0; i < 10 && in >> tile; i++) (i < 5 ? hand : opp_hand).push_back(tile);
        } else if (cmd == "TIME") {
            // CHANGE HERE: time use. The first number is the ms left for the
            // whole game; a deeper search should budget it over our turns.
            auto [cell, tile] = choose_move();
            board[cell] = tile;
            remove_tile(hand, tile);
            std::cout << "PUT " << cell_name(cell) << ' ' << tile << std::endl;
        } else if (cmd == "GET") {
            std::string tile;
            in >> tile;
            if (tile != "X0") hand.push_back(tile);
        } else if (cmd == "OPP") {
            std::string cell, put, drawn;
            in >> cell >> put >> drawn;
            board[cell_index(cell)] = put;
            remove_tile(opp_hand, put);
            if (drawn != "X0") opp_hand.push_back(drawn);
        } else if (cmd == "FINISH") {
            return 0;
        } else {
            std::cerr << "unknown line: " << line << std::endl;
        }
    }
    return 0;
}
