// The arbiter's console: clock actions and the result behind the arbiter PIN; the log pushed by the feed.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);

  // "1:30", "90", "1:02:00" -> ms (NaN when unreadable)
  function readTime(text) {
    const t = String(text || "").trim();
    if (!/^-?\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(t)) return NaN;
    const sign = t.startsWith("-") ? -1 : 1;
    const parts = t.replace("-", "").split(":").map(Number);
    let s = 0;
    for (const p of parts) s = s * 60 + p;
    return sign * Math.round(s * 1000);
  }

  function sideOptions(g) {
    const select = $("arbside"), winner = $("arbwinner");
    // The console's label names the player and the side already ("Ala (White)": App.side_label).
    const labels = g ? g.sides.map((x) => x.label || x.name) : [];
    const sig = damkaWords.language + labels.join("|");   // written again in another language too
    if (select.dataset.sig === sig) return;
    select.dataset.sig = sig;
    const keep = select.value, keepWinner = winner.value;
    select.innerHTML = ""; winner.innerHTML = "";
    labels.forEach((label, i) => { select.add(new Option(label, i)); winner.add(new Option(t("arb_wins", { side: label }), i)); });
    winner.add(new Option(t("a_draw"), "draw"));
    if (keep && keep < labels.length) select.value = keep;
    if (keepWinner) winner.value = keepWinner;
  }

  function renderLog(entries) {
    const list = $("arblog");
    const sig = entries.length ? entries.length + entries[entries.length - 1].at + entries[entries.length - 1].detail : "";
    if (list.dataset.sig === sig) return;
    list.dataset.sig = sig;
    list.textContent = "";
    for (const e of entries.slice().reverse()) {        // newest first
      const li = document.createElement("li");
      li.innerHTML = `<span class="when"></span> <span class="who"></span><div class="what"></div>`;
      li.querySelector(".when").textContent = e.at.slice(11);
      li.querySelector(".when").title = e.at;
      li.querySelector(".who").textContent = e.who;
      li.querySelector(".what").textContent = e.detail;
      li.dataset.action = e.action;
      list.appendChild(li);
    }
    $("arbempty").hidden = entries.length > 0;
  }

  function render(state) {
    const g = state.game;
    sideOptions(g);
    renderLog(state.arbiter_log || []);
    const c = g && g.clock;
    $("arbclock").textContent = !g ? t("arb_no_game") : !c ? t("arb_no_clock")
    : t("arb_clock", { state: t(`arb_state_${c.state}`) }) + (g.result ? ` - ${g.result.title} (${g.result.reason})` : "");
  }

  function say(text, ok) {
    const out = $("arberror");
    out.classList.toggle("ok", !!ok);
    out.textContent = text;
  }

  async function send(action, body) {
    try { const r = await window.damkaPost(`/api/arbiter/${action}`, body || {}); say(t("arb_done", { done: r.done }), true); }
    catch (e) { say(e.message, false); }
  }

  function init() {
    const side = () => Number($("arbside").value);
    const buttons = {
      add_time: () => ({ side: side(), ms: readTime($("arbdelta").value) }),
      sub_time: () => ({ side: side(), ms: -readTime($("arbdelta").value) }),
      set_time: () => ({ side: side(), ms: readTime($("arbset").value) }),
      pause: () => ({}), resume: () => ({}), undo: () => ({}),
      result: () => ({ winner: $("arbwinner").value === "draw" ? null : Number($("arbwinner").value) }),
    };
    for (const b of document.querySelectorAll("[data-arb]")) b.onclick = () => {
      const name = b.dataset.arb, body = buttons[name]();
      if ("ms" in body && Number.isNaN(body.ms)) { say(t("arb_bad_time"), false); return; }
      if (name === "result" && !window.confirm(t("arb_confirm", { result: $("arbwinner").selectedOptions[0].text }))) return;
      send(name === "sub_time" ? "add_time" : name, body);
    };
    $("rotate").onclick = async () => {
      try { await window.damkaPost("/api/code/rotate", {}); say(t("arb_rotated"), true); }
      catch (e) { say(e.message, false); }
    };
  }

  window.damkaArbiter = { render, readTime };
  init();
  if (window.damka && window.damka.state) render(window.damka.state);
})();
