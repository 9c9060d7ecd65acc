// Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7) --
// Kotlin (JVM; it keeps to Kotlin 1.3, which Debian's kotlinc is).
//
// Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
// with the most pieces; on equal gain a division beats a leap (a leap leaves
// a hole behind), and the remaining ties are broken at random. It passes only
// when it has no legal move, because a pass is illegal while a move exists.
//
// Protocol (coordinates are row then column, 1..7):
//   READY FIRST|SECOND     -> OK
//   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
//   OPP x1 y1 x2 y2 time      the opponent's move: update the board
//   FINISH                    exit 0 without printing anything
// Only protocol lines may go to stdout; print debug output to stderr.
// The places meant to be changed are marked CHANGE HERE.
import kotlin.math.abs
import kotlin.random.Random

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:Main.kt?data=FILE`):
//   val file = java.io.File("data.bin")
//   if (file.exists()) System.err.println("data.bin: " + file.readBytes().size + " bytes")

const val N = 7
const val EMPTY = 0
const val ME = 1
const val OPP = 2

// board[r][c] for r, c in 1..N; row and column 0 are unused so that the
// indices match the wire coordinates.
var board = Array(N + 1) { IntArray(N + 1) }

fun inside(r: Int, c: Int) = r in 1..N && c in 1..N

fun dist(r1: Int, c1: Int, r2: Int, c2: Int) = maxOf(abs(r1 - r2), abs(c1 - c2))

// How many pieces of `who`'s opponent a piece landing on (r, c) would take.
fun captures(who: Int, r: Int, c: Int): Int {
    var n = 0
    for (dr in -1..1) for (dc in -1..1) {
        if (inside(r + dr, c + dc) && board[r + dr][c + dc] == 3 - who) n++
    }
    return n
}

// Plays a move for `who` (ME or OPP) on our board; a pass changes nothing.
fun applyMove(who: Int, m: IntArray) {
    val (r1, c1, r2, c2) = m
    if (r1 == -1) return
    if (dist(r1, c1, r2, c2) == 2) board[r1][c1] = EMPTY // a leap moves
    board[r2][c2] = who
    for (dr in -1..1) for (dc in -1..1) {
        if (inside(r2 + dr, c2 + dc) && board[r2 + dr][c2 + dc] == 3 - who) board[r2 + dr][c2 + dc] = who
    }
}

// Our move, or a pass if there is none.
fun chooseMove(): IntArray {
    var chosen = intArrayOf(-1, -1, -1, -1)
    var best = -1
    var ties = 0
    for (r2 in 1..N) for (c2 in 1..N) {
        if (board[r2][c2] != EMPTY) continue
        // Every own neighbour gives the same division: count it once per target.
        var divisionSeen = false
        for (r1 in r2 - 2..r2 + 2) for (c1 in c2 - 2..c2 + 2) {
            if (!inside(r1, c1) || board[r1][c1] != ME) continue
            val division = dist(r1, c1, r2, c2) == 1
            if (division && divisionSeen) continue
            divisionSeen = divisionSeen || division
            // CHANGE HERE: the evaluation. Pieces gained (new piece +
            // captures), doubled so a division wins ties with a leap.
            val d = if (division) 1 else 0
            val score = 2 * (d + captures(ME, r2, c2)) + d
            if (score > best) {
                best = score; ties = 0
            }
            // Reservoir sampling: each of the k best is kept with chance 1/k.
            if (score == best) {
                ties++
                if (Random.nextInt(ties) == 0) chosen = intArrayOf(r1, c1, r2, c2)
            }
        }
    }
    return chosen
}

fun say(line: String) {
    println(line)
    System.out.flush()
}

fun main() {
    while (true) {
        val line = readLine() ?: break
        val words = line.trim().split(Regex("\\s+"))
        when (words[0]) {
            "" -> {}
            "READY" -> {
                val first = words.size > 1 && words[1] == "FIRST"
                board = Array(N + 1) { IntArray(N + 1) }
                // The first player starts on (1,1) and (7,7), the second on (1,7) and (7,1).
                board[1][1] = if (first) ME else OPP
                board[N][N] = board[1][1]
                board[1][N] = if (first) OPP else ME
                board[N][1] = board[1][N]
                say("OK")
            }
            "TURN" -> {
                // CHANGE HERE: time use. words[1] is what is left of the 10 s for
                // the whole game; greedy needs about a millisecond.
                val m = chooseMove()
                applyMove(ME, m)
                say("MOVE " + m.joinToString(" "))
            }
            "OPP" -> applyMove(OPP, IntArray(4) { words[1 + it].toInt() })
            "FINISH" -> return
            else -> System.err.println("unknown line: $line")
        }
    }
}
