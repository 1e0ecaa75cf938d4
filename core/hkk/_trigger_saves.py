"""The waiting triggered items saved, restored and copied to a copy of the game.

What waits across a step boundary (the moment at the start of prep stage 2) is saved as plain
data (:func:`saved_waiting`, :func:`restore_waiting`, :mod:`hkk._saving`), and copied with the
game between steps (:func:`copy_waiting`, :mod:`hkk._clone`).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import TYPE_CHECKING, Any

from hkk._errors import HkkError
from hkk._pending import Pending
from hkk._state import Permanent as PermanentOutOfPlay
from hkk._trigger_watch import _make_card_item

if TYPE_CHECKING:
    from hkk._game import Game
    from hkk._trigger_watch import TriggerDetection as TriggerWatch

__all__ = ["copy_waiting", "restore_resolving", "restore_waiting", "saved_waiting",
           "saved_waiting_cards", "waiting_count"]


def saved_waiting(game: Game) -> list[dict[str, Any]]:
    """The waiting items as plain data.  Only card triggers can be saved: a plugin's item
    holds code, so a save while one waits is refused (items wait across step boundaries only
    in the preparation phase, from the turn's deferred Ép check to the stage-2 pool)."""
    trigger_watch: TriggerWatch = game.triggers
    records = []
    for item in trigger_watch.waiting:
        if not item.data.get("card_trigger"):
            raise HkkError(f"a plugin's triggered item ({item.label}) is waiting for the next "
                           "step: the game cannot be saved here")
        records.append(_card_record(trigger_watch, item))
    return records


def _card_record(trigger_watch: TriggerWatch, item: Pending) -> dict[str, Any]:
    perm = item.source
    assert perm is not None and item.ability_index is not None
    bound = item.data["ctx"].trigger
    return {
        "label": item.label, "key": list(item.key), "uid": perm.uid,
        "card": perm.card.id, "controller": perm.controller, "ability": item.ability_index,
        "chain": list(trigger_watch.chains.get(item.key, (item.label,))),
        "permanent": bound["permanent"].uid if bound["permanent"] is not None else None,
        "source": bound["source"].uid if bound["source"] is not None else None,
        "player": bound["player"], "amount": bound.get("amount"),
        # the cards of those two, for one that has left play meanwhile (stood in for)
        "cards": [None if bound[name] is None else [bound[name].card.id, bound[name].controller]
                  for name in ("permanent", "source")]}


def restore_waiting(game: Game, records: list[dict[str, Any]], count: int,
                    gone: dict[int, Any] | None = None) -> None:
    """Rebuild the saved waiting items; a card that has left play meanwhile is stood in for by
    a permanent out of play (its "self" is no target any more, as before the save): the one of
    its uid in ``gone`` (a copy's, the original's as it left play), else a new one."""
    gone = gone or {}
    trigger_watch: TriggerWatch = game.triggers
    trigger_watch._count = count
    # Built now, from the state as loaded: a lazy build at a death or an expiry would no
    # longer see the permanent that died or the effect that ended.
    trigger_watch.index()
    trigger_watch.effect_targets()
    for record in records:
        perm = game.permanents.get(record["uid"]) or gone.get(record["uid"])
        if perm is None:
            perm = PermanentOutOfPlay(record["uid"], game.cards[record["card"]],
                                      record["controller"], "graveyard", 0)
        index = record["ability"]
        cards = record.get("cards") or [None, None]
        bound = {"permanent": _bound(game, record["permanent"], cards[0], gone),
                 "source": _bound(game, record["source"], cards[1], gone),
                 "player": record["player"], "amount": record.get("amount")}
        item = _make_card_item(perm, index, perm.card.abilities[index], record["label"], bound)
        item.key = tuple(record["key"])
        trigger_watch.waiting.append(item)
        trigger_watch.chains[item.key] = tuple(record["chain"])


def _bound(game: Game, uid: int | None, card: list[Any] | None, gone: dict[int, Any]) -> Any:
    """A trigger's bound permanent: in play, or one that has left play, stood in for."""
    if uid is None:
        return None
    perm = game.permanents.get(uid) or gone.get(uid)
    if perm is None and card is not None:
        perm = PermanentOutOfPlay(uid, game.cards[card[0]], card[1], "graveyard", 0)
    return perm


def copy_waiting(src: Game, dst: Game, remap: dict[int, Any]) -> None:
    """Give ``dst`` (a copy of ``src``, :mod:`hkk._clone`) the waiting items of ``src``'s watch
    (its counters, chains and indexes are copied by ``TriggerWatch.copy_for``).  A card's item
    is rebuilt on the copy's permanents as a save rebuilds it; a set's item is copied with its
    ``data``, the permanents in it (``remap``: id of the original -> the copy) replaced by the
    copy's.  What cannot be copied is a :class:`HkkError` naming the set."""
    old: TriggerWatch = src.triggers
    new: TriggerWatch = dst.triggers
    records = saved_waiting_cards(src)
    restore_waiting(dst, [r for r in records if r is not None], old._count,
                    _left_play(src, old.waiting))
    if any(r is None for r in records):
        memo = dict(remap)
        for card in src.cards.values():
            memo[id(card)] = card
        waiting: list[Pending] = []
        cards = iter(new.waiting)
        for item, record in zip(old.waiting, records, strict=True):
            if record is not None:
                waiting.append(next(cards))
                continue
            try:
                waiting.append(dataclasses.replace(
                    item, source=memo.get(id(item.source), item.source),
                    data=copy.deepcopy(item.data, memo)))
            except Exception as exc:  # noqa: BLE001 - any failure is the set's, named
                raise HkkError(f"a set's triggered item {item.label!r} (card "
                               f"{item.card_id}) holds data that cannot be copied: "
                               f"{type(exc).__name__}: {exc}") from None
        new.waiting = waiting


def _left_play(game: Game, waiting: list[Pending]) -> dict[int, Any]:
    """The permanents of card items waiting in ``game`` that have left play, by uid, copied as
    they left it: a copy's items read them as the original's do (a save, which has no such
    object, stands a new one in)."""
    found: dict[int, Any] = {}
    for item in waiting:
        if not item.data.get("card_trigger"):
            continue
        bound = item.data["ctx"].trigger
        for perm in (item.source, bound["permanent"], bound["source"]):
            if perm is None or perm.uid in game.permanents or perm.uid in found:
                continue
            left = copy.copy(perm)
            left.counters, left.mods = dict(perm.counters), dict(perm.mods)
            found[perm.uid] = left
    return found


def saved_waiting_cards(game: Game) -> list[dict[str, Any] | None]:
    """:func:`saved_waiting`'s records, None in place of each plugin's item."""
    trigger_watch: TriggerWatch = game.triggers
    records: list[dict[str, Any] | None] = []
    for item in trigger_watch.waiting:
        records.append(_card_record(trigger_watch, item) if item.data.get("card_trigger")
                       else None)
    return records


def waiting_count(game: Game) -> int:
    count: int = game.triggers._count
    return count


def restore_resolving(game: Game, record: dict[str, Any]) -> None:
    """Rebuild the saved item resolving (taken out of the queue while the machine stood at a
    decision about it, ``TriggerWatch.resolving``)."""
    trigger_watch: TriggerWatch = game.triggers
    restore_waiting(game, [record], trigger_watch._count)
    item = trigger_watch.waiting.pop()
    trigger_watch.chains.pop(item.key, None)
    trigger_watch.resolving = item
