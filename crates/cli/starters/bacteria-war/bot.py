# Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7).
#
# Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
# with the most pieces; on equal gain a division beats a leap (a leap leaves
# a hole behind), and the remaining ties are broken at random. It passes only
# when it has no legal move, because a pass is illegal while a move exists.
#
# Run:   python3 bot.py     (the judge talks to it on stdin/stdout)
# Try:   versus-h match bacteria-war "python3 bot.py" builtin:greedy --seed 1
#
# Protocol (coordinates are row then column, 1..7):
#   READY FIRST|SECOND     -> OK
#   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
#   OPP x1 y1 x2 y2 time      the opponent's move: update the board
#   FINISH                    exit 0 without printing anything
# Only protocol lines may go to stdout; print debug output to stderr.
#
# The places meant to be changed are marked CHANGE HERE.
# data.bin: a data file sent with the source (e.g. weights) is in the
# working folder at run time only (`versus match GAME src:bot.py?data=FILE`):
#   try:
#       data = open("data.bin", "rb").read()   # numpy: numpy.fromfile("data.bin", dtype=...)
#   except FileNotFoundError:
#       data = None

import random
import sys

N = 7
EMPTY, ME, OPP = 0, 1, 2
PASS = (-1, -1, -1, -1)

# board[r][c] for r, c in 1..N; row and column 0 are unused so that the
# indices match the wire coordinates.
board = [[EMPTY] * (N + 1) for _ in range(N + 1)]


def inside(r, c):
    return 1 <= r <= N and 1 <= c <= N


def dist(r1, c1, r2, c2):
    return max(abs(r1 - r2), abs(c1 - c2))


def captures(who, r, c):
    """How many pieces of `who`'s opponent a piece landing on (r, c) would take."""
    return sum(1 for dr in (-1, 0, 1) for dc in (-1, 0, 1)
               if inside(r + dr, c + dc) and board[r + dr][c + dc] == 3 - who)


def apply_move(who, move):
    """Plays a move for `who` (ME or OPP) on our board; a pass changes nothing."""
    r1, c1, r2, c2 = move
    if r1 == -1:
        return
    if dist(r1, c1, r2, c2) == 2:
        board[r1][c1] = EMPTY  # a leap moves
    board[r2][c2] = who
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if inside(r2 + dr, c2 + dc) and board[r2 + dr][c2 + dc] == 3 - who:
                board[r2 + dr][c2 + dc] = who


def choose_move():
    """Our move, or a pass if there is none."""
    chosen, best, ties = PASS, -1, 0
    for r2 in range(1, N + 1):
        for c2 in range(1, N + 1):
            if board[r2][c2] != EMPTY:
                continue
            # Every own neighbour gives the same division, so count it once
            # per target; otherwise crowded targets would win ties more often.
            division_seen = False
            for r1 in range(r2 - 2, r2 + 3):
                for c1 in range(c2 - 2, c2 + 3):
                    if not inside(r1, c1) or board[r1][c1] != ME:
                        continue
                    division = dist(r1, c1, r2, c2) == 1
                    if division and division_seen:
                        continue
                    division_seen = division_seen or division
                    # CHANGE HERE: the evaluation. Pieces gained (new piece +
                    # captures), doubled so a division wins ties with a leap.
                    gain = int(division) + captures(ME, r2, c2)
                    score = 2 * gain + int(division)
                    if score > best:
                        best, ties = score, 0
                    # Reservoir sampling: each of the k best is kept with chance 1/k.
                    if score == best:
                        ties += 1
                        if random.randrange(ties) == 0:
                            chosen = (r1, c1, r2, c2)
    return chosen


def main():
    # CHANGE HERE: random.seed(1) makes games reproducible while debugging.
    random.seed()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "READY":
            first = len(words) > 1 and words[1] == "FIRST"
            for row in board:
                row[:] = [EMPTY] * (N + 1)
            # The first player (O) starts on (1,1) and (7,7), the second (X) on (1,7) and (7,1).
            board[1][1] = board[N][N] = ME if first else OPP
            board[1][N] = board[N][1] = OPP if first else ME
            print("OK", flush=True)
        elif cmd == "TURN":
            my_time, opp_time = int(words[1]), int(words[2])
            # CHANGE HERE: time use. my_time is what is left of the 10 s for the
            # whole game; greedy needs about a millisecond, a search could use
            # about my_time / 30 per move.
            move = choose_move()
            apply_move(ME, move)
            print("MOVE %d %d %d %d" % move, flush=True)
        elif cmd == "OPP":
            apply_move(OPP, tuple(int(w) for w in words[1:5]))
        elif cmd == "FINISH":
            return
        else:
            print("unknown line:", line.rstrip(), file=sys.stderr)


if __name__ == "__main__":
    main()
