// The scoreboard page: the server sends the state, then each change, as server-sent events.
// Every text from a table (names are typed by people) goes in with textContent, never as HTML.
"use strict";
const COLOURS = ["#ff4d4d", "#ffd43b", "#3ddc84", "#4dabff", "#e9ecf5", "#ff8c42", "#c77dff",
                 "#63e6be", "#f783ac", "#a9e34b"];
let state = {tables: [], attention: [], standings: {rows: [], series: []}};
const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function tableCard(t) {
  let card = document.querySelector('.table[data-slot="' + CSS.escape(t.slot) + '"]');
  if (!card) {
    card = $("table-tpl").content.firstElementChild.cloneNode(true);
    card.dataset.slot = t.slot;
    card.dataset.order = t.order || 0;
    const next = [...document.querySelectorAll(".table")].find((c) => +c.dataset.order > (t.order || 0));
    $("tables").insertBefore(card, next || null);
  }
  card.classList.toggle("down", !t.connected);
  card.dataset.seq = t.seq;
  card.querySelector(".t-name").textContent = t.label;
  card.querySelector(".t-round").textContent = t.round ? "round " + t.round + " · " + t.phase : t.phase;
  card.querySelector(".t-link").textContent = t.connected ? "live" : "not connected";
  card.querySelector(".t-why").textContent = t.connected ? "" : (t.why || "");
  const c = card.querySelector(".card");
  const col = t.colour || (t.top && t.top[0] !== "W" ? t.top[0] : "");
  c.className = "card " + (t.top ? col : "none");
  card.querySelector(".card-face").textContent = t.top ? t.top.split(">")[0] : "";
  c.title = t.top ? "top card " + t.top + (t.colour ? ", colour " + t.colour : "") : "no card played";
  const who = card.querySelector(".t-who");
  who.textContent = t.turn || t.winner || "";
  who.dataset.kind = t.turn ? "turn" : (t.winner ? "winner" : "");
  card.querySelector(".t-dir").textContent = t.turn
    ? (t.direction === "clockwise" ? "↻ clockwise" : "↺ counter-clockwise") : "";
  card.querySelector(".t-uno").textContent = t.uno
    ? "UNO window: " + t.uno.who + (t.uno.called ? " called UNO" : " — not called yet") : "";
  const seats = card.querySelector(".t-seats");
  seats.replaceChildren(...t.seats.map((s) => {
    const li = el("li", s.turn ? "turn" : "");
    li.append(el("span", "who", s.who), el("span", "n" + (s.cards === 1 ? " one" : ""), s.cards));
    li.title = s.who + ": " + s.cards + " card" + (s.cards === 1 ? "" : "s") + ", " + s.score + " points";
    return li;
  }));
  const few = state.tables.length <= 2;      // room on the screen: bigger, and more lines
  $("tables").classList.toggle("few", few);
  const lines = card.querySelector(".t-lines");
  lines.replaceChildren(...t.lines.slice(few ? -8 : -4).map((l) =>
    el("li", /^(REJECTED|PENALTY|TAKE-BACK)/.test(l) ? "bad" : "", l)));
}

function attentionItem(a) {
  const li = el("li", a.kind);
  li.append(el("span", "what", (a.who ? a.who + ": " : "") + a.what));
  const when = new Date(a.at * 1000).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});
  li.append(el("span", "where", a.table + (a.seat ? ", seat " + a.seat : "") + " · seq " + a.seq + " · " + when));
  return li;
}

function renderAttention() {
  const list = $("attention");
  list.replaceChildren(...state.attention.slice(0, 60).map(attentionItem));
  $("attention-count").textContent = state.attention.length;
  $("attention-none").style.display = state.attention.length ? "none" : "";
}

function renderStandings() {
  const st = state.standings || {rows: [], series: []};
  const body = $("standings").querySelector("tbody");
  body.replaceChildren(...st.rows.slice(0, 10).map((r, i) => {
    const tr = el("tr");
    tr.dataset.player = r.player;
    for (const v of [i + 1, r.player, r.rounds, r.rounds_won, r.points]) tr.append(el("td", "", v));
    if ("league_points" in r) tr.append(el("td", "lp", r.league_points));
    return tr;
  }));
  // the league's own points (its rule: docs/host.md) when the league keeps the standings
  $("standings").classList.toggle("league", st.rows.some((r) => "league_points" in r));
  $("standings-none").style.display = st.rows.length ? "none" : "";
  $("night").textContent = st.night ? "night " + st.night : "";
  pointsChart(st);
  unoChart(st);
}

function svg(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Points per player over the night: each player's running total after each round ended.
function pointsChart(st) {
  const box = $("points-chart");
  const players = st.rows.map((r) => r.player).slice(0, 10);
  const total = {}; const lines = {};
  players.forEach((p) => { total[p] = 0; lines[p] = [[0, 0]]; });
  (st.series || []).forEach((row, i) => {
    if (!(row.player in total)) return;
    total[row.player] += row.round_points || 0;
    lines[row.player].push([i + 1, total[row.player]]);
  });
  const n = Math.max(1, (st.series || []).length);
  const top = Math.max(1, ...Object.values(total));
  const W = 640, H = 150, L = 6, R = 210, T = 12, B = 8;
  const x = (i) => L + (W - L - R) * i / n, y = (v) => H - B - (H - T - B) * v / top;
  const kids = [svg("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis"})];
  let below = 0;                      // labels go down the right edge, never on each other
  players.forEach((p, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const pts = lines[p].concat([[n, total[p]]]);
    kids.push(svg("polyline", {points: pts.map(([i, v]) => x(i) + "," + y(v)).join(" "),
      fill: "none", stroke: colour, "stroke-width": 4}));
    const ly = Math.max(y(total[p]) + 6, below + 18);
    if (ly <= H) {
      kids.push(svg("text", {x: W - R + 8, y: ly, fill: colour}, p.slice(0, 18) + " " + total[p]));
      below = ly;
    }
  });
  if (!players.length) kids.push(svg("text", {x: L + 10, y: 80}, "no round finished yet"));
  box.replaceChildren(...kids);
}

// UNOs forgotten per player (caught without calling UNO): one bar each.
function unoChart(st) {
  const box = $("uno-chart");
  const rows = st.rows.filter((r) => r.unos_forgotten).sort((a, b) => b.unos_forgotten - a.unos_forgotten).slice(0, 5);
  const most = Math.max(1, ...rows.map((r) => r.unos_forgotten));
  const W = 640, L = 220, bar = 24;
  const kids = [];
  rows.forEach((r, i) => {
    const yy = 4 + i * (bar + 5), w = (W - L - 40) * r.unos_forgotten / most;
    kids.push(svg("text", {x: 0, y: yy + bar - 5}, r.player.slice(0, 20)));
    kids.push(svg("rect", {x: L, y: yy, height: bar, width: w, fill: "#ffb020", rx: 4}));
    kids.push(svg("text", {x: L + w + 8, y: yy + bar - 5}, r.unos_forgotten));
  });
  if (!rows.length) kids.push(svg("text", {x: 10, y: 80}, "none forgotten yet"));
  box.replaceChildren(...kids);
}

function renderAll() {
  $("title").textContent = state.title || "UNO game night";
  const slots = new Set(state.tables.map((t) => t.slot));
  document.querySelectorAll(".table").forEach((c) => { if (!slots.has(c.dataset.slot)) c.remove(); });
  state.tables.forEach(tableCard);
  renderAttention();
  renderStandings();
}

function connect() {
  const es = new EventSource("/events");
  es.addEventListener("open", () => { $("live").textContent = "live"; $("live").className = "on"; });
  es.addEventListener("error", () => { $("live").textContent = "reconnecting…"; $("live").className = "off"; });
  es.addEventListener("state", (e) => { state = JSON.parse(e.data); renderAll(); });
  es.addEventListener("table", (e) => {
    const t = JSON.parse(e.data);
    const i = state.tables.findIndex((x) => x.slot === t.slot);
    if (i < 0) state.tables.push(t); else state.tables[i] = t;
    tableCard(t);
  });
  es.addEventListener("drop", (e) => {
    const slot = JSON.parse(e.data).slot;
    state.tables = state.tables.filter((t) => t.slot !== slot);
    document.querySelectorAll(".table").forEach((c) => { if (c.dataset.slot === slot) c.remove(); });
  });
  es.addEventListener("attention", (e) => {
    state.attention = JSON.parse(e.data).reverse().concat(state.attention).slice(0, 200);
    renderAttention();
  });
  es.addEventListener("standings", (e) => { state.standings = JSON.parse(e.data); renderStandings(); });
}

function tick() { $("clock").textContent = new Date().toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"}); }
tick(); setInterval(tick, 10000);
connect();
