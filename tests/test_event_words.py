"""A player's log in words and the game-over summary (hkk._event_words), on whole games'
logs: one sentence for each event a player cares about, none for the engine's bookkeeping, the
other player's draws never named; the summary's numbers are the log's."""

from __future__ import annotations

import pytest

from hkk import Engine
from hkk._agents import RandomAgent
from hkk._event_words import EventWords, game_summary


@pytest.fixture(scope="module")
def game():
    engine = Engine.installed(allow=["alap"])
    played = engine.new_game(["alap:tuz", "alap:viz"], [RandomAgent(seed=1), RandomAgent(seed=2)],
                             seed=7, names=["Anna", "Béla"])
    played.play()
    return played


def test_each_card_played_attack_and_death_is_one_sentence_in_the_players_words(game):
    view = game.view(0)
    words = EventWords(view.cards, ["Anna", "Béla"], 0)
    said = {e.seq: words.sentence(e) for e in view.log}
    log = list(view.log)
    for e in log:
        if e.kind == "card_played":
            who = "You play" if e.player == 0 else "Béla plays"
            assert said[e.seq] == f"{who} {view.cards[e.card].name} ({e.vp} VP)."
        elif e.kind == "player_damaged":
            who = "You take" if e.player == 0 else "Béla takes"
            assert said[e.seq] == f"{who} {e.amount} damage (Ép {e.after})."
        elif e.kind == "died":
            assert said[e.seq].endswith(f"{view.cards[e.card].name} dies.")
        elif e.kind in ("step_started", "step_ended", "moment", "hp_check", "decision",
                        "resolving", "clock_closed", "became_active", "turn_ended"):
            assert said[e.seq] is None, e
    attacks = [said[e.seq] for e in log if e.kind == "attack"]
    assert attacks and all(" attack: " in text for text in attacks)
    assert any("blocked by" in text for text in attacks)


def test_the_other_players_draws_are_never_named(game):
    view = game.view(0)
    sentences = EventWords(view.cards, ["Anna", "Béla"], 0).sentences(view.log)
    drawn = [s["text"] for s in sentences if s["kind"] == "card_drawn"]
    ours = [e for e in view.log if e.kind == "card_drawn" and e.player == 0]
    assert len(drawn) == len(ours) and all(text.startswith("You draw ") for text in drawn)


def test_the_summary_counts_the_cards_played_and_the_damage_the_log_holds(game):
    log = list(game.log)
    summary = game_summary(log, ["Anna", "Béla"], 0)
    assert summary["turns"] == game.turn
    for seat in (0, 1):
        assert summary["players"][seat]["played"] == sum(
            1 for e in log if e.kind == "card_played" and e.player == seat)
    # every point of damage a player took is counted for one of the two dealers
    to_players = sum(e.amount for e in log if e.kind == "player_damaged")
    assert sum(p["damage_to_player"] for p in summary["players"]) == to_players > 0
    # combat damage counts for the controller of the creature that dealt it
    owners = {e.uid: e.controller for e in log if e.kind == "entered_play"}
    by_creatures = [0, 0]
    for e in log:
        if e.kind == "damaged" and e.source_uid in owners:
            by_creatures[owners[e.source_uid]] += e.amount
    for seat in (0, 1):
        assert summary["players"][seat]["damage_to_permanents"] >= by_creatures[seat]
    winner = game.winner
    head = "Draw" if winner is None else "You win" if winner == 0 else "Béla wins"
    assert summary["ended"].startswith(head + ": ")


class _Event(dict):
    """An event of a hand-made log: its fields as attributes, as hkk.Event has them."""

    def __getattr__(self, name):
        return self.get(name)


def test_damage_counts_for_the_controller_of_its_source_else_the_spells_player():
    log = [_Event(kind="entered_play", turn=1, uid=1, controller=0, card="alap:tuzmano"),
           _Event(kind="entered_play", turn=2, uid=2, controller=1, card="alap:zsoldos"),
           # P1's creature hits P2, P2's creature hits P1's creature
           _Event(kind="player_damaged", turn=3, player=1, amount=2, source="alap:tuzmano#1"),
           _Event(kind="damaged", turn=4, uid=1, amount=3, source="alap:zsoldos#2",
                  source_uid=2),
           # P2's spell (no permanent) hits P1; P1's creature's ability ("card#uid:index")
           # hits his own creature
           _Event(kind="card_played", turn=4, player=1, card="alap:tuzlabda"),
           _Event(kind="player_damaged", turn=4, player=0, amount=3, source="alap:tuzlabda"),
           _Event(kind="damaged", turn=5, uid=1, amount=1, source="alap:tuzmano#1:0"),
           # a source nobody played: for the victim's opponent
           _Event(kind="player_damaged", turn=5, player=0, amount=4, source="rules"),
           _Event(kind="game_over", turn=5, winner=0, reason="hp")]
    summary = game_summary(log, ["A", "B"], 0)
    assert [(p["damage_to_player"], p["damage_to_permanents"], p["played"])
            for p in summary["players"]] == [(2, 1, 0), (7, 3, 1)]
    assert summary == {**summary, "turns": 5, "ended": "You win: B's Ép fell to 0"}
