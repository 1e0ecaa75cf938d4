"""A running game: its state, derived characteristics and the primitive changes.

Everything that changes the game goes through the methods here, and each logs an event.  The
order in which things happen is the runner's business (:mod:`hkk.runner`).
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from hkk.decisions import Agent, Decision, Option
from hkk.cards.interpret import ability_item
from hkk.effects import Duration, Effect
from hkk.errors import GameOver, IllegalDecision, RuleViolation
from hkk.events import EventLog
from hkk.hookcall import call, expect_lethal, implementations
from hkk.phases import Step
from hkk.state import BUILDINGS, RESERVE, Permanent, Player

if TYPE_CHECKING:
    from hkk.engine import Engine
    from hkk.rulings import Rulings


class ExtractionOffer:
    """A dead creature's monster components its opponent may extract until the phase ends."""

    __slots__ = ("card_id", "uid", "count", "player", "phase")

    def __init__(self, card_id: str, uid: int, count: int, player: int, phase: str) -> None:
        self.card_id = card_id
        self.uid = uid
        self.count = count
        self.player = player
        self.phase = phase


class Game:
    """One game between two players: the state, the event log, the RNG (one per game, seeded)
    and the agents that decide.  Made by :meth:`hkk.Engine.new_game`; played by
    :func:`hkk.runner.play_game` (``game.play()``)."""

    def __init__(self, engine: Engine, decks: Sequence[Sequence[str]], agents: Sequence[Agent],
                 *, seed: int = 0, names: Sequence[str] = ("P1", "P2"),
                 rulings: Rulings | None = None, clock: Any = None) -> None:
        from hkk.clock import GameClock

        self.engine = engine
        self.cards = engine.cards
        self.rulings = rulings or engine.rulings
        self.hook = engine.pm.hook
        self.turn_steps = engine.turn
        self.seed = seed
        self.rng = random.Random(seed)
        self.log = EventLog()
        self.emit = self.log.append  # the hot path: one call less per event
        self.decks = [list(deck) for deck in decks]  # as dealt, unshuffled: saves replay them
        self.players = [Player(i, names[i], list(decks[i])) for i in range(2)]
        self.agents = list(agents)
        self.permanents: dict[int, Permanent] = {}  # insertion order is timestamp order
        self.effects: list[Effect] = []
        self.statics: list[tuple[Permanent, Any]] = []  # (source, static modify primitive)
        self.abilities_at: dict[str, list[Any]] = {}  # timing -> pending items of cards in play
        self.offers: list[ExtractionOffer] = []
        self.usage_turn: dict[tuple, int] = {}
        self.usage_game: dict[tuple, int] = {}
        self.attempted: set[tuple] = set()  # prep-phase abilities attempted this turn (29.4.9)
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
        self.over = False
        self.winner: int | None = None
        self.clock = clock or GameClock()
        self.custom_effects = engine.custom_effects()
        #: hook name -> implementations, read once: plugins registered after a game started
        #: do not join it halfway through a turn.
        self.hook_impls: dict[str, list[Any]] = {}
        self.hook_observers = engine.hook_observers  # the engine's list: subscribe there

    # -- identity helpers ---------------------------------------------------------------------

    def _uid(self) -> int:
        uid = self.next_uid
        self.next_uid += 1
        return uid

    def opponent(self, player: int) -> int:
        return 1 - player

    @property
    def active_player(self) -> Player:
        return self.players[self.active]

    def emit(self, kind: str, **data: Any) -> None:  # replaced per instance in __init__
        self.log.append(kind, **data)

    # -- decisions: the one door (design: "Decisions go through one door") ----------------------

    def decide(self, player: int, kind: str, options: Sequence[Option], prompt: str = "",
               rule: str | None = None) -> Option:
        if not options:
            raise ValueError("a decision needs at least one option")
        options = tuple(options)
        decision = Decision(kind, player, options, prompt, rule)
        chosen = self.agents[player].choose(self, decision)
        offered = next((o for o in decision.options if o is chosen), None)
        if offered is None:  # an equal Option made by the agent: the offered one, by label
            if chosen not in decision.options:
                raise IllegalDecision(
                    f"player {player} chose {chosen!r}; {kind} options were {decision.labels()}")
            offered = decision.options[decision.options.index(chosen)]
        chosen = offered
        if player == self.active:
            self.clock.active_decided(self)  # 41.7: his last decision may be his signal
        self.emit("decision", player=player, decision=kind, choice=chosen.label,
                  options=len(options), rule=rule)
        return chosen

    # -- queries: derived characteristics -----------------------------------------------------

    def creatures(self, player: int | None = None) -> list[Permanent]:
        return [p for p in self.permanents.values()
                if p.kind == "creature" and (player is None or p.controller == player)]

    def buildings(self, player: int | None = None) -> list[Permanent]:
        return [p for p in self.permanents.values()
                if p.kind == "building" and (player is None or p.controller == player)]

    def _modifier(self, perm: Permanent, stat: str) -> int:
        return perm.mods.get(stat, 0)

    def _count_static(self, source: Permanent, mod: Any, sign: int) -> None:
        """Add (or take back) a static ability's modifier to every permanent it affects now."""
        for perm in self.permanents.values():
            if _static_applies(source, mod.target, perm):
                perm.mods[mod.stat] = perm.mods.get(mod.stat, 0) + sign * mod.by

    def _count_effect(self, effect: Effect, sign: int) -> None:
        """Add (or take back) an effect's modifier to the sums of the permanents it affects."""
        for uid in effect.targets:
            perm = self.permanents.get(uid)
            if perm is not None:
                perm.mods[effect.stat] = perm.mods.get(effect.stat, 0) + sign * effect.amount

    def damage_value(self, perm: Permanent) -> int:
        return max(0, perm.base_damage + self._modifier(perm, "damage"))

    def max_hp(self, perm: Permanent) -> int:
        """Max Ép (Sp for a building): base + modifiers + defence bonus.  Raising it raises the
        current Ép too and is not healing; lowering it is not damage (K 4.25.4)."""
        return perm.base_hp + self._modifier(perm, perm.hp_stat) + perm.defence_bonus

    def hp(self, perm: Permanent) -> int:
        return (perm.base_hp + perm.mods.get(perm.hp_stat, 0) + perm.defence_bonus
                - perm.damage_taken)

    def vp_regen_modifier(self, player: int) -> int:
        total = sum(e.amount for e in self.effects
                    if e.in_force and e.stat == "vp_regen" and e.player == player)
        for source, mod in self.statics:  # static "your VP regeneration is +1"
            if mod.stat == "vp_regen" and _static_player(source, mod.target) in (player, -1):
                total += mod.by
        return total

    def snapshot(self) -> dict[str, Any]:
        """Plain-data picture of the state (tests compare these)."""
        return {
            "turn": self.turn,
            "active": self.active,
            "players": [
                {"hp": p.hp, "vp": p.vp, "components": p.components, "deck": len(p.deck),
                 "hand": sorted(p.hand), "graveyard": sorted(p.graveyard),
                 "void": sorted(p.void)} for p in self.players],
            "permanents": {
                uid: {"card": p.card.id, "controller": p.controller, "zone": p.zone,
                      "active": p.active, "damage": self.damage_value(p),
                      "max_hp": self.max_hp(p), "hp": self.hp(p),
                      "defence_bonus": p.defence_bonus, "counters": dict(sorted(p.counters.items()))}
                for uid, p in sorted(self.permanents.items())},
            "effects": sorted((e.stat, e.amount, e.duration.value, tuple(sorted(e.targets)),
                               e.player, e.in_force) for e in self.effects),
        }

    # -- entering and leaving play ------------------------------------------------------------

    def play(self, max_turns: int | None = None) -> int | None:
        """Play the game to its end; returns the winner's index (None: a draw)."""
        from hkk.runner import play_game

        return play_game(self, max_turns=max_turns)

    def save(self) -> dict[str, Any]:
        """The game as plain JSON-ready data, between two steps (:mod:`hkk.saving`)."""
        from hkk.saving import save_game

        return save_game(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its save: the engine holds modules, which do not pickle, so unpickling
        loads the game into an engine of the same installed sets (:func:`hkk.saving.unpickle`)."""
        from hkk.saving import reduce_game

        return reduce_game(self)

    def enter_play(self, player: int, card_id: str, zone: str | None = None,
                   *, active: bool = False) -> Permanent:
        card = self.cards[card_id]
        if card.kind not in ("creature", "building"):
            raise ValueError(f"{card_id} is a {card.kind}, not a permanent")
        zone = zone or (RESERVE if card.kind == "creature" else BUILDINGS)
        perm = Permanent(self._uid(), card, player, zone, self.turn)
        perm.active = active
        self.permanents[perm.uid] = perm
        self._index_abilities(perm)
        self.emit("entered_play", player=player, card=card_id, uid=perm.uid, zone=zone,
                  active=active)
        return perm

    def _index_abilities(self, perm: Permanent) -> None:
        """Index a permanent just put in play: its abilities by timing, its static modifiers
        counted in the sums (loading a save calls this too, to rebuild what is derived)."""
        for source, mod in self.statics:  # static abilities in play affect the newcomer too
            if _static_applies(source, mod.target, perm):
                perm.mods[mod.stat] = perm.mods.get(mod.stat, 0) + mod.by
        for index, ability in enumerate(perm.card.abilities):
            if ability.kind == "static":
                for mod in ability.effects:
                    self.statics.append((perm, mod))
                    self._count_static(perm, mod, +1)
            else:
                self.abilities_at.setdefault(ability.timing, []).append(
                    ability_item(perm, index, ability))

    def _leave_play(self, perm: Permanent) -> None:
        del self.permanents[perm.uid]
        if perm.card.abilities:
            for source, mod in self.statics:
                if source is perm:
                    self._count_static(perm, mod, -1)
            self.statics = [s for s in self.statics if s[0] is not perm]
            for timing, entries in self.abilities_at.items():
                if any(e.source is perm for e in entries):
                    self.abilities_at[timing] = [e for e in entries if e.source is not perm]

    def destroy(self, perm: Permanent, cause: str, *, rule: str | None = None,
                components: bool = True, to: str = "graveyard") -> None:
        """Put a permanent from play into its owner's graveyard (or void).  Its opponent may then
        extract its monster components until the end of the phase, unless ``components`` is
        False (sacrificed as a cost [R], prep stage 2 29.4.11, deferred check [D])."""
        if perm.uid not in self.permanents:
            return
        self._leave_play(perm)
        owner = self.players[perm.owner]
        (owner.void if to == "void" else owner.graveyard).append(perm.card.id)
        count = getattr(perm.card, "components", 0) if perm.kind == "creature" else 0
        step = self.step
        offered = bool(count and components and not (step and step.no_components))
        self.emit("died" if perm.kind == "creature" else "destroyed", card=perm.card.id,
                  uid=perm.uid, controller=perm.controller, cause=cause, to=to, rule=rule,
                  components_offered=count if offered else 0)
        if offered:
            self.offers.append(ExtractionOffer(perm.card.id, perm.uid, count,
                                               self.opponent(perm.controller),
                                               # between turns: the coming preparation phase
                                               step.phase if step else "preparation"))

    # -- Ép checks (29.4.10; [D] after every action and effect elsewhere) ------------------------

    def check_hp(self, rule: str, *, components: bool = True) -> list[Permanent]:
        """Every permanent at 0 Ép (Sp) or below goes to the graveyard, and every one a
        ``lethal`` hook names: all found first, then all destroyed, one round.  A death can take
        a static bonus away from others (e.g. "+1 Ép to your creatures"), so the check repeats
        until a round finds nobody: the board is settled when it ends.  Each further round is
        logged as an ``hp_check`` with its ``round``."""
        hp = self.hp
        lethal = bool(self._lethal_impls())
        died: list[Permanent] = []
        for round_ in itertools.count(1):
            dead = [p for p in self.permanents.values() if hp(p) <= 0]
            doomed = self._lethal(dead) if lethal else []
            if not (dead or doomed):
                if round_ == 1:  # the common case: one empty check
                    self.emit("hp_check", rule=rule, dead=[])
                break
            uids = [p.uid for p in dead] + [p.uid for p, _ in doomed]
            if round_ == 1:
                self.emit("hp_check", rule=rule, dead=uids)
            else:
                self.emit("hp_check", rule=rule, dead=uids, round=round_)
            for perm in dead:
                self.destroy(perm, "hp", rule=rule, components=components)
            for perm, why in doomed:
                self.destroy(perm, why.cause, rule=why.rule,
                             components=components and why.components)
            died += dead
            died += [p for p, _ in doomed]
        self.check_players()
        return died

    def _lethal_impls(self) -> list[Any]:
        return implementations(self, "lethal")

    def _lethal(self, dead: list[Permanent]) -> list[tuple[Permanent, Any]]:
        doomed: dict[int, tuple[Permanent, Any]] = {}
        for named in call("lethal", self._lethal_impls(), {"game": self}, expect_lethal,
                          self.hook_observers, game=self):
            for perm, why in named:
                if perm.uid in self.permanents and perm not in dead:
                    doomed.setdefault(perm.uid, (perm, why))
        return [doomed[uid] for uid in sorted(doomed)]  # stable: by timestamp

    def check_players(self) -> None:
        losers = [p.index for p in self.players if p.hp <= 0]
        if losers and not self.over:
            self.end_game(None if len(losers) == 2 else self.opponent(losers[0]),
                          "hp", rule="3.12")

    def end_game(self, winner: int | None, reason: str, rule: str | None = None) -> None:
        self.over = True
        self.winner = winner
        self.emit("game_over", winner=winner, reason=reason, rule=rule)
        raise GameOver(reason)

    # -- primitive changes --------------------------------------------------------------------

    def damage(self, target: Permanent | Player, amount: int, source: str | None = None) -> None:
        if amount <= 0:
            return
        if isinstance(target, Player):
            target.hp -= amount
            self.emit("player_damaged", player=target.index, amount=amount, source=source,
                      hp=target.hp)
            return
        if target.uid not in self.permanents:
            return
        target.damage_taken += amount
        target.damaged_turn = self.turn
        self.emit("damaged", uid=target.uid, card=target.card.id, amount=amount, source=source,
                  hp=self.hp(target))

    def heal(self, target: Permanent | Player, amount: int, source: str | None = None) -> None:
        if isinstance(target, Player):
            target.hp += amount
            self.emit("player_healed", player=target.index, amount=amount, source=source)
            return
        # 29.4.2, 41.4: inside a simultaneous moment heals and damage net out whatever order
        # the items are applied in; end_moment clamps at max Ép.
        healed = amount if self.in_moment else min(amount, target.damage_taken)
        if healed and target.uid in self.permanents:
            target.damage_taken -= healed
            self.emit("healed", uid=target.uid, card=target.card.id, amount=healed, source=source)

    def restore(self, perm: Permanent, rule: str) -> None:
        """Back to max Ép / Sp (41.3)."""
        if perm.damage_taken:
            perm.damage_taken = 0
            self.emit("restored", uid=perm.uid, card=perm.card.id, hp=self.hp(perm), rule=rule)

    def gain_vp(self, player: int, amount: int, source: str | None = None) -> None:
        self.players[player].vp += amount
        self.emit("vp_gained", player=player, amount=amount, source=source,
                  vp=self.players[player].vp)

    def lose_vp(self, player: int, amount: int, source: str | None = None) -> None:
        p = self.players[player]
        lost = amount if self.in_moment else min(amount, p.vp)  # a moment nets out: end_moment
        p.vp -= lost
        self.emit("vp_lost", player=player, amount=lost, source=source, vp=p.vp)

    def gain_components(self, player: int, count: int, source: str | None = None) -> None:
        self.players[player].components += count
        self.emit("components_gained", player=player, count=count, source=source)

    def pay_components(self, player: int, count: int, source: str | None = None) -> None:
        p = self.players[player]
        paid = count if self.in_moment else min(count, p.components)  # nets out: end_moment
        p.components -= paid
        self.emit("components_paid", player=player, count=paid, source=source)

    def draw(self, player: int, count: int = 1, source: str | None = None) -> None:
        p = self.players[player]
        for _ in range(count):
            if not p.deck:
                self.emit("draw_failed", player=player, source=source)
                if self.rulings.empty_deck_loses:
                    self.end_game(self.opponent(player), "empty_deck",
                                  rule="D-empty-deck")
                return
            card_id = p.deck.pop()
            p.hand.append(card_id)
            self.emit("card_drawn", player=player, card=card_id, source=source)

    def add_counters(self, perm: Permanent, counter: str, count: int,
                     source: str | None = None) -> None:
        perm.counters[counter] = perm.counters.get(counter, 0) + count
        self.emit("counters_added", uid=perm.uid, counter=counter, count=count,
                  total=perm.counters[counter], source=source)

    def remove_counters(self, perm: Permanent, counter: str, count: int,
                        source: str | None = None) -> None:
        have = perm.counters.get(counter, 0)
        removed = count if self.in_moment else min(have, count)  # nets out: end_moment
        if have - removed:
            perm.counters[counter] = have - removed
        else:
            perm.counters.pop(counter, None)
        self.emit("counters_removed", uid=perm.uid, counter=counter, count=removed,
                  total=have - removed, source=source)

    def give_defence_bonus(self, perm: Permanent, amount: int, source: str | None = None) -> None:
        perm.defence_bonus += amount
        self.emit("defence_bonus_gained", uid=perm.uid, amount=amount, source=source)

    def remove_defence_bonus(self, perm: Permanent, rule: str | None = None,
                             source: str | None = None) -> None:
        if self.in_moment:  # losing it comes after every gain of the moment: end_moment
            self.bonus_losses.append((perm, rule, source))
            return
        if perm.defence_bonus:
            lost = perm.defence_bonus
            perm.defence_bonus = 0
            self.emit("defence_bonus_lost", uid=perm.uid, amount=lost, rule=rule, source=source)

    # -- simultaneous moments (29.4.2, 41.4) ----------------------------------------------------

    def begin_moment(self) -> None:
        """From now until :meth:`end_moment` changes are one moment: none of them may depend on
        the order they are applied in, so the primitives that stop at zero (heal, lose VP, pay
        components, remove counters) add up freely and the limits apply once at the end, and a
        defence bonus is lost after every gain of the moment."""
        self.in_moment = True

    def end_moment(self) -> None:
        self.in_moment = False
        for player in self.players:
            player.vp = max(player.vp, 0)
            player.components = max(player.components, 0)
        for perm in self.permanents.values():
            if perm.damage_taken < 0:  # healed past max Ép: back to max, not above
                perm.damage_taken = 0
            for counter in [c for c, n in perm.counters.items() if n <= 0]:
                del perm.counters[counter]
        losses, self.bonus_losses = self.bonus_losses, []
        for perm, rule, source in losses:
            self.remove_defence_bonus(perm, rule=rule, source=source)

    # -- lasting effects ----------------------------------------------------------------------

    def add_effect(self, stat: str, amount: int, duration: Duration | str, *,
                   targets: Iterable[Permanent] = (), player: int | None = None,
                   controller: int | None = None, source: str | None = None) -> Effect:
        """Create a lasting modifier.  Targets are fixed now: permanents that enter play later
        are not affected (scope, K 99.5).  A "this turn" effect made before preparation stage 2
        waits until its beginning, except VP-regeneration modifiers (29.4.5)."""
        duration = Duration(duration)
        step = self.step
        waits = (duration is Duration.THIS_TURN and stat != "vp_regen" and step is not None
                 and step.phase == "preparation" and step.stage == 1)
        effect = Effect(self._uid(), stat, amount, duration,
                        targets=frozenset(t.uid for t in targets), player=player,
                        controller=controller, source=source, in_force=not waits)
        self.effects.append(effect)
        if effect.in_force:
            self._count_effect(effect, +1)
        self.emit("effect_created" if waits else "effect_started", **effect.describe())
        return effect

    def end_effects(self, durations: Iterable[Duration], rule: str,
                    only_controller: int | None = None) -> list[Effect]:
        """End every effect of these durations at one moment (29.4.4, 41.4): they are removed
        together, so no order between them exists."""
        durations = frozenset(durations)
        ending = [e for e in self.effects if e.duration in durations and e.in_force
                  and (only_controller is None or e.controller == only_controller)]
        if ending:
            ids = {e.uid for e in ending}
            self.effects = [e for e in self.effects if e.uid not in ids]
            for effect in ending:
                self._count_effect(effect, -1)
            for effect in sorted(ending, key=lambda e: e.uid):
                self.emit("effect_ended", effect=effect.uid, stat=effect.stat, rule=rule)
        return ending

    def start_waiting_effects(self, rule: str) -> None:
        for effect in self.effects:
            if not effect.in_force:
                effect.in_force = True
                self._count_effect(effect, +1)
                self.emit("effect_started", **effect.describe(), rule=rule)

    # -- playing cards (8.1; 29.4.6) ------------------------------------------------------------

    def playable(self, player: int) -> list[str]:
        """Card ids in ``player``'s hand he may play now and can pay for."""
        step = self.step
        if step is None or self.over:
            return []
        p = self.players[player]
        result = []
        for card_id in dict.fromkeys(p.hand):
            card = self.cards[card_id]
            if card.cost.vp > p.vp or card.cost.components > p.components:
                continue
            instant = card.kind == "spell" and card.instant
            if not step.hand_play and not (instant and step.phase != "preparation"):
                continue
            if player != self.active and not instant:
                continue
            result.append(card_id)
        return result

    def play_card(self, player: int, card_id: str) -> Permanent | None:
        """Play a card from hand, paying its cost.  Refused, with nothing changed, when the
        rules forbid it."""
        step = self.step
        if step is not None and step.phase == "preparation":
            raise RuleViolation("29.4.6", f"player {player} cannot play {card_id} from hand "
                                "during the preparation phase")
        p = self.players[player]
        if card_id not in p.hand:
            raise RuleViolation("8.1", f"{card_id} is not in player {player}'s hand")
        if card_id not in self.playable(player):
            raise RuleViolation("8.1", f"player {player} cannot play {card_id} now "
                                f"(cost {self.cards[card_id].cost}, VP {p.vp})")
        card = self.cards[card_id]
        p.hand.remove(card_id)
        p.vp -= card.cost.vp
        p.components -= card.cost.components
        self.emit("card_played", player=player, card=card_id, vp=card.cost.vp,
                  components=card.cost.components)
        if card.kind == "spell":
            from hkk.cards.interpret import resolve_spell

            try:
                resolve_spell(self, player, card)
            finally:  # even when its effect ends the game (GameOver): no card leaves every zone
                p.graveyard.append(card_id)
            return None
        return self.enter_play(player, card_id)


def _static_player(source: Permanent, target: str) -> int | None:
    """The player a static player-targeted modifier affects; -1 for each player."""
    return {"controller": source.controller, "opponent": 1 - source.controller,
            "each_player": -1}.get(target)


def _static_applies(source: Permanent, target: str, perm: Permanent) -> bool:
    if target == "self":
        return perm is source
    if target == "own_creatures":
        return perm.kind == "creature" and perm.controller == source.controller
    if target == "opponent_creatures":
        return perm.kind == "creature" and perm.controller != source.controller
    if target == "all_creatures":
        return perm.kind == "creature"
    if target == "own_buildings":
        return perm.kind == "building" and perm.controller == source.controller
    if target == "all_buildings":
        return perm.kind == "building"
    return False
