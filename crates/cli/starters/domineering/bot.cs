// Domineering (8x8, cell values) starter bot -- C# (7, as Mono's mcs
// compiles it; nothing newer is used, so .NET builds it too).
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
using System;

public static class Bot
{
    // data.bin: a data file sent with the source (e.g. weights) is in the
    // working folder at run time only (`versus match GAME src:bot.cs?data=FILE`):
    //   if (System.IO.File.Exists("data.bin")) {
    //       byte[] data = System.IO.File.ReadAllBytes("data.bin");
    //       Console.Error.WriteLine("data.bin: " + data.Length + " bytes");
    //   }

    const int N = 8;
    static readonly int[,] Value = new int[N, N];      // 0-based here, 1-based on the wire
    static readonly bool[,] Covered = new bool[N, N];  // true once any domino lies on the cell
    static readonly Random Rng = new Random();

    static bool CanPlace(int x, int y, bool vertical)
    {
        int x2 = vertical ? x + 1 : x, y2 = vertical ? y : y + 1;
        return x2 < N && y2 < N && !Covered[x, y] && !Covered[x2, y2];
    }

    static void Place(int x, int y, bool vertical)
    {
        Covered[x, y] = true;
        Covered[vertical ? x + 1 : x, vertical ? y : y + 1] = true;
    }

    static int ScoreMove(int x, int y, bool vertical)
    {
        // CHANGE HERE: the evaluation of a placement. Greedy takes the points it
        // earns; a stronger bot would also count the placements it removes
        // from the opponent, or search a few plies ahead.
        return Value[x, y] + Value[vertical ? x + 1 : x, vertical ? y : y + 1];
    }

    // The best placement, or false when there is none (then we pass). Ties
    // are broken uniformly at random (reservoir sampling).
    static bool ChooseMove(bool vertical, out int cx, out int cy)
    {
        cx = cy = -1;
        int best = -1, ties = 0;
        for (int x = 0; x < N; x++)
            for (int y = 0; y < N; y++)
            {
                if (!CanPlace(x, y, vertical)) continue;
                int s = ScoreMove(x, y, vertical);
                if (s > best) { cx = x; cy = y; best = s; ties = 1; }
                else if (s == best && Rng.Next(++ties) == 0) { cx = x; cy = y; }
            }
        return cx >= 0;
    }

    static void Say(string line)
    {
        Console.Out.WriteLine(line);
        Console.Out.Flush();
    }

    public static void Main(string[] args)
    {
        // The 8 value lines come before READY.
        for (int x = 0; x < N; x++)
        {
            string[] row = Console.In.ReadLine().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
            for (int y = 0; y < N; y++) Value[x, y] = int.Parse(row[y]);
        }
        bool vertical = false;
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            string[] words = line.Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
            if (words.Length == 0) continue;
            switch (words[0])
            {
                case "READY":
                    // The second player places the vertical dominoes.
                    vertical = words[1] == "SECOND";
                    Say("OK");
                    break;
                case "TURN":
                    // CHANGE HERE: time use. words[1] is what is left of the whole
                    // game's budget (ms); greedy needs almost none of it.
                    if (ChooseMove(vertical, out int x, out int y))
                    {
                        Place(x, y, vertical);
                        Say("MOVE " + (x + 1) + " " + (y + 1));
                    }
                    else
                    {
                        Say("MOVE -1 -1");
                    }
                    break;
                case "OPP":
                    int ox = int.Parse(words[1]), oy = int.Parse(words[2]);
                    // The opponent's dominoes lie the other way round.
                    if (ox != -1) Place(ox - 1, oy - 1, !vertical);
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
