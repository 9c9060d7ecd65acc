// Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7) -- Go,
// standard library only.
//
// Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
// with the most pieces; on equal gain a division beats a leap (a leap leaves
// a hole behind), and the remaining ties are broken at random. It passes only
// when it has no legal move, because a pass is illegal while a move exists.
//
// Run: go run bot.go   (the judge talks to it on stdin/stdout)
//
// Protocol (coordinates are row then column, 1..7):
//
//	READY FIRST|SECOND     -> OK
//	TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
//	OPP x1 y1 x2 y2 time      the opponent's move: update the board
//	FINISH                    exit 0 without printing anything
//
// Only protocol lines may go to stdout; print debug output to stderr.
// The places meant to be changed are marked CHANGE HERE.
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

const (
	N     = 7
	Empty = 0
	Me    = 1
	Opp   = 2
)

// board[r][c] for r, c in 1..N; row and column 0 are unused so that the
// indices match the wire coordinates.
var board [N + 1][N + 1]int

type move [4]int

var pass = move{-1, -1, -1, -1}

func inside(r, c int) bool { return r >= 1 && r <= N && c >= 1 && c <= N }

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func dist(r1, c1, r2, c2 int) int {
	if d := abs(r1 - r2); d > abs(c1-c2) {
		return d
	}
	return abs(c1 - c2)
}

// captures counts the pieces of who's opponent a piece landing on (r, c) would take.
func captures(who, r, c int) int {
	n := 0
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if inside(r+dr, c+dc) && board[r+dr][c+dc] == 3-who {
				n++
			}
		}
	}
	return n
}

// applyMove plays a move for who (Me or Opp) on our board; a pass changes nothing.
func applyMove(who int, m move) {
	r1, c1, r2, c2 := m[0], m[1], m[2], m[3]
	if r1 == -1 {
		return
	}
	if dist(r1, c1, r2, c2) == 2 {
		board[r1][c1] = Empty // a leap moves
	}
	board[r2][c2] = who
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if inside(r2+dr, c2+dc) && board[r2+dr][c2+dc] == 3-who {
				board[r2+dr][c2+dc] = who
			}
		}
	}
}

// chooseMove gives our move, or a pass if there is none.
func chooseMove() move {
	chosen, best, ties := pass, -1, 0
	for r2 := 1; r2 <= N; r2++ {
		for c2 := 1; c2 <= N; c2++ {
			if board[r2][c2] != Empty {
				continue
			}
			// Every own neighbour gives the same division: count it once per target.
			divisionSeen := false
			for r1 := r2 - 2; r1 <= r2+2; r1++ {
				for c1 := c2 - 2; c1 <= c2+2; c1++ {
					if !inside(r1, c1) || board[r1][c1] != Me {
						continue
					}
					division := dist(r1, c1, r2, c2) == 1
					if division && divisionSeen {
						continue
					}
					divisionSeen = divisionSeen || division
					// CHANGE HERE: the evaluation. Pieces gained (new piece +
					// captures), doubled so a division wins ties with a leap.
					d := 0
					if division {
						d = 1
					}
					score := 2*(d+captures(Me, r2, c2)) + d
					if score > best {
						best, ties = score, 0
					}
					// Reservoir sampling: each of the k best is kept with chance 1/k.
					if score == best {
						ties++
						if rand.Intn(ties) == 0 {
							chosen = move{r1, c1, r2, c2}
						}
					}
				}
			}
		}
	}
	return chosen
}

func main() {
	rand.Seed(time.Now().UnixNano())
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(line string) {
		fmt.Fprintln(out, line)
		out.Flush()
	}
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "READY":
			first := len(words) > 1 && words[1] == "FIRST"
			board = [N + 1][N + 1]int{}
			mine, theirs := Me, Opp
			if !first {
				mine, theirs = Opp, Me
			}
			// The first player starts on (1,1) and (7,7), the second on (1,7) and (7,1).
			board[1][1], board[N][N] = mine, mine
			board[1][N], board[N][1] = theirs, theirs
			say("OK")
		case "TURN":
			// CHANGE HERE: time use. words[1] is what is left of the 10 s for
			// the whole game; greedy needs about a millisecond.
			m := chooseMove()
			applyMove(Me, m)
			say(fmt.Sprintf("MOVE %d %d %d %d", m[0], m[1], m[2], m[3]))
		case "OPP":
			var m move
			for i := range m {
				m[i], _ = strconv.Atoi(words[1+i])
			}
			applyMove(Opp, m)
		case "FINISH":
			return
		default:
			fmt.Fprintln(os.Stderr, "unknown line:", in.Text())
		}
	}
}
