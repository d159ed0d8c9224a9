// Draws a board as SVG: squares, pieces (kings crowned), LED roles as coloured rings.
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const PIECE = { w: ["#f4f0e4", "#7a7a70"], W: ["#f4f0e4", "#7a7a70"], b: ["#222226", "#9a9aa0"],
                B: ["#222226", "#9a9aa0"], o: ["#c49654", "#5a3f1c"] };

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// board: {files:[f0,f1], ranks:[r0,r1], squares:[[name,f,r]], pieces:{sq:code}, frame:{sq:role}}
// opts: {roles:{role:"#hex"}, marks:{sq:"select"|"target"}}
function drawBoard(svg, board, opts) {
  opts = opts || {};
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (!board || !board.squares || !board.squares.length) {
    svg.setAttribute("viewBox", "0 0 100 100");
    el("rect", { x: 0, y: 0, width: 100, height: 100, fill: "#2a2c33", rx: 4 }, svg);
    const t = el("text", { x: 50, y: 52, "text-anchor": "middle", fill: "#a0a4ad", "font-size": 7 }, svg);
    t.textContent = window.t("no_game");
    return;
  }
  const [f0, f1] = board.files, [r0, r1] = board.ranks;
  const w = f1 - f0 + 1, h = r1 - r0 + 1, m = 0.45;
  svg.setAttribute("viewBox", `${-m} ${-m} ${w + 2 * m} ${h + 2 * m}`);
  el("rect", { x: -m, y: -m, width: w + 2 * m, height: h + 2 * m, fill: "#3a2a1e", rx: 0.2 }, svg);
  const playable = new Set(board.squares.map((s) => s[0]));
  const names = {};
  for (const [name, f, r] of board.squares) names[`${f},${r}`] = name;
  const fileLetter = (f) => String.fromCharCode(97 + f);
  for (let f = f0; f <= f1; f++) {
    for (let r = r0; r <= r1; r++) {
      const x = f - f0, y = r1 - r;
      const name = names[`${f},${r}`] || `${fileLetter(f)}${r + 1}`;
      const dark = (f + r) % 2 === 0;
      const g = el("g", { "data-square": name, class: "sq" }, svg);
      el("rect", { x, y, width: 1, height: 1, fill: dark ? "#7a5234" : "#e2cca0" }, g);
      if (!playable.has(name) && board.squares.length > w * h / 2 + 1) el("rect", { x, y, width: 1, height: 1, fill: "#000", opacity: 0.35 }, g);
      const role = board.frame && board.frame[name];
      if (role) {
        const colour = (opts.roles && opts.roles[role]) || "#ffffff";
        el("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, fill: "none", stroke: colour,
                     "stroke-width": 0.09, rx: 0.08, class: `led led-${role}` }, g);
      }
      const mark = opts.marks && opts.marks[name];
      if (mark) el("circle", { cx: x + 0.5, cy: y + 0.5, r: mark === "target" ? 0.16 : 0.46, fill: mark === "target" ? "#57e389" : "none",
                               stroke: "#57e389", "stroke-width": mark === "target" ? 0 : 0.07, class: `mark-${mark}` }, g);
      const code = board.pieces && board.pieces[name];
      if (code) {
        const [fill, edge] = PIECE[code] || ["#999", "#444"];
        const p = el("g", { class: `piece piece-${code}`, "data-piece": code }, g);
        el("circle", { cx: x + 0.5, cy: y + 0.53, r: 0.38, fill: edge }, p);
        el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.37, fill, stroke: edge, "stroke-width": 0.04 }, p);
        el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.25, fill: "none", stroke: edge, "stroke-width": 0.025, opacity: 0.7 }, p);
        if (code === "W" || code === "B") {
          el("path", { d: `M${x + 0.3} ${y + 0.58} L${x + 0.3} ${y + 0.4} L${x + 0.4} ${y + 0.5} L${x + 0.5} ${y + 0.36} L${x + 0.6} ${y + 0.5} L${x + 0.7} ${y + 0.4} L${x + 0.7} ${y + 0.58} Z`,
                       fill: "#e6b428", stroke: "#8a6a10", "stroke-width": 0.02, class: "crown" }, p);
        }
      }
    }
  }
  for (let f = f0; f <= f1; f++) {
    const t = el("text", { x: f - f0 + 0.5, y: h + m * 0.78, "text-anchor": "middle", fill: "#d8c4a0", "font-size": 0.3 }, svg);
    t.textContent = fileLetter(f);
  }
  for (let r = r0; r <= r1; r++) {
    const t = el("text", { x: -m / 2, y: r1 - r + 0.6, "text-anchor": "middle", fill: "#d8c4a0", "font-size": 0.3 }, svg);
    t.textContent = String(r + 1);
  }
}

function squareAt(svg, clientX, clientY) {
  const node = document.elementFromPoint(clientX, clientY);
  const g = node && node.closest && node.closest("[data-square]");
  return g && svg.contains(g) ? g.getAttribute("data-square") : null;
}
