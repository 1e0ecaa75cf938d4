"""Card data: the pydantic models and the TOML loader of hkk._cards."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from hkk._cards import (
    PERMANENT_TARGETS,
    PLAYER_TARGETS,
    TRIGGER_TARGETS,
    ActivatedAbility,
    AutomaticAbility,
    BuildingCard,
    CardFile,
    CreatureCard,
    Draw,
    Limits,
    Modify,
    SpellCard,
    card_file_schema,
    load_set_cards,
    load_set_decks,
    parse_card_data,
    parse_card_file,
)
from hkk._errors import CardDataError, SetError
from hkk._phases import CARD_TIMINGS

FILE = "cards/creatures.toml"

SIRRABLO = """
[[cards]]
id = "alap:sirraablo"
name = "Sírrabló"
kind = "creature"
cost = { vp = 2 }
damage = 1
hp = 2
components = 1

[[cards.abilities]]
kind = "activated"
timing = "prep_stage2"
usable_in_preparation = true
limit = "once_per_turn"
cost = { vp = 1 }
effect = { do = "draw", count = 1 }

[[cards.abilities]]
kind = "automatic"
timing = "end_stage2"
effect = { do = "modify", stat = "hp", by = 1, target = "own_creatures", duration = "until_end_of_turn" }
"""


def creature(slug: str = "lisztes", hp: int = 2, extra: str = "") -> str:
    return (f'[[cards]]\nid = "alap:{slug}"\nname = "{slug.title()}"\nkind = "creature"\n'
            f"damage = 1\nhp = {hp}\n{extra}\n")


def with_ability(ability: str) -> str:
    return creature() + "[[cards.abilities]]\n" + ability


def error_of(text: str, set_code: str = "alap", path: str = FILE) -> CardDataError:
    with pytest.raises(CardDataError) as info:
        parse_card_file(set_code, path, text)
    return info.value


# -- valid files ---------------------------------------------------------------------------------

def test_design_doc_creature_parses() -> None:
    [card] = parse_card_file("alap", FILE, SIRRABLO)
    assert isinstance(card, CreatureCard)
    assert (card.set_code, card.damage, card.hp, card.components, card.cost.vp) == ("alap", 1, 2, 1, 2)
    activated, automatic = card.abilities
    assert isinstance(activated, ActivatedAbility)
    assert activated.limit == Limits(per_turn=1)
    assert activated.effects == (Draw(count=1),)
    assert activated.effects[0].target == "controller"
    assert isinstance(automatic, AutomaticAbility)
    assert automatic.effects == (Modify(stat="hp", by=1, target="own_creatures"),)


def test_building_and_spell_parse() -> None:
    text = """
[[cards]]
id = "alap:orto-ny"
name = "Őrtorony"
kind = "building"
sp = 5
abilities = [
  { kind = "static", effect = { do = "modify", stat = "vp_regen", by = 1, target = "controller", duration = "permanent" } },
]

[[cards]]
id = "alap:tuzlabda"
name = "Tűzlabda"
kind = "spell"
instant = true
cost = { vp = 3, components = 1 }
effects = [
  { do = "damage", amount = 3, target = "chosen_creature" },
  { do = "custom", name = "burn", params = { turns = 2, fire = true } },
]
"""
    building, spell = parse_card_file("alap", "cards/misc.toml", text)
    assert isinstance(building, BuildingCard) and building.sp == 5
    assert isinstance(spell, SpellCard) and spell.instant and len(spell.effects) == 2
    assert spell.effects[1].params == {"turns": 2, "fire": True}


def test_cards_are_frozen() -> None:
    [card] = parse_card_file("alap", FILE, SIRRABLO)
    with pytest.raises(ValidationError):
        card.hp = 5  # type: ignore[misc]


# -- error messages ------------------------------------------------------------------------------

def test_hp_zero_exact_message() -> None:
    text = "".join(creature(f"lisztes{i}") for i in range(3)) + creature("gyenge", hp=0)
    error = error_of(text)
    assert str(error) == "alap: cards/creatures.toml: cards[3].hp: Input should be greater than 0"
    assert error.card == "alap:gyenge"
    assert error.field == "cards[3].hp"
    assert error.file == FILE and error.code == "alap"
    assert isinstance(error, SetError)


def test_every_problem_of_a_file_is_reported_each_with_its_line() -> None:
    # lines 1-7 the first card (hp on 6), 8-14 the second (hp on 13, damage2 on 14)
    error = error_of(creature("a", hp=0) + creature("b", hp=-1, extra="damage2 = 3"))
    assert str(error).splitlines() == error.errors == [
        "alap: cards/creatures.toml: cards[0].hp: Input should be greater than 0",
        "alap: cards/creatures.toml: cards[1].hp: Input should be greater than 0",
        "alap: cards/creatures.toml: cards[1].damage2: Extra inputs are not permitted"]
    assert [(p.file, p.line, p.field, p.card) for p in error.problems] == [
        (FILE, 6, "cards[0].hp", "alap:a"), (FILE, 13, "cards[1].hp", "alap:b"),
        (FILE, 14, "cards[1].damage2", "alap:b")]
    assert error.line == 6


def test_unknown_field_rejected() -> None:
    error = error_of(creature(extra="flying = true"))
    assert str(error) == "alap: cards/creatures.toml: cards[0].flying: Extra inputs are not permitted"


def test_bad_discriminators() -> None:
    error = error_of('[[cards]]\nid = "alap:x1"\nname = "X"\nkind = "dragon"\n')
    assert "cards[0]: Input tag 'dragon' found using 'kind'" in str(error)
    error = error_of(with_ability('kind = "activated"\neffect = { do = "teleport" }\n'))
    assert "cards[0].abilities[0].effect: Input tag 'teleport' found using 'do'" in str(error)
    assert error.errors == [str(error)]  # one problem, reported once


def test_nested_path_leaves_out_union_tags() -> None:
    error = error_of(with_ability('kind = "activated"\neffects = [{ do = "draw", count = 0 }]\n'))
    assert error.field == "cards[0].abilities[0].effects[0].count"


def test_toml_syntax_error_names_line() -> None:
    error = error_of('[[cards]]\nid = "alap:x1"\nname = \n')
    assert str(error).startswith("alap: cards/creatures.toml: line 3")
    assert "invalid TOML" in str(error)


def test_id_must_belong_to_the_set_and_be_unique_in_file() -> None:
    error = error_of(creature(), set_code="masik")
    assert "cards[0].id: card id 'alap:lisztes' must start with 'masik:'" in str(error)
    error = error_of(creature() + creature())
    assert str(error) == ("alap: cards/creatures.toml: cards[1].id: duplicate card id "
                          "'alap:lisztes' (first at cards[0])")


# -- bounds and control characters ---------------------------------------------------------------

@pytest.mark.parametrize(("extra", "field", "message"), [
    ("", "hp", "Input should be less than or equal to 999"),  # hp = 10**100 below
    ("cost = { vp = 1000 }", "cost.vp", "Input should be less than or equal to 999"),
    ('[[cards.abilities]]\nkind = "automatic"\ntiming = "end_stage2"\n'
     'effect = { do = "modify", stat = "hp", by = -1000, target = "self" }',
     "abilities[0].effect.by", "Input should be greater than or equal to -999"),
])
def test_numbers_on_cards_are_bounded(extra: str, field: str, message: str) -> None:
    hp = 10**100 if not extra else 2
    error = error_of(creature(hp=hp, extra=extra))
    assert str(error) == f"alap: cards/creatures.toml: cards[0].{field}: {message}"
    assert error.card == "alap:lisztes"
    parse_card_file("alap", FILE, creature(hp=999))  # the bound itself is allowed


def test_deck_counts_are_bounded(tmp_path: Path) -> None:
    huge = DECKS.replace("= 2", "= 1000000000")
    with pytest.raises(CardDataError, match=r'^alap: decks/starter.toml: decks\[0\].cards\['
                                            r'"alap:lisztes"\]: Input should be less than or '
                                            r"equal to 1000$"):
        load_set_decks("alap", write_set(tmp_path / "a", {"decks/starter.toml": huge}))
    big = DECKS.replace("= 2", "= 600").replace("= 3", "= 401")
    with pytest.raises(CardDataError, match=r"^alap: decks/starter.toml: decks\[0\]: deck "
                                            r"'starter' has 1001 cards; at most 1000$"):
        load_set_decks("alap", write_set(tmp_path / "b", {"decks/starter.toml": big}))
    ok = DECKS.replace("= 2", "= 600").replace("= 3", "= 400")
    assert load_set_decks("alap", write_set(tmp_path / "c", {"decks/starter.toml": ok})
                          )["starter"].size == 1000


@pytest.mark.parametrize("depth", [33, 100_000])  # past the bound; past Python's recursion limit
def test_nesting_is_bounded(depth: int) -> None:
    error = error_of(creature() + "x = " + "[" * depth + "]" * depth + "\n")
    assert str(error) == ("alap: cards/creatures.toml: nested deeper than 32 levels of tables "
                          "and arrays")
    assert error.file == FILE


def test_file_size_is_bounded(tmp_path: Path) -> None:
    root = write_set(tmp_path, {"cards/big.toml": creature() + "#" * (1024 * 1024)})
    with pytest.raises(CardDataError) as info:
        load_set_cards("alap", root)
    assert str(info.value) == "alap: cards/big.toml: file is larger than 1048576 bytes"


@pytest.mark.parametrize(("line", "field", "char"), [
    ('name = "\\u001b]0;owned\\u0007"', "name", "U+001B"),
    ('text = "Lovag\\u009b2J"', "text", "U+009B"),
    ('text = "sor\\rfelülírva"', "text", "U+000D"),
])
def test_control_characters_in_texts_are_rejected(line: str, field: str, char: str) -> None:
    text = creature().replace('name = "Lisztes"', line if field == "name" else
                              'name = "Lisztes"\n' + line)
    error = error_of(text)
    assert str(error) == (f"alap: cards/creatures.toml: cards[0].{field}: control character "
                          f"{char} is not allowed")
    assert (error.card, error.field) == ("alap:lisztes", f"cards[0].{field}")
    # Tabs and newlines are text, not control.
    parse_card_file("alap", FILE, creature(extra='text = """egy\tkettő\nhárom"""'))


def test_control_characters_in_deck_titles_are_rejected(tmp_path: Path) -> None:
    root = write_set(tmp_path, {"decks/starter.toml": DECKS.replace("Kezdő", "\\u001b[2J")})
    with pytest.raises(CardDataError, match=r"decks\[0\].title: control character U\+001B"):
        load_set_decks("alap", root)


def test_card_files_outside_the_package_are_refused(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere.toml"
    secret.write_text(creature("titok"), encoding="utf-8")
    root = write_set(tmp_path / "set", {"cards/a.toml": creature("sajat")})
    (root / "cards" / "b.toml").symlink_to(secret)
    with pytest.raises(CardDataError) as info:
        load_set_cards("alap", root)
    assert str(info.value) == (f"alap: cards/b.toml: refused: the file resolves outside the "
                               f"set's package (to {secret})")
    # A link that stays inside the package is fine.
    (root / "cards" / "b.toml").unlink()
    (root / "cards" / "b.toml").symlink_to(root / "cards" / "a.toml.txt")
    (root / "cards" / "a.toml.txt").write_text(creature("masik"), encoding="utf-8")
    assert [c.id for c in load_set_cards("alap", root)] == ["alap:sajat", "alap:masik"]


# -- shorthands ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("limit", "expected"), [
    ('"once_per_turn"', Limits(per_turn=1)),
    ('"once_per_game"', Limits(per_game=1)),
    ('"own_turn"', Limits(whose_turn="own")),
    ('"opponent_turn"', Limits(whose_turn="opponent")),
    ('["once_per_turn", "own_turn"]', Limits(per_turn=1, whose_turn="own")),
    ('{ per_turn = 2, whose_turn = "own" }', Limits(per_turn=2, whose_turn="own")),
])
def test_limit_shorthands(limit: str, expected: Limits) -> None:
    [card] = parse_card_file("alap", FILE, with_ability(
        f'kind = "activated"\nlimit = {limit}\neffect = {{ do = "draw", count = 1 }}\n'))
    assert card.abilities[0].limit == expected


def test_unknown_limit_rejected() -> None:
    error = error_of(with_ability(
        'kind = "activated"\nlimit = "twice_a_day"\neffect = { do = "draw", count = 1 }\n'))
    assert error.field == "cards[0].abilities[0].limit"
    assert "unknown limit 'twice_a_day'" in str(error)


def test_effect_shorthand_equals_effects_list() -> None:
    short = parse_card_file("alap", FILE, with_ability(
        'kind = "activated"\neffect = { do = "gain_vp", amount = 2 }\n'))
    full = parse_card_file("alap", FILE, with_ability(
        'kind = "activated"\neffects = [{ do = "gain_vp", amount = 2 }]\n'))
    assert short == full
    error = error_of(with_ability('kind = "activated"\neffect = { do = "draw", count = 1 }\n'
                                  'effects = [{ do = "draw", count = 1 }]\n'))
    assert "not both" in str(error)


# -- semantic checks -----------------------------------------------------------------------------

@pytest.mark.parametrize("effect", [
    '{ do = "draw", count = 1, target = "own_creatures" }',
    '{ do = "gain_vp", amount = 1, target = "chosen_creature" }',
    '{ do = "destroy", target = "opponent" }',
    '{ do = "modify", stat = "vp_regen", by = 1, target = "own_creatures" }',
    '{ do = "modify", stat = "hp", by = 1, target = "controller" }',
    '{ do = "modify", stat = "sp", by = 1, target = "own_creatures" }',
    '{ do = "give_defence_bonus", amount = 1, target = "chosen_building" }',
    '{ do = "sacrifice", target = "chosen_opponent_creature" }',
])
def test_wrong_target_kind_rejected(effect: str) -> None:
    error = error_of(with_ability(f'kind = "activated"\neffect = {effect}\n'))
    assert error.field is not None and error.field.startswith("cards[0].abilities[0].effect")


def test_damage_and_heal_take_players_or_permanents() -> None:
    parse_card_file("alap", FILE, with_ability(
        'kind = "activated"\neffects = [{ do = "damage", amount = 1, target = "opponent" },'
        ' { do = "heal", amount = 1, target = "own_creatures" }]\n'))


def test_modify_by_zero_rejected() -> None:
    error = error_of(with_ability(
        'kind = "activated"\neffect = { do = "modify", stat = "damage", by = 0, target = "self" }\n'))
    assert error.field == "cards[0].abilities[0].effect.by"


def test_activated_prep_stage2_needs_permission() -> None:
    error = error_of(with_ability(
        'kind = "activated"\ntiming = "prep_stage2"\neffect = { do = "draw", count = 1 }\n'))
    assert "29.4.7" in str(error)
    assert error.field == "cards[0].abilities[0]"


@pytest.mark.parametrize("timing", ["prep_stage2_start", "end_stage4"])
def test_activated_not_at_simultaneous_moments(timing: str) -> None:
    error_of(with_ability(f'kind = "activated"\ntiming = "{timing}"\n'
                          'effect = { do = "draw", count = 1 }\n'))


@pytest.mark.parametrize("timing", ["main_phase", "combat_phase", "sometime"])
def test_automatic_timing_must_be_a_moment(timing: str) -> None:
    error = error_of(with_ability(f'kind = "automatic"\ntiming = "{timing}"\n'
                                  'effect = { do = "draw", count = 1 }\n'))
    assert error.field == "cards[0].abilities[0].timing"


def test_automatic_has_no_cost() -> None:
    error = error_of(with_ability('kind = "automatic"\ntiming = "end_stage2"\ncost = { vp = 1 }\n'
                                  'effect = { do = "draw", count = 1 }\n'))
    assert "133.1" in str(error)


def test_static_only_permanent_modify() -> None:
    error = error_of(with_ability(
        'kind = "static"\neffect = { do = "modify", stat = "damage", by = 1, target = "self" }\n'))
    assert "permanent" in str(error)
    error_of(with_ability('kind = "static"\neffect = { do = "draw", count = 1 }\n'))


# -- sets: several files, decks -------------------------------------------------------------------

def write_set(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_load_set_cards_in_name_order(tmp_path: Path) -> None:
    root = write_set(tmp_path, {"cards/b.toml": creature("bbb"), "cards/a.toml": SIRRABLO,
                                "cards/notes.txt": "not a card file"})
    assert [card.id for card in load_set_cards("alap", root)] == ["alap:sirraablo", "alap:bbb"]
    assert load_set_cards("alap", tmp_path / "nothing") == []


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    root = write_set(tmp_path, {"cards/a.toml": creature("x1"), "cards/b.toml": creature("x1")})
    with pytest.raises(CardDataError) as info:
        load_set_cards("alap", root)
    message = str(info.value)
    assert message.startswith("alap: cards/b.toml: cards[0].id:")
    assert "cards/a.toml" in message and info.value.card == "alap:x1"


def test_loads_from_a_traversable_that_is_not_a_path(tmp_path: Path) -> None:
    archive = tmp_path / "set.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("hkk_set_alap/cards/creatures.toml", SIRRABLO)
        zf.writestr("hkk_set_alap/decks/starter.toml",
                    '[[decks]]\nname = "starter"\ncards = { "alap:sirraablo" = 3 }\n')
    with zipfile.ZipFile(archive) as zf:
        root = zipfile.Path(zf, "hkk_set_alap/")
        ids = {card.id for card in load_set_cards("alap", root)}
        assert load_set_decks("alap", root, ids)["starter"].size == 3


DECKS = """
[[decks]]
name = "starter"
title = "Kezdő pakli"
cards = { "alap:sirraablo" = 3, "alap:lisztes" = 2 }
"""


def test_decks(tmp_path: Path) -> None:
    root = write_set(tmp_path, {"decks/starter.toml": DECKS})
    decks = load_set_decks("alap", root, {"alap:sirraablo", "alap:lisztes"})
    assert decks["starter"].size == 5 and decks["starter"].title == "Kezdő pakli"


def test_deck_with_unknown_card(tmp_path: Path) -> None:
    root = write_set(tmp_path, {"decks/starter.toml": DECKS})
    with pytest.raises(CardDataError) as info:
        load_set_decks("alap", root, {"alap:sirraablo"})
    message = str(info.value)
    assert message.startswith("alap: decks/starter.toml: ")
    assert "'starter'" in message and "'alap:lisztes'" in message
    assert info.value.card == "alap:lisztes"


def test_duplicate_deck_name_and_bad_count(tmp_path: Path) -> None:
    root = write_set(tmp_path, {"decks/a.toml": DECKS, "decks/b.toml": DECKS})
    with pytest.raises(CardDataError, match="decks/b.toml.*duplicate deck name 'starter'.*a.toml"):
        load_set_decks("alap", root)
    root = write_set(tmp_path / "other", {"decks/a.toml": DECKS.replace("= 2", "= 0")})
    with pytest.raises(CardDataError, match=r'decks\[0\].cards\["alap:lisztes"\]: Input should '
                                            r"be greater than 0"):
        load_set_decks("alap", root)


# -- schema --------------------------------------------------------------------------------------

def test_schema_exports_primitives() -> None:
    schema = card_file_schema()
    assert schema["$id"] and schema["title"]
    for name in ["CreatureCard", "BuildingCard", "SpellCard", "StaticAbility", "AutomaticAbility",
                 "ActivatedAbility", "Damage", "Heal", "Modify", "GainVp", "LoseVp", "Draw",
                 "Destroy", "Sacrifice", "AddCounters", "RemoveCounters", "GiveDefenceBonus",
                 "RemoveDefenceBonus", "GainComponents", "PayComponents", "Custom", "Limits"]:
        assert name in schema["$defs"]
    activated = schema["$defs"]["ActivatedAbility"]["properties"]
    assert "effect" in activated  # the shorthand is visible to editors
    assert set(activated["timing"]["enum"]) == set(CARD_TIMINGS) | {"on_enter"}
    assert PLAYER_TARGETS.isdisjoint(PERMANENT_TARGETS)


# -- properties ----------------------------------------------------------------------------------

# (the targets bound to a trigger's event are for triggered abilities only)
permanent_target = st.sampled_from(sorted(PERMANENT_TARGETS - TRIGGER_TARGETS - {
    "own_buildings", "all_buildings", "chosen_building"}))
player_target = st.sampled_from(sorted(PLAYER_TARGETS - TRIGGER_TARGETS))
any_target = st.sampled_from(sorted((PLAYER_TARGETS | PERMANENT_TARGETS) - TRIGGER_TARGETS))
positive = st.integers(1, 9)
# Card texts: anything printable (control characters are rejected, see test_control_characters).
printable = st.characters(exclude_categories=("Cc", "Cs"))
durations = st.sampled_from(["permanent", "until_end_of_turn", "this_turn", "until_preparation"])

effects = st.one_of(
    st.fixed_dictionaries({"do": st.sampled_from(["damage", "heal"]), "amount": positive,
                           "target": any_target}),
    st.fixed_dictionaries({"do": st.just("modify"), "stat": st.sampled_from(["damage", "hp"]),
                           "by": st.integers(-3, 3).filter(bool), "target": permanent_target,
                           "duration": durations}),
    st.fixed_dictionaries({"do": st.sampled_from(["gain_vp", "lose_vp"]), "amount": positive,
                           "target": player_target}),
    st.fixed_dictionaries({"do": st.sampled_from(["draw", "gain_components"]), "count": positive}),
    st.fixed_dictionaries({"do": st.just("add_counters"), "counter": st.just("poison"),
                           "count": positive, "target": permanent_target}),
    st.fixed_dictionaries({"do": st.just("custom"),
                           "name": st.text(printable, min_size=1, max_size=5),
                           "params": st.dictionaries(st.text(printable, max_size=3), st.one_of(
                               st.integers(), st.text(printable, max_size=3), st.booleans()),
                               max_size=2)}),
)
# activated abilities: only where a player acts (not the moments, not stage 1, not end 2-3)
activated_timings = [t for t in CARD_TIMINGS if t not in (
    "prep_stage2_start", "end_stage4", "prep_stage1", "end_stage2", "end_stage3")]
abilities = st.one_of(
    st.fixed_dictionaries({
        "kind": st.just("activated"), "timing": st.sampled_from(activated_timings),
        "usable_in_preparation": st.just(True), "effects": st.lists(effects, min_size=1, max_size=3),
        "limit": st.sampled_from(["once_per_turn", "own_turn", ["once_per_game", "opponent_turn"],
                                  {"per_turn": 2}]),
        "cost": st.fixed_dictionaries({"vp": st.integers(0, 5), "sacrifice_self": st.booleans()}),
    }),
    st.fixed_dictionaries({
        "kind": st.just("automatic"), "optional": st.booleans(), "effect": effects,
        "timing": st.sampled_from([t for t in CARD_TIMINGS + ("on_enter",) if t not in (
            "main_phase", "combat_phase", "end_stage1", "end_stage2", "end_stage3", "end_stage4",
            "prep_stage1")]),
    }),
    # 29.4.5: stage 1 carries only VP-regeneration modifiers
    st.fixed_dictionaries({"kind": st.just("automatic"), "timing": st.just("prep_stage1"),
                           "effect": st.fixed_dictionaries({
                               "do": st.just("modify"), "stat": st.just("vp_regen"),
                               "by": st.sampled_from([-1, 1, 2]),
                               "target": st.sampled_from(["controller", "opponent"]),
                               "duration": st.sampled_from(["this_turn", "permanent"])})}),
    # 41.2: end-of-turn automatic effects are mandatory
    st.fixed_dictionaries({"kind": st.just("automatic"), "effect": effects,
                           "timing": st.just("end_stage2")}),
)
slugs = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,8}", fullmatch=True)
cards = st.one_of(
    st.fixed_dictionaries({"kind": st.just("creature"), "damage": st.integers(0, 9), "hp": positive,
                           "components": st.integers(0, 3)}),
    st.fixed_dictionaries({"kind": st.just("building"), "sp": positive}),
    st.fixed_dictionaries({"kind": st.just("spell"), "instant": st.booleans(),
                           "effects": st.lists(effects, min_size=1, max_size=3)}),
).flatmap(lambda card: st.fixed_dictionaries({
    **{key: st.just(value) for key, value in card.items()},
    "id": slugs.map(lambda slug: f"alap:{slug}"),
    "name": st.text(printable, min_size=1, max_size=10),
    "abilities": st.lists(abilities, max_size=2),
}))


@settings(max_examples=60, deadline=None)
@given(st.lists(cards, max_size=4, unique_by=lambda card: card["id"]))
def test_valid_cards_round_trip(data: list[dict]) -> None:
    parsed = parse_card_data("alap", FILE, {"cards": data})
    for dumped in (CardFile(cards=parsed).model_dump(),
                   CardFile(cards=parsed).model_dump(mode="json")):
        assert list(CardFile.model_validate(dumped).cards) == parsed


junk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(
        ["creature", "spell", "activated", "draw", "modify", "alap:x1", "self", "prep_stage2"])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["cards", "id", "kind", "do", "effect", "effects", "hp",
                                         "abilities", "limit", "timing", "target", "name"]),
                        inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.one_of(junk, st.fixed_dictionaries({"cards": st.lists(junk, max_size=3)})))
def test_any_input_gives_cards_or_card_data_error(data: object) -> None:
    try:
        parse_card_data("alap", FILE, data)
    except CardDataError as error:
        assert str(error).startswith("alap: cards/creatures.toml: ")


def test_41_2_optional_end_stage2_automatic_ability_is_rejected():
    data = {"cards": [{"id": "tt:x", "name": "x", "kind": "creature", "damage": 1, "hp": 1,
                       "abilities": [{"kind": "automatic", "timing": "end_stage2",
                                      "optional": True,
                                      "effect": {"do": "draw", "count": 1}}]}]}
    with pytest.raises(CardDataError, match=r"cards\[0\]\.abilities\[0\].*41\.2"):
        parse_card_data("tt", "cards/x.toml", data)


@pytest.mark.parametrize("timing, stage_rule", [("end_stage1", "41.1"), ("end_stage3", "41.3"),
                                                ("end_stage4", "41.4")])
def test_41_2_automatic_end_of_turn_abilities_are_refused_outside_end_stage_2(timing, stage_rule):
    error = error_of(with_ability(f'kind = "automatic"\ntiming = "{timing}"\n'
                                  'effect = { do = "heal", amount = 1, target = "controller" }\n'))
    assert error.field == "cards[0].abilities[0].timing"
    assert "end stage 2 (41.2)" in str(error) and f"({stage_rule}" in str(error)
    # the same ability timed on end stage 2 is what the rule asks for
    [card] = parse_card_file("alap", FILE, with_ability(
        'kind = "automatic"\ntiming = "end_stage2"\n'
        'effect = { do = "heal", amount = 1, target = "controller" }\n'))
    assert card.abilities[0].timing == "end_stage2"


def test_41_1_optional_is_documented_as_a_text_in_the_conditional_mood() -> None:
    # Authors read the field's meaning in their editor, from `hkk schema`: "feltételes módú
    # szövege" is broader than "may".
    from hkk._cards.model import ActivatedAbility, AutomaticAbility

    for model in (ActivatedAbility, AutomaticAbility):
        described = model.model_json_schema()["properties"]["optional"]["description"]
        assert "conditional mood" in described and "41.1" in described
        assert "-hat/-het" in described and "ha akarod" in described
