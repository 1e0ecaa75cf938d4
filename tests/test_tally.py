"""Many games' outcomes tallied (``hkk._outcome.Tally``): what ``hkk simulate``'s reports read,
sent by each chunk instead of a row a game.  The reports of a tally merged from chunks, in any
order, are those of the games tallied at once; a card outside a deck's list counts only in the
games it was drawn (the drawn win rate) or played (the summary, the idle cards)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from hkk._ablation import impact
from hkk._balance import balance
from hkk._outcome import COLUMNS, Outcome, Tally
from hkk._stats import summarize

DECKS = {"A": ["a", "b"], "B": ["b", "c"]}
CARDS = ("a", "b", "c", "z")  # z is in no deck's list
KEYS = [(agents, decks, ablated) for agents in (None, ("x", "y"))
        for decks in (("A", "B"), ("B", "A"), ("A", "A")) for ablated in ((), ("a",))]

counts = st.dictionaries(st.sampled_from(CARDS), st.integers(1, 3), max_size=3)
games = st.fixed_dictionaries({
    "winner": st.sampled_from([0, 1, None]), "reason": st.sampled_from(["hp", "empty_deck",
                                                                        None]),
    "turns": st.integers(1, 6), "first": st.sampled_from([0, 1, None]),
    "error": st.sampled_from([None, None, None, "TriggerLoopError: loop"]),
    "counts": st.lists(st.tuples(counts, counts), min_size=5, max_size=5)})


def _outcome(seed: int, key: tuple[object, ...], game: dict[str, object]) -> Outcome:
    agents, decks, ablated = key
    o = Outcome(seed, decks, winner=game["winner"], reason=game["reason"],  # type: ignore[arg-type]
                turns=game["turns"], first=game["first"], agents=agents,  # type: ignore[arg-type]
                error=game["error"], ablated=ablated)  # type: ignore[arg-type]
    tables = [[Counter(seat) for seat in kind] for kind in game["counts"]]  # type: ignore[attr-defined]
    o.played, o.fired, o.used, o.drawn, o.acted = tables
    if o.error is not None:
        o.winner, o.reason = None, "error"
    return o


def _reports(tally: Tally) -> object:
    written = tally.select(())
    return (summarize(written, DECKS, {"a": "Ace"}),
            balance(written, DECKS, card_kinds={"c": "spell"}),
            impact(written, tally.select(("a",)), "a", DECKS),
            tally.errors(), tally.played,
            {key: g.seeds() for key, g in tally.groups.items()})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(range(len(KEYS))), st.lists(games, min_size=1,
                                                                      max_size=8)),
                min_size=1, max_size=6),
       st.randoms(use_true_random=False))
def test_a_tally_merged_from_chunks_in_any_order_reports_as_the_games_tallied_at_once(
        runs: list[tuple[int, list[dict[str, object]]]], rnd: random.Random) -> None:
    # a run: a group's consecutive seeds; cut into chunks, as hkk._simulate.plan cuts them
    chunks: list[list[Outcome]] = []
    for key_index, played in dict(runs).items():
        outcomes = [_outcome(seed, KEYS[key_index], game) for seed, game in enumerate(played)]
        cuts = sorted(rnd.sample(range(1, len(outcomes) + 1), rnd.randint(1, len(outcomes))))
        start = 0
        for cut in cuts:
            chunks.append(outcomes[start:cut])
            start = cut
    whole = Tally.of(o for chunk in chunks for o in chunk)
    merged = Tally()
    parts = []
    for index, chunk in enumerate(chunks):
        part = Tally.of(chunk)
        for group in part.groups.values():
            group.order = index
        parts.append(part)
    rnd.shuffle(parts)  # the workers finish in any order
    for part in parts:
        merged.merge(part)
    assert _reports(merged) == _reports(whole)
    assert merged.played == sum(len(chunk) for chunk in chunks)


# a count may be 0: a card listed with no count is not counted
counted_or_listed = st.dictionaries(st.sampled_from(CARDS), st.integers(0, 3), max_size=3)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    "winner": st.sampled_from([0, 1, None]), "error": st.sampled_from([None, None, "E: e"]),
    "counts": st.lists(st.tuples(counted_or_listed, counted_or_listed), min_size=5,
                       max_size=5)}), max_size=8))
def test_a_cards_columns_are_its_counts_summed_over_the_games_it_counted_in(
        played: list[dict[str, object]]) -> None:
    outcomes = [_outcome(seed, (None, ("A", "B"), ()),
                         {"reason": "hp", "turns": 3, "first": 0, **game})
                for seed, game in enumerate(played)]
    tally = Tally.of(outcomes)
    # each column by its definition (COLUMNS), game by game: error rows count in none
    expected: list[dict[str, list[int]]] = [{}, {}]
    for o in outcomes:
        if o.error is not None:
            continue
        for seat in (0, 1):
            kinds = (o.played, o.fired, o.used, o.drawn, o.acted)
            for card in CARDS:
                p_, f_, u_, d_, a_ = (kind[seat][card] for kind in kinds)
                if not any((p_, f_, u_, d_, a_)):
                    continue
                won = o.winner == seat
                row = dict(played=p_, fired=f_, used=u_, drawn=d_, acted=a_,
                           games_played=p_ > 0, wins_played=p_ > 0 and won,
                           games_drawn=d_ > 0, wins_drawn=d_ > 0 and won,
                           games_played_drawn=p_ > 0 and d_ > 0,
                           played_drawn=p_ if d_ > 0 else 0,
                           useful_played=f_ + u_ + a_ if p_ > 0 else 0)
                column = expected[seat].setdefault(card, [0] * len(COLUMNS))
                for k, name in enumerate(COLUMNS):
                    column[k] += int(row[name])
    groups = list(tally.groups.values())
    assert [g.cards for g in groups] == ([expected] if groups else [])


def _game(seed: int, winner: int, drawn: int = 0, played: int = 0, fired: int = 0) -> Outcome:
    o = Outcome(seed, ("A", "B"), winner=winner, reason="hp", turns=8, first=0,
                agents=("x", "x"))
    o.drawn[0]["z"], o.played[0]["z"], o.fired[0]["z"] = drawn, played, fired
    for kind in (o.drawn, o.played, o.fired):
        kind[0] = +kind[0]  # no zero counts, as the recorders make them
    return o


def test_a_card_outside_the_decks_counts_only_in_the_games_it_was_drawn_or_played() -> None:
    # z, in no list: drawn (fired, not played) in a won game, played undrawn in a lost one,
    # drawn twice and played in a won one; a fourth game without it
    games = [_game(0, 0, drawn=1, fired=1), _game(1, 1, played=1), _game(2, 0, drawn=2, played=1),
             _game(3, 1)]
    tally = Tally.of(games)
    summary = summarize(tally, DECKS)
    z = next(c for c in summary["cards"] if c["card"] == "z")
    # the summary counts it where played (and every firing): played in games 1 and 2
    assert (z["played"], z["games_played"], z["games_unplayed"], z["fired"]) == (2, 2, 0, 1)
    assert z["win_rate_played"] == 0.5
    report = balance(tally, DECKS)
    row = next(r for r in report["cards"] if r["card"] == "z" and r["deck"] == "A")
    # the drawn win rate where drawn: games 0 and 2, both won; its play of game 1 not counted
    assert (row["games"], row["drawn"], row["played"], row["games_played"]) == (2, 3, 1, 1)
    assert (row["win_rate_drawn"]["wins"], row["win_rate_drawn"]["games"]) == (2, 2)
    assert row["win_rate_not_drawn"]["games"] == 0 and row["p_value"] is None
    # idle where played: games 1 and 2, drawn in one, no firing there: never useful
    idle = next(r for r in report["never_useful"] if r["card"] == "z")
    assert (idle["games"], idle["games_drawn"], idle["played"]) == (2, 1, 2)
    assert report == balance(games, DECKS) and summary == summarize(games, DECKS)
