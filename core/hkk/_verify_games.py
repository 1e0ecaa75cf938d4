"""The games of ``hkk verify`` (checks 4-6 of :mod:`hkk.verify`): a run's seeded games played
with invariants watched and a time limit, each failure as a :class:`Check` naming the set, card,
seed and the author's own file and line, the determinism replay, and coverage gathered from the
games and from pluggy's hook-call monitoring."""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hkk._deck_specs import cards_by_set, deck_pairs, play_command, resolve_deck_spec
from hkk._engine import Engine
from hkk._errors import (
    GameTimeout,
    HkkError,
    HookError,
    InvariantViolation,
    RuleViolation,
    SetError,
    plugin_set,
    step_name,
)
from hkk._game import Game
from hkk._invariants import check_finished, watch
from hkk._limits import time_limit, verify_wall
from hkk._plugin import make_plugin_manager
from hkk._sets.discovery import discover
from hkk._verify_report import Check, Coverage, VerifyReport

Progress = Callable[[str, int, int], None]  # (what, done, total)


@dataclass
class Run:
    target: str  # set code or "all"
    codes: list[str]  # the sets enabled in it
    specs: list[str]


def engine_for(codes: Sequence[str], entry_points: Any, core: str = "auto") -> Any:
    pm = make_plugin_manager()
    # Not strict: a broken set outside ``codes`` (even a badly named entry point) is not ours.
    found = discover(entry_points=entry_points, allow=codes, deny=(), pm=pm)
    for error in found.failures:
        if error.code in codes or error.code is None:
            raise error
    # every loaded set's hooks in every game, not only the decks' sets' (hkk._game_sets):
    # verify checks how the sets of a run get on with each other
    return Engine(found.cards, decks=found.decks, pm=pm, discovery=found, set_hooks="all",
                  core=core)


def new_coverage(s: Any) -> Coverage:
    return Coverage(code=s.code, cards=[c.id for c in s.cards],
                    abilities=[(c.id, i) for c in s.cards for i, a in enumerate(c.abilities)
                               if a.kind != "static"],
                    hooks={name: {"calls": 0, "with_items": 0} for name in s.hook_names})


def _probe_hooks(engine: Any, coverage: dict[str, Coverage]) -> None:
    """Count the calls of the sets' hook implementations in this engine's games, through
    pluggy's own hook-call monitoring, so nothing of the set or of pluggy is patched: a call
    counts for each set implementing the hook, and ``with_items`` when the call's result was
    not empty."""
    def before(hook_name: str, impls: Any, kwargs: Any) -> None:
        pass

    def after(outcome: Any, hook_name: str, impls: Any, kwargs: Any) -> None:
        result = outcome.get_result() if outcome.exception is None else None
        for code in {plugin_set(impl.plugin_name) for impl in impls}:
            cov = coverage.get(code) if code is not None else None
            if cov is None:
                continue
            counts = cov.hooks.setdefault(hook_name, {"calls": 0, "with_items": 0})
            counts["calls"] += 1
            if result and any(result):
                counts["with_items"] += 1

    engine.pm.add_hookcall_monitoring(before, after)


def _record(game: Any, coverage: dict[str, Coverage]) -> None:
    for event in game.log:
        card = event.get("card")
        if not isinstance(card, str):
            continue
        cov = coverage.get(card.split(":", 1)[0])
        if cov is None:
            continue
        if event.kind in ("card_played", "entered_play"):
            cov.played.add(card)
        elif event.kind == "resolving":
            ability = event.ability
            if (card, ability) in cov.abilities:
                cov.fired.add((card, ability))
            elif event.item_kind != "play":
                label = str(event.item)
                cov.python_items[label] = cov.python_items.get(label, 0) + 1


def play_run(report: VerifyReport, run: Run, everything: list[str], *, games: int, seed: int,
              max_turns: int | None, entry_points: Any, progress: Progress | None,
              total: int, timeout: float | None = None, core: str = "auto") -> None:
    sets_arg = None if run.codes == everything else run.codes
    if not run.specs:
        report.checks.append(Check("games", run.target, False,
                                   "no decks to play: neither the set nor the sets it depends "
                                   "on have decks or cards", severity="warning",
                                   set_code=None if run.target == "all" else run.target))
        return
    try:
        engine = engine_for(run.codes, entry_points, core)
        _probe_hooks(engine, {c: report.coverage[c] for c in run.codes if c in report.coverage})
        set_cards = cards_by_set(engine)
        lists = {spec: resolve_deck_spec(engine, spec, set_cards) for spec in run.specs}
        for a, b in deck_pairs(run.specs, run.target):  # a named core refusing them: said once
            engine.choose_core([lists[a], lists[b]])
    except (HkkError, SetError) as exc:
        report.checks.append(Check("games", run.target, False, f"cannot set up the run: {exc}",
                                   set_code=None if run.target == "all" else run.target))
        return
    pairs = deck_pairs(run.specs, run.target)
    failed = 0
    first_log: Any = None
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        decks = pairs[i % len(pairs)]
        command = play_command(game_seed, decks, sets_arg, max_turns)
        game_started = time.perf_counter()
        try:
            game, error = play_checked(engine, [lists[d] for d in decks], game_seed, max_turns,
                                    timeout, describe=f"{command} ({run.target})")
        except KeyboardInterrupt as exc:  # Ctrl-C, or a set raising it: stop, saying where
            report.checks.append(_game_failure(run, getattr(exc, "game", None), exc, game_seed,
                                               command, engine))
            raise
        report.games_played += 1
        if progress is not None:
            progress(f"{run.target}", report.games_played, total)
        if game is not None:  # a game that crashed played its cards too (issue 13)
            _record(game, report.coverage)
        if error is not None:
            failed += 1
            check = _game_failure(run, game, error, game_seed, command, engine)
            check.time = time.perf_counter() - game_started
            report.checks.append(check)
            continue
        if i == 0:
            first_log = game.log
            report.checks.append(_determinism(run, engine, lists, decks, game_seed, max_turns,
                                              first_log, command, entry_points, timeout,
                                              core))
    if not failed:
        report.checks.append(Check("games", run.target, True,
                                   f"{games} game(s) on {', '.join(run.specs)}",
                                   set_code=None if run.target == "all" else run.target,
                                   time=time.perf_counter() - started))


def play_checked(engine: Any, decks: list[list[str]], seed: int, max_turns: int | None,
              timeout: float | None = None, describe: str = ""
              ) -> tuple[Any, BaseException | None]:
    """Play one game as ``hkk verify`` does - invariants watched (:mod:`hkk._invariants`), within
    ``timeout`` seconds (:mod:`hkk._limits`) - and return the game and what it raised (None: it
    passed).  A KeyboardInterrupt propagates, with ``game`` on it."""
    game = None

    def where() -> str:
        return f"{describe}, turn {game.turn}, {step_name(game.turn, game.log.step)}" \
            if game else describe
    try:
        game = engine.start(decks, seed=seed)
        python = isinstance(game, Game)  # the invariants read the Python engine's state
        if python:
            watch(game)
        # CPU time, and a wall-clock bound for a hook that never returns (CI must not hang)
        with time_limit(timeout, where, wall=verify_wall(timeout)):
            game.play(max_turns=max_turns)
        if python:
            check_finished(game)
        game.log.to_json()  # events must be plain data
    except KeyboardInterrupt as exc:
        exc.game = game  # type: ignore[attr-defined]
        raise
    except (Exception, SystemExit, GameTimeout) as exc:  # noqa: BLE001 - the finding
        return game, exc
    return game, None


def _game_failure(run: Run, game: Any, error: BaseException, seed: int, command: str,
                  engine: Any = None) -> Check:
    set_code = getattr(error, "set_code", None)
    card = getattr(error, "card", None)
    if isinstance(error, GameTimeout) and engine is not None and error.module:
        set_code = _set_of_module(engine, error.module)
    if game is not None and card is None:
        # the item being resolved when it broke: a resolving event after the step's start
        for event in reversed(list(game.log)):
            if event.kind == "step_started":
                break
            if event.kind == "resolving":
                card = event.get("card")
                break
    if set_code is None and card:
        set_code = card.split(":", 1)[0]
    if set_code is None and run.target != "all":
        set_code = run.target
    kind = "rule violation" if isinstance(error, RuleViolation) else \
        "error in a set's code" if isinstance(error, HookError) else \
        "invariant broken" if isinstance(error, InvariantViolation) else \
        "time limit" if isinstance(error, GameTimeout) else \
        "interrupted" if isinstance(error, KeyboardInterrupt) else type(error).__name__
    where = f" (turn {game.turn}, {step_name(game.turn, game.log.step)})" \
        if game is not None else ""
    if isinstance(error, InvariantViolation):
        where = ""  # the message says where
    frames = _author_frames(error, engine)
    details = "".join(traceback.format_exception(error)[-12:])
    if frames:  # the author's own lines first: the engine's frames say little to them
        details = "in the set's code (innermost last):\n" + "".join(
            traceback.format_list(frames)) + "\n" + details
    file, line = (shown_path(frames[-1].filename), frames[-1].lineno) if frames else (None, None)
    signature = f"{type(error).__name__}: {error}"
    if isinstance(error, GameTimeout):
        signature = f"{type(error).__name__}: {set_code}"  # where it was differs per game
    elif frames:
        signature = f"{file}:{line}: {signature}"
    return Check("games", run.target, False, f"{kind}{where}: {str(error) or 'KeyboardInterrupt'}",
                 set_code=set_code, card=card, seed=seed, command=command, details=details,
                 file=file, line=line, signature=signature)


def _set_folders(engine: Any) -> list[str]:
    """The package folders of the loaded sets that have code."""
    folders = []
    for s in (engine.discovery.sets.values() if engine is not None and
              engine.discovery is not None else ()):
        path = getattr(s.module, "__file__", None) if s.module is not None else None
        if path:
            folders.append(os.path.dirname(os.path.abspath(path)) + os.sep)
    return folders


def _author_frames(error: BaseException, engine: Any) -> list[traceback.FrameSummary]:
    """The frames of ``error`` (and the exceptions it was raised from) in a set's own files,
    innermost last."""
    folders = _set_folders(engine)
    if not folders:
        return []
    chain: list[BaseException] = []
    exc: BaseException | None = error
    while exc is not None and exc not in chain:
        chain.append(exc)
        exc = exc.__cause__ or exc.__context__
    frames: list[traceback.FrameSummary] = []
    for exc in reversed(chain):  # the original exception first: its frames are the author's
        frames.extend(f for f in traceback.extract_tb(exc.__traceback__)
                      if os.path.abspath(f.filename).startswith(tuple(folders)))
    return frames


def shown_path(path: str) -> str:
    """Relative to the current folder when inside it (GitHub annotations want repo paths)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if rel.startswith("..") else rel


def _set_of_module(engine: Any, module: str) -> str | None:
    """The code of the loaded set whose package ``module`` belongs to."""
    for code, s in (engine.discovery.sets if engine.discovery is not None else {}).items():
        if s.module is None:  # a data-only set runs no code of its own
            continue
        name = str(s.module.__name__)
        if module == name or module.startswith(name + "."):
            return str(code)
    return None


def _determinism(run: Run, engine: Any, lists: dict[str, list[str]], decks: Sequence[str],
                 seed: int, max_turns: int | None, first: Any, command: str,
                 entry_points: Any, timeout: float | None = None, core: str = "auto") -> Check:
    target = None if run.target == "all" else run.target
    try:
        again = engine_for(run.codes, entry_points, core)
    except HkkError as exc:
        return Check("determinism", run.target, False, str(exc), set_code=target)
    game, error = play_checked(again, [lists[d] for d in decks], seed, max_turns, timeout,
                            describe=command)
    if error is not None:
        return Check("determinism", run.target, False,
                     f"the second run of the same seed raised {type(error).__name__}: {error}",
                     set_code=target, seed=seed, command=command)
    a, b = first.as_dicts(), game.log.as_dicts()
    if a == b:
        return Check("determinism", run.target, True, f"same seed twice: {len(a)} identical events",
                     set_code=target, seed=seed)
    index = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                 min(len(a), len(b)))
    first_diff = a[index] if index < len(a) else "(end of log)"
    second_diff = b[index] if index < len(b) else "(end of log)"
    card = next((e.get("card") for e in (first_diff, second_diff)
                 if isinstance(e, dict) and e.get("card")), None)
    return Check("determinism", run.target, False,
                 f"same seed twice gave different logs from event {index}",
                 set_code=target, card=card, seed=seed, command=command,
                 details=f"first run:  {first_diff}\nsecond run: {second_diff}")


