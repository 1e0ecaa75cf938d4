// hkk serve's deck builder: browse the installed sets' cards, add and remove copies, see what the
// chosen format says of the deck (the server checks it with the engine's format rules; nothing
// of them is copied here), save the deck file the CLI reads, start a game with it.  Names and
// texts are set as text, never as markup; a card's picture is an <img> of its SVG.
"use strict";

const token = document.querySelector("meta[name='hkk-token']").content;
let catalogue = null;  // {cards, formats, decks}
let byId = {};
const deck = {};       // card id -> copies
let checked = 0;       // the last check asked: an older answer is not shown
let flagged = new Set();

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child);
    }
  }
  return node;
}

async function call(method, path, body) {
  const options = { method, headers: { "X-HKK-Token": token } };
  if (method === "POST") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    throw new Error(data.error || response.statusText);
  }
  return data;
}

function message(text) {
  const box = document.getElementById("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function request() {
  const cards = {};
  for (const [id, copies] of Object.entries(deck)) {
    if (copies > 0) {
      cards[id] = copies;
    }
  }
  return { name: document.getElementById("deck-name").value,
           title: document.getElementById("deck-title").value,
           format: document.getElementById("format").value, cards };
}

function change(id, by) {
  deck[id] = Math.max(0, (deck[id] || 0) + by);
  if (!deck[id]) {
    delete deck[id];
  }
  update();
}

function tile(card) {
  const count = deck[card.id] || 0;
  const box = el("div", { className: "tile" + (count ? " in-deck" : "") });
  box.dataset.card = card.id;
  const image = el("img", { alt: card.name, loading: "lazy",
                            src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(card.svg) });
  image.title = [card.id, card.text || "", ...card.abilities].join("\n");
  const less = el("button", { type: "button", textContent: "−", className: "remove",
                              title: "one copy less", disabled: !count });
  const more = el("button", { type: "button", textContent: "+", className: "add",
                              title: "one copy more" });
  less.addEventListener("click", () => change(card.id, -1));
  more.addEventListener("click", () => change(card.id, 1));
  box.append(image, el("div", {}, less, el("span", { className: "count",
                                                     textContent: String(count) }), more));
  return box;
}

function showGallery() {
  const code = document.getElementById("set").value;
  const find = document.getElementById("find").value.toLowerCase();
  const shown = catalogue.cards.filter(c => (!code || c.set === code) &&
    (!find || `${c.name} ${c.id}`.toLowerCase().includes(find)));
  document.getElementById("gallery").replaceChildren(...shown.map(tile));
}

function showDeck() {
  const list = document.getElementById("deck-list");
  const ids = Object.keys(deck).sort((a, b) => byId[a].name.localeCompare(byId[b].name));
  list.replaceChildren(...ids.map(id => {
    const less = el("button", { type: "button", textContent: "−", title: "one copy less" });
    const more = el("button", { type: "button", textContent: "+", title: "one copy more" });
    less.addEventListener("click", () => change(id, -1));
    more.addEventListener("click", () => change(id, 1));
    const item = el("li", { className: flagged.has(id) ? "flagged" : "" },
                    el("span", { textContent: `${deck[id]} × ${byId[id].name}`, title: id }),
                    less, more);
    item.dataset.card = id;
    return item;
  }));
  const size = Object.values(deck).reduce((a, b) => a + b, 0);
  document.getElementById("deck-size").textContent = `${size} cards`;
}

async function check() {
  const asked = ++checked;
  const legality = document.getElementById("legality");
  try {
    const answer = await call("POST", "/api/decks/check", request());
    if (asked !== checked) {
      return;  // the deck changed since: its own answer follows
    }
    flagged = new Set(answer.problems.filter(p => p.card).map(p => p.card));
    legality.className = answer.legal ? "legal" : "illegal";
    legality.textContent = answer.legal
      ? `Legal in ${answer.format} (${answer.rules})`
      : `Breaks ${answer.format} (${answer.rules}): ${answer.problems.length} problem(s)`;
    document.getElementById("problems").replaceChildren(
      ...answer.problems.map(p => el("li", { textContent: `${p.kind}: ${p.message}` })));
    legality.dataset.checked = String(asked);
    message("");
  } catch (error) {
    if (asked === checked) {
      legality.className = "illegal";
      legality.textContent = error.message;
      legality.dataset.checked = String(asked);
    }
  }
  showDeck();
}

function update() {
  showGallery();
  showDeck();
  check();
}

async function save() {
  try {
    const file = await call("POST", "/api/decks/file", request());
    const blob = new Blob([file.text], { type: "application/toml" });
    const link = el("a", { href: URL.createObjectURL(blob), download: file.filename });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    message("");
  } catch (error) {
    message(error.message);
  }
}

async function play() {
  try {
    await call("POST", "/api/decks/play", request());
    window.location.href = "/";
  } catch (error) {
    message(error.message);
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  try {
    catalogue = await call("GET", "/api/decks/cards");
  } catch (error) {
    message(error.message);
    return;
  }
  byId = Object.fromEntries(catalogue.cards.map(c => [c.id, c]));
  const sets = [...new Set(catalogue.cards.map(c => c.set))];
  document.getElementById("set").replaceChildren(
    el("option", { value: "", textContent: "every set" }),
    ...sets.map(code => el("option", { value: code, textContent: code })));
  const format = document.getElementById("format");
  format.replaceChildren(...catalogue.formats.map(f =>
    el("option", { value: f.name, textContent: `${f.title} (${f.name}): ${f.rules}` })));
  // a set's own format first: what a deck builder is there to meet
  const own = catalogue.formats.find(f => f.name !== "casual");
  format.value = own ? own.name : "casual";
  const start = document.getElementById("start");
  for (const name of Object.keys(catalogue.decks)) {
    start.append(el("option", { value: name, textContent: name }));
  }
  start.addEventListener("change", () => {
    for (const id of Object.keys(deck)) {
      delete deck[id];
    }
    Object.assign(deck, catalogue.decks[start.value] || {});
    update();
  });
  document.getElementById("set").addEventListener("change", showGallery);
  document.getElementById("find").addEventListener("input", showGallery);
  format.addEventListener("change", check);
  document.getElementById("deck-name").addEventListener("change", check);
  document.getElementById("deck-save").addEventListener("click", save);
  document.getElementById("deck-play").addEventListener("click", play);
  update();
});
