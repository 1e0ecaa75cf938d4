"""``hkk serve``'s page as a table: the cards are the controls, lone options are answered by
themselves, the log is in a player's words, the game ends with a summary.

The table's new fields are tested on the table (what they say, that they name nothing hidden);
the page in headless Chromium through a short game (a set of small decks of alap cards: about
twenty of the person's decisions) played by clicking cards, never the option buttons.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from test_pages import browser  # noqa: F401 - the Chromium fixture of the page tests
from test_serve import TablePage, serve  # noqa: F401 - the server fixture of the page tests
from test_verify import write_set

from hkk._agents import RandomAgent
from hkk._serve import Table
from hkk._serve_watch import CardSets

pytestmark = pytest.mark.xdist_group("chromium")

#: A quick game's deck: eleven alap cards with targets, a player chosen, an ability, a
#: building; both decks run out after a dozen turns.
QUICK = '''
[[decks]]
name = "quick"
[decks.cards]
"alap:tuzmano" = 2
"alap:falusi-milicia" = 2
"alap:tuzlabda" = 2
"alap:langelemental" = 1
"alap:ven-latnok" = 2
"alap:tuzkopo" = 1
"alap:ortorony" = 1
"alap:langcsova" = 1
'''


@pytest.fixture(scope="module")
def sets() -> CardSets:
    return CardSets()


def _table(sets: CardSets, seed: int = 3) -> Table:
    """A table whose computer plays the same moves every run: its agent is seeded from the
    game's seed, not from the operating system's (the server's own choice), so what a test
    finds in the game (a block, a fought attack) does not depend on the run."""
    return Table(sets, ["alap:tuz", "alap:viz"], "random",
                 lambda agent_seed, seat: RandomAgent(seed=seed * 10 + seat), seed=seed)


def _lone(table: Table) -> bool:
    decision = table.game.decision
    return decision is not None and len(decision.options) == 1


# -- the table's new fields --------------------------------------------------------------------

def test_answering_with_auto_stops_only_at_a_choice_and_take_back_returns_to_one(sets):
    table = _table(sets)
    rng = random.Random(4)
    lone_answered = 0
    for _ in range(40):
        decision = table.game.decision
        if decision is None:
            break
        before = table.game.answered
        table.answer(rng.randrange(len(decision.options)), before, auto=True)
        assert not _lone(table)  # never waits at a lone option
        lone_answered += table.game.answered - before - 1
        if table.game.decision is not None and rng.random() < 0.2:
            table.undo(auto=True)
            assert not _lone(table) and table.game.answered <= before
    assert lone_answered > 0  # the game had lone options, answered by themselves


def test_without_auto_the_table_stops_at_lone_options_and_take_back_with_auto_skips_them(sets):
    table = _table(sets)
    for _ in range(200):
        if _lone(table):
            break
        table.answer(0, None)  # pass: the next action decision often has pass alone
    else:
        pytest.fail("no lone option in 200 answers")
    lone = table.state()
    table.answer(0, None)
    table.undo()
    assert table.state() == lone  # taken back to the lone option, as answered
    # answered by itself, a lone option is not kept for take-back ...
    kept = len(table.history)
    table.answer(0, None, auto=True)
    assert len(table.history) == kept
    table.undo()
    assert not _lone(table)
    # ... and taking back with auto skips those that were answered one by one
    table.answer(0, None)
    assert table.state() == lone
    table.answer(0, None)
    table.undo(auto=True)
    assert not _lone(table)


def _hidden_from_p1(table: Table) -> set[str]:
    """The card ids P1 has not seen: the other hand and both decks, less every card that is
    public or his."""
    game = table.game.game
    view = table.game.view()
    seen = {e.card for e in view.log if e.kind in ("card_drawn", "card_played",
                                                    "entered_play") and e.card != "?"}
    public = seen | {p.card.id for p in game.permanents.values()} | set(game.players[0].hand)
    for p in game.players:
        public |= set(p.graveyard) | set(p.void)
    secret = set(game.players[1].hand) | set(game.players[0].deck) | set(game.players[1].deck)
    return secret - public


def test_the_tables_new_fields_name_no_card_of_the_other_hand_or_either_deck(sets):
    table = _table(sets, seed=8)
    rng = random.Random(8)
    checked = 0
    for _ in range(120):
        data = table.state()
        new = {key: data[key] for key in ("events", "attack", "summary", "decision")}
        new["piles"] = [(p["graveyard_cards"], p["void_cards"]) for p in data["players"]]
        text = json.dumps(new, ensure_ascii=False)
        hidden = _hidden_from_p1(table)
        for card_id in hidden:
            name = table.game.game.cards[card_id].name
            assert card_id not in text and name not in text, (card_id, name)
        checked += bool(hidden)
        decision = table.game.decision
        if decision is None:
            break
        table.answer(rng.randrange(len(decision.options)), None, auto=True)
    assert checked > 20


def test_the_combat_shown_is_the_logs_and_a_block_names_its_attacker(sets):
    table = _table(sets, seed=5)
    rng = random.Random(5)
    blocks = fought = 0
    for _ in range(150):
        data = table.state()
        combat, log = data["attack"], list(table.game.view().log)
        if combat is not None and combat["fought"]:
            last = next(e for e in reversed(log) if e.kind == "attack")
            assert combat == {"attackers": list(last.attackers),
                              "blockers": list(last.blockers), "fought": True}
            fought += 1
        elif combat is not None:  # being declared: the attackers chosen since it began
            begun = max(i for i, e in enumerate(log) if e.kind == "resolving"
                        and e.item == "attack")
            chosen = [int(str(e.choice).rsplit("#", 1)[1]) for e in log[begun:]
                      if e.kind == "decision" and str(e.choice).startswith("attack with")]
            assert combat["attackers"] == chosen
        decision = data["decision"]
        if decision is None or blocks >= 2 and fought >= 2:
            break
        if decision["kind"] == "block":
            assert decision["subject"]["uid"] in combat["attackers"]
            blocks += 1
        table.answer(rng.randrange(len(decision["options"])), None, auto=True)
    assert blocks and fought


# -- the page in Chromium ------------------------------------------------------------------------

@pytest.fixture
def quick(tmp_path: Path) -> dict[str, str]:
    """The environment of a server that knows the quick decks (``tbl:quick``)."""
    site = tmp_path / "site"
    site.mkdir()
    write_set(site, "tbl", decks=QUICK, depends=("alap",))
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def _start(serve: Any, quick: dict[str, str], seed: int = 2) -> str:  # noqa: F811
    url: str = serve("--seed", str(seed), "--decks", "tbl:quick", "tbl:quick",
                     "--opponent", "greedy", env=quick)
    return url


class CardClicker:
    """Plays the person's side by clicking the cards an option names (a hand card to play it,
    a creature to target, attack or block with, a player to choose him), and the table's own
    buttons (pass, hold, no block) only for what names no card; never the option list."""

    def __init__(self, page: TablePage, seed: int) -> None:
        self.page = page
        self.rng = random.Random(seed)
        self.clicked: dict[str, int] = {"hand": 0, "board": 0, "player": 0, "table": 0}
        self.seen_lone = 0

    def where(self, state: dict[str, Any], option: dict[str, Any]) -> tuple[str, str] | None:
        data = option["data"]
        uids = {p["uid"] for p in state["permanents"]}
        hand = {c["id"] for c in state["players"][state["you"]]["hand"]}
        if data.get("uid") in uids:
            return "board", f"#board .card.can[data-uid='{data['uid']}']"
        if data.get("word") == "play" and data.get("card") in hand:
            return "hand", f"#hand .card.can[data-card='{data['card']}'] >> nth=0"
        if "player" in data:
            return "player", f".player.can[data-player='{data['player']}']"
        return None

    def step(self) -> None:
        p = self.page.page
        state = self.page.state()
        options = state["decision"]["options"]
        self.seen_lone += len(options) == 1
        placed = [(o, self.where(state, o)) for o in options]
        on_cards = [(o, w) for o, w in placed if w is not None]
        if on_cards:
            option, (kind, selector) = self.rng.choice(on_cards)
            same = [o for o, w in on_cards if w == (kind, selector)]
            if len(same) > 1:  # the card stands for several options: its menu
                p.locator(selector).click()
                selector = f"#menu button[data-index='{option['index']}']"
        else:
            option = self.rng.choice(options)
            kind, selector = "table", f"#actions button[data-index='{option['index']}']"
        self.clicked[kind] += 1
        self.page.click(selector, "/api/answer")
        assert not p.locator("#message").is_visible(), p.locator("#message").inner_text()

    def play_to_the_end(self) -> None:
        for _ in range(300):
            if self.page.page.locator("#winner").is_visible():
                return
            self.step()
        pytest.fail("no end in 300 clicks")


@pytest.mark.slow
def test_a_whole_game_played_by_clicking_cards_ends_with_its_summary(
        browser, serve, quick, tmp_path):  # noqa: F811 - fixtures imported above
    page = TablePage(browser, _start(serve, quick))
    p = page.page
    seen = p.evaluate("""() => { window.seen = 0; window.hkk.onState(() => window.seen++);
                                 return typeof window.hkk.call + typeof window.hkk.act +
                                        window.hkk.token.length; }""")
    assert seen.startswith("functionfunction") and int(seen[16:]) >= 40
    clicker = CardClicker(page, 2)
    for _ in range(6):
        clicker.step()
    assert p.evaluate("window.seen") >= 6  # the hook saw each new position
    # mid-game: each permanent in its zone, the hand's playable cards marked
    state = page.state()
    for perm in state["permanents"]:
        zone = p.locator(f".side[data-controller='{perm['controller']}'] "
                         f".zone[data-zone='{perm['zone']}'] .card[data-uid='{perm['uid']}']")
        assert zone.count() == 1, perm
    p.screenshot(path=str(tmp_path / "table-mid.png"))
    # a card zoomed: its image, its Hungarian text, the engine's reading
    card = p.locator("#board .card, #hand .card").first
    card.hover()
    zoom = p.locator("#zoom")
    zoom.wait_for(state="visible")
    shown = card.get_attribute("data-card")
    info = page.page.evaluate(f"window.hkk.call('GET', '/api/card/{shown}')")
    assert zoom.locator("h3").inner_text().startswith(info["name"])
    assert zoom.locator(".hu").inner_text() == info["text"]
    assert zoom.locator("li").all_inner_texts() == \
        [line for line in info["abilities"] if line != info["text"]]
    p.locator("#zoom img[src^='data:image/svg+xml']").wait_for(state="attached")
    p.screenshot(path=str(tmp_path / "table-zoom.png"))
    p.mouse.move(0, 0)
    clicker.play_to_the_end()
    end = page.state()
    assert clicker.clicked["hand"] >= 2 and clicker.clicked["board"] >= 2, clicker.clicked
    # lone options never waited on the page: the server answered them
    assert clicker.seen_lone == 0
    assert end["answers"] > sum(clicker.clicked.values())
    # the summary: the log's numbers
    summary = end["summary"]
    table = p.locator("#summary")
    assert table.is_visible()
    assert summary["ended"] in table.inner_text() and f"after {summary['turns']} turns" in \
        table.inner_text()
    played = p.locator("#summary tr:has(th:text-is('cards played')) td").all_inner_texts()
    assert played == [str(row["played"]) for row in summary["players"]]
    mine = sum(1 for e in end["events"] if e["text"].startswith("You play "))
    assert summary["players"][0]["played"] == mine > 0
    # the log in words; the engine's trace behind its toggle
    log = p.locator("#log")
    assert log.inner_text().split("\n")[-1] == end["events"][-1]["text"]
    assert "▸" not in log.inner_text()
    p.locator("#trace").check()
    assert [" ".join(text.split()) for text in log.locator("li").all_inner_texts()] == \
        [" ".join(line["text"].split()) for line in end["log"]]
    # a graveyard opened: its cards
    grave = p.locator(".pile.graveyard[data-player='0']")
    grave.click()
    names = p.locator("#pile .card .name").all_inner_texts()
    assert names == end["players"][0]["graveyard"]
    p.screenshot(path=str(tmp_path / "table-graveyard.png"))
    p.locator("#pile-close").click()
    p.screenshot(path=str(tmp_path / "table-over.png"))
    assert page.errors == []
    p.close()


@pytest.mark.slow
def test_with_auto_answer_off_the_page_stops_at_a_lone_option_until_it_is_on(
        browser, serve, quick):  # noqa: F811 - fixtures imported above
    page = TablePage(browser, _start(serve, quick, seed=4))
    p = page.page
    p.locator("#auto-answer").uncheck()
    page.settled()  # a lone first option may have been answered by itself before the uncheck
    for _ in range(100):  # pass, until a lone option is asked
        state = page.state()
        if state["decision"] is None:
            pytest.fail("the game ended without a lone option")
        if len(state["decision"]["options"]) == 1:
            break
        with p.expect_response(lambda r: r.url.endswith("/api/answer")):
            p.keyboard.press("1")  # the keys answer the options as numbered
        page.settled()
    else:
        pytest.fail("no lone option in 100 answers")
    # shown, not answered (an answer by itself would have begun before the page settled)
    page.settled()
    assert page.state()["answers"] == state["answers"]
    assert p.locator("#options button").count() == 1
    # the setting is kept for the next visit
    assert p.evaluate("localStorage.getItem('hkk-auto-answer')") == "off"
    with p.expect_response(lambda r: r.url.endswith("/api/answer")):
        p.locator("#auto-answer").check()
    page.settled()
    after = page.state()
    assert after["answers"] > state["answers"]
    assert after["decision"] is None or len(after["decision"]["options"]) > 1
    assert page.errors == []
    p.close()
