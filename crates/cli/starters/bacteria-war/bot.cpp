// Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7).
//
// Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
// with the most pieces; on equal gain a division beats a leap (a leap leaves
// a hole behind), and the remaining ties are broken at random. It passes only
// when it has no legal move, because a pass is illegal while a move exists.
//
// Build: g++ -std=c++20 -O2 -Wall -Wextra -o bot bot.cpp
// Run:   ./bot     (the judge talks to it on stdin/stdout)
// Try:   versus-h match bacteria-war ./bot builtin:greedy --seed 1
//
// Protocol (coordinates are row then column, 1..7):
//   READY FIRST|SECOND     -> OK
//   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
//   OPP x1 y1 x2 y2 time      the opponent's move: update the board
//   FINISH                    exit 0 without printing anything
// Only protocol lines may go to stdout; print debug output to stderr.
//
// The places meant to be changed are marked CHANGE HERE.
// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.cpp?data=FILE`),
// never at compile time, so read it with a stream, not #include:
//   std::ifstream file("data.bin", std::ios::binary);   // #include <fstream>, <iterator>
//   std::vector<char> data{std::istreambuf_iterator<char>(file), {}};
//   std::cerr << "data.bin: " << data.size() << " bytes\n";

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

constexpr int N = 7;
enum Cell { EMPTY = 0, ME = 1, OPP = 2 };

struct Move { int r1 = -1, c1 = -1, r2 = -1, c2 = -1; };  // all -1: pass

// board[r][c] for r, c in 1..N; row and column 0 are unused so that the
// indices match the wire coordinates.
std::array<std::array<int, N + 1>, N + 1> board{};
std::mt19937 rng;

bool inside(int r, int c) { return r >= 1 && r <= N && c >= 1 && c <= N; }
int dist(int r1, int c1, int r2, int c2) { return std::max(std::abs(r1 - r2), std::abs(c1 - c2)); }

// How many pieces of `who`'s opponent a piece landing on (r, c) would take.
int captures(int who, int r, int c) {
    int n = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if (inside(r + dr, c + dc) && board[r + dr][c + dc] == 3 - who) n++;
    return n;
}

// Plays a move for `who` (ME or OPP) on our board; a pass changes nothing.
void apply_move(int who, const Move& m) {
    if (m.r1 == -1) return;
    if (dist(m.r1, m.c1, m.r2, m.c2) == 2) board[m.r1][m.c1] = EMPTY;  // a leap moves
    board[m.r2][m.c2] = who;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if (inside(m.r2 + dr, m.c2 + dc) && board[m.r2 + dr][m.c2 + dc] == 3 - who)
                board[m.r2 + dr][m.c2 + dc] = who;
}

// Our move, or a pass if there is none.
Move choose_move() {
    Move chosen;
    int best = -1, ties = 0;
    for (int r2 = 1; r2 <= N; r2++)
        for (int c2 = 1; c2 <= N; c2++) {
            if (board[r2][c2] != EMPTY) continue;
            // Every own neighbour gives the same division, so count it once
            // per target; otherwise crowded targets would win ties more often.
            bool division_seen = false;
            for (int r1 = r2 - 2; r1 <= r2 + 2; r1++)
                for (int c1 = c2 - 2; c1 <= c2 + 2; c1++) {
                    if (!inside(r1, c1) || board[r1][c1] != ME) continue;
                    bool division = dist(r1, c1, r2, c2) == 1;
                    if (division && division_seen) continue;
                    division_seen = division_seen || division;
                    // CHANGE HERE: the evaluation. Pieces gained (new piece +
                    // captures), doubled so a division wins ties with a leap.
                    int gain = (division ? 1 : 0) + captures(ME, r2, c2);
                    int score = 2 * gain + (division ? 1 : 0);
                    if (score > best) { best = score; ties = 0; }
                    // Reservoir sampling: each of the k best is kept with chance 1/k.
                    if (score == best && rng() % ++ties == 0) chosen = Move{r1, c1, r2, c2};
                }
        }
    return chosen;
}

int main() {
    // CHANGE HERE: a fixed seed makes games reproducible while debugging.
    rng.seed(static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        if (!(in >> cmd)) continue;
        if (cmd == "READY") {
            std::string side;
            in >> side;
            bool first = side == "FIRST";
            board = {};
            // The first player (O) starts on (1,1) and (7,7), the second (X) on (1,7) and (7,1).
            board[1][1] = board[N][N] = first ? ME : OPP;
            board[1][N] = board[N][1] = first ? OPP : ME;
            std::cout << "OK" << std::endl;  // endl flushes
        } else if (cmd == "TURN") {
            long my_time = 0, opp_time = 0;
            in >> my_time >> opp_time;
            // CHANGE HERE: time use. my_time is what is left of the 10 s for the
            // whole game; greedy needs microseconds, a search could use
            // about my_time / 30 per move.
            Move m = choose_move();
            apply_move(ME, m);
            std::cout << "MOVE " << m.r1 << ' ' << m.c1 << ' ' << m.r2 << ' ' << m.c2 << std::endl;
        } else if (cmd == "OPP") {
            Move m;
            long used = 0;
            if (in >> m.r1 >> m.c1 >> m.r2 >> m.c2 >> used) apply_move(OPP, m);
        } else if (cmd == "FINISH") {
            return 0;
        } else {
            std::cerr << "unknown line: " << line << '\n';
        }
    }
    return 0;
}
