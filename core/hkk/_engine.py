"""The engine: a plugin manager with the built-in rules and the card sets, the cards they define
and the turn's steps.  Games are made from it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, cast

import pluggy

from hkk._agent_registry import agent_seed
from hkk._agents import Agent, RandomAgent
from hkk._cards.interpret import ability_item, resolve_spell
from hkk._cores import AUTO, CoreChoice, CoreRegistry, core_entries, without_forward_model
from hkk._errors import CoreError, HkkError
from hkk._game import Game, fresh_seed
from hkk._game_sets import SET_HOOKS, GameScope, game_scope, game_sets, hooks_for
from hkk._hookcall import install
from hkk._phases import DEFAULT_TURN, Step
from hkk._plugin import make_plugin_manager
from hkk._protocol import Core, ForwardModel
from hkk._rules import BUILTIN_RULES
from hkk._rulings import DEFAULT_RULINGS, Rulings
from hkk._sets.discovery import discover
from hkk._triggers import pooled, watch

if TYPE_CHECKING:
    from hkk._driving import answer, clone, decision, determinize
    from hkk._hookcall import HookedManager
    from hkk._runner import play_game
    from hkk._saving import reduce_game, save_game
    from hkk._steps import run_entry_triggers


class _ImportedOnUse:
    """A static method of :class:`Engine` whose module is imported when it is first looked up,
    then stored on the class as a plain ``staticmethod`` (so later calls cost nothing extra).
    Building an engine then does not import the runner and saving (and saving's pydantic
    models): start-up (issue 11)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __set_name__(self, owner: type, attribute: str) -> None:
        self.owner, self.attribute = owner, attribute

    def __get__(self, instance: object, owner: type | None = None) -> Callable[..., Any]:
        function: Callable[..., Any] = getattr(import_module(self.module), self.name)
        setattr(self.owner, self.attribute, staticmethod(function))
        return function


def _register_rules(pm: pluggy.PluginManager,
                    rules: Mapping[str, Callable[[], Any]] | None) -> None:
    """Register the rules plugins (the built-in ones by default) not registered yet."""
    for name, factory in (BUILTIN_RULES if rules is None else rules).items():
        if pm.get_plugin(name) is None and not pm.is_blocked(name):
            pm.register(factory(), name=name)


class Engine:
    """Cards, plugins, decks, the turn and the rulings: makes and plays games
    (``Engine.installed()`` loads every installed set).

    ``core``: what :meth:`start` runs games on, by its name in the ``hkk.cores`` entry-point
    group (docs/CORES.md): ``"auto"`` (the default: the best installed core that accepts the
    game, else ``"python"``), ``"python"`` (this engine), or a core object.  An unknown name is a
    :class:`hkk.HkkError` listing the installed ones.  ``set_hooks``: which loaded sets' hooks a
    game calls - ``"decks"`` (the default: the sets of its cards and those they depend on) or
    ``"all"`` (every loaded set's, in every game: what ``hkk verify`` checks interactions with).
    """

    def __init__(self, cards: Mapping[str, Any] | Iterable[Any] = (), *,
                 plugins: Iterable[Any] = (), decks: Mapping[str, Any] | None = None,
                 rules: Mapping[str, Callable[[], Any]] | None = None,
                 turn: Sequence[Step] = DEFAULT_TURN, rulings: Rulings = DEFAULT_RULINGS,
                 pm: pluggy.PluginManager | None = None, discovery: Any = None,
                 core: str | Core = AUTO, set_hooks: str = "decks") -> None:
        # install() below makes it a HookedManager (hkk._hookcall): its call loop is typed
        self.pm = cast("HookedManager", pm or make_plugin_manager())
        install(self.pm)  # every hook call, the engine's and pm.hook's, runs at its seam
        _register_rules(self.pm, rules)
        for plugin in plugins:
            self.pm.register(plugin)
        if isinstance(cards, Mapping):
            self.cards: dict[str, Any] = dict(cards)
        else:  # card definitions, each knowing its id
            self.cards = {card.id: card for card in cast(Iterable[Any], cards)}
        self.decks: dict[str, Any] = dict(decks or {})
        self.turn = tuple(turn)
        self.rulings = rulings
        self.discovery = discovery
        if set_hooks not in SET_HOOKS:
            raise HkkError(f"set_hooks={set_hooks!r}; it is one of {list(SET_HOOKS)}")
        self.set_hooks = set_hooks
        self._relays: dict[frozenset[str], Any] = {}  # the games' hook relays (hkk._game_sets)
        self.cores: CoreRegistry | None = None  # the installed cores, read on first use
        if isinstance(core, str):
            self.core_name = core
            if core != AUTO:
                self.registry().get(core)  # an unknown name is an error now, not at a game
        else:
            self.core_name = core.name
            self.registry().add(core)

    # What a game needs from the layers above it, handed in so that the game imports neither
    # the card interpreter nor the runner nor saving (design: "Layers inside the engine"); the
    # game names them, and the rest it uses of its engine, as hkk._game.GameEngine.
    #: A card ability's pending item, made when its card enters play (hkk._cards.interpret).
    ability_item = staticmethod(ability_item)
    #: The game's trigger watch (hkk._triggers), made with the game.
    watch_triggers = staticmethod(watch)
    #: ``game.resolve_spell()`` (the card interpreter) and ``game.pooled_triggers()``.
    resolve_spell = staticmethod(resolve_spell)
    pooled_triggers = staticmethod(pooled)
    #: ``game.play()``, ``game.save()`` and pickling.
    #: ``game.run_entry_triggers()``: the runner's.
    if TYPE_CHECKING:
        play_game = staticmethod(play_game)
        save_game = staticmethod(save_game)
        reduce_game = staticmethod(reduce_game)
        run_entry_triggers = staticmethod(run_entry_triggers)
        decision_of = staticmethod(decision)
        answer_game = staticmethod(answer)
        clone_game = staticmethod(clone)
        determinize_game = staticmethod(determinize)
    else:  # imported on first use: building an engine needs neither
        run_entry_triggers = _ImportedOnUse("hkk._steps", "run_entry_triggers")
        play_game = _ImportedOnUse("hkk._runner", "play_game")
        save_game = _ImportedOnUse("hkk._saving", "save_game")
        reduce_game = _ImportedOnUse("hkk._saving", "reduce_game")
        #: the forward model's: ``game.decision``, ``answer``, ``clone``, ``determinize`` and
        #: ``play`` of a game answered from outside (hkk._driving)
        decision_of = _ImportedOnUse("hkk._driving", "decision")
        answer_game = _ImportedOnUse("hkk._driving", "answer")
        clone_game = _ImportedOnUse("hkk._driving", "clone")
        determinize_game = _ImportedOnUse("hkk._driving", "determinize")

    @classmethod
    def installed(cls, *, allow: Iterable[str] | None = None, deny: Iterable[str] | None = None,
                  strict: bool = False, **kwargs: Any) -> Engine:
        """An engine with every installed card set that loads (see :mod:`hkk._sets`)."""
        pm = make_plugin_manager()
        # the rules first, the sets after them: pluggy calls the later registered first, so a
        # set's answer to a firstresult hook (orderer, left_play, playable) comes before the
        # built-in's, as it does for the plugins handed to Engine()
        _register_rules(pm, kwargs.get("rules"))
        found = discover(pm=pm, allow=allow, deny=deny, strict=strict)
        return cls(found.cards, decks=found.decks, pm=pm, discovery=found, **kwargs)

    # -- which sets a game loads (hkk._game_sets) -------------------------------------------------

    def _depends(self) -> dict[str, list[str]]:
        """Each loaded set's code -> the codes it depends on."""
        sets = self.discovery.sets if self.discovery is not None else {}
        return {code: list(s.manifest.depends) for code, s in sets.items()}

    def game_hooks(self, decks: Sequence[Sequence[str]]) -> Any:
        """The hook relay of a game of ``decks`` (``game.hook``): the plugin manager's hooks
        without those of the loaded sets the decks do not need (``set_hooks="decks"``)."""
        pm = self.pm
        set_plugins = [name for name, _ in pm.list_name_plugin() if name.startswith("hkk.sets.")]
        if not set_plugins or self.set_hooks == "all":
            return pm.hook
        needed = game_sets(decks, self._depends())
        left_out = frozenset(name for name in set_plugins if name[9:] not in needed)
        return hooks_for(pm, left_out, self._relays)

    def scope(self, decks: Sequence[str | Sequence[str]]) -> GameScope:
        """Which sets a game of ``decks`` (deck names or card lists) calls the hooks of, and
        whether it is data-only (``.data_only``; ``.reason`` names the set and hook that make it
        not): what a compiled core decides on."""
        return game_scope(self.pm, self._deck_lists(decks), self._depends(), self.set_hooks)

    # -- the cores (hkk._cores) ---------------------------------------------------------------

    def registry(self) -> CoreRegistry:
        """The installed cores (the ``hkk.cores`` entry points), read once per engine."""
        if self.cores is None:
            self.cores = core_entries()
        return self.cores

    def choose_core(self, decks: Sequence[str | Sequence[str]], *, whole_games: bool = False,
                    agents: Sequence[Any] | None = None, max_turns: int | None = None
                    ) -> CoreChoice:
        """The core :meth:`start` runs a game of ``decks`` on, and why ``auto`` fell back to
        python, if it did.  A named core that refuses the game is a :class:`hkk.HkkError`
        naming why (the set, hook, card or word).  ``whole_games``: the core ``hkk
        simulate`` plays such games on, whole and only their outcomes read, with ``agents``
        and ``max_turns`` (:meth:`hkk._cores.CoreRegistry.choose`)."""
        return self.registry().choose(self.core_name, self, self._deck_lists(decks),
                                      whole_games=whole_games, agents=agents,
                                      max_turns=max_turns)

    def start(self, decks: Sequence[str | Sequence[str]] | None = None,
              agents: Sequence[Agent | None] | None = None, *, seed: int | None = None,
              **options: Any) -> ForwardModel:
        """A new game on the engine's core (:class:`hkk.ForwardModel`): ``decks`` by name or
        as card lists, ``seed`` (default: drawn from the operating system),
        ``agents`` (None: random players seeded from it; an agent that is None: a seat answered
        from outside), ``options`` among ``log_level``, ``rulings``, ``clock``, ``names``."""
        lists = self._deck_lists(decks)
        if seed is None:
            seed = fresh_seed()
        if agents is None:
            agents = (RandomAgent(agent_seed(seed, 0)), RandomAgent(agent_seed(seed, 1)))
        core = self.registry().choose(self.core_name, self, lists).core
        without = without_forward_model(core)
        if without is not None:
            raise CoreError(without)
        return core.new_game(self, lists, seed=seed, agents=list(agents), **options)

    def custom_effects(self, hooks: Any = None) -> dict[str, Callable[..., Any]]:
        """Named Python effects offered by plugins (those of ``hooks``, a game's relay, if
        given); two plugins offering one name is an error."""
        found: dict[str, Callable[..., Any]] = {}
        owners: dict[str, str] = {}
        impls = (hooks or self.pm.hook).custom_effects.get_hookimpls()
        wrappers = [impl for impl in impls if impl.wrapper or impl.hookwrapper]
        for impl in impls:
            if impl in wrappers:
                continue
            # each plugin's offer asked alone (inside the wrappers), at the seam
            # (hkk._hookcall), so that who offers which name is known
            offers = self.pm._inner_hookexec("custom_effects", [impl, *wrappers], {}, False)
            for offered in cast(list[dict[str, Callable[..., Any]]], offers):
                for name, function in offered.items():
                    if name in found:
                        raise HkkError(f"custom effect {name!r} is offered by both "
                                       f"{owners[name]} and {impl.plugin_name}")
                    found[name] = function
                    owners[name] = impl.plugin_name
        return found

    def deck(self, name: str) -> list[str]:
        """Card ids of a deck, each as many times as it is in the deck: a named deck
        ("alap:tuz"), or a deck spec as ``hkk play --decks`` takes it (issue 24 item 13):
        ``+``-joined parts, each a deck's name or a set's code (:data:`MIX_COPIES` copies of
        each of the set's cards), e.g. ``"alap:tuz+mereg"``."""
        deck = self.decks.get(name)
        if deck is not None:
            # one line: bench_work counts each line of a comprehension once per card
            return [card_id for card_id, count in sorted(deck.cards.items()) for _ in range(count)]
        if "+" in name or ":" not in name:
            return resolve_deck_spec(self, name)
        raise HkkError(f"unknown deck {name!r}; known decks: {sorted(self.decks)}")

    def _deck_lists(self, decks: Sequence[str | Sequence[str]] | None) -> list[list[str]]:
        """Two decks' card lists (a name is looked up; None: the first two decks by name)."""
        if decks is None:
            names = sorted(self.decks)
            if len(names) < 2:
                raise HkkError("no two decks to play with; name them or install a set")
            decks = names[:2]
        lists = [self.deck(d) if isinstance(d, str) else list(d) for d in decks]
        for deck in lists:
            unknown = sorted({c for c in deck if c not in self.cards})
            if unknown:
                raise HkkError(f"unknown cards in deck: {unknown}")
        return lists

    def new_game(self, decks: Sequence[str | Sequence[str]] | None = None,
                 agents: Sequence[Agent] | None = None, *, seed: int | None = None,
                 **kwargs: Any) -> Game:
        """A new game on the Python engine itself (a :class:`hkk.Game`: its whole state, for
        tests, the position builder and sets' hooks); :meth:`start` runs one on the engine's
        core."""
        lists = self._deck_lists(decks)
        if seed is None:
            seed = fresh_seed()
        if agents is None:
            agents = (RandomAgent(agent_seed(seed, 0)), RandomAgent(agent_seed(seed, 1)))
        return Game(self, lists, agents, seed=seed, **kwargs)

    def play(self, decks: Sequence[str | Sequence[str]] | None = None,
             agents: Sequence[Agent] | None = None, *, seed: int | None = None,
             max_turns: int | None = None, **kwargs: Any) -> Game:
        """Play a whole game and return it (its ``log``, ``winner``…)."""
        game = self.new_game(decks, agents, seed=seed, **kwargs)
        self.play_game(game, max_turns=max_turns)  # a game driven from outside too
        return game


# -- deck specs --------------------------------------------------------------------------------

#: Copies of each card of a set mixed into a deck by a deck spec (``alap:tuz+mereg``).
MIX_COPIES = 2


def resolve_deck_spec(engine: Engine, spec: str, set_cards: dict[str, list[str]] | None = None
                      ) -> list[str]:
    """Card ids of a deck spec: ``+``-joined parts, each a deck name (``alap:tuz``) or a set
    code (``mereg``: :data:`MIX_COPIES` copies of each of its cards).  ``set_cards``: the
    cards of each set, if the caller has them (:func:`cards_by_set`)."""
    if set_cards is None:
        set_cards = cards_by_set(engine)
    cards: list[str] = []
    for part in spec.split("+"):
        part = part.strip()
        if part in engine.decks or ":" in part:
            cards.extend(engine.deck(part))
        elif part in set_cards:
            cards.extend(c for c in set_cards[part] for _ in range(MIX_COPIES))
        else:
            raise HkkError(f"unknown deck or set {part!r} in deck spec {spec!r}; known decks: "
                           f"{', '.join(sorted(engine.decks))}; sets: "
                           f"{', '.join(sorted(set_cards))}")
    return sorted(cards)


def cards_by_set(engine: Engine) -> dict[str, list[str]]:
    """The card ids of each set, known sets without cards included."""
    by_set: dict[str, list[str]] = {}
    for card_id in sorted(engine.cards):
        by_set.setdefault(card_id.split(":", 1)[0], []).append(card_id)
    if engine.discovery is not None:  # a set with no cards is still a known set
        for code in engine.discovery.sets:
            by_set.setdefault(code, [])
    return by_set
