// The "Board" tab: the board menu's settings and the clock's pause/start, as the board's own menu has them.
// The rows (labels, choices, values) come in the page's picture (state.settings), pushed live by the feed;
// nothing here knows a setting's values. Uses app.js's post() and notice() and its live source (damka.source).
"use strict";
(function () {
  const form = document.getElementById("settingsform");
  const clockBtn = document.getElementById("clockbtn");
  const error = document.getElementById("settingserror");
  const why = document.getElementById("clockwhy");
  let shape = "";

  function render() {
    const s = window.damka && damka.state;
    if (!s) return;
    const rows = s.settings || {};
    const own = damkaWords.settings || {};   // the rows' words in the page's language (the state's: the board's)
    const sig = damkaWords.language + JSON.stringify(Object.entries(rows).map(([k, r]) => [k, r.label, r.choices]));
    if (sig !== shape) {       // the rows themselves (rarely): build the selects again
      shape = sig;
      form.textContent = "";
      for (const [key, row] of Object.entries(rows)) {
        const label = document.createElement("label");
        const select = document.createElement("select");
        select.dataset.setting = key;
        const named = Object.fromEntries((own[key] && own[key].choices) || []);
        for (const [value, text] of row.choices) select.add(new Option(named[value] || text, value));
        select.onchange = () => change(key, select.value);
        label.append((own[key] && own[key].label) || row.label, select);
        form.appendChild(label);
      }
    }
    for (const [key, row] of Object.entries(rows)) {
      const select = form.querySelector(`select[data-setting="${key}"]`);
      if (select && select.value !== row.value) select.value = row.value;
    }
    const clock = s.game && s.game.clock;
    clockBtn.disabled = !clock || (clock.state !== "running" && clock.state !== "paused");
    clockBtn.textContent = clock && clock.state === "paused" ? t("start_clock") : t("pause_clock");
    clockBtn.dataset.action = clock && clock.state === "paused" ? "start" : "pause";
    why.textContent = !s.game ? t("arb_no_game") : !clock ? t("arb_no_clock")
      : clock.state === "ready" ? t("clock_first_move") : clock.state === "finished" ? t("clock_stopped") : "";
  }

  async function change(key, value) {
    try {
      await post("/api/board/settings", { settings: { [key]: value } });
      error.textContent = "";
      if (key === "language" && !pickedLanguage()) await loadWords(value);   // the notice in the words it follows
      notice(t("settings_changed"));
    } catch (e) {
      error.textContent = e.message;
      shape = "";
      render();            // back to the board's values
    }
  }

  clockBtn.onclick = async () => {
    const action = clockBtn.dataset.action;
    try {
      await post("/api/board/clock", { action });
      error.textContent = "";
      notice(action === "pause" ? t("clock_paused") : t("clock_started"));
    } catch (e) { error.textContent = e.message; }
  };

  if (damka.source) damka.source.addEventListener("state", render);  // added after app.js's: damka.state is new
  damkaWords.listeners.push(render);
  render();
})();
