/*
 * Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7).
 *
 * Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
 * with the most pieces; on equal gain a division beats a leap (a leap leaves
 * a hole behind), and the remaining ties are broken at random. It passes only
 * when it has no legal move, because a pass is illegal while a move exists.
 *
 * Build: gcc -std=c17 -O2 -Wall -Wextra -o bot bot.c -lm
 * Run:   ./bot     (the judge talks to it on stdin/stdout)
 * Try:   versus-h match bacteria-war ./bot builtin:greedy --seed 1
 *
 * Protocol (coordinates are row then column, 1..7):
 *   READY FIRST|SECOND     -> OK
 *   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
 *   OPP x1 y1 x2 y2 time      the opponent's move: update the board
 *   FINISH                    exit 0 without printing anything
 * Only protocol lines may go to stdout; print debug output to stderr.
 *
 * The places meant to be changed are marked CHANGE HERE.
 */
/* data.bin: a data file sent with the source (e.g. weights) is in the
 * working folder at run time only (`versus match GAME src:bot.c?data=FILE`),
 * never at compile time, so read it with fopen, not #include:
 *   FILE *data = fopen("data.bin", "rb");
 *   if (data) { fseek(data, 0, SEEK_END); fprintf(stderr, "data.bin: %ld bytes\n", ftell(data)); fclose(data); }
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 7
enum { EMPTY = 0, ME = 1, OPP = 2 };

/* board[r][c] for r, c in 1..N; row and column 0 are unused so that the
 * indices match the wire coordinates. */
static int board[N + 1][N + 1];

static int inside(int r, int c) { return r >= 1 && r <= N && c >= 1 && c <= N; }
static int dist(int r1, int c1, int r2, int c2) {
    int dr = abs(r1 - r2), dc = abs(c1 - c2);
    return dr > dc ? dr : dc;
}

/* How many pieces of `who`'s opponent a piece landing on (r, c) would take. */
static int captures(int who, int r, int c) {
    int n = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if (inside(r + dr, c + dc) && board[r + dr][c + dc] == 3 - who) n++;
    return n;
}

/* Plays a move for `who` (ME or OPP) on our board; a pass changes nothing. */
static void apply_move(int who, int r1, int c1, int r2, int c2) {
    if (r1 == -1) return;
    if (dist(r1, c1, r2, c2) == 2) board[r1][c1] = EMPTY; /* a leap moves */
    board[r2][c2] = who;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if (inside(r2 + dr, c2 + dc) && board[r2 + dr][c2 + dc] == 3 - who)
                board[r2 + dr][c2 + dc] = who;
}

/* Picks our move into mv[0..3]; returns 0 (and leaves a pass) if there is none. */
static int choose_move(int mv[4]) {
    int best = -1, ties = 0;
    mv[0] = mv[1] = mv[2] = mv[3] = -1;
    for (int r2 = 1; r2 <= N; r2++)
        for (int c2 = 1; c2 <= N; c2++) {
            if (board[r2][c2] != EMPTY) continue;
            /* Every own neighbour gives the same division, so count it once
             * per target; otherwise crowded targets would win ties more often. */
            int division_seen = 0;
            for (int r1 = r2 - 2; r1 <= r2 + 2; r1++)
                for (int c1 = c2 - 2; c1 <= c2 + 2; c1++) {
                    if (!inside(r1, c1) || board[r1][c1] != ME) continue;
                    int division = dist(r1, c1, r2, c2) == 1;
                    if (division && division_seen) continue;
                    division_seen |= division;
                    /* CHANGE HERE: the evaluation. Pieces gained (new piece +
                     * captures), doubled so a division wins ties with a leap. */
                    int gain = (division ? 1 : 0) + captures(ME, r2, c2);
                    int score = 2 * gain + division;
                    if (score > best) { best = score; ties = 0; }
                    /* Reservoir sampling: each of the k best is kept with chance 1/k. */
                    if (score == best && rand() % ++ties == 0) {
                        mv[0] = r1; mv[1] = c1; mv[2] = r2; mv[3] = c2;
                    }
                }
        }
    return best >= 0;
}

int main(void) {
    /* CHANGE HERE: a fixed seed makes games reproducible while debugging. */
    srand((unsigned)time(NULL));
    char line[256], cmd[16];
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%15s", cmd) != 1) continue;
        if (strcmp(cmd, "READY") == 0) {
            char side[16] = "";
            sscanf(line, "%*s %15s", side);
            int first = strcmp(side, "FIRST") == 0;
            memset(board, 0, sizeof board);
            /* The first player (O) starts on (1,1) and (7,7), the second (X) on (1,7) and (7,1). */
            board[1][1] = board[N][N] = first ? ME : OPP;
            board[1][N] = board[N][1] = first ? OPP : ME;
            printf("OK\n");
            fflush(stdout);
        } else if (strcmp(cmd, "TURN") == 0) {
            long my_time = 0, opp_time = 0;
            sscanf(line, "%*s %ld %ld", &my_time, &opp_time);
            /* CHANGE HERE: time use. my_time is what is left of the 10 s for the
             * whole game; greedy needs microseconds, a search could use
             * about my_time / 30 per move. */
            int mv[4];
            choose_move(mv);
            apply_move(ME, mv[0], mv[1], mv[2], mv[3]);
            printf("MOVE %d %d %d %d\n", mv[0], mv[1], mv[2], mv[3]);
            fflush(stdout);
        } else if (strcmp(cmd, "OPP") == 0) {
            int m[4];
            long used;
            if (sscanf(line, "%*s %d %d %d %d %ld", &m[0], &m[1], &m[2], &m[3], &used) == 5)
                apply_move(OPP, m[0], m[1], m[2], m[3]);
        } else if (strcmp(cmd, "FINISH") == 0) {
            return 0;
        } else {
            fprintf(stderr, "unknown line: %s", line);
        }
    }
    return 0;
}
