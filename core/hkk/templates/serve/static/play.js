// hkk serve: the page reads the position as JSON from the server and sends the person's
// answers back.  Names and texts are set as text, never as markup.
"use strict";

let state = null;
let busy = false;
// the server's secret, written into the page: every request carries it (another site's page
// cannot read this page, so it cannot send it)
const token = document.querySelector("meta[name='hkk-token']").content;

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
    options.body = typeof body === "string" ? body : JSON.stringify(body || {});
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    if (data.state) {
      show(data.state);
    }
    throw new Error(data.error || response.statusText);
  }
  return data;
}

async function act(method, path, body) {
  if (busy) {
    return;
  }
  busy = true;
  document.body.classList.add("busy");
  // the computer may take a while: say so, and for how long at most
  const thinking = setTimeout(() => {
    document.getElementById("prompt").textContent = "The computer is thinking" +
      (state ? ` (at most ${state.think_limit} s)` : "") + "…";
  }, 300);
  try {
    show(await call(method, path, body));
  } catch (error) {
    message(error.message);
  } finally {
    clearTimeout(thinking);
    busy = false;
    document.body.classList.remove("busy");
  }
}

// The page's hooks for the table's other scripts (friend.js, sandbox.js): they see each new
// position and ask the server through the page's token, never touching this file's internals.
const stateListeners = [];
window.hkk = { token, call, act, onState: (fn) => stateListeners.push(fn) };

function message(text) {
  const box = document.getElementById("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function stat(label, value) {
  return [el("dt", { textContent: label }), el("dd", { textContent: String(value) })];
}

function playerPanel(p, active) {
  const hand = p.hand === null ? `${p.hand_size} cards (hidden)` : `${p.hand_size} cards`;
  const dl = el("dl", {});
  dl.append(...stat("Ép", p.hp), ...stat("VP", p.vp), ...stat("components", p.components),
            ...stat("hand", hand), ...stat("deck", p.deck_size),
            ...stat("graveyard", p.graveyard.length));
  const panel = el("div", { className: "player" + (p.you ? " you" : "") +
                            (active ? " active" : "") },
                   el("h3", { textContent: p.name }), dl);
  panel.dataset.player = String(p.index);
  return panel;
}

function cardBox(card, extra) {
  const box = el("div", { className: "card " + (extra.cls || "") });
  box.dataset.card = card.id;
  if (extra.uid !== undefined) {
    box.dataset.uid = String(extra.uid);
    box.append(el("span", { className: "uid", textContent: "#" + extra.uid }));
  }
  box.append(el("div", { className: "name", textContent: card.name }));
  let stats = `${card.kind}, ${card.vp} VP`;
  if (card.components) {
    stats += `, ${card.components} comp.`;
  }
  if (extra.stats) {
    stats = extra.stats;
  } else if (card.kind === "creature") {
    stats += ` - ${card.damage}/${card.hp}`;
  }
  box.append(el("div", { className: "stats", textContent: stats }));
  box.append(el("div", { className: "text", textContent: card.text || card.abilities.join(" ") }));
  box.title = [card.id, ...card.abilities].join("\n");
  return box;
}

function permanentBox(perm, you) {
  let stats = perm.card.kind === "creature" ? `${perm.damage}/${perm.hp} (max ${perm.max_hp})`
    : `Sp ${perm.hp}/${perm.max_hp}`;
  if (perm.defence_bonus) {
    stats += `, +${perm.defence_bonus} defence`;
  }
  for (const [name, count] of Object.entries(perm.counters)) {
    stats += `, ${count} ${name}`;
  }
  if (!perm.active) {
    stats += ", passive";
  }
  const cls = (perm.controller === you ? "mine" : "theirs") + (perm.active ? "" : " passive");
  return cardBox(perm.card, { cls, uid: perm.uid, stats });
}

function showBoard(s) {
  const board = document.getElementById("board");
  board.replaceChildren();
  for (const index of [1 - s.you, s.you]) {
    const name = s.players[index].name;
    const row = el("div", { className: "row" });
    row.dataset.controller = String(index);
    for (const perm of s.permanents.filter(p => p.controller === index)) {
      row.append(permanentBox(perm, s.you));
    }
    board.append(el("div", { className: "row-label", textContent: name }), row);
  }
  const me = s.players[s.you];
  document.getElementById("hand").replaceChildren(
    ...me.hand.map(card => cardBox(card, { cls: "mine" })));
}

function showDecision(s) {
  const options = document.getElementById("options");
  const prompt = document.getElementById("prompt");
  const winner = document.getElementById("winner");
  options.replaceChildren();
  if (s.winner) {
    winner.textContent = s.winner.text;
    winner.hidden = false;
    prompt.textContent = "The game is over. New game, take back or save it.";
    return;
  }
  winner.hidden = true;
  const d = s.decision;
  const rule = d.rule ? ` (${d.rule})` : "";
  prompt.textContent = `${d.prompt || d.kind}${rule}`;
  for (const option of d.options) {
    const button = el("button", { type: "button", textContent: option.label });
    button.dataset.index = String(option.index);
    button.addEventListener("click", () =>
      act("POST", "/api/answer", { index: option.index, at: s.answers }));
    options.append(button);
  }
}

function showLog(s) {
  const log = document.getElementById("log");
  log.replaceChildren(...s.log.map(line => el("li", { className: line.kind,
                                                      textContent: line.text })));
  log.scrollTop = log.scrollHeight;
}

function showCards(cards) {
  const error = document.getElementById("card-error");
  const newer = document.getElementById("cards-newer");
  error.textContent = cards.errors.join("\n");
  error.hidden = cards.errors.length === 0;
  newer.hidden = !cards.newer;
  document.getElementById("cards-banner").hidden = error.hidden && newer.hidden;
}

function show(s) {
  state = s;
  const players = document.getElementById("players");
  players.replaceChildren(...s.players.map(p => playerPanel(p, p.index === s.active)));
  document.getElementById("meta").textContent =
    `${s.decks.join(" vs ")}${s.seed === null ? "" : `, seed ${s.seed}`}, ` +
    `against ${s.opponent}, turn ${s.turn}`;
  document.getElementById("undo").disabled = !s.can_undo;
  showBoard(s);
  showDecision(s);
  showLog(s);
  showCards(s.cards);
  message(s.message);
  for (const fn of stateListeners) fn(s);
}

// a download made from the answer: a link to /api/save could not carry the token
async function save() {
  try {
    const response = await fetch("/api/save", { headers: { "X-HKK-Token": token } });
    if (!response.ok) {
      throw new Error((await response.json()).error || response.statusText);
    }
    const disposition = response.headers.get("Content-Disposition") || "";
    const name = (disposition.match(/filename="([^"]+)"/) || [null, "hkk-game.json"])[1];
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (error) {
    message(error.message);
  }
}

async function watch() {
  if (state && state.watch && !busy) {
    try {
      showCards(await call("GET", "/api/watch"));
    } catch (error) {
      message(error.message);
    }
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  document.getElementById("new-game").addEventListener("click", () => act("POST", "/api/new"));
  document.getElementById("undo").addEventListener("click", () => act("POST", "/api/undo"));
  document.getElementById("restart").addEventListener("click", () => act("POST", "/api/restart"));
  document.getElementById("save").addEventListener("click", save);
  document.getElementById("replay").addEventListener("change", async event => {
    const file = event.target.files[0];
    if (file) {
      await act("POST", "/api/load", await file.text());
      event.target.value = "";
    }
  });
  await act("GET", "/api/state");
  setInterval(watch, 1000);
});
