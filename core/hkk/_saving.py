"""Saving and loading games: a game between two steps as plain JSON data, and back.

``save_game(game)`` returns a dict ready for ``json.dumps``; ``load_game(engine, data)`` makes a
game that goes on exactly as the saved one would have (``game.play()``): the same events, the
same winner.  What the save holds: the format, the engine's and each loaded set's version, the
seed, the decks as dealt, the rulings that differ from the defaults, the whole state (players,
permanents, effects, offers, usage counts, the RNG, the clock, the step cursor) and the log.

What is derived is not saved but rebuilt from cards and effects: ``statics``, ``abilities_at``,
the permanents' modifier sums, hook caches, custom effects.  Agents are not state either: pass
them to :func:`load_game`; without them the built-in ones are rebuilt (a :class:`RandomAgent`
with its own RNG gets its saved RNG state back - also when you pass one).  State a plugin keeps
outside the game is not saved.  A turn limit given to ``play_game(max_turns=…)`` is not part of
the game: put it in the rulings (``Rulings(max_turns=…)``) to have it saved.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hkk._agents import FirstLegalAgent, RandomAgent
from hkk._changes import count_effect, refresh_statics
from hkk._clock import GameClock
from hkk._datafile import DataFileError, check_json_nesting
from hkk._driving import run_on
from hkk._effects import Duration, Effect
from hkk._errors import HkkError, SaveError
from hkk._forward import PositionError
from hkk._game import Game, GameEngine
from hkk._resolution import call_hook
from hkk._rulings import DEFAULT_RULINGS, Rulings
from hkk._state import GAME_STATE, ExtractionOffer, Permanent, undeclared
from hkk._triggers import restore_resolving, restore_waiting, saved_waiting, waiting_count
from hkk._version import __version__
from hkk.events import Event, of

if TYPE_CHECKING:
    from hkk._agents import Agent

__all__ = ["FORMAT", "SaveError", "SaveFile", "engine_versions", "load_game", "parse_save",
           "reduce_game", "save_game", "saved_state", "state_problem", "unpickle",
           "version_mismatches"]

#: 4: the turn machine's position saved as data (issue 30: its frames and the decision it waits
#: for); 3: saved at a decision as a checkpoint and the answers since: read as a 4 when saved
#: between steps or at an action step's loop, refused by name otherwise; 2: hook API 2.0's typed
#: events (issue 20), read as a 4 saved between steps; a 1 is refused by name.
FORMAT = "hkk-save/4"
#: Slots that are not saved as they are: the card (saved by id) and a derived cache.
_PERMANENT_SKIP = ("card", "mods")
_EVENT_FIELDS = ("seq", "turn", "step", "kind")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AgentState(_Strict):
    kind: Literal["random", "first", "other", "outside"]
    name: str
    pass_bias: float | None = None
    rng: tuple[int, list[int], float | None] | None = None


class PlayerState(_Strict):
    """A player as saved (the slots of :class:`hkk.Player`), with the ranges the game keeps."""

    index: Annotated[int, Field(ge=0, le=1)]
    name: str
    hp: int  # below 0 after the blow that decides the game
    vp: Annotated[int, Field(ge=0)]
    components: Annotated[int, Field(ge=0)]
    deck: list[str]
    hand: list[str]
    graveyard: list[str]
    void: list[str]
    turns_taken: Annotated[int, Field(ge=0)]
    vp_received: Annotated[int, Field(ge=0)]


class GameState(BaseModel):
    #: a field a state declaration adds (hkk._state.GAME_STATE) is read by its name; one no
    #: declaration names is refused when the game is built (:func:`_build`)
    model_config = ConfigDict(extra="allow")

    players: Annotated[list[PlayerState], Field(min_length=2, max_length=2)]
    permanents: list[dict[str, Any]]
    effects: list[dict[str, Any]]
    offers: list[dict[str, Any]]
    usage_turn: list[tuple[list[Any], int]]  # usage keys are tuples: [key as a list, count]
    usage_game: list[tuple[list[Any], int]]
    attempted: list[list[Any]]
    rng: tuple[int, list[int], float | None]
    clock: dict[str, Any] | None
    next_uid: int
    turn: Annotated[int, Field(ge=0)]
    active: Annotated[int, Field(ge=0, le=1)]
    step_index: Annotated[int, Field(ge=0)] | None
    step: int | None  # index in the turn's steps of ``game.step``
    turn_passed: bool
    started: bool
    over: bool
    winner: int | None
    log_turn: int
    log_step: str
    #: Card triggers waiting across the step boundary (hkk._triggers), and the trigger count.
    triggers: list[dict[str, Any]] = []
    trigger_count: int = 0
    #: the trigger watch's killers: [uid, the uid whose damage it took last, turn]
    last_hit: list[tuple[int, int | None, int]] = []
    #: each set's per-game data (game.set_data), plain JSON
    set_data: dict[str, Any] = {}


class SaveFile(_Strict):
    """The saved form, validated when it is read."""

    format: Literal["hkk-save/4"]
    engine: str
    sets: dict[str, str]  # set code -> version
    seed: int
    decks: list[list[str]]
    rulings: dict[str, Any]
    turn_steps: list[str]
    agents: list[AgentState]
    state: GameState
    log: list[dict[str, Any]]
    #: Saved inside a step: the turn machine's position (hkk._forward.Position): its frames,
    #: encoded (:func:`encode`), the phase whose offers close, and the decision it waits for
    #: (kind, player, option labels), checked against the game when it is loaded.
    position: Position | None = None


class Waiting(_Strict):
    kind: str
    player: Annotated[int, Field(ge=0, le=1)]
    labels: list[str]


class Held(_Strict):
    """The rules' item the machine stood in (``Position.kept_held``), named by where its
    plugin keeps it: ``plugin`` (its class, module-qualified), ``attribute``, ``index`` in it
    (a list or tuple of items) or None; its label and key (:func:`encode`d) are checked."""

    plugin: str
    attribute: str
    index: int | None = None
    label: str
    key: Any


class Position(_Strict):
    frames: list[list[Any]]
    closing: str | None = None
    waiting: Waiting | None = None
    #: the item resolving, taken out of the trigger queue (hkk._trigger_queue)
    resolving: dict[str, Any] | None = None
    #: the rules' item whose bind stood at the decision (an attack whose trigger asks): the
    #: step may no longer offer it (optional: a save without it reads as before)
    held: Held | None = None


# -- versions ------------------------------------------------------------------------------------

def engine_versions(engine: GameEngine) -> tuple[str, dict[str, str]]:
    """This engine's version and each loaded set's code and version."""
    found = engine.discovery
    sets = {code: s.manifest.version for code, s in found.sets.items()} if found else {}
    return __version__, dict(sorted(sets.items()))


def version_mismatches(engine: GameEngine, save: SaveFile) -> list[str]:
    """How the save's versions differ from this engine's ("engine 0.1.0 vs 0.2.0", …)."""
    version, sets = engine_versions(engine)
    problems = [f"engine {save.engine} vs {version}"] if save.engine != version else []
    for code in sorted(set(save.sets) | set(sets)):
        saved, here = save.sets.get(code, "(not loaded)"), sets.get(code, "(not loaded)")
        if saved != here:
            problems.append(f"set {code} {saved} vs {here}")
    return problems


# -- saving --------------------------------------------------------------------------------------

def _slots(obj: Any, skip: Sequence[str] = ()) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in type(obj).__slots__ if name not in skip}


def _agent_state(agent: Any) -> dict[str, Any]:
    if agent is None:
        return {"kind": "outside", "name": "answered from outside"}
    name = f"{type(agent).__module__}.{type(agent).__qualname__}"
    if type(agent) is RandomAgent:
        return {"kind": "random", "name": name, "pass_bias": agent.pass_bias,
                "rng": agent.rng_state()}
    if type(agent) is FirstLegalAgent:
        return {"kind": "first", "name": name}
    return {"kind": "other", "name": name}


def save_game(game: Game) -> dict[str, Any]:
    """The game as JSON-ready data: between two steps (or before, or after, the game), or at
    a decision (the machine's position saved with it).  Anywhere else inside a step (a log
    listener, a hook) it is refused."""
    machine = game.machine
    at = machine.waiting or machine.asking
    if machine.running and machine.asking is None:
        raise SaveError("a game can be saved only between two steps or at a decision, not "
                        "inside a step (a log listener or a hook)")
    if game.in_moment or game.bonus_losses:
        raise SaveError("a game can be saved only between two steps, not inside one")
    if game.log.level != "full":  # saves and replays are built from the whole log
        raise SaveError(f"a game can be saved only with the full log; this one keeps the "
                        f"{game.log.level!r} log (Engine.new_game(..., log_level='full'))")
    steps = list(game.turn_steps)
    version, sets = engine_versions(game.engine)
    trigger_watch = game.triggers
    with trigger_watch.taken_back():
        state = saved_state(game)
    resolving = None
    if trigger_watch.resolving is not None:
        resolving = state["triggers"].pop()
    position = None
    if machine.frames:
        position = {"frames": encode(machine.frames), "closing": machine.closing,
                    "resolving": resolving, "held": _held_reference(game),
                    "waiting": None if at is None else {
                        "kind": at.kind, "player": at.player, "labels": list(at.labels())}}
    data = {
        "format": FORMAT,
        "engine": version,
        "sets": sets,
        "seed": game.seed,
        "decks": [list(d) for d in game.decks],
        "rulings": _rulings_diff(game.rulings),
        "turn_steps": [s.hook for s in steps],
        "agents": [_agent_state(a) for a in game.agents],
        "state": state,
        "log": game.log.as_dicts(),
        "position": position,
    }
    plain: dict[str, Any] = json.loads(json.dumps(data))  # JSON types only (tuples: lists)
    return plain


def _held_reference(game: Game) -> dict[str, Any] | None:
    """Where the plugin that made the held rules' item keeps it (:class:`Held`), or None: no
    such item, or one no plugin keeps in an attribute that the step still offers (a load
    collects it by its key, as the machine does).  One that neither holds - made afresh by
    its hook, which no longer offers it (an attack whose trigger asks, the attackers now
    passive) - is refused by name: its ``bind`` and ``apply`` are code, not data, and a load
    could not find it again."""
    item = game.machine.kept_held()
    if item is None:
        return None
    for plugin in game.pm.get_plugins():
        for attribute, value in getattr(plugin, "__dict__", {}).items():
            values = value if type(value) in (list, tuple) else (value,)
            for index, found in enumerate(values):
                if found is item:
                    return {"plugin": _class_path(plugin), "attribute": attribute,
                            "index": None if values is not value else index,
                            "label": item.label, "key": encode(item.key)}
    step = game.step
    hook = step.hook if step is not None else "(no step)"
    if step is not None and any(i.key == item.key and i.label == item.label
                                for i in call_hook(game, hook)):
        return None
    raise SaveError(f"this game cannot be saved at this decision: it stands in the rules' "
                    f"item {item.label!r} (key {item.key!r}, rule {item.rule}), which no "
                    f"plugin keeps in an attribute and step {hook} no longer offers, so a "
                    "load could not find it again; a rules plugin makes such an item once "
                    "and keeps it in an attribute (as hkk.rules.combat keeps its attack items)")


def _class_path(plugin: Any) -> str:
    return f"{type(plugin).__module__}.{type(plugin).__qualname__}"


def _find_held(game: Game, held: Held) -> Any:
    """The held item as :func:`_held_reference` named it, from this game's plugins."""
    for plugin in game.pm.get_plugins():
        if _class_path(plugin) != held.plugin:
            continue
        value: Any = getattr(plugin, "__dict__", {}).get(held.attribute)
        if held.index is not None:
            ok = isinstance(value, (list, tuple)) and 0 <= held.index < len(value)
            value = value[held.index] if ok else None
        if getattr(value, "label", None) == held.label and \
                getattr(value, "key", None) == decode(held.key):
            return value
    raise SaveError(f"the save's position stands in the item {held.label!r} of plugin "
                    f"{held.plugin} ({held.attribute}), which this engine's plugins do not hold")


def encode(value: Any) -> Any:
    """A frame's values as JSON: a tuple and a set marked as such (a set sorted, so the same
    game gives the same file)."""
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, set):
        return {"set": sorted((encode(v) for v in value), key=json.dumps)}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise SaveError(f"the machine's position holds a {type(value).__name__}, which a save "
                    "cannot hold")


def decode(value: Any, depth: int = 0) -> Any:
    """:func:`encode`'s JSON back to a frame's values."""
    if depth > 20:
        raise SaveError("the save's position is nested deeper than any frame")
    if isinstance(value, list):
        return [decode(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if set(value) == {"tuple"} and isinstance(value["tuple"], list):
            return tuple(decode(v, depth + 1) for v in value["tuple"])
        if set(value) == {"set"} and isinstance(value["set"], list):
            return {decode(v, depth + 1) for v in value["set"]}
        raise SaveError(f"the save's position holds {value!r:.80}, not a frame's value")
    return value


def saved_state(game: Game, declaration: dict[str, str] | None = None) -> dict[str, Any]:
    """The game's state as a save holds it (JSON types: what ``hkk replay`` compares): each
    field of the state declaration (:data:`hkk._state.GAME_STATE`, or ``declaration``) as its
    kind says (:data:`SAVE`; the seed, decks, log, agents and position are the file's own)."""
    declared = GAME_STATE if declaration is None else declaration
    missing = undeclared(game.__dict__, declared)
    if missing:
        raise SaveError(f"the game has fields no state declaration names: {missing} "
                        "(declare them in hkk._state.GAME_STATE)")
    state: dict[str, Any] = {}
    for name, kind in declared.items():
        SAVE[kind](game, name, getattr(game, name), state)
    plain: dict[str, Any] = json.loads(json.dumps(state))
    return plain


def _save_permanents(game: Game, name: str, permanents: Any, state: dict[str, Any]) -> None:
    saved = []
    for perm in permanents.values():
        data = _slots(perm, _PERMANENT_SKIP)
        data["card"] = perm.card.id
        data["counters"] = dict(perm.counters)
        saved.append(data)
    state[name] = saved


def _save_effects(game: Game, name: str, effects: Any, state: dict[str, Any]) -> None:
    saved = []
    for effect in effects:
        data = _slots(effect)
        data["duration"] = effect.duration.value
        data["targets"] = sorted(effect.targets)
        saved.append(data)
    state[name] = saved


def _save_log(game: Game, name: str, log: Any, state: dict[str, Any]) -> None:
    state["log_turn"], state["log_step"] = log.turn, log.step  # the events: the file's "log"


def _save_watch(game: Game, name: str, watch: Any, state: dict[str, Any]) -> None:
    state["triggers"] = _waiting_triggers(game)
    state["trigger_count"] = waiting_count(game)
    state["last_hit"] = [[uid, by, turn] for uid, (by, turn) in watch.last_hit.items()]


def _save_set_data(game: Game, name: str, data: Any, state: dict[str, Any]) -> None:
    for code, value in data.items():
        try:
            json.dumps(value)
        except (TypeError, ValueError) as exc:
            raise SaveError(f"set {code!r} keeps per-game data a save cannot hold "
                            f"(game.set_data[{code!r}]: plain JSON data, permanents by uid): "
                            f"{exc}") from None
    state[name] = data


def _nothing(game: Game, name: str, value: Any, state: dict[str, Any]) -> None:
    """The file's own (seed, decks, agents) or its position: not in the state."""


#: How a save writes each kind of field of the state declaration (``save(game, name, value,
#: state)``); :data:`LOAD` reads it back.
SAVE: dict[str, Callable[[Game, str, Any, dict[str, Any]], None]] = {
    "value": lambda game, name, value, state: state.__setitem__(name, value),
    "file": _nothing,
    "agents": _nothing,
    "position": _nothing,
    "players": lambda game, name, players, state: state.__setitem__(name, [
        {n: list(v) if isinstance(v, list) else v for n, v in _slots(p).items()}
        for p in players]),
    "permanents": _save_permanents,
    "effects": _save_effects,
    "offers": lambda game, name, offers, state: state.__setitem__(
        name, [_slots(o) for o in offers]),
    "counts": lambda game, name, counts, state: state.__setitem__(
        name, [[list(k), n] for k, n in counts.items()]),
    # a set: sorted so that the same game gives the same file
    "keys": lambda game, name, keys, state: state.__setitem__(
        name, sorted((list(k) for k in keys), key=json.dumps)),
    "step": lambda game, name, step, state: state.__setitem__(
        name, None if step is None else list(game.turn_steps).index(step)),
    "rng": lambda game, name, rng, state: state.__setitem__(name, rng.getstate()),
    "clock": lambda game, name, clock, state: state.__setitem__(
        name, clock.save() if isinstance(clock, GameClock) else None),
    "set_data": _save_set_data,
    "log": _save_log,
    "watch": _save_watch,
}


def _waiting_triggers(game: Game) -> list[dict[str, Any]]:
    try:
        return saved_waiting(game)
    except HkkError as exc:
        raise SaveError(str(exc)) from None


def _rulings_diff(rulings: Rulings) -> dict[str, Any]:
    return {f.name: getattr(rulings, f.name) for f in dataclasses.fields(rulings)
            if getattr(rulings, f.name) != getattr(DEFAULT_RULINGS, f.name)}


# -- loading -------------------------------------------------------------------------------------

def parse_save(data: Any) -> SaveFile:
    """Validate a save (a dict, or JSON text); a foreign or broken one is a :class:`SaveError`
    with one line naming the first problem.  A save of format 2 is read as a 3 made between
    two steps (the same fields, no answers)."""
    try:
        check_json_nesting(data)  # before anything recurses into it
    except DataFileError as exc:
        raise SaveError(f"not an hkk save ({FORMAT}): {exc}") from None
    found = _format_of(data)
    if found in ("hkk-save/2", "hkk-save/3"):
        data = _migrated(dict(json.loads(data) if isinstance(data, (str, bytes)) else data),
                         found)
    if found == "hkk-save/1":
        raise SaveError("a save of hook API 1 (hkk-save/1): its log names event fields the "
                        "old way; load it with the engine that made it (this one reads "
                        f"{FORMAT})")
    try:
        if isinstance(data, (str, bytes)):
            return SaveFile.model_validate_json(data)
        return SaveFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
        raise SaveError(f"not an hkk save ({FORMAT}): {where}: {first['msg']}{more}") from None


def _migrated(data: dict[str, Any], found: str) -> dict[str, Any]:
    """A save of format 2 or 3 as a 4: saved between two steps, or at an action step's loop
    (its ``resume``: the machine's frames of that loop).  A 3 saved at another decision
    (a checkpoint and answers) is refused, naming both formats."""
    answers, resume = data.pop("answers", []), data.pop("resume", None)
    data["format"] = FORMAT
    if answers:
        raise SaveError(f"a save of {found} made inside a step at a nested decision (a "
                        f"checkpoint and {len(answers)} answers): this engine reads {FORMAT}, "
                        "whose position is data; load it with the engine that made it, or "
                        "save it again between two steps")
    if resume is not None:
        if not (isinstance(resume, list) and len(resume) == 3 and resume[0] == "actions"
                and resume[1] in (0, 1) and isinstance(resume[2], bool)):
            raise SaveError(f"the save's resume {resume!r:.60} is not a place a game of "
                            f"{found} stops at (an action step's loop: "
                            '["actions", player, passed])')
        data["position"] = {"frames": [["actions", resume[1], resume[2], 0, 0, None]]}
    return data


def _format_of(data: Any) -> Any:
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except ValueError:
            return None
    return data.get("format") if isinstance(data, dict) else None


def _key(value: list[Any]) -> tuple[Any, ...]:
    # usage keys are tuples of plain values; a list inside one was a tuple too
    return tuple(_key(v) if isinstance(v, list) else v for v in value)


def _restore(obj: Any, data: dict[str, Any], what: str, skip: Sequence[str] = ()) -> None:
    expected = {n for n in type(obj).__slots__ if n not in skip}
    if set(data) != expected:
        missing, unknown = sorted(expected - set(data)), sorted(set(data) - expected)
        raise SaveError(f"the save's {what} fields do not match this engine's: "
                        f"missing {missing}, unknown {unknown}")
    for name, value in data.items():
        setattr(obj, name, value)


def _agents(save: SaveFile, agents: Sequence[Agent] | None) -> list[Any]:
    if agents is None:
        made: list[Any] = []
        for index, saved in enumerate(save.agents):
            if saved.kind == "outside":
                made.append(None)
                continue
            if saved.kind == "other":
                raise SaveError(f"player {index + 1}'s agent was a {saved.name}, not a built-in "
                                "one: pass the agents to load_game(…, agents=…)")
            made.append(RandomAgent(pass_bias=saved.pass_bias if saved.pass_bias is not None
                                    else 0.25) if saved.kind == "random" else FirstLegalAgent())
        agents = made
    agents = list(agents)
    for agent, saved in zip(agents, save.agents, strict=False):  # extra agents: not saved ones
        if isinstance(agent, RandomAgent) and saved.rng is not None:
            agent.set_rng_state((saved.rng[0], tuple(saved.rng[1]), saved.rng[2]))
    return agents


def load_game(engine: GameEngine, data: Any, agents: Sequence[Agent] | None = None, *,
              clock: Any = None, force: bool = False) -> Game:
    """A game from a save (a dict or JSON text), ready to go on with ``game.play()``.

    Refused (:class:`SaveError`) when the save was made with another engine or set versions,
    unless ``force``; ``clock`` replaces the default :class:`GameClock`."""
    save = data if isinstance(data, SaveFile) else parse_save(data)
    problems = version_mismatches(engine, save)
    if problems and not force:
        raise SaveError(f"the save was made with other versions: {'; '.join(problems)}")
    hooks = [s.hook for s in engine.turn]
    if save.turn_steps != hooks:
        raise SaveError(f"the save's turn has the steps {save.turn_steps}, this engine's "
                        f"{hooks}")
    unknown = sorted({c for deck in save.decks for c in deck if c not in engine.cards})
    if unknown:
        raise SaveError(f"the save's decks have cards this engine does not know: {unknown}")
    problem = state_problem(save, len(hooks))
    if problem is not None:
        raise SaveError(f"the save's state is not a game's: {problem}")
    try:
        game = _build(engine, save, agents, clock)
    except (KeyError, TypeError, ValueError, IndexError) as exc:  # valid JSON, broken state
        raise SaveError(f"the save's state is broken: {type(exc).__name__}: {exc}") from None
    if save.position is not None:
        _resume_at_decision(game, save.position)
    return game


def state_problem(save: SaveFile, steps: int) -> str | None:
    """What makes the saved state one no game can be in, or None: a permanent listed twice, a
    player's cards that do not add up to the deck dealt to him (each card in exactly one zone:
    deck, hand, graveyard, void or in play, by owner; not for a game set up by hand, whose
    test put cards where it wanted), a cursor past the turn's steps."""
    s = save.state
    uids = [p.get("uid") for p in s.permanents]
    twice = sorted({uid for uid in uids if uids.count(uid) > 1}, key=str)
    if twice:
        return f"permanents: uid {twice[0]} is listed twice"
    for i, perm in enumerate(s.permanents):
        for name in ("owner", "controller"):
            if perm.get(name) not in (0, 1):
                return f"permanents[{i}].{name}: {perm.get(name)!r} is no player (0 or 1)"
    if s.step_index is not None and s.step_index > steps:
        return f"step_index: {s.step_index} is past the turn's {steps} steps"
    started = next((e for e in save.log if e.get("kind") == "game_started"), None)
    if started is None or started.get("built"):  # a test's board: cards put where it says
        return None
    for index, (player, dealt) in enumerate(zip(s.players, save.decks, strict=False)):
        held = Counter(player.deck + player.hand + player.graveyard + player.void)
        held.update(str(p.get("card")) for p in s.permanents if p.get("owner") == index)
        held.update(str(f[3]) for f in (save.position.frames if save.position else ())
                    if f[:1] == ["spell"] and len(f) == 4 and f[2] == index)  # being played
        extra, missing = held - Counter(dealt), Counter(dealt) - held
        if extra or missing:
            card = sorted(extra or missing)[0]
            what = (f"{card} of the deck dealt is in no zone" if not extra
                    else f"{card} is not in the deck dealt to him" if card not in dealt
                    else f"{card} is in one zone more than the deck dealt holds")
            return f"players[{index}]: {what} (each card is in exactly one zone)"
    return None


def _resume_at_decision(game: Game, position: Position) -> None:
    """Put the machine where the save stood and go back down to its decision, checking it is
    the one saved: a position that does not match the game is refused."""
    machine = game.machine
    frames = decode(position.frames)
    if not all(isinstance(f, list) and f and isinstance(f[0], str) for f in frames):
        raise SaveError("the save's position is not a list of frames")
    machine.frames, machine.closing = frames, position.closing
    if position.resolving is not None:
        restore_resolving(game, position.resolving)
    if position.held is not None:
        machine.held = _find_held(game, position.held)
    seated = game.agents
    game.agents = [None, None]
    try:
        run_on(game)
    except (PositionError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SaveError(f"the save's position does not match its game ({type(exc).__name__}: "
                        f"{exc})") from None
    finally:
        game.agents = seated
    got, saved = machine.waiting, position.waiting
    if saved is None and got is not None:  # an older format's: it named no decision
        return
    if got is None or saved is None or (got.kind, got.player, list(got.labels())) != (
            saved.kind, saved.player, saved.labels):
        found = "none" if got is None else f"player {got.player}'s {got.kind} {got.labels()}"
        wanted = "none" if saved is None else \
            f"player {saved.player}'s {saved.kind} {saved.labels}"
        raise SaveError(f"the save's position and answers do not match the game: it waits "
                        f"for {wanted}, the game stands at {found}")


def _build(engine: GameEngine, save: SaveFile, agents: Sequence[Agent] | None, clock: Any,
           declaration: dict[str, str] | None = None) -> Game:
    s = save.state
    declared = GAME_STATE if declaration is None else declaration
    extra = sorted(set(s.model_extra or ()) - set(declared))
    if extra:
        raise SaveError(f"the save's state has fields this engine does not know: {extra}")
    rulings = dataclasses.replace(DEFAULT_RULINGS, **save.rulings)
    game = Game(engine, save.decks, _agents(save, agents), seed=save.seed,
                names=[p.name for p in s.players], rulings=rulings, clock=clock)
    for name, kind in declared.items():
        LOAD[kind](game, name, s, save)
    refresh_statics(game)  # conditions read the whole state, now restored (D-conditions)
    return game


def _load_players(game: Game, name: str, s: GameState, save: SaveFile) -> None:
    for player, saved_player in zip(game.players, s.players, strict=True):
        _restore(player, saved_player.model_dump(), "player")


def _load_permanents(game: Game, name: str, s: GameState, save: SaveFile) -> None:
    for saved in s.permanents:
        saved = dict(saved)
        card = game.cards[saved.pop("card")]
        perm = Permanent(saved["uid"], card, saved["owner"], saved["zone"], saved["entered_turn"])
        _restore(perm, saved, "permanent", _PERMANENT_SKIP)
        game.permanents[perm.uid] = perm
        game._index_abilities(perm)  # in timestamp order, as they entered play


def _load_effects(game: Game, name: str, s: GameState, save: SaveFile) -> None:
    for saved in s.effects:
        effect = Effect(saved["uid"], saved["stat"], saved["amount"], Duration(saved["duration"]))
        _restore(effect, saved, "effect")
        effect.duration = Duration(saved["duration"])
        effect.targets = frozenset(saved["targets"])
        game.effects.append(effect)
        if effect.in_force:
            count_effect(game, effect, +1)


def _load_offers(game: Game, name: str, s: GameState, save: SaveFile) -> None:
    for saved in s.offers:
        offer = ExtractionOffer("", 0, 0, 0, "")
        _restore(offer, saved, "offer")
        game.offers.append(offer)


def _load_clock(game: Game, name: str, s: GameState, save: SaveFile) -> None:
    if s.clock is not None and isinstance(game.clock, GameClock):
        game.clock.load(s.clock)


def _load_log(game: Game, name: str, s: GameState, save: SaveFile) -> None:
    game.log.restore([_event(e) for e in save.log])
    game.log.turn, game.log.step = s.log_turn, s.log_step


def _load_watch(game: Game, name: str, s: GameState, save: SaveFile) -> None:
    restore_waiting(game, s.triggers, s.trigger_count)
    game.triggers.last_hit = {uid: (by, turn) for uid, by, turn in s.last_hit}


def _value(s: GameState, name: str) -> Any:
    extra = s.model_extra or {}
    return extra[name] if name in extra else getattr(s, name)


#: How a load reads each kind of field of the state declaration back (:data:`SAVE`).
LOAD: dict[str, Callable[[Game, str, GameState, SaveFile], None]] = {
    "value": lambda game, name, s, save: setattr(game, name, _value(s, name)),
    "file": lambda game, name, s, save: None,  # given to Game() above
    "agents": lambda game, name, s, save: None,
    "position": lambda game, name, s, save: None,  # loaded last: load_game
    "players": _load_players,
    "permanents": _load_permanents,
    "effects": _load_effects,
    "offers": _load_offers,
    "counts": lambda game, name, s, save: setattr(
        game, name, {_key(k): n for k, n in getattr(s, name)}),
    "keys": lambda game, name, s, save: setattr(
        game, name, {_key(k) for k in getattr(s, name)}),
    "step": lambda game, name, s, save: setattr(
        game, name, None if s.step is None else game.turn_steps[s.step]),
    "rng": lambda game, name, s, save: game.rng.setstate(
        (s.rng[0], tuple(s.rng[1]), s.rng[2])),
    "clock": _load_clock,
    "set_data": lambda game, name, s, save: setattr(game, name, json.loads(
        json.dumps(s.set_data))),
    "log": _load_log,
    "watch": _load_watch,
}


def _event(saved: dict[str, Any]) -> Event:
    """A saved event (``as_dict()``) as the instance of its kind's class."""
    try:
        return of(saved["kind"])(saved["seq"], saved["turn"], saved["step"],
                                 **{k: v for k, v in saved.items() if k not in _EVENT_FIELDS})
    except (KeyError, TypeError) as exc:
        raise SaveError(f"the save's event {saved.get('seq')} ({saved.get('kind')!r}) is not "
                        f"one this engine logs: {exc}") from None


def reduce_game(game: Game) -> tuple[Any, ...]:
    """How a game pickles (``Game.__reduce__``): as its save and its agents."""
    if game.engine.discovery is None:
        raise SaveError("only a game of installed sets pickles: this one's engine was not made "
                        "by Engine.installed(), so it could not be found again")
    return unpickle, (save_game(game), game.agents, type(game.engine))


def unpickle(data: dict[str, Any], agents: Sequence[Agent], engine_type: type[GameEngine]) -> Game:
    """``pickle.loads`` of a game: its save loaded into an engine of the installed sets it was
    played with (``engine_type`` is :class:`hkk.Engine`, pickled by reference: saving sits below
    the engine and does not import it)."""
    return load_game(engine_type.installed(allow=list(data["sets"])), data, agents)
