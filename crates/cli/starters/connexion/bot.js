// Connexion starter bot -- JavaScript (Node.js). The same text is valid
// TypeScript: `versus new connexion --lang typescript` writes it as bot.ts.
//
// What it does: one-ply greedy. For every tile in hand and every empty cell
// it computes how much its OWN score would grow (first player: groups of the
// same pattern; second player: groups of the same colour; score = sum of the
// squared group sizes) and plays the best, breaking ties at random.
//
// Run: node bot.js
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
const fs = require("fs");
const readline = require("readline");

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.js?data=FILE`):
//   const data = fs.existsSync("data.bin") ? fs.readFileSync("data.bin") : null;
//   if (data) process.stderr.write("data.bin: " + data.length + " bytes\n");

const COLUMNS = "abcdef";
// Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots.
const MISSING = ["a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"];

function cellName(i) {
  return COLUMNS[Math.floor(i / 12)] + ((Math.floor(i / 2) % 6) + 1) + (i % 2 ? "+" : "-");
}

function cellIndex(name) {
  return COLUMNS.indexOf(name[0]) * 12 + (Number(name[1]) - 1) * 2 + (name[2] === "+" ? 1 : 0);
}

const EXISTS = [];
for (let i = 0; i < 72; i++) EXISTS.push(!MISSING.includes(cellName(i)));

// A '-' cell touches the '+' of its own square and the '+' cells to the
// left and above; a '+' cell is the mirror image (right and below).
const NEIGHBOURS = [];
for (let i = 0; i < 72; i++) {
  const c = Math.floor(i / 12);
  const r = Math.floor(i / 2) % 6;
  const near = i % 2
    ? [[c, r, 0], [c + 1, r, 0], [c, r + 1, 0]]
    : [[c, r, 1], [c - 1, r, 1], [c, r - 1, 1]];
  const out = [];
  for (const [nc, nr, ns] of near) {
    const j = nc * 12 + nr * 2 + ns;
    if (nc >= 0 && nc < 6 && nr >= 0 && nr < 6 && EXISTS[j]) out.push(j);
  }
  NEIGHBOURS.push(out);
}

// xorshift64 with a fixed seed, the same generator in every starter, so
// that they play alike and a game can be replayed exactly.
let rngState = 20250101n;
function below(n) {
  const mask = 0xffffffffffffffffn;
  let s = rngState;
  s ^= (s << 13n) & mask;
  s ^= s >> 7n;
  s ^= (s << 17n) & mask;
  rngState = s;
  return Number(s % BigInt(n));
}

const board = new Array(72).fill(null); // tile string ("R1") or null
let hand = []; // our visible tiles
let oppHand = []; // the opponent's visible tiles (not used by the greedy rule)
let me = 1; // which character of a tile our groups share: 1 = pattern, 0 = colour

// Size of the group of tiles with tile[attr] === key around `start`.
function groupSize(start, key, attr, seen) {
  const stack = [start];
  let size = 0;
  seen[start] = true;
  while (stack.length > 0) {
    const i = stack.pop();
    size++;
    for (const j of NEIGHBOURS[i]) {
      if (!seen[j] && board[j] !== null && board[j][attr] === key) {
        seen[j] = true;
        stack.push(j);
      }
    }
  }
  return size;
}

// How much the score grouping by tile[attr] grows if `tile` goes on `cell`.
function gain(cell, tile, attr) {
  const seen = new Array(72).fill(false);
  let sum = 0;
  let squares = 0;
  for (const j of NEIGHBOURS[cell]) {
    if (!seen[j] && board[j] !== null && board[j][attr] === tile[attr]) {
      const s = groupSize(j, tile[attr], attr, seen);
      sum += s;
      squares += s * s;
    }
  }
  // The new tile merges all those groups into one.
  return (1 + sum) * (1 + sum) - squares;
}

function chooseMove() {
  let best = -1;
  let bestMoves = [];
  const tried = [];
  for (const tile of hand) {
    if (tried.includes(tile)) continue; // a second copy of a tile adds nothing
    tried.push(tile);
    for (let cell = 0; cell < 72; cell++) {
      if (!EXISTS[cell] || board[cell] !== null) continue;
      // CHANGE HERE: the evaluation. E.g. also subtract what the
      // opponent would gain from the same tile: gain(cell, tile, 1 - me).
      const value = gain(cell, tile, me);
      if (value > best) {
        best = value;
        bestMoves = [];
      }
      if (value === best) bestMoves.push([cell, tile]);
    }
  }
  return bestMoves[below(bestMoves.length)];
}

function say(line) {
  process.stdout.write(line + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "":
      break;
    case "READY":
      me = words[1] === "FIRST" ? 1 : 0;
      say("OK");
      break;
    case "INIT":
      hand = words.slice(1, 6);
      oppHand = words.slice(6, 11);
      break;
    case "TIME": {
      // CHANGE HERE: time use. Number(words[1]) is the ms left for the whole
      // game; a deeper search should budget it over our remaining turns.
      const [cell, tile] = chooseMove();
      board[cell] = tile;
      hand.splice(hand.indexOf(tile), 1);
      say("PUT " + cellName(cell) + " " + tile);
      break;
    }
    case "GET":
      if (words[1] !== "X0") hand.push(words[1]);
      break;
    case "OPP":
      board[cellIndex(words[1])] = words[2];
      oppHand.splice(oppHand.indexOf(words[2]), 1);
      if (words[3] !== "X0") oppHand.push(words[3]);
      break;
    case "FINISH":
      process.exit(0);
      break;
    default:
      process.stderr.write("unknown line: " + line + "\n");
  }
});
