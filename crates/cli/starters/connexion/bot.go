// Connexion starter bot -- Go, standard library only.
//
// What it does: one-ply greedy. For every tile in hand and every empty cell
// it computes how much its OWN score would grow (first player: groups of the
// same pattern; second player: groups of the same colour; score = sum of the
// squared group sizes) and plays the best, breaking ties at random.
//
// Run: go run bot.go
//
// Protocol (one line in, at most one line out):
//
//	READY FIRST|SECOND -> OK
//	INIT A1..A5 B1..B5    own five tiles, then the opponent's five
//	TIME t_mine t_opp  -> PUT <cell> <tile>   e.g. PUT a1+ R1
//	GET T                 the tile we drew (X0: the bag was empty)
//	OPP p T1 T2 t         the opponent put T1 on p, drew T2, used t ms
//	FINISH                exit without printing anything
//
// Debug output must go to stderr: stdout belongs to the judge.
// The places to change are marked CHANGE HERE.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.go?data=FILE`),
// so read it with os.ReadFile, not //go:embed (which runs at compile time):
//   if data, err := os.ReadFile("data.bin"); err == nil {
//       fmt.Fprintln(os.Stderr, "data.bin:", len(data), "bytes")
//   }

const columns = "abcdef"

// Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots.
var missing = map[string]bool{"a1-": true, "a4-": true, "c3+": true, "c6+": true,
	"d1-": true, "d4-": true, "f3+": true, "f6+": true}

func cellName(i int) string {
	sign := "-"
	if i%2 == 1 {
		sign = "+"
	}
	return fmt.Sprintf("%c%d%s", columns[i/12], (i/2)%6+1, sign)
}

func cellIndex(name string) int {
	i := strings.IndexByte(columns, name[0])*12 + int(name[1]-'1')*2
	if name[2] == '+' {
		i++
	}
	return i
}

var exists [72]bool
var neighbours [72][]int

func init() {
	for i := range exists {
		exists[i] = !missing[cellName(i)]
	}
	// A '-' cell touches the '+' of its own square and the '+' cells to the
	// left and above; a '+' cell is the mirror image (right and below).
	for i := range neighbours {
		c, r := i/12, (i/2)%6
		near := [3][3]int{{c, r, 1}, {c - 1, r, 1}, {c, r - 1, 1}}
		if i%2 == 1 {
			near = [3][3]int{{c, r, 0}, {c + 1, r, 0}, {c, r + 1, 0}}
		}
		for _, n := range near {
			j := n[0]*12 + n[1]*2 + n[2]
			if n[0] >= 0 && n[0] < 6 && n[1] >= 0 && n[1] < 6 && exists[j] {
				neighbours[i] = append(neighbours[i], j)
			}
		}
	}
}

// xorshift64 with a fixed seed, the same generator in the starters, so that
// they play alike and a game can be replayed exactly.
var rngState uint64 = 20250101

func below(n int) int {
	s := rngState
	s ^= s << 13
	s ^= s >> 7
	s ^= s << 17
	rngState = s
	return int(s % uint64(n))
}

var board [72]string // tile ("R1") or "" when empty
var hand []string    // our visible tiles
var oppHand []string // the opponent's visible tiles (not used by the greedy rule)
var me = 1           // which character of a tile our groups share: 1 = pattern, 0 = colour

func remove(list []string, tile string) []string {
	for k, t := range list {
		if t == tile {
			return append(list[:k], list[k+1:]...)
		}
	}
	return list
}

// groupSize is the size of the group of tiles with tile[at] == key around start.
func groupSize(start int, key byte, at int, seen *[72]bool) int {
	stack, size := []int{start}, 0
	seen[start] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		size++
		for _, j := range neighbours[i] {
			if !seen[j] && board[j] != "" && board[j][at] == key {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return size
}

// gain is how much the score grouping by tile[at] grows if tile goes on cell.
func gain(cell int, tile string, at int) int {
	var seen [72]bool
	sum, squares := 0, 0
	for _, j := range neighbours[cell] {
		if !seen[j] && board[j] != "" && board[j][at] == tile[at] {
			s := groupSize(j, tile[at], at, &seen)
			sum, squares = sum+s, squares+s*s
		}
	}
	// The new tile merges all those groups into one.
	return (1+sum)*(1+sum) - squares
}

func chooseMove() (int, string) {
	best := -1
	var cells []int
	var tiles []string
	tried := map[string]bool{}
	for _, tile := range hand {
		if tried[tile] { // a second copy of a tile adds nothing
			continue
		}
		tried[tile] = true
		for cell := 0; cell < 72; cell++ {
			if !exists[cell] || board[cell] != "" {
				continue
			}
			// CHANGE HERE: the evaluation. E.g. also subtract what the
			// opponent would gain from the same tile: gain(cell, tile, 1-me).
			v := gain(cell, tile, me)
			if v > best {
				best, cells, tiles = v, nil, nil
			}
			if v == best {
				cells, tiles = append(cells, cell), append(tiles, tile)
			}
		}
	}
	k := below(len(cells))
	return cells[k], tiles[k]
}

func main() {
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
			me = 0
			if words[1] == "FIRST" {
				me = 1
			}
			say("OK")
		case "INIT":
			hand = append([]string{}, words[1:6]...)
			oppHand = append([]string{}, words[6:11]...)
		case "TIME":
			// CHANGE HERE: time use. words[1] is the ms left for the whole
			// game; a deeper search should budget it over our remaining turns.
			cell, tile := chooseMove()
			board[cell] = tile
			hand = remove(hand, tile)
			say("PUT " + cellName(cell) + " " + tile)
		case "GET":
			if words[1] != "X0" {
				hand = append(hand, words[1])
			}
		case "OPP":
			board[cellIndex(words[1])] = words[2]
			oppHand = remove(oppHand, words[2])
			if words[3] != "X0" {
				oppHand = append(oppHand, words[3])
			}
		case "FINISH":
			return
		default:
			fmt.Fprintln(os.Stderr, "unknown line:", in.Text())
		}
	}
}
