"""A card's causal impact, ``hkk simulate --ablate CARD`` (hkk._ablation): the filler is defined
once (same kind and cost, no abilities; a creature's stats from the base set's plain creatures
of that cost), the same seeds are played as written and ablated, and the paired difference of
the deck's win rate finds a planted strong card and gives an interval covering 0 for a card
equal in effect to its filler."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_verify import fake_set  # noqa: F401 - the fixture: a throw-away installed set

from hkk import Engine
from hkk._ablation import ablated_list, creature_stats, filler_card, impact
from hkk._outcome import Outcome
from hkk.cli import main

ENGINE = Engine.installed(allow=["alap"])


def test_a_creature_filler_has_the_base_sets_plain_stats_for_its_cost() -> None:
    cards = ENGINE.cards
    # 4 VP: Kőgólem 3/5 and Tengeri kígyó 4/3, the mean rounded half up
    assert creature_stats(cards["alap:kogolem"].cost, cards) == (4, 4)
    # 2 VP: Falusi milícia 2/2 (Zsoldos costs a component too: another cost)
    assert creature_stats(cards["alap:falusi-milicia"].cost, cards) == (2, 2)
    # 3 VP: no plain creature of that cost in the base set: damage = Ép = VP
    filler = filler_card(cards["alap:tuzkopo"], cards)
    assert (filler.kind, filler.damage, filler.hp, filler.abilities) == ("creature", 3, 3, ())
    assert filler.cost == cards["alap:tuzkopo"].cost
    assert filler.components == cards["alap:tuzkopo"].components
    assert filler.id == "alap:tuzkopo-filler"


def test_a_building_filler_keeps_its_sp_and_a_spell_filler_gives_back_its_cost() -> None:
    cards = ENGINE.cards
    totem = filler_card(cards["alap:langolo-totem"], cards)
    assert (totem.kind, totem.sp, totem.abilities, totem.cost) == \
        ("building", 3, (), cards["alap:langolo-totem"].cost)
    flame = filler_card(cards["alap:langcsova"], cards)
    assert flame.kind == "spell" and flame.instant and flame.cost == cards["alap:langcsova"].cost
    assert [(e.do, e.target, e.amount) for e in flame.effects] == [("gain_vp", "controller", 2)]
    assert ablated_list(["alap:langcsova", "alap:tuzmano", "alap:langcsova"],
                        ["alap:langcsova"]) == \
        ["alap:langcsova-filler", "alap:tuzmano", "alap:langcsova-filler"]


def test_impact_is_the_paired_difference_of_the_same_games() -> None:
    def game(seed: int, winner: int, ablated: tuple[str, ...] = ()) -> Outcome:
        return Outcome(seed, ("A", "B"), winner=winner, reason="hp", turns=5,
                       agents=("x", "x"), ablated=ablated)
    written = [game(s, 0 if s < 6 else 1) for s in range(10)]
    ablated = [game(s, 0 if s < 2 else 1, ("a",)) for s in range(10)]
    rows = impact(written, ablated, "a", {"A": ["a", "b"], "B": ["b"]})
    assert [(r["tier"], r["deck"], r["games"], r["changed"], r["impact"]) for r in rows] == \
        [("x", "A", 10, 4, 0.4)]
    # four games of ten changed: sd of (1,1,1,1,0,...) is 0.516, half width 1.96 * 0.163
    assert rows[0]["ci_low"] == pytest.approx(0.4 - 0.3201, abs=1e-3)


PLANTED = '''
[[cards]]
id = "{code}:baka"
name = "Baka"
kind = "creature"
cost = {{ vp = 1 }}
damage = 1
hp = 2

[[cards]]
id = "{code}:sarkany"
name = "Sárkány"
kind = "creature"
cost = {{ vp = 2 }}
damage = 6
hp = 6

[[cards]]
id = "{code}:paraszt"
name = "Paraszt"
kind = "creature"
cost = {{ vp = 2 }}
damage = 2
hp = 2
'''

PLANTED_DECKS = '''
[[decks]]
name = "eros"
[decks.cards]
"{code}:baka" = 16
"{code}:sarkany" = 4

[[decks]]
name = "sima"
[decks.cards]
"{code}:baka" = 16
"{code}:paraszt" = 4
'''


def test_ablate_finds_a_planted_strong_card_and_not_a_card_equal_to_its_filler(
        tmp_path: Path, fake_set: Any) -> None:  # noqa: F811
    """Two decks identical but for four cards: a 2-VP 6/6 in one, a 2-VP 2/2 - the filler's
    stats, but not the filler - in the other.  Random players; the same seeds as written and
    ablated."""
    fake_set("abla", cards=PLANTED, decks=PLANTED_DECKS)
    out, page = tmp_path / "s.json", tmp_path / "r.html"
    result = CliRunner().invoke(main, [
        "simulate", "-n", "100", "-w", "1", "--set", "abla", "--decks", "abla:eros",
        "abla:sima", "--decks", "abla:sima", "abla:eros", "--tiers", "random",
        "--ablate", "abla:sarkany", "--ablate", "abla:paraszt", "--output-format", "json",
        "-o", str(out), "--html", str(page)])
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text(encoding="utf-8"))
    rows = {(r["card"], r["deck"]): r for r in summary["impact"]}
    assert set(rows) == {("abla:sarkany", "abla:eros"), ("abla:paraszt", "abla:sima")}
    strong = rows[("abla:sarkany", "abla:eros")]
    assert strong["games"] == 100 and strong["ci_low"] > 0, strong
    plain = rows[("abla:paraszt", "abla:sima")]
    assert plain["ci_low"] <= 0 <= plain["ci_high"], plain
    # the report's other tables are of the games as written only
    assert summary["games"] == 100 and summary["meta"]["ablate"] == ["abla:sarkany",
                                                                    "abla:paraszt"]
    html = page.read_text(encoding="utf-8")
    assert 'id="impact"' in html and "Sárkány" in html


@pytest.mark.parametrize(("card", "message"), [
    ("abla:nincs", "no card 'abla:nincs' in the loaded sets"),
    ("alap:tuzmano", "is in none of the decks played"),
])
def test_ablate_refuses_a_card_not_loaded_or_in_no_deck(
        card: str, message: str, fake_set: Any) -> None:  # noqa: F811
    fake_set("abla", cards=PLANTED, decks=PLANTED_DECKS)
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "-w", "1", "--set", "abla",
                                       "--set", "alap", "--decks", "abla:eros", "abla:sima",
                                       "--ablate", card])
    assert result.exit_code == 2 and message in result.output, result.output
