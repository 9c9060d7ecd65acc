/*
 * Domineering (8x8, cell values) starter bot -- C17.
 *
 * What it does: keeps its own copy of the board, and on every TURN places
 * the domino whose two cells are worth the most right now (one-ply greedy,
 * ties broken at random). It passes only when it has no placement left,
 * because a pass gives the opponent a free turn.
 *
 * Build: gcc -std=c17 -O2 -Wall -Wextra -o bot bot.c -lm
 * Run:   ./bot   (it talks to the judge on stdin/stdout; debug goes to stderr)
 *
 * Protocol summary (see GAMES.md section 2), coordinates 1-based, x = row:
 *   judge: 8 lines of 8 values, then READY FIRST|SECOND   -> bot: OK
 *   judge: TURN my_time opp_time                        -> bot: MOVE x y
 *   judge: OPP x y time   (the opponent's move, -1 -1 = pass)
 *   judge: FINISH         -> exit without output
 * FIRST places horizontal dominoes (x,y)+(x,y+1), SECOND vertical ones
 * (x,y)+(x+1,y); (x,y) is always the top-left cell of the domino.
 */
/* data.bin: a data file sent with the source (e.g. weights) is in the
 * working folder at run time only (`versus match GAME src:bot.c?data=FILE`),
 * never at compile time, so read it with fopen, not #include:
 *   FILE *data = fopen("data.bin", "rb");
 *   if (data) { fseek(data, 0, SEEK_END); fprintf(stderr, "data.bin: %ld bytes\n", ftell(data)); fclose(data); }
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 8

static int value[N][N];     /* value[x][y], 0-based here, 1-based on the wire */
static bool covered[N][N];  /* true once any domino lies on the cell */

/* The second cell of a domino anchored at (x,y): right if horizontal, below if vertical. */
static void other_cell(int x, int y, bool vertical, int *x2, int *y2) {
    *x2 = vertical ? x + 1 : x;
    *y2 = vertical ? y : y + 1;
}

static bool can_place(int x, int y, bool vertical) {
    int x2, y2;
    other_cell(x, y, vertical, &x2, &y2);
    if (x2 >= N || y2 >= N) return false;
    return !covered[x][y] && !covered[x2][y2];
}

static void place(int x, int y, bool vertical) {
    int x2, y2;
    other_cell(x, y, vertical, &x2, &y2);
    covered[x][y] = true;
    covered[x2][y2] = true;
}

/*
 * CHANGE HERE: the evaluation of a placement. Greedy takes the points it
 * earns; a stronger bot would also count the placements it removes from
 * the opponent (a vertical domino blocks up to two horizontal ones) or
 * search a few plies ahead.
 */
static int score_move(int x, int y, bool vertical) {
    int x2, y2;
    other_cell(x, y, vertical, &x2, &y2);
    return value[x][y] + value[x2][y2];
}

/*
 * CHANGE HERE: the move choice. Returns false when there is no placement
 * (the caller then passes). Ties are broken uniformly at random by counting
 * the equally good moves seen so far (reservoir sampling).
 */
static bool choose_move(bool vertical, int *best_x, int *best_y) {
    int best = -1, ties = 0;
    for (int x = 0; x < N; x++) {
        for (int y = 0; y < N; y++) {
            if (!can_place(x, y, vertical)) continue;
            int s = score_move(x, y, vertical);
            if (s > best) {
                best = s;
                ties = 1;
                *best_x = x;
                *best_y = y;
            } else if (s == best && rand() % ++ties == 0) {
                *best_x = x;
                *best_y = y;
            }
        }
    }
    return best >= 0;
}

int main(void) {
    char line[256];
    bool i_am_vertical = false;

    srand((unsigned)time(NULL));

    /* The 8 value lines come before READY. */
    for (int x = 0; x < N; x++) {
        if (!fgets(line, sizeof line, stdin)) return 0;
        char *p = line;
        for (int y = 0; y < N; y++) value[x][y] = (int)strtol(p, &p, 10);
    }

    while (fgets(line, sizeof line, stdin)) {
        char cmd[16] = "";
        if (sscanf(line, "%15s", cmd) != 1) continue;

        if (strcmp(cmd, "READY") == 0) {
            /* The second player places the vertical dominoes. */
            i_am_vertical = strstr(line, "SECOND") != NULL;
            printf("OK\n");
            fflush(stdout);
        } else if (strcmp(cmd, "TURN") == 0) {
            /* CHANGE HERE: time use. my_time is what is left of the whole
             * game's budget (ms); greedy needs almost none of it. */
            long my_time = 0, opp_time = 0;
            sscanf(line, "%*s %ld %ld", &my_time, &opp_time);
            int x, y;
            if (choose_move(i_am_vertical, &x, &y)) {
                place(x, y, i_am_vertical);
                printf("MOVE %d %d\n", x + 1, y + 1);
            } else {
                printf("MOVE -1 -1\n");
            }
            fflush(stdout);
        } else if (strcmp(cmd, "OPP") == 0) {
            int x = -1, y = -1;
            long used = 0;
            sscanf(line, "%*s %d %d %ld", &x, &y, &used);
            /* The opponent's dominoes lie the other way round. */
            if (x != -1) place(x - 1, y - 1, !i_am_vertical);
        } else if (strcmp(cmd, "FINISH") == 0) {
            break;
        } else {
            fprintf(stderr, "unknown line: %s", line);
        }
    }
    return 0;
}
