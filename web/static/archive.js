// The archive: the stored games, a replay with a move slider, PDN out (download) and in (upload).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let replay = null;

  async function load() {
    const list = $("games");
    const res = await fetch("/api/games");
    const data = await res.json();
    list.textContent = "";
    if (!res.ok) { list.textContent = data.error; return; }
    if (!data.games.length) { list.textContent = "No stored games yet."; return; }
    for (const g of data.games) {
      const li = document.createElement("li");
      li.dataset.id = g.id;
      li.tabIndex = 0;
      li.textContent = `#${g.id} ${g.created.slice(0, 16).replace("T", " ")} ${g.variant}: ${g.players.join(" - ")} (${g.moves} move${g.moves === 1 ? "" : "s"}) ${g.result}`;
      li.onclick = () => open(g.id);
      li.onkeydown = (e) => { if (e.key === "Enter") open(g.id); };
      list.appendChild(li);
    }
  }

  async function open(id) {
    const res = await fetch(`/api/games/${id}`);
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
    $("replaymove").textContent = i ? `after move ${i} of ${replay.moves.length}: ${replay.moves[i - 1]}` : "start position";
  }

  async function upload(e) {
    e.preventDefault();
    const file = $("pdnfile").files[0];
    const msg = $("importmsg");
    if (!file) { msg.className = "error"; msg.textContent = "choose a PDN file first"; return; }
    try {
      const r = await window.damkaPost("/api/games/import", { pdn: await file.text(), name: file.name });
      msg.className = "error ok"; msg.textContent = `imported: game ${r.ids.join(", ")}`;
      await load();
    } catch (err) { msg.className = "error"; msg.textContent = err.message; }
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
  window.damkaArchive = { load, open };
})();
