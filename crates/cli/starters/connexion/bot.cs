// Connexion starter bot -- C# (7, as Mono's mcs compiles it; nothing newer is used).
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
using System;
using System.Collections.Generic;

public static class Bot
{
    // data.bin: a data file sent with the source (e.g. weights) is in the
    // working folder at run time only (`versus match GAME src:bot.cs?data=FILE`):
    //   if (System.IO.File.Exists("data.bin")) {
    //       byte[] data = System.IO.File.ReadAllBytes("data.bin");
    //       Console.Error.WriteLine("data.bin: " + data.Length + " bytes");
    //   }

    const string Columns = "abcdef";
    // Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots.
    static readonly string[] Missing = { "a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+" };
    static readonly bool[] Exists = new bool[72];
    static readonly List<int>[] Neighbours = new List<int>[72];

    static string CellName(int i) => "" + Columns[i / 12] + ((i / 2) % 6 + 1) + (i % 2 == 1 ? "+" : "-");

    static int CellIndex(string name) =>
        Columns.IndexOf(name[0]) * 12 + (name[1] - '1') * 2 + (name[2] == '+' ? 1 : 0);

    static Bot()
    {
        for (int i = 0; i < 72; i++) Exists[i] = Array.IndexOf(Missing, CellName(i)) < 0;
        // A '-' cell touches the '+' of its own square and the '+' cells to the
        // left and above; a '+' cell is the mirror image (right and below).
        for (int i = 0; i < 72; i++)
        {
            int c = i / 12, r = (i / 2) % 6;
            int[,] near = i % 2 == 1
                ? new int[,] { { c, r, 0 }, { c + 1, r, 0 }, { c, r + 1, 0 } }
                : new int[,] { { c, r, 1 }, { c - 1, r, 1 }, { c, r - 1, 1 } };
            Neighbours[i] = new List<int>();
            for (int k = 0; k < 3; k++)
            {
                int nc = near[k, 0], nr = near[k, 1], j = nc * 12 + nr * 2 + near[k, 2];
                if (nc >= 0 && nc < 6 && nr >= 0 && nr < 6 && Exists[j]) Neighbours[i].Add(j);
            }
        }
    }

    // xorshift64 with a fixed seed, the same generator in the starters, so
    // that they play alike and a game can be replayed exactly.
    static ulong rngState = 20250101;

    static int Below(int n)
    {
        ulong s = rngState;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        rngState = s;
        return (int)(s % (ulong)n);
    }

    static readonly string[] Board = new string[72];  // tile ("R1") or null
    static List<string> hand = new List<string>();     // our visible tiles
    static List<string> oppHand = new List<string>();  // the opponent's (not used by the greedy rule)
    static int me = 1;  // which character of a tile our groups share: 1 = pattern, 0 = colour

    // Size of the group of tiles with tile[at] == key around start.
    static int GroupSize(int start, char key, int at, bool[] seen)
    {
        var stack = new Stack<int>();
        stack.Push(start);
        seen[start] = true;
        int size = 0;
        while (stack.Count > 0)
        {
            int i = stack.Pop();
            size++;
            foreach (int j in Neighbours[i])
                if (!seen[j] && Board[j] != null && Board[j][at] == key)
                {
                    seen[j] = true;
                    stack.Push(j);
                }
        }
        return size;
    }

    // How much the score grouping by tile[at] grows if tile goes on cell.
    static int Gain(int cell, string tile, int at)
    {
        var seen = new bool[72];
        int sum = 0, squares = 0;
        foreach (int j in Neighbours[cell])
            if (!seen[j] && Board[j] != null && Board[j][at] == tile[at])
            {
                int s = GroupSize(j, tile[at], at, seen);
                sum += s;
                squares += s * s;
            }
        // The new tile merges all those groups into one.
        return (1 + sum) * (1 + sum) - squares;
    }

    static void ChooseMove(out int cell, out string tile)
    {
        int best = -1;
        var cells = new List<int>();
        var tiles = new List<string>();
        var tried = new HashSet<string>();
        foreach (string t in hand)
        {
            if (!tried.Add(t)) continue; // a second copy of a tile adds nothing
            for (int c = 0; c < 72; c++)
            {
                if (!Exists[c] || Board[c] != null) continue;
                // CHANGE HERE: the evaluation. E.g. also subtract what the
                // opponent would gain from the same tile: Gain(c, t, 1 - me).
                int v = Gain(c, t, me);
                if (v > best) { best = v; cells.Clear(); tiles.Clear(); }
                if (v == best) { cells.Add(c); tiles.Add(t); }
            }
        }
        int k = Below(cells.Count);
        cell = cells[k];
        tile = tiles[k];
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
                    me = words[1] == "FIRST" ? 1 : 0;
                    Say("OK");
                    break;
                case "INIT":
                    hand = new List<string>(new ArraySegment<string>(words, 1, 5));
                    oppHand = new List<string>(new ArraySegment<string>(words, 6, 5));
                    break;
                case "TIME":
                    // CHANGE HERE: time use. words[1] is the ms left for the whole
                    // game; a deeper search should budget it over our remaining turns.
                    ChooseMove(out int cell, out string tile);
                    Board[cell] = tile;
                    hand.Remove(tile);
                    Say("PUT " + CellName(cell) + " " + tile);
                    break;
                case "GET":
                    if (words[1] != "X0") hand.Add(words[1]);
                    break;
                case "OPP":
                    Board[CellIndex(words[1])] = words[2];
                    oppHand.Remove(words[2]);
                    if (words[3] != "X0") oppHand.Add(words[3]);
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
