/*
 * Connexion starter bot (C17).
 *
 * What it does: one-ply greedy. For every tile in hand and every empty cell
 * it computes how much its OWN score would grow (first player: groups of the
 * same pattern; second player: groups of the same colour; score = sum of the
 * squared group sizes) and plays the best, breaking ties at random.
 *
 * Build: gcc -std=c17 -O2 -Wall -Wextra -o bot bot.c -lm
 * Test:  versus-h match connexion ./bot builtin:greedy --seed 1
 *
 * Protocol (one line in, at most one line out, always flushed):
 *   READY FIRST|SECOND -> OK
 *   INIT A1..A5 B1..B5    own five tiles, then the opponent's five
 *   TIME t_mine t_opp  -> PUT <cell> <tile>   e.g. PUT a1+ R1
 *   GET T                 the tile we drew (X0: the bag was empty)
 *   OPP p T1 T2 t         the opponent put T1 on p, drew T2, used t ms
 *   FINISH                exit without printing anything
 * Debug output must go to stderr: stdout belongs to the judge.
 *
 * The places to change are marked CHANGE HERE.
 */
/* data.bin: a data file sent with the source (e.g. weights) is in the
 * working folder at run time only (`versus match GAME src:bot.c?data=FILE`),
 * never at compile time, so read it with fopen, not #include:
 *   FILE *data = fopen("data.bin", "rb");
 *   if (data) { fseek(data, 0, SEEK_END); fprintf(stderr, "data.bin: %ld bytes\n", ftell(data)); fclose(data); }
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots. */
static const char *MISSING[8] = {"a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"};

static int exists[72];
static int neighbours[72][3], n_neighbours[72];
static char board[72][3];      /* tile ("R1") or "" when empty */
static char hand[5][3];        /* our visible tiles */
static int hand_size;
static char opp_hand[5][3];    /* the opponent's (not used by the greedy rule) */
static int opp_hand_size;
static int me = 1;             /* which char of a tile our groups share: 1 = pattern, 0 = colour */
static uint64_t rng_state = 20250101; /* fixed seed: a game can be replayed exactly */

/* xorshift64, the same generator in all five starters, so they play alike. */
static int rng_below(int n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int)(rng_state % (uint64_t)n);
}

static void cell_name(int i, char out[4]) {
    out[0] = (char)('a' + i / 12);
    out[1] = (char)('1' + (i / 2) % 6);
    out[2] = i % 2 ? '+' : '-';
    out[3] = '\0';
}

static int cell_index(const char *name) {
    return (name[0] - 'a') * 12 + (name[1] - '1') * 2 + (name[2] == '+');
}

static void setup(void) {
    char name[4];
    for (int i = 0; i < 72; i++) {
        cell_name(i, name);
        exists[i] = 1;
        for (int k = 0; k < 8; k++)
            if (strcmp(name, MISSING[k]) == 0) exists[i] = 0;
    }
    for (int i = 0; i < 72; i++) {
        int c = i / 12, r = (i / 2) % 6, plus = i % 2;
        /* A '-' cell touches the '+' of its own square and the '+' cells to
         * the left and above; a '+' cell is the mirror image (right, below). */
        int near[3][3] = {{c, r, !plus}, {plus ? c + 1 : c - 1, r, !plus}, {c, plus ? r + 1 : r - 1, !plus}};
        for (int k = 0; k < 3; k++) {
            int nc = near[k][0], nr = near[k][1];
            int j = nc * 12 + nr * 2 + near[k][2];
            if (nc >= 0 && nc < 6 && nr >= 0 && nr < 6 && exists[j]) neighbours[i][n_neighbours[i]++] = j;
        }
    }
}

/* Size of the group of tiles with tile[attr] == key around start. */
static int group_size(int start, char key, int attr, int seen[72]) {
    int stack[72], top = 0, size = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
        int i = stack[--top];
        size++;
        for (int k = 0; k < n_neighbours[i]; k++) {
            int j = neighbours[i][k];
            if (!seen[j] && board[j][0] && board[j][attr] == key) {
                seen[j] = 1;
                stack[top++] = j;
            }
        }
    }
    return size;
}

/* How much the score grouping by tile[attr] grows if tile goes on cell. */
static int gain(int cell, const char *tile, int attr) {
    int seen[72] = {0}, merged = 1, squares = 0;
    for (int k = 0; k < n_neighbours[cell]; k++) {
        int j = neighbours[cell][k];
        if (!seen[j] && board[j][0] && board[j][attr] == tile[attr]) {
            int s = group_size(j, tile[attr], attr, seen);
            merged += s; /* the new tile merges all those groups into one */
            squares += s * s;
        }
    }
    return merged * merged - squares;
}

static void choose_move(int *best_cell, int *best_tile) {
    int best = -1, cells[5 * 72], tiles[5 * 72], count = 0;
    for (int t = 0; t < hand_size; t++) {
        int duplicate = 0; /* a second copy of a tile adds nothing */
        for (int u = 0; u < t; u++)
            if (strcmp(hand[u], hand[t]) == 0) duplicate = 1;
        if (duplicate) continue;
        for (int cell = 0; cell < 72; cell++) {
            if (!exists[cell] || board[cell][0]) continue;
            /* CHANGE HERE: the evaluation. E.g. also subtract what the
             * opponent would gain from the same tile: gain(cell, hand[t], 1 - me). */
            int value = gain(cell, hand[t], me);
            if (value > best) best = value, count = 0;
            if (value == best) cells[count] = cell, tiles[count] = t, count++;
        }
    }
    int pick = rng_below(count);
    *best_cell = cells[pick];
    *best_tile = tiles[pick];
}

static void remove_tile(char tiles[5][3], int *size, const char *tile) {
    for (int i = 0; i < *size; i++) {
        if (strcmp(tiles[i], tile) == 0) {
            /* shift, not swap: the hand keeps the order the tiles came in */
            memmove(tiles[i], tiles[i + 1], (size_t)(*size - 1 - i) * 3);
            (*size)--;
            return;
        }
    }
}

int main(void) {
    char line[256], cmd[16], w[10][8];
    setup();
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%15s", cmd) != 1) continue;
        if (strcmp(cmd, "READY") == 0) {
            sscanf(line, "%*s %7s", w[0]);
            me = strcmp(w[0], "FIRST") == 0 ? 1 : 0;
            printf("OK\n");
            fflush(stdout);
        } else if (strcmp(cmd, "INIT") == 0) {
            sscanf(line, "%*s %2s %2s %2s %2s %2s %2s %2s %2s %2s %2s", w[0], w[1], w[2], w[3], w[4],
                   w[5], w[6], w[7], w[8], w[9]);
            for (int i = 0; i < 5; i++) {
                memcpy(hand[i], w[i], 3);
                memcpy(opp_hand[i], w[5 + i], 3);
            }
            hand_size = opp_hand_size = 5;
        } else if (strcmp(cmd, "TIME") == 0) {
            /* CHANGE HERE: time use. The first number is the ms left for the
             * whole game; a deeper search should budget it over our turns. */
            int cell, t;
            char name[4], tile[3];
            choose_move(&cell, &t);
            memcpy(tile, hand[t], 3);
            memcpy(board[cell], tile, 3);
            remove_tile(hand, &hand_size, tile);
            cell_name(cell, name);
            printf("PUT %s %s\n", name, tile);
            fflush(stdout);
        } else if (strcmp(cmd, "GET") == 0) {
            sscanf(line, "%*s %2s", w[0]);
            if (strcmp(w[0], "X0") != 0) memcpy(hand[hand_size++], w[0], 3);
        } else if (strcmp(cmd, "OPP") == 0) {
            sscanf(line, "%*s %3s %2s %2s", w[0], w[1], w[2]);
            memcpy(board[cell_index(w[0])], w[1], 3);
            remove_tile(opp_hand, &opp_hand_size, w[1]);
            if (strcmp(w[2], "X0") != 0) memcpy(opp_hand[opp_hand_size++], w[2], 3);
        } else if (strcmp(cmd, "FINISH") == 0) {
            return 0;
        } else {
            fprintf(stderr, "unknown line: %s", line);
        }
    }
    return 0;
}
