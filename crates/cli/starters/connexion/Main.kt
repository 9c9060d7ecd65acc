// Connexion starter bot -- Kotlin (JVM; it keeps to Kotlin 1.3, which
// Debian's kotlinc is).
//
// What it does: one-ply greedy. For every tile in hand and every empty cell
// it computes how much its OWN score would grow (first player: groups of the
// same pattern; second player: groups of the same colour; score = sum of the
// squared group sizes) and plays the best, breaking ties at random.
//
// Protocol (one line in, at most one line out):
//   READY FIRST|SECOND -> OK
//   INIT A1..A5 B1..B5    own five tiles, then the opponent's five
//   TIME t_mine t_opp  -> PUT <cell> <tile>   e.g. PUT a1+ R1
//   GET T                 the tile we drew (X0: the bag was empty)
//   OPP p T1 T2 t         the opponent put T1 on p, drew T2, used t ms
//   FINISH                exit without printing anything
// Debug output must go to stderr: stdout belongs to the judge.
// The places to change are marked CHANGE HERE.

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:Main.kt?data=FILE`):
//   val file = java.io.File("data.bin")
//   if (file.exists()) System.err.println("data.bin: " + file.readBytes().size + " bytes")

const val COLUMNS = "abcdef"
// Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots.
val MISSING = setOf("a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+")

fun cellName(i: Int) = "${COLUMNS[i / 12]}${(i / 2) % 6 + 1}${if (i % 2 == 1) '+' else '-'}"

fun cellIndex(name: String) = COLUMNS.indexOf(name[0]) * 12 + (name[1] - '1') * 2 + (if (name[2] == '+') 1 else 0)

val EXISTS = BooleanArray(72) { cellName(it) !in MISSING }

// A '-' cell touches the '+' of its own square and the '+' cells to the
// left and above; a '+' cell is the mirror image (right and below).
val NEIGHBOURS = Array(72) { i ->
    val c = i / 12
    val r = (i / 2) % 6
    val near = if (i % 2 == 1) listOf(Triple(c, r, 0), Triple(c + 1, r, 0), Triple(c, r + 1, 0))
    else listOf(Triple(c, r, 1), Triple(c - 1, r, 1), Triple(c, r - 1, 1))
    near.filter { (nc, nr, ns) -> nc in 0..5 && nr in 0..5 && EXISTS[nc * 12 + nr * 2 + ns] }
        .map { (nc, nr, ns) -> nc * 12 + nr * 2 + ns }
}

// xorshift64 with a fixed seed, the same generator in the starters, so that
// they play alike and a game can be replayed exactly.
var rngState = 20250101L

fun below(n: Int): Int {
    var s = rngState
    s = s xor (s shl 13)
    s = s xor (s ushr 7)
    s = s xor (s shl 17)
    rngState = s
    return java.lang.Long.remainderUnsigned(s, n.toLong()).toInt()
}

val board = arrayOfNulls<String>(72)  // tile ("R1") or null
val hand = mutableListOf<String>()     // our visible tiles
val oppHand = mutableListOf<String>()  // the opponent's (not used by the greedy rule)
var me = 1  // which character of a tile our groups share: 1 = pattern, 0 = colour

// Size of the group of tiles with tile[at] == key around start.
fun groupSize(start: Int, key: Char, at: Int, seen: BooleanArray): Int {
    val stack = mutableListOf(start)
    seen[start] = true
    var size = 0
    while (stack.isNotEmpty()) {
        val i = stack.removeAt(stack.size - 1)
        size++
        for (j in NEIGHBOURS[i]) {
            val tile = board[j]
            if (!seen[j] && tile != null && tile[at] == key) {
                seen[j] = true
                stack.add(j)
            }
        }
    }
    return size
}

// How much the score grouping by tile[at] grows if tile goes on cell.
fun gain(cell: Int, tile: String, at: Int): Int {
    val seen = BooleanArray(72)
    var sum = 0
    var squares = 0
    for (j in NEIGHBOURS[cell]) {
        val other = board[j]
        if (!seen[j] && other != null && other[at] == tile[at]) {
            val s = groupSize(j, tile[at], at, seen)
            sum += s
            squares += s * s
        }
    }
    // The new tile merges all those groups into one.
    return (1 + sum) * (1 + sum) - squares
}

fun chooseMove(): Pair<Int, String> {
    var best = -1
    val moves = mutableListOf<Pair<Int, String>>()
    for (tile in hand.distinct()) { // a second copy of a tile adds nothing
        for (cell in 0 until 72) {
            if (!EXISTS[cell] || board[cell] != null) continue
            // CHANGE HERE: the evaluation. E.g. also subtract what the
            // opponent would gain from the same tile: gain(cell, tile, 1 - me).
            val v = gain(cell, tile, me)
            if (v > best) {
                best = v
                moves.clear()
            }
            if (v == best) moves.add(Pair(cell, tile))
        }
    }
    return moves[below(moves.size)]
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
                me = if (words[1] == "FIRST") 1 else 0
                say("OK")
            }
            "INIT" -> {
                hand.clear(); hand.addAll(words.subList(1, 6))
                oppHand.clear(); oppHand.addAll(words.subList(6, 11))
            }
            "TIME" -> {
                // CHANGE HERE: time use. words[1] is the ms left for the whole
                // game; a deeper search should budget it over our remaining turns.
                val (cell, tile) = chooseMove()
                board[cell] = tile
                hand.remove(tile)
                say("PUT ${cellName(cell)} $tile")
            }
            "GET" -> if (words[1] != "X0") hand.add(words[1])
            "OPP" -> {
                board[cellIndex(words[1])] = words[2]
                oppHand.remove(words[2])
                if (words[3] != "X0") oppHand.add(words[3])
            }
            "FINISH" -> return
            else -> System.err.println("unknown line: $line")
        }
    }
}
