"""Hypothesis strategies for the simultaneous moments (29.4.2, 41.4): a board of creatures,
lasting effects on them, defence bonuses, and the automatic items that happen at the moment -
as card abilities and as items of separately registered plugins."""

from __future__ import annotations

from hypothesis import strategies as st

from helpers import cid, creature, spell

N_CREATURES = 4

#: Effects a card's automatic ability may have at the moment (controller-relative targets).
CARD_EFFECTS = [
    {"do": "damage", "amount": 1, "target": "opponent_creatures"},
    {"do": "damage", "amount": 1, "target": "all_creatures"},
    {"do": "heal", "amount": 1, "target": "own_creatures"},
    {"do": "modify", "stat": "hp", "by": 1, "target": "own_creatures",
     "duration": "until_end_of_turn"},
    {"do": "modify", "stat": "damage", "by": -1, "target": "opponent_creatures",
     "duration": "this_turn"},
    {"do": "modify", "stat": "hp", "by": -1, "target": "opponent_creatures",
     "duration": "permanent"},
    {"do": "damage", "amount": 2, "target": "opponent"},
    {"do": "gain_vp", "amount": 1, "target": "controller"},
    {"do": "gain_components", "count": 1},
    # the primitives that stop at zero (D-moment-nets)
    {"do": "lose_vp", "amount": 2, "target": "each_player"},
    {"do": "pay_components", "count": 1, "target": "controller"},
    {"do": "add_counters", "counter": "x", "count": 1, "target": "opponent_creatures"},
    {"do": "remove_counters", "counter": "x", "count": 1, "target": "all_creatures"},
    {"do": "give_defence_bonus", "amount": 1, "target": "own_creatures"},
    {"do": "remove_defence_bonus", "target": "opponent_creatures"},
    # chosen targets: chosen against the state before the moment (D-simultaneous-bind); the
    # tests' players choose by card name, so the choice cannot follow timestamps.  What another
    # item gives a creature destroyed at the moment it gets: it leaves play as the moment ends.
    {"do": "destroy", "target": "chosen_opponent_creature"},
    {"do": "damage", "amount": 1, "target": "chosen_creature"},
]

#: Plugin items: (what, creature index or player, amount).
PLUGIN_ACTIONS = ["damage", "heal", "hp_until_eot", "destroy", "hurt_player", "vp"]

DURATIONS = ["permanent", "until_end_of_turn", "this_turn", "until_preparation"]


@st.composite
def boards(draw, timing: str):
    """Creature cards c0..c3, their controllers, damage already taken, defence bonuses, and an
    optional automatic ability at ``timing`` on each.  Card data may not time an automatic
    ability on end stage 4 (41.2), but a set's plugin may add items there: for that timing the
    effect is kept on the board (``"moment_effect"``) for the test to contribute as a plugin."""
    defs, board = [], []
    in_card_data = timing != "end_stage4"
    for i in range(N_CREATURES):
        hp = draw(st.integers(1, 4))
        ability = draw(st.none() | st.sampled_from(CARD_EFFECTS))
        abilities = ([{"kind": "automatic", "timing": timing, "effect": ability}]
                     if ability and in_card_data else [])
        defs.append(creature(f"c{i}", draw(st.integers(0, 3)), hp, components=1,
                             abilities=abilities))
        board.append({"card": cid(f"c{i}"), "controller": draw(st.integers(0, 1)),
                      "damage": draw(st.integers(0, hp - 1)),
                      "bonus": draw(st.integers(0, 2)),
                      "moment_effect": None if in_card_data else ability})
    return defs, board


effects = st.lists(st.tuples(st.sampled_from(["hp", "damage"]), st.integers(-2, 3),
                             st.sampled_from(DURATIONS),
                             st.sets(st.integers(0, N_CREATURES - 1), min_size=1)),
                   max_size=6)

plugin_items = st.lists(st.tuples(st.sampled_from(PLUGIN_ACTIONS), st.integers(0, 1),
                                  st.integers(0, N_CREATURES - 1), st.integers(1, 3)),
                        max_size=5)


def scenarios(timing: str):
    return st.tuples(boards(timing), effects, plugin_items)


# -- data-only sets: cards from data alone, decks of them ------------------------------------------

#: Effects of the generated spells and abilities: the ones that move hidden cards (drawing) and
#: the ones that make the public state change (damage, VP, components).
SET_EFFECTS = [
    {"do": "draw", "count": 1},
    {"do": "draw", "count": 2},
    {"do": "damage", "amount": 2, "target": "opponent"},
    {"do": "damage", "amount": 1, "target": "opponent_creatures"},
    {"do": "gain_vp", "amount": 1, "target": "controller"},
    {"do": "gain_components", "count": 1},
]


@st.composite
def data_only_sets(draw):
    """(card definitions of a data-only set, two decks of them): creatures, some with an
    automatic ability when they enter play, and spells, all at affordable costs."""
    defs: list[dict] = []
    for i in range(draw(st.integers(2, 5))):
        ability = draw(st.none() | st.sampled_from(SET_EFFECTS))
        defs.append(creature(f"g{i}", draw(st.integers(0, 3)), draw(st.integers(1, 4)),
                             components=draw(st.integers(0, 2)), vp=draw(st.integers(0, 2)),
                             abilities=[{"kind": "automatic", "timing": "on_enter",
                                         "effect": ability}] if ability else []))
    for i in range(draw(st.integers(0, 3))):
        defs.append(spell(f"s{i}", [draw(st.sampled_from(SET_EFFECTS))],
                          vp=draw(st.integers(0, 2)), instant=draw(st.booleans())))
    ids = [d["id"] for d in defs]
    decks = [draw(st.lists(st.sampled_from(ids), min_size=20, max_size=30)) for _ in range(2)]
    return defs, decks
