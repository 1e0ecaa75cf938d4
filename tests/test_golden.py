"""The golden hash: every event of a few hundred seeded games of both shipped sets, hashed.

A refactor must keep every game's log identical for the same seed; this test proves it.  When a
change is *meant* to change games (a rules fix), print the new hashes with

    python tests/test_golden.py

and put them in ``GOLDEN_QUICK`` and ``GOLDEN`` in the same commit, saying in the message why the
games changed.  The default run checks the first 10 seeds (a second); the whole 300 games are
marked slow (CI runs them; ``-m "not slow"`` leaves them out while working).

The hash was re-recorded once for hook API 2.0's typed events (issue 20), which renamed event
fields and added a few redundant ones, and once for stable trigger labels (issue 24.17: a
triggered ability's label lost the number of the event that set it off).  :func:`hook_api_1`
turns a log back into the old names and :func:`labels_before_24_17` back into the old labels,
and the same 300 games, written that way, still hash to the hash before the renames
(``GOLDEN_HOOK_API_1``): both changes changed names and nothing else.

It was re-recorded once more when the random agents stopped drawing from the game's RNG (a
player's view has none: its state tells the shuffles) and drew from their own, seeded from the
game's seed and the seat.  Played by :class:`GameRngAgent` - the same choice, drawn from the
game's RNG as before - the same games still hash to the hash before (``GOLDEN_GAME_RNG``):
where the agents draw from is the only change.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from hkk import Engine
from hkk._agents import random_choice

PAIRINGS = (("alap:tuz", "alap:viz"), ("mereg:mocsar", "alap:tuz"), ("alap:viz", "mereg:mocsar"))
SEEDS = range(100)  # x 3 pairings = 300 games
QUICK_SEEDS = range(10)  # x 3 pairings = 30 games: the same games' first seeds

#: sha256 over the JSON event log of every game, pairing by pairing, seed by seed (the JSON keeps
#: each event's field order, which is part of the log).
GOLDEN = "f2cab258da8fbd4a549bf71538761b3848f064efbdf2577331f1edcf1196be3d"
GOLDEN_QUICK = "e5b585c1dbd9da161c9598f1fcf7eafa45a8e61da8d57349e77554fcf4ca7fad"  # QUICK_SEEDS

#: The same games' hashes with the random agents drawing from the game's RNG
#: (:class:`GameRngAgent`): the last GOLDEN and GOLDEN_QUICK before the agents' own RNGs.
GOLDEN_GAME_RNG = "519090c98362b7c613d62636b4ff1c560cb312daa6550e365dea7c438ad74107"
GOLDEN_QUICK_GAME_RNG = "bf42f1a3855886e4dbee9f43f43687080347f109943e88cb82476bbcc6177176"

#: The games of GOLDEN_GAME_RNG hashed in hook API 1's names and labels (the last GOLDEN of
#: hook API 1).
GOLDEN_HOOK_API_1 = "5325f74a160335cdfd937cba876710b259baae4974766349ff0abccb571772a0"


class GameRngAgent:
    """:class:`hkk.RandomAgent` as it was before it had an RNG of its own: the same choice,
    drawn from the game's RNG (it sees the game itself, as only a test's agent may)."""

    sees_everything = True

    def choose(self, game: Any, decision: Any) -> Any:
        return random_choice(game.rng, decision, pass_bias=0.25)

#: kind -> {field now: its hook API 1 name} (issue 20's renames).
RENAMED_SINCE_1 = {
    "resolving": {"uid": "source"},
    "cost_paid": {"controller": "player"},
    "entered_play": {"controller": "player"},
    "damaged": {"after": "hp"},
    "player_damaged": {"after": "hp"},
    "restored": {"after": "hp"},
    "vp_regenerated": {"after": "vp"},
    "vp_gained": {"after": "vp"},
    "vp_lost": {"after": "vp"},
    "components_gained": {"amount": "count"},
    "components_paid": {"amount": "count"},
    "components_extracted": {"amount": "count"},
    "counters_added": {"amount": "count", "after": "total"},
    "counters_removed": {"amount": "count", "after": "total"},
    "effect_created": {"amount": "by"},
    "effect_started": {"amount": "by"},
}
#: kind -> fields hook API 2.0 added, all of them redundant: the permanent's card id beside its
#: uid, and the uid of the permanent a damage came from (its label, `source`, names it too).
ADDED_IN_2 = {
    "damaged": ("source_uid",),
    "counters_added": ("card",),
    "counters_removed": ("card",),
    "defence_bonus_gained": ("card",),
    "defence_bonus_lost": ("card",),
}


def hook_api_1(event: dict[str, Any]) -> dict[str, Any]:
    """One event (``as_dict()``) as hook API 1 wrote it: old names, in the same order."""
    kind = event["kind"]
    renamed, added = RENAMED_SINCE_1.get(kind, {}), ADDED_IN_2.get(kind, ())
    old: dict[str, Any] = {}
    for name, value in event.items():
        if kind == "prevented" and name == "preventer_uid":  # was one `<card id>#<uid>`
            old["by"] = f"{event['preventer_card']}#{value}"
        elif not (name in added or (kind == "prevented" and name == "preventer_card")):
            old[renamed.get(name, name)] = value
    return old


def labels_before_24_17(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A log (``as_dicts()``) with each card trigger's label as it was before issue 24.17:
    ``<card id>#<uid>:<ability>@<seq of its cause>``, then ``.<subject uid>`` where the cause had
    several subjects (in these games only an effect ending on several permanents, which each
    watches for itself: its own uid).  Every string naming the new label, or ``use`` it, is
    changed until the label is given to a later trigger."""
    old_of: dict[str, str] = {}
    out = []
    for event in events:
        if event["kind"] == "triggered" and event["card"] is not None:
            base = re.sub(r" \(\d+\)\Z", "", event["item"])
            cause = events[event["cause_seq"]]
            many = cause["kind"] == "effect_ended" and len(cause["targets"]) > 1
            uid = re.search(r"#(\d+):\d+\Z", base)
            assert uid is not None, base
            old_of[event["item"]] = f"{base}@{cause['seq']}" + (f".{uid[1]}" if many else "")
        changed = {}
        for name, value in event.items():
            if isinstance(value, str):
                if value in old_of:
                    value = old_of[value]
                elif value.startswith("use ") and value[4:] in old_of:
                    value = f"use {old_of[value[4:]]}"
            changed[name] = value
        out.append(changed)
    return out


def golden_hashes(seeds: range = SEEDS, *, game_rng: bool = False,
                  hook_api_1_too: bool = False) -> tuple[str, str | None]:
    """(the hash of the logs, the hash of the same logs in hook API 1's names, or None unless
    ``hook_api_1_too``); ``game_rng``: played by :class:`GameRngAgent` instead of the engine's
    random agents."""
    engine = Engine.installed(allow=["alap", "mereg"], strict=True)
    digest, digest_1 = hashlib.sha256(), hashlib.sha256()
    for decks in PAIRINGS:
        for seed in seeds:
            agents = (GameRngAgent(), GameRngAgent()) if game_rng else None
            game = engine.play(list(decks), agents, seed=seed)
            digest.update(game.log.to_json().encode())
            digest.update(b"\n")
            if hook_api_1_too:
                old = [hook_api_1(e) for e in labels_before_24_17(game.log.as_dicts())]
                digest_1.update(json.dumps(old, ensure_ascii=False).encode())
                digest_1.update(b"\n")
    return digest.hexdigest(), digest_1.hexdigest() if hook_api_1_too else None


def _require_sets() -> None:
    try:
        engine_sets = set(Engine.installed(allow=["alap", "mereg"]).discovery.sets)
    except Exception:  # pragma: no cover - reported by the skip below
        engine_sets = set()
    if engine_sets != {"alap", "mereg"}:
        pytest.skip("the base set (in hkk) and hkk-set-mereg must be installed")


def test_golden_hash_of_30_seeded_games_is_unchanged() -> None:
    _require_sets()
    assert golden_hashes(QUICK_SEEDS)[0] == GOLDEN_QUICK


def test_golden_games_with_agents_drawing_from_the_game_rng_are_the_games_before() -> None:
    """The agents' own RNGs changed the golden games and nothing else: drawing from the
    game's RNG, the same choice gives the 30 games of the hash before."""
    _require_sets()
    assert golden_hashes(QUICK_SEEDS, game_rng=True)[0] == GOLDEN_QUICK_GAME_RNG


@pytest.mark.slow
def test_golden_hash_of_300_seeded_games_is_unchanged() -> None:
    _require_sets()
    assert golden_hashes()[0] == GOLDEN


@pytest.mark.slow
def test_golden_300_games_drawn_from_the_game_rng_are_the_games_before_in_both_hook_apis() -> None:
    """Played with the agents drawing from the game's RNG, the 300 games are those before the
    agents' own RNGs, and their logs in hook API 1's field names and with the old trigger
    labels hash as before the renames (only names changed, issues 20 and 24.17).  A test of
    its own beside the one above, so that two workers share the 600 games."""
    _require_sets()
    before, hook_api_1_hash = golden_hashes(game_rng=True, hook_api_1_too=True)
    assert before == GOLDEN_GAME_RNG
    assert hook_api_1_hash == GOLDEN_HOOK_API_1


def test_hook_api_1_names_are_what_the_event_classes_declare_as_renamed() -> None:
    """The table above and the classes' deprecation aliases (``Event.RENAMED``) agree."""
    from hkk.events import KINDS

    declared = {name: {new: old for old, new in cls.RENAMED.items()}
                for name, cls in KINDS.items() if cls.RENAMED}
    assert declared == RENAMED_SINCE_1
    assert set(KINDS["prevented"].LEGACY) == {"by"}
    for kind, fields in ADDED_IN_2.items():
        assert set(fields) <= set(KINDS[kind].FIELDS)


if __name__ == "__main__":
    print(f"GOLDEN_QUICK = {golden_hashes(QUICK_SEEDS)[0]!r}")
    print(f"GOLDEN = {golden_hashes()[0]!r}")
