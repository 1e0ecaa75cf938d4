"""The balance report of ``hkk simulate`` (issue 22 item 3): tiers of players over the same
games, the skill gap per deck, how games ended, the warnings, the first player's advantage, and
per card the drawn win rate within one deck and pairing, flagged where it is significant; the
cards never played or never useful.  And: the same report with 1 and 2 workers and with Dask."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_verify import fake_set  # noqa: F401 - the fixture: a throw-away installed set

from hkk import Engine
from hkk._balance import EMPTY_DECK_WARNING, balance, tier_label
from hkk._outcome import Outcome, OutcomeRecorder
from hkk._simulate import pairings, plan, simulate
from hkk.cli import main

BASE_PAIRS = pairings(["alap:tuz", "alap:viz"])


# -- what the recorder adds ----------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 5])
def test_outcome_records_draws_and_what_permanents_did(seed: int) -> None:
    engine = Engine.installed(allow=["alap"])
    game = engine.new_game(["alap:tuz", "alap:viz"], seed=seed)
    recorder = OutcomeRecorder(game.log, seed, ("alap:tuz", "alap:viz"), ("random", "first"))
    game.play()
    o, log = recorder.outcome, game.log
    assert o.agents == ("random", "first")
    controller = {e["uid"]: (e["controller"], e["card"]) for e in log.of_kind("entered_play")}
    acted: list[Counter[str]] = [Counter(), Counter()]
    for e in log.of_kind("attack"):
        for uid in (*e["attackers"], *e["blockers"]):
            if uid is not None:
                acted[controller[uid][0]][controller[uid][1]] += 1
    for e in log.of_kind("damaged"):
        if e["source_uid"] is not None:
            who, card = controller[e["source_uid"]]
            acted[who][card] += 1
    for e in log.of_kind("player_damaged"):
        uid = int(e["source"].split("#")[1].split(":")[0]) if "#" in (e["source"] or "") \
            else None
        if uid is not None:
            acted[controller[uid][0]][controller[uid][1]] += 1
    for player in (0, 1):
        assert o.drawn[player] == Counter(e["card"] for e in log.of_kind("card_drawn")
                                          if e["player"] == player)
        assert sum(o.drawn[player].values()) >= 5  # the opening hand counts as drawn
        assert o.acted[player] == acted[player]
    assert sum(o.acted[0].values()) + sum(o.acted[1].values()) > 0
    again = Outcome.from_row(json.loads(json.dumps(o.as_row())))
    assert again == o


# -- the report, from outcomes made by hand ---------------------------------------------------------

def _game(seed: int, winner: int | None, reason: str = "hp", drawn: tuple[str, ...] = (),
          decks: tuple[str, str] = ("A", "B"), agents: tuple[str, str] | None = ("x", "x"),
          played: tuple[str, ...] = (), fired: tuple[str, ...] = (), first: int = 0) -> Outcome:
    o = Outcome(seed, decks, winner=winner, reason=reason, turns=10, first=first, agents=agents)
    o.drawn[0].update(drawn)
    o.played[0].update(played)
    o.fired[0].update(fired)
    return o


DECKS = {"A": ["a", "a", "b", "s"], "B": ["c"] * 4}


def test_drawn_win_rate_is_within_one_deck_and_pairing_and_flags_a_real_difference() -> None:
    # deck A wins the 30 games it drew "a" and loses the 30 it did not; "b" is drawn every
    # other game, whatever the result
    games = [_game(i, 0, drawn=("a", "b") if i % 2 else ("a",)) for i in range(30)] + \
        [_game(30 + i, 1, drawn=("b",) if i % 2 else ()) for i in range(30)]
    report = balance(games, DECKS, {"a": "Ace"})
    rows = {(r["deck"], r["card"]): r for r in report["cards"]}
    a = rows[("A", "a")]
    assert (a["name"], a["tier"], a["opponent"], a["seat"]) == ("Ace", "x", "B", "1")
    assert (a["win_rate_drawn"]["wins"], a["win_rate_drawn"]["games"]) == (30, 30)
    assert (a["win_rate_not_drawn"]["wins"], a["win_rate_not_drawn"]["games"]) == (0, 30)
    assert a["drawn"] == 30 and a["difference"] == 1.0 and a["significant"]
    assert a["p_value"] < 1e-10 and a["q_value"] < 0.05
    b = rows[("A", "b")]
    assert b["win_rate_drawn"]["rate"] == b["win_rate_not_drawn"]["rate"] == 0.5
    assert not b["significant"]
    assert [(r["deck"], r["card"]) for r in report["flagged"]] == [("A", "a")]
    # the other deck's rows are its own: B never drew anything here
    assert rows[("B", "c")]["win_rate_drawn"]["games"] == 0
    assert rows[("B", "c")]["difference"] is None and not rows[("B", "c")]["significant"]


def test_a_mirror_pools_both_seats_and_a_moderate_effect_is_found_there() -> None:
    # a mirror of 100 games: seat 1 draws "a" in the first 50, seat 2 in the others; the
    # player who drew it wins 30 of 50.  Per seat that is 0.6 vs 0.4 at 50 games each
    # (Fisher p = 0.07, not flagged); both seats pooled, 100 games each, p = 0.007
    games = []
    for i in range(100):
        holder = 0 if i < 50 else 1
        won = holder if i % 50 < 30 else 1 - holder
        o = Outcome(i, ("A", "A"), winner=won, reason="hp", turns=9, first=0,
                    agents=("x", "x"))
        o.drawn[holder].update(["a"])
        o.played[holder].update(["a"] if i % 5 else [])
        games.append(o)
    report = balance(games, {"A": ["a", "b"]})
    rows = [r for r in report["cards"] if r["card"] == "a"]
    assert len(rows) == 1 and rows[0]["seat"] == "1+2"
    row = rows[0]
    assert row["win_rate_drawn"]["games"] == row["win_rate_not_drawn"]["games"] == 100
    assert (row["win_rate_drawn"]["wins"], row["win_rate_not_drawn"]["wins"]) == (60, 40)
    assert row["p_value"] < 0.01 and row["significant"]
    # ... and its play rate when drawn: played in 80 of the 100 games it was drawn
    assert (row["play_rate_drawn"]["wins"], row["play_rate_drawn"]["games"]) == (80, 100)
    rates = {(r["deck"], r["card"]): r["tiers"]["x"] for r in report["play_rates"]}
    assert rates[("A", "a")] == {"games_drawn": 100, "games_played": 80, "rate": 0.8}


def test_flags_are_corrected_for_the_number_of_cards_tested() -> None:
    # 40 cards of no effect and one, "w", drawn in 37 of the 60 wins and 23 of the 60 losses
    # (p = 0.017): uncorrected it would be flagged; Benjamini-Hochberg over the 41 rows does
    # not flag it
    games = []
    for i in range(120):
        won = i % 2 == 0
        o = Outcome(i, ("A", "B"), winner=0 if won else 1, reason="hp", turns=9, first=0,
                    agents=("x", "x"))
        o.drawn[0].update(f"n{k}" for k in range(40) if (i // 2 + k) % 2)
        if (i // 2) < (37 if won else 23):
            o.drawn[0].update(["w"])
        games.append(o)
    report = balance(games, {"A": ["w"] + [f"n{k}" for k in range(40)], "B": ["c"]})
    w = next(r for r in report["cards"] if r["card"] == "w" and r["deck"] == "A")
    assert w["p_value"] < 0.05 and w["q_value"] >= 0.05
    assert report["flagged"] == []


def test_a_deck_strong_in_one_pairing_does_not_hide_a_card_in_another() -> None:
    # in A vs B deck A always wins, in A vs C it always loses; card "a" is drawn in half of
    # each: within each pairing it makes no difference (pooled, it would look like one)
    games = []
    for i in range(40):
        games.append(_game(i, 0, drawn=("a",) if i % 2 else (), decks=("A", "B")))
        games.append(_game(i, 1, drawn=("a",) if i < 30 else (), decks=("A", "C")))
    rows = [r for r in balance(games, {**DECKS, "C": ["c"]})["cards"]
            if r["card"] == "a" and r["deck"] == "A"]
    assert [(r["opponent"], r["win_rate_drawn"]["rate"], r["win_rate_not_drawn"]["rate"])
            for r in rows] == [("B", 1.0, 1.0), ("C", 0.0, 0.0)]
    assert not any(r["significant"] for r in rows)


def test_tiers_skill_gap_endings_warnings_and_first_player() -> None:
    low, high = ("random", "random"), ("mcts", "mcts")
    games = [_game(i, 0 if i < 3 else 1, agents=low, reason="empty_deck" if i < 2 else "hp",
                   first=0) for i in range(4)] + \
            [_game(i, 0, agents=high, reason="hp", first=1) for i in range(4)]
    report = balance(games, DECKS, tiers=[low, high])
    assert [t["label"] for t in report["tiers"]] == ["random", "mcts"]
    weak, strong = report["tiers"]
    assert weak["pairings"][0]["endings"] == {"hp": 2, "empty_deck": 2, "turn_limit": 0}
    assert weak["pairings"][0]["empty_deck_share"] == 0.5
    assert weak["decks"][0] == {"deck": "A", "wins": 3, "games": 4, "rate": 0.75,
                                "ci_low": weak["decks"][0]["ci_low"],
                                "ci_high": weak["decks"][0]["ci_high"]}
    assert (weak["first_player"]["wins"], strong["first_player"]["wins"]) == (3, 0)
    gap = {row["deck"]: row for row in report["skill_gap"]}
    assert gap["A"]["rates"] == {"random": 0.75, "mcts": 1.0} and gap["A"]["gap"] == 0.25
    assert gap["B"]["gap"] == -0.25
    assert report["warnings"] == [
        "50% of the games under random ended by an empty deck (more than 25%): its win rates "
        "measure deck length more than play"]
    assert EMPTY_DECK_WARNING == 0.25


def test_decks_of_different_sizes_are_warned_about() -> None:
    report = balance([_game(0, 0)], {"A": ["a"] * 30, "B": ["c"] * 34})
    assert report["warnings"] == [
        "decks differ in size: A has 30 cards, B 34; the longer deck wins the games that end by "
        "an empty deck (D-empty-deck)"]


def test_cards_never_played_and_never_useful() -> None:
    games = [_game(0, 0, played=("a", "s", "b"), fired=("b",)),
             _game(1, 1, played=("a",))]
    report = balance(games, DECKS, card_kinds={"s": "spell", "a": "creature", "b": "creature"})
    assert [(r["deck"], r["card"]) for r in report["never_played"]] == [("B", "c")]
    # "a" played twice but never fired, attacked, blocked or dealt damage; "s" is a spell
    assert [(r["card"], r["played"]) for r in report["never_useful"]] == [("a", 2)]


def test_tier_labels() -> None:
    assert tier_label(("mcts:budget=50", "mcts:budget=50")) == "mcts:budget=50"
    assert tier_label(("greedy", "random")) == "greedy vs random"
    assert tier_label(None) == "random (default)"


# -- a planted card (issue 22: "a planted 1-VP 6/6 shows 0.75 played vs 0.79 not played") ------

PLANTED_CARDS = '''
[[cards]]
id = "{code}:baka"
name = "Baka"
kind = "creature"
cost = {{ vp = 1 }}
damage = 1
hp = 2

[[cards]]
id = "{code}:orias"
name = "Óriás"
kind = "creature"
cost = {{ vp = 1 }}
damage = 6
hp = 6
'''

PLANTED_DECKS = '''
[[decks]]
name = "sereg"
[decks.cards]
"{code}:baka" = 18
"{code}:orias" = 2
'''


@pytest.mark.slow
def test_a_planted_strong_card_is_flagged_by_its_drawn_win_rate(
        tmp_path: Path, fake_set: Any) -> None:  # noqa: F811
    """Random players draw their whole 20-card deck (the games end by an empty deck: warned
    about), so the card is drawn in nearly every game and nothing can be told; players who
    play what they draw (``first``) show it: drawn, the deck wins far more often."""
    fake_set("ultet", cards=PLANTED_CARDS, decks=PLANTED_DECKS)
    out = tmp_path / "s.json"
    result = CliRunner().invoke(main, ["simulate", "-n", "240", "-w", "1", "--set", "ultet",
                                       "--decks", "ultet:sereg", "ultet:sereg",
                                       "--tiers", "random,first", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))["balance"]
    rows = [r for r in report["cards"] if r["card"] == "ultet:orias" and r["tier"] == "first"]
    assert [r["seat"] for r in rows] == ["1+2"]  # the mirror's two seats pooled
    for row in rows:
        assert row["significant"], row
        assert row["win_rate_drawn"]["rate"] > row["win_rate_not_drawn"]["rate"]
    assert {(r["card"], r["tier"]) for r in report["flagged"]} == {("ultet:orias", "first")}
    assert any("under random ended by an empty deck" in w for w in report["warnings"])
    assert "Flagged cards" in result.output and "Óriás" in result.output


# -- the same report wherever the games are played ----------------------------------------------------

@pytest.mark.parametrize("workers", [{"workers": 2}, {"dask_workers": 1}], ids=["local", "dask"])
def test_tiers_give_the_same_outcomes_with_1_and_2_workers_and_dask(
        workers: dict[str, int]) -> None:
    if "dask_workers" in workers:
        pytest.importorskip("distributed")
    tiers = [("random", "random"), ("first", "random:pass_bias=0.5")]
    chunks = plan(["alap"], BASE_PAIRS, 6, chunk_size=2, agents=tiers)
    serial = simulate(chunks, workers=1)
    other = simulate(chunks, **workers)
    assert serial.outcomes == other.outcomes
    assert [o.agents for o in serial.outcomes] == [tiers[0]] * 6 + [tiers[1]] * 6
    # the same seeds under each tier
    assert [o.seed for o in serial.outcomes[:6]] == [o.seed for o in serial.outcomes[6:]]
    lists = {"alap:tuz": [], "alap:viz": []}
    assert balance(serial.outcomes, lists, tiers=tiers) == \
        balance(other.outcomes, lists, tiers=tiers)


def test_simulate_tiers_command_prints_and_writes_the_report(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = CliRunner().invoke(main, ["simulate", "-n", "4", "-w", "1", "--set", "alap",
                                       "--tiers", "random,first", "--json", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert summary["games"] == 8 and summary["meta"]["tiers"] == [["random", "random"],
                                                                  ["first", "first"]]
    report = summary["balance"]
    assert [t["label"] for t in report["tiers"]] == ["random", "first"]
    assert [row["deck"] for row in report["skill_gap"]] == ["alap:tuz", "alap:viz"]
    for words in ("Tiers: P1 win rate", "Skill gap", "warning: decks differ in size"):
        assert words in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--tiers", "random,nobody"], "no agent 'nobody'"),
    (["--tiers", "random,random"], "named twice"),
    (["--agents", "random", "random:nope=1"], "has no option 'nope'"),
    (["--agents", "random", "mcts:nope=1"], "agent 'mcts' has no option 'nope'"),
    (["--agents", "random", "random", "--tiers", "random"], "exclude each other"),
])
def test_simulate_bad_agents_or_tiers_exit_2_before_any_game(args: list[str],
                                                             message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "-w", "1", "--set", "alap", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_searching_agents_play_in_small_chunks() -> None:
    """A game of a searching agent takes seconds: 2 games a chunk keep the workers busy to the
    end (the results never depend on the chunk size, test_simulate.py)."""
    from hkk._simulate_cli import SEARCHING_CHUNK_SIZE, _chunk_size

    assert _chunk_size([None], 25) == _chunk_size([("random", "first")], 25) == 25
    assert _chunk_size([("random", "random"), ("greedy", "greedy")], 25) == SEARCHING_CHUNK_SIZE
