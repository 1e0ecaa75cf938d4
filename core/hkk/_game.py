"""A running game: a thin facade tying the state, the event log, the RNG and the agents.

What the game *is* lives in layers below it: :mod:`hkk._characteristics` derives current values,
:mod:`hkk._changes` is the only code that mutates the state (each change logs its event) and
:mod:`hkk._checks` checks Ép and the players' loss.  ``Game`` offers each of them as a method, so
rules and sets write ``game.damage(target, 2)`` or ``game.hp(perm)``.  The order in which things
happen is the runner's business (:mod:`hkk._runner`); what cards do is the card interpreter's
(:mod:`hkk._cards.interpret`), handed in by the engine.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from hkk import _changes as changes
from hkk import _characteristics as characteristics
from hkk import _checks as checks
from hkk import _deciding as deciding
from hkk._clock import GameClock
from hkk._decisions import Decision, Option
from hkk._effects import Effect
from hkk._errors import GameOver, HkkError
from hkk._events import EventLog
from hkk._forward import Position
from hkk._hookcall import first
from hkk._phases import Step
from hkk._player_view import PlayerView
from hkk._rng import SharedRandom
from hkk._state import ExtractionOffer, Permanent, Player
from hkk.events import Event

if TYPE_CHECKING:
    from hkk._hookcall import HookedManager
    from hkk._pending import Pending
    from hkk._rulings import Rulings
    from hkk._view import Agent

__all__ = ["ExtractionOffer", "Game", "GameOver"]  # the last two: old import paths


class GameEngine(Protocol):
    """What a game uses of its engine (:class:`hkk.Engine` satisfies it): the cards, the
    plugins, the turn and the rulings, and the functions of the layers above the game that the
    engine hands in (the card interpreter, the triggers, the runner, the forward model, saving).
    The game names this, not ``Engine``, which imports it (issue 20 item 2: no import cycle)."""

    cards: dict[str, Any]
    pm: HookedManager
    turn: tuple[Step, ...]
    rulings: Rulings
    #: what ``Engine.installed()`` found (None: an engine made by hand; saves name its sets)
    discovery: Any

    @classmethod
    def installed(cls, *, allow: Iterable[str] | None = None) -> GameEngine: ...

    def custom_effects(self, hooks: Any = None) -> dict[str, Callable[..., Any]]: ...

    def game_hooks(self, decks: Sequence[Sequence[str]]) -> Any: ...

    def ability_item(self, perm: Permanent, index: int, ability: Any) -> Pending: ...

    #: the game's trigger watch (``hkk._triggers.TriggerWatch``, a layer above the game, which
    #: reads it as that; the game's hooks read it as ``hkk._view.TriggerView``)
    def watch_triggers(self, game: Game) -> Any: ...

    def resolve_spell(self, game: Game, player: int, card: Any) -> None: ...

    def pooled_triggers(self, game: Game) -> list[Pending]: ...

    def run_entry_triggers(self, game: Game, perm: Permanent) -> None: ...

    def play_game(self, game: Game, max_turns: int | None = None) -> int | None: ...

    def save_game(self, game: Game) -> dict[str, Any]: ...

    def reduce_game(self, game: Game) -> tuple[Any, ...]: ...

    def decision_of(self, game: Game) -> Decision | None: ...

    def answer_game(self, game: Game, chosen: Any) -> None: ...

    def clone_game(self, game: Game, *, log_level: str | None = None) -> Game: ...

    def determinize_game(self, game: Game, player: int, rng: random.Random, *,
                         log_level: str | None = None) -> Game: ...


def fresh_seed() -> int:
    """A game's seed from the operating system: unpredictable, so that nobody can replay the
    game's shuffles (53 bits: a browser's JSON keeps it exact)."""
    return secrets.randbits(53)


class Game:
    """One game between two players: the state, the event log, the RNG (one per game, seeded)
    and the agents that decide.  Made by :meth:`hkk.Engine.new_game`; played by
    :func:`hkk._runner.play_game` (``game.play()``).

    What hooks and tests read (never assign; change the game through the methods below):

    - ``active``: the index (0 or 1) of the player whose turn it is;
    - ``players``: the two :class:`hkk.Player` objects (``hp``, ``vp``, ``components``,
      ``hand``, ``deck``, ``graveyard``…), indexed by player;
    - ``permanents``: ``{uid: Permanent}`` of every creature and building in play; insertion
      order is timestamp order; ``creatures(player)`` / ``buildings(player)`` filter it;
    - ``hp(perm)``, ``max_hp(perm)``, ``damage_value(perm)``: derived characteristics;
    - ``turn``, ``step`` (the :class:`hkk.Step` running, None between turns), ``log``
      (the :class:`hkk.EventLog`), ``rng`` (the game's one RNG), ``over``, ``winner``.
    """

    def __init__(self, engine: GameEngine, decks: Sequence[Sequence[str]], agents: Sequence[Agent],
                 *, seed: int | None = None, names: Sequence[str] = ("P1", "P2"),
                 rulings: Rulings | None = None, clock: GameClock | None = None,
                 log_level: str = "full") -> None:
        self.engine = engine
        self.cards = engine.cards
        self.rulings = rulings or engine.rulings
        self.hook = engine.game_hooks(decks)  # only the hooks of the sets the decks need
        self.turn_steps = engine.turn
        #: Its RNG's seed (drawn from the operating system if not given): the full log and
        #: the save record it, a player's view shows it only when the game is over.
        self.seed = fresh_seed() if seed is None else seed
        self.rng: random.Random = SharedRandom(self.seed)  # its copies share it until they draw
        try:  # how much of the log the game keeps (hkk._events.LOG_LEVELS)
            self.log = EventLog(log_level)
        except ValueError as exc:
            raise HkkError(str(exc)) from None
        self.emit = self.log.emitter  # type: ignore[method-assign]  # hot path: a call less
        self.decks = [list(deck) for deck in decks]  # as dealt, unshuffled: saves replay them
        self.players = [Player(i, names[i], list(decks[i])) for i in range(2)]
        #: The seats' agents; None: the seat is answered from outside (``game.decision``,
        #: ``game.answer``).
        self.agents: list[Agent | None] = list(agents)
        #: Where the turn machine stands: its frames and the decision it waits for
        #: (:mod:`hkk._forward`).
        self.machine = Position()
        #: Each set's per-game data, by set code: plain data a set's Python hooks keep here
        #: (not in their modules), so that a copy of the game (``clone``) copies it too.
        self.set_data: dict[str, Any] = {}
        self.permanents: dict[int, Permanent] = {}  # insertion order is timestamp order
        self.effects: list[Effect] = []
        self.statics: list[tuple[Permanent, Any]] = []  # (source, static modify primitive)
        #: Static abilities with a condition: [source, effect, condition, in force?]; those in
        #: force are also in ``statics`` / ``preventions`` (D-conditions, hkk._changes).
        self.conditional_statics: list[list[Any]] = []
        self.condition_events: set[type[Event]] = set()  # event kinds that re-read them
        #: Static "prevent" effects in force: (source, prevent primitive) (D-prevented).
        self.preventions: list[tuple[Permanent, Any]] = []
        self.abilities_at: dict[str, list[Any]] = {}  # timing -> pending items of cards in play
        #: Counts the changes of ``abilities_at``: a step may keep what it collected while this
        #: stays the same (hkk._steps.run_ordered).
        self.abilities_version = 0
        #: Permanents whose Ép (Sp) may have fallen since the last Ép check: the primitives of
        #: hkk._changes add them, the engine's own checks look only at them (hkk._checks).
        self.hp_changed: set[Permanent] = set()
        #: Makes a card ability's pending item when its card enters play: the card
        #: interpreter's, handed in by the engine (the game knows no card logic).
        self.ability_item = engine.ability_item
        self.offers: list[ExtractionOffer] = []
        self.usage_turn: dict[tuple[Any, ...], int] = {}
        self.usage_game: dict[tuple[Any, ...], int] = {}
        #: prep-phase abilities attempted this turn (29.4.9)
        self.attempted: set[tuple[Any, ...]] = set()
        self.next_uid = 1
        self.turn = 0
        self.active = 0
        self.step: Step | None = None
        #: The turn's cursor: the index in ``turn_steps`` of the next step to run; None between
        #: turns.  It lives here, not in the runner, so a game saved between steps resumes.
        self.step_index: int | None = None
        self.turn_passed = False  # 41.5
        self.started = False  # set up (shuffled, dealt); a test may build a game already set up
        self.in_moment = False  # a simultaneous moment is being applied (29.4.2, 41.4)
        self.bonus_losses: list[tuple[Permanent, str | None, str | None]] = []
        #: destroyed at the moment, leaving play when it ends (29.4.2, 41.4)
        self.leaving_play: list[tuple[Permanent, str, str | None, bool, str]] = []
        self.over = False
        self.winner: int | None = None
        self.clock = clock or GameClock()
        #: The plugin manager: hooks are called through its seam (:mod:`hkk._hookcall`).
        self.pm = engine.pm
        #: hook name -> implementations, read once (:func:`hkk._hookcall.implementations`).
        self.hook_impls: dict[str, list[Any]] = {}
        #: hook name -> how the seam calls its implementations in each step
        #: (:func:`hkk._hookcall.hookexec`, a ``Plan``).
        self.hook_plans: dict[str, tuple[Any, Any, Any]] = {}
        self.custom_effects = engine.custom_effects(self.hook)
        #: Listens to the log for what sets off triggered abilities and plugins' ``triggered``
        #: hooks, and keeps what they triggered until it resolves (hkk._triggers).
        self.triggers = engine.watch_triggers(self)
        self._seat()

    def _seat(self) -> None:
        """Views made when first needed (:meth:`view`, hkk._deciding.seat_view)."""
        self.views: list[Any] = [None, None]
        self.shown: list[PlayerView | None] = [None, None]

    def opponent(self, player: int) -> int:
        return 1 - player

    @property
    def active_player(self) -> Player:
        return self.players[self.active]

    def emit(self, kind: type[Event], **data: Any) -> Any:  # replaced per instance in __init__
        self.log.append(kind, **data)

    # -- decisions: the one door (design: "Decisions go through one door") ----------------------

    decide = deciding.decide

    # -- reading: derived characteristics (hkk._characteristics) -------------------------------

    creatures = characteristics.creatures
    buildings = characteristics.buildings
    damage_value = staticmethod(characteristics.damage_value)
    max_hp = staticmethod(characteristics.max_hp)
    hp = staticmethod(characteristics.hp)
    vp_regen_modifier = characteristics.vp_regen_modifier

    # -- changing (hkk._changes) ---------------------------------------------------------------

    enter_play = changes.enter_play
    _index_abilities = changes.index_abilities  # loading a save rebuilds with it
    destroy = changes.destroy
    damage = changes.damage
    heal = changes.heal
    restore = changes.restore
    gain_vp = changes.gain_vp
    lose_vp = changes.lose_vp
    gain_components = changes.gain_components
    pay_components = changes.pay_components
    draw = changes.draw
    add_counters = changes.add_counters
    remove_counters = changes.remove_counters
    give_defence_bonus = changes.give_defence_bonus
    remove_defence_bonus = changes.remove_defence_bonus
    add_effect = changes.add_effect
    end_effects = changes.end_effects
    dispel = changes.dispel
    start_waiting_effects = changes.start_waiting_effects
    moment = changes.moment
    extract_components = changes.extract_components
    begin_moment = changes.begin_moment
    end_moment = changes.end_moment
    end_game = changes.end_game

    # -- checking (hkk._checks) ----------------------------------------------------------------

    check_hp = checks.check_hp
    check_players = checks.check_players

    # -- what the rules plugins do with the engine's own machinery (handed in by the engine, so
    # the game imports neither the card interpreter nor the runner): public, as the built-in
    # rules use nothing a set may not --------------------------------------------------------

    def resolve_spell(self, player: int, card_id: str) -> None:
        """Apply the spell card's effects for ``player``, choosing their targets (8.1: once it
        is paid for and out of the hand).  A set's exception in them is a HookError naming the
        card."""
        self.engine.resolve_spell(self, player, self.cards[card_id])

    def run_entry_triggers(self, permanent: Permanent) -> None:
        """Resolve a permanent's "enters play" items (the ``entered_play`` hook), ordered by its
        controller [R], checking Ép after each (D-hp-check)."""
        self.engine.run_entry_triggers(self, permanent)

    def pooled_triggers(self) -> list[Pending]:
        """The waiting triggered items as items of a pool step (prep stage 2, 29.4.1,
        D-trigger-prep): each resolves once, ordered with the step's other items."""
        pooled: list[Pending] = self.engine.pooled_triggers(self)
        return pooled

    # -- playing cards (8.1): the ``playable`` hook decides (hkk.rules.hand_play answers) -------

    def playable(self, player: int) -> list[str]:
        """The card ids in ``player``'s hand he may play now, in hand order (8.1, 29.4.6):
        the ``playable`` hook's answer."""
        playable: list[str] | None = first(self, "playable", player=player)
        return playable if playable is not None else []

    play_card = changes.play_card

    # -- the whole game, saved and pickled: the engine's runner and saves ----------------------

    def play(self, max_turns: int | None = None) -> int | None:
        """Play the game to its end; returns the winner's index (None: a draw)."""
        return self.engine.play_game(self, max_turns=max_turns)

    def save(self) -> dict[str, Any]:
        """The game as plain JSON-ready data, between two steps or at the decision it waits
        for (:mod:`hkk._saving`)."""
        return self.engine.save_game(self)

    # -- the forward model (issue 21): answered from outside, copied, seen fairly ---------------

    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for from a seat without an agent (reading it the first
        time runs the game up to it); None once the game is over, or if every seat has an
        agent (:mod:`hkk._forward`)."""
        # read already (answered from outside: read once, answered once), else run up to it
        waiting: Decision | None = self.machine.waiting or self.engine.decision_of(self)
        return waiting

    def answer(self, option: Option | int | str) -> None:
        """Answer :attr:`decision` - with one of its options, its index or its label - and run
        on to the next decision of a seat without an agent, or the end.  An option not offered
        is an :class:`hkk.IllegalDecision`."""
        self.engine.answer_game(self, option)

    def clone(self, *, log_level: str | None = None) -> Game:
        """An independent copy (between two steps or at a decision) that goes on as this game
        given the same answers; its agents are copies; "outcome" drops the log's past."""
        copied: Game = self.engine.clone_game(self, log_level=log_level)
        return copied

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (:class:`hkk.PlayerView`): a live window on the game."""
        if player in (0, 1):
            view = self.shown[player]
            if view is None:
                view = self.shown[player] = PlayerView(self, player)
            return view
        return PlayerView(self, player)

    def determinize(self, player: int, rng: random.Random, *,
                    log_level: str | None = None) -> Game:
        """A copy in which everything hidden from ``player`` (the opponent's hand, the order of
        both decks) is resampled consistently with his view; both seats answered from outside:
        what information-set search plays forward."""
        copied: Game = self.engine.determinize_game(self, player, rng, log_level=log_level)
        return copied

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its save: the engine holds modules, which do not pickle, so unpickling
        loads the game into an engine of the same installed sets (:func:`hkk._saving.unpickle`)."""
        return self.engine.reduce_game(self)

    snapshot = characteristics.snapshot
