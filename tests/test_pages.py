"""The HTML pages (report, gallery, game timeline) opened in headless Chromium: they render
without console errors, show the numbers of their JSON, and a screenshot is saved.

Skipped when no browser (or Playwright) is present, unless ``HKK_REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from hkk._html import rate
from hkk.cli import main

# under pytest -n, one worker opens one Chromium for all of them (--dist loadgroup, pyproject.toml)
pytestmark = pytest.mark.xdist_group("chromium")

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium() -> str | None:
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _unavailable(reason: str) -> None:
    if os.environ.get("HKK_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HKK_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    executable = _chromium()
    if executable is None:
        _unavailable("no chromium browser (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Page:
    """A page opened from a file, with every console error and page error collected."""

    def __init__(self, browser: Any, path: Path, screenshot: Path) -> None:
        self.errors: list[str] = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # offline: any request leaving the file is an error
        self.page.route("http*://**", lambda route: (self.errors.append(route.request.url),
                                                     route.abort()))
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")
        self.screenshot = screenshot

    def cells(self, selector: str) -> list[list[str]]:
        return self.page.eval_on_selector_all(
            f"{selector} tbody tr",
            "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")

    def close(self) -> None:
        self.page.screenshot(path=str(self.screenshot), full_page=False)
        self.page.close()


def test_simulate_report_page_shows_the_summary(browser: Any, tmp_path: Path) -> None:
    report, summary_file = tmp_path / "report.html", tmp_path / "summary.json"
    result = CliRunner().invoke(main, ["simulate", "-n", "12", "--set", "alap", "-w", "1",
                                       "--json", str(summary_file), "--html", str(report)])
    assert result.exit_code == 0, result.output
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    page = Page(browser, report, tmp_path / "report.png")
    try:
        assert page.cells("#pairings") == [
            [p["decks"][0], p["decks"][1], str(p["games"]), str(p["wins_1"]), str(p["wins_2"]),
             str(p["draws"]), rate(p["win_rate_1"]["rate"]),
             f"{rate(p['win_rate_1']['ci_low'])} – {rate(p['win_rate_1']['ci_high'])}",
             str(p["mean_turns"])]
            for p in summary["pairings"]]
        assert page.cells("#cards") == [
            [c["card"], c["name"], str(c["played"]), str(c["games_played"]),
             rate(c["win_rate_played"]), str(c["games_unplayed"]), rate(c["win_rate_unplayed"]),
             str(c["fired"]), str(c["used"])] for c in summary["cards"]]
        # the charts show the summary's numbers
        decks = summary["matrix"]["decks"]
        assert page.cells("#matrix") == [
            [deck, *(rate(v) for v in row)]
            for deck, row in zip(decks, summary["matrix"]["win_rate"], strict=True)]
        hist = page.page.eval_on_selector_all(
            "#turns .column", "cs => cs.map(c => [Number(c.dataset.turns), Number(c.dataset.games)])")
        counts = {int(t): n for t, n in summary["turns"]["histogram"].items()}
        assert hist == [[t, counts.get(t, 0)] for t in range(min(counts), max(counts) + 1)]
        # sorting the card table by "played", descending after two clicks
        heading = page.page.locator("#cards th", has_text="played").first
        heading.click()
        heading.click()
        played = [int(row[2]) for row in page.cells("#cards")]
        assert played == sorted(played, reverse=True)
        assert page.errors == []
    finally:
        page.close()
    assert (tmp_path / "report.png").stat().st_size > 0


def test_simulate_report_page_is_small_and_loads_no_plotting_library(tmp_path: Path) -> None:
    """12 games: the page is its tables and charts, some 100 KB (plotly.js inlined made it
    4.9 MB); every rate with three decimals."""
    report = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["simulate", "-n", "12", "--set", "alap", "-w", "1",
                                       "--html", str(report)])
    assert result.exit_code == 0, result.output
    html = report.read_text(encoding="utf-8")
    assert len(html.encode()) < 300_000
    assert "plotly" not in html.lower() and html.count("<script") == 2  # the JSON, the sorting
    rates = re.findall(r"<td>(0\.\d+|1\.\d+)</td>", html)
    assert rates and all(len(r) == 5 for r in rates), sorted(set(rates))[:5]


def test_report_rates_have_three_decimals() -> None:
    assert [rate(v) for v in (0.5, 0.3, 0.8333, 1.0, 0.0, None, -0.25)] == \
        ["0.500", "0.300", "0.833", "1.000", "0.000", "", "-0.250"]


def test_gallery_page_lists_every_card_of_the_set(browser: Any, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["gallery", "alap", "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    cards = json.loads(CliRunner().invoke(main, ["cards", "--set", "alap", "--output-format", "json"]).output)
    page = Page(browser, tmp_path / "site" / "index.html", tmp_path / "gallery.png")
    try:
        shown = page.page.eval_on_selector_all(
            "section.card", "cs => cs.map(c => [c.dataset.id, c.querySelector('.name')"
            ".textContent, (c.querySelector('.text') || {textContent: ''}).textContent])")
        assert shown == [[c["id"], c["name"], c["text"] or ""] for c in cards]
        # each card's image (site/cards/, drawn from its data) is shown
        images = page.page.eval_on_selector_all(
            "section.card", "cs => cs.map(c => { const i = c.querySelector('img.face');"
            " return i && i.complete && i.naturalWidth > 0 ? i.getAttribute('src') : null; })")
        assert images == [f"cards/{c['id'].replace(':', '-')}.svg" for c in cards]
        # a creature's stats and a deck that holds it
        first = next(c for c in cards if c["kind"] == "creature")
        summary = page.page.locator(f"section[data-id='{first['id']}'] .summary").text_content()
        assert f"{first['damage']}/{first['hp']}" in summary
        decks = page.page.locator(f"section[data-id='{first['id']}'] .decks").text_content()
        assert decks.startswith("in alap:")
        assert page.errors == []
    finally:
        page.close()


def test_game_page_shows_the_timeline_and_the_board(browser: Any, tmp_path: Path) -> None:
    html, log = tmp_path / "game.html", tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", "--seed", "3", "--decks", "alap:tuz", "alap:viz",
                                       "-q", "--html", str(html), "--json", str(log)])
    assert result.exit_code == 0, result.output
    events = json.loads(log.read_text(encoding="utf-8"))
    page = Page(browser, html, tmp_path / "game.png")
    try:
        p = page.page
        turns = [e for e in events if e["kind"] == "turn_started"]
        assert p.locator("#timeline .turn").count() == len(turns)
        assert p.locator("#timeline .step").count() == \
            sum(e["kind"] == "step_started" for e in events)
        assert p.locator("#timeline .k-hp_check").count() == \
            sum(e["kind"] == "hp_check" for e in events)
        assert p.locator("#timeline .k-died").count() == sum(e["kind"] == "died" for e in events)
        # the board after the first creature entered play shows it
        entered = next(e for e in events if e["kind"] == "entered_play")
        p.locator(f"#timeline .ev[data-index='{entered['seq']}']").click()
        perms = page.cells("#permanents-table")
        assert any(row[0] == str(entered["uid"]) for row in perms)
        # after the last event: each player's Ép as the log's last damage and the heals after
        # it left it
        p.locator("#slider").fill(str(len(events) - 1))
        players = [row for row in page.cells("#players-table") if row]
        for index in (0, 1):
            hits = [e for e in events if e["kind"] == "player_damaged" and e["player"] == index]
            if hits:
                healed = sum(e["amount"] for e in events[hits[-1]["seq"]:]
                             if e["kind"] == "player_healed" and e["player"] == index)
                assert players[index][1] == str(hits[-1]["after"] + healed)
        assert page.errors == []
    finally:
        page.close()


def _engine_boards(game: Any) -> list[Any]:
    """The engine's own board after every event, as JSON would carry it."""
    boards: list[Any] = []
    game.log.subscribe(lambda event: boards.append(json.loads(json.dumps(game.snapshot()))))
    return boards


def _page_board(board: dict[str, Any]) -> dict[str, Any]:
    """A board of the page without the names and uids it adds to each permanent."""
    perms = {uid: {k: v for k, v in p.items() if k not in ("name", "uid")}
             for uid, p in board["permanents"].items()}
    return {**board, "permanents": perms}


@pytest.mark.slow
def test_game_page_boards_are_the_engines_at_every_event_forward_and_back(
        browser: Any, tmp_path: Path) -> None:
    """Issue 24.7: the page holds whole boards only at turn starts and rebuilds the others from
    each event's changes; stepping through it (forwards, then backwards and at random) shows
    the engine's board after every event, mid-turn ones included, in the data and the tables."""
    import random

    from hkk import Engine
    from hkk._html import GameRecorder
    from hkk._runner import play_game

    engine = Engine.installed()
    game = engine.new_game([engine.deck("alap:tuz"), engine.deck("alap:viz")], seed=3)
    recorder = GameRecorder(game)
    expected = _engine_boards(game)
    play_game(game)
    full = [i for i, e in enumerate(recorder.events) if "board" in e]
    assert len(full) == game.turn + 1, "a whole board at the start and at each turn's start"
    (tmp_path / "game.html").write_text(recorder.page("boards"), encoding="utf-8")
    page = Page(browser, tmp_path / "game.html", tmp_path / "boards.png")
    try:
        p = page.page
        forward = p.evaluate("() => data.events.map((_, i) => JSON.stringify(boardAt(i)))")
        assert len(forward) == len(expected)
        for i, text in enumerate(forward):
            assert _page_board(json.loads(text)) == expected[i], f"board after event {i}"
        order = list(reversed(range(len(expected))))[::7] + random.Random(1).sample(
            range(len(expected)), 300)
        shown = p.evaluate("order => order.map(i => JSON.stringify(boardAt(i)))", order)
        for i, text in zip(order, shown, strict=True):
            assert _page_board(json.loads(text)) == expected[i], f"board after event {i}"
        # mid-turn, clicked in the timeline: the tables show the engine's board of that event,
        # one that differs from its turn's first board
        mid = next(i for i, e in enumerate(recorder.events)
                   if e["kind"] == "player_damaged" and e["turn"] > 3
                   and expected[i] != expected[max(f for f in full if f <= i)])
        p.locator(f"#timeline .ev[data-index='{mid}']").click()
        board = expected[mid]
        players = page.cells("#players-table")
        assert [row[1:] for row in players] == [
            [str(q["hp"]), str(q["vp"]), str(q["components"]), str(len(q["hand"])),
             str(q["deck"]), str(len(q["graveyard"]))] for q in board["players"]]
        assert [row[0] for row in page.cells("#permanents-table")] == \
            [str(uid) for uid in sorted(map(int, board["permanents"]))]
        assert page.errors == []
    finally:
        page.close()


def test_game_page_holds_less_board_than_events() -> None:
    """Issue 24.7: the page holds the boards at turn starts and each event's changes, not a
    board after every event; what it holds of boards is less than its events (it was 6 times
    as much), and it grows with the game, not with the game times the board."""
    from hkk import Engine
    from hkk._html import GameRecorder
    from hkk._runner import play_game

    engine = Engine.installed()
    game = engine.new_game([engine.deck("alap:tuz"), engine.deck("alap:viz")], seed=3)
    recorder = GameRecorder(game)
    play_game(game)
    boards = len(json.dumps(recorder.boards)) + sum(
        len(json.dumps(e.get("changes", []))) for e in recorder.events)
    events = sum(len(json.dumps({k: v for k, v in e.items() if k != "changes"}))
                 for e in recorder.events)
    assert boards < events / 2
    assert len(recorder.boards) == game.turn + 1


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=12),
       st.data())
def test_board_changes_turn_one_board_into_the_next(old: Any, data: Any) -> None:
    """Issue 24.7: what the page applies between two boards makes the second from the first
    (here applied as the page's script does: set at a path, or remove a key)."""
    from hkk._html import board_changes

    new = data.draw(st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.just(old),
        lambda inner: st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=12))
    board = copy.deepcopy(old)
    for change in board_changes(old, new):
        path = change[0]
        if not path:
            board = change[1]
            continue
        place = board
        for key in path[:-1]:
            place = place[key]
        if len(change) == 1:
            del place[path[-1]]
        else:
            place[path[-1]] = change[1]
    assert board == new
    assert board_changes(new, new) == []


#: Strings that have broken pages elsewhere: comment and script delimiters, CDATA, entities,
#: quotes, JavaScript line separators, template braces, emoji codes (issue 24.3).
AWKWARD = ["<!-- a", "--> b", "</script><b>x</b>", "<script>alert(1)</script>", "]]> c",
           "&amp; &lt;", "\"quoted\" 'single'", "line\u2028sep\u2029par", "{{ data }}",
           ":skull: 💀", "back\\slash"]


def test_page_data_json_round_trips_every_awkward_string_and_holds_no_markup() -> None:
    from hkk._html import _data_json

    data = {"names": AWKWARD, AWKWARD[0]: AWKWARD[2]}
    text = str(_data_json(data))
    assert json.loads(text) == data
    for marker in ("<", ">", "&"):
        assert marker not in text


def _awkward_game() -> Any:
    from hkk import Engine

    from helpers import cards, creature

    defs = [creature(f"odd{i}", 1, 2, name=name) for i, name in enumerate(AWKWARD)]
    engine = Engine(cards(*defs))
    deck = [d["id"] for d in defs] * 2
    return engine.new_game([deck, list(reversed(deck))], seed=5)


def test_game_and_gallery_pages_show_cards_named_with_every_awkward_string(
        browser: Any, tmp_path: Path) -> None:
    from hkk._html import GameRecorder, card_entries, gallery_page

    game = _awkward_game()
    recorder = GameRecorder(game)
    game.play()
    entered = [e for e in recorder.events if e["kind"] == "entered_play"]
    assert entered, "the test game must put an awkward card into play"
    (tmp_path / "game.html").write_text(recorder.page("<!-- title"), encoding="utf-8")
    page = Page(browser, tmp_path / "game.html", tmp_path / "awkward-game.png")
    try:
        frames = {"step_started", "step_ended", "turn_started", "turn_ended"}
        assert page.page.locator("#timeline .ev").count() == sum(
            e["kind"] not in frames for e in recorder.events)
        first = entered[0]
        shown = page.page.locator(f"#timeline .ev[data-index='{first['seq']}']").text_content()
        assert first["text"] in shown
        assert page.errors == []
    finally:
        page.close()
    card_defs = sorted(game.cards.values(), key=lambda c: c.id)
    (tmp_path / "gallery.html").write_text(gallery_page("tt", "<!-- set", card_entries(
        card_defs, {})), encoding="utf-8")
    page = Page(browser, tmp_path / "gallery.html", tmp_path / "awkward-gallery.png")
    try:
        names = page.page.eval_on_selector_all("section.card .name",
                                               "ns => ns.map(n => n.textContent)")
        assert names == [c.name for c in card_defs]
        assert page.errors == []
    finally:
        page.close()
