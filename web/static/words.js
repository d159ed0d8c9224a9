// The page's own words, from the board's catalogue (/api/words): in the board's language, unless this page
// picked another in its Language box (kept in this browser). The board's sentences (status, menus) come in
// the board's language with the state. t("key", {field: value}) fills a text's {placeholders}.
"use strict";
const damkaWords = window.damkaWords = { language: "", board: "", words: {}, names: {}, listeners: [] };

// A counted text's forms follow the catalogue's order (controller/words/plurals.py): English one, other;
// Polish one, few, many. The browser's plural rules (CLDR) say which a count takes.
const FORMS = { one: 0, few: 1, many: 2, other: 1 };

function t(key, fields) {
  let text = damkaWords.words[key];
  if (text === undefined) return "";   // before the words are in: drawn again once they are
  if (Array.isArray(text)) {
    const form = FORMS[new Intl.PluralRules(damkaWords.language || "en").select(Number(fields && fields.count))];
    text = text[Math.min(form, text.length - 1)];
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (fields && name in fields ? String(fields[name]) : whole));
}

// The words of `code` ("" the board's): every marked element of the page takes them, then the listeners
// (the parts that write sentences of their own) draw again.
async function loadWords(code) {
  const res = await fetch("/api/words" + (code ? `?language=${encodeURIComponent(code)}` : ""));
  const data = await res.json();
  Object.assign(damkaWords, { language: data.language, board: data.board, words: data.words, names: data.names,
                              settings: data.settings || {} });
  document.documentElement.lang = data.language;
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = t(node.dataset.w);
  for (const [attr, data_key] of [["placeholder", "wPlaceholder"], ["title", "wTitle"], ["aria-label", "wAria"]]) {
    for (const node of document.querySelectorAll(`[data-${data_key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())}]`)) {
      node.setAttribute(attr, t(node.dataset[data_key]));
    }
  }
  const box = document.getElementById("language");
  if (box) {
    box.innerHTML = "";
    for (const [value, name] of Object.entries(damkaWords.names)) box.add(new Option(name, value));
    box.value = damkaWords.language;
  }
  for (const listener of damkaWords.listeners) listener();
}

function pickedLanguage() { return localStorage.getItem("damka_language") || ""; }

// The board changed its language (its settings menu, the config): a page that picked none follows.
function followBoard(code) {
  if (!pickedLanguage() && code && code !== damkaWords.language && code !== damkaWords.asked) {
    damkaWords.asked = code;   // asked once, however many states come before the words do
    loadWords(code);
  }
}

damkaWords.ready = loadWords(pickedLanguage());
document.getElementById("language").onchange = (e) => {
  const code = e.target.value;
  if (code === damkaWords.board) localStorage.removeItem("damka_language"); else localStorage.setItem("damka_language", code);
  loadWords(code);
};
