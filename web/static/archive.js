// The archive: the stored games, a replay with a move slider, PDN out (download) and in (upload).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let replay = null;

  // The list comes a page at a time (newest first): "More games" asks for the next one.
  async function load(before) {
    const list = $("games");
    const asked = `language=${encodeURIComponent(damkaWords.language)}`;   // the page's, not the board's
    const res = await fetch(before ? `/api/games?before=${before}&${asked}` : `/api/games?${asked}`);
    const data = await res.json();
    const more = list.querySelector("li.more");
    if (more) more.remove();
    if (!before) list.textContent = "";
    if (!res.ok) { list.textContent = data.error; return; }
    if (!data.games.length && !before) { list.textContent = t("no_games"); return; }
    for (const g of data.games) {
      const li = document.createElement("li");
      li.dataset.id = g.id;
      li.tabIndex = 0;
      li.textContent = t("game_line", { id: g.id, when: g.created.slice(0, 16).replace("T", " "), variant: g.title || g.variant,
                                        players: g.players.join(" - "), moves: g.moves, result: g.result });
      li.onclick = () => open(g.id);
      li.onkeydown = (e) => { if (e.key === "Enter") open(g.id); };
      list.appendChild(li);
    }
    if (data.next) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      li.className = "more";
      button.type = "button";
      button.textContent = t("more_games", { total: data.total });
      button.onclick = () => load(data.next);
      li.appendChild(button);
      list.appendChild(li);
    }
  }

  async function open(id) {
    const res = await fetch(`/api/games/${id}?language=${encodeURIComponent(damkaWords.language)}`);
    const data = await res.json();
    if (!res.ok) { $("importmsg").className = "error"; $("importmsg").textContent = data.error; return; }
    replay = window.damka.replay = data;
    $("replay").hidden = false;
    $("replaytitle").textContent = `#${data.id} ${data.title}: ${data.players.join(" - ")} ${data.result}`;
    $("download").href = `/api/games/${id}.pdn`;
    $("download").setAttribute("download", `damka-game-${id}.pdn`);
    const slider = $("slider");
    slider.max = data.moves.length; slider.value = data.moves.length;
    show();
    for (const li of document.querySelectorAll("#games li")) li.classList.toggle("active", li.dataset.id === String(id));
  }

  function show() {
    const i = Number($("slider").value);
    drawBoard($("replayboard"), { files: replay.files, ranks: replay.ranks, squares: replay.squares, pieces: replay.boards[i], frame: {} }, {});
    $("replaymove").textContent = i ? t("after_move", { number: i, total: replay.moves.length, move: replay.moves[i - 1] })
      : t("start_position");
  }

  async function upload(e) {
    e.preventDefault();
    const file = $("pdnfile").files[0];
    const msg = $("importmsg");
    if (!file) { msg.className = "error"; msg.textContent = t("choose_file"); return; }
    try {
      const r = await window.damkaPost("/api/games/import", { pdn: await file.text(), name: file.name, variant: $("pdnvariant").value });
      progress(r.import);
    } catch (err) { msg.className = "error"; msg.textContent = err.message; }
  }

  // An upload is stored by a job beside the board: its progress comes as ImportProgress events.
  let shown = { job: 0, rank: -1 };   // the answer to the upload may come after its job's events: keep the latest
  function progress(p) {
    const rank = p.state === "reading" ? p.read : Infinity;
    if (p.job < shown.job || (p.job === shown.job && rank <= shown.rank)) return;
    shown = { job: p.job, rank };
    const msg = $("importmsg");
    const known = p.known ? t("already", { count: p.known }) : "";
    if (p.state === "reading") {
      msg.className = "error ok";
      msg.textContent = t("importing", { name: p.name, read: p.read, stored: p.stored, known });
    } else if (p.state === "done") {
      msg.className = p.refused ? (p.stored ? "error warn" : "error") : "error ok";   // refused records: not a success
      const rest = p.stored > p.ids.length ? t("and_more", { count: p.stored - p.ids.length }) : "";
      const refused = p.refused ? t("import_refused", { count: p.refused, first: (p.problems || [])[0] || "" }) : "";
      msg.textContent = (p.stored ? t("imported", { ids: p.ids.join(", "), rest, known }) : t("imported_none", { known })) + refused;
      msg.title = (p.problems || []).join("\n");
      load();
    } else if (p.state === "stopped") {
      msg.className = "error";
      msg.textContent = p.error;
      if (p.stored) load();
    }
  }

  function step(delta) {
    const s = $("slider");
    s.value = Math.max(0, Math.min(Number(s.max), Number(s.value) + delta));
    show();
  }

  $("slider").oninput = show;
  $("replayprev").onclick = () => step(-1);
  $("replaynext").onclick = () => step(1);
  $("importform").onsubmit = upload;
  window.damkaArchive = { load, open, progress };
  // Another language for the page: the list and the game open written again in it.
  damkaWords.listeners.push(() => {
    if ($("games").childElementCount) load();
    if (replay) open(replay.id);
  });
})();
