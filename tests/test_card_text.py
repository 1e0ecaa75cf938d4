"""The printed text, generated from the data and checked (issue 25): ``hkk verify``'s
``card-text`` check, the templates of the words (D-card-text), ``hkk cards --text-from-data``
and the spoiler's text and component columns."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import test_card_language_2 as language2
from click.testing import CliRunner

from hkk._card_text_check import card_locations, card_text_checks
from hkk._cards.loader import load_set_cards, parse_card_data
from hkk._cards.printed import card_text, normalised
from hkk._sets.discovery import discover
from hkk._spoiler import SpoilerError, compare, read_spoiler
from hkk.cli import main
from hkk.verify import verify

from helpers import cards, creature

ROOT = Path(__file__).resolve().parents[1]
ALAP = ROOT / "sets" / "alap" / "src" / "hkk_set_alap"
FOUND = discover()


def _set(code: str, card_list, root: Path) -> SimpleNamespace:
    return SimpleNamespace(code=code, cards=card_list, root=root)


# -- the base set passes ---------------------------------------------------------------------

def test_D_card_text_every_base_set_card_says_what_its_data_does():
    (check,) = card_text_checks(FOUND.sets["alap"])
    assert check.ok, check.message
    assert check.message == "53 printed texts match their data"


def test_D_card_text_is_a_check_of_hkk_verify_and_counts_the_cards_opted_out():
    report = verify(["alap", "mereg"], games=0)
    checks = {c.target: c for c in report.checks if c.name == "card-text"}
    assert checks["alap"].ok and checks["mereg"].ok
    assert "6 opted out (text_checked = false)" in checks["mereg"].message


def test_D_card_text_a_changed_number_in_a_card_file_fails_naming_card_file_line_and_texts(
        tmp_path):
    root = tmp_path / "hkk_set_alap"
    shutil.copytree(ALAP / "cards", root / "cards")
    path = root / "cards" / "tuz.toml"
    text = path.read_text("utf-8")
    old = 'effect = { do = "damage", amount = 3, target = "chosen_opponent_creature" }'
    assert text.count(old) == 1
    path.write_text(text.replace(old, old.replace("amount = 3", "amount = 4")), "utf-8")
    (failure,) = card_text_checks(_set("alap", load_set_cards("alap", root), root))
    assert failure.failed and failure.card == "alap:tuzlabda"
    lines = path.read_text("utf-8").splitlines()
    assert failure.file.endswith("cards/tuz.toml")
    assert lines[failure.line - 1] == 'text = "3 sebzés az ellenfél egy lényének."'
    assert "printed '3 sebzés az ellenfél egy lényének.'" in failure.message
    assert "from the data '4 sebzés az ellenfél egy lényének.'" in failure.message


def _numbers(node, path=()):
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _numbers(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _numbers(value, (*path, index))


def _every_number_of_the_rules():
    for card in FOUND.sets["alap"].cards:
        data = card.model_dump(mode="json")
        for key in ("abilities", "effects"):
            for path in _numbers(data.get(key, []), (key,)):
                yield card, data, path


@pytest.mark.parametrize(("card", "data", "path"), list(_every_number_of_the_rules()),
                         ids=lambda v: v.id if hasattr(v, "id") else ".".join(map(str, v))
                         if isinstance(v, tuple) else "")
def test_D_card_text_one_number_changed_in_a_base_set_card_fails_naming_that_card(card, data,
                                                                                  path):
    changed = copy.deepcopy(data)
    node = changed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] += 1 if node[path[-1]] != -1 else -1  # modify by 0 is refused
    (mutant,) = parse_card_data("alap", "cards/x.toml", {"cards": [changed]})
    others = [c for c in FOUND.sets["alap"].cards if c.id != card.id]
    failures = card_text_checks(_set("alap", [*others, mutant], ALAP))
    assert [(f.failed, f.card) for f in failures] == [(True, card.id)]


def test_D_card_text_a_custom_effect_fails_until_it_opts_out():
    custom = {"do": "custom", "name": "x:zap"}
    card = creature("odd", abilities=[{"kind": "automatic", "timing": "end_stage2",
                                       "effect": custom}], text="Furcsa.")
    (failure,) = card_text_checks(_set("tt", cards(card)[:1], ALAP))
    assert failure.failed and "cannot be generated" in failure.message
    (passed,) = card_text_checks(_set("tt", cards({**card, "text_checked": False})[:1], ALAP))
    assert passed.ok and "1 opted out" in passed.message


def test_D_card_text_compares_without_case_punctuation_whitespace_or_reminder_text():
    assert normalised("Azonnali.  2 sebzés az ELLENFÉLNEK!") == \
        normalised("azonnali 2 sebzés az ellenfélnek")
    assert normalised("+1 védekezés bónuszt kap (amelyet megtart).") == \
        normalised("+1 védekezés bónuszt kap.")
    assert normalised("2 sebzés") != normalised("3 sebzés")


def test_D_card_text_a_card_without_printed_text_promises_nothing():
    card = creature("mute", abilities=[{"kind": "automatic", "timing": "end_stage2",
                                        "effect": {"do": "draw", "count": 1}}])
    (check,) = card_text_checks(_set("tt", cards(card)[:1], ALAP))
    assert check.ok and "1 with no printed text" in check.message


def test_card_locations_name_the_text_line_or_the_id_line():
    where = card_locations(FOUND.sets["alap"])
    file, line = where["alap:tuzmano"]  # no text: its id line
    assert file.endswith("cards/tuz.toml")
    assert (ALAP / "cards" / "tuz.toml").read_text("utf-8").splitlines()[line - 1] == \
        'id = "alap:tuzmano"'


# -- the templates of the new words -------------------------------------------------------------

@pytest.mark.parametrize(("card", "text"), [
    (language2.CHARGER, "Amikor ez a lény támad, +1 sebzést kap a kör végéig."),
    (language2.WARDEN, "Amikor ez a lény blokkol, 1 sebzést okoz az általa blokkolt lénynek."),
    (language2.AVENGER, "Amikor ez a lény meghal, 2 sebzést okoz az őt elpusztító lénynek."),
    (language2.UNDERDOG, "Csak akkor játszható ki, ha az ellenfélnek több lénye van, mint "
                         "neked. Húzz egy lapot."),
    (language2.FINISHER, "2 sebzés minden sérült lénynek."),
    (language2.PURGE, "Az ellenfél minden lénye, amelynek legalább 2 méregjelzője van, "
                      "elpusztul."),
    (language2.COUNTED, "Annyi sebzés az ellenfélnek, ahány lényed van és húzz kétszer annyi "
                        "lapot, ahány építménye van az ellenfélnek."),
])
def test_D_card_text_the_new_words_have_templates(card, text):
    (parsed, _) = cards(card)
    assert card_text(parsed) == text


# -- hkk cards, the spoiler ------------------------------------------------------------------------

def test_hkk_cards_prints_the_text_generated_from_data():
    runner = CliRunner()
    result = runner.invoke(main, ["cards", "--set", "alap", "--text-from-data"])
    assert result.exit_code == 0, result.output
    assert "from data: Húzz két lapot." in result.output
    result = runner.invoke(main, ["cards", "--set", "alap", "--output-format", "json", "--text-from-data"])
    entry = next(c for c in json.loads(result.output) if c["id"] == "alap:arapaly")
    assert entry["text_from_data"] == "Húzz két lapot."


def test_spoiler_text_difference_names_the_file_line_and_both_texts(tmp_path):
    spoiler = tmp_path / "s.csv"
    spoiler.write_text("id,text\nalap:arapaly,Húzz három lapot.\n", "utf-8")
    report = verify(["alap"], games=0, against=str(spoiler))
    (text,) = [c for c in report.failures if c.name == "spoiler" and c.card == "alap:arapaly"]
    assert text.message == ("alap:arapaly: the printed text differs: in the set 'Húzz két "
                            "lapot.', in the spoiler 'Húzz három lapot.'")
    assert text.file.endswith("cards/viz.toml") and text.line


def test_spoiler_names_cost_and_yield_components_apart(tmp_path):
    spoiler = tmp_path / "s.csv"
    spoiler.write_text("id,components\nalap:zsoldos,1\n", "utf-8")
    with pytest.raises(SpoilerError, match="cost_components .* or yield_components"):
        read_spoiler(spoiler)
    spoiler.write_text("id,cost_components,yield_components\nalap:zsoldos,1,2\n", "utf-8")
    zsoldos = [c for c in FOUND.sets["alap"].cards if c.id == "alap:zsoldos"]
    problems = compare(zsoldos, read_spoiler(spoiler))
    assert [(p.card, p.message) for p in problems] == [
        ("alap:zsoldos", "alap:zsoldos: yield_components is 1 in the set, 2 in the spoiler")]


def test_D_card_text_every_word_of_the_registry_has_its_template():
    from typing import get_args

    from hkk._cards.quantities import QUANTITIES
    from hkk._cards.trigger_events import WHEN_EVENTS
    from hkk._cards.types import Duration, Target
    from hkk._cards.verbs import VERBS, Verb
    from hkk._cards.wording import DURATIONS, TARGETS

    assert [name for name in VERBS if VERBS[name].hu is Verb.hu] == ["custom"]
    assert [name for name in WHEN_EVENTS if not WHEN_EVENTS[name].hu_text] == []
    assert all(len(QUANTITIES[kind].hu) == 2 for kind in QUANTITIES)
    assert set(get_args(Duration)) == set(DURATIONS)
    assert set(get_args(Target)) == set(TARGETS)


# -- hkk write-texts: the generated texts written into the card files ---------------------------

def test_D_card_text_write_texts_writes_the_generated_texts_into_a_copy_of_a_set(
        tmp_path, monkeypatch):
    # An author upgrading a set meets the check failing on two texts worded the old way: the
    # failure names the command, --diff prints a patch and writes nothing, the command writes
    # exactly those two lines, and the check passes.
    root = tmp_path / "hkk_set_alap"
    shutil.copytree(ALAP / "cards", root / "cards")
    path = root / "cards" / "tuz.toml"
    before = path.read_text("utf-8")
    old = {"Amikor játékba kerül, 1 sebzést okoz az ellenfél egy lényének.":
           "Belépéskor 1 sebzés egy ellenséges lénynek.",
           "A kör elején +1 sebzést kap, csak ebben a körben.":
           "Minden kör elején +1 sebzés erre a körre."}
    edited = before
    for new, was in old.items():
        assert edited.count(f'text = "{new}"') == 1
        edited = edited.replace(f'text = "{new}"', f'text = "{was}"  # old wording')
    path.write_text(edited, "utf-8")

    def found():
        s = _set("alap", load_set_cards("alap", root), root)
        return SimpleNamespace(sets={"alap": s}, failures=[])
    monkeypatch.setattr("hkk._cli_output._discover", found)
    failures = card_text_checks(found().sets["alap"])
    assert [f.card for f in failures] == ["alap:langelemental", "alap:parazsfarkas"]
    assert all("'hkk write-texts alap' writes the texts from the data" in f.message
               for f in failures)

    patch = CliRunner().invoke(main, ["write-texts", "alap", "--diff"])
    assert patch.exit_code == 0, patch.output
    assert path.read_text("utf-8") == edited
    removed = [line for line in patch.stdout.splitlines() if line.startswith("-text")]
    added = [line for line in patch.stdout.splitlines() if line.startswith("+text")]
    assert removed == [f'-text = "{was}"  # old wording' for was in old.values()]
    assert added == [f'+text = "{new}"  # old wording' for new in old]

    wrote = CliRunner().invoke(main, ["write-texts", "alap"])
    assert wrote.exit_code == 0, wrote.output
    assert "wrote 2 text(s)" in wrote.output
    assert path.read_text("utf-8").replace("  # old wording", "") == before
    (check,) = card_text_checks(found().sets["alap"])
    assert check.ok, check.message
