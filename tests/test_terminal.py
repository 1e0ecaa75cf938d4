"""hkk play --human: what a line of input says, the opponent named on the command line, the
board as the deciding player may know it, and whole games played through piped input and a
pseudo-terminal."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

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
from hkk._saving import load_game
from hkk._terminal import TerminalTable, make_agent, parse_command, seats
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

def test_the_opponent_spec_is_read_by_the_agents_registry_alone():
    """One agent-spec parser (hkk._agent_registry.parse_spec): the terminal has none of its
    own, and its errors are the registry's."""
    import click

    import hkk._terminal as terminal

    assert not [name for name in vars(terminal) if "agent_spec" in name or
                name in ("_builtin", "_builtin_agent", "_number")]
    with pytest.raises(click.BadParameter, match="'Random' is not an agent name"):
        make_agent("Random")


def test_the_opponent_is_made_from_its_spec():
    agent = make_agent("random:pass_bias=0", seed=4)
    assert isinstance(agent, RandomAgent) and agent.pass_bias == 0
    assert agent.rng_state() == RandomAgent(seed=4).rng_state()  # its own RNG, not the game's
    assert isinstance(make_agent("first"), FirstLegalAgent)


@pytest.mark.parametrize(("spec", "says"), [
    ("nobody", r"no agent 'nobody'; .*first, .*random"),
    ("random:depth=3", r"agent 'random' has no option .*depth"),
    ("random:seed", r"'seed' is not key=value")])
def test_an_unknown_opponent_is_a_usage_error_naming_the_known(spec, says):
    import click

    with pytest.raises(click.BadParameter) as error:
        make_agent(spec)
    assert re.search(says, error.value.message, re.I)


def test_human_names_the_seats():
    assert seats("1") == {0} and seats("2") == {1} and seats("both") == {0, 1}


# -- the board as the deciding player may know it ---------------------------------------------

def _game_in_turn(engine, turns=6):
    game = engine.new_game(["alap:tuz", "alap:viz"], [RandomAgent(seed=1), RandomAgent(seed=2)],
                           seed=5)
    game.play(max_turns=turns)
    return game


def test_the_board_shows_both_sides_and_only_the_viewers_hand(engine):
    game = _game_in_turn(engine, 8)  # permanents on both sides
    hurt = game.creatures(0)[0]
    game.damage(hurt, 1)
    board = board_data(game.view(0))
    me, other = board["players"]
    assert board["viewer"] == 0 and board["turn"] == game.turn
    assert [c["id"] for c in me["hand"]] == list(game.players[0].hand)
    assert other["hand"] is None and other["hand_size"] == len(game.players[1].hand)
    assert other["deck_size"] == len(game.players[1].deck)
    in_play = {p["uid"]: (p["card"], p["hp"]) for side in board["players"]
               for p in side["permanents"]}
    assert in_play == {uid: (p.card.id, game.hp(p)) for uid, p in game.permanents.items()}
    assert {p.controller for p in game.permanents.values()} == {0, 1}
    assert in_play[hurt.uid][1] == game.max_hp(hurt) - 1
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
    text = "\n".join(plain(line) for line in card_text_lines(game.view(0)))
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


# -- whole games: piped input, a pseudo-terminal, take-back, save and load --------------------


HKK = shutil.which("hkk", path=str(Path(sys.executable).parent)) or "hkk"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: A game the person answers always with "1" ends in 11 turns (seed 2, random opponent).
GAME = ["play", "--human", "1", "--opponent", "random", "--seed", "2", "--decks", "alap:tuz",
        "alap:viz"]


def _hkk(*args, input):
    return subprocess.run([HKK, *args], input=input, capture_output=True, text=True,
                          check=False, timeout=600)


@pytest.mark.slow
def test_a_whole_game_through_piped_input_is_recorded_and_replays(tmp_path):
    save = tmp_path / "game.json"
    result = _hkk(*GAME, "--save", str(save), input="x\n9\n?\nu\n" + "1\n" * 2000)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"'x' is not understood: choose 1-\d", out)
    assert re.search(r"no option 9: choose 1-\d", out)
    assert "Cards in your hand" in out
    assert "nothing to take back" in out
    assert re.search(r"Game over: P[12] wins after \d+ turns", out)
    assert re.search(r"P1 decides action: .*\n +1  ", out)  # the options, numbered
    replayed = _hkk("replay", str(save), input="")
    assert replayed.returncode == 0 and "all as recorded" in replayed.stdout, replayed.stdout
    data = json.loads(save.read_text())
    assert data["state"]["over"]
    assert any(e["kind"] == "decision" and e["player"] == 0 for e in data["log"])


def test_the_end_of_the_input_ends_cleanly_with_a_message(tmp_path):
    save = tmp_path / "stopped.json"
    result = _hkk(*GAME, "--save", str(save), input="1\n1\n")
    assert result.returncode == 0, result.stderr
    assert "input ended at a decision in turn" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    assert not json.loads(save.read_text())["state"]["over"]  # saved at the decision


def test_the_person_never_sees_the_opponents_drawn_cards():
    out = _hkk(*GAME, input="1\n" * 2000).stdout
    assert re.search(r"P1 draws alap:", out)
    assert not re.search(r"P2 draws alap:", out)
    assert "P2 draws a card" in out


def _drive_pty(args, answers, limit=5000):
    """Run ``hkk ARGS`` on a pseudo-terminal, answering each prompt (``NAME> `` at the end of
    the output) with ``answers(screen)``; returns the exit code and everything it showed."""
    import pty
    import select

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
    proc = subprocess.Popen([HKK, *args], stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True)
    os.close(slave)
    shown, screen = [], ""
    try:
        for _ in range(limit * 50):
            ready, _, _ = select.select([master], [], [], 120)
            if not ready:
                raise AssertionError("no output for 120 s; last: " + screen[-500:])
            try:
                chunk = os.read(master, 65536).decode("utf-8", "replace")
            except OSError:  # EIO: the command ended and the terminal closed
                break
            if not chunk:
                break
            screen += ANSI.sub("", chunk)
            if re.search(r"P[12]> $", screen):
                shown.append(screen)
                os.write(master, (answers(screen) + "\n").encode())
                screen = ""
        shown.append(screen)
    finally:
        os.close(master)
        code = proc.wait(timeout=60)
    return code, shown


def test_a_whole_game_through_a_pseudo_terminal():
    script = iter(["hold on", "?", "1", "u"])

    def answer(screen):
        return next(script, "1")

    code, screens = _drive_pty(GAME, answer)
    assert code == 0, screens[-1][-2000:]
    assert "'hold on' is not understood" in screens[1]
    assert screens[1].rstrip().endswith("P1>")  # the same decision asked again
    assert "Cards in play" in screens[2]
    assert "taken back" in screens[4]
    assert re.search(r"Game over: P[12] wins", screens[-1])
    assert len(screens) > 20  # a whole game, decision by decision


class _Lines(io.StringIO):
    """Input lines for a TerminalTable that note the game at every prompt."""

    def __init__(self, text):
        super().__init__(text)
        self.table = None
        self.seen = []

    def readline(self, *args):
        game = self.table.game
        self.seen.append((game.snapshot(), game.log.as_dicts(), game.decision.player,
                          [o.label for o in game.decision.options]))
        return super().readline(*args)


def _table(engine, lines, seed=2, game=None):
    if game is None:
        game = engine.new_game(["alap:tuz", "alap:viz"], [None, RandomAgent(seed=9)],
                               seed=seed)
    out = io.StringIO()
    table = TerminalTable(game, {0}, Console(file=out, width=200), lines)
    lines.table = table
    return table, out


def test_u_takes_back_the_last_decision_exactly(engine):
    # prompts: 0 (1) 1 (1) 2 (1) 3 (u) -> 2 again (1) -> 3 again (q)
    lines = _Lines("1\n1\n1\nu\n1\nq\n")
    table, _ = _table(engine, lines)
    assert table.run() == "quit"
    seen = lines.seen
    assert seen[4] == seen[2]  # the position before the decision, snapshot and log
    assert seen[5] == seen[3]  # and the same answer gives the same game again
    assert seen[3] != seen[2]


def test_a_game_saved_at_a_decision_loads_at_the_same_decision(engine, tmp_path):
    path = tmp_path / "at.json"
    lines = _Lines(f"1\n1\n1\ns {path}\nq\n")
    table, out = _table(engine, lines)
    assert table.run() == "quit"
    assert f"saved to {path}" in out.getvalue()
    at_save = lines.seen[3]
    loaded = load_game(engine, json.loads(path.read_text()), [None, RandomAgent(seed=9)])
    again = _Lines("q\n")
    _table(engine, again, game=loaded)[0].run()
    assert again.seen[0] == at_save


@pytest.mark.slow
def test_play_load_goes_on_at_the_saved_decision(tmp_path):
    path = tmp_path / "at.json"
    first = _hkk(*GAME, input=f"1\n1\ns {path}\nq\n").stdout
    then = _hkk("play", "--load", str(path), input="q\n").stdout

    def asked(out, at):  # the board and the options, from the rule before them to the prompt
        shown = out[at:].lstrip("─")
        return shown[:shown.index("P1>")]
    assert "P1 decides" in asked(first, first.rindex("─"))
    assert asked(then, then.index("─")) == asked(first, first.rindex("─"))
    done = tmp_path / "done.json"  # played on to the end, the whole game replays
    end = _hkk("play", "--load", str(path), "--save", str(done), input="1\n" * 2000).stdout
    assert re.search(r"Game over: P[12] wins", end)
    assert "all as recorded" in _hkk("replay", str(done), input="").stdout


def test_play_load_refuses_what_is_not_a_save(tmp_path):
    path = tmp_path / "no.json"
    path.write_text("{}")
    result = CliRunner().invoke(main, ["play", "--load", str(path)], input="")
    assert result.exit_code == 2
    assert "not an hkk save" in result.output


@pytest.mark.slow
def test_hot_seat_each_player_decides_from_his_own_view():
    result = _hkk("play", "--human", "both", "--seed", "2", input="1\n" * 2000)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "You play P1 and P2" in out and re.search(r"Game over: P[12] wins", out)
    screens = re.split("─{20,}", out)[1:]  # each from the rule before a decision on
    deciders = [re.search(r"^(P[12]) decides", screen, re.M)[1] for screen in screens]
    assert {"P1", "P2"} <= set(deciders)
    for screen, me in zip(screens, deciders, strict=True):
        other = "P2" if me == "P1" else "P1"
        assert f"\n{me} (you" in screen and f"\n{other} (you" not in screen
    assert re.search(r"^P2> 1$", out, re.M) and re.search(r"^P1> 1$", out, re.M)


@pytest.mark.parametrize("opponent", ["greedy", "mcts:budget=10"])
@pytest.mark.slow
def test_a_whole_game_against_a_searching_agent_of_the_registry(opponent, tmp_path):
    pytest.importorskip("hkk._agent_registry", reason="the agents registry (hkk.agents)")
    save = tmp_path / "game.json"
    game = [*GAME[:3], "--opponent", opponent, *GAME[5:], "--save", str(save)]
    result = _hkk(*game, input="1\n" * 2000)
    assert result.returncode == 0, result.stderr
    over = re.search(r"Game over: (P[12] wins|a draw) after (\d+) turns", result.stdout)
    assert over and int(over[2]) > 2
    seated = json.loads(save.read_text())["agents"]
    assert seated[0]["kind"] == "outside" and opponent.split(":")[0] in seated[1]["name"].lower()
    assert "all as recorded" in _hkk("replay", str(save), input="").stdout


def test_no_auto_answer_without_a_person_is_a_usage_error():
    result = CliRunner().invoke(main, ["play", "--seed", "1", "--no-auto-answer"])
    assert result.exit_code == 2
    assert "--no-auto-answer goes with --human or --load" in result.output


def _options_asked(screen):
    """How many options the decision at the end of a screen offers (None: no decision)."""
    asked = re.findall(r"decides \S+: .*\((\d+) options?\b", screen)
    return int(asked[-1]) if asked else None


def test_lone_options_are_answered_by_themselves_until_a_turns_that_off_and_on():
    said, prompts = [], []

    def answer(screen):
        prompts.append(screen)
        if not said and "(the only option" in "".join(prompts) and len(prompts) > 8:
            said.append("off")
            return "a"
        if said == ["off"] and _options_asked(screen) == 1:
            said.append("on")
            return "a"  # this lone option too is answered now
        return "1"

    code, screens = _drive_pty(GAME, answer)
    assert code == 0, screens[-1][-2000:]
    assert said == ["off", "on"]
    off = next(i for i, s in enumerate(screens) if "lone options are now asked" in s)
    on = next(i for i, s in enumerate(screens) if "lone options are now answered" in s)
    asked = [_options_asked(s) for s in screens]
    # on by default: no lone option asked, each said in a line instead
    assert 1 not in asked[:off] and "(the only option; a: ask for these)" in "".join(screens[:off])
    assert 1 in asked[off:on]  # off: asked like any other
    assert 1 not in asked[on:]  # on again: answered by themselves
    assert re.search(r"Game over: P[12] wins", screens[-1])
