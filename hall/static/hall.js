// The hall page: every board drawn live (web/static/board.js draws each), polled from the hall's JSON.
// Three views of the same data (document.body.dataset.view): "list" (the hall page), "screen" (the
// playing hall's big screen: all boards, large, no controls) and "board" (one board, fit for a phone).
// Everything shown comes from the boards: it goes in as text (textContent), never as HTML.
"use strict";
const hall = window.hall = { data: null, drawn: {}, redraws: 0, offset: 0 };
const VIEW = document.body.dataset.view;
const ROOT = document.body.dataset.root || "";

function h(tag, cls, text, parent) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (parent) parent.appendChild(node);
  return node;
}

function safeColour(colour) {
  return /^#[0-9a-f]{6}$/.test(colour || "") ? colour : "#888";
}

function clockText(ms) {
  if (ms === null || ms === undefined) return "";
  const s = Math.ceil(Math.max(0, ms) / 1000), m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
                 : `${m}:${String(s % 60).padStart(2, "0")}`;
}

// The time left on a side's clock now: the running side's time goes on falling since its last move.
function clockNow(g, index) {
  const ms = g.sides[index].ms;
  if (ms === null || g.running !== index || !g.moved_at) return ms;
  return ms - (Date.now() + hall.offset - g.moved_at);
}

function status(b) {
  const g = b.live;
  if (!g) return "no game yet";
  if (g.result !== "*") return `${g.result_title} (${g.result})` + (g.reason ? ` · ${g.reason}` : "");
  return g.ply ? `move ${g.move}: ${g.last}` : "not started";   // numbered as the board's screen does
}

function card(b) {
  const box = h(VIEW === "list" ? "a" : "div", `card ${b.flag}`);
  box.dataset.board = b.board;
  if (VIEW === "list") box.href = `board/${encodeURIComponent(b.board)}`;
  const head = h("div", "head", null, box);
  h("span", "bname", b.board, head);
  h("span", "state", b.online ? (b.live ? b.live.title : "") : "OFFLINE", head);
  if (b.bad) h("div", "problem-text", `Problem (${b.bad}): ${b.problem}`, box);
  const g = b.live;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("class", "board");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `board ${b.board}`);
  box.appendChild(svg);
  drawBoard(svg, g && g.board, { roles: hall.roles });
  const info = h("div", "info", null, box);
  const sides = h("ul", "sides", null, info);
  (g ? g.sides : []).forEach((side, i) => {
    const li = h("li", side.to_move ? "to-move" : "", null, sides);
    li.dataset.side = i;
    const dot = h("span", "swatch", null, li);
    dot.style.background = safeColour(side.colour);
    h("span", "name", side.name, li);
    if (side.score !== null) h("span", "score", side.score, li);
    h("span", "clock", clockText(clockNow(g, i)), li);
  });
  h("div", g && g.result !== "*" ? "status result" : "status", status(b), info);
  return box;
}

function drawBoards(boards) {
  const list = document.getElementById("boards");
  const seen = new Set();
  boards.forEach((b, index) => {
    seen.add(b.board);
    const key = JSON.stringify([b.board, b.online, b.bad, b.problem, b.flag, b.live]);
    let node = list.querySelector(`[data-board="${CSS.escape(b.board)}"]`);
    if (!node || hall.drawn[b.board] !== key) {
      const fresh = card(b);
      if (node) list.replaceChild(fresh, node); else list.appendChild(fresh);
      node = fresh;
      hall.drawn[b.board] = key;
      hall.redraws++;
    }
    if (list.children[index] !== node) list.insertBefore(node, list.children[index] || null);
  });
  for (const node of [...list.children]) if (!seen.has(node.dataset.board)) node.remove();
  if (VIEW === "screen") {
    const cols = Math.max(1, Math.round(Math.sqrt(boards.length * 1.5)));
    list.style.setProperty("--cols", cols);
    list.style.setProperty("--rows", Math.max(1, Math.ceil(boards.length / cols)));
  }
}

function drawStandings(standings) {
  const table = document.getElementById("standings");
  if (!table) return;
  table.replaceChildren();
  const head = h("tr", null, null, table);
  for (const t of ["Player", "Points", "Games"]) h("th", null, t, head);
  for (const s of standings) {
    const tr = h("tr", null, null, table);
    h("td", null, s.player, tr); h("td", null, s.points, tr); h("td", null, s.games, tr);
  }
}

function drawMoves(b) {
  const list = document.getElementById("moves");
  if (!list) return;
  const key = JSON.stringify(b.moves);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren();
  const colours = b.live ? b.live.sides.map((side) => side.colour) : [];
  for (const m of b.moves) {                     // each move: its number, its side's colour, its text
    const li = h("li", null, null, list);
    h("span", "n", m.ply, li);
    h("span", "swatch", null, li).style.background = safeColour(colours[m.side]);
    h("span", "mv", m.text, li);
  }
  list.dataset.count = b.moves.length;
}

function tick() {
  if (!hall.data) return;
  const boards = VIEW === "board" ? [hall.data.board] : hall.data.boards;
  for (const b of boards) {
    if (!b.live || b.live.running === null) continue;
    const node = document.querySelector(`[data-board="${CSS.escape(b.board)}"] li[data-side="${b.live.running}"] .clock`);
    if (node) node.textContent = clockText(clockNow(b.live, b.live.running));
  }
}

async function poll() {
  const name = document.body.dataset.board;
  const url = VIEW === "board" ? `${ROOT}api/board/${encodeURIComponent(name)}` : `${ROOT}api/hall`;
  try {
    const r = await fetch(url, { cache: "no-store" });
    if (!r.ok) { document.getElementById("boards").textContent = r.status === 404 ? "There is no such board." : "The hall does not answer."; return; }
    const d = await r.json();
    hall.offset = d.now - Date.now();
    hall.roles = d.roles || hall.roles;
    hall.data = d;
    if (VIEW === "board") { drawBoards([d.board]); drawMoves(d.board); }
    else { drawBoards(d.boards); drawStandings(d.standings); }
    hall.polls = (hall.polls || 0) + 1;
  } catch (e) {
    /* the hall is restarting: the next poll tries again */
  }
}

poll();
setInterval(poll, 1000);
setInterval(tick, 250);
