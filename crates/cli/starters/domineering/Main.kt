// Domineering (8x8, cell values) starter bot -- Kotlin (JVM; it keeps to
// Kotlin 1.3, which Debian's kotlinc is).
//
// What it does: keeps its own copy of the board, and on every TURN places
// the domino whose two cells are worth the most right now (one-ply greedy,
// ties broken at random). It passes only when it has no placement left,
// because a pass gives the opponent a free turn.
//
// Protocol summary (see GAMES.md section 2), coordinates 1-based, x = row:
//   judge: 8 lines of 8 values, then READY FIRST|SECOND   -> bot: OK
//   judge: TURN my_time opp_time                        -> bot: MOVE x y
//   judge: OPP x y time   (the opponent's move, -1 -1 = pass)
//   judge: FINISH         -> exit without output
// FIRST places horizontal dominoes (x,y)+(x,y+1), SECOND vertical ones
// (x,y)+(x+1,y); (x,y) is always the top-left cell of the domino.
import kotlin.random.Random

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:Main.kt?data=FILE`):
//   val file = java.io.File("data.bin")
//   if (file.exists()) System.err.println("data.bin: " + file.readBytes().size + " bytes")

const val N = 8
val value = Array(N) { IntArray(N) }        // value[x][y], 0-based here, 1-based on the wire
val covered = Array(N) { BooleanArray(N) }  // true once any domino lies on the cell

fun canPlace(x: Int, y: Int, vertical: Boolean): Boolean {
    val x2 = if (vertical) x + 1 else x
    val y2 = if (vertical) y else y + 1
    return x2 < N && y2 < N && !covered[x][y] && !covered[x2][y2]
}

fun place(x: Int, y: Int, vertical: Boolean) {
    covered[x][y] = true
    covered[if (vertical) x + 1 else x][if (vertical) y else y + 1] = true
}

fun scoreMove(x: Int, y: Int, vertical: Boolean): Int {
    // CHANGE HERE: the evaluation of a placement. Greedy takes the points it
    // earns; a stronger bot would also count the placements it removes from
    // the opponent, or search a few plies ahead.
    return value[x][y] + value[if (vertical) x + 1 else x][if (vertical) y else y + 1]
}

// The best placement, or null when there is none (then we pass). Ties are
// broken uniformly at random (reservoir sampling).
fun chooseMove(vertical: Boolean): Pair<Int, Int>? {
    var chosen: Pair<Int, Int>? = null
    var best = -1
    var ties = 0
    for (x in 0 until N) for (y in 0 until N) {
        if (!canPlace(x, y, vertical)) continue
        val s = scoreMove(x, y, vertical)
        if (s > best) {
            chosen = Pair(x, y); best = s; ties = 1
        } else if (s == best) {
            ties++
            if (Random.nextInt(ties) == 0) chosen = Pair(x, y)
        }
    }
    return chosen
}

fun say(line: String) {
    println(line)
    System.out.flush()
}

fun main() {
    // The 8 value lines come before READY.
    for (x in 0 until N) {
        val row = (readLine() ?: return).trim().split(Regex("\\s+"))
        for (y in 0 until N) value[x][y] = row[y].toInt()
    }
    var vertical = false
    while (true) {
        val line = readLine() ?: break
        val words = line.trim().split(Regex("\\s+"))
        when (words[0]) {
            "" -> {}
            "READY" -> {
                // The second player places the vertical dominoes.
                vertical = words[1] == "SECOND"
                say("OK")
            }
            "TURN" -> {
                // CHANGE HERE: time use. words[1] is what is left of the whole
                // game's budget (ms); greedy needs almost none of it.
                val move = chooseMove(vertical)
                if (move == null) {
                    say("MOVE -1 -1")
                } else {
                    place(move.first, move.second, vertical)
                    say("MOVE ${move.first + 1} ${move.second + 1}")
                }
            }
            "OPP" -> {
                val x = words[1].toInt()
                val y = words[2].toInt()
                // The opponent's dominoes lie the other way round.
                if (x != -1) place(x - 1, y - 1, !vertical)
            }
            "FINISH" -> return
            else -> System.err.println("unknown line: $line")
        }
    }
}
