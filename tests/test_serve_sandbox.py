"""``hkk serve``'s sandbox and deck builder: a position set up from the page and played on, a
deck built from a set's cards with its format's legality shown.

The sandbox's position is made with the documented position builder (``hkk.build_position``),
saves and loads like any game and plays on identically; every bad field is a 400 naming it and
changes nothing; the new endpoints sit behind the table's guard (token, Origin).  The deck
builder's legality is the engine's format check, its file is the deck file the set loader reads
(``hkk play`` plays it).  Both are clicked through in headless Chromium.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_pages import browser  # noqa: F401 - the Chromium fixture of the page tests
from test_serve import TablePage, serve  # noqa: F401 - the hkk serve fixture
from test_serve_security import TOKEN, request, table_of, where_it_is
from test_serve_security import serve as served  # noqa: F401 - uvicorn in this process
from test_verify import write_set

from hkk._agents import FirstLegalAgent
from hkk._cards.loader import load_set_decks
from hkk._serve import Table, make_app
from hkk._serve_decks import deck_toml, read_deck
from hkk._serve_watch import CardSets

pytestmark = pytest.mark.xdist_group("chromium")

#: Where the screenshots go besides the test's folder: ``HKK_DOCS_SHOTS=docs`` takes the
#: README's pictures again.
DOCS_SHOTS = os.environ.get("HKK_DOCS_SHOTS")

#: A position: his fire ball in the person's hand, a wounded Lángőrző on the computer's guard
#: post, their numbers set.
POSITION = {"active": 0, "players": [
    {"hand": ["alap:tuzlabda", "alap:tuzmano"], "hp": 12, "vp": 6},
    {"guard_post": [{"card": "alap:langorzo", "hp": 1}], "reserve": ["alap:tuzkopo"],
     "hand": ["alap:vizszellem"], "hp": 9, "vp": 2}]}


@pytest.fixture(scope="module")
def sets() -> CardSets:
    return CardSets()


def _first(sets: CardSets) -> Table:
    """A table whose computer plays the first option: a game it plays goes on the same way
    after a save and a load."""
    return table_of(sets, lambda agent_seed, seat: FirstLegalAgent())


@pytest.fixture
def guarded(sets: CardSets, served: Any) -> tuple[Table, Any]:  # noqa: F811
    table = _first(sets)
    return table, served(make_app(table, token=TOKEN))


def _post(server: Any, path: str, body: Any, **kw: Any) -> tuple[int, Any]:
    status, answer = request(server, "POST", path, json.dumps(body), **kw)
    return status, json.loads(answer)


def _play_on(table: Table, answers: int) -> None:
    for _ in range(answers):
        decision = table.game.decision
        if decision is None:
            return
        table.answer(len(decision.options) - 1, table.game.answered)


# -- the sandbox ---------------------------------------------------------------------------------

def test_the_sandbox_puts_each_card_where_asked_with_the_numbers_given(guarded):
    table, server = guarded
    status, state = _post(server, "/api/sandbox/play", POSITION)
    assert status == 200, state
    assert state["decks"] == ["a sandbox position"] and not state["can_undo"]
    me, them = state["players"]
    # his 6 VP and the 1 he regenerates at his first preparation (29.3)
    assert (me["hp"], me["vp"], them["hp"], them["vp"]) == (12, 6 + 1, 9, 2)
    # the hand given, and the card he draws at his first preparation from his deck's top
    assert [c["id"] for c in me["hand"][:2]] == ["alap:tuzlabda", "alap:tuzmano"]
    assert me["hand"][2]["id"] == table.game.game.players[0].hand[2] and me["hand_size"] == 3
    # the person's view as ever: the other hand is a count
    assert them["hand"] is None and them["hand_size"] == 1
    assert "alap:vizszellem" not in json.dumps(state)
    board = {(p["controller"], p["zone"], p["card"]["id"]): p for p in state["permanents"]}
    assert set(board) == {(1, "guard_post", "alap:langorzo"), (1, "reserve", "alap:tuzkopo")}
    guard = board[1, "guard_post", "alap:langorzo"]
    assert guard["hp"] == 1 < guard["max_hp"]
    assert f"Lángőrző (alap:langorzo)#{guard['uid']} enters guard_post of P2 (random) " \
        "(active)" in [line["text"] for line in state["log"]]
    # the game is the position builder's: set up by hand, no shuffle, no deal
    started = next(e for e in table.game.game.log if e.kind == "game_started")
    assert started.built is True
    assert table.game.decision is not None and table.game.decision.player == 0


def test_a_sandbox_position_where_the_computer_moves_first_waits_at_the_persons_decision(guarded):
    table, server = guarded
    status, state = _post(server, "/api/sandbox/play", {**POSITION, "active": 1})
    assert status == 200, state
    turns = [line["text"] for line in state["log"] if line["kind"] == "turn"]
    assert turns[0].startswith("Turn 1  P2 (random)")
    assert state["decision"] is not None and table.game.decision.player == 0
    assert any(line["text"].startswith("P2 (random) ") and line["kind"] == "decision"
               for line in state["log"])


def test_a_sandbox_position_saves_loads_and_plays_on_identically(guarded, sets):
    table, server = guarded
    assert _post(server, "/api/sandbox/play", POSITION)[0] == 200
    status, saved = request(server, "GET", "/api/save")
    assert status == 200
    data = json.loads(saved)
    assert data["format"] == "hkk-save/4"
    other = _first(sets)
    other.load(data)
    assert other.state()["decks"] == ["a saved game"]
    assert where_it_is(other).replace('"a saved game"', '"a sandbox position"') == \
        where_it_is(table)
    _play_on(table, 12)
    _play_on(other, 12)
    assert table.game.answered == other.game.answered > 3
    assert [e.as_dict() for e in other.game.game.log] == [e.as_dict() for e in table.game.game.log]
    assert other.game.game.snapshot() == table.game.game.snapshot()


@pytest.mark.parametrize(("change", "said"), [
    ({"players": [{"hand": ["alap:nosuch"]}, {}]},
     "players[0].hand[0]: unknown card 'alap:nosuch' (no installed set has it)"),
    ({"players": [{}, {"guard_post": [{"card": "nosuch:card"}]}]},
     "players[1].guard_post[0].card: unknown card 'nosuch:card' (no installed set has it)"),
    ({"players": [{"battlefield": ["alap:tuzmano"]}, {}]},
     "players[0].battlefield: no such zone or number; zones: hand, graveyard, reserve, "
     "guard_post, buildings; numbers: hp, vp, components"),
    ({"players": [{}, {"reserve": [{"card": "alap:langorzo", "hp": -2}]}]},
     "players[1].reserve[0].hp: -2 is out of range: from 1 to 999"),
    ({"players": [{}, {"reserve": [{"card": "alap:langorzo", "hp": 50}]}]},
     "players[1].reserve[0].hp: 50 is more than Lángőrző's 3 Ép"),
    ({"players": [{"vp": -1}, {}]}, "players[0].vp: -1 is out of range: from 0 to 999"),
    ({"players": [{"hp": 0}, {}]}, "players[0].hp: 0 is out of range: from 1 to 999"),
    ({"players": [{"hp": 2.5}, {}]}, "players[0].hp: must be a whole number, not 2.5"),
    ({"players": [{"buildings": ["alap:tuzmano"]}, {}]},
     "players[0].buildings[0].card: alap:tuzmano is a creature: the buildings takes buildings"),
    ({"players": [{}, {"reserve": ["alap:tuzlabda"]}]},
     "players[1].reserve[0].card: alap:tuzlabda is a spell: the reserve takes creatures"),
    ({"players": [{}]}, "players: must be a list of the two players"),
    ({"players": [{}, {}], "active": 2}, "active: 2 is out of range: from 0 to 1"),
    ({"players": [{}, {}], "seed": 1}, "seed: no such field; a position has 'players' and "
                                       "'active'"),
    ({"players": [{"hand": ["alap:tuzmano"] * 121}, {}]},
     "players[0]: 121 cards; the sandbox takes at most 120 a player"),
])
def test_a_bad_sandbox_position_is_a_400_naming_its_field_and_changes_nothing(
        guarded, change, said):
    table, server = guarded
    _play_on(table, 3)
    before = where_it_is(table)
    status, answer = _post(server, "/api/sandbox/play", change)
    assert (status, answer["error"]) == (400, said)
    assert where_it_is(table) == before


# -- the deck builder ------------------------------------------------------------------------

def _tuz(sets: CardSets) -> dict[str, int]:
    return dict(sets.engine.decks["alap:tuz"].cards)


def test_the_deck_check_is_the_formats_own_and_names_each_problem(guarded, sets):
    _, server = guarded
    status, legal = _post(server, "/api/decks/check", {"format": "alap:kezdo",
                                                       "cards": _tuz(sets)})
    assert status == 200 and legal["legal"] and legal["problems"] == []
    assert legal["size"] == 30 and legal["rules"] == "30-40 cards, at most 2 of a name, sets alap"
    other_set = min(c for c in sets.engine.cards if not c.startswith("alap:"))
    cards = {**_tuz(sets), "alap:tuzmano": 3, other_set: 1}
    status, broken = _post(server, "/api/decks/check", {"format": "alap:kezdo", "cards": cards})
    assert status == 200 and not broken["legal"]
    kinds = {p["kind"]: p for p in broken["problems"]}
    assert kinds["copies"]["card"] == "alap:tuzmano" and kinds["set"]["card"] == other_set
    assert set(kinds) == {"copies", "set"}  # 32 cards: a legal size
    assert kinds["copies"]["message"].startswith("3 copies of Tűzmanó (alap:tuzmano), more than "
                                                 "the 2 of a name it allows")
    # the same deck in the casual format: nothing to say
    assert _post(server, "/api/decks/check", {"format": "casual", "cards": cards})[1]["legal"]


@pytest.mark.parametrize(("body", "said"), [
    ({"cards": {"alap:nosuch": 2}}, "cards.alap:nosuch: unknown card (no installed set has it)"),
    ({"cards": {"alap:tuzmano": 0}}, "cards.alap:tuzmano: copies must be a whole number from 1, "
                                     "not 0"),
    ({"cards": {"alap:tuzmano": -1}}, "cards.alap:tuzmano: copies must be a whole number from "
                                      "1, not -1"),
    ({"cards": [], "format": "casual"}, "cards: must be a JSON object of card id -> copies"),
    ({"cards": {}, "format": "alap:nosuch"}, "format: unknown format 'alap:nosuch'; known "
                                             "formats: casual, alap:kezdo"),
    ({"cards": {}, "name": "../etc/passwd"}, "name: String should match pattern "
                                             "'^[a-z0-9][a-z0-9_-]*$'"),
    ({"cards": {}, "path": "/tmp/x"}, "path: no such field; a deck has 'name', 'title', "
                                      "'format', 'cards'"),
])
@pytest.mark.parametrize("path", ["/api/decks/check", "/api/decks/file", "/api/decks/play"])
def test_a_bad_deck_is_a_400_naming_its_field_and_changes_nothing(guarded, path, body, said):
    table, server = guarded
    _play_on(table, 2)
    before = where_it_is(table)
    status, answer = _post(server, path, body)
    assert (status, answer["error"]) == (400, said)
    assert where_it_is(table) == before


def test_the_deck_file_is_what_the_set_loader_reads_and_hkk_play_plays(guarded, sets, tmp_path):
    _, server = guarded
    cards = _tuz(sets)
    status, file = _post(server, "/api/decks/file", {"name": "my-fire", "title": "Tűz „mine”",
                                                      "format": "alap:kezdo", "cards": cards})
    assert status == 200 and file["filename"] == "my-fire.toml"
    root = tmp_path / "set"
    (root / "decks").mkdir(parents=True)
    (root / "decks" / file["filename"]).write_text(file["text"], encoding="utf-8")
    loaded = load_set_decks("mine", root, known_ids=set(sets.engine.cards))["my-fire"]
    assert (dict(loaded.cards), loaded.title, loaded.formats) == \
        (cards, "Tűz „mine”", ("alap:kezdo",))
    # in a set's decks/ folder, hkk play plays it
    site = tmp_path / "site"
    site.mkdir()
    write_set(site, "mine", decks=file["text"], depends=("alap",))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site),
                                                        os.environ.get("PYTHONPATH", "")])}
    played = subprocess.run([sys.executable, "-m", "hkk.cli", "play", "--seed", "1", "--brief",
                             "--decks", "mine:my-fire", "alap:viz", "--format", "alap:kezdo"],
                            capture_output=True, text=True, env=env)
    assert played.returncode == 0, played.stderr
    assert "mine:my-fire (P1) vs alap:viz (P2)" in played.stdout


def test_a_built_deck_starts_a_game_against_the_tables_computer_deck(guarded, sets):
    table, server = guarded
    cards = _tuz(sets)
    status, state = _post(server, "/api/decks/play", {"name": "my-fire", "cards": cards})
    assert status == 200, state
    assert state["decks"] == ["my-fire (built) vs alap:viz"] and state["answers"] == 0
    assert sorted(table.game.game.decks[0]) == sorted(c for c, n in cards.items()
                                                      for _ in range(n))


# -- the guard ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "change"), [
    ("no token", {"token": None}),
    ("another token", {"token": "guessed"}),
    ("another site's origin", {"headers": {"Origin": "http://127.0.0.1:1"}}),
    ("a form's content type", {"content_type": "application/x-www-form-urlencoded"}),
])
@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/api/sandbox/cards"), ("POST", "/api/sandbox/play"), ("GET", "/api/decks/cards"),
    ("POST", "/api/decks/check"), ("POST", "/api/decks/file"), ("POST", "/api/decks/play")])
def test_the_sandbox_and_deck_endpoints_refuse_a_request_not_from_the_page(
        guarded, sets, kind, change, method, path):
    table, server = guarded
    if method == "GET" and "type" in kind:
        return  # a GET has no body to type
    before = where_it_is(table)
    body = json.dumps(POSITION if "sandbox" in path else {"cards": _tuz(sets)})
    status, answer = request(server, method, path, body if method == "POST" else None, **change)
    assert status == (415 if "type" in kind else 403), answer
    assert b"alap:" not in answer  # nothing of the cards, the deck or the position
    assert where_it_is(table) == before
    assert request(server, method, path, body if method == "POST" else None)[0] == 200


def test_the_deck_page_carries_the_token_and_reads_nothing_under_a_rebound_host(guarded):
    _, server = guarded
    status, page = request(server, "GET", "/decks", token=None)
    assert status == 200 and f'<meta name="hkk-token" content="{TOKEN}">' in page.decode()
    status, page = request(server, "GET", "/decks",
                           headers={"Host": f"rebound.example:{server.port}"})
    assert status == 400 and TOKEN.encode() not in page


# -- in the browser ----------------------------------------------------------------------------

def _shot(page: Any, tmp_path: Path, name: str) -> None:
    page.screenshot(path=str(tmp_path / name), full_page=False)
    if DOCS_SHOTS:
        page.screenshot(path=str(Path(DOCS_SHOTS) / name), full_page=False)


def test_the_sandbox_in_the_browser_puts_a_card_into_play_for_the_computer_and_plays_on(
        browser, serve, tmp_path):  # noqa: F811 - the fixtures imported
    url = serve("--seed", "3", "--decks", "alap:tuz", "alap:viz", "--opponent", "first")
    page = TablePage(browser, url)
    p = page.page
    p.locator("#auto-answer").uncheck()  # each of the four answers below is one of ours
    with p.expect_response(lambda r: r.url.endswith("/api/sandbox/cards")):
        p.locator("#sandbox-open").click()
    assert p.locator("#sandbox-note").inner_text().startswith("sandbox: both hands shown")

    def put(find: str, seat: str, zone: str) -> None:
        p.locator("#sandbox-filter").fill(find)
        p.locator("#sandbox-card").select_option(index=0)
        p.locator("#sandbox-seat").select_option(seat)
        p.locator("#sandbox-zone").select_option(zone)
        p.locator("#sandbox-add").click()
    put("Lángőrző", "1", "guard_post")
    put("Tűzlabda", "0", "hand")
    put("Vízszellem", "1", "hand")
    theirs = p.locator(".sandbox-player[data-seat='1']")
    theirs.locator("[data-zone='guard_post'] input[name='card-hp']").fill("1")
    theirs.locator("input[name='vp']").fill("4")
    theirs.locator("[data-zone='hand']").get_by_text("Vízszellem").wait_for()
    _shot(p, tmp_path, "sandbox.png")
    with p.expect_response(lambda r: r.url.endswith("/api/state")):
        p.locator("#sandbox-play").click()
    page.settled()
    assert p.locator("#sandbox").is_hidden()
    state = page.state()
    guard = next(x for x in state["permanents"] if x["zone"] == "guard_post")
    assert (guard["controller"], guard["card"]["name"], guard["hp"]) == (1, "Lángőrző", 1)
    assert state["players"][1]["vp"] == 4 and state["players"][1]["hand"] is None
    assert "Lángőrző" in p.locator("#board").inner_text()
    assert "Lángőrző enters P2 (first)'s guard post." in p.locator("#log").inner_text()
    assert "Tűzlabda" in p.locator("#hand").inner_text()
    for _ in range(4):  # and play on from there
        page.answer()
    assert page.state()["answers"] == 4
    # a bad field is said in the panel, the game as it was
    before = page.state()
    p.locator("#sandbox-open").click()
    theirs.locator("[data-zone='guard_post'] input[name='card-hp']").fill("-3")
    with p.expect_response(lambda r: r.url.endswith("/api/sandbox/play")):
        p.locator("#sandbox-play").click()
    p.locator("#sandbox-error").wait_for(state="visible")
    assert p.locator("#sandbox-error").inner_text() == \
        "players[1].guard_post[0].hp: -3 is out of range: from 1 to 999"
    assert page.state() == before
    # the browser's one line for the refused request, nothing else
    assert page.errors == ["Failed to load resource: the server responded with a status of 400 "
                           "(Bad Request)"]
    p.close()


def test_the_deck_builder_in_the_browser_flags_a_count_saves_a_file_and_starts_a_game(
        browser, serve, tmp_path, sets):  # noqa: F811 - the fixtures imported
    url = serve("--seed", "3", "--decks", "alap:tuz", "alap:viz", "--opponent", "first")
    page = TablePage(browser, url)
    p = page.page
    p.locator("#decks-open").click()
    p.wait_for_url(url + "/decks")
    p.locator(".tile").first.wait_for()
    legality = p.locator("#legality")

    def checked(click: Any) -> None:
        with p.expect_response(lambda r: r.url.endswith("/api/decks/check")):
            click()
        p.locator(f"#legality[data-checked='{p.evaluate('checked')}']").wait_for()

    checked(lambda: p.locator("#start").select_option("alap:tuz"))
    assert legality.inner_text().startswith("Legal in alap:kezdo")
    assert p.locator("#deck-size").text_content() == "30 cards"
    p.locator("#set").select_option("alap")
    tile = p.locator(".tile[data-card='alap:tuzmano']")
    checked(lambda: tile.locator("button.add").click())  # a third Tűzmanó
    assert legality.inner_text().startswith("Breaks alap:kezdo")
    assert "copies: 3 copies of Tűzmanó" in p.locator("#problems").inner_text()
    assert p.locator("#deck-list li.flagged").inner_text().startswith("3 × Tűzmanó")
    p.evaluate("window.scrollTo(0, 0)")
    _shot(p, tmp_path, "deck-builder.png")
    checked(lambda: tile.locator("button.remove").click())
    assert legality.inner_text().startswith("Legal in alap:kezdo")
    p.locator("#deck-name").fill("my-fire")
    with p.expect_download() as download:
        p.locator("#deck-save").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "my-fire.toml"
    (tmp_path / "set" / "decks").mkdir(parents=True)
    (tmp_path / "set" / "decks" / saved.name).write_bytes(saved.read_bytes())
    deck = load_set_decks("mine", tmp_path / "set", known_ids=set(sets.engine.cards))["my-fire"]
    assert dict(deck.cards) == dict(sets.engine.decks["alap:tuz"].cards)
    assert read_deck({"name": "my-fire", "cards": dict(deck.cards), "format": "alap:kezdo"},
                     sets.engine).deck == deck
    assert deck_toml(deck) == saved.read_text(encoding="utf-8")
    with p.expect_response(lambda r: r.url.endswith("/api/state")):
        p.locator("#deck-play").click()
    p.wait_for_selector("#options button")
    assert page.state()["decks"] == ["my-fire (built) vs alap:viz"]
    assert page.errors == []
    p.close()
