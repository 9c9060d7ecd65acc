// The versus page. Everything it draws comes from the JSON API; boards come
// from each referee's view, so no rule of any game is written here.
"use strict";

const main = document.getElementById("main");
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child) node.append(child instanceof Node ? child : String(child));
  return node;
}

async function api(path, options) {
  const response = await fetch(path, options);
  const body = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
  return body;
}

function showError(container, error) {
  container.append(el("p", { class: "error", id: "error" }, error.message || String(error)));
}

// ---------------------------------------------------------------- boards

const COLOURS = { R: "#e53935", G: "#43a047", B: "#1e88e5", Y: "#fdd835" };

function grid(rows, cols, size, drawCell) {
  const root = svg("svg", { width: cols * size + 2, height: rows * size + 2, class: "board" });
  for (let x = 1; x <= rows; x++) {
    for (let y = 1; y <= cols; y++) {
      root.append(drawCell(x, y, (y - 1) * size + 1, (x - 1) * size + 1));
    }
  }
  return root;
}

const RENDER = {
  "bacteria-war"(view, onCell) {
    const size = 52;
    return grid(7, 7, size, (x, y, left, top) => {
      const piece = view.board[x - 1][y - 1];
      const group = svg("g", { "data-cell": `${x} ${y}`, "data-piece": piece, onclick: () => onCell && onCell({ x, y }) });
      group.append(svg("rect", { x: left, y: top, width: size, height: size, fill: "#eceff1", stroke: "#90a4ae" }));
      if (piece !== ".") {
        group.append(svg("circle", { cx: left + size / 2, cy: top + size / 2, r: size * 0.38,
          fill: piece === "O" ? "#fff" : "#263238", stroke: "#263238", "stroke-width": 2 }));
      }
      return group;
    });
  },

  domineering(view, onCell) {
    const size = 52;
    const board = grid(8, 8, size, (x, y, left, top) => {
      const owner = view.cells[x - 1][y - 1];
      const fill = owner === "h" ? "#90caf9" : owner === "v" ? "#ef9a9a" : "#fff";
      const group = svg("g", { "data-cell": `${x} ${y}`, "data-owner": owner, onclick: () => onCell && onCell({ x, y }) });
      group.append(svg("rect", { x: left, y: top, width: size, height: size, fill, stroke: "#b0bec5" }));
      group.append(svg("text", { x: left + size / 2, y: top + size / 2 + 6, "text-anchor": "middle",
        "font-size": 18, fill: "#37474f" }, String(view.values[x - 1][y - 1])));
      return group;
    });
    for (const d of view.dominoes || []) {
      const wide = d.side === "first";
      board.append(svg("rect", { x: (d.y - 1) * size + 4, y: (d.x - 1) * size + 4, rx: 8,
        width: (wide ? 2 : 1) * size - 6, height: (wide ? 1 : 2) * size - 6, fill: "none",
        stroke: wide ? "#1565c0" : "#c62828", "stroke-width": 3, "pointer-events": "none" }));
    }
    return board;
  },

  connexion(view, onCell) {
    const size = 64;
    const root = svg("svg", { width: 6 * size + 2, height: 6 * size + 2, class: "board" });
    for (const cell of view.cells) {
      const column = cell.name.charCodeAt(0) - 97;
      const row = Number(cell.name[1]) - 1;
      const left = column * size + 1, top = row * size + 1;
      const minus = cell.name[2] === "-";
      const points = minus
        ? [[left, top], [left + size, top], [left, top + size]]
        : [[left + size, top], [left + size, top + size], [left, top + size]];
      const fill = cell.tile ? COLOURS[cell.tile[0]] : "#fff";
      const group = svg("g", { "data-cell": cell.name, "data-tile": cell.tile || "", onclick: () => onCell && onCell({ name: cell.name }) });
      group.append(svg("polygon", { points: points.map((p) => p.join(",")).join(" "), fill, stroke: "#78909c" }));
      const cx = (points[0][0] + points[1][0] + points[2][0]) / 3;
      const cy = (points[0][1] + points[1][1] + points[2][1]) / 3;
      group.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": cell.tile ? 15 : 10,
        fill: cell.tile ? "#000" : "#b0bec5" }, cell.tile ? cell.tile[1] : cell.name));
      root.append(group);
    }
    return root;
  },

  "betris-large"(view, onCell, selected) {
    const size = 36;
    const boards = el("div", { style: "display:flex;gap:1em" });
    for (const side of ["first", "second"]) {
      const rows = view.boards[side];
      const pieces = (view.pieces && view.pieces[side]) || [];
      const pieceAt = new Map();
      pieces.forEach((piece, i) => piece.cells.forEach(([x, y]) => pieceAt.set(`${x} ${y}`, i)));
      const board = grid(rows.length, rows.length, size, (x, y, left, top) => {
        const filled = rows[x - 1][y - 1] === "#";
        const chosen = selected && selected.side === side && selected.cells.has(`${x} ${y}`);
        // Pieces alternate shades in the order they were placed, and each
        // is outlined below, so that touching pieces stay apart.
        const shade = (pieceAt.get(`${x} ${y}`) || 0) % 2;
        const colour = side === "first" ? ["#5c6bc0", "#7986cb"][shade] : ["#26a69a", "#4db6ac"][shade];
        return svg("rect", { x: left, y: top, width: size, height: size, "data-cell": `${side} ${x} ${y}`,
          "data-filled": filled ? "1" : "0",
          fill: chosen ? "#ffb74d" : filled ? colour : "#fff",
          stroke: "#b0bec5", onclick: () => onCell && onCell({ side, x, y }) });
      });
      // Each placed block outlined, as Domineering's dominoes are: an edge
      // of one of its cells is drawn where the cell across it is not its own.
      pieces.forEach((piece, i) => {
        const own = new Set(piece.cells.map(([x, y]) => `${x} ${y}`));
        const path = [];
        for (const [x, y] of piece.cells) {
          const left = (y - 1) * size + 1, top = (x - 1) * size + 1;
          if (!own.has(`${x - 1} ${y}`)) path.push(`M${left} ${top}h${size}`);
          if (!own.has(`${x + 1} ${y}`)) path.push(`M${left} ${top + size}h${size}`);
          if (!own.has(`${x} ${y - 1}`)) path.push(`M${left} ${top}v${size}`);
          if (!own.has(`${x} ${y + 1}`)) path.push(`M${left + size} ${top}v${size}`);
        }
        const [x, y] = piece.cells.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
        board.append(svg("path", { d: path.join(""), fill: "none", stroke: "#1a237e", "stroke-width": 3,
          "stroke-linecap": "square", "pointer-events": "none", "data-piece": `${side} ${i}`, "data-block": piece.block,
          "data-cells": piece.cells.map((c) => c.join(" ")).sort().join(",") }),
        svg("text", { x: (y - 1) * size + 4, y: (x - 1) * size + 13, "font-size": 10, fill: "#fff",
          "pointer-events": "none" }, piece.block));
      });
      boards.append(el("div", {}, el("div", {}, `${side}: ${view.chips[side]} chips`), board));
    }
    return el("div", {}, boards, betrisAuction(view));
  },
};

// A block drawn small, from its cells.
function blockShape(cells, size = 10) {
  const rows = Math.max(...cells.map((c) => c[0])), cols = Math.max(...cells.map((c) => c[1]));
  const root = svg("svg", { width: cols * size + 2, height: rows * size + 2, class: "shape" });
  for (const [x, y] of cells) {
    root.append(svg("rect", { x: (y - 1) * size + 1, y: (x - 1) * size + 1, width: size, height: size,
      fill: "#78909c", stroke: "#fff" }));
  }
  return root;
}

// The round's offer, the bets and who got which block, as far as the
// frame has them.
function betrisAuction(view) {
  const box = el("div", { id: "auction", class: "auction" });
  const a = view.auction;
  if (!a) {
    box.append(el("p", {}, "No block offered yet."));
    return box;
  }
  const named = (block) => el("span", { class: "block" }, el("b", {}, block), " ",
    view.shapes && view.shapes[block] ? blockShape(view.shapes[block]) : "");
  box.append(el("p", {}, `Round ${a.round}${view.rounds ? ` of ${view.rounds}` : ""}: offer `,
    named(a.offer[0]), " or ", named(a.offer[1])));
  const bets = ["first", "second"].map((side) => {
    const bet = a.bets[side];
    return bet ? `${side} bets ${bet.chips} on ${bet.block}` : `${side}: no bet`;
  });
  box.append(el("p", { class: "bets" }, bets.join(" · ")));
  if (a.awards) {
    const gets = ["first", "second"].map((side) => {
      const award = a.awards[side];
      return `${side} gets ${award.block}${award.paid ? ` for ${award.paid} chip${award.paid === 1 ? "" : "s"}` : " free"}`;
    });
    const tie = a.tie_winner ? ` (a tie: the judge's coin chose ${a.tie_winner})` : "";
    box.append(el("p", { class: "awards" }, gets.join(" · ") + tie));
  }
  return box;
}

function renderBoard(game, view, onCell, selected) {
  const draw = RENDER[game];
  if (!draw || !view) return el("p", {}, "(no view of this game)");
  return draw(view, onCell, selected);
}

// ---------------------------------------------------------------- viewer

function lineText(line) {
  switch (line.type) {
    case "send": return el("div", { class: "to" }, `→ ${line.side}: ${line.line}`);
    case "recv": return el("div", { class: "from" }, `← ${line.side}: ${line.line}   (${(line.elapsed_ns / 1e6).toFixed(1)} ms)`);
    case "timeout": return el("div", { class: "fault" }, `← ${line.side}: no reply before the deadline`);
    case "gone": return el("div", { class: "fault" }, `← ${line.side}: ${JSON.stringify(line.fault)}`);
    case "debug": return el("div", { class: "debug" }, `# ${line.side}: ${line.line}`);
    default: return null;
  }
}

function verdictText(outcome) {
  const names = { "1-0": "first player wins", "0-1": "second player wins", "1/2-1/2": "draw" };
  let text = `${outcome.result}: ${names[outcome.result] || ""}`;
  for (const side of ["first", "second"]) {
    const fault = outcome.faults[side];
    if (fault) text += ` — ${side}: ${fault.kind}${fault.reason ? ` (${fault.reason}: ${fault.line})` : ""}${fault.detail ? ` (${fault.detail})` : ""}`;
  }
  return text;
}

// Shows a replay with its controls; returns { frame(), show(k) }.
function viewer(container, replay, options = {}) {
  const game = replay.header.game;
  let current = options.start ?? 0;
  let timer = null;
  const boardBox = el("div", { id: "board" });
  const slider = el("input", { type: "range", min: 0, max: Math.max(replay.frames.length - 1, 0), value: current, id: "slider",
    oninput: (e) => show(Number(e.target.value)) });
  const position = el("span", { id: "position" });
  const playButton = el("button", { id: "play", onclick: () => toggle() }, "play");
  const controls = el("div", { class: "controls" },
    el("button", { id: "first", onclick: () => show(0) }, "|◀"),
    el("button", { id: "prev", onclick: () => show(current - 1) }, "◁"),
    playButton,
    el("button", { id: "next", onclick: () => show(current + 1) }, "▷"),
    el("button", { id: "last", onclick: () => show(replay.frames.length - 1) }, "▶|"),
    slider, position);
  const players = el("table", { class: "players" });
  const verdict = el("div", { class: "verdict", id: "verdict" });
  const lines = el("div", { class: "lines", id: "lines" });
  container.replaceChildren(el("h2", {}, `${replay.title}, seed ${replay.header.seed}`),
    options.hideControls ? "" : controls,
    el("div", { class: "viewer" }, boardBox, el("div", { class: "side" }, players, verdict, lines)));

  function toggle() {
    if (timer) { clearInterval(timer); timer = null; playButton.textContent = "play"; return; }
    playButton.textContent = "pause";
    timer = setInterval(() => {
      if (current >= replay.frames.length - 1) toggle(); else show(current + 1);
    }, 400);
  }

  function show(k) {
    if (replay.frames.length === 0) return;
    current = Math.max(0, Math.min(k, replay.frames.length - 1));
    slider.value = current;
    const frame = replay.frames[current];
    const from = current === 0 ? 0 : replay.frames[current - 1].index + 1;
    const upto = current === replay.frames.length - 1 ? replay.lines.length - 1 : frame.index;
    position.textContent = `${current} / ${replay.frames.length - 1}`;
    boardBox.replaceChildren(renderBoard(game, frame.view, options.onCell, options.selected && options.selected()));
    const view = frame.view || {};
    players.replaceChildren(el("tr", {}, el("th", {}, ""), el("th", {}, "agent"), el("th", {}, "score"), el("th", {}, "clock (ms)")),
      ...["first", "second"].map((side) => el("tr", { "data-side": side },
        el("td", {}, side), el("td", {}, replay.header.agents[side]),
        el("td", { class: "score" }, view.scores ? String(view.scores[side]) : ""),
        el("td", {}, view.clocks ? String(view.clocks[side]) : ""))));
    const last = current === replay.frames.length - 1;
    verdict.textContent = last && replay.outcome ? verdictText(replay.outcome) : replay.problem ? `record problem: ${replay.problem}` : "";
    lines.replaceChildren(...replay.lines.slice(from, upto + 1).map(lineText).filter(Boolean));
    lines.scrollTop = lines.scrollHeight;
  }

  if (!options.hideControls) {
    document.onkeydown = (e) => {
      if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
      if (e.key === "ArrowLeft") show(current - 1);
      if (e.key === "ArrowRight") show(current + 1);
      if (e.key === "Home") show(0);
      if (e.key === "End") show(replay.frames.length - 1);
    };
  }
  show(current);
  return { show, frame: () => current };
}

// ---------------------------------------------------------------- pages

async function replayPage() {
  const box = el("div");
  const file = el("input", { type: "file", id: "upload", accept: ".jsonl,.json,.txt,.log" });
  file.addEventListener("change", async () => {
    if (!file.files[0]) return;
    const text = await file.files[0].text();
    try {
      viewer(box, await api("/api/replay", { method: "POST", body: text }));
    } catch (error) {
      box.replaceChildren();
      showError(box, error);
    }
  });
  const kinds = await api("/api/kinds");
  const gameSelect = el("select", { id: "match-game" }, ...kinds.map((k) => el("option", { value: k.name }, k.title)));
  const firstSelect = el("select", { id: "match-first" }), secondSelect = el("select", { id: "match-second" });
  const fill = () => {
    const kind = kinds.find((k) => k.name === gameSelect.value);
    const agents = kind.agents;
    const registered = (kind.registered || []).map((r) => r.name);
    for (const select of [firstSelect, secondSelect]) select.replaceChildren(...agentOptions(agents, registered));
    firstSelect.value = registered.length ? registered[0] : agents.includes("strong") ? "strong" : "greedy";
    secondSelect.value = agents.includes("greedy") ? "greedy" : agents[0];
  };
  gameSelect.addEventListener("change", fill);
  fill();
  const form = el("form", { class: "inline", id: "match-form" }, "Watch", gameSelect, "between", firstSelect, "and", secondSelect,
    el("button", { type: "submit", id: "match-start" }, "Play it"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    box.replaceChildren(el("p", {}, "Playing…"));
    try {
      const body = { game: gameSelect.value, first: firstSelect.value, second: secondSelect.value };
      viewer(box, await api("/api/match", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    } catch (error) { box.replaceChildren(); showError(box, error); }
  });
  main.replaceChildren(el("h2", {}, "Watch a game"), form,
    el("p", {}, "Or open a record written by ", el("code", {}, "versus match --record"), ": ", file,
      " — or pick a game of a league under Leagues. Arrow keys step through a game."),
    box);
}

async function storedGamePage(id) {
  const box = el("div");
  main.replaceChildren(box);
  try { viewer(box, await api(`/api/records/${id}`)); } catch (error) { showError(box, error); }
}

async function runsPage() {
  main.replaceChildren(el("h2", {}, "Leagues and SPRT runs"));
  try {
    const runs = await api("/api/runs");
    main.append(el("table", { class: "data", id: "runs" },
      el("tr", {}, el("th", {}, "run"), el("th", {}, "kind"), el("th", {}, "game"), el("th", {}, "result")),
      ...runs.map((run) => el("tr", {},
        el("td", {}, el("a", { href: `#/runs/${run.id}` }, `#${run.id}`)),
        el("td", {}, run.kind), el("td", {}, run.game), el("td", {}, run.conclusion || "running")))));
  } catch (error) { showError(main, error); }
}

async function runPage(id) {
  main.replaceChildren(el("h2", {}, `Run #${id}`));
  try {
    const run = await api(`/api/runs/${id}`);
    if (run.sprt) {
      const s = run.sprt;
      main.append(el("p", { id: "sprt" }, `games ${s.games}: W ${s.wins} D ${s.draws} L ${s.losses}, pentanomial [${s.pentanomial.join(", ")}], ` +
        `Elo ${s.elo.value.toFixed(1)} [${s.elo.low.toFixed(1)}, ${s.elo.high.toFixed(1)}], ` +
        `LLR ${s.llr.toFixed(2)} (${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}): ${s.status}`));
    }
    main.append(el("table", { class: "data", id: "ratings" },
      el("tr", {}, ...["agent", "Elo", "95%", "games", "score", "TLE", "RE", "crash", "ms/move"].map((h) => el("th", {}, h))),
      ...run.ratings.map((r) => el("tr", {}, el("td", {}, r.name), el("td", {}, r.elo.toFixed(1)),
        el("td", {}, `[${r.elo_low.toFixed(0)}, ${r.elo_high.toFixed(0)}]`), el("td", {}, r.games),
        el("td", {}, `${r.score_pct.toFixed(1)}%`), el("td", {}, r.tle), el("td", {}, r.re), el("td", {}, r.crash),
        el("td", {}, r.mean_move_ms.toFixed(2))))));
    main.append(el("h3", {}, "Crosstable"), el("table", { class: "data", id: "crosstable" },
      el("tr", {}, el("th", {}, ""), ...run.names.map((n) => el("th", {}, n))),
      ...run.names.map((name, i) => el("tr", {}, el("td", {}, name),
        ...run.crosstable[i].map((t, j) => el("td", {}, i === j ? "—" : `${t.wins + t.draws / 2}/${t.wins + t.draws + t.losses}`))))));
    const games = await api(`/api/runs/${id}/games`);
    const names = Object.fromEntries(run.agents.map((a) => [a.id, a.name]));
    main.append(el("h3", {}, "Games"), el("table", { class: "data", id: "games" },
      el("tr", {}, ...["game", "slot", "first", "second", "result", "note"].map((h) => el("th", {}, h))),
      ...games.map((g) => el("tr", {}, el("td", {}, el("a", { href: `#/game/${g.id}` }, `#${g.id}`)), el("td", {}, g.slot),
        el("td", {}, names[g.agents.first]), el("td", {}, names[g.agents.second]), el("td", {}, g.outcome.result),
        el("td", {}, g.harness_flag || "")))));
  } catch (error) { showError(main, error); }
}

// The options of an agent list: the built-ins, then the agents the server
// was started with (`versus serve --agent`), each group labelled.
function agentOptions(builtins, registered) {
  const options = (names) => names.map((a) => el("option", { value: a }, a));
  if (!registered.length) return options(builtins);
  return [el("optgroup", { label: "built-in" }, ...options(builtins)),
    el("optgroup", { label: "registered on this server" }, ...options(registered))];
}

async function playPage() {
  const kinds = await api("/api/kinds");
  const gameSelect = el("select", { id: "play-game" }, ...kinds.map((k) => el("option", { value: k.name }, k.title)));
  const agentSelect = el("select", { id: "play-agent" });
  const fillAgents = () => {
    const kind = kinds.find((k) => k.name === gameSelect.value);
    const registered = (kind.registered || []).filter((r) => r.playable).map((r) => r.name);
    agentSelect.replaceChildren(...agentOptions(kind.agents, registered));
  };
  gameSelect.addEventListener("change", fillAgents);
  fillAgents();
  const sideSelect = el("select", { id: "play-side" }, el("option", { value: "first" }, "first"), el("option", { value: "second" }, "second"));
  const clock = el("input", { type: "checkbox", id: "play-clock" });
  const form = el("form", { class: "inline", id: "play-form" }, "Game", gameSelect, "against", agentSelect, "as", sideSelect,
    el("label", {}, clock, " play on a clock"), el("button", { type: "submit", id: "play-start" }, "Start"));
  const box = el("div");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const body = { game: gameSelect.value, agent: agentSelect.value, side: sideSelect.value, clock: clock.checked };
      const { id } = await api("/api/play", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      location.hash = `#/play/${id}`;
    } catch (error) { showError(box, error); }
  });
  main.replaceChildren(el("h2", {}, "Play a built-in agent"), form, box);
}

// The request the person must answer: the last line sent to them.
function pendingRequest(lines, side) {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.side !== side) continue;
    if (line.type === "send") return line.line;
    if (line.type === "recv" || line.type === "timeout" || line.type === "gone") return null;
  }
  return null;
}

async function playingPage(id) {
  const status = el("p", { id: "play-status" });
  const message = el("p", { class: "error", id: "play-error" });
  const input = el("input", { id: "play-line", size: 40, placeholder: "a reply line, e.g. MOVE 1 1 2 2" });
  const helpers = el("div", { id: "play-helpers" });
  const box = el("div");
  const form = el("form", { class: "inline" }, input, el("button", { type: "submit", id: "play-send" }, "Send"));
  main.replaceChildren(status, helpers, form, message, box);
  let state = null, replay = null, lastLength = -1, pick = null, chosen = new Set();

  async function send(line) {
    message.textContent = "";
    try {
      await api(`/api/play/${id}/reply`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ line }) });
      pick = null; chosen = new Set();
      await refresh();
    } catch (error) { message.textContent = error.message; }
  }
  form.addEventListener("submit", (e) => { e.preventDefault(); send(input.value); input.value = ""; });

  function onCell(cell) {
    if (!state || !state.your_turn) return;
    const game = replay.header.game, side = state.side;
    if (game === "bacteria-war") {
      if (!pick) { pick = cell; status.textContent = `from ${cell.x} ${cell.y}: click the target`; return; }
      send(`MOVE ${pick.x} ${pick.y} ${cell.x} ${cell.y}`);
    } else if (game === "domineering") {
      send(`MOVE ${cell.x} ${cell.y}`);
    } else if (game === "connexion") {
      if (!pick) { message.textContent = "pick a tile of your hand first"; return; }
      send(`PUT ${cell.name} ${pick}`);
    } else if (game === "betris-large") {
      if (cell.side !== side) return;
      const key = `${cell.x} ${cell.y}`;
      if (chosen.has(key)) chosen.delete(key); else chosen.add(key);
      draw();
    }
  }

  function draw() {
    const game = replay.header.game, side = state.side;
    const request = pendingRequest(replay.lines, side);
    status.textContent = state.over ? "The game is over." : state.your_turn ? `Your turn (${side}): ${request}` : "Waiting for the agent…";
    status.dataset.lines = replay.lines.length;
    const buttons = [];
    const view = replay.frames.length ? replay.frames[replay.frames.length - 1].view : null;
    if (state.your_turn && request) {
      if (game === "bacteria-war") buttons.push(el("button", { id: "pass", onclick: () => send("MOVE -1 -1 -1 -1") }, "pass"));
      if (game === "domineering") buttons.push(el("button", { id: "pass", onclick: () => send("MOVE -1 -1") }, "pass"));
      if (game === "connexion" && view) {
        buttons.push(el("span", { class: "hand" }, ...view.hands[side].map((tile, i) =>
          el("button", { class: pick === tile ? "selected" : "", "data-tile": tile, id: `tile-${i}`,
            style: `background:${COLOURS[tile[0]]}`, onclick: () => { pick = tile; draw(); } }, tile))));
      }
      if (game === "betris-large" && request.startsWith("PHASE1")) {
        const [, a, b] = request.split(" ");
        for (const block of [a, b]) {
          buttons.push(el("span", { class: "bet" }, `${block}:`,
            ...[0, 1, 2, 3, 4, 5].map((x) => el("button", { "data-bet": `${block} ${x}`, onclick: () => send(`BET ${block} ${x}`) }, x))));
        }
      }
      if (game === "betris-large" && request.startsWith("PHASE2")) {
        buttons.push(el("button", { id: "place", onclick: () => send(`PLACE ${chosen.size} ${[...chosen].join(" ")}`) }, "place the selected cells"),
          el("button", { id: "pass", onclick: () => send("PLACE 0") }, "pass"));
      }
    }
    helpers.replaceChildren(...buttons);
    viewer(box, replay, { start: replay.frames.length - 1, onCell, hideControls: !state.over,
      selected: () => ({ side, cells: chosen }) });
  }

  async function refresh() {
    try {
      const body = await api(`/api/play/${id}`);
      state = body.state; replay = body.replay;
      const request = pendingRequest(replay.lines, state.side);
      // READY, INIT and the like need no thought: answer them at once.
      if (state.your_turn && request && request.startsWith("READY")) { await send("OK"); return; }
      if (replay.lines.length !== lastLength) { lastLength = replay.lines.length; draw(); }
    } catch (error) { message.textContent = error.message; }
  }
  await refresh();
  const poll = setInterval(async () => {
    if (!location.hash.startsWith(`#/play/${id}`)) { clearInterval(poll); return; }
    if (state && state.over) { clearInterval(poll); return; }
    await refresh();
  }, 300);
}

function route() {
  // A replay exported to a single file carries its game and needs no server.
  if (window.VERSUS_REPLAY) {
    document.querySelector("header nav").remove();
    const frame = location.hash.match(/^#frame=(\d+)$/);
    viewer(main, window.VERSUS_REPLAY, { start: frame ? Number(frame[1]) : 0 });
    return;
  }
  const hash = location.hash || "#/replay";
  for (const link of document.querySelectorAll("header nav a")) link.classList.toggle("active", hash.startsWith(link.getAttribute("href")));
  document.onkeydown = null;
  let m;
  if (hash.startsWith("#/contest") && window.contestRoute) return window.contestRoute(hash);
  if (hash.startsWith("#/tune") && window.tuneRoute) return window.tuneRoute(hash);
  if ((m = hash.match(/^#\/game\/(\d+)$/))) return storedGamePage(m[1]);
  if ((m = hash.match(/^#\/runs\/(\d+)$/))) return runPage(m[1]);
  if (hash.startsWith("#/runs")) return runsPage();
  if ((m = hash.match(/^#\/play\/(\d+)$/))) return playingPage(m[1]);
  if (hash.startsWith("#/play")) return playPage();
  return replayPage();
}

window.addEventListener("hashchange", route);
// contest.js, loaded after this script, adds its pages before the first route.
window.addEventListener("DOMContentLoaded", route);
