"""``hkk serve --table``: two people play one game, each from his own browser; spectators watch.

The leak test plays seeded two-seat games through the app's HTTP API in this process (an ASGI
call per request, no socket): random answers, answers out of turn, take back asked and accepted
or declined, saves kept on the server and loaded, downloads tried, a spectator polling.  Every
raw response body is checked against the game as the server holds it at that moment: nothing
sent to a seat names a card the other seat holds or either deck holds (its id or its name),
unless that seat may know it (its fair view shows it), and nothing sent to a spectator names a
card of either hand or deck that is not public.  The rest prove each refusal and each promise
(rejoin, second tab, take back) on the table, and two Chromium contexts play a whole game
against each other through ``hkk serve --table``.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_pages import browser  # noqa: F401 - the Chromium fixture of the page tests

from hkk._rulings import Rulings
from hkk._serve_guard import TOKEN_HEADER
from hkk._serve_table import SPECTATOR, FriendTable, PublicView, make_table_app
from hkk._serve_watch import CardSets
from hkk.cli import main

pytestmark = pytest.mark.xdist_group("chromium")

HOST = "127.0.0.1:8765"

#: One event loop for every request (a new one each time starts a new thread pool, slowly).
_LOOP = asyncio.new_event_loop()


@pytest.fixture(scope="module")
def sets() -> CardSets:
    return CardSets()


def call(app: Any, method: str, path: str, body: Any = None, *, tab: str | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One request to the ASGI ``app`` in this process: its status and raw body."""
    sent = {"host": HOST, **({TOKEN_HEADER: tab} if tab is not None else {}), **(headers or {})}
    data = b""
    if body is not None:
        data = json.dumps(body).encode()
        sent.setdefault("content-type", "application/json")
    scope = {"type": "http", "http_version": "1.1", "method": method, "path": path,
             "raw_path": path.encode(), "query_string": b"", "scheme": "http", "root_path": "",
             "headers": [(k.lower().encode(), v.encode()) for k, v in sent.items()],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8765)}
    status: list[int] = []
    chunks: list[bytes] = []
    asked = [False]

    async def receive() -> dict[str, Any]:
        if asked[0]:
            return {"type": "http.disconnect"}
        asked[0] = True
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
    _LOOP.run_until_complete(app(scope, receive, send))
    return status[0], b"".join(chunks)


_TAB = re.compile(rb'<meta name="hkk-token" content="([^"]+)">')


def open_link(app: Any, link: str) -> str:
    """The token of a new tab opened at the table's ``link`` token."""
    status, page = call(app, "GET", f"/t/{link}")
    assert status == 200, page
    found = _TAB.search(page)
    assert found is not None
    return found.group(1).decode()


def table_of(sets: CardSets, tmp_path: Path, seed: int = 3, *, max_turns: int = 8,
             decks: tuple[str, str] = ("alap:tuz", "alap:viz")) -> FriendTable:
    return FriendTable(sets, list(decks), save_dir=tmp_path / "saves", seed=seed,
                       rulings=Rulings(max_turns=max_turns))


class Seated:
    """A table's app with both seats and a spectator at it: their tabs' tokens."""

    def __init__(self, table: FriendTable) -> None:
        self.table = table
        self.app = make_table_app(table)
        links = table.link_tokens()
        self.tabs = {0: open_link(self.app, links["seat1"]), 1: open_link(self.app, links["seat2"]),
                     SPECTATOR: open_link(self.app, links["watch"])}

    def get(self, role: int, path: str = "/api/state") -> tuple[int, Any]:
        status, body = call(self.app, "GET", path, tab=self.tabs[role])
        return status, json.loads(body)

    def post(self, role: int, path: str, body: Any = None) -> tuple[int, Any]:
        status, raw = call(self.app, "POST", path, {} if body is None else body,
                           tab=self.tabs[role])
        return status, json.loads(raw)

    def answer(self, index: int | None = None) -> dict[str, Any]:
        """The deciding seat answers (its last option, or ``index``)."""
        seat = self.table.game.decision.player
        _, state = self.get(seat)
        options = state["decision"]["options"]
        status, after = self.post(seat, "/api/answer", {
            "index": len(options) - 1 if index is None else index, "at": state["answers"]})
        assert status == 200, after
        return after


# -- what may not be sent ---------------------------------------------------------------------

_CARD_ID = re.compile(r"[a-z][a-z0-9_]*:[a-z0-9][a-z0-9_-]*")


def seen_by(game: Any, seat: int) -> set[str]:
    """The card ids ``seat``'s fair view shows where they are: his hand, the boards, the
    graveyards and voids."""
    view = game.view(seat)
    ids = set(view.hand) | {p.card.id for p in view.permanents.values()}
    for player in view.players:
        ids |= set(player.graveyard) | set(player.void)
    return ids


def logged_for(game: Any, seat: int) -> set[str]:
    """The card ids the log of ``seat``'s fair view names (a card played, then returned to a
    hand or a deck, is known)."""
    return {c for e in game.view(seat).log for c in _CARD_ID.findall(json.dumps(e.as_dict()))}


def leaked(body: bytes, game: Any, role: int) -> list[str]:
    """The cards in a hand or a deck that ``role`` may not know (a spectator: what not both
    seats may know) whose id, or whose name (where no card it may know has that name), is in
    the raw ``body``."""
    text = body.decode("utf-8")
    cards = game.cards
    seats = (0, 1) if role == SPECTATOR else (role,)
    held = {c for p in game.players for c in (*p.hand, *p.deck)}
    known = set.intersection(*(seen_by(game, s) for s in seats))

    def found(hidden: set[str], known: set[str]) -> list[str]:
        names = {cards[c].name for c in known}
        return [c for c in hidden if c in text] + \
            [f"{c} ({cards[c].name})" for c in hidden
             if cards[c].name not in names and cards[c].name in text]
    if not found(held - known, known):
        return []
    # only then the log (costly): what it named is known too
    known = set.intersection(*(seen_by(game, s) | logged_for(game, s) for s in seats))
    return found(held - known, known)


class Watched(Seated):
    """Every body the app sends is checked for secrets, as the game stands after the request."""

    bodies = 0

    def _check(self, role: int, raw: bytes) -> None:
        Watched.bodies += 1
        found = leaked(raw, self.table.game, role)
        assert not found, f"sent to {role}: {found}"

    def get(self, role: int, path: str = "/api/state") -> tuple[int, Any]:
        status, raw = call(self.app, "GET", path, tab=self.tabs[role])
        if not (path == "/api/save" and status == 200):  # a finished game's save: all public
            self._check(role, raw)
        return status, json.loads(raw)

    def post(self, role: int, path: str, body: Any = None) -> tuple[int, Any]:
        status, raw = call(self.app, "POST", path, {} if body is None else body,
                           tab=self.tabs[role])
        self._check(role, raw)
        return status, json.loads(raw)


def play_a_table(sets: CardSets, tmp_path: Path, seed: int) -> dict[str, int]:
    """One seeded game of two seats answering at random, with all a table offers: what
    happened, counted."""
    rng = random.Random(seed)
    decks = ("alap:tuz", "alap:viz") if seed % 2 else ("alap:viz", "alap:tuz")
    seated = Watched(table_of(sets, tmp_path / str(seed), seed, max_turns=4, decks=decks))
    counts = dict.fromkeys(("answers", "out_of_turn", "undone", "declined", "loaded",
                            "refused_downloads"), 0)
    for _ in range(400):
        table = seated.table
        decision = table.game.decision
        if decision is None:
            break
        seat = decision.player
        roll = rng.random()
        if rng.random() < 0.3:
            seated.get(SPECTATOR)
        if roll < 0.08 and table.history:
            asker = table.history[-1][1]
            status, _ = seated.post(asker, "/api/undo")
            assert status == 200
            accept = rng.random() < 0.5
            before = table.version
            seated.post(1 - asker, "/api/reply", {"accept": accept})
            assert table.version > before
            counts["undone" if accept else "declined"] += 1
        elif roll < 0.12:
            status, _ = seated.post(seat, "/api/keep")
            assert status == 200
            if rng.random() < 0.6:
                seated.post(seat, "/api/load", {"name": rng.choice(list(table.saves))})
                seated.post(1 - seat, "/api/reply", {"accept": True})
                counts["loaded"] += 1
        elif roll < 0.15:
            status, body = seated.post(1 - seat, "/api/answer", {"index": 0})
            assert status == 409 and "not yours" in body["error"]
            counts["out_of_turn"] += 1
        elif roll < 0.17:
            status, body = seated.get(rng.choice((0, 1)), "/api/save")
            assert status == 409 and "once the game is over" in body["error"]
            counts["refused_downloads"] += 1
        else:  # what the seat's page shows it: the options of its decision, the answers so far
            status, _ = seated.post(seat, "/api/answer", {
                "index": rng.randrange(len(decision.options)), "at": table.answers(table.game)})
            assert status == 200
            counts["answers"] += 1
        if rng.random() < 0.3:
            seated.get(1 - seat)
    assert seated.table.game.decision is None, "the game did not end within 400 requests"
    status, saved = seated.get(0, "/api/save")
    assert status == 200 and saved["format"].startswith("hkk-save")
    return counts


def test_no_message_to_a_seat_or_a_spectator_names_a_card_hidden_from_it(sets, tmp_path):
    """Over 50 seeded two-seat games: answers, take back, saves and loads, a spectator."""
    totals: dict[str, int] = {}
    for seed in range(50):
        for key, value in play_a_table(sets, tmp_path, seed).items():
            totals[key] = totals.get(key, 0) + value
    # everything the table offers happened, many times
    assert all(value >= 10 for value in totals.values()), totals
    assert Watched.bodies > 1500


def test_the_leak_check_finds_the_other_hand_in_a_body(sets, tmp_path):
    """The check itself: the other seat's state (its hand) sent to a seat is a leak."""
    seated = Seated(table_of(sets, tmp_path))
    for _ in range(6):
        seated.answer()
    game = seated.table.game
    status, raw = call(seated.app, "GET", "/api/state", tab=seated.tabs[1])
    assert status == 200
    assert leaked(raw, game, 0) and leaked(raw, game, SPECTATOR) and not leaked(raw, game, 1)


# -- seats, tabs and links ----------------------------------------------------------------------

def test_each_seat_gets_its_own_hand_and_decides_only_its_own_decisions(sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path))
    game = seated.table.game
    seat = game.decision.player
    _, mine = seated.get(seat)
    _, theirs = seated.get(1 - seat)
    _, watching = seated.get(SPECTATOR)
    assert [c["id"] for c in mine["players"][seat]["hand"]] == list(game.players[seat].hand)
    assert mine["players"][1 - seat]["hand"] is None
    assert mine["decision"]["options"] and theirs["decision"]["options"] == []
    assert theirs["decision"]["prompt"] == f"{seated.table.names[seat]} is deciding…"
    assert all(p["hand"] == [] and p["hand_hidden"] for p in watching["players"])
    assert watching["table"]["spectator"] and watching["decision"]["options"] == []
    # out of turn: refused, saying whose decision it is, nothing changed
    status, body = seated.post(1 - seat, "/api/answer", {"index": 0})
    assert status == 409
    assert body["error"] == (f"it is {seated.table.names[seat]}'s decision, not yours: wait "
                             "for their move")
    assert seated.table.game is game
    status, body = seated.post(SPECTATOR, "/api/answer", {"index": 0})
    assert (status, body["error"]) == (403, "a spectator's link only watches: it cannot answer")


def test_a_spectators_view_has_neither_hand_nor_either_seats_draws(sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path))
    seated.answer()  # the start decision: then both hands are dealt
    public = PublicView(seated.table.game.view(0))
    with pytest.raises(AttributeError, match="a spectator's view has no hand"):
        _ = public.hand
    assert all(p.hand is None for p in public.players)
    drawn = [e for e in public.log if e.kind == "card_drawn"]  # both seats' draws
    assert {e.player for e in drawn} == {0, 1} and all(e.card == "?" for e in drawn)


def test_an_answer_sent_again_is_refused_and_changes_nothing(sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path))
    seat = seated.table.game.decision.player
    _, state = seated.get(seat)
    sent = {"index": 0, "at": state["answers"]}
    assert seated.post(seat, "/api/answer", sent)[0] == 200
    game = seated.table.game
    if game.decision.player == seat:
        status, body = seated.post(seat, "/api/answer", sent)
        assert status == 409 and "already answered" in body["error"]
        assert seated.table.game is game


def test_a_bad_or_foreign_token_and_a_foreign_origin_are_refused(sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path))
    other = Seated(table_of(sets, tmp_path, seed=4))  # another table's tab and link
    status, body = call(seated.app, "GET", "/api/state", tab=other.tabs[0])
    assert status == 403
    assert json.loads(body) == {"error": "the request does not carry a token of this table: "
                                         "open your link again"}
    assert call(seated.app, "GET", "/api/state")[0] == 403
    status, page = call(seated.app, "GET", f"/t/{other.table.link_tokens()['seat1']}")
    assert (status, page.decode()) == (403, "this link is not one of this table's: ask for the "
                                            "link hkk serve --table printed")
    status, page = call(seated.app, "GET", "/")
    assert status == 403 and b"open a seat's or the spectator's link" in page
    status, body = call(seated.app, "POST", "/api/answer", {"index": 0}, tab=seated.tabs[0],
                        headers={"origin": "http://evil.example"})
    assert status == 403
    assert json.loads(body)["error"] == "requests from another site (http://evil.example) are " \
                                        "refused"
    status, body = call(seated.app, "GET", "/api/state", tab=seated.tabs[0],
                        headers={"host": "evil.example"})
    assert status == 400


def test_a_second_tab_takes_the_seat_and_the_older_tab_is_told(sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path))
    older = seated.tabs[0]
    newer = open_link(seated.app, seated.table.link_tokens()["seat1"])
    status, body = call(seated.app, "GET", "/api/state", tab=older)
    assert status == 409
    assert json.loads(body)["error"] == ("another tab took the seat of P1: this one is closed; "
                                         "open your link again here to take it back")
    status, body = call(seated.app, "GET", "/api/state", tab=newer)
    assert status == 200 and json.loads(body)["table"]["seat"] == 0
    # a spectator's link may be open in many tabs
    open_link(seated.app, seated.table.link_tokens()["watch"])
    assert seated.get(SPECTATOR)[0] == 200


def test_a_dropped_seat_rejoins_with_its_link_where_the_game_is(sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path))
    for _ in range(8):
        seated.answer()
    _, before = seated.get(0)
    # seat 0's browser is gone (no request from it); seat 1 answers what it may meanwhile
    while seated.table.game.decision is not None and seated.table.game.decision.player == 1:
        seated.answer()
    answered = seated.table.answers(seated.table.game)
    seated.tabs[0] = open_link(seated.app, seated.table.link_tokens()["seat1"])
    _, after = seated.get(0)
    assert after["answers"] == answered >= before["answers"]
    assert after["log"][:len(before["log"])] == before["log"]
    assert after["players"][0]["hand"] is not None and after["table"]["seat"] == 0


def test_a_seat_not_yet_joined_is_shown_as_awaited(sets, tmp_path):
    table = table_of(sets, tmp_path)
    app = make_table_app(table)
    tab = open_link(app, table.link_tokens()["seat1"])
    state = json.loads(call(app, "GET", "/api/state", tab=tab)[1])
    assert state["table"]["joined"] == [True, False]
    assert state["table"]["present"] == [True, False]


# -- take back, saves ---------------------------------------------------------------------------

def test_take_back_happens_only_when_the_other_accepts_to_the_askers_last_answer(
        sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path))
    table = seated.table
    for _ in range(10):
        seated.answer()
    # the seat that did not answer last: the other's answers since go back with his
    asker = 1 - table.history[-1][1]
    mine = max(i for i, (_, by) in enumerate(table.history) if by == asker)
    assert mine < len(table.history) - 1
    target = table.history[mine][0]
    game = table.game
    assert seated.post(asker, "/api/undo")[0] == 200
    _, other = seated.get(1 - asker)
    assert other["table"]["asked"]["text"] == f"{table.names[asker]} asks to take back their " \
                                              "last move"
    # the asker cannot accept his own request; asking twice is refused
    status, body = seated.post(asker, "/api/reply", {"accept": True})
    assert status == 409 and body["error"] == "you asked it: your friend accepts or declines"
    assert seated.post(asker, "/api/undo")[0] == 409
    assert table.game is game
    # declined: nothing changes, the asker is told
    assert seated.post(1 - asker, "/api/reply", {"accept": False})[0] == 200
    assert table.game is game
    _, told = seated.get(asker)
    assert told["message"].endswith(f": {table.names[1 - asker]} declined")
    # accepted: the position before the asker's last answer, exactly
    seated.post(asker, "/api/undo")
    seated.post(1 - asker, "/api/reply", {"accept": True})
    assert table.game is target and len(table.history) == mine
    assert table.game.snapshot() == target.snapshot()


def test_saves_stay_on_the_server_and_a_seat_downloads_one_only_when_the_game_is_over(
        sets, tmp_path):
    seated = Seated(table_of(sets, tmp_path, max_turns=4))
    for _ in range(5):
        seated.answer()
    status, state = seated.post(0, "/api/keep")
    name = state["table"]["saves"][0]
    assert status == 200 and (tmp_path / "saves" / name).is_file()
    kept = seated.table.game.snapshot()
    status, body = seated.get(1, "/api/save")
    assert status == 409 and "once the game is over" in body["error"]
    # a save sent by the browser is not taken: the server's saves only
    status, body = seated.post(1, "/api/load", {"format": "hkk-save/4"})
    assert status == 400 and "saves stay on the server" in body["error"]
    while seated.table.game.decision is not None:
        seated.answer()
    seated.post(1, "/api/load", {"name": name})
    seated.post(0, "/api/reply", {"accept": True})
    assert seated.table.game.snapshot() == kept and seated.table.game.decision is not None
    while seated.table.game.decision is not None:
        seated.answer()
    status, saved = seated.get(1, "/api/save")
    assert status == 200 and saved["format"].startswith("hkk-save")
    assert seated.get(SPECTATOR, "/api/save")[0] == 403


# -- the command ------------------------------------------------------------------------------

@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    yield calls


def test_serve_table_binds_loopback_and_prints_the_seats_and_spectators_links(
        no_server, tmp_path):
    result = CliRunner().invoke(main, ["serve", "--table", "--seed", "1", "--saves",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert no_server[-1]["host"] == "127.0.0.1"
    found = re.findall(r"(P1's seat|P2's seat|spectators): http://127\.0\.0\.1:8765/t/(\S+)",
                       result.output)
    assert [who for who, _ in found] == ["P1's seat", "P2's seat", "spectators"]
    assert len({token for _, token in found}) == 3 and all(len(t) > 30 for _, t in found)


def test_serve_table_without_tokens_is_refused_beyond_loopback(no_server, tmp_path):
    result = CliRunner().invoke(main, ["serve", "--table", "--no-tokens", "--host", "0.0.0.0"])
    assert result.exit_code == 2 and no_server == []
    assert "refusing to serve a table on 0.0.0.0 without tokens: anyone who reaches it could " \
           "take a seat; drop --no-tokens" in result.output
    result = CliRunner().invoke(main, ["serve", "--table", "--no-tokens", "--saves",
                                       str(tmp_path)])
    assert result.exit_code == 0 and "/t/seat1" in result.output
    result = CliRunner().invoke(main, ["serve", "--table", "--opponent", "greedy"])
    assert result.exit_code == 2 and "--table seats two people" in result.output
    result = CliRunner().invoke(main, ["serve", "--max-turns", "3"])
    assert result.exit_code == 2 and "options of --table" in result.output


def test_serve_table_beyond_loopback_with_tokens_starts_and_warns(no_server, tmp_path):
    result = CliRunner().invoke(main, ["serve", "--table", "--host", "0.0.0.0", "--saves",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert no_server[-1]["host"] == "0.0.0.0"
    assert "warning: serving on 0.0.0.0: whoever has a link takes its seat" in result.output
    assert len(re.findall(r"http://127\.0\.0\.1:8765/t/\S{40,}", result.output)) == 3


# -- two browsers at one table ----------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def served_table(tmp_path: Path) -> Iterator[dict[str, str]]:
    """``hkk serve --table`` on 127.0.0.1 on a free port (a short game): its printed links."""
    port = _free_port()
    out = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "hkk.cli", "serve", "--table", "--port", str(port), "--seed", "3",
         "--max-turns", "4", "--decks", "alap:tuz", "alap:viz", "--saves", str(tmp_path / "s")],
        stdout=out.open("wb"), stderr=subprocess.STDOUT)
    try:
        for _ in range(300):  # up to 30 s for the links and the server
            if process.poll() is not None:
                pytest.fail(out.read_text())
            found = dict(re.findall(r"(P1's seat|P2's seat|spectators): (http://\S+)",
                                    out.read_text()))
            if len(found) == 3:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/static/play.css",
                                           timeout=5).close()
                    yield found
                    break
                except OSError:
                    pass
            time.sleep(0.1)
        else:
            pytest.fail("hkk serve --table did not answer in 30 s")
    finally:
        process.terminate()
        process.wait(timeout=10)


class SeatPage:
    """A page of the table in a browser context of its own (a person's browser), with its
    console errors and any request leaving the server."""

    def __init__(self, chromium: Any, link: str) -> None:
        self.errors: list[str] = []
        self.context = chromium.new_context(viewport={"width": 1400, "height": 900})
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        server = link.split("/t/")[0]

        def only_the_server(route: Any) -> None:
            if route.request.url.startswith(server + "/"):
                route.continue_()
            else:
                self.errors.append(f"outside request: {route.request.url}")
                route.abort()
        self.page.route("**/*", only_the_server)
        self.page.goto(link)
        self.page.locator("#friend-seat:not(:empty)").wait_for()

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate("hkk.call('GET', '/api/state')")
        return data

    def shows(self, state: dict[str, Any]) -> None:
        """Waits until the page draws the table's position of ``state`` and is free (no
        answer of its own on its way)."""
        self.page.locator(f"body[data-version='{state['table']['version']}']:not(.busy)") \
            .wait_for(state="attached")

    def click(self, selector: str, path: str) -> None:
        with self.page.expect_response(lambda r: r.url.endswith(path)):
            self.page.locator(selector).click()
        self.page.locator("body:not(.busy)").wait_for(state="attached")


@pytest.mark.slow
def test_two_browsers_play_a_whole_game_against_each_other_at_a_table(
        browser, served_table, tmp_path):  # noqa: F811 - the fixture imported from test_pages
    seats = [SeatPage(browser, served_table["P1's seat"]),
             SeatPage(browser, served_table["P2's seat"])]
    watching = SeatPage(browser, served_table["spectators"])
    for seat in seats:  # every decision clicked here, lone options too
        seat.page.locator("#auto-answer").uncheck()
    assert seats[0].page.locator("#friend-seat").inner_text() == "You are P1"
    assert watching.page.locator("#friend-seat").inner_text() == \
        "Watching P1 vs P2 (no hand is shown)"
    assert not watching.page.locator("#hand").is_visible()
    assert not watching.page.locator("#new-game").is_visible()

    def answer() -> dict[str, Any]:
        """The deciding seat's page clicks its first option that does something (else its
        last), once its page shows it."""
        state = seats[0].state()
        seat = seats[state["table"]["deciding"]]
        seat.shows(state)
        buttons = seat.page.locator("#options button")
        buttons.last.wait_for()
        doing = buttons.filter(has_not_text=re.compile(r"^(pass|no block|decline)"))
        with seat.page.expect_response(lambda r: r.url.endswith("/api/answer")):
            (doing.first if doing.count() else buttons.last).click()
        seat.page.locator("body:not(.busy)").wait_for(state="attached")
        return state

    for _ in range(8):
        answer()
    # take back: asked by the seat that answered last, shown to the other, accepted there
    state = seats[0].state()
    asker = state["table"]["deciding"]  # he decides again or the other does: ask from one
    asking, other = seats[asker], seats[1 - asker]
    before = state["answers"]
    asking.shows(state)
    asking.click("#undo", "/api/undo")
    other.page.locator("#friend-accept").wait_for()
    assert other.page.locator("#friend-asked").inner_text() == \
        f"P{asker + 1} asks to take back their last move"
    asking.page.screenshot(path=str(tmp_path / f"table-seat{asker + 1}.png"))
    other.page.screenshot(path=str(tmp_path / f"table-seat{2 - asker}.png"))
    other.click("#friend-accept", "/api/reply")
    assert other.state()["answers"] < before
    asking.page.locator("#message", has_text=f"P{2 - asker} accepted").wait_for()
    assert not asking.page.locator("#friend-ask").is_visible()
    # a dropped connection: the page says so, and catches up once the network is back
    seats[1].context.set_offline(True)
    seats[1].page.locator("#friend-connection").wait_for()
    assert "connection to the table is lost" in seats[1].page.locator(
        "#friend-connection").inner_text()
    seats[1].context.set_offline(False)
    seats[1].page.locator("#friend-connection").wait_for(state="hidden")
    shot = False
    for _ in range(300):  # to the end
        state = seats[0].state()
        if state["winner"] is not None:
            break
        if not shot and len(state["permanents"]) >= 2:  # both pages, at this position
            for n, page in enumerate(seats, 1):
                page.page.locator(f"body[data-version='{state['table']['version']}']").wait_for()
                page.page.screenshot(path=str(tmp_path / f"table-mid-seat{n}.png"))
            shot = True
        answer()
    assert shot, "no two permanents in play in the whole game"
    end = seats[0].state()["winner"]["text"]
    for page in (*seats, watching):
        page.page.locator("#winner").wait_for()
        assert page.page.locator("#winner").inner_text() == end
    # the save, downloaded once the game is over, replays to the same end
    saved = tmp_path / "saved.json"
    seats[1].page.locator("#save:not([disabled])").wait_for()
    with seats[1].page.expect_download() as download:
        seats[1].page.locator("#save").click()
    download.value.save_as(saved)
    replayed = subprocess.run([sys.executable, "-m", "hkk.cli", "replay", str(saved)],
                              capture_output=True, text=True)
    assert replayed.returncode == 0 and "all as recorded" in replayed.stdout, replayed.stdout
    for page in (*seats, watching):
        assert [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []
        page.context.close()


#: Makes a page read its position (``GET /api/state``) 3 s late, as over a slow network.
_SLOW_READS = """() => {
  const fetchNow = window.fetch;
  window.fetch = async (url, init) => {
    const response = await fetchNow(url, init);
    if (String(url).endsWith("/api/state") && !(init && init.method && init.method !== "GET")) {
      await new Promise(done => setTimeout(done, 3000));
    }
    return response;
  };
}"""


@pytest.mark.slow
def test_a_click_made_while_the_page_reads_the_friends_change_is_answered(
        browser, served_table):  # noqa: F811 - the fixture imported from test_pages
    seats = [SeatPage(browser, served_table["P1's seat"]),
             SeatPage(browser, served_table["P2's seat"])]
    for seat in seats:
        seat.page.locator("#auto-answer").uncheck()
    state = seats[0].state()
    clicking, friend = seats[state["table"]["deciding"]], seats[1 - state["table"]["deciding"]]
    clicking.shows(state)
    clicking.page.evaluate(_SLOW_READS)
    friend.click("#friend-keep", "/api/keep")  # the table changes: the other page reads it
    changed = friend.state()["table"]["version"]
    # the deciding page has seen the change and is reading it (or has drawn it): a click now
    # is taken at once (a page made busy by the read greys its options out until it is read)
    clicking.page.locator(f"body.busy, body[data-version='{changed}']").wait_for(
        state="attached")
    with clicking.page.expect_response(lambda r: r.url.endswith("/api/answer")):
        clicking.page.locator("#options button").first.click(timeout=1500)
    assert friend.state()["answers"] == state["answers"] + 1
    for seat in seats:
        assert seat.errors == []
        seat.context.close()
