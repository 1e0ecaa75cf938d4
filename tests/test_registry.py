"""Issue 20, item 5: one place per card keyword.  A ``do`` verb, a trigger event
(``when.event``) and a condition quantity (``of``) are each one registered class; these tests
add each from a throwaway module of their own, with no other file touched, and play a data-only
card using it.  Each registration is undone after its test (the schema of the other tests is
the built-in one)."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hkk._card_text import card_lines
from hkk._cards.loader import card_file_schema
from hkk._cards.quantities import QUANTITIES
from hkk._cards.trigger_events import WHEN_EVENTS
from hkk._cards.verbs import VERBS
from hkk._cards.verbs.base import Verb
from hkk._errors import CardDataError
from hkk._markup import plain
from hkk._runner import play_turn
from hkk.events import KINDS

from helpers import Passer, Wants, cards, cid, creature, game_with, run_until, spell


def _module(tmp_path: Path, name: str, source: str) -> Any:
    """Import ``source`` as the module ``name`` (a file of its own, as a new word would be)."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def unregister():
    """Names registered by the test, removed afterwards: (registry, name)."""
    added: list[tuple[Any, str]] = []
    yield added
    for registry, name in added:
        if name in registry:
            registry.unregister(name)


# -- a verb ----------------------------------------------------------------------------------

DRAIN = '''
    """A verb of its own: "Az ellenfeled veszít N VP-t, te kapsz ennyit." """
    from typing import ClassVar, Literal

    from pydantic import Field

    from hkk._cards.verbs import PlayerVerb, register_verb
    from hkk.events import Event, VpGained, VpLost


    @register_verb
    class Drain(PlayerVerb):
        do: Literal["drain"] = "drain"
        amount: int = Field(gt=0, le=99)
        target: Literal["opponent"] = "opponent"
        emits: ClassVar[tuple[type[Event], ...]] = (VpLost, VpGained)

        def apply(self, game, ctx, targets):
            for player in targets:
                game.lose_vp(player.index, self.amount, source=ctx.label)
                game.gain_vp(ctx.controller, self.amount, source=ctx.label)
'''

LEECH = spell("leech", [{"do": "drain", "amount": 2}])


def test_a_new_verb_is_one_registered_class_and_a_data_only_card_plays_it(
        tmp_path, unregister):
    with pytest.raises(CardDataError, match="Input tag 'drain' found using 'do'"):
        cards(LEECH)  # not a word yet
    _module(tmp_path, "hkk_test_drain", DRAIN)
    unregister.append((VERBS, "drain"))
    game = game_with([LEECH], agents=[Wants("play tt:leech"), Passer()])
    game.players[0].hand.append(cid("leech"))
    game.players[0].vp = game.players[1].vp = 5
    run_until(game, "combat_phase")
    lost = [e for e in game.log.of_kind("vp_lost") if e["source"] == cid("leech")]
    gained = [e for e in game.log.of_kind("vp_gained") if e["source"] == cid("leech")]
    assert [(e["player"], e["amount"]) for e in lost] == [(1, 2)]
    assert [(e["player"], e["amount"]) for e in gained] == [(0, 2)]
    # hkk cards and hkk schema know it too, from the same class
    [card] = [c for c in cards(LEECH) if c.id == cid("leech")]
    assert "effect: drain opponent 2" in [plain(line).strip() for line in card_lines(card)]
    effect = card_file_schema()["$defs"]["Drain"]
    assert effect["properties"]["do"]["const"] == "drain"


def test_a_verb_unregistered_is_refused_again(tmp_path, unregister):
    _module(tmp_path, "hkk_test_drain2", DRAIN)
    unregister.append((VERBS, "drain"))  # if the test fails before it unregisters
    assert cards(LEECH)
    VERBS.unregister("drain")
    with pytest.raises(CardDataError, match="Input tag 'drain' found using 'do'"):
        cards(LEECH)
    assert "Drain" not in card_file_schema()["$defs"]


def test_a_verb_name_is_registered_once(tmp_path, unregister):
    with pytest.raises(ValueError, match="verb 'damage' is registered twice"):
        _module(tmp_path, "hkk_test_twice", '''
            from typing import Literal
            from hkk._cards.verbs import Verb, register_verb

            @register_verb
            class Damage(Verb):
                do: Literal["damage"] = "damage"
        ''')


# -- each built-in verb logs what it says it emits --------------------------------------------

#: One effect of each built-in verb, in a situation where it changes something.
EXAMPLES: dict[str, dict[str, Any]] = {
    "add_counters": {"counter": "poison", "count": 1, "target": "opponent_creatures"},
    "damage": {"amount": 1, "target": "opponent"},
    "destroy": {"target": "opponent_creatures"},
    "draw": {"count": 1},
    "end_effects": {"durations": ["until_end_of_turn"]},
    "gain_components": {"count": 1},
    "gain_vp": {"amount": 1},
    "give_defence_bonus": {"amount": 1, "target": "own_creatures"},
    "heal": {"amount": 1, "target": "opponent_creatures"},
    "lose_vp": {"amount": 1, "target": "opponent"},
    "modify": {"stat": "damage", "by": 1, "target": "own_creatures"},
    "pay_components": {"count": 1},
    "remove_counters": {"counter": "poison", "count": 1, "target": "opponent_creatures"},
    "remove_defence_bonus": {"target": "own_creatures"},
    "sacrifice": {"target": "chosen_own_creature"},
}


@pytest.mark.parametrize("verb", sorted(EXAMPLES))
def test_each_verb_logs_a_kind_it_names_in_emits(verb):
    """A verb's ``emits`` is what its changes log: applying it logs one of them, and every one
    is a registered event class (hkk.events)."""
    emits = VERBS[verb].emits
    assert emits and set(emits) <= set(KINDS.values()), emits
    game = game_with([spell("it", [{"do": verb, **EXAMPLES[verb]}]),
                      creature("mine", 1, 3), creature("theirs", 1, 3)],
                     agents=[Wants("play tt:it"), Passer()])
    mine = game.enter_play(0, cid("mine"), active=True)
    theirs = game.enter_play(1, cid("theirs"), active=True)
    game.damage(theirs, 1)
    game.add_counters(theirs, "poison", 2)
    game.give_defence_bonus(mine, 1)
    game.add_effect("hp", 1, "until_end_of_turn", targets=[mine], controller=0)
    game.players[0].components = 1
    game.players[0].hand.append(cid("it"))
    game.players[0].vp = 5
    before = len(game.log)
    run_until(game, "combat_phase")
    after = {type(e) for e in list(game.log)[before:]}
    assert after & set(emits), (verb, sorted(cls.kind for cls in after))


def test_every_verb_is_registered_under_its_do():
    for name in VERBS:
        verb = VERBS[name]
        assert issubclass(verb, Verb) and verb.model_fields["do"].default == name


# -- a trigger event ---------------------------------------------------------------------------

ATTACKS = '''
    """A trigger event of its own: "Amikor ez a lény rohamoz, ..." (an attack under another name)."""
    from hkk._cards.trigger_events import Subject, TriggerEvent, trigger_event


    @trigger_event
    class Attacks(TriggerEvent):
        name = "charges"
        meaning = "a creature charges"
        log_kinds = ("attack",)
        text = "charges"

        def subjects(self, game, event):
            perms = [game.permanents.get(uid) for uid in event.attackers]
            return [Subject(p.uid, p.controller, p.kind, p) for p in perms if p is not None]
'''

RAIDER = creature("raider", 1, 3, abilities=[{
    "kind": "triggered", "when": {"event": "charges", "which": "this"},
    "effect": {"do": "gain_vp", "amount": 1}}])


def test_a_new_trigger_event_is_one_registered_class(tmp_path, unregister):
    with pytest.raises(CardDataError, match="abilities\\[0\\].when.event"):
        cards(RAIDER)
    _module(tmp_path, "hkk_test_charges", ATTACKS)
    unregister.append((WHEN_EVENTS, "charges"))
    game = game_with([RAIDER], agents=[Wants("use attack", pass_label="pass"), Passer()])
    raider = game.enter_play(0, cid("raider"), zone="guard_post", active=True)
    play_turn(game)
    [triggered] = game.log.of_kind("triggered")
    assert (triggered["cause"], triggered["card"]) == ("attack", cid("raider"))
    gained = [e for e in game.log.of_kind("vp_gained")
              if e["source"] == f"{cid('raider')}#{raider.uid}:0"]
    assert [(e["player"], e["amount"]) for e in gained] == [(0, 1)]
    [card] = [c for c in cards(RAIDER) if c.id == cid("raider")]
    assert "when this charges" in plain(card_lines(card)[1])
    when = card_file_schema()["$defs"]["When"]
    assert "charges" in when["properties"]["event"]["enum"]
    assert "charges = a creature charges" in when["description"]


# -- a quantity --------------------------------------------------------------------------------

DECK = '''
    """A quantity of its own: the cards left in a player's deck."""
    from hkk._cards.quantities import Quantity, quantity
    from hkk.events import CardDrawn


    @quantity
    class Deck(Quantity):
        kind = "deck"
        changed_by = frozenset({CardDrawn})

        def read(self, game, player):
            return len(game.players[player].deck)
'''

#: "Amíg a paklidban legfeljebb 8 lap van, +2 sebzést okoz."
READER = creature("reader", 1, 3, abilities=[{
    "kind": "static", "condition": {"of": "own_deck", "at_most": 8},
    "effect": {"do": "modify", "stat": "damage", "by": 2, "target": "self",
               "duration": "permanent"}}])


def test_a_new_quantity_is_one_registered_class(tmp_path, unregister):
    with pytest.raises(CardDataError, match="abilities\\[0\\].condition.of"):
        cards(READER)
    _module(tmp_path, "hkk_test_deck", DECK)
    unregister.append((QUANTITIES, "deck"))
    game = game_with([READER], agents=[Passer(), Passer()])
    reader = game.enter_play(0, cid("reader"), active=True)
    assert len(game.players[0].deck) == 10 and game.damage_value(reader) == 1  # 10 > 8: not in force
    game.draw(0, 2)
    assert game.damage_value(reader) == 3  # re-read after card_drawn (its changed_by)
    schema = card_file_schema()["$defs"]["Condition"]
    assert {"own_deck", "opponent_deck"} <= set(schema["properties"]["of"]["enum"])
