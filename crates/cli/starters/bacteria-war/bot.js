// Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7) --
// JavaScript (Node.js). The same text is valid TypeScript: `versus new
// bacteria-war --lang typescript` writes it as bot.ts.
//
// Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
// with the most pieces; on equal gain a division beats a leap (a leap leaves
// a hole behind), and the remaining ties are broken at random. It passes only
// when it has no legal move, because a pass is illegal while a move exists.
//
// Run: node bot.js   (the judge talks to it on stdin/stdout)
//
// Protocol (coordinates are row then column, 1..7):
//   READY FIRST|SECOND     -> OK
//   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
//   OPP x1 y1 x2 y2 time      the opponent's move: update the board
//   FINISH                    exit 0 without printing anything
// Only protocol lines may go to stdout; print debug output to stderr.
// The places meant to be changed are marked CHANGE HERE.
const fs = require("fs");
const readline = require("readline");

const N = 7;
const EMPTY = 0;
const ME = 1;
const OPP = 2;
const PASS = [-1, -1, -1, -1];

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.js?data=FILE`):
//   const data = fs.existsSync("data.bin") ? fs.readFileSync("data.bin") : null;
//   if (data) process.stderr.write("data.bin: " + data.length + " bytes\n");

// board[r][c] for r, c in 1..N; row and column 0 are unused so that the
// indices match the wire coordinates.
const board = [];
for (let r = 0; r <= N; r++) board.push(new Array(N + 1).fill(EMPTY));

function inside(r, c) {
  return r >= 1 && r <= N && c >= 1 && c <= N;
}

function dist(r1, c1, r2, c2) {
  return Math.max(Math.abs(r1 - r2), Math.abs(c1 - c2));
}

// How many pieces of `who`'s opponent a piece landing on (r, c) would take.
function captures(who, r, c) {
  let n = 0;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      if (inside(r + dr, c + dc) && board[r + dr][c + dc] === 3 - who) n++;
    }
  }
  return n;
}

// Plays a move for `who` (ME or OPP) on our board; a pass changes nothing.
function applyMove(who, m) {
  const [r1, c1, r2, c2] = m;
  if (r1 === -1) return;
  if (dist(r1, c1, r2, c2) === 2) board[r1][c1] = EMPTY; // a leap moves
  board[r2][c2] = who;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      if (inside(r2 + dr, c2 + dc) && board[r2 + dr][c2 + dc] === 3 - who) {
        board[r2 + dr][c2 + dc] = who;
      }
    }
  }
}

// Our move, or a pass if there is none.
function chooseMove() {
  let chosen = PASS;
  let best = -1;
  let ties = 0;
  for (let r2 = 1; r2 <= N; r2++) {
    for (let c2 = 1; c2 <= N; c2++) {
      if (board[r2][c2] !== EMPTY) continue;
      // Every own neighbour gives the same division: count it once per target.
      let divisionSeen = false;
      for (let r1 = r2 - 2; r1 <= r2 + 2; r1++) {
        for (let c1 = c2 - 2; c1 <= c2 + 2; c1++) {
          if (!inside(r1, c1) || board[r1][c1] !== ME) continue;
          const division = dist(r1, c1, r2, c2) === 1;
          if (division && divisionSeen) continue;
          divisionSeen = divisionSeen || division;
          // CHANGE HERE: the evaluation. Pieces gained (new piece +
          // captures), doubled so a division wins ties with a leap.
          const gain = (division ? 1 : 0) + captures(ME, r2, c2);
          const score = 2 * gain + (division ? 1 : 0);
          if (score > best) {
            best = score;
            ties = 0;
          }
          // Reservoir sampling: each of the k best is kept with chance 1/k.
          if (score === best) {
            ties++;
            if (Math.floor(Math.random() * ties) === 0) chosen = [r1, c1, r2, c2];
          }
        }
      }
    }
  }
  return chosen;
}

function say(line) {
  process.stdout.write(line + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "": // an empty line
      break;
    case "READY": {
      const first = words[1] === "FIRST";
      for (const row of board) row.fill(EMPTY);
      // The first player starts on (1,1) and (7,7), the second on (1,7) and (7,1).
      board[1][1] = board[N][N] = first ? ME : OPP;
      board[1][N] = board[N][1] = first ? OPP : ME;
      say("OK");
      break;
    }
    case "TURN": {
      // CHANGE HERE: time use. Number(words[1]) is what is left of the 10 s
      // for the whole game; greedy needs about a millisecond.
      const m = chooseMove();
      applyMove(ME, m);
      say("MOVE " + m.join(" "));
      break;
    }
    case "OPP":
      applyMove(OPP, words.slice(1, 5).map(Number));
      break;
    case "FINISH":
      process.exit(0);
      break;
    default:
      process.stderr.write("unknown line: " + line + "\n");
  }
});
