"""Events as readable lines (rich markup), for ``hkk play`` and for test failure output.

:class:`EventRenderer` keeps a little state (which permanent uid is which card) so that later
events that only carry a uid still read as a card name.  Run ``python -m hkk._render`` for a demo.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.markup import escape as escape_markup

from hkk._text import printable

__all__ = ["EventRenderer", "card_lines", "describe_effect", "escape", "plain", "verify_lines"]

_INDENT = "    "


def escape(text: str) -> str:
    """``text`` for a markup line: printed literally (``[bold]`` stays text) and with control
    characters written out, so nothing from a set's files can drive the terminal."""
    return escape_markup(printable(text))


def plain(markup: str) -> str:
    """The text of a rich markup line, without styles."""
    from rich.text import Text

    return Text.from_markup(markup).plain


class EventRenderer:
    """Turns :class:`hkk.Event` objects into rich-markup lines (``None``: not shown)."""

    def __init__(self, cards: Mapping[str, Any] | None = None,
                 names: Sequence[str] = ("P1", "P2"), *, quiet_checks: bool = False) -> None:
        self.cards = cards or {}
        self.names = list(names)
        self.quiet_checks = quiet_checks  # hide Ép checks in which nobody died
        self.uids: dict[int, str] = {}

    # -- naming -----------------------------------------------------------------------------

    def player(self, index: Any) -> str:
        if isinstance(index, int) and 0 <= index < len(self.names):
            return f"[bold]{self.names[index]}[/bold]"
        return "the rules" if index is None else str(index)

    def card(self, card_id: Any, uid: Any = None) -> str:
        card = self.cards.get(card_id) if isinstance(card_id, str) else None
        name = f"{card.name} ({card_id})" if card is not None else str(card_id)
        suffix = f"#{uid}" if uid is not None else ""
        return f"[cyan]{escape(name)}{suffix}[/cyan]"

    def perm(self, uid: Any) -> str:
        return self.card(self.uids.get(uid, "?"), uid)

    # -- rendering --------------------------------------------------------------------------

    def line(self, event: Any) -> str | None:
        method: Callable[[Any], str | None] | None = getattr(self, f"_{event.kind}", None)
        if method is not None:
            return method(event)
        details = " ".join(f"{k}={plain(self.player(v)) if k == 'player' else v}"
                           for k, v in event.data.items() if v is not None)
        return f"{_INDENT}[dim]{escape(event.kind)} {escape(details)}[/dim]"

    def _game_started(self, e: Any) -> str:
        decks = " and ".join(str(n) for n in e.decks)
        return f"[bold]Game[/bold] seed {e.seed}, decks of {decks} cards"

    def _starting_player(self, e: Any) -> str:
        return f"{self.player(e.player)} starts"

    def _turn_started(self, e: Any) -> str:
        return (f"\n[bold reverse] Turn {e.turn} [/bold reverse] {self.player(e.player)} "
                f"(their turn {e.turn_of_player})")

    def _turn_ended(self, e: Any) -> None:
        return None

    def _step_started(self, e: Any) -> str:
        return (f"  [bold magenta]▸ {e.phase} {e.stage}[/bold magenta] "
                f"[dim]{e.hook} ({e.mode})[/dim]")

    def _step_ended(self, e: Any) -> None:
        return None

    def _decision(self, e: Any) -> str:
        rule = f", {e.rule}" if e.rule else ""
        return (f"{_INDENT}{self.player(e.player)} [yellow]{e.decision}[/yellow]: "
                f"{escape(str(e.choice))} [dim](of {e.options}{rule})[/dim]")

    def _resolving(self, e: Any) -> str:
        where = ""
        if e.card:
            where = f" ← {self.card(e.card, e.uid)}"
            if e.ability is not None:
                where += f" ability {e.ability}"
        return f"{_INDENT}[green]⟳ {escape(str(e.item))}[/green]{where}"

    def _moment(self, e: Any) -> str:
        items = ", ".join(e.items or []) or "nothing"
        ends = ", ".join(e.ends or []) or "nothing"
        return f"{_INDENT}[green]moment[/green] ({e.get('rule')}): {escape(items)}; ends {ends}"

    def _effect_started(self, e: Any, verb: str = "starts") -> str:
        targets = ", ".join(self.perm(uid) for uid in e.targets or [])
        if e.player is not None:
            targets = (targets + ", " if targets else "") + self.player(e["player"])
        rule = f" [dim]({e.rule})[/dim]" if e.rule else ""
        return (f"{_INDENT}[blue]+ effect {e.effect} {verb}[/blue]: {e.stat} "
                f"{e.amount:+d} {e.duration} on {targets or 'nothing'}{rule}")

    def _effect_created(self, e: Any) -> str:
        return self._effect_started(e, "waits")

    def _effect_ended(self, e: Any) -> str:
        on = ", ".join(self.perm(uid) for uid in e.targets or [])
        where = f" on {on}" if on else ""
        verb = "ends" + (" for some" if e.partial else "")
        return (f"{_INDENT}[blue]- effect {e.effect} {verb}[/blue]: {e.stat}{where} "
                f"({e.rule})")

    def _prevented(self, e: Any) -> str:
        return (f"{_INDENT}[yellow]prevented[/yellow]: {escape(str(e.item))} by "
                f"{self.card(e.preventer_card, e.preventer_uid)} [dim]({e.rule})[/dim]")

    def _hp_check(self, e: Any) -> str | None:
        dead = e.dead or []
        if not dead and self.quiet_checks:
            return None
        who = ", ".join(self.perm(uid) for uid in dead) if dead else "nobody dies"
        again = f", round {e.round}" if e.round else ""  # D-settled-check
        return f"{_INDENT}[dim]Ép check ({e.rule}{again}):[/dim] {who}"

    def _item_dropped(self, e: Any) -> str:
        return (f"{_INDENT}[yellow]left out[/yellow]: {escape(str(e.item))} - "
                f"{escape(str(e.reason))} [dim]({e.rule})[/dim]")

    def _died(self, e: Any, verb: str = "dies") -> str:
        rule = f", {e.rule}" if e.rule else ""
        offered = e.components_offered
        extra = f"; {offered} component(s) offered" if offered else ""
        return (f"{_INDENT}[red]✝ {self.card(e.card, e.uid)} of "
                f"{self.player(e.controller)} {verb}[/red] [dim]({e.cause}{rule})[/dim]"
                f"{extra}")

    def _destroyed(self, e: Any) -> str:
        return self._died(e, "is destroyed")

    def _entered_play(self, e: Any) -> str:
        self.uids[e["uid"]] = e["card"]
        state = "active" if e.active else "passive"
        return (f"{_INDENT}{self.card(e.card, e.uid)} enters {e.zone} of "
                f"{self.player(e.controller)} ({state})")

    def _card_played(self, e: Any) -> str:
        return f"{_INDENT}{self.player(e.player)} plays {self.card(e.card)} ({e.vp} VP)"

    def _card_drawn(self, e: Any) -> str:
        return f"{_INDENT}[dim]{plain(self.player(e.player))} draws {e.card}[/dim]"

    def _damaged(self, e: Any) -> str:
        return (f"{_INDENT}{self.card(e.card, e.uid)} takes [red]{e.amount}[/red] "
                f"damage, Ép now {e.after}")

    def _player_damaged(self, e: Any) -> str:
        return (f"{_INDENT}{self.player(e.player)} takes [red]{e.amount}[/red] damage, "
                f"Ép now {e.after}")

    def _attack(self, e: Any) -> str:
        attackers = ", ".join(self.perm(uid) for uid in e.attackers or [])
        return f"{_INDENT}[bold red]attack[/bold red] by {attackers}"

    def _passed(self, e: Any) -> str:
        forced = " (nothing to use)" if e.forced else ""
        return f"{_INDENT}[dim]{plain(self.player(e.player))} passes{forced} ({e.rule})[/dim]"

    def _turn_passed(self, e: Any) -> str:
        return f"{_INDENT}{self.player(e.player)} passes the turn [dim]({e.rule})[/dim]"

    def _vp_regenerated(self, e: Any) -> str:
        return (f"{_INDENT}{self.player(e.player)} regenerates {e.amount} VP, now "
                f"{e.after} [dim]({e.rule})[/dim]")

    def _became_active(self, e: Any) -> str:
        return f"{_INDENT}[dim]{plain(self.card(e.card, e.uid))} becomes active[/dim]"

    def _moved(self, e: Any) -> str:
        return f"{_INDENT}{self.card(e.card, e.uid)} moves to {e.zone}"

    def _clock_closed(self, e: Any) -> str:
        return f"{_INDENT}[dim]clock: turn closed for {plain(self.player(e.player))} " \
            f"({e.rule})[/dim]"

    def _healed(self, e: Any) -> str:
        return f"{_INDENT}{self.card(e.card, e.uid)} heals {e.amount}"

    def _player_healed(self, e: Any) -> str:
        return f"{_INDENT}{self.player(e.player)} heals {e.amount} Ép"

    def _restored(self, e: Any) -> str:
        return f"{_INDENT}{self.card(e.card, e.uid)} back to {e.after} ({e.rule})"

    def _counters_added(self, e: Any, verb: str = "gets") -> str:
        return (f"{_INDENT}{self.perm(e.uid)} {verb} {e.amount} {e.counter} "
                f"counter(s), {e.after} now")

    def _counters_removed(self, e: Any) -> str:
        return self._counters_added(e, "loses")

    def _defence_bonus_gained(self, e: Any) -> str:
        return f"{_INDENT}{self.perm(e.uid)} gets a +{e.amount} defence bonus"

    def _defence_bonus_lost(self, e: Any) -> str:
        rule = f" [dim]({e.rule})[/dim]" if e.rule else ""
        return f"{_INDENT}{self.perm(e.uid)} loses its defence bonus{rule}"

    def _amount(self, e: Any, what: str) -> str:
        return f"{_INDENT}{self.player(e.player)} {what}"

    def _vp_gained(self, e: Any) -> str:
        return self._amount(e, f"gains {e.amount} VP, now {e.after}")

    def _vp_lost(self, e: Any) -> str:
        return self._amount(e, f"loses {e.amount} VP, now {e.after}")

    def _cost_paid(self, e: Any) -> str:
        return (f"{_INDENT}{self.player(e.controller)} pays {e.vp} VP, {e.components} "
                "component(s)" + (", sacrificing it" if e.sacrifice else ""))

    def _components_gained(self, e: Any) -> str:
        return self._amount(e, f"gains {e.amount} component(s)")

    def _components_paid(self, e: Any) -> str:
        return self._amount(e, f"pays {e.amount} component(s)")

    def _components_extracted(self, e: Any) -> str:
        return self._amount(e, f"extracts {e.amount} component(s) from "
                            f"{self.card(e.card, e.uid)}")

    def _components_declined(self, e: Any) -> str:
        return self._amount(e, f"leaves the components of {self.card(e.card, e.uid)}")

    def _draw_failed(self, e: Any) -> str:
        return self._amount(e, "[red]cannot draw: the deck is empty[/red]")

    def _game_over(self, e: Any) -> str:
        winner = e.winner
        head = "[bold]Draw[/bold]" if winner is None else f"[bold green]Winner: " \
            f"{plain(self.player(winner))}[/bold green]"
        return f"\n{head} [dim]({e.reason}{', ' + e.rule if e.get('rule') else ''})[/dim]"


# -- cards ---------------------------------------------------------------------------------------

def describe_effect(effect: Any) -> str:
    """``modify damage +1 own_creatures until_end_of_turn``: each verb says itself
    (:meth:`hkk._cards.verbs.Verb.describe`)."""
    text: str = effect.describe()
    return text


def _cost(cost: Any) -> str:
    parts = [f"{cost.vp} VP"] if cost.vp else []
    if cost.components:
        parts.append(f"{cost.components} component(s)")
    if cost.sacrifice_self:
        parts.append("sacrifice it")
    return ", ".join(parts) or "free"


def _limit(limit: Any) -> str:
    parts = []
    if limit.per_turn:
        parts.append(f"{limit.per_turn}/turn")
    if limit.per_game:
        parts.append(f"{limit.per_game}/game")
    if limit.whose_turn != "any":
        parts.append(f"{limit.whose_turn} turn only")
    return ", ".join(parts)


def describe_when(when: Any) -> str:
    """A ``when`` table in words: "a creature of yours dies", "opponent plays a spell" (each
    trigger event says itself, :meth:`hkk._cards.trigger_events.TriggerEvent.describe`)."""
    from hkk._cards.trigger_events import WHEN_EVENTS

    return WHEN_EVENTS[when.event].describe(when)


def card_lines(card: Any) -> list[str]:
    """A card as a few markup lines: header with stats, its text, one line per ability."""
    if card.kind == "creature":
        stats = f"{card.damage}/{card.hp}" + (f", {card.components} comp." if card.components
                                              else "")
    elif card.kind == "building":
        stats = f"Sp {card.sp}"
    else:
        stats = "instant spell" if card.instant else "spell"
    lines = [(f"[bold cyan]{escape(card.id)}[/bold cyan] [bold]{escape(card.name)}[/bold] - "
              f"{card.kind}, {_cost(card.cost)}, {stats}")]
    if card.text:
        lines.append(f"{_INDENT}[italic]{escape(card.text)}[/italic]")
    if card.kind == "spell":
        lines.append(f"{_INDENT}effect: "
                     + escape("; ".join(describe_effect(e) for e in card.effects)))
    for index, ability in enumerate(card.abilities):
        head = f"{index}. {ability.kind}"
        if ability.kind == "activated":
            extra = [ability.timing, _cost(ability.cost), _limit(ability.limit)]
            if ability.usable_in_preparation:
                extra.append("usable in preparation")
            head += f" ({', '.join(x for x in extra if x)})"
        elif ability.kind == "automatic":
            head += f" ({ability.timing}{', optional' if ability.optional else ''})"
        elif ability.kind == "triggered":
            optional = ", optional" if ability.optional else ""
            head += f" (when {describe_when(ability.when)}{optional})"
        effects = "; ".join(describe_effect(e) for e in ability.effects)
        if ability.condition is not None:  # D-conditions
            effects = f"{ability.condition.describe()}: {effects}"
        lines.append(f"{_INDENT}{head}: {escape(effects)}")
    return lines


# -- verify reports --------------------------------------------------------------------------------

def verify_lines(report: Any) -> list[str]:
    """An :class:`hkk.verify.VerifyReport` as markup lines: checks, coverage, verdict.  The same
    failure in several games is printed once, with its seeds (issue 13)."""
    lines = []
    for group in report.groups():
        check = group[0]
        mark = "[green]✓[/green]" if check.ok else \
            "[red]✗[/red]" if check.failed else "[yellow]![/yellow]"
        headline = check.headline()
        if len(group) > 1:
            seeds = ", ".join(str(c.seed) for c in group)
            headline += f" [{len(group)} games alike: seeds {seeds}]"
        lines.append(f"{mark} {escape(headline)}")
        if check.file and not check.ok:
            lines.append(f"    at [bold]{escape(check.file)}:{check.line}[/bold]")
        if check.command and not check.ok:
            lines.append(f"    reproduce: [bold]{escape(check.command)}[/bold]")
        if check.details and not check.ok:
            lines.extend(f"    [dim]{escape(line)}[/dim]" for line in check.details.splitlines())
    if report.coverage:
        lines.append("[bold]coverage[/bold]")
    for code, cov in report.coverage.items():
        data = cov.as_dict()
        hooks = ", ".join(f"{name} {counts['calls']} calls/{counts['with_items']} with items"
                          for name, counts in sorted(cov.hooks.items())) or "none"
        python = f", items from Python {sum(cov.python_items.values())}" \
            if cov.python_items else ""
        lines.append(f"  {code}: cards played {len(cov.played)}/{len(cov.cards)}, data "
                     f"abilities fired {len(cov.fired)}/{len(cov.abilities)}{python}; "
                     f"hooks: {hooks}")
        if data["not_played"]:
            lines.append(f"    [dim]never played: {', '.join(data['not_played'])}[/dim]")
        if data["not_fired"]:
            lines.append(f"    [dim]never fired: {', '.join(data['not_fired'])}[/dim]")
        if data["hooks_not_reached"]:
            lines.append(f"    [dim]hooks never reached: "
                         f"{', '.join(data['hooks_not_reached'])}[/dim]")
    failed = len(report.failures)
    verdict = "[bold green]OK[/bold green]" if report.ok else \
        f"[bold red]FAILED[/bold red] ({failed} failure{'s' if failed != 1 else ''})"
    lines.append(f"{verdict}: {len(report.checks)} checks, {report.games_played} games, "
                 f"{len(report.warnings)} warning(s)")
    return lines


def _demo() -> None:  # pragma: no cover - a module can demo itself (rich style)
    from rich.console import Console

    from hkk import Engine

    engine = Engine.installed()
    game = engine.new_game(seed=1)
    console = Console()
    renderer = EventRenderer(engine.cards, quiet_checks=True)
    game.log.subscribe(lambda event: (line := renderer.line(event)) and console.print(line))
    game.play(max_turns=2)


if __name__ == "__main__":  # pragma: no cover
    _demo()
