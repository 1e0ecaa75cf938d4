"""``hkk serve`` (issue 23 items 2 and 3): a person plays against the computer in the browser.

The table's behaviour (take back, saves, what the person may see) is tested on the table
itself; the web app is started as ``hkk serve`` on 127.0.0.1 on a free port and clicked through
a whole game in headless Chromium (no console errors, no request leaving the server, a
screenshot), and through a card file's change under ``--watch``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_pages import browser  # noqa: F401 - the Chromium fixture of the page tests
from test_verify import CARDS, write_set

from hkk._agents import RandomAgent
from hkk._errors import HkkError
from hkk._serve import Table
from hkk._serve_watch import CardSets
from hkk.cli import main

pytestmark = pytest.mark.xdist_group("chromium")


@pytest.fixture(scope="module")
def sets() -> CardSets:
    return CardSets()


def _table(sets: CardSets, seed: int = 3) -> Table:
    return Table(sets, ["alap:tuz", "alap:viz"], "random", lambda seed, seat: RandomAgent(),
                 seed=seed)


def _play(table: Table, answers: int) -> None:
    """Answer ``answers`` decisions, each with its last option (something else than passing)."""
    for _ in range(answers):
        decision = table.game.decision
        assert decision is not None, "the game ended too early for this test"
        table.answer(len(decision.options) - 1, table.game.answered)


# -- the table -------------------------------------------------------------------------------

def test_take_back_restores_the_exact_position_before_the_last_decision(sets):
    table = _table(sets)
    _play(table, 12)
    before, snapshot = table.state(), table.game.game.snapshot()
    log = [e.as_dict() for e in table.game.game.log]
    _play(table, 3)
    assert table.state()["log"] != before["log"]
    for _ in range(3):
        table.undo()
    after = table.state()
    assert table.game.game.snapshot() == snapshot
    assert [e.as_dict() for e in table.game.game.log] == log
    assert {k: v for k, v in after.items() if k != "can_undo"} == \
        {k: v for k, v in before.items() if k != "can_undo"}
    # the same answer again gives the same game as the first time
    table.answer(len(table.game.decision.options) - 1, None)
    with pytest.raises(HkkError, match="already answered"):
        table.answer(0, 12)


def test_a_native_table_sends_the_page_what_the_python_engines_table_sends(monkeypatch):
    """Prompts included: the page names the attacker a block is asked for (``subject``) and the
    phase an action is asked in, whichever core runs the game."""
    pytest.importorskip("hkk_native")
    monkeypatch.setattr("hkk._serve.os_seed", lambda: 7)  # the computer's agent seeded alike
    tables = [Table(CardSets(core=core), ["alap:tuz", "alap:viz"], "random",
                    lambda seed, seat: RandomAgent(seed=seed), seed=5)
              for core in ("python", "native")]
    assert type(tables[1].game.game).__name__ == "NativeGame"
    prompts = set()
    for _ in range(80):
        sent = [table.state() for table in tables]
        assert sent[1] == sent[0]
        decision = sent[0]["decision"]
        if decision is None:
            break
        prompts.add((decision["kind"], decision["prompt"].split(" ")[0],
                     "uid" in decision["subject"]))
        for table in tables:
            table.answer(len(decision["options"]) - 1, None)
    assert {("block", "Block", True), ("action", "your", False), ("order", "Which", False)} \
        <= prompts, prompts


def test_nothing_of_the_opponents_hand_reaches_the_page(sets):
    table = _table(sets)
    _play(table, 25)
    game = table.game.game
    data = table.state()
    them = data["players"][1]
    assert them["hand"] is None and them["hand_size"] == len(game.players[1].hand) > 0
    text = json.dumps(data, ensure_ascii=False)
    # the viz deck's cards he holds and nobody has seen: neither their ids nor their names
    public = {p.card.id for p in game.permanents.values()} | set(game.players[0].hand) | \
        {e.card for e in game.log if e.kind == "card_played"} | \
        set(game.players[0].graveyard) | set(game.players[1].graveyard)
    hidden = set(game.players[1].hand) - public
    assert hidden, "the test needs a card in his hand that nobody has seen"
    for card_id in hidden:
        assert card_id not in text and game.cards[card_id].name not in text
    assert any(line["text"] == "P2 (random) draws a card" for line in data["log"])
    # how many options his decisions offered tells how many cards he could play: not shown
    theirs = [line["text"] for line in data["log"] if line["kind"] == "decision"
              and line["text"].startswith("P2")]
    assert theirs and not any("(of " in text for text in theirs)


def test_a_saved_game_loads_at_the_same_decision(sets):
    table = _table(sets, seed=5)
    _play(table, 9)
    saved, state = json.loads(json.dumps(table.game.save())), table.state()
    other = _table(sets, seed=11)
    other.load(saved)
    loaded = other.state()
    assert loaded["decks"] == ["a saved game"] and not loaded["can_undo"]
    assert {k: v for k, v in loaded.items() if k not in ("can_undo", "decks")} == \
        {k: v for k, v in state.items() if k not in ("can_undo", "decks")}
    with pytest.raises(HkkError, match="not a save of a game a person played"):
        other.load({"format": "something else"})


def test_serve_listens_on_loopback_by_default_and_warns_for_another_host(monkeypatch):
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    result = CliRunner().invoke(main, ["serve", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert calls[-1]["host"] == "127.0.0.1" and "warning" not in result.output
    result = CliRunner().invoke(main, ["serve", "--seed", "1", "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert calls[-1]["host"] == "0.0.0.0"
    assert "warning: serving on 0.0.0.0: anyone who can reach this machine" in result.output


def test_an_illegal_answer_is_refused_and_leaves_the_position_as_it_was(sets):
    table = _table(sets)
    _play(table, 3)
    before = table.state()
    with pytest.raises(HkkError, match="no option 99"):
        table.answer(99, 3)
    assert table.state() == before


class _BreaksAfter:
    """An opponent whose agent raises an HkkError at its n-th decision (as a set's hook may)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def choose(self, view: Any, decision: Any) -> Any:
        self.n -= 1
        if self.n < 0:
            raise HkkError("the opponent's agent broke")
        return decision.options[-1]


def test_an_error_while_the_computer_plays_leaves_the_position_before_the_answer(sets):
    table = Table(sets, ["alap:tuz", "alap:viz"], "broken",
                  lambda seed, seat: _BreaksAfter(40), seed=3)
    for _ in range(500):
        before, snapshot = table.state(), table.game.game.snapshot()
        try:
            _play(table, 1)
        except HkkError as exc:
            assert str(exc) == ("the computer's agent broken raised HkkError: the opponent's "
                                "agent broke (at its action decision)")
            break
    else:
        pytest.fail("the opponent never decided 40 times")
    assert table.state() == before and table.game.game.snapshot() == snapshot


def test_serve_refuses_an_unknown_opponent_naming_the_registered_agents(monkeypatch):
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: pytest.fail("must not start"))
    result = CliRunner().invoke(main, ["serve", "--opponent", "nosuch"])
    assert result.exit_code == 2
    assert "no agent 'nosuch'; registered agents: first, greedy, mcts, random" in result.output


def test_serve_without_its_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn raises ImportError
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 1
    assert "hkk serve needs Starlette and uvicorn: pip install 'hkk[serve]'" in result.output


# -- the web app in Chromium -----------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``serve(*args, env=...)``: ``hkk serve`` on 127.0.0.1 on a free port; its address."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str, env: dict[str, str] | None = None) -> str:
        port = _free_port()
        log = (tmp_path / f"serve-{port}.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "hkk.cli", "serve", "--port", str(port), *args],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        started.append(process)
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):  # up to 30 s for the server to answer
            if process.poll() is not None:
                pytest.fail((tmp_path / f"serve-{port}.log").read_text())
            try:
                urllib.request.urlopen(f"{url}/", timeout=5).close()
                return url
            except OSError:
                time.sleep(0.1)
        pytest.fail("hkk serve did not answer in 30 s")

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)


class TablePage:
    """The page of a server, with every console error, page error and outside request."""

    def __init__(self, chromium: Any, url: str) -> None:
        self.errors: list[str] = []
        self.page = chromium.new_page(viewport={"width": 1400, "height": 900})
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

        def only_the_server(route: Any) -> None:
            if route.request.url.startswith(url + "/"):
                route.continue_()
            else:
                self.errors.append(f"outside request: {route.request.url}")
                route.abort()
        self.page.route("**/*", only_the_server)
        self.page.goto(url + "/")
        self.page.wait_for_selector("#options button, #winner:not([hidden])")
        self.settled()  # a lone first option is being answered by itself

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate("""fetch('/api/state', {headers: {'X-HKK-Token':
            document.querySelector("meta[name='hkk-token']").content}}).then(r => r.json())""")
        return data

    def click(self, selector: str, path: str) -> None:
        """Click, wait for the server's answer and for the page to show it."""
        with self.page.expect_response(lambda r: r.url.endswith(path)):
            self.page.locator(selector).click()
        self.settled()

    def settled(self) -> None:
        self.page.locator("body:not(.busy)").wait_for(state="attached")

    def answer(self) -> None:
        """Clicks the last option (after passing comes what does something)."""
        self.click("#options button >> nth=-1", "/api/answer")

    def shown(self) -> dict[str, Any]:
        """What the page shows: the players, the board, the hand, the options, the log."""
        shown: dict[str, Any] = self.page.evaluate("""() => Object.fromEntries(
            ['players', 'board', 'hand', 'options', 'prompt', 'log', 'winner'].map(
                id => [id, document.getElementById(id).innerText]))""")
        return shown


@pytest.mark.parametrize("opponent", ["random", "greedy", "mcts:budget=20"])
@pytest.mark.slow
def test_a_whole_game_in_the_browser_with_take_back_to_the_winner(
        browser, serve, tmp_path, opponent):  # noqa: F811 - the fixture imported from test_pages
    url = serve("--seed", "3", "--decks", "alap:tuz", "alap:viz", "--opponent", opponent)
    page = TablePage(browser, url)
    p = page.page
    # every decision asked, lone options too, as before they were answered by themselves
    # (tests/test_serve_table.py plays with the setting on)
    p.locator("#auto-answer").uncheck()
    assert p.locator("#undo").is_disabled()
    for _ in range(15):
        page.answer()
    # the board of the person and his hand as the server has them; the other hand a count
    state = page.state()
    assert p.locator("#hand .card").count() == len(state["players"][0]["hand"])
    assert p.locator("#board .card").count() == len(state["permanents"])
    assert f"{state['players'][1]['hand_size']} cards (hidden)" in \
        p.locator(".player[data-player='1']").inner_text()
    assert p.locator("#options button").count() == len(state["decision"]["options"])
    # take back: after two answers and two take-backs, the page and the position as before
    before, shown = page.state(), page.shown()
    page.answer()
    page.answer()
    assert page.state()["answers"] == before["answers"] + 2
    page.click("#undo", "/api/undo")
    page.click("#undo", "/api/undo")
    assert page.shown() == shown
    assert {k: v for k, v in page.state().items() if k != "can_undo"} == \
        {k: v for k, v in before.items() if k != "can_undo"}
    p.screenshot(path=str(tmp_path / f"serve-game-{opponent.replace(':', '-')}.png"))
    for _ in range(3000):  # a whole game, to the winner
        if p.locator("#winner").is_visible():
            break
        page.answer()
    winner = p.locator("#winner").inner_text()
    end = page.state()["winner"]
    assert re.fullmatch(rf"(You win|P2 \({re.escape(opponent)}\) wins|Draw): .+", winner)
    assert winner == end["text"] and end["reason"] in ("hp", "empty_deck", "turn_limit")
    assert p.locator("#options button").count() == 0
    # a save of the finished game replays to the same end
    saved = tmp_path / "saved.json"
    with p.expect_download() as download:
        p.locator("#save").click()
    download.value.save_as(saved)
    replayed = subprocess.run([sys.executable, "-m", "hkk.cli", "replay", str(saved)],
                              capture_output=True, text=True)
    assert replayed.returncode == 0 and "all as recorded" in replayed.stdout, replayed.stdout
    page.click("#new-game", "/api/new")
    assert not p.locator("#winner").is_visible()
    with p.expect_response(lambda r: r.url.endswith("/api/load")):
        p.locator("#replay").set_input_files(str(saved))
    page.settled()
    assert p.locator("#winner").inner_text() == winner
    p.screenshot(path=str(tmp_path / f"serve-end-{opponent.replace(':', '-')}.png"))
    assert page.errors == []
    p.close()


WATCHED_SET = CARDS.replace('name = "Baka"', 'name = "Kis Baka"')


@pytest.mark.slow
def test_watch_shows_a_card_file_error_as_verify_says_it_then_offers_the_new_cards(
        browser, serve, tmp_path):  # noqa: F811 - the fixture imported from test_pages
    site = tmp_path / "site"
    site.mkdir()
    package = write_set(site, "web", cards=WATCHED_SET)
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    url = serve("--watch", "--seed", "2", "--decks", "web:start", "web:start", env=env)
    page = TablePage(browser, url)
    p = page.page
    for _ in range(4):
        page.answer()
    assert "Kis Baka" in page.shown()["hand"] + page.shown()["board"]
    cards = site / package / "cards" / "cards.toml"
    good = cards.read_text(encoding="utf-8")
    cards.write_text(good.replace("hp = 2", "hp = 0"), encoding="utf-8")
    error = p.locator("#card-error")
    error.wait_for(state="visible", timeout=15_000)
    verify = subprocess.run([sys.executable, "-m", "hkk.cli", "verify", "web", "--games", "1"],
                            capture_output=True, text=True, env={**os.environ, **env})
    line = next(x for x in verify.stdout.splitlines() if x.startswith("✗ "))
    assert "✗ " + error.inner_text() == line
    assert "cards/cards.toml: cards[0].hp: Input should be greater than 0" in line
    p.screenshot(path=str(tmp_path / "serve-watch-error.png"))
    # the game goes on with the cards it had
    page.answer()
    assert not p.locator("#cards-newer").is_visible()
    cards.write_text(good.replace('name = "Kis Baka"', 'name = "Nagy Baka"'),
                     encoding="utf-8")
    p.locator("#cards-newer").wait_for(state="visible", timeout=15_000)
    assert not error.is_visible()
    assert "Kis Baka" in page.shown()["hand"] + page.shown()["board"]
    page.click("#restart", "/api/restart")
    assert page.state()["answers"] == 0 and not p.locator("#cards-newer").is_visible()
    for _ in range(4):
        page.answer()
    shown = page.shown()
    assert "Nagy Baka" in shown["hand"] and "Kis Baka" not in shown["hand"] + shown["log"]
    p.screenshot(path=str(tmp_path / "serve-watch.png"))
    assert page.errors == []
    p.close()
