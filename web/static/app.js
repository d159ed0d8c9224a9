// The board's web page: live picture by server-sent events, commands by POST with the code.
"use strict";
const $ = (id) => document.getElementById(id);
const damka = window.damka = { state: null, lastSeq: 0, gaps: 0, dups: 0, seen: {}, moveSeen: {}, roles: {},
                               selected: null, received: 0 };

function csrf() { const m = document.cookie.match(/(?:^|; )damka_csrf=([^;]*)/); return m ? decodeURIComponent(m[1]) : ""; }
function code() { return $("code").value.trim() || sessionStorage.getItem("damka_code") || ""; }
// The remote seat this page plays, if it set the game up: {token, id} (the token goes back with its moves and offers).
function seat() { try { return JSON.parse(sessionStorage.getItem("damka_seat") || "null"); } catch (e) { return null; } }
function mine() { const s = seat(), r = damka.state && damka.state.remote; return !!(s && r && s.id === r.seat_id); }
// The notice: one line about what just happened. It goes away when closed, or by itself once the game has
// moved on (another move, another phase, another game: the situation it spoke of has passed).
// A notice said of a command just answered speaks of the state that command made. The answer and that
// state come by different roads, either first: until the state shows the command (`commands`, the board's
// count of the pages' commands run) the notice waits, then it speaks of that state.
function notice(text, bad) {
  $("noticetext").textContent = text || "";
  $("notice").className = bad ? "bad" : "";
  $("notice").hidden = !text;
  damka.noticeAt = situation();
  const command = damka.answered || 0;
  damka.answered = 0;
  damka.noticeAwaits = text && command > shownCommands() ? command : 0;
}
function situation() {
  const s = damka.state, g = s && s.game;
  return s ? [s.app, g ? [g.id, g.ply, g.phase, !!g.result].join(":") : ""].join("|") : "";
}
function shownCommands() { return (damka.state && damka.state.commands) || 0; }
function clearPassedNotice() {
  if (damka.noticeAwaits) {
    if (shownCommands() < damka.noticeAwaits) return;          // not yet the state the command made
    damka.noticeAwaits = 0;
    damka.noticeAt = situation();
    return;
  }
  if (!$("notice").hidden && damka.noticeAt !== situation()) notice("");
}

async function post(path, body) {
  const headers = { "Content-Type": "application/json", "X-CSRF-Token": csrf(), "X-Damka-Code": code() };
  if (seat()) headers["X-Damka-Seat"] = seat().token;
  const res = await fetch(path, { method: "POST", credentials: "same-origin", headers,
    body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await res.json(); } catch (e) { data = { error: `${res.status} ${res.statusText}` }; }
  if (!res.ok) throw new Error(data.error || `${res.status}`);
  damka.answered = data.command || 0;   // a notice said of it now waits for its state (notice())
  return data;
}
window.damkaPost = post;   // for the arbiter's console and the archive (arbiter.js, archive.js)

// -- the live feed ------------------------------------------------------------------------
function connect() {
  // Opened again by hand (below), the stream says where it was: the board sends what followed.
  const last = damka.boot ? `?last=${encodeURIComponent(`${damka.boot}:${damka.lastSeq}`)}` : "";
  const source = new EventSource("/api/events" + last);
  source.onopen = () => { damka.conn = "live"; $("conn").textContent = t("live"); $("conn").className = "conn on"; };
  source.onerror = () => {
    damka.conn = "reconnecting"; $("conn").textContent = t("reconnecting"); $("conn").className = "conn off";
    // A refusal (the board's page full: 503; too many pages from here: 429) closes an EventSource for
    // good; the browser opens it again by itself only after a lost connection. Try again in a while.
    if (source.readyState === EventSource.CLOSED) setTimeout(() => { if (damka.source === source) connect(); }, 3000);
  };
  source.addEventListener("state", (e) => receive(e, true));
  source.addEventListener("event", (e) => receive(e, false));
  damka.source = source;
}

function receive(e, isState) {
  const data = JSON.parse(e.data);
  const boot = (e.lastEventId || "").split(":")[0];
  if (boot !== damka.boot) { damka.boot = boot; damka.lastSeq = data.seq - 1; damka.noticeAwaits = 0; }  // a new board: start afresh
  if (data.seq <= damka.lastSeq) { damka.dups++; return; }
  if (data.seq !== damka.lastSeq + 1 && !isState) damka.gaps++;
  damka.lastSeq = data.seq;
  damka.received++;
  if (isState) { damka.state = data; damka.stateAt = performance.now(); clearPassedNotice(); render(); }
  else onEvent(data);
}

function onEvent(ev) {
  if (ev.type === "ImportProgress") { if (window.damkaArchive) window.damkaArchive.progress(ev); return; }
  if (ev.type === "MoveCommitted" && damka.moveSeen[ev.ply] === undefined) damka.moveSeen[ev.ply] = Date.now();
  const li = document.createElement("li");
  li.textContent = describe(ev);
  const list = $("events");
  list.insertBefore(li, list.firstChild);
  while (list.children.length > 60) list.removeChild(list.lastChild);
  if (ev.type === "MoveRefused") notice(t("refused", { reason: ev.reason }), true);
  if (ev.type === "OfferMade" || ev.type === "OfferAnswered") notice(ev.text, ev.answer === "declined");
}

function describe(ev) {
  switch (ev.type) {
    case "MoveCommitted": return `${ev.side_name}: ${ev.text}`;
    case "MoveRefused": return t("refused", { reason: ev.reason });
    case "GameOver": return t("game_over", { reason: ev.result.reason });
    case "ComputerPlanned": return t("to_play", { moves: ev.moves.join(" ") });
    case "MessageShown": case "ExerciseSaid": return ev.text;
    case "OfferMade": case "OfferAnswered": return ev.text;
    default: return ev.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  }
}

// -- drawing ------------------------------------------------------------------------------
function fmt(ms) {
  if (ms <= 0) return "0.0";
  if (ms <= 20000) return (Math.ceil(ms / 100) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}` : `${m}:${String(sec).padStart(2, "0")}`;
}

function clockText(i) {
  const g = damka.state && damka.state.game;
  const c = g && g.clock;
  if (!c) return "";
  const side = c.sides[i];
  if (!side) return "";
  if (side.untimed) return fmt(side.elapsed);
  const running = c.running && side.active ? performance.now() - damka.stateAt : 0;
  return fmt(side.ms - running);
}

function render() {
  const language = damka.state.settings && damka.state.settings.language;
  followBoard(language && language.value);
  const s = damka.state;
  const g = s.game;
  const marks = {};
  const legal = remoteLegal();
  if (damka.selected) {
    marks[damka.selected] = "select";
    for (const m of legal) if (m.from === damka.selected) marks[m.to] = "target";
  }
  drawBoard($("board"), s.board, { roles: boardRoles(), marks });
  const sides = $("sides");
  sides.textContent = "";
  if (g) g.sides.forEach((side, i) => {
    const row = document.createElement("div");
    row.className = "side" + (side.to_move ? " tomove" : "") + (side.out ? " out" : "");
    row.innerHTML = `<span class="dot"></span><span class="name"></span><span class="score"></span><span class="clock"></span>`;
    row.querySelector(".dot").style.background = side.colour;
    row.querySelector(".name").textContent = side.label || side.name;   // "Ala (White)": the name, with the side
    row.querySelector(".score").textContent = g.shows_scores ? t("points", { score: side.score }) : "";
    row.querySelector(".clock").dataset.side = i;
    sides.appendChild(row);
  });
  tickClocks();
  const view = s.view || {};
  if (g && s.remote && s.remote.waiting) g.status = t(mine() ? "to_move_here" : "to_move_there", { side: g.sides[s.remote.seats[0]].name }), g.message = "";
  $("status").textContent = g ? statusLine(g)
                              : (view.title ? t("board_shows", { title: view.title + (view.subtitle ? " - " + view.subtitle : "") }) : "");
  const result = $("result");
  if (g && g.result) {
    result.hidden = false;
    const places = g.sides.length > 2 ? " - " + g.sides.map((x, i) => `${g.result.places[i]}. ${x.name} (${x.score})`).sort().join(", ") : "";
    result.textContent = `${g.result.title} (${g.result.reason})${places}`;
  } else result.hidden = true;
  $("resumebtn").hidden = s.app !== "resume";
  renderMoves(g);
  renderRemote();
  renderOffer();
  if (window.damkaArbiter) window.damkaArbiter.render(s);
}

// The LED colours of the palette chosen in the board settings, as the board's LEDs show them.
function boardRoles() {
  const palette = damka.state && damka.state.settings && damka.state.settings.palette;
  return (damka.palettes && palette && damka.palettes[palette.value]) || damka.roles;
}

// The status and the session's message as one line, without saying a thing twice ("Ala to move - Ala to move: ...").
function statusLine(g) {
  const status = g.status || "", message = g.message || "";
  if (!message || message.toLowerCase() === status.toLowerCase()) return status;
  if (message.toLowerCase().startsWith(status.toLowerCase())) return message.charAt(0).toUpperCase() + message.slice(1);
  return [status, message].filter(Boolean).join(" - ");
}

function renderMoves(g) {
  const list = $("moves");
  const moves = g ? g.moves : [];
  const sig = moves.map((m) => m.text).join(" ");
  if (list.dataset.sig === sig) return;
  list.dataset.sig = sig;
  list.textContent = "";
  const perTurn = moves.some((m, i) => i && moves[i - 1].turn === m.turn);
  const twoSides = g && g.sides.length === 2 && !perTurn;
  const rows = [];
  for (const m of moves) {
    const n = twoSides ? Math.floor((m.ply - 1) / 2) + 1 : m.turn;
    let row = rows[rows.length - 1];
    if (!row || row.n !== n) { row = { n, texts: [], side: m.side }; rows.push(row); }
    row.texts.push(m.text);
  }
  for (const row of rows) {
    const li = document.createElement("li");
    const who = twoSides ? "" : ` ${g.sides[row.side].name}:`;
    li.innerHTML = `<span class="n"></span> <span class="t"></span>`;
    li.querySelector(".n").textContent = `${row.n}.${who}`;
    li.querySelector(".t").textContent = row.texts.join(" ");
    list.appendChild(li);
  }
  list.dataset.count = moves.length;
  list.scrollTop = list.scrollHeight;
}

function tickClocks() {
  for (const node of document.querySelectorAll(".side .clock")) {
    const text = clockText(Number(node.dataset.side));
    node.textContent = text;
    const g = damka.state.game;
    node.classList.toggle("low", !!(g && g.clock && !g.clock.sides[node.dataset.side].untimed && text.indexOf(":") < 0 && text !== ""));
  }
}
setInterval(() => { if (damka.state) tickClocks(); }, 100);

// -- a seat played from this page -----------------------------------------------------------
function remoteLegal() {
  const r = damka.state && damka.state.remote;
  return r && r.waiting && mine() ? r.legal : [];
}

function renderRemote() {
  const r = damka.state.remote;
  const box = $("remote");
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  const g = damka.state.game;
  const seat = g ? g.sides[r.seats[0]].name : "";
  box.innerHTML = "";
  const p = document.createElement("div");
  if (!r.claimed) p.textContent = t("seat_free", { seat });
  else if (!mine()) p.textContent = t("seat_elsewhere", { seat });
  else p.textContent = r.waiting ? t("your_move", { seat })
    : t("you_play", { seat }) + (g && g.phase === "setup" ? t("wait_setup") : t("wait_board"));
  box.appendChild(p);
  if (!mine()) {
    // An open seat (a resumed game) goes to the first page with the code; a held one only with the arbiter PIN.
    const b = document.createElement("button");
    b.id = "claim";
    b.textContent = r.claimed ? t("take_over") : t("play_here", { seat });
    b.onclick = claimSeat;
    box.appendChild(b);
  }
  const sel = damka.selected;
  const options = remoteLegal().filter((m) => m.from === sel && m.to === damka.target);
  if (options.length > 1) {
    const c = document.createElement("div");
    c.className = "choices";
    c.append(t("which_capture"));
    for (const m of options) {
      const b = document.createElement("button");
      b.textContent = m.text;
      b.onclick = () => sendMove(m.text);
      c.appendChild(b);
    }
    box.appendChild(c);
  }
}

// -- offers: a draw offered, a take-back asked, answered by the other party ------------------------
const ANSWERED = ["accepted", "declined", "lapsed"];

function renderOffer() {
  const o = damka.state.offer;
  const box = $("offer");
  const pending = o && o.pending;
  const last = o && o.last;
  box.innerHTML = "";
  if (pending) {
    const p = document.createElement("div");
    const what = pending.kind === "draw" ? t("a_draw") : pending.moves === 1 ? t("a_takeback_one") : t("a_takeback", { count: pending.moves });
    // The parties: the board (and, in a game with a remote seat, every page but the remote player's) and afar.
    const ours = damka.state.remote && !mine() ? "board" : "afar";
    const theirs = pending.where === "board" ? "board" : "afar";
    if (theirs !== ours) {
      p.textContent = t("offered_board", { what });
      box.appendChild(p);
      for (const [action, label] of [["accept", t("accept")], ["decline", t("decline")]]) {
        const b = document.createElement("button");
        b.textContent = label;
        b.dataset.answer = action;
        b.onclick = () => act(action, label);
        box.appendChild(b);
      }
    } else {
      p.textContent = t(ours === "afar" ? "offered_waiting_board" : "offered_waiting_remote", { what, where: pending.where });
      box.appendChild(p);
    }
  } else if (last) {
    const kind = last.kind;
    const p = document.createElement("div");
    const who = last.where ? t("answered_from", { where: last.where }) : "";
    p.textContent = t("answered", { kind: kind === "draw" ? t("draw_offer") : t("takeback_request"), offered: last.offered_from,
                                    answer: ANSWERED.includes(last.answer) ? t(last.answer) : last.answer, who });
    p.dataset.answer = last.answer;
    box.appendChild(p);
  }
  box.hidden = !pending && !last;
}

async function claimSeat() {
  try {
    const r = await post("/api/game/claim", {});
    sessionStorage.setItem("damka_seat", JSON.stringify({ token: r.seat_token, id: r.seat_id }));
    notice(t("seat_here")); renderRemote();
  } catch (e) { notice(e.message, true); }
}

async function act(action, label) {
  try { const r = await post("/api/game/action", { action }); notice(r.note || t("done", { label })); }
  catch (e) { notice(e.message, true); }
}

function clickSquare(square) {
  const legal = remoteLegal();
  if (!legal.length || !square) return;
  if (damka.selected && legal.some((m) => m.from === damka.selected && m.to === square)) {
    const options = legal.filter((m) => m.from === damka.selected && m.to === square);
    if (options.length === 1) { sendMove(options[0].text); return; }
    damka.target = square; render(); return;
  }
  if (legal.some((m) => m.from === square)) { damka.selected = square; damka.target = null; notice(""); render(); return; }
  const froms = [...new Set(legal.map((m) => m.from))];
  if (damka.selected) {
    const targets = legal.filter((m) => m.from === damka.selected).map((m) => m.to);
    notice(t("not_legal", { move: `${damka.selected}-${square}`, from: damka.selected, targets: targets.join(", ") }), true);
  } else {
    notice(t("no_move_from", { square, must: legal.some((m) => m.captures.length) ? t("must_capture") : "", froms: froms.join(", ") }), true);
  }
}

async function sendMove(text) {
  damka.selected = null; damka.target = null;
  try { await post("/api/game/move", { move: text }); notice(t("sent", { move: text })); }
  catch (e) { notice(e.message, true); }
  render();
}

function setupBoardInput() {
  const svg = $("board");
  let down = null;
  svg.addEventListener("pointerdown", (e) => {
    down = squareAt(svg, e.clientX, e.clientY);
    if (down && remoteLegal().some((m) => m.from === down) && damka.selected !== down) clickSquare(down);
  });
  svg.addEventListener("pointerup", (e) => {
    const up = squareAt(svg, e.clientX, e.clientY);
    if (up && up === down && damka.selected === up) { down = null; return; }  // a click on the piece: selected
    if (up) clickSquare(up);
    down = null;
  });
}

// -- forms --------------------------------------------------------------------------------
async function loadOptions() {
  const o = await (await fetch(`/api/options?language=${damkaWords.language}`)).json();
  damka.roles = o.roles || {};
  damka.palettes = o.palettes || {};
  const form = $("newgame");
  // Filled again in another language: each choice made stays.
  const fill = (name, pairs) => {
    const s = form.elements[name], keep = s.value;
    s.innerHTML = ""; for (const [v, l] of pairs) s.add(new Option(l, v));
    if (keep && pairs.some(([v]) => v === keep)) s.value = keep;
  };
  const again = damka.optionsLoaded;
  damka.optionsLoaded = true;
  fill("variant", o.variants); fill("sides", o.sides); fill("mode", o.modes); fill("colours", o.colours);
  fill("level", o.levels); fill("hint_limit", o.hints);
  fill("computers", [["0", t("all_but_one")], ["1", t("one_seat")], ["2", t("seats", { count: 2 })], ["3", t("seats", { count: 3 })]]);
  damka.sided = o.sided || [];
  if (!again) {
    form.elements.level.value = "casual";
    for (const name of ["variant", "sides", "mode"]) form.elements[name].addEventListener("change", fillSeats);
    form.elements.variant.value = (damka.state && damka.state.game && damka.state.game.variant) || "classic";
  }
  fillSeats();
  // The engines the board's config names for the chosen variant (names only), then Damka's own.
  const engines = () => fill("engine", (o.engines || {})[form.elements.variant.value] || [["Damka", t("own_engine")]]);
  if (!again) form.elements.variant.addEventListener("change", () => { engines(); showRows(); });
  engines(); showRows();
  const dl = $("tcs");
  dl.innerHTML = "";
  for (const [v, l] of o.time_controls) if (v) dl.appendChild(new Option(l, v));
  if (damka.state) render();
}

// The seat a remote player takes: any seat of the game chosen (2-4 players, teams).
function fillSeats() {
  const f = $("newgame").elements;
  const sides = damka.sided.includes(f.variant.value) ? (f.sides.value === "teams" ? 2 : Number(f.sides.value)) : 2;
  const ordinal = [1, 2, 3, 4].map((n) => t(`ordinal_${n}`));
  const keep = f.remote_seat.value || "1";
  f.remote_seat.innerHTML = "";
  for (let i = 0; i < sides; i++) f.remote_seat.add(new Option(t(i === 0 ? "seat_first" : "seat_to_move", { ordinal: ordinal[i] }), String(i)));
  f.remote_seat.value = Number(keep) < sides ? keep : String(sides - 1);
  $("remoteseat").hidden = f.mode.value !== "remote";
  // Beside a remote seat the computer takes only the seats asked for (3-4 players); the rest are at the table.
  if (f.computers.options.length) f.computers.options[0].text = f.mode.value === "remote" ? t("none") : t("all_but_one");
  showRows();
}

// Only the rows that matter for the chosen game, as the board's menu shows them
// (controller/app/menus.py GameMenu._update_visibility; "remote" plays like "computer").
function showRows() {
  const f = $("newgame").elements;
  const mode = f.mode.value, computer = mode === "computer" || mode === "remote";
  const players = damka.sided.includes(f.variant.value), many = ["3", "4", "teams"].includes(f.sides.value);
  const show = (name, on) => { f[name].closest("label").hidden = !on; };
  show("sides", players);
  show("colours", computer || !players);
  show("level", computer);
  show("computers", computer && players && many);
  show("hint_limit", mode === "learning");
  show("engine", (computer || mode === "learning") && f.engine.options.length > 1);
}

function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.id === name);
  // The notice stands in the tab's flow, never over it: under the game's buttons, at the top of the other tabs.
  if (name === "watch") document.querySelector("#watch .controls").after($("notice")); else $(name).prepend($("notice"));
  if (name === "archive" && window.damkaArchive) window.damkaArchive.load();
  if (name === "learn" && window.damkaLearn) window.damkaLearn.load();
}

function init() {
  for (const b of document.querySelectorAll("#tabs button")) b.onclick = () => showTab(b.dataset.tab);
  $("noticeclose").onclick = () => notice("");
  showTab("watch");
  $("codeform").onsubmit = async (e) => {
    e.preventDefault();
    try { const r = await post("/api/login", {}); sessionStorage.setItem("damka_code", $("code").value.trim()); notice(t("unlocked", { role: t(`role_${r.role}`) || r.role })); }
    catch (err) { notice(err.message, true); }
  };
  $("code").value = sessionStorage.getItem("damka_code") || "";
  for (const b of document.querySelectorAll("[data-action]")) b.onclick = () => act(b.dataset.action, b.textContent);
  $("newgame").onsubmit = async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const game = { variant: f.variant.value, sides: f.sides.value, mode: f.mode.value, time_control: f.time_control.value,
                   colours: f.colours.value, level: f.level.value, computers: f.computers.value, hint_limit: f.hint_limit.value, engine: f.engine.value,
                   remote_seat: f.remote_seat.value,
                   players: f.players.value.split(",").map((x) => x.trim()).filter(Boolean) };
    try {
      const r = await post("/api/game/new", { game });
      if (r.seat_token) sessionStorage.setItem("damka_seat", JSON.stringify({ token: r.seat_token, id: r.seat_id }));
      else sessionStorage.removeItem("damka_seat");
      $("setuperror").textContent = ""; showTab("watch"); notice(t("started")); }
    catch (err) { $("setuperror").textContent = err.message; }
  };
  setupBoardInput();
  connect();
  loadOptions();
}
init();
// Once the page's words are in (and each time its language changes), everything written is written again.
damkaWords.listeners.push(() => { $("conn").textContent = t(damka.conn || "connecting"); if (damka.optionsLoaded) loadOptions(); if (damka.state) render(); });
