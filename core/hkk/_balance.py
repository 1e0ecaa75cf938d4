"""The balance report of ``hkk simulate``: what a designer may trust in many games' outcomes.

Random-vs-random win rates are no verdict (issue 22): many games end by an empty deck, so a
longer deck "wins"; and a card's "win rate when played" is biased, since the games in which a
card is not played are mostly short losses.  So the report, for each *tier* (the agents that
played: ``--tiers random,greedy,mcts`` plays the same games under each), shows:

- the pairings' win rates with Wilson intervals, how the games ended (``hp``: Ép, ``empty_deck``,
  ``turn_limit``) and the first player's advantage;
- each deck's win rate under each tier, and its **skill gap**: its win rate under the last tier
  minus under the first (tiers are given weakest first) - how much better players gain with it;
- **warnings**: decks of different sizes, and a tier in which more than a quarter of the games
  end by an empty deck (its win rates then measure deck length more than play);
- per card, within one tier, deck and opponent (a deck's strength never hides its card's; both
  seats pooled: each pairing plays both seat orders on the same seeds, and a mirror's two seats
  hold the same list): how often it was drawn and played, its **play rate when drawn** (the
  games it was played of those it was drawn), and the deck's win rate in the games the card
  was drawn vs the games it was not (HSReplay's "drawn win rate"), each with its Wilson
  interval.  The difference is tested with **Fisher's exact test** (two-sided; exact at any
  number of games, where a z test misleads at few games or rates near 0 or 1), and a card is
  **flagged** when its Benjamini-Hochberg q-value, over every card row of the report, is below
  5%.  Benjamini-Hochberg, not Holm: a designer screens dozens of cards for the few worth a
  look, and a false discovery rate of 5% keeps the power to find them, where Holm's
  family-wise 5% misses real effects as the number of cards grows.  (The drawn win rate is
  observational: ``--ablate`` measures a card's causal impact, docs/BALANCE.md);
- each card's play rate when drawn per tier, in one table;
- the cards **never played** (in the deck, not once played under the tier) and **never useful**
  (played, but no ability fired or was used and the permanent never attacked, blocked or dealt
  damage; spells count as useful when played; a static ability alone is not counted).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hkk._outcome import (
    ACTED,
    DRAWN,
    FIRED,
    GAMES_D,
    GAMES_P,
    GAMES_PD,
    NO_COLUMNS,
    PLAYED,
    PLAYED_D,
    USED,
    USEFUL_P,
    WINS_D,
    Group,
    Outcome,
    Tally,
)
from hkk._stats import benjamini_hochberg, fisher_exact, summarize, wilson

#: More than this share of a tier's games ending by an empty deck is warned about.
EMPTY_DECK_WARNING = 0.25

#: The false discovery rate of the flagged cards (Benjamini-Hochberg).
FALSE_DISCOVERY_RATE = 0.05

#: The ways a game ends (``game_over``'s reason), in the order the report shows them.
ENDINGS = ("hp", "empty_deck", "turn_limit")


def tier_label(agents: tuple[str, str] | None) -> str:
    """``greedy`` for a mirrored tier, ``mcts vs random`` otherwise; the engine's default
    random players (no ``--agents``, seeded as ``random`` ones are) are ``random (default)``."""
    if agents is None:
        return "random (default)"
    return agents[0] if agents[0] == agents[1] else f"{agents[0]} vs {agents[1]}"


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": round(wins / games, 4) if games else None,
            "ci_low": round(low, 4), "ci_high": round(high, 4)}


def _endings(reasons: Counter[str]) -> dict[str, int]:
    counts = Counter(reasons)
    ordered = {reason: counts.pop(reason, 0) for reason in ENDINGS}
    return {**ordered, **dict(sorted(counts.items()))}


def balance(outcomes: Sequence[Outcome] | Tally, deck_cards: Mapping[str, Sequence[str]],
            card_names: Mapping[str, str] | None = None,
            card_kinds: Mapping[str, str] | None = None,
            tiers: Sequence[tuple[str, str] | None] | None = None) -> dict[str, Any]:
    """The balance report of ``outcomes`` (or of their :class:`~hkk._outcome.Tally`; errors
    left out).  ``deck_cards``: deck spec -> its card ids, each copy once; ``card_kinds``:
    card id -> kind (spells are useful when played); ``tiers``: the agent pairings in their
    order (default: as first met)."""
    tally = outcomes if isinstance(outcomes, Tally) else Tally.of(outcomes)
    names = card_names or {}
    kinds = card_kinds or {}
    groups = tally.ordered()
    order = list(tiers) if tiers is not None else list(dict.fromkeys(g.agents for g in groups))
    by_tier: dict[tuple[str, str] | None, list[Group]] = {t: [] for t in order}
    for g in groups:
        if g.games:
            by_tier.setdefault(g.agents, []).append(g)
    report_tiers = [_tier(agents, games, deck_cards) for agents, games in by_tier.items()]
    cards = [row for agents, games in by_tier.items()
             for row in _card_rows(agents, games, deck_cards, names)]
    _flag(cards)
    unplayed, useless = _idle_cards(by_tier, deck_cards, names, kinds)
    return {
        "tiers": report_tiers,
        "skill_gap": _skill_gap(report_tiers),
        "warnings": _warnings(report_tiers, deck_cards),
        "cards": cards,
        "flagged": [row for row in cards if row["significant"]],
        "play_rates": _play_rates(cards),
        "never_played": unplayed,
        "never_useful": useless,
    }


def _tier(agents: tuple[str, str] | None, groups: list[Group],
          deck_cards: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    summary = summarize(Tally({(g.agents, g.decks, g.ablated): g for g in groups}),
                        {spec: [] for spec in deck_cards})
    by_pair: dict[tuple[str, str], Counter[str]] = {}
    deck_wins: dict[str, Counter[str]] = {}
    reasons: Counter[str] = Counter()
    for g in groups:
        by_pair.setdefault(g.decks, Counter()).update(g.reasons)
        reasons.update(g.reasons)
        for seat in (0, 1):
            c = deck_wins.setdefault(g.decks[seat], Counter())
            c["games"] += g.games
            c["wins"] += g.wins[seat]
    pairings = []
    for p in summary["pairings"]:
        endings = _endings(by_pair[(p["decks"][0], p["decks"][1])])
        pairings.append({**p, "endings": endings,
                         "empty_deck_share": round(endings["empty_deck"] / p["games"], 4)})
    endings = _endings(reasons)
    games = sum(g.games for g in groups)
    return {
        "label": tier_label(agents),
        "agents": list(agents) if agents is not None else None,
        "games": games,
        "pairings": pairings,
        "decks": [{"deck": deck, **_rate(c["wins"], c["games"])}
                  for deck, c in sorted(deck_wins.items())],
        "first_player": summary["first_player"],
        "turns": summary["turns"],
        "endings": endings,
        "empty_deck_share": round(endings["empty_deck"] / games, 4) if games else None,
    }


def _skill_gap(tiers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each deck's win rate per tier, and the last tier's minus the first's."""
    if len(tiers) < 2:
        return []
    decks = sorted({d["deck"] for t in tiers for d in t["decks"]})
    rows = []
    for deck in decks:
        rates = {t["label"]: next((d["rate"] for d in t["decks"] if d["deck"] == deck), None)
                 for t in tiers}
        first, last = rates[tiers[0]["label"]], rates[tiers[-1]["label"]]
        rows.append({"deck": deck, "rates": rates, "from": tiers[0]["label"],
                     "to": tiers[-1]["label"],
                     "gap": round(last - first, 4) if first is not None and last is not None
                     else None})
    return rows


def _warnings(tiers: list[dict[str, Any]], deck_cards: Mapping[str, Sequence[str]]
              ) -> list[str]:
    warnings = []
    met = sorted({tuple(sorted(p["decks"])) for t in tiers for p in t["pairings"]})
    for a, b in met:
        if a != b and len(deck_cards.get(a, ())) != len(deck_cards.get(b, ())):
            warnings.append(
                f"decks differ in size: {a} has {len(deck_cards.get(a, ()))} cards, {b} "
                f"{len(deck_cards.get(b, ()))}; the longer deck wins the games that end by an "
                f"empty deck (D-empty-deck)")
    for t in tiers:
        share = t["empty_deck_share"]
        if share is not None and share > EMPTY_DECK_WARNING:
            warnings.append(
                f"{share:.0%} of the games under {t['label']} ended by an empty deck (more than "
                f"{EMPTY_DECK_WARNING:.0%}): its win rates measure deck length more than play")
    return warnings


def _card_rows(agents: tuple[str, str] | None, groups: list[Group],
               deck_cards: Mapping[str, Sequence[str]], names: Mapping[str, str]
               ) -> list[dict[str, Any]]:
    """Per deck, opponent and card - both seats pooled (each pairing plays both seat orders
    on the same seeds, and a mirror's two seats are the same list) - the drawn win rate, the
    play rate when drawn and Fisher's exact p-value of drawn vs not drawn.  A card counts in
    the games of a deck that holds it, and one it is not in in the games it was drawn."""
    cells: dict[tuple[str, str], dict[str, Counter[str]]] = {}
    seats: dict[tuple[str, str], set[int]] = {}
    for g in groups:
        for seat in (0, 1):
            key = (g.decks[seat], g.decks[1 - seat])
            cell = cells.setdefault(key, {})
            seats.setdefault(key, set()).add(seat + 1)
            won = g.wins[seat]
            held = set(deck_cards.get(g.decks[seat], ()))
            counted = g.cards[seat]
            for card in held | {card for card, col in counted.items() if col[GAMES_D]}:
                col = counted.get(card, NO_COLUMNS)
                c = cell.setdefault(card, Counter())
                c["games_drawn"] += col[GAMES_D]
                c["wins_drawn"] += col[WINS_D]
                c["drawn"] += col[DRAWN]
                c["games_played_drawn"] += col[GAMES_PD]
                if card in held:
                    c["games_not_drawn"] += g.games - col[GAMES_D]
                    c["wins_not_drawn"] += won - col[WINS_D]
                    c["played"] += col[PLAYED]
                    c["games_played"] += col[GAMES_P]
                else:  # counted only in the games it was drawn
                    c["played"] += col[PLAYED_D]
                    c["games_played"] += col[GAMES_PD]
    rows = []
    label = tier_label(agents)
    for ((deck, opponent), cell) in sorted(cells.items()):
        for card, c in sorted(cell.items()):
            drawn = _rate(c["wins_drawn"], c["games_drawn"])
            not_drawn = _rate(c["wins_not_drawn"], c["games_not_drawn"])
            both = drawn["games"] and not_drawn["games"]
            p_value = fisher_exact(c["wins_drawn"], c["games_drawn"] - c["wins_drawn"],
                                   c["wins_not_drawn"],
                                   c["games_not_drawn"] - c["wins_not_drawn"]) if both else None
            rows.append({
                "tier": label, "deck": deck, "opponent": opponent,
                "seat": "+".join(str(s) for s in sorted(seats[deck, opponent])),
                "card": card, "name": names.get(card, card),
                "games": c["games_drawn"] + c["games_not_drawn"], "drawn": c["drawn"],
                "played": c["played"], "games_played": c["games_played"],
                "play_rate_drawn": _rate(c["games_played_drawn"], c["games_drawn"]),
                "win_rate_drawn": drawn, "win_rate_not_drawn": not_drawn,
                "difference": round(drawn["rate"] - not_drawn["rate"], 4) if both else None,
                "p_value": None if p_value is None else float(f"{p_value:.4g}"),
            })
    return rows


def _flag(rows: list[dict[str, Any]]) -> None:
    """Each tested row's q-value (Benjamini-Hochberg over every row of the report that has a
    p-value) and ``significant``: q below :data:`FALSE_DISCOVERY_RATE`."""
    tested = [row for row in rows if row["p_value"] is not None]
    q_values = benjamini_hochberg([row["p_value"] for row in tested])
    for row in rows:
        row["q_value"] = None
        row["significant"] = False
    for row, q in zip(tested, q_values, strict=True):
        row["q_value"] = float(f"{q:.4g}")
        row["significant"] = q < FALSE_DISCOVERY_RATE


def _play_rates(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per deck and card, its play rate when drawn under each tier (all opponents pooled):
    a card drawn but seldom played is weak, or the agents do not see what it does."""
    per: dict[tuple[str, str], dict[str, Counter[str]]] = {}
    names: dict[str, str] = {}
    for row in cards:
        c = per.setdefault((row["deck"], row["card"]), {}).setdefault(row["tier"], Counter())
        c["drawn"] += row["play_rate_drawn"]["games"]
        c["played"] += row["play_rate_drawn"]["wins"]
        names[row["card"]] = row["name"]
    return [{"deck": deck, "card": card, "name": names[card],
             "tiers": {tier: {"games_drawn": c["drawn"], "games_played": c["played"],
                              "rate": round(c["played"] / c["drawn"], 4) if c["drawn"]
                              else None}
                       for tier, c in tiers.items()}}
            for (deck, card), tiers in sorted(per.items())]


def _idle_cards(by_tier: Mapping[tuple[str, str] | None, list[Group]],
                deck_cards: Mapping[str, Sequence[str]], names: Mapping[str, str],
                kinds: Mapping[str, str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    unplayed, useless = [], []
    for agents, groups in by_tier.items():
        per_deck: dict[str, dict[str, Counter[str]]] = {}
        for g in groups:
            for seat in (0, 1):
                deck = per_deck.setdefault(g.decks[seat], {})
                held = set(deck_cards.get(g.decks[seat], ()))
                counted = g.cards[seat]
                for card in held | {card for card, col in counted.items() if col[GAMES_P]}:
                    col = counted.get(card, NO_COLUMNS)
                    c = deck.setdefault(card, Counter())
                    c["played"] += col[PLAYED]
                    if card in held:
                        c["games"] += g.games
                        c["games_drawn"] += col[GAMES_D]
                        c["useful"] += col[FIRED] + col[USED] + col[ACTED]
                    else:  # counted only in the games it was played
                        c["games"] += col[GAMES_P]
                        c["games_drawn"] += col[GAMES_PD]
                        c["useful"] += col[USEFUL_P]
        for deck_spec, cards in sorted(per_deck.items()):
            for card, counts in sorted(cards.items()):
                row = {"tier": tier_label(agents), "deck": deck_spec, "card": card,
                       "name": names.get(card, card), "games": counts["games"],
                       "games_drawn": counts["games_drawn"], "played": counts["played"]}
                if not counts["played"]:
                    unplayed.append(row)
                elif not counts["useful"] and kinds.get(card) != "spell":
                    useless.append(row)
    return unplayed, useless
