"""Domineering (8x8, cell values) starter bot -- Python 3.11, standard library only.

What it does: keeps its own copy of the board, and on every TURN places
the domino whose two cells are worth the most right now (one-ply greedy,
ties broken at random). It passes only when it has no placement left,
because a pass gives the opponent a free turn.

Run: python3 bot.py   (it talks to the judge on stdin/stdout; debug goes to stderr)

Protocol summary (see GAMES.md section 2), coordinates 1-based, x = row:
  judge: 8 lines of 8 values, then READY FIRST|SECOND   -> bot: OK
  judge: TURN my_time opp_time                        -> bot: MOVE x y
  judge: OPP x y time   (the opponent's move, -1 -1 = pass)
  judge: FINISH         -> exit without output
FIRST places horizontal dominoes (x,y)+(x,y+1), SECOND vertical ones
(x,y)+(x+1,y); (x,y) is always the top-left cell of the domino.
"""
# data.bin: a data file sent with the source (e.g. weights) is in the
# working folder at run time only (`versus match GAME src:bot.py?data=FILE`):
#   try:
#       data = open("data.bin", "rb").read()   # numpy: numpy.fromfile("data.bin", dtype=...)
#   except FileNotFoundError:
#       data = None

import random
import sys

N = 8

value = [[0] * N for _ in range(N)]        # value[x][y], 0-based here, 1-based on the wire
covered = [[False] * N for _ in range(N)]  # True once any domino lies on the cell


def other_cell(x, y, vertical):
    """The second cell of a domino anchored at (x,y): right if horizontal, below if vertical."""
    return (x + 1, y) if vertical else (x, y + 1)


def can_place(x, y, vertical):
    x2, y2 = other_cell(x, y, vertical)
    if x2 >= N or y2 >= N:
        return False
    return not covered[x][y] and not covered[x2][y2]


def place(x, y, vertical):
    x2, y2 = other_cell(x, y, vertical)
    covered[x][y] = True
    covered[x2][y2] = True


def score_move(x, y, vertical):
    # CHANGE HERE: the evaluation of a placement. Greedy takes the points it
    # earns; a stronger bot would also count the placements it removes from
    # the opponent (a vertical domino blocks up to two horizontal ones) or
    # search a few plies ahead.
    x2, y2 = other_cell(x, y, vertical)
    return value[x][y] + value[x2][y2]


def choose_move(vertical):
    # CHANGE HERE: the move choice. Returns None when there is no placement
    # (the caller then passes). Ties are broken uniformly at random by counting
    # the equally good moves seen so far (reservoir sampling).
    chosen, best, ties = None, -1, 0
    for x in range(N):
        for y in range(N):
            if not can_place(x, y, vertical):
                continue
            s = score_move(x, y, vertical)
            if s > best:
                chosen, best, ties = (x, y), s, 1
            elif s == best:
                ties += 1
                if random.randrange(ties) == 0:
                    chosen = (x, y)
    return chosen


def main():
    random.seed()  # from the time / OS entropy
    i_am_vertical = False

    # The 8 value lines come before READY.
    for x in range(N):
        line = sys.stdin.readline()
        if not line:
            return
        value[x] = [int(word) for word in line.split()[:N]]

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]

        if cmd == "READY":
            # The second player places the vertical dominoes.
            i_am_vertical = words[1] == "SECOND"
            print("OK", flush=True)
        elif cmd == "TURN":
            # CHANGE HERE: time use. my_time is what is left of the whole
            # game's budget (ms); greedy needs almost none of it.
            my_time, opp_time = int(words[1]), int(words[2])
            move = choose_move(i_am_vertical)
            if move is not None:
                x, y = move
                place(x, y, i_am_vertical)
                print(f"MOVE {x + 1} {y + 1}", flush=True)
            else:
                print("MOVE -1 -1", flush=True)
        elif cmd == "OPP":
            x, y, used = int(words[1]), int(words[2]), int(words[3])
            # The opponent's dominoes lie the other way round.
            if x != -1:
                place(x - 1, y - 1, not i_am_vertical)
        elif cmd == "FINISH":
            break
        else:
            print(f"unknown line: {line.rstrip()}", file=sys.stderr)


if __name__ == "__main__":
    main()
