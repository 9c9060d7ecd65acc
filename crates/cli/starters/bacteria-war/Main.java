// Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7).
//
// Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
// with the most pieces; on equal gain a division beats a leap (a leap leaves
// a hole behind), and the remaining ties are broken at random. It passes only
// when it has no legal move, because a pass is illegal while a move exists.
//
// Build: javac -encoding UTF-8 Main.java
// Run:   java -cp . Main     (the judge talks to it on stdin/stdout)
// Try:   versus-h match bacteria-war "java -cp . Main" builtin:greedy --seed 1
//
// Protocol (coordinates are row then column, 1..7):
//   READY FIRST|SECOND     -> OK
//   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
//   OPP x1 y1 x2 y2 time      the opponent's move: update the board
//   FINISH                    exit 0 without printing anything
// Only protocol lines may go to stdout; print debug output to stderr.
//
// The places meant to be changed are marked CHANGE HERE.
// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:Main.java?data=FILE`):
//   byte[] data = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("data.bin"));
//   System.err.println("data.bin: " + data.length + " bytes");

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Random;

public class Main {
    static final int N = 7;
    static final int EMPTY = 0, ME = 1, OPP = 2;

    // board[r][c] for r, c in 1..N; row and column 0 are unused so that the
    // indices match the wire coordinates.
    static int[][] board = new int[N + 1][N + 1];
    // CHANGE HERE: new Random(1) makes games reproducible while debugging.
    static Random rng = new Random();

    static boolean inside(int r, int c) { return r >= 1 && r <= N && c >= 1 && c <= N; }
    static int dist(int r1, int c1, int r2, int c2) { return Math.max(Math.abs(r1 - r2), Math.abs(c1 - c2)); }

    // How many pieces of `who`'s opponent a piece landing on (r, c) would take.
    static int captures(int who, int r, int c) {
        int n = 0;
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++)
                if (inside(r + dr, c + dc) && board[r + dr][c + dc] == 3 - who) n++;
        return n;
    }

    // Plays a move {r1, c1, r2, c2} for `who` (ME or OPP) on our board; a pass changes nothing.
    static void applyMove(int who, int[] m) {
        if (m[0] == -1) return;
        if (dist(m[0], m[1], m[2], m[3]) == 2) board[m[0]][m[1]] = EMPTY; // a leap moves
        board[m[2]][m[3]] = who;
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++)
                if (inside(m[2] + dr, m[3] + dc) && board[m[2] + dr][m[3] + dc] == 3 - who)
                    board[m[2] + dr][m[3] + dc] = who;
    }

    // Our move, or a pass if there is none.
    static int[] chooseMove() {
        int[] chosen = {-1, -1, -1, -1};
        int best = -1, ties = 0;
        for (int r2 = 1; r2 <= N; r2++)
            for (int c2 = 1; c2 <= N; c2++) {
                if (board[r2][c2] != EMPTY) continue;
                // Every own neighbour gives the same division, so count it once
                // per target; otherwise crowded targets would win ties more often.
                boolean divisionSeen = false;
                for (int r1 = r2 - 2; r1 <= r2 + 2; r1++)
                    for (int c1 = c2 - 2; c1 <= c2 + 2; c1++) {
                        if (!inside(r1, c1) || board[r1][c1] != ME) continue;
                        boolean division = dist(r1, c1, r2, c2) == 1;
                        if (division && divisionSeen) continue;
                        divisionSeen |= division;
                        // CHANGE HERE: the evaluation. Pieces gained (new piece +
                        // captures), doubled so a division wins ties with a leap.
                        int gain = (division ? 1 : 0) + captures(ME, r2, c2);
                        int score = 2 * gain + (division ? 1 : 0);
                        if (score > best) { best = score; ties = 0; }
                        // Reservoir sampling: each of the k best is kept with chance 1/k.
                        if (score == best && rng.nextInt(++ties) == 0) chosen = new int[] {r1, c1, r2, c2};
                    }
            }
        return chosen;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(System.out);
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            switch (w[0]) {
                case "" -> { }
                case "READY" -> {
                    boolean first = w.length > 1 && w[1].equals("FIRST");
                    board = new int[N + 1][N + 1];
                    // The first player (O) starts on (1,1) and (7,7), the second (X) on (1,7) and (7,1).
                    board[1][1] = board[N][N] = first ? ME : OPP;
                    board[1][N] = board[N][1] = first ? OPP : ME;
                    out.println("OK");
                    out.flush();
                }
                case "TURN" -> {
                    long myTime = Long.parseLong(w[1]), oppTime = Long.parseLong(w[2]);
                    // CHANGE HERE: time use. myTime is what is left of the 10 s for the
                    // whole game; greedy needs microseconds, a search could use
                    // about myTime / 30 per move. (JVM start-up is not on this clock:
                    // it falls within the 3 s allowed for the READY reply.)
                    int[] m = chooseMove();
                    applyMove(ME, m);
                    out.println("MOVE " + m[0] + " " + m[1] + " " + m[2] + " " + m[3]);
                    out.flush();
                }
                case "OPP" -> applyMove(OPP, new int[] {Integer.parseInt(w[1]), Integer.parseInt(w[2]),
                        Integer.parseInt(w[3]), Integer.parseInt(w[4])});
                case "FINISH" -> { return; }
                default -> System.err.println("unknown line: " + line);
            }
        }
    }
}
