# Connexion starter bot (Python 3.11, standard library only).
#
# What it does: one-ply greedy. For every tile in hand and every empty cell
# it computes how much its OWN score would grow (first player: groups of the
# same pattern; second player: groups of the same colour; score = sum of the
# squared group sizes) and plays the best, breaking ties at random.
#
# Run:  python3 bot.py
# Test: versus-h match connexion "python3 bot.py" builtin:greedy --seed 1
#
# Protocol (one line in, at most one line out, always flushed):
#   READY FIRST|SECOND -> OK
#   INIT A1..A5 B1..B5    own five tiles, then the opponent's five
#   TIME t_mine t_opp  -> PUT <cell> <tile>   e.g. PUT a1+ R1
#   GET T                 the tile we drew (X0: the bag was empty)
#   OPP p T1 T2 t         the opponent put T1 on p, drew T2, used t ms
#   FINISH                exit without printing anything
# Debug output must go to stderr: stdout belongs to the judge.
#
# The places to change are marked CHANGE HERE.

# data.bin: a data file sent with the source (e.g. weights) is in the
# working folder at run time only (`versus match GAME src:bot.py?data=FILE`):
#   try:
#       data = open("data.bin", "rb").read()   # numpy: numpy.fromfile("data.bin", dtype=...)
#   except FileNotFoundError:
#       data = None

import sys

COLUMNS = "abcdef"
# Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots.
MISSING = {"a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"}


def cell_name(i):
    return f"{COLUMNS[i // 12]}{(i // 2) % 6 + 1}{'+' if i % 2 else '-'}"


def cell_index(name):
    return COLUMNS.index(name[0]) * 12 + (int(name[1]) - 1) * 2 + (name[2] == "+")


EXISTS = [cell_name(i) not in MISSING for i in range(72)]


def neighbours_of(i):
    c, r, plus = i // 12, (i // 2) % 6, i % 2
    # A '-' cell touches the '+' of its own square and the '+' cells to the
    # left and above; a '+' cell is the mirror image (right and below).
    if plus:
        near = [(c, r, 0), (c + 1, r, 0), (c, r + 1, 0)]
    else:
        near = [(c, r, 1), (c - 1, r, 1), (c, r - 1, 1)]
    out = []
    for nc, nr, ns in near:
        j = nc * 12 + nr * 2 + ns
        if 0 <= nc < 6 and 0 <= nr < 6 and EXISTS[j]:
            out.append(j)
    return out


NEIGHBOURS = [neighbours_of(i) for i in range(72)]


class Rng:
    """xorshift64, the same generator in all five starters, so they play alike."""

    def __init__(self, seed):
        self.s = seed

    def below(self, n):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 7
        s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
        self.s = s
        return s % n


board = [None] * 72  # tile string ("R1") or None
hand = []            # our visible tiles
opp_hand = []        # the opponent's visible tiles (not used by the greedy rule)
me = 1               # which character of a tile our groups share: 1 = pattern, 0 = colour
rng = Rng(20250101)  # fixed seed: a game can be replayed exactly


def group_size(start, key, attr, seen):
    """Size of the group of tiles with tile[attr] == key around `start`."""
    stack, size = [start], 0
    seen.add(start)
    while stack:
        i = stack.pop()
        size += 1
        for j in NEIGHBOURS[i]:
            if j not in seen and board[j] is not None and board[j][attr] == key:
                seen.add(j)
                stack.append(j)
    return size


def gain(cell, tile, attr):
    """How much the score grouping by tile[attr] grows if `tile` goes on `cell`."""
    seen, sizes = set(), []
    for j in NEIGHBOURS[cell]:
        if j not in seen and board[j] is not None and board[j][attr] == tile[attr]:
            sizes.append(group_size(j, tile[attr], attr, seen))
    # The new tile merges all those groups into one.
    merged = 1 + sum(sizes)
    return merged * merged - sum(s * s for s in sizes)


def choose_move():
    best, best_moves = None, []
    for tile in dict.fromkeys(hand):  # a second copy of a tile adds nothing
        for cell in range(72):
            if not EXISTS[cell] or board[cell] is not None:
                continue
            # CHANGE HERE: the evaluation. E.g. also subtract what the
            # opponent would gain from the same tile: gain(cell, tile, 1 - me).
            value = gain(cell, tile, me)
            if best is None or value > best:
                best, best_moves = value, []
            if value == best:
                best_moves.append((cell, tile))
    return best_moves[rng.below(len(best_moves))]


def main():
    global me
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "READY":
            me = 1 if words[1] == "FIRST" else 0
            print("OK", flush=True)
        elif cmd == "INIT":
            hand[:] = words[1:6]
            opp_hand[:] = words[6:11]
        elif cmd == "TIME":
            # CHANGE HERE: time use. int(words[1]) is the ms left for the whole
            # game; a deeper search should budget it over our remaining turns.
            cell, tile = choose_move()
            board[cell] = tile
            hand.remove(tile)
            print(f"PUT {cell_name(cell)} {tile}", flush=True)
        elif cmd == "GET":
            if words[1] != "X0":
                hand.append(words[1])
        elif cmd == "OPP":
            board[cell_index(words[1])] = words[2]
            opp_hand.remove(words[2])
            if words[3] != "X0":
                opp_hand.append(words[3])
        elif cmd == "FINISH":
            return
        else:
            print(f"unknown line: {line.strip()}", file=sys.stderr)


if __name__ == "__main__":
    main()
