"""What the card-language guide (:mod:`hkk._card_language`) says in words of its own: what each
target, duration, card kind, quantity and comparison means, and example cards for the words no
card of the base set uses.  Everything else on the page comes from the code; a word missing
here is shown without these (its name, what the code says of it).
"""

from __future__ import annotations

__all__ = ["CARD_KINDS", "COMPARISONS", "DURATIONS", "EXAMPLES", "QUANTITY_KINDS", "TARGETS"]

#: Example cards for the words no card of the base set uses (a set code of no set: ``pelda``).
EXAMPLES = '''
[[cards]]
id = "pelda:foldrenges"
name = "Földrengés"
kind = "spell"
text = "Elpusztít egy általad választott épületet."
cost = { vp = 3 }
effect = { do = "destroy", target = "chosen_building" }

[[cards]]
id = "pelda:kapzsisag"
name = "Kapzsiság"
kind = "spell"
text = "Az ellenfeled 2 VP-t veszít."
cost = { vp = 2 }
effect = { do = "lose_vp", amount = 2, target = "opponent" }

[[cards]]
id = "pelda:rozsda"
name = "Rozsda"
kind = "spell"
text = "Minden játékos fizet 1 szörnykomponenst."
cost = { vp = 1 }
effect = { do = "pay_components", count = 1, target = "each_player" }

[[cards]]
id = "pelda:meregkeverek"
name = "Méregkeverék"
kind = "spell"
text = "Egy általad választott ellenséges lényre 1 méregjelzőt tesz (a mereg készlet hatása)."
cost = { vp = 1 }

[[cards.effects]]
do = "custom"
name = "mereg:poison"
target = "chosen_opponent_creature"
params = { count = 1 }

[[cards]]
id = "pelda:kovesfal"
name = "Köves fal"
kind = "building"
text = "Az épületeid +1 Sp-t kapnak."
cost = { vp = 3 }
sp = 3

[[cards.abilities]]
kind = "static"
effect = { do = "modify", stat = "sp", by = 1, target = "own_buildings", duration = "permanent" }

[[cards]]
id = "pelda:ostromgep"
name = "Ostromgép"
kind = "spell"
text = "Minden épület 1 sebzést szenved."
cost = { vp = 2 }
effect = { do = "damage", amount = 1, target = "all_buildings" }

[[cards]]
id = "pelda:csendes-kem"
name = "Csendes kém"
kind = "creature"
text = "Amikor az ellenfeled varázslatot játszik ki, 1 VP-t veszít."
cost = { vp = 3 }
damage = 1
hp = 2

[[cards.abilities]]
kind = "triggered"
when = { event = "card_played", whose = "opponent", card_kind = "spell" }
effect = { do = "lose_vp", amount = 1, target = "trigger_player" }

[[cards]]
id = "pelda:remete"
name = "Remete"
kind = "creature"
text = "A kör végén 1 Ép-t gyógyítasz, ha legfeljebb 10 Ép-d van."
cost = { vp = 2 }
damage = 1
hp = 3

[[cards.abilities]]
kind = "automatic"
timing = "end_stage2"
condition = { of = "own_hp", at_most = 10 }
effect = { do = "heal", amount = 1, target = "controller" }

[[cards]]
id = "pelda:gyujto"
name = "Gyűjtő"
kind = "creature"
text = "Amíg legalább 3 szörnykomponensed van, +1 sebzést kap."
cost = { vp = 2 }
damage = 1
hp = 2

[[cards.abilities]]
kind = "static"
condition = { of = "own_components", at_least = 3 }
effect = { do = "modify", stat = "damage", by = 1, target = "self", duration = "permanent" }

[[cards]]
id = "pelda:tudos"
name = "Tudós"
kind = "creature"
text = "A kör elején húzol egy lapot, ha 3-nál kevesebb lap van a kezedben."
cost = { vp = 3 }
damage = 1
hp = 2

[[cards.abilities]]
kind = "automatic"
timing = "prep_stage2_start"
condition = { of = "own_hand", fewer_than = 3 }
effect = { do = "draw", count = 1, target = "controller" }

[[cards]]
id = "pelda:varvedo"
name = "Várvédő"
kind = "creature"
text = "Amíg legalább 2 épületed van, +1 Ép-t kap."
cost = { vp = 2 }
damage = 1
hp = 3

[[cards.abilities]]
kind = "static"
condition = { of = "own_buildings", at_least = 2 }
effect = { do = "modify", stat = "hp", by = 1, target = "self", duration = "permanent" }

[[cards]]
id = "pelda:rohamozo"
name = "Rohamozó"
kind = "creature"
text = "Amikor ez a lény támad, +1 sebzést kap a kör végéig."
cost = { vp = 3 }
damage = 2
hp = 2

[[cards.abilities]]
kind = "triggered"
when = { event = "attacks", which = "this" }
effect = { do = "modify", stat = "damage", by = 1, target = "self", duration = "until_end_of_turn" }

[[cards]]
id = "pelda:pajzsos"
name = "Pajzsos"
kind = "creature"
text = "Amikor ez a lény blokkol, 1 sebzést okoz az általa blokkolt lénynek."
cost = { vp = 3 }
damage = 1
hp = 4

[[cards.abilities]]
kind = "triggered"
when = { event = "blocks", which = "this" }
effect = { do = "damage", amount = 1, target = "trigger_source" }

[[cards]]
id = "pelda:csalo"
name = "Csaló"
kind = "creature"
text = "Amikor ezt a lényt blokkolják, 1 sebzést okoz az őt blokkoló lénynek."
cost = { vp = 2 }
damage = 1
hp = 3

[[cards.abilities]]
kind = "triggered"
when = { event = "is_blocked", which = "this" }
effect = { do = "damage", amount = 1, target = "trigger_source" }

[[cards]]
id = "pelda:verszivo"
name = "Vérszívó"
kind = "creature"
text = "Amikor ez a lény harci sebzést okoz, kapsz annyi VP-t, amennyi sebzést okozott."
cost = { vp = 4 }
damage = 2
hp = 3

[[cards.abilities]]
kind = "triggered"
when = { event = "deals_combat_damage", which = "this" }
effect = { do = "gain_vp", amount = { count = "trigger_amount" }, target = "controller" }

[[cards]]
id = "pelda:tuskes"
name = "Tüskés"
kind = "creature"
text = "Amikor ez a lény harci sebzést szenved, kapsz annyi VP-t, amennyi sebzést szenvedett."
cost = { vp = 3 }
damage = 1
hp = 5

[[cards.abilities]]
kind = "triggered"
when = { event = "takes_combat_damage", which = "this" }
effect = { do = "gain_vp", amount = { count = "trigger_amount" }, target = "controller" }

[[cards]]
id = "pelda:meregkeveto"
name = "Méregkeverő"
kind = "creature"
text = "Ha az ellenfélnek legalább 2 méregjelző a lényein van, a kör végén kapsz 1 VP-t."
cost = { vp = 3 }
damage = 1
hp = 2

[[cards.abilities]]
kind = "automatic"
timing = "end_stage2"
condition = { of = "opponent_poison", at_least = 2 }
effect = { do = "gain_vp", amount = 1, target = "controller" }

[[cards]]
id = "pelda:raj"
name = "Raj"
kind = "spell"
text = "Annyi sebzés az ellenfélnek, ahány lényed van."
cost = { vp = 3 }
effect = { do = "damage", amount = { count = "own_creatures" }, target = "opponent" }

[[cards]]
id = "pelda:csorda"
name = "Csorda"
kind = "spell"
text = "Minden lényed annyi plusz sebzést kap a kör végéig, ahány lényed van."
cost = { vp = 3 }

[[cards.effects]]
do = "modify"
stat = "damage"
by = { count = "own_creatures" }
target = "own_creatures"
duration = "until_end_of_turn"

[[cards]]
id = "pelda:kegyelemdofes"
name = "Kegyelemdöfés"
kind = "spell"
text = "1 sebzés minden sérült lénynek."
cost = { vp = 2 }

[[cards.effects]]
do = "damage"
amount = 1
target = "all_creatures"
where = { of = "damage_taken", at_least = 1 }

[[cards]]
id = "pelda:tisztitas"
name = "Tisztítás"
kind = "spell"
text = "Az ellenfél minden lénye, amelynek legalább 2 méregjelzője van, elpusztul."
cost = { vp = 3 }

[[cards.effects]]
do = "destroy"
target = "opponent_creatures"
where = { of = "counters", counter = "poison", at_least = 2 }

[[cards]]
id = "pelda:oriasolo"
name = "Óriásölő"
kind = "spell"
text = "Egy általad választott lény, amelynek legalább 4 sebzése van, elpusztul."
cost = { vp = 3 }
effect = { do = "destroy", target = "chosen_creature", where = { of = "damage", at_least = 4 } }

[[cards]]
id = "pelda:szelvihar"
name = "Szélvihar"
kind = "spell"
text = "1 sebzés az ellenfél minden lényének, amelynek legfeljebb 2 Ép-je van."
cost = { vp = 2 }

[[cards.effects]]
do = "damage"
amount = 1
target = "opponent_creatures"
where = { of = "hp", at_most = 2 }
'''

#: What each target means (``hkk._cards.types.Target``), as a card text says it.
TARGETS = {
    "self": "this permanent, the card the ability is on",
    "controller": "you, the ability's (or spell's) controller",
    "opponent": "your opponent",
    "each_player": "both players",
    "own_creatures": "every creature of yours in play",
    "opponent_creatures": "every creature of your opponent's in play",
    "all_creatures": "every creature in play",
    "chosen_creature": "a creature you choose (a `target` decision)",
    "chosen_own_creature": "a creature of yours you choose",
    "chosen_opponent_creature": "a creature of your opponent's you choose",
    "own_buildings": "every building of yours in play",
    "all_buildings": "every building in play",
    "chosen_building": "a building you choose",
    "chosen_player": "a player you choose (a `target_player` decision, D-chosen-player)",
    "trigger_permanent": "the permanent the triggering event happened to",
    "trigger_source": "the permanent that dealt the triggering damage (D-trigger-source)",
    "trigger_player": "the player who played the triggering card, or controls the permanent "
                      "it happened to",
}

#: What each duration means (``hkk._cards.types.Duration``); when it ends comes from the turn.
DURATIONS = {
    "permanent": "as long as its source is in play (static abilities use it)",
    "until_end_of_turn": "\"a kör végéig\": until the end of this turn",
    "this_turn": "\"csak ebben a körben\": this turn only",
    "until_preparation": "until the next preparation phase, whoever's it is",
    "until_own_preparation": "until its controller's next preparation phase (29.4.4)",
    "turns": "\"N körön át\": for `turns = N` turns (D-counted-turns)",
}

#: What each card kind is, and each quantity kind counts (where its class has no docstring).
CARD_KINDS = {
    "creature": "A creature: enters play in the reserve, fights with `damage` and `hp` (Ép)",
    "building": "A building: enters play among the buildings, with `sp` (Sp) as its Ép",
    "spell": "A spell (varázslat): its `effects` happen when it is played, then it goes to the "
             "graveyard",
}
QUANTITY_KINDS = {
    "vp": "VP (varázspont)", "hp": "Ép (életpont)", "components": "monster components",
    "hand": "cards in hand", "creatures": "creatures in play", "buildings": "buildings in play",
}

#: What each comparison of a condition says.
COMPARISONS = {"at_least": "the quantity is at least that (legalább)",
               "at_most": "the quantity is at most that (legfeljebb)",
               "more_than": "the quantity is more than that (több, mint)",
               "fewer_than": "the quantity is less than that (kevesebb, mint)"}
