// The tuning page (versus tune): the store's tuning runs, and for each run
// every parameter's trajectory, drawn here from the stored history with the
// layout the server gives (the same as `versus tune --show N --svg`).
// Loaded after app.js and uses its helpers (el, svg, api, main, showError).
"use strict";

async function tuneRunsPage() {
  main.replaceChildren(el("h2", {}, "Tuning runs"));
  try {
    const runs = await api("/api/tune");
    if (runs.length === 0) main.append(el("p", {}, "No tuning runs in this store yet (versus tune GAME --agent SPEC --params FILE --db FILE)."));
    main.append(el("table", { class: "data", id: "tune-runs" },
      el("tr", {}, el("th", {}, "run"), el("th", {}, "game"), el("th", {}, "agent"), el("th", {}, "parameters"),
        el("th", {}, "iterations"), el("th", {}, "result")),
      ...runs.map((run) => el("tr", {},
        el("td", {}, el("a", { href: `#/tune/${run.id}` }, `#${run.id}`)),
        el("td", {}, run.game), el("td", {}, run.agent), el("td", {}, run.params.join(", ")),
        el("td", {}, `${run.done}/${run.iterations}`), el("td", {}, run.conclusion || "running")))));
  } catch (error) { showError(main, error); }
}

// One panel per parameter: θ after each iteration (0: the start) on the
// parameter's range, the start as a dashed line.
function tuneChart(run) {
  const L = run.layout, plan = run.plan;
  const plotW = L.width - L.left - L.right, plotH = L.panel - L.top - L.bottom;
  const height = L.panel * plan.params.length;
  const root = svg("svg", { width: L.width, height, viewBox: `0 0 ${L.width} ${height}`, id: "tune-chart",
    "font-family": "sans-serif", "font-size": 11, class: "board" });
  const point = (p, i, value) => {
    const param = plan.params[p];
    return [L.left + plotW * i / plan.iterations,
      p * L.panel + L.top + plotH * (param.max - value) / (param.max - param.min)];
  };
  plan.params.forEach((param, p) => {
    const [x0, yTop] = point(p, 0, param.max);
    const [x1, yBottom] = point(p, plan.iterations, param.min);
    root.append(svg("text", { x: x0, y: yTop - 6, "font-weight": "bold" }, `${param.name} ${run.plan.params[p].start} → ${run.used[p]}`));
    root.append(svg("rect", { x: x0, y: yTop, width: x1 - x0, height: yBottom - yTop, fill: "none", stroke: "#bbb" }));
    root.append(svg("text", { x: x0 - 4, y: yTop + 4, "text-anchor": "end" }, String(param.max)));
    root.append(svg("text", { x: x0 - 4, y: yBottom + 4, "text-anchor": "end" }, String(param.min)));
    const [, yStart] = point(p, 0, param.start);
    root.append(svg("line", { x1: x0, y1: yStart, x2: x1, y2: yStart, stroke: "#ccc", "stroke-dasharray": "4 3" }));
    const points = [point(p, 0, param.start)];
    run.theta.forEach((theta, k) => points.push(point(p, k + 1, theta[p])));
    root.append(svg("polyline", { fill: "none", stroke: "#1f5fbf", "stroke-width": 1.5, class: "trajectory",
      "data-param": param.name, points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ") }));
  });
  return root;
}

async function tuneRunPage(id) {
  const draw = (run) => {
    const plan = run.plan;
    const wins = run.results.filter((r) => r > 0).length, losses = run.results.filter((r) => r < 0).length;
    main.replaceChildren(el("h2", {}, `Tuning run #${id}: ${plan.game}, ${plan.agent}`),
      el("p", { class: "summary", id: "tune-status" },
        `${run.done} of ${plan.iterations} iterations (${2 * run.done} games at ${plan.time.game_ms} ms a player), `,
        `θ + cΔ won ${wins} pairs and lost ${losses}. `, run.conclusion ? "Finished." : "Running: this page follows it."),
      tuneChart(run),
      el("table", { class: "data", id: "tune-values" },
        el("tr", {}, el("th", {}, "parameter"), el("th", {}, "start"), el("th", {}, "now"), el("th", {}, "used"), el("th", {}, "range"),
          el("th", {}, "c_end"), el("th", {}, "r_end")),
        ...plan.params.map((p, i) => el("tr", {}, el("td", {}, p.name), el("td", {}, p.start), el("td", {}, run.now[i].toFixed(3)),
          el("td", {}, run.used[i]), el("td", {}, `[${p.min}, ${p.max}]`), el("td", {}, p.c_end), el("td", {}, p.r_end)))),
      el("p", {}, "The agent with these values:"), el("pre", { class: "lines", id: "tune-spec" }, run.spec));
  };
  try {
    let run = await api(`/api/tune/${id}`);
    draw(run);
    const poll = setInterval(async () => {
      if (location.hash !== `#/tune/${id}`) { clearInterval(poll); return; }
      try {
        const next = await api(`/api/tune/${id}`);
        if (next.done !== run.done || next.conclusion !== run.conclusion) { run = next; draw(run); }
        if (run.conclusion) clearInterval(poll);
      } catch (error) { clearInterval(poll); showError(main, error); }
    }, 2000);
  } catch (error) { showError(main, error); }
}

window.tuneRoute = (hash) => {
  const m = hash.match(/^#\/tune\/(\d+)$/);
  return m ? tuneRunPage(m[1]) : tuneRunsPage();
};
