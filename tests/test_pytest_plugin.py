"""pytest-hkk, tested with pytester: the fixtures, the readable log assertions, the generated
``hkk verify`` items and the report header."""

from __future__ import annotations

from pathlib import Path

# Imported here, before pytester snapshots sys.meta_path: importing the importlib_metadata
# backport (which hkk's discovery uses) puts its finder on sys.meta_path and disables the
# stdlib's; first imported inside an in-process run, the finder would be dropped on restore and
# no distribution could be found any more.
import importlib_metadata  # noqa: F401
import pytest

pytest_plugins = ["pytester"]


def test_fixtures_build_script_run_and_assert(pytester):
    pytester.makepyfile('''
        def test_play_from_hand(hkk_game, hkk_script, hkk_run, hkk_log):
            game = hkk_game([{"hand": ["alap:tuzmano"], "vp": 3}, {}],
                            agents=[hkk_script("play alap:tuzmano", only=["action"]), None])
            hkk_run.to(game, "main_phase", inclusive=True)
            log = hkk_log(game)
            log.has("card_played", card="alap:tuzmano", player=0)
            log.in_order("turn_started", ("step_started", {"hook": "main_phase"}),
                         ("entered_play", {"card": "alap:tuzmano", "zone": "reserve"}))
            log.lacks("died")
            assert game.players[0].vp == 3 + 1 - 1  # VP regeneration 1 (29.3), cost 1

        def test_to_stops_before_the_named_step(hkk_game, hkk_run, hkk_log):
            game = hkk_game([{"reserve": ["alap:tuzmano"]}, {}])
            hkk_run.to(game, "end_stage2")
            assert game.step.hook == "end_stage2"
            log = hkk_log(game)
            assert log.count("step_started", hook="end_stage2") == 0
            hkk_run.to(game, "end_stage2", inclusive=True)
            assert log.count("step_started", hook="end_stage2") == 1
            hkk_run.finish_turn(game)
            assert log.count("turn_ended") == 1 and game.active == 1
            hkk_run.turn(game, 2)
            assert game.turn == 3

        def test_zones_and_numbers(hkk_game):
            game = hkk_game([{"buildings": ["alap:kovacsmuhely"], "guard_post": ["alap:tuzmano"],
                              "hp": 7, "components": 2}, {"deck": ["alap:tuzmano"] * 3}])
            zones = {p.card.id: (p.zone, p.active) for p in game.permanents.values()}
            assert zones == {"alap:kovacsmuhely": ("buildings", True),
                             "alap:tuzmano": ("guard_post", True)}
            assert (game.players[0].hp, game.players[0].components) == (7, 2)
            assert len(game.players[1].deck) == 3 and len(game.players[0].deck) == 20

        def test_whole_game(hkk_game, hkk_run):
            game = hkk_game([{"deck": ["alap:tuzmano"] * 5}, {"deck": ["alap:tuzmano"] * 5}])
            hkk_run.game(game)
            assert game.over
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)


def test_log_assertion_failure_is_readable(pytester):
    pytester.makepyfile('''
        def test_wrong(hkk_game, hkk_run, hkk_log):
            game = hkk_game([{"reserve": ["alap:tuzmano"]}, {}])
            hkk_run.turn(game)
            hkk_log(game).has("died", card="alap:tuzmano")
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*AssertionError: no died event with card='alap:tuzmano' in the log",
        "*events of kind 'died' (0):",
        "*last 12 of * events:",
        "*#* t1 end_stage4: moment (41.4)*",
    ])


def test_scripted_player_with_an_illegal_step_names_the_options(pytester):
    pytester.makepyfile('''
        def test_illegal(hkk_game, hkk_script, hkk_run):
            game = hkk_game(agents=[hkk_script("play alap:nincs", only=["action"]), None])
            hkk_run.turn(game)
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*IllegalDecision: script says 'play alap:nincs'*offers*"])


def test_scripted_player_answers_by_the_start_of_a_label(pytester):
    """Issue 24.17: ``hkk_script`` (hkk.ScriptedAgent) matches a label by its start, as
    ``hkk_script.steps`` does."""
    pytester.makepyfile('''
        def test_prefix(hkk_game, hkk_script, hkk_run, hkk_log):
            game = hkk_game([{"hand": ["alap:tuzmano"], "vp": 1, "components": 1}, {}],
                            agents=[hkk_script("play alap:tuz", only=["action"]), None])
            hkk_run.turn(game)
            hkk_log(game).has("card_played", card="alap:tuzmano", step="main_phase")
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_step_script_answers_each_step_from_its_own_list(pytester):
    pytester.makepyfile('''
        def test_steps(hkk_game, hkk_script, hkk_run, hkk_log):
            # Sírrabló's two prep-stage-2 abilities (#1:0, #1:1) are each offered ("use?"),
            # in their stable order; then the main phase.
            script = hkk_script.steps({
                "prep_stage2": ["decline", "use alap:sirrablo#1:1"],
                "main_phase": ["play alap:tuz", "pass turn"],   # a label prefix is enough
            })
            game = hkk_game([{"reserve": ["alap:sirrablo"], "hand": ["alap:tuzmano"],
                              "vp": 1, "components": 1}, {}], agents=[script, None])
            hkk_run.turn(game)
            log = hkk_log(game)
            assert log.resolved("prep_stage2") == ["alap:sirrablo#1:1"]
            log.has("card_played", card="alap:tuzmano", step="main_phase")
            log.has("turn_passed", player=0, step="main_phase")
            assert script.remaining == {}
            assert [(step, d.kind) for step, d in script.seen][:4] == [
                ("prep_stage2", "use"), ("prep_stage2", "use"),
                ("main_phase", "action"), ("main_phase", "action")]
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_step_script_names_step_decision_and_options_when_an_answer_is_not_offered(pytester):
    pytester.makepyfile('''
        def test_wrong_order(hkk_game, hkk_script, hkk_run):
            script = hkk_script.steps({"prep_stage2": ["use alap:sirrablo#1:1"]})
            game = hkk_game([{"reserve": ["alap:sirrablo"], "vp": 1, "components": 1}, {}],
                            agents=[script, None])
            hkk_run.turn(game)

        def test_unknown_step(hkk_game, hkk_script, hkk_run):
            game = hkk_game(agents=[hkk_script.steps({"main": ["pass"]}), None])
            hkk_run.turn(game)
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert ("IllegalDecision: step prep_stage2: the script answers 'use alap:sirrablo#1:1', "
            "but the use decision of player 0 offers ['use alap:sirrablo#1:0', 'decline']") in out
    assert "IllegalDecision: StepScript: no step 'main'; the turn's steps are ['prep_stage1'" in out


def test_verify_option_adds_a_passing_item(pytester):
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--hkk-verify", "alap",
                                "--hkk-verify-games", "1", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["hkk::verify[[]alap[]] PASSED*"])


def test_verify_from_the_ini_file_reports_failures_readably(pytester):
    pytester.makeini("[pytest]\nhkk_verify = nincsilyen\nhkk_verify_games = 1\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "hkk verify nincsilyen: 1 failure(s) in 1 checks, 0 games",
        "*✗ discovery [[]nincsilyen[]]: set nincsilyen is not installed*",
    ])


def test_report_header_lists_sets_and_versions(pytester):
    from importlib.metadata import version

    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines([
        f"hkk * (hook API *), sets: *alap {version('hkk')} (hkk)*"])  # the base set ships in hkk


def test_no_autouse_fixtures(pytester):
    pytester.makepyfile('''
        def test_fixtures(request):
            # autouse fixtures would be among the fixtures of a test that asks for none
            assert not [name for name in request.fixturenames if name.startswith("hkk")]
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_helpers_work_without_pytest_fixtures():
    from hkk import Engine
    from pytest_hkk import LogAssert, TurnDriver, build_game, script

    engine = Engine.installed(allow=["alap"])
    game = build_game(engine, [{"hand": ["alap:tuzmano"], "vp": 1}, {}],
                      agents=[script("play alap:tuzmano", only=["action"]), None])
    TurnDriver().to(game, "combat_phase")
    assert LogAssert(game.log).has("card_played")["player"] == 0
    with pytest.raises(LookupError, match="no step 'nincs'"):
        TurnDriver().to(game, "nincs")
    with pytest.raises(ValueError, match="unknown cards"):
        build_game(engine, [{"hand": ["alap:nincs"]}, {}])


def test_log_queries_refuse_a_field_the_kind_does_not_have():
    """Issue 20: a typo in a query is a clear error, not a query matching nothing."""
    from hkk import Engine
    from pytest_hkk import LogAssert

    log = LogAssert(Engine.installed(allow=["alap"]).play(["alap:tuz", "alap:viz"], seed=1).log)
    assert log.has("damaged", amount=lambda n: n > 0)
    with pytest.raises(ValueError, match="'died' events have no field 'crad'; their fields: "
                                         "card, uid, controller"):
        log.has("died", crad="alap:tuzmano")
    with pytest.raises(ValueError, match="no event kind 'dide'"):
        log.count("dide")
    with pytest.raises(ValueError, match="'entered_play' events have no field 'amount'"):
        log.in_order("card_played", ("entered_play", {"amount": 1}))
    with pytest.raises(ValueError, match="no event kind has the field"):
        log.find(None, crad="x")
    with pytest.warns(DeprecationWarning, match="'hp' is 'after' since hook API 2.0"):
        assert log.find("damaged", hp=lambda n: True) == log.find("damaged")


# -- issue 13: the verify item is collected like a test -----------------------------------------

def _project(pytester, codes="alap"):
    pytester.makeini(f"[pytest]\ntestpaths = tests\nhkk_verify = {codes}\nhkk_verify_games = 1\n")
    tests = pytester.mkdir("tests")
    (tests / "test_a.py").write_text("def test_one():\n    pass\n\ndef test_two():\n    pass\n")


def test_verify_item_is_collected_and_counted(pytester):
    _project(pytester)
    result = pytester.runpytest("-p", "no:cacheprovider", "--co", "-q")
    result.stdout.fnmatch_lines(["tests/test_a.py::test_one", "tests/test_a.py::test_two",
                                 "hkk::verify[[]alap[]]", "3 tests collected*"])
    result = pytester.runpytest("-p", "no:cacheprovider", "--co")
    result.stdout.fnmatch_lines(["collected 3 items"])


def test_selecting_a_node_id_leaves_the_verify_item_out(pytester):
    _project(pytester)
    result = pytester.runpytest("-p", "no:cacheprovider", "tests/test_a.py::test_one", "-v")
    result.assert_outcomes(passed=1)
    assert "hkk-verify" not in result.stdout.str()
    result = pytester.runpytest("-p", "no:cacheprovider", "tests", "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["hkk::verify[[]alap[]] PASSED*"])


def test_k_and_m_select_the_verify_item(pytester):
    _project(pytester)
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "one", "-v")
    result.assert_outcomes(passed=1, deselected=2)
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "alap")
    result.assert_outcomes(passed=1, deselected=2)
    result = pytester.runpytest("-p", "no:cacheprovider", "-m", "not hkk_verify")
    result.assert_outcomes(passed=2, deselected=1)


def test_failure_summary_shows_only_what_failed(pytester):
    _project(pytester, codes="alap nincsilyen")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=1)
    out = result.stdout.str()
    failure = out[out.index("hkk verify nincsilyen: 1 failure(s)"):]
    assert "✓" not in failure.split("short test summary")[0]
    assert "✗ discovery [nincsilyen]: set nincsilyen is not installed" in failure


def test_junit_xml_of_a_project_validates(pytester):
    from pathlib import Path

    import xmlschema

    _project(pytester, codes="alap nincsilyen")
    pytester.runpytest("-p", "no:cacheprovider", "--junit-xml", "out.xml")
    xsd = xmlschema.XMLSchema(Path(__file__).parent / "data" / "junit.xsd")
    text = (pytester.path / "out.xml").read_text()
    xsd.validate(text)
    assert 'classname="hkk" name="verify[alap]"' in text


def test_failure_text_leaves_passing_checks_out():
    from hkk.verify import verify
    from pytest_hkk.plugin import failure_text

    report = verify(["alap", "nincsilyen"], games=0)
    assert any(c.ok for c in report.checks) and not report.ok
    text = failure_text(report, "nincsilyen")
    assert text.splitlines()[0].startswith("hkk verify nincsilyen: 1 failure(s)")
    assert "✓" not in text and "coverage" not in text
    assert "✗ discovery [nincsilyen]" in text


def test_an_unscripted_decision_passes_the_step_not_the_turn() -> None:
    """The default player of hkk.testing and pytest-hkk passes each action step, so combat and
    the end-of-turn stages still open for him and his optional end-of-turn ability (41.1) is
    offered - passing the turn (41.5) would skip them unasked."""
    from hkk import Engine
    from hkk.testing import PassingAgent, build_game

    from helpers import cards, cid, creature

    class Watching(PassingAgent):
        def __init__(self) -> None:
            self.offered: list[tuple[str, list[str]]] = []

        def choose(self, game, decision):
            self.offered.append((game.log.step, decision.labels()))
            return super().choose(game, decision)

    ability = {"kind": "activated", "timing": "end_stage1", "cost": {"vp": 1},
               "effect": {"do": "heal", "amount": 2, "target": "controller"}}
    engine = Engine(cards(creature("gyogyito", 1, 3, abilities=[ability])))
    player = Watching()
    game = build_game(engine, [{"guard_post": [cid("gyogyito")], "vp": 3, "hp": 10}, {}],
                      agents=[player, None])
    game.play(max_turns=1)
    choices = [e["choice"] for e in game.log.of_kind("decision") if e["player"] == 0]
    assert "pass" in choices and "pass turn" not in choices
    steps = [step for step, _ in player.offered]
    assert "combat_phase" in steps
    end_options = [labels for step, labels in player.offered if step == "end_stage1"]
    assert any(label.startswith("use ") for labels in end_options for label in labels), \
        player.offered


def test_vp_can_be_set_as_of_a_step_after_the_turns_regeneration() -> None:
    from hkk import Engine
    from pytest_hkk import TurnDriver, build_game

    from helpers import cards

    engine = Engine(cards())
    game = build_game(engine, [{"vp": 5}, {"vp": 2}])
    run = TurnDriver()
    run.to(game, "main_phase", vp=[5, None])
    assert [p.vp for p in game.players] == [5, 2]  # the set-up 5 had become 6 (29.3)
    regenerated = [e for e in game.log.of_kind("vp_regenerated") if e["player"] == 0]
    assert len(regenerated) == 1
    other = build_game(engine, [{"vp": 5}, {}])
    TurnDriver().to(other, "main_phase")
    assert other.players[0].vp == 6


def test_a_sets_tests_see_its_hooks_act_on_any_card_of_a_built_position(pytester):
    """pytest-hkk's engine calls every installed set's hooks in every game: a set's test puts
    its counters on a base-set creature and sees its rule (here mereg's 121.1) act."""
    pytest.importorskip("hkk_set_mereg")
    pytester.makepyfile('''
        def test_poisoned_to_death(hkk_game, hkk_run, hkk_log):
            game = hkk_game([{"reserve": ["alap:tuzmano"]}, {}])
            perm = game.permanents[1]
            game.add_counters(perm, "poison", game.hp(perm))
            hkk_run.to(game, "prep_stage2", inclusive=True)
            hkk_log(game).has("died", uid=1)
    ''')
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def _every_old_name():
    """(kind class, old field name, the value it reads) for every hook API 1 name, the events
    made with a distinct value in each field."""
    from hkk.events import KINDS

    for cls in KINDS.values():
        event = cls(0, 1, "main_phase", **{f: 10 + i for i, f in enumerate(cls.FIELDS)})
        for old, new in cls.RENAMED.items():
            yield event, old, getattr(event, new)
        for old, compute in cls.LEGACY.items():
            yield event, old, compute(event)


def test_every_renamed_field_of_every_kind_reads_by_its_hook_api_1_name_with_a_warning():
    """Hook API 2.0's promise (README): an old name reads for one release, with a
    DeprecationWarning - on the event (``e[old]``, ``e.get``, an attribute) and in a log query
    (``has``, ``find`` without a kind)."""
    from test_golden import RENAMED_SINCE_1

    from pytest_hkk import LogAssert

    found = list(_every_old_name())
    names = {(e.kind, old) for e, old, _ in found}
    expected = {(kind, old) for kind, renames in RENAMED_SINCE_1.items() for old in
                renames.values()} | {("prevented", "by")}
    assert names == expected
    for event, old, value in found:
        for read in (event.__getitem__, event.get, lambda name, e=event: getattr(e, name)):
            with pytest.warns(DeprecationWarning, match=f"{old!r} is .* since hook API 2.0"):
                assert read(old) == value, (event.kind, old)
        log = LogAssert([event])
        with pytest.warns(DeprecationWarning, match=f"{old!r} is .* since hook API 2.0"):
            assert log.has(event.kind, **{old: value}) is event, (event.kind, old)
        with pytest.warns(DeprecationWarning, match=f"{old!r} is .* since hook API 2.0"):
            assert log.find(None, **{old: value}) == [event], (event.kind, old)


def test_the_readme_says_the_shape_of_seen_each_kind_of_script_keeps():
    """pytest-hkk's README: a step script's ``seen`` holds ``(step, decision)`` pairs, a plain
    ``hkk_script(...)``'s the decisions alone - as they do."""
    from hkk import Decision, Engine
    from pytest_hkk import StepScript, TurnDriver, build_game, script

    root = Path(__file__).resolve().parents[1]
    readme = " ".join((root / "plugins" / "pytest-hkk" / "README.md").read_text().split())
    assert "`script.seen` every decision the player was asked, as `(step, decision)` pairs" \
        in readme
    assert "A plain `hkk_script(...)` (an `hkk.ScriptedAgent`) keeps the decisions alone in " \
           "its `seen`" in readme
    engine = Engine.installed(allow=["alap"])
    by_step, plain = StepScript({"main_phase": ["pass turn"]}), script("pass turn")
    for agent in (by_step, plain):
        TurnDriver().turn(build_game(engine, [{"hand": ["alap:tuzmano"], "vp": 5}, {}],
                                     agents=[agent, None]))
    assert by_step.seen and all(isinstance(step, str) and isinstance(decision, Decision)
                                for step, decision in by_step.seen)
    assert plain.seen and all(isinstance(decision, Decision) for decision in plain.seen)
