// hkk serve: the page reads the position as JSON from the server and sends the person's
// answers back.  Names and texts are set as text, never as markup.
//
// The table: each player's zones (guard post, reserve, buildings; graveyard and void as piles
// to open), the cards as the controls (an option that names a card is answered by clicking
// that card: its uid, or in the hand its card id, from the option's plain `data`), what can be
// done now highlighted, the combat drawn, a card's image and texts zoomed on hover or
// right-click.  The options stay as a list of buttons too, and the keys 1-9 answer them.
"use strict";

let state = null;
let busy = false;
// the server's secret, written into the page: every request carries it (another site's page
// cannot read this page, so it cannot send it)
const token = document.querySelector("meta[name='hkk-token']").content;

const ZONES = [["guard_post", "Guard post"], ["reserve", "Reserve"], ["buildings", "Buildings"]];
const AUTO_KEY = "hkk-auto-answer";
let autoAnswered = null; // the `answers` count last answered by itself (never twice)

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
    // a lone option the server left (the first of a new game, a load or a take-back) is
    // answered before the page is free again, so nobody waits on it or clicks a stale one
    while (loneOptionWaits()) {
      autoAnswered = state.answers;
      show(await call("POST", "/api/answer", { index: 0, at: state.answers, auto: true }));
    }
  } catch (error) {
    message(error.message);
  } finally {
    clearTimeout(thinking);
    busy = false;
    document.body.classList.remove("busy");
    thinkingMark(); // not left showing until the mark's next tick
  }
}

// A newer position another script read (friend.js's poll: the friend moved), drawn without
// marking the page busy, so a click made while it was read is not dropped; skipped while an
// answer is on its way (its own position follows), and a lone option answered as `act` does.
function refresh(s) {
  if (!busy) {
    show(s);
    answerLoneOption();
  }
}

// The page's hooks for the table's other scripts (friend.js, sandbox.js): they see each new
// position and ask the server through the page's token, never touching this file's internals.
const stateListeners = [];
window.hkk = { token, call, act, refresh, el, onState: (fn) => stateListeners.push(fn) };

function message(text) {
  const box = document.getElementById("message");
  box.textContent = text || "";
  box.hidden = !text;
}

// the computer may take a while: its side of the table says so, and for how long, once an
// answer has waited 300 ms
let busySince = null;

function thinkingMark() {
  busySince = busy ? busySince || Date.now() : null;
  const waited = busySince === null ? 0 : Date.now() - busySince;
  document.body.classList.toggle("thinking", waited >= 300);
  for (const mark of document.querySelectorAll(".thinking-mark")) {
    mark.textContent = `thinking… ${Math.floor(waited / 1000)} s`;
  }
}

function autoOn() {
  return document.getElementById("auto-answer").checked;
}

function answer(index) {
  return act("POST", "/api/answer", { index, at: state.answers, auto: autoOn() });
}

// a decision with one option, answered by itself while the setting is on (the server answers
// those that follow an answer; `act` answers the first of a new game, a load or a take-back)
function loneOptionWaits() {
  const s = state;
  return Boolean(s && autoOn() && s.decision && s.decision.options.length === 1 &&
                 autoAnswered !== s.answers);
}

// the setting turned on while a lone option waits
function answerLoneOption() {
  if (!busy && loneOptionWaits()) {
    answer(0);
  }
}

// -- the cards' images: fetched once per card id, through the page's token ------------------

const images = new Map();

function cardInfo(id) {
  if (!images.has(id)) {
    images.set(id, call("GET", "/api/card/" + encodeURIComponent(id)).then(data => {
      data.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(data.svg);
      return data;
    }));
  }
  return images.get(id);
}

function cardImage(id, cls) {
  const img = el("img", { className: cls || "art", alt: "" });
  cardInfo(id).then(data => { img.src = data.src; }, () => img.remove());
  return img;
}

// -- the players --------------------------------------------------------------------------

function stat(label, value) {
  return [el("dt", { textContent: label }), el("dd", { textContent: String(value) })];
}

function playerPanel(p, active) {
  const hand = p.hand === null ? `${p.hand_size} cards (hidden)` : `${p.hand_size} cards`;
  const dl = el("dl", {});
  dl.append(...stat("Ép", p.hp), ...stat("VP", p.vp), ...stat("components", p.components),
            ...stat("hand", hand), ...stat("deck", p.deck_size),
            ...stat("graveyard", p.graveyard.length), ...stat("void", p.void_cards.length));
  const panel = el("div", { className: "player" + (p.you ? " you" : "") +
                            (active ? " active" : "") },
                   el("h3", { textContent: p.name }), dl);
  if (!p.you) {
    panel.append(el("div", { className: "thinking-mark", textContent: "thinking…" }));
  }
  panel.dataset.player = String(p.index);
  return panel;
}

// -- what the options stand for on the table ----------------------------------------------

// the options grouped by what is clicked for them: a permanent (uid), a hand card (card id),
// a player (index); the rest (pass, hold, no block...) are buttons on the table
function optionMap(s) {
  const map = { uid: new Map(), hand: new Map(), player: new Map(), loose: [] };
  if (!s.decision) {
    return map;
  }
  const uids = new Set(s.permanents.map(p => p.uid));
  const hand = new Set((s.players[s.you].hand || []).map(c => c.id));
  const add = (where, key, option) => {
    if (!where.has(key)) {
      where.set(key, []);
    }
    where.get(key).push(option);
  };
  for (const option of s.decision.options) {
    const data = option.data || {};
    if (data.uid !== undefined && uids.has(data.uid)) {
      add(map.uid, data.uid, option);
    } else if (data.word === "play" && hand.has(data.card)) {
      add(map.hand, data.card, option);
    } else if (data.player !== undefined) {
      add(map.player, data.player, option);
    } else {
      map.loose.push(option);
    }
  }
  return map;
}

// a click on something with options: one answers it, more open a menu of them beside it
function choose(options, anchor) {
  if (options.length === 1) {
    answer(options[0].index);
    return;
  }
  const menu = document.getElementById("menu");
  menu.replaceChildren(...options.map(option => {
    const button = el("button", { type: "button", className: "menu-option",
                                  textContent: option.label });
    button.dataset.index = String(option.index);
    button.addEventListener("click", () => answer(option.index));
    return button;
  }));
  const box = anchor.getBoundingClientRect();
  menu.style.left = `${window.scrollX + box.left}px`;
  menu.style.top = `${window.scrollY + box.bottom + 4}px`;
  menu.hidden = false;
}

function hideMenu() {
  document.getElementById("menu").hidden = true;
}

function controls(node, options, s) {
  if (!options || !options.length) {
    return;
  }
  node.classList.add("can", (s.decision.kind === "target" ? "target" : "act"));
  node.title = options.map(o => o.label).join("\n");
  node.addEventListener("click", event => {
    event.stopPropagation();
    choose(options, node);
  });
}

// -- the cards ----------------------------------------------------------------------------

function cardBox(card, extra) {
  const box = el("div", { className: "card " + (extra.cls || "") });
  box.dataset.card = card.id;
  box.dataset.kind = card.kind;
  box.append(cardImage(card.id));
  if (extra.uid !== undefined) {
    box.dataset.uid = String(extra.uid);
    box.append(el("span", { className: "uid", textContent: "#" + extra.uid }));
  }
  box.append(el("div", { className: "name", textContent: card.name }));
  let stats = `${card.vp} VP`;
  if (card.components) {
    stats += `, ${card.components} comp.`;
  }
  if (extra.stats) {
    stats = extra.stats;
  } else if (card.kind === "creature") {
    stats += ` · ${card.damage}/${card.hp}`;
  }
  box.append(el("div", { className: "stats", textContent: stats }));
  box.addEventListener("mouseenter", () => zoom(card, box, false));
  box.addEventListener("mouseleave", () => unzoom(false));
  box.addEventListener("contextmenu", event => {
    event.preventDefault();
    zoom(card, box, true);
  });
  return box;
}

function permanentBox(perm, s, combat) {
  let stats = perm.card.kind === "creature" ? `${perm.damage}/${perm.hp}` +
    (perm.hp !== perm.max_hp ? ` (of ${perm.max_hp})` : "") : `Sp ${perm.hp}/${perm.max_hp}`;
  if (perm.defence_bonus) {
    stats += ` +${perm.defence_bonus} def.`;
  }
  for (const [name, count] of Object.entries(perm.counters)) {
    stats += ` · ${count} ${name}`;
  }
  if (!perm.active) {
    stats += " · passive";
  }
  const cls = (perm.controller === s.you ? "mine" : "theirs") + (perm.active ? "" : " passive");
  const box = cardBox(perm.card, { cls, uid: perm.uid, stats });
  const mark = combat.marks.get(perm.uid);
  if (mark) {
    box.classList.add(...mark.cls.split(" "));
    box.append(el("span", { className: "mark", textContent: mark.text }));
  }
  return box;
}

// this turn's combat: who attacks, who blocks whom, whose block is asked now
function combatMarks(s) {
  const marks = new Map();
  const pairs = [];
  const c = s.attack;
  const name = uid => {
    const perm = s.permanents.find(p => p.uid === uid);
    return perm ? perm.card.name : `#${uid}`;
  };
  if (c) {
    c.attackers.forEach((uid, i) => {
      marks.set(uid, { cls: "attacking", text: "⚔ attacks" });
      const blocker = c.blockers[i];
      if (blocker !== undefined && blocker !== null) {
        marks.set(blocker, { cls: "blocking", text: `blocks ${name(uid)}` });
        pairs.push([blocker, uid]);
      }
    });
  }
  const d = s.decision;
  if (d && d.kind === "block" && d.subject && d.subject.uid !== undefined) {
    marks.set(d.subject.uid, { cls: "attacking asked", text: "⚔ attacks: block it?" });
  }
  return { marks, pairs };
}

function zoneRow(title, cards, zone) {
  const row = el("div", { className: "zone " + zone });
  row.dataset.zone = zone;
  row.append(el("div", { className: "zone-label", textContent: title }));
  const holder = el("div", { className: "zone-cards" });
  holder.append(...cards);
  row.append(holder);
  return row;
}

function pileButton(p, which, title) {
  const cards = p[which + "_cards"];
  const button = el("button", { type: "button", className: "pile " + which,
                                textContent: `${title} ${cards.length}` });
  button.dataset.pile = which;
  button.dataset.player = String(p.index);
  button.addEventListener("click", () => openPile(`${p.name}: ${title.toLowerCase()}`, cards));
  return button;
}

function openPile(title, cards) {
  document.getElementById("pile-title").textContent = title;
  document.getElementById("pile-cards").replaceChildren(
    ...(cards.length ? cards.map(card => cardBox(card, { cls: "in-pile" }))
      : [el("p", { className: "muted", textContent: "empty" })]));
  document.getElementById("pile").showModal();
}

function side(s, index, map, combat) {
  const p = s.players[index];
  const mine = index === s.you;
  const node = el("div", { className: "side " + (mine ? "mine" : "theirs") });
  node.dataset.controller = String(index);
  const head = el("div", { className: "side-head" },
                  el("span", { className: "side-name", textContent: p.name }),
                  el("span", { className: "side-stats",
                               textContent: `Ép ${p.hp} · VP ${p.vp} · ${p.components} comp. · ` +
                                 `deck ${p.deck_size} · hand ${p.hand_size}` }),
                  pileButton(p, "graveyard", "Graveyard"), pileButton(p, "void", "Void"));
  controls(head, map.player.get(index), s);
  node.append(head);
  const perms = s.permanents.filter(perm => perm.controller === index);
  const rows = ZONES.map(([zone, title]) => {
    const cards = perms.filter(perm => perm.zone === zone).map(perm => {
      const box = permanentBox(perm, s, combat);
      controls(box, map.uid.get(perm.uid), s);
      return box;
    });
    return zoneRow(title, cards, zone);
  });
  const other = perms.filter(perm => !ZONES.some(([zone]) => zone === perm.zone));
  if (other.length) {
    rows.push(zoneRow("Elsewhere", other.map(perm => permanentBox(perm, s, combat)), "other"));
  }
  // the guard posts face each other across the middle of the table; reserve and buildings
  // share the row behind
  const [guard, ...behind] = rows;
  const back = el("div", { className: "back-row" }, ...behind);
  node.append(...(mine ? [guard, back] : [back, guard]));
  return node;
}

function middle(s, map) {
  const node = el("div", { id: "middle" });
  const d = s.decision;
  if (d) {
    const rule = d.rule ? ` (${d.rule})` : "";
    node.append(el("span", { id: "table-prompt", textContent: `${d.prompt || d.kind}${rule}` }));
  }
  const actions = el("span", { id: "actions" });
  for (const option of map.loose) {
    const button = el("button", { type: "button", className: "action",
                                  textContent: option.label });
    button.dataset.index = String(option.index);
    button.addEventListener("click", () => answer(option.index));
    actions.append(button);
  }
  node.append(actions);
  return node;
}

function showBoard(s) {
  const map = optionMap(s);
  const combat = combatMarks(s);
  const board = document.getElementById("board");
  board.replaceChildren(side(s, 1 - s.you, map, combat), middle(s, map),
                        side(s, s.you, map, combat), el("div", { id: "lines" }));
  const me = s.players[s.you];
  document.getElementById("hand").replaceChildren(...me.hand.map(card => {
    const box = cardBox(card, { cls: "mine in-hand" });
    controls(box, map.hand.get(card.id), s);
    return box;
  }));
  for (const panel of document.querySelectorAll("#players .player")) {
    controls(panel, map.player.get(Number(panel.dataset.player)), s);
  }
  requestAnimationFrame(() => drawLines(combat.pairs));
}

// a line from each blocker to the attacker it blocks
function drawLines(pairs) {
  const holder = document.getElementById("lines");
  const board = document.getElementById("board");
  if (!holder || !pairs.length) {
    return;
  }
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const origin = board.getBoundingClientRect();
  svg.setAttribute("width", String(board.scrollWidth));
  svg.setAttribute("height", String(board.scrollHeight));
  const centre = uid => {
    const card = board.querySelector(`.card[data-uid='${uid}']`);
    if (!card) {
      return null;
    }
    const box = card.getBoundingClientRect();
    return [box.left - origin.left + box.width / 2, box.top - origin.top + box.height / 2];
  };
  for (const [from, to] of pairs) {
    const a = centre(from);
    const b = centre(to);
    if (a && b) {
      const line = document.createElementNS(ns, "line");
      line.setAttribute("x1", String(a[0]));
      line.setAttribute("y1", String(a[1]));
      line.setAttribute("x2", String(b[0]));
      line.setAttribute("y2", String(b[1]));
      svg.append(line);
    }
  }
  holder.replaceChildren(svg);
}

// -- the zoom: the card's image, its Hungarian text, the engine's reading -------------------

let pinned = false;

function zoom(card, anchor, pin) {
  if (pinned && !pin) {
    return;
  }
  pinned = pin;
  const box = document.getElementById("zoom");
  // the reading: the engine's lines but the printed text, shown above them
  const reading = card.abilities.filter(line => line !== card.text);
  box.replaceChildren(
    cardImage(card.id, "zoom-image"),
    el("h3", { textContent: `${card.name} ` }, el("span", { className: "muted",
                                                            textContent: card.id })),
    el("p", { className: "hu", textContent: card.text || "" }),
    el("h4", { textContent: "The engine reads it as" }),
    el("ul", {}, ...reading.map(line => el("li", { textContent: line }))));
  if (pin) {
    box.append(el("p", { className: "muted", textContent: "Esc or a click closes this" }));
  }
  box.dataset.card = card.id;
  const rect = anchor.getBoundingClientRect();
  const left = rect.right + 12 + 340 < window.innerWidth ? rect.right + 12 : rect.left - 352;
  box.style.left = `${Math.max(8, window.scrollX + left)}px`;
  box.style.top = `${window.scrollY + Math.max(8, Math.min(rect.top,
                                                            window.innerHeight - 620))}px`;
  box.hidden = false;
}

function unzoom(force) {
  if (pinned && !force) {
    return;
  }
  pinned = false;
  document.getElementById("zoom").hidden = true;
}

// -- the decision, the summary, the log ----------------------------------------------------

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
  d.options.forEach((option, i) => {
    const key = i < 9 ? `${i + 1}. ` : "";
    const button = el("button", { type: "button", textContent: key + option.label });
    button.dataset.index = String(option.index);
    button.addEventListener("click", () => answer(option.index));
    options.append(button);
  });
}

function showSummary(s) {
  const box = document.getElementById("summary");
  const sum = s.summary;
  box.hidden = !sum;
  if (!sum) {
    box.replaceChildren();
    return;
  }
  const row = (head, cells) => el("tr", {}, el("th", { textContent: head }),
                                  ...cells.map(text => el("td", { textContent: String(text) })));
  box.replaceChildren(
    el("p", { textContent: `${sum.ended} after ${sum.turns} turns.` }),
    el("table", {},
       row("", sum.players.map(p => p.name)),
       row("cards played", sum.players.map(p => p.played)),
       row("damage to the other player", sum.players.map(p => p.damage_to_player)),
       row("damage to permanents", sum.players.map(p => p.damage_to_permanents))));
}

function showLog(s) {
  const log = document.getElementById("log");
  const trace = document.getElementById("trace").checked;
  const lines = trace ? s.log : s.events.map(e => ({
    kind: e.kind === "turn_started" ? "turn" : e.kind, text: e.text }));
  log.classList.toggle("trace", trace);
  log.replaceChildren(...lines.map(line => el("li", { className: line.kind,
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
  hideMenu();
  unzoom(true);
  const players = document.getElementById("players");
  players.replaceChildren(...s.players.map(p => playerPanel(p, p.index === s.active)));
  document.getElementById("meta").textContent =
    `${s.decks.join(" vs ")}${s.seed === null ? "" : `, seed ${s.seed}`}, ` +
    `against ${s.opponent}, turn ${s.turn}`;
  document.getElementById("undo").disabled = !s.can_undo;
  showBoard(s);
  showDecision(s);
  showSummary(s);
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

function keys(event) {
  // keys typed into a field are the field's (a checkbox or a button keeps no text)
  if (event.target.closest("textarea, select, input:not([type=checkbox]):not([type=file])") ||
      event.ctrlKey || event.metaKey || event.altKey) {
    return;
  }
  if (event.key === "Escape") {
    hideMenu();
    unzoom(true);
  } else if (event.key === "a") {
    const auto = document.getElementById("auto-answer");
    auto.checked = !auto.checked;
    auto.dispatchEvent(new Event("change"));
  } else if (/^[1-9]$/.test(event.key) && state && state.decision) {
    const option = state.decision.options[Number(event.key) - 1];
    if (option) {
      answer(option.index);
    }
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  const auto = document.getElementById("auto-answer");
  auto.checked = localStorage.getItem(AUTO_KEY) !== "off";
  auto.addEventListener("change", () => {
    localStorage.setItem(AUTO_KEY, auto.checked ? "on" : "off");
    autoAnswered = null;
    answerLoneOption();
  });
  document.getElementById("trace").addEventListener("change", () => state && showLog(state));
  document.getElementById("new-game").addEventListener("click", () => act("POST", "/api/new"));
  document.getElementById("undo").addEventListener("click",
    () => act("POST", "/api/undo", { auto: autoOn() }));
  document.getElementById("restart").addEventListener("click", () => {
    images.clear(); // the cards as they are on disk now
    act("POST", "/api/restart");
  });
  document.getElementById("save").addEventListener("click", save);
  document.getElementById("replay").addEventListener("change", async event => {
    const file = event.target.files[0];
    if (file) {
      await act("POST", "/api/load", await file.text());
      event.target.value = "";
    }
  });
  document.addEventListener("keydown", keys);
  document.addEventListener("click", event => {
    if (!event.target.closest("#menu")) {
      hideMenu();
    }
    if (pinned && !event.target.closest("#zoom")) {
      unzoom(true);
    }
  });
  setInterval(thinkingMark, 100);
  await act("GET", "/api/state");
  setInterval(watch, 1000);
});
