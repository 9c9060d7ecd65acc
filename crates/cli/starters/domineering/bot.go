// Domineering (8x8, cell values) starter bot -- Go, standard library only.
//
// What it does: keeps its own copy of the board, and on every TURN places
// the domino whose two cells are worth the most right now (one-ply greedy,
// ties broken at random). It passes only when it has no placement left,
// because a pass gives the opponent a free turn.
//
// Run: go run bot.go   (it talks to the judge on stdin/stdout; debug goes to stderr)
//
// Protocol summary (see GAMES.md section 2), coordinates 1-based, x = row:
//
//	judge: 8 lines of 8 values, then READY FIRST|SECOND   -> bot: OK
//	judge: TURN my_time opp_time                        -> bot: MOVE x y
//	judge: OPP x y time   (the opponent's move, -1 -1 = pass)
//	judge: FINISH         -> exit without output
//
// FIRST places horizontal dominoes (x,y)+(x,y+1), SECOND vertical ones
// (x,y)+(x+1,y); (x,y) is always the top-left cell of the domino.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"time"
)

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.go?data=FILE`),
// so read it with os.ReadFile, not //go:embed (which runs at compile time):
//   if data, err := os.ReadFile("data.bin"); err == nil {
//       fmt.Fprintln(os.Stderr, "data.bin:", len(data), "bytes")
//   }

const N = 8

var value [N][N]int    // value[x][y], 0-based here, 1-based on the wire
var covered [N][N]bool // true once any domino lies on the cell

// otherCell is the second cell of a domino anchored at (x,y).
func otherCell(x, y int, vertical bool) (int, int) {
	if vertical {
		return x + 1, y
	}
	return x, y + 1
}

func canPlace(x, y int, vertical bool) bool {
	x2, y2 := otherCell(x, y, vertical)
	return x2 < N && y2 < N && !covered[x][y] && !covered[x2][y2]
}

func place(x, y int, vertical bool) {
	x2, y2 := otherCell(x, y, vertical)
	covered[x][y], covered[x2][y2] = true, true
}

func scoreMove(x, y int, vertical bool) int {
	// CHANGE HERE: the evaluation of a placement. Greedy takes the points it
	// earns; a stronger bot would also count the placements it removes from
	// the opponent, or search a few plies ahead.
	x2, y2 := otherCell(x, y, vertical)
	return value[x][y] + value[x2][y2]
}

// chooseMove gives the best placement, or ok == false when there is none
// (then we pass). Ties are broken uniformly at random (reservoir sampling).
func chooseMove(vertical bool) (cx, cy int, ok bool) {
	best, ties := -1, 0
	for x := 0; x < N; x++ {
		for y := 0; y < N; y++ {
			if !canPlace(x, y, vertical) {
				continue
			}
			s := scoreMove(x, y, vertical)
			if s > best {
				cx, cy, ok, best, ties = x, y, true, s, 1
			} else if s == best {
				ties++
				if rand.Intn(ties) == 0 {
					cx, cy = x, y
				}
			}
		}
	}
	return
}

func main() {
	rand.Seed(time.Now().UnixNano())
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(line string) {
		fmt.Fprintln(out, line)
		out.Flush()
	}
	// The 8 value lines come before READY.
	for x := 0; x < N && in.Scan(); x++ {
		for y, word := range strings.Fields(in.Text()) {
			if y < N {
				value[x][y], _ = strconv.Atoi(word)
			}
		}
	}
	vertical := false
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "READY":
			// The second player places the vertical dominoes.
			vertical = words[1] == "SECOND"
			say("OK")
		case "TURN":
			// CHANGE HERE: time use. words[1] is what is left of the whole
			// game's budget (ms); greedy needs almost none of it.
			if x, y, ok := chooseMove(vertical); ok {
				place(x, y, vertical)
				say(fmt.Sprintf("MOVE %d %d", x+1, y+1))
			} else {
				say("MOVE -1 -1")
			}
		case "OPP":
			x, _ := strconv.Atoi(words[1])
			y, _ := strconv.Atoi(words[2])
			// The opponent's dominoes lie the other way round.
			if x != -1 {
				place(x-1, y-1, !vertical)
			}
		case "FINISH":
			return
		default:
			fmt.Fprintln(os.Stderr, "unknown line:", in.Text())
		}
	}
}
