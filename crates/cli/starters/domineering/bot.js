// Domineering (8x8, cell values) starter bot -- JavaScript (Node.js). The
// same text is valid TypeScript: `versus new domineering --lang typescript`
// writes it as bot.ts.
//
// What it does: keeps its own copy of the board, and on every TURN places
// the domino whose two cells are worth the most right now (one-ply greedy,
// ties broken at random). It passes only when it has no placement left,
// because a pass gives the opponent a free turn.
//
// Run: node bot.js   (it talks to the judge on stdin/stdout; debug goes to stderr)
//
// Protocol summary (see GAMES.md section 2), coordinates 1-based, x = row:
//   judge: 8 lines of 8 values, then READY FIRST|SECOND   -> bot: OK
//   judge: TURN my_time opp_time                        -> bot: MOVE x y
//   judge: OPP x y time   (the opponent's move, -1 -1 = pass)
//   judge: FINISH         -> exit without output
// FIRST places horizontal dominoes (x,y)+(x,y+1), SECOND vertical ones
// (x,y)+(x+1,y); (x,y) is always the top-left cell of the domino.
const fs = require("fs");
const readline = require("readline");

const N = 8;
const value = []; // value[x][y], 0-based here, 1-based on the wire
const covered = []; // true once any domino lies on the cell
for (let x = 0; x < N; x++) {
  value.push(new Array(N).fill(0));
  covered.push(new Array(N).fill(false));
}

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.js?data=FILE`):
//   const data = fs.existsSync("data.bin") ? fs.readFileSync("data.bin") : null;
//   if (data) process.stderr.write("data.bin: " + data.length + " bytes\n");

function canPlace(x, y, vertical) {
  const x2 = vertical ? x + 1 : x;
  const y2 = vertical ? y : y + 1;
  return x2 < N && y2 < N && !covered[x][y] && !covered[x2][y2];
}

function place(x, y, vertical) {
  covered[x][y] = true;
  covered[vertical ? x + 1 : x][vertical ? y : y + 1] = true;
}

function scoreMove(x, y, vertical) {
  // CHANGE HERE: the evaluation of a placement. Greedy takes the points it
  // earns; a stronger bot would also count the placements it removes from
  // the opponent, or search a few plies ahead.
  return value[x][y] + value[vertical ? x + 1 : x][vertical ? y : y + 1];
}

// The best placement as [x, y], or null when there is none (then we pass).
// Ties are broken uniformly at random (reservoir sampling).
function chooseMove(vertical) {
  let chosen = null;
  let best = -1;
  let ties = 0;
  for (let x = 0; x < N; x++) {
    for (let y = 0; y < N; y++) {
      if (!canPlace(x, y, vertical)) continue;
      const s = scoreMove(x, y, vertical);
      if (s > best) {
        chosen = [x, y];
        best = s;
        ties = 1;
      } else if (s === best) {
        ties++;
        if (Math.floor(Math.random() * ties) === 0) chosen = [x, y];
      }
    }
  }
  return chosen;
}

function say(line) {
  process.stdout.write(line + "\n");
}

let valueLines = 0;
let iAmVertical = false;
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  if (words[0] === "") return;
  // The 8 value lines come before READY.
  if (valueLines < N) {
    value[valueLines++] = words.slice(0, N).map(Number);
    return;
  }
  switch (words[0]) {
    case "READY":
      // The second player places the vertical dominoes.
      iAmVertical = words[1] === "SECOND";
      say("OK");
      break;
    case "TURN": {
      // CHANGE HERE: time use. Number(words[1]) is what is left of the
      // whole game's budget (ms); greedy needs almost none of it.
      const move = chooseMove(iAmVertical);
      if (move === null) {
        say("MOVE -1 -1");
      } else {
        place(move[0], move[1], iAmVertical);
        say("MOVE " + (move[0] + 1) + " " + (move[1] + 1));
      }
      break;
    }
    case "OPP": {
      const x = Number(words[1]);
      const y = Number(words[2]);
      // The opponent's dominoes lie the other way round.
      if (x !== -1) place(x - 1, y - 1, !iAmVertical);
      break;
    }
    case "FINISH":
      process.exit(0);
      break;
    default:
      process.stderr.write("unknown line: " + line + "\n");
  }
});
