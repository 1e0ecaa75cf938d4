// hkk serve --table: what the page of a seat (or a spectator) adds to play.js's table - whose
// seat this is, whether the friend is there, take back / new game / load asked of the other
// and answered, the saves kept on the server, the download once the game is over.  It polls
// the server for the friend's moves and lets play.js draw the position.  Texts are set as text.
"use strict";

(() => {
  const api = window.hkk;
  let shown = null; // the version of the table play.js last drew
  let last = null;  // the last state seen

  function el(tag, props, ...children) {
    const node = Object.assign(document.createElement(tag), props || {});
    node.append(...children);
    return node;
  }

  const seat = el("strong", { id: "friend-seat" });
  const status = el("span", { id: "friend-status" });
  const connection = el("span", { id: "friend-connection", hidden: true });
  const asked = el("span", { id: "friend-asked" });
  const accept = el("button", { id: "friend-accept", type: "button", textContent: "Accept" });
  const decline = el("button", { id: "friend-decline", type: "button", textContent: "Decline" });
  const withdraw = el("button", { id: "friend-withdraw", type: "button",
                                  textContent: "Withdraw" });
  const ask = el("span", { id: "friend-ask", hidden: true }, asked, accept, decline, withdraw);
  const keep = el("button", { id: "friend-keep", type: "button", textContent: "Save on the server",
                              title: "the server keeps it: a save holds both hands" });
  const saves = el("select", { id: "friend-saves" });
  const load = el("button", { id: "friend-load", type: "button", textContent: "Ask to load" });
  const kept = el("span", { id: "friend-kept" }, keep, saves, load);
  const bar = el("div", { id: "friend" }, seat, status, ask, kept, connection);

  function hide(id, hidden) {
    const node = document.getElementById(id);
    if (node) {
      node.hidden = hidden;
    }
  }

  function update(s) {
    const t = s.table;
    if (!t) {
      return;
    }
    last = s;
    const names = t.names;
    const other = t.spectator ? null : 1 - t.seat;
    seat.textContent = t.spectator ? `Watching ${names[0]} vs ${names[1]} (no hand is shown)`
      : `You are ${names[t.seat]}`;
    let waiting = "";
    if (!t.spectator && !t.joined[other]) {
      waiting = `Waiting for your friend (${names[other]}) to open their link`;
    } else if (!t.spectator && !t.present[other]) {
      waiting = `Waiting for your friend: ${names[other]}'s page is not connected`;
    } else if (t.deciding !== null && t.deciding !== t.seat) {
      waiting = `${names[t.deciding]} is deciding…`;
    } else if (t.deciding === t.seat) {
      waiting = "Your move";
    }
    status.textContent = waiting;
    ask.hidden = !t.asked;
    if (t.asked) {
      const mine = t.asked.by === t.seat;
      asked.textContent = mine ? t.asked.yours : t.asked.text;
      accept.hidden = decline.hidden = mine || t.spectator;
      withdraw.hidden = !mine;
    }
    kept.hidden = t.spectator;
    const options = t.saves.map(name => el("option", { value: name, textContent: name }));
    if (saves.options.length !== options.length) {
      saves.replaceChildren(...options);
    }
    saves.hidden = load.hidden = t.saves.length === 0;
    load.disabled = Boolean(t.asked);
    // a spectator only watches; a seat loads the server's saves, downloads only when over
    for (const id of ["new-game", "undo", "save"]) {
      hide(id, t.spectator);
    }
    // a friend's table has no sandbox nor deck builder (a position set up by one seat), and
    // no save uploaded from a browser
    for (const id of ["replay-label", "save-note", "sandbox-open", "decks-open"]) {
      hide(id, true);
    }
    const download = document.getElementById("save");
    if (download) {
      download.disabled = !t.can_download;
      download.title = t.can_download ? "download the finished game's save"
        : "a save can be downloaded once the game is over";
    }
    const hand = document.getElementById("hand");
    if (hand && t.spectator) {
      hand.hidden = true;
      if (hand.previousElementSibling) {
        hand.previousElementSibling.hidden = true;
      }
    }
    document.body.classList.toggle("spectator", t.spectator);
    document.body.classList.toggle("friend-decides", t.deciding !== null && t.deciding !== t.seat);
  }

  async function send(path, body) {
    await api.act("POST", path, body);
  }

  // the friend's moves: the table's version, read each second; play.js draws a newer one
  // (an older one is a read the page's own answer overtook)
  async function poll() {
    try {
      const s = await api.call("GET", "/api/state");
      connection.hidden = true;
      update(s);
      if (shown === null || s.table.version > shown) {
        api.refresh(s);
      }
    } catch (error) {
      connection.textContent = error instanceof TypeError
        ? "The connection to the table is lost: trying again…" : error.message;
      connection.hidden = false;
    }
  }

  api.onState(s => {
    if (s.table) {
      shown = s.table.version;
      document.body.dataset.version = String(shown); // which version the page draws
      update(s);
    }
  });
  accept.addEventListener("click", () => send("/api/reply", { accept: true }));
  decline.addEventListener("click", () => send("/api/reply", { accept: false }));
  withdraw.addEventListener("click", () => send("/api/reply", { accept: false }));
  keep.addEventListener("click", () => send("/api/keep"));
  load.addEventListener("click", () => send("/api/load", { name: saves.value }));
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelector("header").after(bar);
    if (last) {
      update(last);
    }
    setInterval(poll, 1000);
  });
})();
