"""hkk play --human: what a line of input says, the opponent named on the command line, the
board as the deciding player may know it, and whole games played through piped input and a
pseudo-terminal."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from hkk import Engine
from hkk._agents import FirstLegalAgent, RandomAgent
from hkk._board import (
    board_data,
    board_lines,
    card_text_lines,
    decision_data,
    decision_lines,
    readable,
)
from hkk._decisions import Decision, Option
from hkk._markup import plain
from hkk._terminal import make_agent, parse_agent_spec, parse_command, seats
from hkk.cli import main


@pytest.fixture(scope="module")
def engine():
    return Engine.installed(allow=["alap"])


# -- a line of input -------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "kind", "index"), [
    ("1\n", "answer", 0), (" 3 ", "answer", 2), ("?", "cards", None), ("u\n", "undo", None),
    ("q", "quit", None)])
def test_a_line_of_input_says_what_it_asks(line, kind, index):
    command = parse_command(line, 3)
    assert (command.kind, command.index) == (kind, index)


def test_s_file_saves_to_the_file_named():
    command = parse_command("s  my game.json \n", 2)
    assert (command.kind, command.path) == ("save", "my game.json")


@pytest.mark.parametrize(("line", "says"), [
    ("0", "no option 0: choose 1-3"), ("4", "no option 4: choose 1-3"),
    ("attack", "'attack' is not understood: choose 1-3"), ("", "nothing typed: choose 1-3"),
    ("-1", "'-1' is not understood"), ("s", "s needs a file: s FILE"),
    ("x" * 40, "'xxxxxxxxxxxxxxxxxxxx…' is not understood")])
def test_bad_input_gets_one_line_saying_what_is_understood(line, says):
    command = parse_command(line, 3)
    assert command.kind == "bad"
    assert says in command.message and "\n" not in command.message


# -- the opponent ----------------------------------------------------------------------------

def test_an_agent_spec_is_a_name_and_its_options():
    assert parse_agent_spec("random") == ("random", {})
    assert parse_agent_spec("random:seed=3, pass_bias=0.5") == (
        "random", {"seed": 3, "pass_bias": 0.5})


def test_the_opponent_is_made_from_its_spec():
    agent = make_agent("random:seed=4,pass_bias=0")
    assert isinstance(agent, RandomAgent) and agent.pass_bias == 0
    assert isinstance(make_agent("first"), FirstLegalAgent)


@pytest.mark.parametrize(("spec", "says"), [
    ("nobody", "no agent 'nobody'; known: first, random"),
    ("random:depth=3", "agent 'random' does not take {'depth': 3}"),
    ("random:seed", "the option 'seed' is not KEY=VALUE")])
def test_an_unknown_opponent_is_a_usage_error_naming_the_known(spec, says):
    import click

    with pytest.raises(click.BadParameter) as error:
        make_agent(spec)
    assert says in error.value.message


def test_human_names_the_seats():
    assert seats("1") == {0} and seats("2") == {1} and seats("both") == {0, 1}


# -- the board as the deciding player may know it ---------------------------------------------

class _StandIn:  # TEMPORARY until the forward model's game.view(player) is on main
    def __init__(self, game, player):
        from types import SimpleNamespace
        self.player, self.turn, self.active, self.cards = player, game.turn, game.active, game.cards
        self.permanents, self.hp, self.max_hp = game.permanents, game.hp, game.max_hp
        self.damage_value, self.log = game.damage_value, list(game.log)
        self.players = [SimpleNamespace(
            name=p.name, hp=p.hp, vp=p.vp, components=p.components,
            hand=tuple(p.hand) if p.index == player else None, hand_size=len(p.hand),
            deck_size=len(p.deck), graveyard=tuple(p.graveyard)) for p in game.players]


def view(game, player):
    return game.view(player) if hasattr(game, "view") else _StandIn(game, player)


def _game_in_turn(engine, turns=3):
    game = engine.new_game(["alap:tuz", "alap:viz"], [RandomAgent(seed=1), RandomAgent(seed=2)],
                           seed=5)
    game.play(max_turns=turns)
    return game


def test_the_board_shows_both_sides_and_only_the_viewers_hand(engine):
    game = _game_in_turn(engine)
    board = board_data(view(game, 0))
    me, other = board["players"]
    assert board["viewer"] == 0 and board["turn"] == game.turn
    assert [c["id"] for c in me["hand"]] == list(game.players[0].hand)
    assert other["hand"] is None and other["hand_size"] == len(game.players[1].hand)
    assert other["deck_size"] == len(game.players[1].deck)
    in_play = {p["uid"]: (p["card"], p["hp"]) for side in board["players"]
               for p in side["permanents"]}
    assert in_play == {uid: (p.card.id, game.hp(p)) for uid, p in game.permanents.items()}
    text = "\n".join(plain(line) for line in board_lines(board))
    hidden = set(game.players[1].hand) - set(game.players[0].hand) - {
        p.card.id for p in game.permanents.values()}
    assert hidden and not any(card in text for card in hidden)  # his hand is not shown
    assert f"hand {len(game.players[1].hand)}" in text


def test_the_options_are_numbered_with_card_names(engine):
    decision = Decision("attack", 0, (Option("attack with alap:langorzo#1"), Option("hold")),
                        rule="D-combat")
    lines = [plain(line) for line in decision_lines(decision_data(decision, engine.cards),
                                                    ["P1", "P2"])]
    name = engine.cards["alap:langorzo"].name
    assert lines[0] == "P1 decides attack (2 options, rule D-combat)"
    assert lines[1].split() == ["1", "attack", "with", *name.split(), "(alap:langorzo)#1"]
    assert lines[2].split() == ["2", "hold"]


def test_readable_names_cards_abilities_and_events(engine):
    name = engine.cards["alap:langorzo"].name
    assert readable("use alap:langorzo#15:0@961", engine.cards) == \
        f"use {name} (alap:langorzo)#15 ability 0 (on event 961)"
    assert readable("player 0 (P1)", engine.cards) == "player 0 (P1)"
    assert readable("no:such-card#3", engine.cards) == "no:such-card#3"


def test_question_mark_shows_the_cards_in_play_and_in_hand_only(engine):
    game = _game_in_turn(engine)
    text = "\n".join(plain(line) for line in card_text_lines(view(game, 0)))
    for card_id in {p.card.id for p in game.permanents.values()} | set(game.players[0].hand):
        assert card_id in text
    hidden = set(game.players[1].hand) - set(game.players[0].hand) - {
        p.card.id for p in game.permanents.values()}
    assert hidden and not any(card in text for card in hidden)


# -- the command line ------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "says"), [
    (["--human", "1", "--json", "-"], "--json cannot be used with --human"),
    (["--human", "3"], "'3' is not one of '1', '2', 'both'"),
    (["--human", "1", "--opponent", "nobody"], "no agent 'nobody'")])
def test_play_human_refuses_what_does_not_go_with_it(args, says):
    result = CliRunner().invoke(main, ["play", *args], input="")
    assert result.exit_code == 2, result.output
    assert says in result.output
