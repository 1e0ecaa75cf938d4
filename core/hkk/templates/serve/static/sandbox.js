// hkk serve's sandbox: set up a position (any card of the installed sets, in a hand or in play
// for either player, Ép and VP) and play on from it.  The server checks the position and builds
// it (hkk.build_position); this file only edits the position it sends.  It uses the table's
// page through window.hkk (its token and requests), nothing else of play.js.  Names are set as
// text, never as markup.
"use strict";

(function () {
  const ZONE_NAMES = { hand: "hand", graveyard: "graveyard", reserve: "reserve",
                       guard_post: "guard post", buildings: "buildings" };
  let catalogue = null;  // {cards, zones, in_play, names}
  let byId = {};
  // the position being set up: what the server gets
  const position = { active: 0, players: [emptyPlayer(), emptyPlayer()] };

  function emptyPlayer() {
    return { hp: 20, vp: 0, components: 0, hand: [], graveyard: [], reserve: [],
             guard_post: [], buildings: [] };
  }

  const el = window.hkk.el;  // the page's: an element with its properties and children

  function say(text) {
    const box = document.getElementById("sandbox-error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function numberInput(label, value, min, onChange, name) {
    const input = el("input", { type: "number", value: String(value), min: String(min),
                                step: "1", name });
    input.addEventListener("change", () => onChange(Number(input.value)));
    return el("label", { className: "sandbox-number" }, label + " ", input);
  }

  function cardEntry(seat, zone, index) {
    const entry = position.players[seat][zone][index];
    const id = typeof entry === "string" ? entry : entry.card;
    const card = byId[id];
    const item = el("li", {}, el("span", { textContent: card ? card.name : id, title: id }));
    item.dataset.card = id;
    if (zone in catalogue.in_play && card && card.kind === "creature") {
      item.append(" ", numberInput("Ép", entry.hp === undefined ? card.hp : entry.hp, 1,
                                   value => { entry.hp = value; }, "card-hp"));
    }
    const remove = el("button", { type: "button", textContent: "×", title: "take it out",
                                  className: "sandbox-remove" });
    remove.addEventListener("click", () => {
      position.players[seat][zone].splice(index, 1);
      render();
    });
    item.append(" ", remove);
    return item;
  }

  function playerBox(seat) {
    const p = position.players[seat];
    const box = el("div", { className: "sandbox-player" });
    box.dataset.seat = String(seat);
    box.append(el("h3", { textContent: catalogue.names[seat] }));
    box.append(numberInput("Ép", p.hp, 1, v => { p.hp = v; }, "hp"),
               numberInput("VP", p.vp, 0, v => { p.vp = v; }, "vp"),
               numberInput("components", p.components, 0, v => { p.components = v; },
                           "components"));
    for (const zone of catalogue.zones) {
      const list = el("ul", { className: "sandbox-zone" });
      list.dataset.zone = zone;
      p[zone].forEach((_, i) => list.append(cardEntry(seat, zone, i)));
      box.append(el("h4", { textContent: `${ZONE_NAMES[zone]} (${p[zone].length})` }), list);
    }
    return box;
  }

  function render() {
    const players = document.getElementById("sandbox-players");
    players.replaceChildren(playerBox(0), playerBox(1));
  }

  function add() {
    const id = document.getElementById("sandbox-card").value;
    const seat = Number(document.getElementById("sandbox-seat").value);
    const zone = document.getElementById("sandbox-zone").value;
    if (!id) {
      return;
    }
    position.players[seat][zone].push(zone in catalogue.in_play ? { card: id } : id);
    say("");
    render();
  }

  function fillCards(filter) {
    const select = document.getElementById("sandbox-card");
    const groups = {};
    const wanted = (filter || "").toLowerCase();
    for (const card of catalogue.cards) {
      if (wanted && !`${card.name} ${card.id}`.toLowerCase().includes(wanted)) {
        continue;
      }
      groups[card.set] = groups[card.set] || el("optgroup", { label: card.set });
      groups[card.set].append(el("option", { value: card.id,
                                             textContent: `${card.name} (${card.kind})` }));
    }
    select.replaceChildren(...Object.values(groups));
  }

  async function play() {
    say("");
    try {
      await window.hkk.call("POST", "/api/sandbox/play", position);
    } catch (error) {
      say(error.message);  // the field it names; the game is as it was
      return;
    }
    document.getElementById("sandbox").hidden = true;
    await window.hkk.act("GET", "/api/state");
  }

  function panel() {
    const seat = el("select", { id: "sandbox-seat" });
    const zone = el("select", { id: "sandbox-zone" });
    catalogue.names.forEach((name, i) => seat.append(el("option", { value: String(i),
                                                                    textContent: name })));
    for (const z of catalogue.zones) {
      zone.append(el("option", { value: z, textContent: ZONE_NAMES[z] }));
    }
    const filter = el("input", { id: "sandbox-filter", type: "search",
                                 placeholder: "find a card" });
    filter.addEventListener("input", () => fillCards(filter.value));
    const addButton = el("button", { id: "sandbox-add", type: "button", textContent: "Add" });
    addButton.addEventListener("click", add);
    const first = el("select", { id: "sandbox-active" });
    catalogue.names.forEach((name, i) => first.append(el("option", { value: String(i),
                                                                     textContent: name })));
    first.addEventListener("change", () => { position.active = Number(first.value); });
    const playButton = el("button", { id: "sandbox-play", type: "button",
                                      textContent: "Play from here" });
    playButton.addEventListener("click", play);
    const close = el("button", { type: "button", textContent: "Close" });
    close.addEventListener("click", () => { document.getElementById("sandbox").hidden = true; });
    const box = el("section", { id: "sandbox", hidden: true },
      el("h2", { textContent: "Sandbox" }),
      el("p", { id: "sandbox-note", className: "sandbox-warning",
                textContent: "sandbox: both hands shown - you set up the computer's hand " +
                             "too. Each deck is the table's deck, shuffled. The game you play " +
                             "from here shows only your own hand, as ever." }),
      el("div", { className: "sandbox-add" }, filter, el("select", { id: "sandbox-card" }),
         "to", seat, zone, addButton),
      el("div", { id: "sandbox-players" }),
      el("p", { id: "sandbox-error", hidden: true }),
      el("div", { className: "sandbox-actions" }, el("label", {}, "first to move ", first),
         playButton, close));
    document.querySelector("main").before(box);
    fillCards("");
    render();
  }

  async function open() {
    try {
      if (catalogue === null) {
        catalogue = await window.hkk.call("GET", "/api/sandbox/cards");
        byId = Object.fromEntries(catalogue.cards.map(c => [c.id, c]));
        panel();
      }
      document.getElementById("sandbox").hidden = false;
    } catch (error) {
      document.getElementById("message").textContent = error.message;
      document.getElementById("message").hidden = false;
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const style = el("link", { rel: "stylesheet", href: "/static/sandbox.css" });
    document.head.append(style);
    document.getElementById("sandbox-open").addEventListener("click", open);
  });
})();
