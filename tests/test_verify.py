"""hkk.verify: the checks of ``hkk verify`` as a library function.

``fake_set`` installs a throw-away set for one test by putting a package and its ``.dist-info``
on ``sys.path`` (discovery finds it through its entry point, as it would a pip-installed set);
test_cli.py uses it too.
"""

from __future__ import annotations

import itertools
import sys
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from hkk.verify import MIX_COPIES, deck_specs, play_command, resolve_deck_spec, verify

_counter = itertools.count()

CARDS = '''
[[cards]]
id = "{code}:baka"
name = "Baka"
kind = "creature"
cost = {{ vp = 1 }}
damage = 1
hp = 2

[[cards]]
id = "{code}:vezer"
name = "Vezér"
kind = "creature"
cost = {{ vp = 2 }}
damage = 2
hp = 3

[[cards.abilities]]
kind = "automatic"
timing = "end_stage2"
effect = {{ do = "heal", amount = 1, target = "controller" }}
'''

DECK = '''
[[decks]]
name = "start"
[decks.cards]
"{code}:baka" = 12
"{code}:vezer" = 8
'''


def write_set(root: Path, code: str, *, cards: str = CARDS, decks: str | None = DECK,
              python: str = "", depends: tuple[str, ...] = (), requires: str = ">=2.0,<3",
              requires_dist: str = "hkk>=0.1") -> str:
    """A set package plus the .dist-info that makes it installed for whoever has ``root`` on
    sys.path.  Returns the package name."""
    package = f"hkkfake_{code}_{next(_counter)}_{abs(hash(str(root))) % 10**6}"
    pkg = root / package
    (pkg / "cards").mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(python), encoding="utf-8")
    (pkg / "set.toml").write_text(
        f'[set]\ncode = "{code}"\nname = "{code}"\nversion = "1.0"\nrequires = "{requires}"\n'
        f'depends = {list(depends)!r}\npython = {str(bool(python.strip())).lower()}\n'
        .replace("'", '"'), encoding="utf-8")
    (pkg / "cards" / "cards.toml").write_text(cards.format(code=code), encoding="utf-8")
    if decks is not None:
        (pkg / "decks").mkdir()
        (pkg / "decks" / "decks.toml").write_text(decks.format(code=code), encoding="utf-8")
    info = root / f"hkk_set_{code}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: hkk-set-{code}\n"
                                   f"Version: 1.0\nRequires-Dist: {requires_dist}\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[hkk.sets]\n{code} = {package}\n",
                                           encoding="utf-8")
    return package


@pytest.fixture
def fake_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """``fake_set("xx", **options)``: installs set ``xx`` for this test only."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    packages: list[str] = []

    def make(code: str, **options: Any) -> str:
        packages.append(write_set(root, code, **options))
        return packages[-1]
    yield make
    for name in list(sys.modules):
        if any(name == p or name.startswith(p + ".") for p in packages):
            del sys.modules[name]


# -- the installed sets ------------------------------------------------------------------------

def test_installed_sets_pass_with_coverage_and_determinism():
    report = verify(["alap"], games=2)
    assert report.ok, [c.headline() for c in report.failures]
    names = {(c.name, c.target) for c in report.checks}
    assert {("discovery", "alap"), ("packaging", "alap"), ("games", "alap"),
            ("determinism", "alap")} <= names
    assert report.games_played >= 2
    coverage = report.coverage["alap"]
    assert coverage.played and coverage.played <= set(coverage.cards)
    assert all(card.startswith("alap:") for card, _ in coverage.fired)


def test_the_base_set_ships_with_the_engine_and_its_packaging_check_says_so():
    report = verify(["alap"], games=1)
    packaging = [c for c in report.checks if c.name == "packaging" and c.target == "alap"]
    assert [(c.ok, c.message) for c in packaging] == [(True, f"ships with hkk {version('hkk')}")]


def test_unknown_code_fails_naming_it():
    report = verify(["nincsilyen"], games=1)
    assert not report.ok
    assert "set nincsilyen is not installed" in report.failures[0].message


# -- broken sets -------------------------------------------------------------------------------

def test_invalid_card_fails_discovery_naming_set_file_and_field(fake_set):
    fake_set("rossz", cards=CARDS.replace("hp = 2", "hp = 0"))
    report = verify(["rossz"], games=1)
    assert not report.ok
    failure = report.failures[0]
    assert failure.name == "discovery" and failure.set_code == "rossz"
    assert "hkk-set-rossz" in failure.message
    assert "cards/cards.toml: cards[0].hp: Input should be greater than 0" in failure.message
    assert report.games_played == 0


def test_unrelated_broken_set_is_only_a_warning_when_codes_are_given(fake_set):
    fake_set("rossz", cards=CARDS.replace("hp = 2", "hp = 0"))
    fake_set("jo")
    report = verify(["jo"], games=1)
    assert report.ok
    assert [w.set_code for w in report.warnings if w.name == "discovery"] == ["rossz"]


def test_incompatible_engine_requirement_fails(fake_set):
    fake_set("regi", requires=">=0.1,<1", requires_dist="hkk<0.1")
    report = verify(["regi"], games=1)
    assert any("requires hook API >=0.1,<1" in c.message for c in report.failures)


def test_exception_in_a_hook_names_set_card_seed_and_command(fake_set):
    fake_set("hibas", python='''
        from hkk import hookimpl

        @hookimpl
        def end_stage2(game):
            if game.turn >= 3:
                raise ZeroDivisionError("oops")
    ''')
    report = verify(["hibas"], games=2, seed=40)
    games = [c for c in report.failures if c.name == "games" and c.target == "hibas"]
    assert [c.seed for c in games] == [40, 41]
    assert any(c.target == "all" for c in report.failures)  # with every set together too
    first = games[0]
    assert first.set_code == "hibas"
    assert "ZeroDivisionError: oops" in first.message and "end_stage2" in first.message
    assert first.command.startswith("hkk play --seed 40 --decks hibas:start hibas:start")
    assert "--set" in first.command  # alap and mereg are installed too: pin the sets


def test_nondeterministic_set_fails_the_determinism_check(fake_set):
    fake_set("szeszely", python='''
        import random
        from hkk import hookimpl, Pending

        _whim = random.SystemRandom()  # outside the game: no seed makes it the same

        @hookimpl
        def end_stage2(game):
            if _whim.random() < 0.5:
                return [Pending("whim", lambda g, i, b: g.gain_vp(g.active, 1, source="whim"))]
            return []
    ''')
    report = verify(["szeszely"], games=1)
    check = next(c for c in report.checks if c.name == "determinism")
    assert not check.ok and check.seed == 0
    assert "different logs from event" in check.message
    assert check.command.startswith("hkk play --seed 0")


def test_missing_custom_effect_is_reported_with_the_card(fake_set):
    fake_set("egyedi", cards=CARDS + '''
[[cards]]
id = "{code}:titok"
name = "Titok"
kind = "spell"
effect = {{ do = "custom", name = "sehol:nincs" }}
''')
    report = verify(["egyedi"], games=0)
    failure = next(c for c in report.failures if c.name == "custom-effects")
    assert failure.card == "egyedi:titok" and "'sehol:nincs'" in failure.message


# -- decks of sets without decks -------------------------------------------------------------

def test_set_without_decks_plays_its_cards_mixed_into_its_dependencies_decks(fake_set):
    fake_set("kieg", decks=None, depends=("alap",))
    report = verify(["kieg"], games=2)
    assert report.ok, [c.headline() for c in report.failures]
    games = next(c for c in report.checks if c.name == "games" and c.target == "kieg")
    assert "alap:tuz+kieg" in games.message and "alap:viz+kieg" in games.message
    assert report.coverage["kieg"].played


def test_deck_specs_and_their_resolution():
    from hkk import Engine

    engine = Engine.installed(allow=["alap"])
    mixed = resolve_deck_spec(engine, "alap:tuz+alap")
    assert len(mixed) == engine.decks["alap:tuz"].size + MIX_COPIES * len(
        [c for c in engine.cards if c.startswith("alap:")])
    with pytest.raises(Exception, match="unknown deck or set 'zzz'"):
        resolve_deck_spec(engine, "zzz")
    assert deck_specs(list(engine.discovery.sets.values())) == ["alap:tuz", "alap:viz"]


def test_play_command_is_a_shell_command():
    assert play_command(17, ["alap:tuz", "alap:viz"]) == \
        "hkk play --seed 17 --decks alap:tuz alap:viz"
    assert play_command(3, ["a:b+c", "a:b"], ["a", "c"], 9) == \
        "hkk play --seed 3 --decks a:b+c a:b --set a --set c --max-turns 9"


def test_junit_xml_has_one_case_per_check_and_the_failures(fake_set):
    fake_set("rossz", cards=CARDS.replace("hp = 2", "hp = 0"))
    report = verify(["rossz"], games=0)
    suite = ET.fromstring(report.junit_xml())
    assert suite.get("tests") == str(len(report.checks))
    failures = suite.findall("testcase/failure")
    assert len(failures) == len(report.failures) >= 1
    assert "hkk verify rossz" in failures[0].text


def test_disabled_set_fails_when_named_and_nothing_to_verify_fails(monkeypatch):
    monkeypatch.setenv("HKK_SETS_DENY", "alap")
    report = verify(["alap"], games=1)
    assert [c.message for c in report.failures] == [
        "set alap is disabled by HKK_SETS_ALLOW / HKK_SETS_DENY or hkk.toml"]
    monkeypatch.setenv("HKK_SETS_ALLOW", "nincs")
    report = verify(games=1)
    assert any("no card sets to verify" in c.message for c in report.failures)


# -- a set's code cannot fool or hang verify (issue 8) ---------------------------------------

LOOPING_EFFECT = '''
    from hkk import hookimpl

    def forever(game, ctx):
        while True:
            pass

    @hookimpl
    def custom_effects():
        return {"{code}:forever": forever}
'''

LOOPING_CARD = CARDS + '''
[[cards.abilities]]
kind = "automatic"
timing = "end_stage2"
effect = {{ do = "custom", name = "{code}:forever" }}
'''


def test_sys_exit_in_a_hook_fails_the_game_naming_the_set(fake_set):
    fake_set("kilepo", python='''
        import sys
        from hkk import hookimpl

        @hookimpl
        def end_stage2(game):
            sys.exit(0)
    ''')
    report = verify(["kilepo"], games=1, seed=5)
    failure = next(c for c in report.failures if c.name == "games" and c.target == "kilepo")
    assert failure.set_code == "kilepo" and failure.seed == 5
    assert "hook end_stage2, set kilepo" in failure.message and "SystemExit: 0" in failure.message


def test_a_game_past_its_time_limit_fails_naming_set_seed_turn_and_step(fake_set):
    fake_set("hurok", cards=LOOPING_CARD, python=LOOPING_EFFECT.replace("{code}", "hurok"))
    report = verify(["hurok"], games=1, seed=3, game_timeout=1.0)
    failure = next(c for c in report.failures if c.name == "games" and c.target == "hurok")
    assert failure.set_code == "hurok" and failure.card == "hurok:vezer" and failure.seed == 3
    assert failure.message.startswith("time limit (turn ")
    assert ", end_stage2): the game ran longer than its time limit of 1 CPU s" in failure.message
    assert ".forever (line " in failure.message  # the set's looping function
    assert failure.command.startswith("hkk play --seed 3 --decks hurok:start hurok:start")


def test_a_broken_invariant_fails_the_game_naming_it(fake_set):
    fake_set("adossag", python='''
        from hkk import hookimpl, Pending

        def overspend(game, item, bound):
            game.players[game.active].vp -= 100  # behind the engine's back

        @hookimpl
        def end_stage2(game):
            return [Pending("overspend", overspend, card_id="adossag:vezer")]
    ''')
    report = verify(["adossag"], games=1, seed=2)
    failure = next(c for c in report.failures if c.name == "games" and c.target == "adossag")
    assert failure.seed == 2 and failure.set_code == "adossag"
    assert failure.message.startswith("invariant broken: invariant not-negative (turn 1, "
                                      "end_stage2): player ")


def test_ctrl_c_stops_verify_with_the_report_so_far(fake_set):
    fake_set("megszakit", python='''
        from hkk import hookimpl

        @hookimpl
        def end_stage2(game):
            raise KeyboardInterrupt
    ''')
    with pytest.raises(KeyboardInterrupt) as info:
        verify(["megszakit"], games=3, seed=7)
    report = info.value.report
    assert not report.ok and report.games_played == 0
    last = report.checks[-1]
    assert (last.name, last.seed, last.set_code) == ("games", 7, "megszakit")
    assert last.message == ("interrupted (turn 1, end_stage2): interrupted in turn 1 "
                            "(end_stage2), hook end_stage2, set megszakit")


def test_a_game_that_cannot_be_interrupted_ends_the_process_saying_where():
    """Where SIGALRM cannot interrupt it (here: not the main thread; also a loop in C), the
    watchdog ends the process with exit code 1 and what it knows - never a silent hang."""
    import subprocess

    script = textwrap.dedent('''
        import threading
        from hkk._limits import time_limit

        def game():
            with time_limit(0.2, lambda: "seed 9, turn 4, main_phase", grace=0.1, wall=0.2):
                while True:
                    pass

        threading.Thread(target=game).start()
    ''')
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1
    assert "a game ran past its time limit of 0.2 s and could not be interrupted" in \
        result.stderr
    assert result.stderr.rstrip().endswith("stopping the process. seed 9, turn 4, main_phase")


def test_the_time_limit_leaves_an_alarm_armed_before_it_running():
    """pytest-timeout and the like use the same SIGALRM timer: a game's limit must not cancel
    theirs."""
    import signal

    from hkk._limits import time_limit

    handler = signal.signal(signal.SIGALRM, lambda *a: None)
    try:
        signal.setitimer(signal.ITIMER_REAL, 500)
        with time_limit(None, wall=1000):  # later than the outer alarm: that one stays as is
            assert 400 < signal.getitimer(signal.ITIMER_REAL)[0] <= 500
        with time_limit(None, wall=0.5):  # earlier: armed for the game, the outer re-armed after
            assert signal.getitimer(signal.ITIMER_REAL)[0] <= 0.5
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 400
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, handler)
