// Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7) --
// C# (7, as Mono's mcs compiles it; nothing newer is used).
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
using System;

public static class Bot
{
    // data.bin: a data file sent with the source (e.g. weights) is in the
    // working folder at run time only (`versus match GAME src:bot.cs?data=FILE`):
    //   if (System.IO.File.Exists("data.bin")) {
    //       byte[] data = System.IO.File.ReadAllBytes("data.bin");
    //       Console.Error.WriteLine("data.bin: " + data.Length + " bytes");
    //   }

    const int N = 7, Empty = 0, Me = 1, Opp = 2;
    // Board[r, c] for r, c in 1..N; row and column 0 are unused so that the
    // indices match the wire coordinates.
    static int[,] Board = new int[N + 1, N + 1];
    static readonly Random Rng = new Random();

    static bool Inside(int r, int c) => r >= 1 && r <= N && c >= 1 && c <= N;

    static int Dist(int r1, int c1, int r2, int c2) => Math.Max(Math.Abs(r1 - r2), Math.Abs(c1 - c2));

    // How many pieces of `who`'s opponent a piece landing on (r, c) would take.
    static int Captures(int who, int r, int c)
    {
        int n = 0;
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++)
                if (Inside(r + dr, c + dc) && Board[r + dr, c + dc] == 3 - who) n++;
        return n;
    }

    // Plays a move for `who` (Me or Opp) on our board; a pass changes nothing.
    static void ApplyMove(int who, int[] m)
    {
        int r1 = m[0], c1 = m[1], r2 = m[2], c2 = m[3];
        if (r1 == -1) return;
        if (Dist(r1, c1, r2, c2) == 2) Board[r1, c1] = Empty; // a leap moves
        Board[r2, c2] = who;
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++)
                if (Inside(r2 + dr, c2 + dc) && Board[r2 + dr, c2 + dc] == 3 - who)
                    Board[r2 + dr, c2 + dc] = who;
    }

    // Our move, or a pass if there is none.
    static int[] ChooseMove()
    {
        int[] chosen = { -1, -1, -1, -1 };
        int best = -1, ties = 0;
        for (int r2 = 1; r2 <= N; r2++)
            for (int c2 = 1; c2 <= N; c2++)
            {
                if (Board[r2, c2] != Empty) continue;
                // Every own neighbour gives the same division: count it once per target.
                bool divisionSeen = false;
                for (int r1 = r2 - 2; r1 <= r2 + 2; r1++)
                    for (int c1 = c2 - 2; c1 <= c2 + 2; c1++)
                    {
                        if (!Inside(r1, c1) || Board[r1, c1] != Me) continue;
                        bool division = Dist(r1, c1, r2, c2) == 1;
                        if (division && divisionSeen) continue;
                        divisionSeen = divisionSeen || division;
                        // CHANGE HERE: the evaluation. Pieces gained (new piece +
                        // captures), doubled so a division wins ties with a leap.
                        int d = division ? 1 : 0;
                        int score = 2 * (d + Captures(Me, r2, c2)) + d;
                        if (score > best) { best = score; ties = 0; }
                        // Reservoir sampling: each of the k best is kept with chance 1/k.
                        if (score == best && Rng.Next(++ties) == 0) chosen = new[] { r1, c1, r2, c2 };
                    }
            }
        return chosen;
    }

    static void Say(string line)
    {
        Console.Out.WriteLine(line);
        Console.Out.Flush();
    }

    public static void Main(string[] args)
    {
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            string[] words = line.Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
            if (words.Length == 0) continue;
            switch (words[0])
            {
                case "READY":
                    bool first = words.Length > 1 && words[1] == "FIRST";
                    Board = new int[N + 1, N + 1];
                    // The first player starts on (1,1) and (7,7), the second on (1,7) and (7,1).
                    Board[1, 1] = Board[N, N] = first ? Me : Opp;
                    Board[1, N] = Board[N, 1] = first ? Opp : Me;
                    Say("OK");
                    break;
                case "TURN":
                    // CHANGE HERE: time use. words[1] is what is left of the 10 s
                    // for the whole game; greedy needs about a millisecond.
                    int[] m = ChooseMove();
                    ApplyMove(Me, m);
                    Say("MOVE " + string.Join(" ", m));
                    break;
                case "OPP":
                    int[] o = new int[4];
                    for (int i = 0; i < 4; i++) o[i] = int.Parse(words[1 + i]);
                    ApplyMove(Opp, o);
                    break;
                case "FINISH":
                    return;
                default:
                    Console.Error.WriteLine("unknown line: " + line);
                    break;
            }
        }
    }
}
