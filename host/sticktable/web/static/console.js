// The sticktable web console: renders the view named by <main data-view> from the JSON API.
// DOM built with textContent only (names are user input); no inline code (CSP).
"use strict";

const app = document.getElementById("app");

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function getJSON(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

async function postJSON(url, data) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(data),
  });
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function show(...nodes) {
  app.replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

// Views rebuild the page on every update and keep their text inputs across rebuilds; moving an
// input into the new page drops its focus, so the referee typing a command when a stick falls
// would type on into nothing. keepFocus() is taken before a rebuild and called after it: the
// focus and caret go back where they were.
function keepFocus() {
  const focused = app.contains(document.activeElement) ? document.activeElement : null;
  const caret = focused && typeof focused.selectionStart === "number" ? [focused.selectionStart, focused.selectionEnd] : null;
  return () => {
    if (!focused || focused === document.activeElement || !app.contains(focused)) return;
    focused.focus();
    if (caret) focused.setSelectionRange(...caret);
  };
}

function failure(err) {
  return el("p", { class: "error", role: "alert" }, String(err.message || err));
}

// -- shared pieces ------------------------------------------------------------------------

function standingsTable(summary) {
  const winners = new Set(summary.winners);
  const rounds = summary.rounds;
  const head = el("tr", {}, el("th", {}, "player"),
    rounds.map((_, i) => el("th", { class: "num" }, `R${i + 1}`)), el("th", { class: "num" }, "total"));
  const rows = summary.players.map((p) =>
    el("tr", { "data-player": p, class: winners.has(p) ? "winner" : null },
      el("td", { class: "name" }, p, winners.has(p) ? " ★" : ""),
      rounds.map((r) => el("td", { class: "num" }, r[p] ?? 0)),
      el("td", { class: "num total", "data-total": p }, summary.totals[p] ?? 0)));
  const notes = summary.round_notes.some((n) => n)
    ? el("p", { class: "notes" }, summary.round_notes.map((n, i) => n ? `R${i + 1}: ${n}` : null)
      .filter(Boolean).join(" · "))
    : null;
  return el("div", { class: "scroll" }, el("table", { class: "standings" }, el("thead", {}, head),
    el("tbody", {}, rows)), notes);
}

const PLOT_COLOURS = ["#2b7bd6", "#d6452b", "#2bab5c", "#b02bd6", "#d69a2b", "#2bc4d6", "#6b6b6b", "#d62b8f"];

function totalsPlot(summary, holder) {
  holder.replaceChildren();
  if (!window.uPlot || summary.by_round.length < 2) return;
  const xs = summary.by_round.map((_, i) => i);
  const data = [xs, ...summary.players.map((p) => summary.by_round.map((t) => t[p] ?? 0))];
  const width = Math.min(holder.clientWidth || 600, 900);
  const opts = {
    width, height: 220, title: "totals by round",
    scales: { x: { time: false } },
    axes: [{ label: "round" }, {}],
    series: [{ label: "round" },
      ...summary.players.map((p, i) => ({ label: p, stroke: PLOT_COLOURS[i % PLOT_COLOURS.length], width: 2 }))],
  };
  new uPlot(opts, data, holder);
}

function eventLog(log, attrs) {
  return el("ol", { class: "log", start: 0, ...attrs },
    log.map((e) => el("li", { value: e.n, "data-n": e.n, class: e.corrected_by !== undefined ? "corrected" : null },
      el("span", { class: "n" }, e.n), " ", e.text,
      e.corrected_by !== undefined ? el("span", { class: "tag" }, ` corrected by ${e.corrected_by}`) : null)));
}

function factsList(facts) {
  return el("dl", { class: "facts" }, Object.entries(facts).map(([k, v]) =>
    [el("dt", {}, k), el("dd", { "data-fact": k }, v === null ? "–" : String(v))]));
}

// -- history ------------------------------------------------------------------------------

async function viewGames() {
  const games = await getJSON("/api/games");
  if (!games.length) return show(el("h1", {}, "Games"), el("p", {}, "no games yet"));
  const rows = games.slice().reverse().map((g) =>
    el("tr", {},
      el("td", {}, el("a", { href: `/games/${g.id}` }, `#${g.id}`)),
      el("td", {}, g.game),
      el("td", {}, g.players.join(", ")),
      el("td", {}, new Date(g.created * 1000).toLocaleString()),
      el("td", {}, g.finished ? "finished" : "in progress"),
      el("td", { class: "num" }, g.events)));
  show(el("h1", {}, "Games"), el("div", { class: "scroll" }, el("table", { class: "games" },
    el("thead", {}, el("tr", {}, ["game", "rules", "players", "started", "status", "events"].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows))), el("p", {}, el("a", { href: "/stats" }, "statistics and leaderboard")));
}

async function viewGame() {
  const id = app.dataset.game_id;
  const game = await getJSON(`/api/games/${id}`);
  const s = game.summary;
  const plot = el("div", { class: "plot" });
  const slider = el("input", { type: "range", min: 0, max: game.log.length, value: game.log.length, id: "step", "aria-label": "replay step" });
  const stepOut = el("div", { class: "step", id: "step-view" });
  const status = s.finished ? `finished · winner${s.winners.length > 1 ? "s" : ""}: ${s.winners.join(", ")}` : "not finished";
  show(
    el("h1", {}, `Game ${id}: ${s.game}`),
    el("p", { class: "status" }, status),
    el("section", {}, el("h2", {}, "Standings"), standingsTable(s), plot),
    el("section", {}, el("h2", {}, "Replay"), el("label", { for: "step" }, "step "), slider, stepOut),
    el("section", {}, el("h2", {}, "Downloads"), el("p", { class: "downloads" },
      el("a", { href: `/games/${id}/transcript.jsonl`, download: true }, "transcript"), " · ",
      el("a", { href: `/games/${id}/game.json`, download: true }, "JSON"), " · ",
      el("a", { href: `/games/${id}/rounds.csv`, download: true }, "CSV"))),
    tracesSection(id, game),
    el("section", {}, el("h2", {}, "Event log"), eventLog(game.log, { id: "log" })),
  );
  totalsPlot(s, plot);
  for (const li of document.querySelectorAll("#log li")) {
    const entry = game.log[Number(li.dataset.n)];
    if (entry && entry.trace !== undefined) {
      li.append(" ", el("button", { class: "secondary small", "data-plot": entry.trace,
        on: { click: () => showTrace(id, entry.trace) } }, "plot"));
    }
  }
  let pending = 0;
  async function step() {
    const ticket = ++pending;
    const at = await getJSON(`/api/games/${id}/step/${slider.value}`);
    if (ticket !== pending) return; // a newer position was asked for meanwhile
    stepOut.replaceChildren(
      el("p", {}, `after ${at.step} of ${at.of} events`, at.event ? ` — last: ${at.event.n} ${at.event.text}` : ""),
      standingsTable(at.summary), factsList(at.facts));
    stepOut.dataset.step = at.step;
  }
  slider.addEventListener("input", () => step().catch((e) => stepOut.replaceChildren(failure(e))));
  await step();
}

// The samples around a sensed event (journaled by the table): load, centre of pressure, tilt,
// with the moment the board detected the event marked.
function tracesSection(id, game) {
  if (!game.traces.length) return null;
  const pick = el("select", { id: "trace-pick", "aria-label": "sensed event" }, game.traces.map((t) =>
    el("option", { value: t.id }, `${t.kind} at ${(t.t / 1000).toFixed(1)} s` + (t.n !== undefined ? ` (event ${t.n})` : " (no rule event)"))));
  pick.addEventListener("change", () => showTrace(id, Number(pick.value)));
  setTimeout(() => showTrace(id, game.traces[0].id), 0);
  return el("section", {}, el("h2", {}, "Sensed events"), el("p", {}, pick),
    el("div", { id: "trace", class: "plots" }));
}

async function showTrace(gameId, traceId) {
  const holder = document.getElementById("trace");
  const pick = document.getElementById("trace-pick");
  if (!holder) return;
  pick.value = traceId;
  const trace = await getJSON(`/api/games/${gameId}/traces/${traceId}`);
  const col = (name) => trace.samples.map((row) => row[trace.columns.indexOf(name)]);
  const xs = col("dt_ms");
  const cells = trace.columns.filter((c) => c.startsWith("cell"));
  const width = Math.min(holder.clientWidth || 600, 900);
  const marked = (plotBox) => ({
    draw: [(u) => {
      const x = u.valToPos(0, "x", true);
      const ctx = u.ctx;
      ctx.save(); ctx.strokeStyle = "#e00000"; ctx.lineWidth = 2 * devicePixelRatio;
      ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke(); ctx.restore();
      plotBox.dataset.marker = String(Math.round(x));
    }],
  });
  function plot(title, unit, series) {
    const box = el("div", { class: "plot", "data-plot-of": title });
    holder.append(box);
    if (!window.uPlot) return;
    new uPlot({
      width, height: 180, title: `${title} (${unit})`, scales: { x: { time: false } },
      axes: [{ label: `ms from the ${trace.kind} (red: detected)` }, {}],
      series: [{ label: "ms" }, ...series.map(([label], i) => ({ label, stroke: PLOT_COLOURS[i % PLOT_COLOURS.length], width: 1.5 }))],
      hooks: marked(box),
    }, [xs, ...series.map(([, data]) => data)], box);
  }
  holder.replaceChildren(el("p", { class: "notes", id: "trace-about" },
    `${trace.kind}: ${trace.samples.length} samples, ${xs[0]} to ${xs[xs.length - 1]} ms around the board's detection`));
  plot("load", "g", [["total", col("load_g")], ...cells.map((c) => [c.replace("_g", ""), col(c)])]);
  plot("centre of pressure", "mm", [["x", col("cop_x_mm")], ["y", col("cop_y_mm")]]);
  plot("tilt", "degrees", [["x", col("tilt_x_deg")], ["y", col("tilt_y_deg")]]);
  holder.dataset.trace = traceId;
  window.sticktableTrace = trace; // for the browser tests: what was plotted
}

async function viewStats() {
  const stats = await getJSON("/api/stats");
  const cols = [["rank", "#"], ["player", "player"], ["games", "games"], ["wins", "wins"],
    ["win_rate", "win rate"], ["avg_round", "avg round"], ["topples", "topples"],
    ["fell_per_turn", "fell/turn"], ["winnings", "winnings"], ["tries", "tries"]];
  const boards = Object.entries(stats.leaderboards).map(([rules, players]) => {
    const shown = cols.filter(([k]) => players.some((r) => r[k] !== undefined && r[k] !== null));
    const rows = players.map((r) => el("tr", { "data-player": r.player },
      shown.map(([k]) => el("td", { class: k === "player" ? "name" : "num" }, r[k] ?? "–"))));
    return el("section", { "data-rules": rules }, el("h2", {}, rules), el("div", { class: "scroll" },
      el("table", { class: "leaderboard" }, el("thead", {}, el("tr", {}, shown.map(([, h]) => el("th", {}, h)))),
        el("tbody", {}, rows))));
  });
  show(el("h1", {}, "Leaderboards"), boards.length ? boards : el("p", {}, "no games yet"),
    stats.skipped.length ? el("p", { class: "notes" }, `games that do not replay: ${stats.skipped.join(", ")}`) : null);
}


// -- live views: one WebSocket feed, re-rendered on each snapshot ------------------------------

function feed(onMessage, onSensors) {
  let delay = 500;
  const status = el("p", { class: "notes", id: "feed" }, "connecting…");
  function connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    ws.onopen = () => { delay = 500; status.textContent = "live"; };
    let log = [];
    let over = false; // a player's link was for a game that is over: nothing to reconnect to
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.kind === "over") {
        over = true;
        status.replaceChildren(el("span", { id: "link-over" }, msg.text));
        return;
      }
      if (msg.kind === "sensors") {
        window.sticktableSensors = msg;
        if (onSensors) onSensors(msg);
        return;
      }
      log = log.slice(0, msg.log_from).concat(msg.log); // the server sends what changed
      msg.log = log;
      window.sticktableLast = msg; // for the browser tests: the latest snapshot this page has
      (window.sticktableSeen = window.sticktableSeen || []).push({ version: msg.version, events: msg.log.length, totals: msg.summary.totals });
      const restoreFocus = keepFocus();
      try { onMessage(msg); } catch (err) { status.replaceChildren(failure(err)); }
      restoreFocus();
    };
    ws.onclose = () => { if (over) return; status.textContent = "reconnecting…"; setTimeout(connect, delay); delay = Math.min(delay * 2, 8000); };
  }
  connect();
  return status;
}

function ringSvg(colours, score, turn) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  for (let i = 0; i < 12; i++) {
    const a = (i / 12) * 2 * Math.PI - Math.PI / 2;
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", (38 * Math.cos(a)).toFixed(1));
    c.setAttribute("cy", (38 * Math.sin(a)).toFixed(1));
    c.setAttribute("r", "7");
    const colour = colours ? colours[i] : "#000000";
    // LEDs are dim on purpose (a 500 mA budget): scale up so the page shows the hue.
    c.setAttribute("fill", colour === "#000000" ? "#e4e4e4" : brighten(colour));
    c.setAttribute("stroke", "#999");
    c.setAttribute("data-led", colour);
    svg.append(c);
  }
  const t = document.createElementNS(ns, "text");
  t.setAttribute("text-anchor", "middle"); t.setAttribute("dy", "8"); t.setAttribute("font-size", "24");
  t.textContent = score;
  svg.append(t);
  if (turn) svg.classList.add("turn");
  return svg;
}

function brighten(hex) {
  const v = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const m = Math.max(...v) || 1;
  return "#" + v.map((x) => Math.round((x / m) * 230).toString(16).padStart(2, "0")).join("");
}

function statusLine(msg) {
  const s = msg.status;
  const parts = [`game ${msg.game_id}: ${msg.summary.game}`];
  if (s.finished) parts.push("game over");
  else if (s.paused.length) parts.push(`paused: ${s.paused.join("; ")}`);
  else parts.push("playing");
  parts.push(s.boot ? `board connected (boot ${s.boot})` : "no board");
  return el("p", { class: s.paused.length ? "status error" : "status", id: "status" }, parts.join(" · "));
}

function lastEvents(msg, count) {
  const log = msg.log.slice(-count).reverse();
  return el("ol", { class: "log recent", reversed: true }, log.map((e) =>
    el("li", { "data-n": e.n }, el("span", { class: "n" }, e.n), " ", e.text)));
}

function costsLine(costs) {
  const parts = Object.entries(costs).map(([p, d]) => `${p} ${d > 0 ? "+" : ""}${d}`);
  return parts.length ? el("p", { class: "costs", id: "costs" }, "last change: ", parts.join(", ")) : null;
}

let speech = false;
function announce(text) {
  if (speech && window.speechSynthesis) window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}

// The tower's live load and the base's tilt, from the board's streamed samples.
function towerMeter() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs) => { const n = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; };
  const load = el("div", { class: "big", id: "load" }, "–");
  const cells = el("div", { class: "notes", id: "cells" });
  const level = svg("svg", { viewBox: "-50 -50 100 100", width: 128, height: 128, class: "level", id: "level" });
  level.append(svg("circle", { r: 45, fill: "none", stroke: "#999" }), svg("circle", { r: 15, fill: "none", stroke: "#ccc" }),
    svg("line", { x1: -45, y1: 0, x2: 45, y2: 0, stroke: "#ddd" }), svg("line", { x1: 0, y1: -45, x2: 0, y2: 45, stroke: "#ddd" }));
  const bubble = svg("circle", { r: 6, fill: "#2b7bd6", id: "bubble" });
  const cop = svg("circle", { r: 4, fill: "#d6452b", id: "cop" });
  level.append(bubble, cop);
  const tilt = el("div", { id: "tilt" }, "tilt –");
  const box = el("section", { class: "panel", id: "meter" }, el("h2", {}, "Tower"), load, cells,
    el("div", { class: "meter" }, level, el("div", {}, tilt, el("p", { class: "notes" }, "blue: tilt of the base (inner ring 5°), red: centre of pressure"))));
  box.hidden = true;
  function update(s) {
    box.hidden = false;
    load.textContent = s.load_g === null ? "–" : `${s.load_g.toFixed(1)} ${s.uncalibrated ? "counts" : "g"}`;
    load.dataset.load = s.load_g;
    cells.textContent = s.cells_g.map((c, i) => `cell ${i}: ${c === null ? "–" : c.toFixed(1)}`).join(" · ");
    const [tx, ty] = s.tilt_deg;
    tilt.textContent = `tilt ${Math.hypot(tx, ty).toFixed(1)}° (x ${tx.toFixed(1)}°, y ${ty.toFixed(1)}°)`;
    tilt.dataset.tilt = JSON.stringify(s.tilt_deg);
    const clamp = (v) => Math.max(-40, Math.min(40, v));
    bubble.setAttribute("cx", clamp(tx * 3).toFixed(1)); bubble.setAttribute("cy", clamp(-ty * 3).toFixed(1));
    if (s.cop_mm) { cop.setAttribute("cx", clamp(s.cop_mm[0] / 2).toFixed(1)); cop.setAttribute("cy", clamp(-s.cop_mm[1] / 2).toFixed(1)); }
    cop.style.display = s.cop_mm ? "" : "none";
  }
  return { box, update };
}

async function viewRoom() {
  const meter = towerMeter();
  let codes = null; // the join links of the game shown, asked for when a game's first snapshot comes
  let codesFor = null;
  let latest = null;
  let lastRounds = null;
  let lastVersion = 0;
  const status = feed((msg) => {
    latest = msg;
    render(msg);
    if (msg.game_id === codesFor) return;
    codesFor = msg.game_id;
    getJSON("/api/join-codes").then((c) => { codes = c; render(latest); }).catch(() => { codes = null; });
  }, meter.update);
  function render(msg) {
    const seats = msg.seats;
    const rings = el("div", { class: "rings", id: "rings" }, seats.map((p, i) =>
      el("div", { class: "ring", "data-player": p }, ringSvg(msg.rings && msg.rings[i], msg.display.scores[i] ?? "", msg.display.turn === i), el("div", {}, p))));
    const speak = el("label", {}, el("input", { type: "checkbox", id: "speech", checked: speech, on: { change: (e) => { speech = e.target.checked; } } }), " announce aloud");
    show(
      el("h1", {}, "Table"), statusLine(msg), status,
      el("div", { class: "grid" },
        el("section", { class: "panel" }, el("h2", {}, "Rings"), rings),
        el("section", { class: "panel" }, el("h2", {}, "Standings"), standingsTable(msg.summary),
          turnLine(msg), costsLine(msg.costs))),
      el("div", { class: "grid" },
        el("section", { class: "panel" }, el("h2", {}, "Table state"), factsList(msg.facts)),
        meter.box,
        el("section", { class: "panel" }, el("h2", {}, "Last events"), lastEvents(msg, 8), speak)),
      codes ? el("section", { class: "panel qr" }, el("h2", {}, "Join"), el("div", { class: "rings" },
        Object.entries(codes).map(([p, uri]) => el("figure", {}, el("img", { src: uri, alt: `join link for ${p}` }), el("figcaption", {}, p))))) : null,
    );
    app.dataset.version = msg.version;
    if (lastVersion && msg.version > lastVersion) {
      const rounds = msg.summary.rounds.length;
      if (lastRounds !== null && rounds > lastRounds) {
        announce(`round ${rounds} over. ` + Object.entries(msg.summary.totals).map(([p, t]) => `${p} ${t}`).join(", "));
      } else {
        for (const [p, d] of Object.entries(msg.costs)) announce(`${p}: ${d > 0 ? "plus" : "minus"} ${Math.abs(d)}`);
      }
      lastRounds = rounds;
    }
    lastRounds = msg.summary.rounds.length;
    lastVersion = msg.version;
  }
}

function turnLine(msg) {
  const turn = msg.display.turn;
  const who = turn === null || turn === undefined ? null : msg.seats[turn];
  return el("p", { id: "turn" }, msg.status.finished ? `winner: ${msg.summary.winners.join(", ")}` : who ? `turn: ${who}` : "");
}

// -- referee ----------------------------------------------------------------------------------

async function viewReferee() {
  let selected = null;
  let latest = null;
  const answer = el("p", { id: "answer", role: "status" });
  const pending = el("div", { id: "confirm" });
  async function send(line) {
    answer.replaceChildren("…");
    try {
      const result = await postJSON("/api/referee", { line });
      answer.replaceChildren(el("span", { class: "ok" }, result.ok || "done"));
    } catch (err) {
      answer.replaceChildren(failure(err));
    }
  }
  function confirmThen(text, line) {
    pending.replaceChildren(el("p", {}, text),
      el("button", { id: "confirm-yes", on: { click: () => { pending.replaceChildren(); send(line); } } }, "confirm"),
      el("button", { class: "secondary", on: { click: () => pending.replaceChildren() } }, "cancel"));
  }
  const fixInput = el("input", { type: "text", id: "fix-with", placeholder: 'replacement: JSON event(s), or [] to strike it' });
  const command = el("input", { type: "text", id: "command", placeholder: "a command, as typed at the table" });
  const status = feed(render);
  function render(msg) {
    latest = msg;
    const log = eventLog(msg.log, { id: "log" });
    for (const li of log.querySelectorAll("li")) {
      li.addEventListener("click", () => { selected = Number(li.dataset.n); render(latest); });
      if (Number(li.dataset.n) === selected) li.classList.add("picked");
    }
    const lastLive = [...msg.log].reverse().find((e) => e.type !== "correct" && e.corrected_by === undefined);
    show(
      el("h1", {}, "Referee"), statusLine(msg), status,
      msg.status.finished ? el("p", { id: "next-game" }, el("a", { href: "/setup" }, "set up the next game")) : null,
      el("section", { class: "panel" },
        el("button", { id: "undo", disabled: !lastLive || msg.status.finished, on: { click: () => confirmThen(`Undo event ${lastLive.n} (${lastLive.text})? It is journaled as a correction.`, "undo") } }, "undo last"),
        el("button", { id: "ok", class: msg.status.paused.length ? null : "secondary", on: { click: () => send("ok") } }, "ok: play on"),
        el("div", {}, el("label", { for: "fix-with" }, selected === null ? "pick an event in the log to fix it" : `fix event ${selected}: `), fixInput,
          el("button", { id: "fix", disabled: selected === null, on: { click: () => confirmThen(`Replace event ${selected} by ${fixInput.value || "[]"}?`, `fix ${selected} ${fixInput.value || "[]"}`) } }, "fix")),
        pending, answer),
      counterScreen(msg, send),
      sticksRefereeScreen(msg, send),
      el("section", { class: "panel" }, el("h2", {}, "Command"),
        el("form", { on: { submit: (e) => { e.preventDefault(); send(command.value); } } }, command, el("button", { type: "submit" }, "send")),
        el("details", {}, el("summary", {}, "commands"), el("pre", {}, msg.keys_help))),
      el("section", {}, el("h2", {}, "Event log"), log),
      el("section", {}, el("h2", {}, "Standings"), standingsTable(msg.summary)),
    );
  }
}

// Bloodsticks: the counter enters a drop's layout by picking: each stick's posture (or off the
// surface), which sticks it lies on and which it touches. The picks outlive re-renders (a new
// snapshot comes with every LED frame) until the drop's sticks change.
let counterPicks = { key: null };

function counterScreen(msg, send) {
  const v = msg.view;
  if (!v || v.game !== "bloodsticks" || !v.sticks || !Object.keys(v.sticks).length) return null;
  if (v.phase !== "count" && v.phase !== "confirm") return null;
  const ids = [...Object.values(v.sticks).flat(), ...v.extras];
  const key = `${v.round}:${ids.join(",")}`;
  if (counterPicks.key !== key) counterPicks = { key, posture: {}, on: {}, touch: {} };
  const picks = counterPicks;
  function toggles(kind, id) {
    picks[kind][id] = picks[kind][id] || [];
    const chosen = picks[kind][id];
    return el("div", { class: "chips", [`data-${kind}`]: id }, ids.filter((other) => other !== id).map((other) => {
      const on = chosen.includes(other);
      return el("button", { type: "button", class: on ? "chip picked" : "chip", "data-target": other, "aria-pressed": on ? "true" : "false",
        on: { click: (e) => {
          const at = chosen.indexOf(other);
          if (at >= 0) chosen.splice(at, 1); else chosen.push(other);
          e.target.classList.toggle("picked", at < 0);
          e.target.setAttribute("aria-pressed", at < 0 ? "true" : "false");
        } } }, other);
    }));
  }
  const rows = ids.map((id) => {
    const extra = v.extras.includes(id);
    let posture = null;
    if (!extra) {
      posture = el("select", { "data-posture": id, on: { change: (e) => { picks.posture[id] = e.target.value; } } },
        ["flat", "thin", "thick", "center", "off"].map((p) => el("option", { value: p, selected: (picks.posture[id] || "flat") === p }, p)));
    }
    return el("tr", { "data-stick": id }, el("td", {}, id), el("td", {}, posture),
      el("td", {}, toggles("on", id)), el("td", {}, toggles("touch", id)));
  });
  const table = el("table", { class: "counter" }, el("thead", {}, el("tr", {}, ["stick", "posture", "lies on", "touches"].map((h) => el("th", {}, h)))), el("tbody", {}, rows));
  function layout() {
    const sticks = {};
    for (const id of ids) {
      const entry = {};
      if (!v.extras.includes(id)) {
        const posture = picks.posture[id] || "flat";
        if (posture === "off") entry.off = true; else entry.posture = posture;
      }
      if (picks.on[id] && picks.on[id].length) entry.on = [...picks.on[id]];
      if (picks.touch[id] && picks.touch[id].length) entry.touch = [...picks.touch[id]];
      sticks[id] = entry;
    }
    return sticks;
  }
  const proposal = v.proposal ? el("p", { id: "proposal" }, "proposed points: ",
    Object.entries(v.proposal).map(([p, n]) => `${p} ${n}`).join(", ")) : null;
  const override = el("input", { type: "text", id: "override", placeholder: "NAME=N ... [why]" });
  return el("section", { class: "panel", id: "counter" }, el("h2", {}, `Counter's screen (${v.counter})`),
    v.phase === "count" ? [el("p", { class: "notes" }, "pick each stick's posture, the sticks it lies on and the sticks it touches"),
      el("div", { class: "scroll" }, table),
      el("button", { id: "propose", on: { click: () => send(`layout ${JSON.stringify(layout())}`) } }, "score this layout")] : null,
    proposal,
    v.phase === "confirm" ? [el("button", { id: "confirm-points", on: { click: () => send("confirm") } }, "confirm"),
      override, el("button", { class: "secondary", on: { click: () => send(`override ${override.value}`) } }, "override")] : null);
}

// Sticks in referee mode (real cards): the referee enters a player's lay-down, asks the
// checker, then enters it; the rules check it again when it is entered.
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const refereeLaydown = { cards: null, player: null, verdict: null, picking: false };

function sticksRefereeScreen(msg, send) {
  const v = msg.view;
  if (!v || v.game !== "sticks" || v.mode !== "referee" || v.phase !== "play") return null;
  const state = refereeLaydown;
  if (state.cards === null) state.cards = el("input", { type: "text", id: "ref-cards", placeholder: "cards: 3C,4C,5C,8S,8H,8D (melds for No Discard: 3D,4D,5D/8S,8C,8D)" });
  if (!state.player || !v.seats.includes(state.player)) state.player = v.turn;
  const who = el("select", { id: "ref-player", on: { change: (e) => { state.player = e.target.value; } } },
    v.seats.map((p) => el("option", { value: p, selected: p === state.player }, p)));
  const verdict = el("div", { id: "verdict", role: "status" });
  function showVerdict(result) {
    state.verdict = result;
    if (result.error) return verdict.replaceChildren(failure(result.error));
    const head = `stick ${result.stick} (${result.text}): `;
    verdict.replaceChildren(result.ok
      ? el("p", { class: "ok", "data-ok": "true" }, head, "a lay-down — ", result.melds.map((m) => `${m.part}: ${m.cards.join(" ")}`).join("; "),
        result.wilds.length ? ` (wild ${result.wilds.map((w) => `${w.card} as ${w.as}`).join(", ")})` : "")
      : el("p", { class: "error", "data-ok": "false" }, head, "not a lay-down: ", result.why));
  }
  if (state.verdict) showVerdict(state.verdict);
  const cards = () => state.cards.value.split(/[\s,/]+/).filter(Boolean);
  async function check() {
    try {
      showVerdict(await postJSON("/api/referee/check", { player: state.player, cards: cards() }));
    } catch (err) {
      showVerdict({ error: err });
    }
  }
  const picker = el("div", { class: "chips", id: "card-picker" },
    [...RANKS.flatMap((r) => ["C", "D", "H", "S"].map((suit) => r + suit)), "JK"].map((c) =>
      el("button", { type: "button", class: "chip", "data-card": c, on: { click: () => {
        state.cards.value = [...cards(), c].join(","); state.verdict = null; verdict.replaceChildren();
      } } }, c)));
  function enter() {
    const text = state.cards.value.trim();
    const event = text.includes("/") ? { type: "laydown", player: state.player, melds: text.replace(/\s+/g, "") }
      : { type: "laydown", player: state.player, cards: cards() };
    state.verdict = null;
    send(JSON.stringify(event));
  }
  return el("section", { class: "panel", id: "laydown-check" }, el("h2", {}, "Lay-down (referee mode)"),
    el("p", {}, el("label", { for: "ref-player" }, "player "), who),
    el("p", {}, state.cards, " ", el("button", { type: "button", class: "secondary", on: { click: () => { state.cards.value = ""; state.verdict = null; verdict.replaceChildren(); } } }, "clear")),
    el("details", { open: state.picking, on: { toggle: (e) => { state.picking = e.target.open; } } },
      el("summary", {}, "pick cards"), picker),
    el("p", {}, el("button", { id: "ref-check", on: { click: check } }, "check"), " ",
      el("button", { id: "ref-laydown", on: { click: enter } }, "enter the lay-down")),
    verdict);
}

// -- player -----------------------------------------------------------------------------------

function describeAction(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "type" && k !== "player")
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.flat().join(" ") : v}`);
  const names = { take: "take", match: "match the bet", fall_out: "fall out", draw: "draw", discard: "discard", laydown: "lay down", meld: "meld", layoff: "lay off" };
  return [names[a.type] || a.type, ...rest].join(" ");
}

async function viewPlayer() {
  const answer = el("p", { id: "answer", role: "status" });
  const picked = new Set();
  async function act(event) {
    answer.replaceChildren("…");
    try {
      const result = await postJSON("/api/act", { event });
      answer.replaceChildren(el("span", { class: "ok" }, result.ok || "done"));
      picked.clear();
    } catch (err) {
      answer.replaceChildren(failure(err));
    }
  }
  let latest = null;
  const status = feed(render);
  function render(msg) {
    latest = msg;
    const you = msg.you;
    const v = you.view;
    const actions = el("div", { id: "actions" }, you.actions.length ? you.actions.map((a) =>
      el("button", { "data-action": a.type, on: { click: () => act(a) } }, describeAction(a))) : el("p", { class: "notes" }, "nothing for you to do now"));
    const hand = Array.isArray(v.hand) ? el("section", { class: "panel" }, el("h2", {}, "Your hand"),
      el("div", { class: "cards", id: "hand" }, v.hand.map((c, i) => {
        const key = `${i}:${c}`;
        return el("span", { class: picked.has(key) ? "card picked" : "card", "data-card": c, on: { click: () => { picked.has(key) ? picked.delete(key) : picked.add(key); render(latest); } } }, c);
      })),
      v.stick ? el("p", { id: "stick" }, `your stick ${v.stick.number}: ${v.stick.text}`) : null,
      el("p", {}, el("button", { class: "secondary", id: "laydown-picked", on: { click: () => act({ type: v.players && v.players[you.player] && v.players[you.player].down ? "meld" : "laydown", cards: [...picked].map((k) => k.split(":")[1]) }) } }, "lay down / meld the picked cards"))) : null;
    show(
      el("h1", {}, you.player), statusLine(msg), status,
      el("section", { class: "panel" }, el("h2", {}, "Your move"), actions, answer),
      hand,
      el("section", { class: "panel" }, el("h2", {}, "Game"), factsList(msg.facts)),
      el("section", {}, el("h2", {}, "Standings"), standingsTable(msg.summary)),
    );
  }
}

// -- setup: start a game, resume or abandon an unfinished one ---------------------------------

async function viewSetup() {
  const info = await getJSON("/api/setup");
  const answer = el("p", { id: "answer", role: "status" });
  if (info.playing !== null && info.playing !== undefined) {
    return show(el("h1", {}, "Setup"), el("p", { id: "playing" }, `game ${info.playing} is being played: `,
      el("a", { href: "/" }, "watch it")));
  }
  async function choose(choice) {
    answer.replaceChildren("…");
    try {
      const result = await postJSON("/api/setup", choice);
      answer.replaceChildren(el("span", { class: "ok" }, result.ok));
      if (choice.action !== "abandon") await untilPlaying();
      else await viewSetup();
    } catch (err) {
      answer.replaceChildren(failure(err));
    }
  }
  async function untilPlaying() { // a short simulated game may be over before a poll sees it
    for (;;) {
      const now = await getJSON("/api/setup");
      if (now.games_begun > info.games_begun) { location.assign("/"); return; }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const unfinished = info.unfinished.length ? el("table", { class: "games", id: "unfinished" },
    el("thead", {}, el("tr", {}, ["game", "rules", "players", "events", ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, info.unfinished.map((g) => el("tr", { "data-game": g.id },
      el("td", {}, `#${g.id}`), el("td", {}, g.game), el("td", {}, g.players.join(", ")), el("td", { class: "num" }, g.events),
      el("td", {}, info.table ? [
        el("button", { "data-resume": g.id, on: { click: () => choose({ action: "resume", game: g.id }) } }, "resume"), " ",
        el("button", { class: "secondary", "data-abandon": g.id, on: { click: (e) => confirmAbandon(e.target, g) } }, "abandon")]
        : `sticktable run --resume ${g.id}`)))))
    : el("p", { class: "notes" }, "no unfinished games");
  function confirmAbandon(button, g) {
    button.replaceWith(el("span", {}, `give game ${g.id} up for good? `,
      el("button", { id: "confirm-abandon", on: { click: () => choose({ action: "abandon", game: g.id }) } }, "confirm")));
  }
  if (info.table && !info.waiting && !info.offers) {
    return show(el("h1", {}, "Setup"), el("p", { id: "one-game" },
      "this table was started for one game (with --players or --resume): it sets no other up. ",
      "Start `sticktable run --web` without them to choose each game here."));
  }
  if (info.table && !info.waiting) { // between the answer and the game, or its end and the next
    setTimeout(() => viewSetup().catch((err) => show(failure(err))), 500);
    return show(el("h1", {}, "Setup"), el("p", { id: "starting" }, "the table is busy starting or ending a game: ",
      el("a", { href: "/" }, "watch it")));
  }
  if (!info.table) {
    return show(el("h1", {}, "Setup"), el("p", { class: "notes", id: "no-table" },
      "this console has no table attached: start one with `sticktable run --web` (add --sim for the simulated table) and set the game up here."),
    el("section", {}, el("h2", {}, "Unfinished games"), unfinished));
  }
  const rulesPick = el("select", { id: "rules" }, info.games.map((g) => el("option", { value: g.name }, g.title)));
  const players = el("ol", { id: "players", class: "players" });
  function addPlayer(name) {
    const input = el("input", { type: "text", "data-player": "", value: name || "", placeholder: "name", "aria-label": "player" });
    const li = el("li", {}, input,
      el("button", { class: "secondary", title: "move up", on: { click: () => li.previousElementSibling && li.previousElementSibling.before(li) } }, "↑"),
      el("button", { class: "secondary", title: "remove", on: { click: () => li.remove() } }, "✕"));
    players.append(li);
    return input;
  }
  ["", ""].forEach(addPlayer);
  const house = el("div", { id: "house" });
  function houseRules() {
    const game = info.games.find((g) => g.name === rulesPick.value);
    house.replaceChildren(el("table", { class: "house" },
      el("thead", {}, el("tr", {}, ["house rule", "value", "default", "what it does"].map((h) => el("th", {}, h)))),
      el("tbody", {}, game.house_rules.map((r) => el("tr", {},
        el("td", {}, el("label", { for: `house-${r.key}` }, r.key)),
        el("td", {}, el("input", { type: "text", id: `house-${r.key}`, "data-house": r.key, placeholder: String(r.default ?? "") })),
        el("td", { "data-default": r.key }, r.default === null ? "none" : String(r.default)),
        el("td", {}, r.about, el("span", { class: "notes" }, ` (${r.values})`)))))));
  }
  rulesPick.value = info.default_game;
  rulesPick.addEventListener("change", houseRules);
  houseRules();
  function start(e) {
    e.preventDefault();
    const names = [...players.querySelectorAll("[data-player]")].map((i) => i.value.trim()).filter(Boolean);
    const chosen = {};
    for (const input of house.querySelectorAll("[data-house]")) if (input.value.trim()) chosen[input.dataset.house] = input.value.trim();
    choose({ action: "start", rules: rulesPick.value, players: names, house: chosen });
  }
  show(el("h1", {}, "Setup"),
    el("section", { class: "panel" }, el("h2", {}, "New game"),
      el("form", { id: "new-game", on: { submit: start } },
        el("p", {}, el("label", { for: "rules" }, "game "), rulesPick),
        el("p", {}, "players, in seat order:"), players,
        el("p", {}, el("button", { type: "button", class: "secondary", id: "add-player", on: { click: () => addPlayer("").focus() } }, "add a player")),
        house,
        el("p", {}, el("button", { type: "submit", id: "start" }, "start the game")))),
    answer,
    el("section", { class: "panel" }, el("h2", {}, "Unfinished games"), unfinished));
}

const VIEWS = { setup: viewSetup, games: viewGames, game: viewGame, stats: viewStats, room: viewRoom, referee: viewReferee, player: viewPlayer };
window.sticktable = { el, getJSON, postJSON, show, failure, standingsTable, totalsPlot, eventLog, factsList, VIEWS };

document.addEventListener("DOMContentLoaded", () => {
  const view = VIEWS[app.dataset.view];
  if (view) view().catch((err) => show(failure(err)));
});
