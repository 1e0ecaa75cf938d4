"""Statistics of many games' outcomes (:mod:`hkk._outcome`): the summary ``hkk simulate`` prints,
writes as JSON and draws in its HTML report.  Plain Python: the figures are counts and ratios.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from hkk._outcome import FIRED, GAMES_P, PLAYED, USED, WINS_P, Outcome, Tally

#: z for a 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): unlike the normal
    approximation it stays inside [0, 1] and is sound for few games or rates near 0 or 1.
    No trials: the whole range."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # it always holds p; min/max only undo rounding (p = 1 gave 0.9999999999999999)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def _rate(successes: int, trials: int) -> dict[str, Any]:
    low, high = wilson(successes, trials)
    return {"wins": successes, "games": trials,
            "rate": round(successes / trials, 4) if trials else None,
            "ci_low": round(low, 4), "ci_high": round(high, 4)}


def summarize(outcomes: Sequence[Outcome] | Tally, deck_cards: Mapping[str, Iterable[str]],
              card_names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The summary of ``outcomes`` (or of their :class:`~hkk._outcome.Tally`).
    ``deck_cards``: deck spec -> its card ids (a card's "not played" games are those of
    players whose deck held it but who did not play it).  A game stopped by an error
    (``Outcome.error``) is no result: it is only counted, in ``errors``."""
    tally = outcomes if isinstance(outcomes, Tally) else Tally.of(outcomes)
    names = card_names or {}
    decks_in = {spec: set(cards) for spec, cards in deck_cards.items()}
    pairings: dict[tuple[str, str], Counter[str]] = {}
    duel: dict[tuple[str, str], Counter[str]] = {}  # (deck, opponent) -> wins/games, any seat
    first_wins = first_games = errors = 0
    turns: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    card: dict[str, Counter[str]] = {}

    for g in tally.ordered():
        errors += len(g.errors)
        if not g.games:
            continue
        p = pairings.setdefault(g.decks, Counter())
        p["games"] += g.games
        p["draws"] += g.games - sum(g.wins)
        p["wins_1"] += g.wins[0]
        p["wins_2"] += g.wins[1]
        p["turns"] += sum(t * n for t, n in g.turns.items())
        first_games += g.first_games
        first_wins += g.first_wins
        turns.update(g.turns)
        reasons.update(g.reasons)
        for seat in (0, 1):
            d = duel.setdefault((g.decks[seat], g.decks[1 - seat]), Counter())
            d["games"] += g.games
            d["wins"] += g.wins[seat]
            in_deck = decks_in.get(g.decks[seat], set())
            won = g.wins[seat]
            for card_id, counted in g.cards[seat].items():
                held = card_id in in_deck
                if not (held or counted[PLAYED] or counted[FIRED] or counted[USED]):
                    continue
                c = card.setdefault(card_id, Counter())
                c["played"] += counted[PLAYED]
                c["fired"] += counted[FIRED]
                c["used"] += counted[USED]
                c["games_played"] += counted[GAMES_P]
                c["wins_played"] += counted[WINS_P]
                if held:  # the games it was in the deck and not played
                    c["games_unplayed"] += g.games - counted[GAMES_P]
                    c["wins_unplayed"] += won - counted[WINS_P]
            for card_id in in_deck - g.cards[seat].keys():
                c = card.setdefault(card_id, Counter())
                c["games_unplayed"] += g.games
                c["wins_unplayed"] += won

    specs = sorted({d for pair in pairings for d in pair})
    matrix: list[list[float | None]] = []
    for row in specs:
        matrix.append([])
        for col in specs:
            met = duel.get((row, col))
            # a mirror match counts each game twice (once per seat): still its true rate
            matrix[-1].append(round(met["wins"] / met["games"], 4) if met else None)
    return {
        "games": sum(pairing["games"] for pairing in pairings.values()),
        "errors": errors,
        "pairings": [
            {"decks": list(pair), "games": c["games"], "wins_1": c["wins_1"],
             "wins_2": c["wins_2"], "draws": c["draws"],
             "win_rate_1": _rate(c["wins_1"], c["games"]),
             "mean_turns": round(c["turns"] / c["games"], 2)}
            for pair, c in sorted(pairings.items())],
        "matrix": {"decks": specs, "win_rate": matrix},
        "first_player": _rate(first_wins, first_games),
        "turns": _turns(turns),
        "endings": dict(sorted(reasons.items())),
        "cards": [
            {"card": card_id, "name": names.get(card_id, card_id),
             "played": c["played"], "games_played": c["games_played"],
             "win_rate_played": _ratio(c["wins_played"], c["games_played"]),
             "games_unplayed": c["games_unplayed"],
             "win_rate_unplayed": _ratio(c["wins_unplayed"], c["games_unplayed"]),
             "fired": c["fired"], "used": c["used"]}
            for card_id, c in sorted(card.items())],
    }


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _turns(turns: Counter[int]) -> dict[str, Any]:
    """Mean, median, range and histogram of the games' turns (``turns``: turns -> games)."""
    games = sum(turns.values())
    if not games:
        return {"mean": None, "median": None, "min": None, "max": None, "histogram": {}}
    ordered = sorted((t, n) for t, n in turns.items() if n)

    def nth(k: int) -> int:  # the k-th (from 0) of the games' turns in order
        for t, n in ordered:
            if k < n:
                return t
            k -= n
        raise IndexError(k)

    middle = games // 2
    median = nth(middle) if games % 2 else (nth(middle - 1) + nth(middle)) / 2
    return {"mean": round(sum(t * n for t, n in ordered) / games, 2), "median": median,
            "min": ordered[0][0], "max": ordered[-1][0],
            "histogram": {str(t): n for t, n in ordered}}


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """The two-sided p-value of Fisher's exact test of the 2x2 table ``[[a, b], [c, d]]``
    (rows: drawn / not drawn; columns: won / lost): the chance, with the margins fixed, of a
    table at most as likely as this one.  Exact at any count, where the two-proportion z test
    misleads at few games or rates near 0 or 1.

    The tables' probabilities rise to the mode and fall after it, so those at most as likely
    as this one are a run at each end; of those only the ones within ``e**-NEGLIGIBLE`` of this
    one's are summed (the rest add less than a rounding error): found by bisection, a few
    thousand tables of a million games instead of all of them, the same sum."""
    row1, col1, n = a + b, a + c, a + b + c + d
    if n == 0 or row1 in (0, n) or col1 in (0, n):
        return 1.0

    def log_p(x: int) -> float:  # log of the hypergeometric probability of a = x
        return (_log_choose(col1, x) + _log_choose(n - col1, row1 - x) - _log_choose(n, row1))

    observed = log_p(a)
    most, least = observed + 1e-7, observed - NEGLIGIBLE
    low, high = max(0, row1 + col1 - n), min(row1, col1)
    mode = min(max((row1 + 1) * (col1 + 1) // (n + 2), low), high)
    rising = range(_first(low, mode, lambda x: log_p(x) >= least),
                   _first(low, mode, lambda x: log_p(x) > most))
    falling = range(_first(mode + 1, high, lambda x: log_p(x) <= most),
                    _first(mode + 1, high, lambda x: log_p(x) < least))
    total = sum(math.exp(log_p(x)) for x in itertools.chain(rising, falling))
    return min(1.0, total)


#: How far below the observed table's log-probability a table counts for nothing in
#: :func:`fisher_exact` (e**-60 ~ 1e-26 a table: a million of them are below a rounding error).
NEGLIGIBLE = 60.0


def _first(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The first ``x`` in ``low..high`` for which ``holds`` (false, then true: monotone), else
    ``high + 1``."""
    while low <= high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle - 1
        else:
            low = middle + 1
    return low


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """The Benjamini-Hochberg adjusted p-values (q-values), in the order given: a card is
    flagged at false discovery rate 5% when its q-value is below 0.05."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted
