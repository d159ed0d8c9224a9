// The "Learn" tab: start a lesson or a puzzle on the board, watch it live (the position, the words the board
// shows, the child's tries, stars and hints), choose who is learning, and each learner's progress.
// What is on the board comes in the page's picture (state.teaching), pushed live; the lists and the progress
// come from GET /api/learn, asked again when an exercise ends. Uses app.js's post(), notice() and boardRoles().
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let overview = null;     // the last answer of GET /api/learn
  let shown = "";          // whose progress the tab shows ("": the learner at the board)
  let learner = null;      // the learner at the board, as the last picture said
  const seen = { key: "", steps: {}, replies: {} };   // the tries of each step of the exercise on the board, as the pictures told

  function render() {
    const s = window.damka && damka.state;
    if (!s) return;
    const teaching = s.teaching;
    $("teaching").hidden = !teaching;
    $("learn").classList.toggle("live", !!teaching);   // a wide screen: the live view beside the lists
    if (!teaching) seen.key = "";      // the same puzzle taken again later starts with no tries
    if (teaching) {
      $("teachtitle").textContent = teaching.kind === "lesson"
        ? t("learn_lesson_step", { title: teaching.title, step: teaching.step, steps: teaching.steps }) : teaching.title;
      drawBoard($("learnboard"), teaching.board, { roles: boardRoles() });
      $("teachinstruction").textContent = teaching.instruction;
      $("teachmessage").textContent = teaching.message === teaching.instruction ? "" : teaching.message;
      $("teachmessage").dataset.phase = teaching.phase;
      // A puzzle's stars and hints (a lesson has neither: its stars are always 3).
      const score = $("teachscore");
      score.hidden = teaching.kind !== "puzzle";
      score.querySelector(".stars").textContent = "\u2605".repeat(teaching.stars) + "\u2606".repeat(Math.max(0, 3 - teaching.stars));
      score.querySelector(".stars").setAttribute("aria-label", t("learn_stars", { stars: teaching.stars }));
      score.querySelector(".hints").textContent = t("learn_hints", { count: teaching.hints });
      renderTries(teaching);
      if (overview && teaching.learner !== learner) { learner = teaching.learner; load(); }   // chosen at the board
    }
  }

  // The board gives the tries of the step under way (a lesson's step, a puzzle's move of its line); the page
  // keeps the earlier steps' it saw, so the whole lesson's or puzzle's tries stay listed until another starts.
  function renderTries(teaching) {
    const key = `${teaching.kind}:${teaching.name}`;
    if (seen.key !== key) { seen.key = key; seen.steps = {}; seen.replies = {}; }
    seen.steps[teaching.step] = teaching.tries;
    if (teaching.phase === "reply") seen.replies[teaching.step] = true;   // the other side's move, carried out
    const steps = Object.keys(seen.steps).map(Number).sort((a, b) => a - b);
    const list = $("tries");
    const sig = JSON.stringify([key, steps.map((n) => [seen.steps[n], !!seen.replies[n]])]);
    if (list.dataset.sig === sig) return;
    list.dataset.sig = sig;
    list.textContent = "";
    const all = steps.flatMap((n) => seen.steps[n].map((one) => [n, one]));
    if (!all.length) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = t("learn_no_tries");
      list.appendChild(li);
    }
    let last = null;
    for (const [step, one] of all) {
      if (teaching.kind === "lesson" && step !== last) {
        const head = document.createElement("li");
        head.className = "step";
        head.textContent = t("learn_step", { step });
        list.appendChild(head);
      }
      last = step;
      const li = document.createElement("li");
      const reply = !!seen.replies[step];
      li.className = (one.right ? "right" : "wrong") + (reply ? " reply" : "");
      li.innerHTML = `<span class="mark"></span> <span class="move"></span> <span class="verdict"></span><div class="why"></div>`;
      li.querySelector(".mark").textContent = one.right ? "\u2713" : "\u2717";
      li.querySelector(".move").textContent = one.move;
      li.querySelector(".verdict").textContent = t(reply ? (one.right ? "learn_reply_done" : "learn_reply_wrong")
                                                         : one.right ? "learn_right" : "learn_wrong");
      li.querySelector(".why").textContent = one.why;
      list.appendChild(li);
    }
  }

  // -- the lists and the progress (GET /api/learn) ----------------------------------------------------
  async function load() {
    const query = new URLSearchParams({ language: damkaWords.language || "" });
    if (shown) query.set("learner", shown);
    const res = await fetch(`/api/learn?${query}`);
    const data = await res.json();
    if (!res.ok) { $("learnerror").textContent = data.error; if (shown) { shown = ""; load(); } return; }
    overview = window.damka.learn = data;
    learner = data.learner;
    draw();
  }

  function draw() {
    if (!overview) return;
    const data = overview;
    const shown = (name) => (data.shown || {})[name] || name;   // "Player 1" in the page's words
    $("learnernow").textContent = t("learn_learner_now", { name: shown(data.learner) });
    const select = $("progressof");
    select.innerHTML = "";
    const names = data.learners.includes(data.learner) ? data.learners : [data.learner, ...data.learners];
    for (const name of names) select.add(new Option(shown(name), name));
    $("learnerlist").innerHTML = "";                    // the names known, offered as the name is typed
    for (const name of names) $("learnerlist").appendChild(new Option(name));
    select.value = data.progress.learner;
    const p = data.progress;
    const rows = [t("learn_lessons_done", { done: p.lessons_done.length, total: p.lessons_total }),
                  t("learn_puzzles_solved", { solved: p.puzzles_solved, total: p.puzzles_total }),
                  ...p.by_variant.map((v) => "\u2003" + t("learn_variant_solved", { variant: v.title, solved: v.solved, total: v.total })),
                  t("learn_total_stars", { stars: p.stars }), t("learn_rating", { rating: p.rating })];
    fill($("progress"), rows.map((text) => [text]));
    const lessons = $("lessons");
    lessons.textContent = "";
    for (const lesson of data.lessons) {
      const li = document.createElement("li");
      li.className = lesson.done ? "done" : lesson.next ? "next" : "";
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.lesson = lesson.name;
      b.textContent = lesson.title;
      b.onclick = () => start("/api/learn/lesson", { lesson: lesson.name }, () => t("learn_started_lesson"));
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.textContent = lesson.done ? "\u2713 " + t("learn_done") : lesson.next ? t("learn_next") : "";
      li.append(b, mark);
      lessons.appendChild(li);
    }
    const puzzles = $("puzzles");
    puzzles.textContent = "";
    for (const set of data.puzzles) {
      const li = document.createElement("li");
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = set.title;
      const count = document.createElement("span");
      count.className = "mark";
      count.textContent = set.total ? t("learn_solved_of", { solved: set.solved, total: set.total }) : "";
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.variant = set.variant;
      b.textContent = t("learn_next_puzzle");
      b.onclick = () => start("/api/learn/puzzle", { variant: set.variant }, (r) => t("learn_started_puzzle", { id: r.id }));
      li.append(name, count, b);
      puzzles.appendChild(li);
    }
  }

  function fill(list, rows) {
    list.textContent = "";
    for (const [text] of rows) {
      const li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    }
  }

  // -- commands (the pairing code) ----------------------------------------------------------------------
  async function start(path, body, said) {
    try {
      const r = await post(path, body);
      $("learnerror").textContent = "";
      notice(said(r));
      window.scrollTo(0, 0);          // the live view is at the top of the tab
    } catch (e) { $("learnerror").textContent = e.message; }
  }

  $("learnquit").onclick = async () => {
    try { await post("/api/learn/quit", {}); $("learnerror").textContent = ""; notice(t("learn_stopped")); }
    catch (e) { $("learnerror").textContent = e.message; }
  };

  $("learnerform").onsubmit = async (e) => {
    e.preventDefault();
    try {
      const r = await post("/api/learn/learner", { name: $("learnername").value });
      $("learnerror").textContent = "";
      $("learnername").value = "";
      shown = "";
      notice(t("learn_learner_set", { name: r.learner }));
      load();
    } catch (err) { $("learnerror").textContent = err.message; }
  };

  $("progressof").onchange = (e) => { shown = e.target.value; load(); };

  if (damka.source) {
    damka.source.addEventListener("state", render);   // added after app.js's: damka.state is new
    damka.source.addEventListener("event", (e) => { if (overview && JSON.parse(e.data).type === "ExerciseFinished") load(); });
  }
  damkaWords.listeners.push(() => { $("tries").dataset.sig = ""; render(); if (overview) load(); });   // new words: all again
  window.damkaLearn = { load, render };
  render();
})();
