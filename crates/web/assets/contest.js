// The contest pages (versus host): sign-up and sign-in, each game's Top
// Player, Submissions and Participants tabs, a submission's life, its games.
// Loaded after app.js and uses its helpers (el, api, main, viewer, showError).
"use strict";

const contest = { me: null, csrf: null, info: null, newToken: null };

async function contestSession() {
  try {
    const me = await api("/api/contest/me");
    contest.me = me.user;
    contest.csrf = me.csrf;
  } catch (error) {
    contest.me = null;
    contest.csrf = null;
  }
}

// A state-changing call: JSON body, the session's CSRF token.
function contestPost(path, body) {
  const headers = { "content-type": "application/json" };
  if (contest.csrf) headers["x-csrf-token"] = contest.csrf;
  return api(path, { method: "POST", headers, body: JSON.stringify(body ?? {}) });
}

function when(ms) {
  return ms ? new Date(ms).toLocaleString() : "";
}

function accountBox() {
  const box = el("div", { id: "contest-account" });
  if (contest.me) {
    const tokenLine = el("p", { id: "contest-token" }, contest.newToken ? `Your API token for versus submit (shown once): ${contest.newToken}` : "");
    contest.newToken = null;
    box.append(el("p", {}, "Signed in as ", el("b", { id: "contest-me" }, contest.me.name), contest.me.admin ? " (admin) " : " ",
      el("button", { id: "contest-signout", onclick: async () => {
        try { await contestPost("/api/contest/signout"); } catch (error) { /* signed out anyway */ }
        await contestSession(); contestRoute(location.hash);
      } }, "Sign out"), " ",
      el("button", { id: "contest-new-token", onclick: async () => {
        try { const { token } = await contestPost("/api/contest/token"); tokenLine.textContent = `Your new API token (shown once): ${token}`; }
        catch (error) { showError(box, error); }
      } }, "New API token")), tokenLine);
    return box;
  }
  const name = el("input", { id: "contest-name", placeholder: "name", autocomplete: "username" });
  const password = el("input", { id: "contest-password", type: "password", placeholder: "password (8+ characters)", autocomplete: "current-password" });
  const message = el("p", { class: "error", id: "contest-account-error" });
  const go = (path) => async (e) => {
    e.preventDefault();
    message.textContent = "";
    try {
      const answer = await api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: name.value, password: password.value }) });
      contest.newToken = answer.token || null;
      await contestSession();
      contestRoute(location.hash);
    } catch (error) { message.textContent = error.message; }
  };
  box.append(el("form", { class: "inline", id: "contest-signin-form", onsubmit: go("/api/contest/signin") }, name, password,
    el("button", { type: "submit", id: "contest-signin" }, "Sign in"),
    el("button", { type: "button", id: "contest-signup", onclick: go("/api/contest/signup") }, "Sign up")), message);
  return box;
}

async function contestHome() {
  const info = contest.info;
  const w = info.window;
  main.replaceChildren(el("h2", {}, "Contest"), accountBox(),
    el("p", { id: "contest-window" }, w.start_at || w.end_at ? `Open ${when(w.start_at) || "now"} to ${when(w.end_at) || "—"}${w.freeze_at ? `, leaderboard frozen from ${when(w.freeze_at)}` : ""}.` : "Open, with no end set."),
    el("ul", { id: "contest-games" }, ...info.games.map((g) => el("li", {}, el("a", { href: `#/contest/${g.name}/top` }, g.title), ": ", g.summary))));
}

// For admins: reset a game's ratings, set the contest window.
function adminBox(game) {
  if (!contest.me || !contest.me.admin) return "";
  const box = el("details", { id: "admin" }, el("summary", {}, "Admin"));
  const message = el("p", { id: "admin-message" });
  const w = contest.info.window;
  const local = (ms) => (ms ? new Date(ms - new Date().getTimezoneOffset() * 60000).toISOString().slice(0, 16) : "");
  const input = (id, ms) => el("input", { type: "datetime-local", id, value: local(ms) });
  const start = input("window-start", w.start_at), end = input("window-end", w.end_at), freeze = input("window-freeze", w.freeze_at);
  const ms = (field) => (field.value ? new Date(field.value).getTime() : null);
  box.append(el("p", {}, el("button", { id: "admin-reset", onclick: async () => {
      if (!confirm(`Stop counting every game of ${game} so far?`)) return;
      try { const r = await contestPost(`/api/contest/admin/games/${game}/reset`); message.textContent = `${r.uncounted} games no longer count.`; }
      catch (error) { message.textContent = error.message; }
    } }, "Reset ratings")),
    el("form", { class: "inline", onsubmit: async (e) => {
      e.preventDefault();
      try {
        const r = await contestPost("/api/contest/admin/window", { start_at: ms(start), end_at: ms(end), freeze_at: ms(freeze) });
        contest.info.window = r.window; message.textContent = "Window saved.";
      } catch (error) { message.textContent = error.message; }
    } }, "start", start, "end", end, "freeze", freeze, el("button", { type: "submit", id: "window-save" }, "Save window")), message);
  const kind = el("select", { id: "eval-kind" }, ...[["swiss", "Swiss"], ["robin", "Round robin"], ["finals", "Staged finals"]].map(([v, t]) => el("option", { value: v }, t)));
  const rounds = el("input", { type: "number", id: "eval-rounds", min: 1, value: 20, size: 4 });
  const games = el("input", { type: "number", id: "eval-games", min: 1, value: 2, size: 4 });
  const when_ = input("eval-start", null);
  const repeat = el("input", { type: "number", id: "eval-repeat", min: 0, step: "any", placeholder: "hours", size: 6 });
  const top = el("input", { type: "number", id: "eval-top", min: 2, placeholder: "all", size: 5 });
  box.append(el("form", { class: "inline", id: "eval-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const body = { kind: kind.value, rounds: Number(rounds.value), games: Number(games.value) };
      if (ms(when_)) body.start_at = ms(when_);
      if (repeat.value) body.repeat_hours = Number(repeat.value);
      if (top.value) body.top = Number(top.value);
      const r = await contestPost(`/api/contest/admin/games/${game}/evaluations`, body);
      message.textContent = `Evaluation #${r.id} scheduled.`;
    } catch (error) { message.textContent = error.message; }
  } }, "evaluation", kind, "rounds", rounds, "games per pairing", games, "top", top, "start", when_, "every", repeat, "h", el("button", { type: "submit", id: "eval-schedule" }, "Schedule")));
  return box;
}

function tabs(game, active) {
  const names = [["top", "Top Player"], ["submissions", "Submissions"], ["participants", "Participants"], ["games", "Games"], ["evaluations", "VS: all participants"], ["submit", "Submit"]];
  return el("nav", { class: "tabs" }, ...names.map(([key, label]) =>
    el("a", { href: `#/contest/${game}/${key}`, id: `tab-${key}`, class: key === active ? "active" : null }, label)));
}

function stateText(s) {
  return { queued: "queued", compiling: "compiling", ce: "CE", gate: "gate game", rejected: "rejected", placement: "VS sample AI", rated: "eligible, rated", ineligible: "not eligible" }[s] || s;
}

async function gamePage(gameName, tab) {
  const game = contest.info.games.find((g) => g.name === gameName);
  if (!game) { main.replaceChildren(el("p", { class: "error" }, `no game ${gameName}`)); return; }
  const body = el("div", { id: "contest-tab" });
  main.replaceChildren(el("h2", {}, game.title), el("p", { class: "summary" }, game.summary), accountBox(), adminBox(gameName), tabs(gameName, tab), body);
  try {
    if (tab === "top") await topTab(game, body);
    else if (tab === "submissions") await submissionsTab(game, body);
    else if (tab === "participants") await participantsTab(game, body);
    else if (tab === "games") await gamesTab(game, body);
    else if (tab === "evaluations") await evaluationsTab(game, body);
    else await submitTab(game, body);
  } catch (error) { showError(body, error); }
}

async function topTab(game, body) {
  const board = await api(`/api/contest/games/${game.name}/leaderboard`);
  if (board.frozen_at) body.append(el("p", { id: "contest-frozen" }, `Frozen: games finished before ${when(board.frozen_at)}.`));
  const actions = (row) => {
    if (!contest.me || row.builtin) return "";
    const opponent = row.name;
    return el("span", {},
      el("button", { class: "play-entry", onclick: () => playEntry(game.name, opponent, body) }, "play"), " ",
      row.name !== contest.me.name ? el("button", { class: "challenge", onclick: () => challenge(game.name, opponent, body) }, "challenge") : "");
  };
  if (contest.me) body.append(el("p", {}, "Play an entry as the ", el("select", { id: "play-entry-side" },
    el("option", { value: "first" }, "first"), el("option", { value: "second" }, "second")), " player, or challenge it (an unrated game you watch)."));
  body.append(el("table", { class: "data", id: "leaderboard" },
    el("tr", {}, ...["rank", "participant", "rating", "95%", "games", "W/D/L", "language", ""].map((h) => el("th", {}, h))),
    ...board.rows.map((row) => el("tr", { class: row.builtin ? "builtin" : "entry", "data-name": row.name },
      el("td", {}, row.rank),
      el("td", {}, row.builtin ? el("i", {}, row.name) : el("a", { href: `#/contest/submission/${row.submission}` }, row.name)),
      el("td", {}, row.elo.toFixed(0)),
      el("td", {}, row.builtin ? "fixed" : `[${row.low.toFixed(0)}, ${row.high.toFixed(0)}]`),
      el("td", {}, row.games), el("td", {}, `${row.wins}/${row.draws}/${row.losses}`),
      el("td", {}, row.language || ""), el("td", {}, actions(row))))));
}

async function playEntry(game, opponent, body) {
  const side = document.getElementById("play-entry-side")?.value || "first";
  try {
    const { id } = await contestPost("/api/contest/play", { game, opponent, side });
    location.hash = `#/play/${id}`;
  } catch (error) { showError(body, error); }
}

async function challenge(game, opponent, body) {
  try {
    const { id } = await contestPost(`/api/contest/games/${game}/challenge`, { opponent });
    location.hash = `#/contest/match/${id}`;
  } catch (error) { showError(body, error); }
}

async function submissionsTab(game, body) {
  const list = await api(`/api/contest/games/${game.name}/submissions`);
  body.append(el("table", { class: "data", id: "submissions" },
    el("tr", {}, ...["#", "participant", "language", "bytes", "state", "submitted"].map((h) => el("th", {}, h))),
    ...list.map((s) => el("tr", { "data-id": s.id },
      el("td", {}, el("a", { href: `#/contest/submission/${s.id}` }, `#${s.id}`)),
      el("td", {}, s.user_name), el("td", {}, s.language), el("td", {}, s.bytes),
      el("td", { class: `state-${s.state}` }, stateText(s.state) + (s.hidden ? " (hidden)" : "")), el("td", {}, when(s.created_at_ms))))));
}

async function participantsTab(game, body) {
  const list = await api(`/api/contest/games/${game.name}/participants`);
  body.append(el("table", { class: "data", id: "participants" },
    el("tr", {}, ...["participant", "submissions", "entry", "language", "state"].map((h) => el("th", {}, h))),
    ...list.map((p) => el("tr", {},
      el("td", {}, p.name), el("td", {}, p.submissions),
      el("td", {}, p.entry ? el("a", { href: `#/contest/submission/${p.entry}` }, `#${p.entry}`) : "—"),
      el("td", {}, p.language || ""), el("td", {}, p.state ? stateText(p.state) : "")))));
}

function playerName(player) {
  return player.builtin !== undefined ? `builtin:${player.builtin}` : `#${player.submission}`;
}

function gamesTable(games) {
  return el("table", { class: "data", id: "contest-matches" },
    el("tr", {}, ...["game", "kind", "first", "second", "result", "finished"].map((h) => el("th", {}, h))),
    ...games.map((m) => el("tr", { "data-id": m.id },
      el("td", {}, m.status === "done" ? el("a", { href: `#/contest/match/${m.id}` }, `#${m.id}`) : `#${m.id}`),
      el("td", {}, m.kind), el("td", {}, playerName(m.first)), el("td", {}, playerName(m.second)),
      el("td", {}, m.outcome ? `${m.outcome.scores.first} – ${m.outcome.scores.second}` + faultsText(m.outcome) : m.status),
      el("td", {}, when(m.finished_at_ms)))));
}

function faultsText(outcome) {
  const f = [outcome.faults.first, outcome.faults.second].map((x) => (x ? (x.kind || "fault") : null));
  return f[0] || f[1] ? ` (${f[0] ? `first: ${f[0]}` : ""}${f[0] && f[1] ? ", " : ""}${f[1] ? `second: ${f[1]}` : ""})` : "";
}

async function gamesTab(game, body) {
  body.append(gamesTable(await api(`/api/contest/games/${game.name}/matches`)));
}

async function submitTab(game, body) {
  if (!contest.me) { body.append(el("p", {}, "Sign in to submit.")); return; }
  const file = el("input", { type: "file", id: "submit-file" });
  const language = el("select", { id: "submit-language" }, el("option", { value: "" }, "from the file name"),
    ...contest.info.languages.map((l) => el("option", { value: l }, l)));
  const data = el("input", { type: "file", id: "submit-data" });
  const message = el("p", { class: "error", id: "submit-error" });
  const form = el("form", { class: "inline", id: "submit-form" }, file, "language", language, "data.bin (optional)", data, el("button", { type: "submit", id: "submit-send" }, "Submit"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    message.textContent = "";
    const chosen = file.files[0];
    if (!chosen) { message.textContent = "choose a source file"; return; }
    if (chosen.size > contest.info.max_source_bytes) { message.textContent = `the file is ${chosen.size} bytes; the limit is ${contest.info.max_source_bytes}`; return; }
    const extra = data.files[0];
    if (extra && extra.size > contest.info.max_data_bytes) { message.textContent = `the data file is ${extra.size} bytes; the limit is ${contest.info.max_data_bytes}`; return; }
    try {
      const source = await chosen.text();
      const upload = { filename: chosen.name, language: language.value || null, source };
      if (extra) {
        // Base64 in slices: one String.fromCharCode call per 32 KiB.
        const bytes = new Uint8Array(await extra.arrayBuffer());
        let binary = "";
        for (let i = 0; i < bytes.length; i += 32768) binary += String.fromCharCode(...bytes.subarray(i, i + 32768));
        upload.data = btoa(binary);
      }
      const { id } = await contestPost(`/api/contest/games/${game.name}/submissions`, upload);
      location.hash = `#/contest/submission/${id}`;
    } catch (error) { message.textContent = error.message; }
  });
  body.append(el("p", {}, `A source in ${contest.info.languages.join(", ")}, at most ${contest.info.max_source_bytes / 1024} KiB, with an optional data file of at most ${contest.info.max_data_bytes / 1048576} MiB that the program finds as data.bin in its folder when it runs; at most ${contest.info.pacing.count} submissions within ${contest.info.pacing.window_s} s. `,
    "Start from a sample: ", el("code", {}, `versus new ${game.name} --lang cpp`), "."), form, message);
}

let submissionPoll = null;

async function submissionPage(id) {
  const box = el("div", { id: "submission" });
  main.replaceChildren(box);
  const draw = async () => {
    const { submission: s, mine, entry, games } = await api(`/api/contest/submissions/${id}`);
    const parts = [el("h2", {}, `Submission #${s.id} — ${s.user_name}, ${s.game}`),
      el("p", {}, el("a", { href: `#/contest/${s.game}/top` }, "Top Player"), " · ", `${s.language}, ${s.bytes} bytes${s.data_bytes != null ? `, data.bin ${s.data_bytes} bytes` : ""}, submitted ${when(s.created_at_ms)}`),
      el("p", { id: "submission-state", class: `state-${s.state}` }, "State: ", el("b", {}, stateText(s.state)), s.hidden ? " (hidden)" : "", entry ? " — the entry" : "")];
    if (s.detail && s.state !== "ce") parts.push(el("p", { id: "submission-detail" }, s.detail));
    if (mine) {
      const priv = await api(`/api/contest/submissions/${id}/source`);
      if (priv.compile_log || s.state === "ce") parts.push(el("h3", {}, "Compiler output"), el("pre", { class: "lines", id: "compile-log" }, priv.detail || "", "\n", priv.compile_log || ""));
      if (!entry && s.state === "rated") parts.push(el("button", { id: "make-entry", onclick: async () => {
        try { await contestPost(`/api/contest/submissions/${id}/entry`); draw(); } catch (error) { showError(box, error); }
      } }, "Make this my entry"));
      parts.push(el("details", {}, el("summary", {}, "Source"), el("pre", { class: "lines", id: "submission-source" }, priv.source || "")));
    }
    if (contest.me && contest.me.admin) {
      parts.push(el("p", {}, el("button", { id: "admin-hide", onclick: async () => { await contestPost(`/api/contest/admin/submissions/${id}/hide`, { hidden: !s.hidden }); draw(); } }, s.hidden ? "Show" : "Hide"), " ",
        el("button", { id: "admin-rejudge", onclick: async () => { await contestPost(`/api/contest/admin/submissions/${id}/rejudge`); draw(); } }, "Rejudge")));
    }
    parts.push(el("h3", {}, "Games"), gamesTable(games));
    box.replaceChildren(...parts);
    const settled = ["ce", "rejected", "rated", "ineligible"].includes(s.state) && games.every((m) => m.status === "done");
    return !settled;
  };
  clearInterval(submissionPoll);
  try {
    if (await draw()) {
      submissionPoll = setInterval(async () => {
        if (location.hash !== `#/contest/submission/${id}`) { clearInterval(submissionPoll); return; }
        try { if (!(await draw())) clearInterval(submissionPoll); } catch (error) { clearInterval(submissionPoll); showError(box, error); }
      }, 1000);
    }
  } catch (error) { showError(box, error); }
}

async function evaluationsTab(game, body) {
  const list = await api(`/api/contest/games/${game.name}/evaluations`);
  if (!list.length) { body.append(el("p", {}, "No evaluation yet: an organiser schedules them (Swiss rounds, round robins, finals).")); return; }
  const kinds = { swiss: "Swiss", robin: "Round robin", finals: "Staged finals" };
  body.append(el("table", { class: "data", id: "evaluations" },
    el("tr", {}, ...["evaluation", "kind", "rounds", "games per pairing", "participants", "of", "state", "start", "finished"].map((h) => el("th", {}, h))),
    ...list.map((e) => el("tr", {},
      el("td", {}, el("a", { href: `#/contest/evaluation/${e.id}` }, `#${e.id}`)), el("td", {}, kinds[e.kind] || e.kind),
      el("td", {}, e.kind === "swiss" ? String(e.rounds) : "—"), el("td", {}, String(e.games)), el("td", {}, String(e.participants)),
      el("td", {}, e.top ? `top ${e.top}` : "all"), el("td", {}, e.state), el("td", {}, when(e.start_at_ms)), el("td", {}, when(e.finished_at_ms))))));
}

async function evaluationPage(id) {
  const box = el("div", { id: "evaluation" });
  main.replaceChildren(box);
  const e = await api(`/api/contest/evaluations/${id}`);
  const who = new Map(e.participants.map((p) => [p.submission, p]));
  const name = (sid) => { const p = who.get(sid); return el("a", { href: `#/contest/submission/${sid}` }, p ? `${p.name} (#${sid})` : `#${sid}`); };
  const kinds = { swiss: "Swiss tournament", robin: "Round robin", finals: "Staged finals" };
  const breaks = e.kind === "swiss" ? ["rounds won", "opponents' scores", "weighted score", "weighted opponents'"] : ["Sonneborn–Berger"];
  const parts = [el("h2", {}, `${kinds[e.kind]} #${e.id} — ${e.game}`),
    el("p", {}, el("a", { href: `#/contest/${e.game}/evaluations` }, "All evaluations"), ` · ${e.state}, started ${when(e.start_at_ms)}`, e.finished_at_ms ? `, finished ${when(e.finished_at_ms)}` : ""),
    el("h3", {}, "Standings"),
    el("table", { class: "data", id: "evaluation-standings" },
      el("tr", {}, ...["#", "participant", "seed", "score", ...breaks, "performance", "expected"].map((h) => el("th", {}, h))),
      ...e.standings.map((r) => { const p = who.get(r.submission) || {}; return el("tr", {},
        el("td", {}, String(r.rank)), el("td", {}, name(r.submission)), el("td", {}, String(r.seed)), el("td", {}, String(r.score)),
        ...r.tie_breaks.map((t) => el("td", {}, String(Math.round(t * 100) / 100))),
        el("td", {}, p.performance == null ? "—" : String(p.performance)), el("td", {}, p.expected == null ? "—" : String(p.expected))); }))];
  for (const round of e.rounds) {
    const label = e.kind === "finals" ? `Stage ${round.round}` : e.kind === "swiss" ? `Round ${round.round}` : "Games";
    parts.push(el("h3", {}, label));
    if (round.bye) parts.push(el("p", {}, "Bye: ", name(round.bye)));
    if (round.advancing.length) parts.push(el("p", {}, "Go on: ", ...round.advancing.flatMap((a, k) => (k ? [", ", name(a)] : [name(a)]))));
    parts.push(el("table", { class: "data evaluation-round" },
      el("tr", {}, ...["game", ...(e.kind === "finals" ? ["cycle"] : []), "first", "second", "result"].map((h) => el("th", {}, h))),
      ...round.games.map((g) => el("tr", {},
        el("td", {}, g.status === "done" ? el("a", { href: `#/contest/match/${g.id}` }, `#${g.id}`) : `#${g.id}`),
        ...(e.kind === "finals" ? [el("td", {}, String(g.cycle))] : []),
        el("td", {}, name(g.first)), el("td", {}, name(g.second)),
        el("td", {}, g.first_points == null ? g.status : `${g.first_points} – ${1 - g.first_points}`)))));
  }
  box.replaceChildren(...parts);
}

async function matchPage(id) {
  const box = el("div");
  main.replaceChildren(el("h2", {}, `Game #${id}`), box);
  const poll = async () => {
    const answer = await api(`/api/contest/matches/${id}`);
    if (!answer.replay) {
      box.replaceChildren(el("p", { id: "match-waiting" }, `This game is ${answer.match.status}; it shows here when it is over.`));
      setTimeout(() => { if (location.hash === `#/contest/match/${id}`) poll().catch((e) => showError(box, e)); }, 1000);
      return;
    }
    box.replaceChildren();
    viewer(box, answer.replay);
  };
  try { await poll(); } catch (error) { showError(box, error); }
}

async function contestRoute(hash) {
  clearInterval(submissionPoll);
  try {
    if (!contest.info) contest.info = await api("/api/contest");
  } catch (error) {
    main.replaceChildren(); showError(main, error); return;
  }
  await contestSession();
  let m;
  if ((m = hash.match(/^#\/contest\/submission\/(\d+)$/))) return submissionPage(m[1]);
  if ((m = hash.match(/^#\/contest\/match\/(\d+)$/))) return matchPage(m[1]);
  if ((m = hash.match(/^#\/contest\/evaluation\/(\d+)$/))) return evaluationPage(m[1]).catch((error) => showError(main, error));
  if ((m = hash.match(/^#\/contest\/([a-z-]+)(?:\/([a-z]+))?$/))) return gamePage(m[1], m[2] || "top");
  return contestHome();
}
