"""The native core's test set: cards of every word of the card language it implements -
creatures and buildings without abilities of varied costs and stats, the spells of ``SPELLS``
and the permanents with abilities of ``ABILITIES`` - the one source of the cards the
differential tests (tests/test_native_differential.py), ``hkk simulate --core native``'s test
and the benchmarks (benchmarks/bench_native.py) play.  A word that lands in the native core
gets its cards here."""

from __future__ import annotations

from typing import Any

__all__ = ["ABILITIES", "SPELLS", "test_set_cards", "test_set_decks", "vanilla_cards"]


def vanilla_cards() -> dict[str, Any]:
    """Creatures and buildings without abilities, of varied costs and stats: whole games."""
    from hkk._cards.model import BuildingCard, CreatureCard

    cards: dict[str, Any] = {
        f"tt:beast{i}": CreatureCard(id=f"tt:beast{i}", name=f"Beast {i}",
                                     cost={"vp": i % 4, "components": 1 if i == 7 else 0},
                                     damage=1 + i % 5, hp=1 + i % 3, components=i % 3)
        for i in range(10)}
    cards |= {f"tt:wall{i}": BuildingCard(id=f"tt:wall{i}", name=f"Wall {i}",
                                         cost={"vp": 1 + i}, sp=2 + i) for i in range(2)}
    return cards


#: Spells of the verbs and targets the native core implements (cards::IMPLEMENTED).
SPELLS: dict[str, tuple[int, bool, list[dict[str, Any]]]] = {
    "bolt": (1, True, [{"do": "damage", "amount": 2, "target": "chosen_opponent_creature"}]),
    "storm": (3, False, [{"do": "damage", "amount": 1, "target": "all_creatures"},
                         {"do": "damage", "amount": 1, "target": "opponent"}]),
    "mend": (1, True, [{"do": "heal", "amount": 2, "target": "chosen_own_creature"},
                       {"do": "heal", "amount": 1, "target": "controller"}]),
    "insight": (2, True, [{"do": "draw", "count": 2, "target": "controller"}]),
    "tribute": (0, False, [{"do": "gain_vp", "amount": 2, "target": "chosen_player"}]),
    "veil": (1, True, [{"do": "give_defence_bonus", "amount": 2,
                        "target": "chosen_own_creature"}]),
    "shatter": (1, True, [{"do": "remove_defence_bonus", "target": "chosen_opponent_creature"},
                          {"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}]),
    "offering": (0, False, [{"do": "sacrifice", "target": "chosen_own_creature"},
                            {"do": "gain_components", "count": 2, "target": "controller"}]),
    "frenzy": (1, False, [{"do": "modify", "stat": "damage", "by": 2,
                           "target": "own_creatures"}]),
    "icecoat": (1, True, [{"do": "modify", "stat": "hp", "by": 2,
                           "target": "chosen_own_creature", "duration": "until_preparation"}]),
    "reef": (2, False, [{"do": "modify", "stat": "hp", "by": 1, "target": "own_creatures",
                         "duration": "until_own_preparation"}]),
    "tidal": (2, False, [{"do": "modify", "stat": "damage", "by": 2,
                          "target": "chosen_own_creature", "duration": "turns", "turns": 3}]),
    "wither": (1, False, [{"do": "modify", "stat": "hp", "by": -1,
                           "target": "opponent_creatures", "duration": "this_turn"}]),
    "calm": (1, True, [{"do": "end_effects", "durations": ["until_end_of_turn", "turns"]}]),
    "cleanse": (0, True, [{"do": "end_effects", "target": "chosen_creature"}]),
    "purge": (0, False, [{"do": "end_effects", "target": "each_player"}]),
    "venom": (1, False, [{"do": "add_counters", "counter": "poison", "count": 2,
                          "target": "chosen_opponent_creature"}]),
    "antidote": (0, True, [{"do": "remove_counters", "counter": "poison", "count": 3,
                            "target": "chosen_creature"}]),
    "rally": (2, False, [{"do": "heal", "amount": 1, "target": "own_creatures"},
                         {"do": "damage", "amount": 1, "target": "opponent_creatures"},
                         {"do": "draw", "count": 1, "target": "each_player"},
                         {"do": "damage", "amount": 1, "target": "chosen_creature"}]),
}


#: Permanents with automatic abilities of the implemented timings, verbs and targets.
ABILITIES: dict[str, tuple[str, int, list[dict[str, Any]]]] = {
    "healer": ("creature", 2, [{"kind": "automatic", "timing": "end_stage2", "effects": [
        {"do": "heal", "amount": 1, "target": "controller"}]}]),
    "pyro": ("creature", 3, [{"kind": "automatic", "timing": "on_enter", "effects": [
        {"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}]}]),
    "leech": ("creature", 2, [{"kind": "automatic", "timing": "prep_stage2", "whose_turn": "own",
                               "effects": [{"do": "damage", "amount": 1, "target": "opponent"},
                                           {"do": "heal", "amount": 1,
                                            "target": "controller"}]}]),
    "scholar": ("creature", 1, [{"kind": "automatic", "timing": "on_enter", "optional": True,
                                 "effects": [{"do": "draw", "count": 1,
                                              "target": "controller"}]}]),
    "twin": ("creature", 2, [
        {"kind": "automatic", "timing": "on_enter", "effects": [
            {"do": "damage", "amount": 1, "target": "opponent"}]},
        {"kind": "automatic", "timing": "on_enter", "effects": [
            {"do": "heal", "amount": 1, "target": "controller"}]},
        {"kind": "automatic", "timing": "end_stage2", "whose_turn": "opponent", "effects": [
            {"do": "damage", "amount": 1, "target": "self"}]}]),
    "spring": ("creature", 2, [{"kind": "automatic", "timing": "prep_stage2_start", "effects": [
        {"do": "heal", "amount": 1, "target": "controller"},
        {"do": "heal", "amount": 2, "target": "self"}]}]),
    "tide": ("creature", 2, [{"kind": "automatic", "timing": "prep_stage2_start",
                              "whose_turn": "opponent", "effects": [
                                  {"do": "damage", "amount": 1,
                                   "target": "chosen_opponent_creature"}]}]),
    "ember": ("creature", 1, [{"kind": "automatic", "timing": "prep_stage2_start",
                               "whose_turn": "own", "optional": True,
                               "effects": [{"do": "damage", "amount": 1,
                                            "target": "opponent_creatures"},
                                           {"do": "heal", "amount": 1,
                                            "target": "own_creatures"}]}]),
    "coral": ("creature", 3, [{"kind": "automatic", "timing": "prep_stage2_start",
                               "whose_turn": "opponent", "effects": [
                                   {"do": "give_defence_bonus", "amount": 1, "target": "self"}]}]),
    "ward": ("creature", 2, [{"kind": "automatic", "timing": "prep_stage2_start", "effects": [
        {"do": "remove_defence_bonus", "target": "opponent_creatures"},
        {"do": "give_defence_bonus", "amount": 1, "target": "own_creatures"}]}]),
    "hermit": ("creature", 2, [{"kind": "automatic", "timing": "prep_stage2",
                                "whose_turn": "own", "condition": {
                                    "of": "opponent_creatures", "more_than": "own_creatures"},
                                "effects": [{"do": "gain_vp", "amount": 1,
                                             "target": "controller"}]}]),
    "miser": ("building", 1, [{"kind": "automatic", "timing": "end_stage2",
                               "condition": {"of": "own_vp", "at_least": 2},
                               "effects": [{"do": "draw", "count": 1,
                                            "target": "controller"}]}]),
    "warden": ("creature", 1, [{"kind": "automatic", "timing": "on_enter",
                                "condition": {"of": "own_hand", "fewer_than": 3},
                                "effects": [{"do": "heal", "amount": 2,
                                             "target": "controller"}]}]),
    "vulture": ("creature", 2, [{"kind": "automatic", "timing": "prep_stage2_start",
                                 "condition": {"of": "opponent_hp", "at_most": 17},
                                 "effects": [{"do": "damage", "amount": 1,
                                              "target": "opponent"}]}]),
    "potion": ("building", 2, [{"kind": "automatic", "timing": "end_stage2", "effects": [
        {"do": "gain_components", "count": 1, "target": "controller"},
        {"do": "gain_vp", "amount": 2, "target": "controller"},
        {"do": "heal", "amount": 3, "target": "controller"},
        {"do": "draw", "count": 1, "target": "controller"},
        {"do": "sacrifice", "target": "self"}]}]),
    "martyr": ("creature", 1, [{"kind": "automatic", "timing": "prep_stage2_start",
                                "condition": {"of": "own_hp", "at_most": 18},
                                "effects": [{"do": "sacrifice", "target": "self"},
                                            {"do": "damage", "amount": 1,
                                             "target": "all_creatures"}]}]),
    "smith": ("creature", 2, [{"kind": "activated", "cost": {"vp": 1}, "limit": {"per_turn": 2},
                               "effects": [{"do": "damage", "amount": 1,
                                            "target": "opponent"}]}]),
    "sentry": ("building", 1, [{"kind": "activated", "timing": "combat_phase",
                                "cost": {"vp": 1},
                                "limit": {"per_turn": 1, "whose_turn": "opponent"},
                                "effects": [{"do": "give_defence_bonus", "amount": 1,
                                             "target": "own_creatures"}]}]),
    "alchemist": ("creature", 2, [{"kind": "activated", "timing": "end_stage1",
                                   "cost": {"vp": 2}, "limit": {"per_turn": 1},
                                   "effects": [{"do": "gain_components", "count": 1,
                                                "target": "controller"}]}]),
    "bell": ("building", 1, [{"kind": "activated", "timing": "end_stage1", "effects": [
        {"do": "heal", "amount": 1, "target": "controller"}]}]),
    "imp": ("creature", 1, [{"kind": "activated", "timing": "end_stage1", "optional": True,
                             "limit": {"per_turn": 1}, "effects": [
                                 {"do": "damage", "amount": 1, "target": "opponent"}]}]),
    "sage": ("creature", 1, [{"kind": "activated", "cost": {"vp": 1},
                              "limit": {"per_game": 1, "whose_turn": "own"},
                              "effects": [{"do": "draw", "count": 1, "target": "controller"}]}]),
    "bomb": ("creature", 1, [{"kind": "activated", "cost": {"sacrifice_self": True},
                              "effects": [{"do": "damage", "amount": 1,
                                           "target": "all_creatures"}]}]),
    "wolf": ("creature", 2, [{"kind": "automatic", "timing": "prep_stage2_start", "effects": [
        {"do": "modify", "stat": "damage", "by": 1, "target": "self",
         "duration": "this_turn"}]}]),
    "well": ("building", 2, [{"kind": "automatic", "timing": "prep_stage1", "whose_turn": "own",
                              "effects": [{"do": "modify", "stat": "vp_regen", "by": 1,
                                           "target": "controller",
                                           "duration": "this_turn"}]}]),
    "forge": ("building", 2, [{"kind": "activated", "cost": {"vp": 1},
                               "limit": {"whose_turn": "own"},
                               "effects": [{"do": "modify", "stat": "damage", "by": 1,
                                            "target": "chosen_own_creature",
                                            "duration": "permanent"}]}]),
    "mage": ("creature", 2, [{"kind": "activated", "cost": {"vp": 1},
                              "limit": {"per_game": 1, "whose_turn": "own"},
                              "effects": [{"do": "modify", "stat": "vp_regen", "by": 1,
                                           "target": "controller",
                                           "duration": "permanent"}]}]),
    "keeper": ("building", 1, [{"kind": "automatic", "timing": "prep_stage2", "effects": [
        {"do": "modify", "stat": "sp", "by": -2, "target": "self",
         "duration": "until_end_of_turn"}]}]),
    "banner": ("building", 1, [{"kind": "automatic", "timing": "prep_stage2",
                                "whose_turn": "own", "effects": [
                                    {"do": "modify", "stat": "damage", "by": 1,
                                     "target": "own_creatures", "duration": "permanent"}]}]),
    "aura": ("creature", 2, [{"kind": "static", "effects": [
        {"do": "modify", "stat": "hp", "by": 1, "target": "own_creatures",
         "duration": "permanent"}]}]),
    "drake": ("creature", 1, [{"kind": "static", "effects": [
        {"do": "modify", "stat": "vp_regen", "by": -1, "target": "controller",
         "duration": "permanent"}]}]),
    "brute": ("creature", 1, [{"kind": "static", "condition": {"of": "own_vp", "at_least": 2},
                               "effects": [{"do": "modify", "stat": "damage", "by": 2,
                                            "target": "self", "duration": "permanent"}]}]),
    "blight": ("building", 2, [{"kind": "static", "effects": [
        {"do": "modify", "stat": "hp", "by": -1, "target": "opponent_creatures",
         "duration": "permanent"}]}]),
    "rune": ("creature", 2, [
        {"kind": "automatic", "timing": "on_enter", "effects": [
            {"do": "add_counters", "counter": "rune", "count": 3, "target": "self"}]},
        {"kind": "automatic", "timing": "end_stage2", "effects": [
            {"do": "remove_counters", "counter": "rune", "count": 1, "target": "self"},
            {"do": "gain_vp", "amount": 1, "target": "controller"}]}]),
    "thaw": ("building", 1, [{"kind": "automatic", "timing": "prep_stage2_start", "effects": [
        {"do": "remove_counters", "counter": "poison", "count": 2, "target": "all_creatures"},
        {"do": "add_counters", "counter": "poison", "count": 1, "target": "all_creatures"}]}]),
    "plague": ("building", 1, [{"kind": "automatic", "timing": "prep_stage2",
                                "whose_turn": "own",
                                "condition": {"of": "opponent_poison", "at_least": 2},
                                "effects": [{"do": "damage", "amount": 2,
                                             "target": "opponent"}]}]),
    "silence": ("creature", 2, [{"kind": "static", "effects": [
        {"do": "prevent", "whose": "opponent", "phase": "preparation"}]}]),
    "hush": ("building", 1, [{"kind": "static", "effects": [
        {"do": "prevent", "whose": "each_player", "abilities": "activated",
         "phase": "main"}]}]),
    "robber": ("creature", 2, [
        {"kind": "activated", "timing": "prep_stage2", "usable_in_preparation": True,
         "cost": {"components": 1}, "limit": {"per_turn": 1, "whose_turn": "own"},
         "effects": [{"do": "damage", "amount": 2, "target": "opponent"}]},
        {"kind": "activated", "timing": "prep_stage2", "usable_in_preparation": True,
         "cost": {"vp": 1}, "effects": [{"do": "draw", "count": 1, "target": "controller"}]}]),
    "oracle": ("building", 1, [{"kind": "activated", "timing": "prep_stage2",
                                "must_use_in_preparation": True, "effects": [
                                    {"do": "gain_vp", "amount": 1, "target": "controller"}]}]),
    "shrine": ("building", 1, [
        {"kind": "automatic", "timing": "prep_stage2", "optional": True, "effects": [
            {"do": "gain_vp", "amount": 1, "target": "controller"}]},
        {"kind": "automatic", "timing": "prep_stage2", "effects": [
            {"do": "damage", "amount": 1, "target": "all_creatures"}]}]),
}


def test_set_cards() -> dict[str, Any]:
    """The cards without words, spells of the implemented verbs and targets, and permanents
    with abilities of the implemented kinds and timings (``hkk.Engine(test_set_cards())``)."""
    from hkk._cards.model import BuildingCard, CreatureCard, SpellCard

    cards = vanilla_cards()
    for name, (vp, instant, effects) in SPELLS.items():
        cards[f"tt:{name}"] = SpellCard(id=f"tt:{name}", name=name.title(), cost={"vp": vp},
                                        instant=instant, effects=effects)
    for name, (kind, vp, abilities) in ABILITIES.items():
        if kind == "creature":
            cards[f"tt:{name}"] = CreatureCard(id=f"tt:{name}", name=name.title(),
                                               cost={"vp": vp}, damage=1, hp=2,
                                               abilities=abilities)
        else:
            cards[f"tt:{name}"] = BuildingCard(id=f"tt:{name}", name=name.title(),
                                               cost={"vp": vp}, sp=3, abilities=abilities)
    return cards


def test_set_decks(cards: Any, seed: int = 0) -> tuple[list[str], list[str]]:
    """Two 30-card decks of ``cards`` (ids), spread over the whole set, varied by ``seed``."""
    ids = sorted(cards)
    first = [ids[(seed + 3 * i) % len(ids)] for i in range(30)]
    second = [ids[(seed * 5 + 7 * i) % len(ids)] for i in range(30)]
    return first, second
