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
  for (const child of children.flat()) {
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
      el("td", { class: "name" }, p, winners.has(p) ? " 🏆" : ""),
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
    el("section", {}, el("h2", {}, "Event log"), eventLog(game.log, { id: "log" })),
  );
  totalsPlot(s, plot);
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

const VIEWS = { games: viewGames, game: viewGame, stats: viewStats };
window.sticktable = { el, getJSON, postJSON, show, failure, standingsTable, totalsPlot, eventLog, factsList, VIEWS };

document.addEventListener("DOMContentLoaded", () => {
  const view = VIEWS[app.dataset.view];
  if (view) view().catch((err) => show(failure(err)));
});
