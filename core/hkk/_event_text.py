"""Events as readable lines (rich markup), for ``hkk play`` and for test failure output.

:class:`EventRenderer` keeps a little state (which permanent uid is which card) so that later
events that only carry a uid still read as a card name.  Run ``python -m hkk._event_text`` for a
demo.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hkk._markup import INDENT, escape, plain


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
        return f"{INDENT}[dim]{escape(event.kind)} {escape(details)}[/dim]"

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
        # 0 options: a player's view hides how many his opponent had (hkk._player_view)
        of = [f"of {e.options}"] if e.options else []
        said = ", ".join(of + ([e.rule] if e.rule else []))
        return (f"{INDENT}{self.player(e.player)} [yellow]{e.decision}[/yellow]: "
                f"{escape(str(e.choice))}" + (f" [dim]({said})[/dim]" if said else ""))

    def _resolving(self, e: Any) -> str:
        where = ""
        if e.card:
            where = f" ← {self.card(e.card, e.uid)}"
            if e.ability is not None:
                where += f" ability {e.ability}"
        return f"{INDENT}[green]⟳ {escape(str(e.item))}[/green]{where}"

    def _moment(self, e: Any) -> str:
        items = ", ".join(e.items or []) or "nothing"
        ends = ", ".join(e.ends or []) or "nothing"
        return f"{INDENT}[green]moment[/green] ({e.get('rule')}): {escape(items)}; ends {ends}"

    def _effect_started(self, e: Any, verb: str = "starts") -> str:
        targets = ", ".join(self.perm(uid) for uid in e.targets or [])
        if e.player is not None:
            targets = (targets + ", " if targets else "") + self.player(e["player"])
        rule = f" [dim]({e.rule})[/dim]" if e.rule else ""
        return (f"{INDENT}[blue]+ effect {e.effect} {verb}[/blue]: {e.stat} "
                f"{e.amount:+d} {e.duration} on {targets or 'nothing'}{rule}")

    def _effect_created(self, e: Any) -> str:
        return self._effect_started(e, "waits")

    def _effect_ended(self, e: Any) -> str:
        on = ", ".join(self.perm(uid) for uid in e.targets or [])
        where = f" on {on}" if on else ""
        verb = "ends" + (" for some" if e.partial else "")
        return (f"{INDENT}[blue]- effect {e.effect} {verb}[/blue]: {e.stat}{where} "
                f"({e.rule})")

    def _prevented(self, e: Any) -> str:
        return (f"{INDENT}[yellow]prevented[/yellow]: {escape(str(e.item))} by "
                f"{self.card(e.preventer_card, e.preventer_uid)} [dim]({e.rule})[/dim]")

    def _hp_check(self, e: Any) -> str | None:
        dead = e.dead or []
        if not dead and self.quiet_checks:
            return None
        who = ", ".join(self.perm(uid) for uid in dead) if dead else "nobody dies"
        again = f", round {e.round}" if e.round else ""  # D-settled-check
        return f"{INDENT}[dim]Ép check ({e.rule}{again}):[/dim] {who}"

    def _triggered(self, e: Any) -> str:
        what = self.card(e.card) if e.card else escape(str(e.item))
        if e.card and e.ability is not None:
            what += f" ability {e.ability}"
        optional = " [dim](optional)[/dim]" if e.optional else ""
        chain = f", chain of {e.chain}" if e.chain > 1 else ""
        return (f"{INDENT}[cyan]⚡ {what} triggers[/cyan]{optional} "
                f"[dim](on {escape(e.cause)} #{e.cause_seq}{chain}, D-trigger-wait)[/dim]")

    def _item_dropped(self, e: Any) -> str:
        return (f"{INDENT}[yellow]left out[/yellow]: {escape(str(e.item))} - "
                f"{escape(str(e.reason))} [dim]({e.rule})[/dim]")

    def _died(self, e: Any, verb: str = "dies") -> str:
        rule = f", {e.rule}" if e.rule else ""
        offered = e.components_offered
        extra = f"; {offered} component(s) offered" if offered else ""
        return (f"{INDENT}[red]✝ {self.card(e.card, e.uid)} of "
                f"{self.player(e.controller)} {verb}[/red] [dim]({e.cause}{rule})[/dim]"
                f"{extra}")

    def _destroyed(self, e: Any) -> str:
        return self._died(e, "is destroyed")

    def _entered_play(self, e: Any) -> str:
        self.uids[e["uid"]] = e["card"]
        state = "active" if e.active else "passive"
        return (f"{INDENT}{self.card(e.card, e.uid)} enters {e.zone} of "
                f"{self.player(e.controller)} ({state})")

    def _card_played(self, e: Any) -> str:
        return f"{INDENT}{self.player(e.player)} plays {self.card(e.card)} ({e.vp} VP)"

    def _card_drawn(self, e: Any) -> str:
        # "?": a card the viewer may not know (hkk._player_view.HIDDEN)
        card = "a card" if e.card == "?" else escape(str(e.card))
        return f"{INDENT}[dim]{plain(self.player(e.player))} draws {card}[/dim]"

    def _damaged(self, e: Any) -> str:
        return (f"{INDENT}{self.card(e.card, e.uid)} takes [red]{e.amount}[/red] "
                f"damage, Ép now {e.after}")

    def _player_damaged(self, e: Any) -> str:
        return (f"{INDENT}{self.player(e.player)} takes [red]{e.amount}[/red] damage, "
                f"Ép now {e.after}")

    def _attack(self, e: Any) -> str:
        attackers = ", ".join(self.perm(uid) for uid in e.attackers or [])
        return f"{INDENT}[bold red]attack[/bold red] by {attackers}"

    def _passed(self, e: Any) -> str:
        forced = " (nothing to use)" if e.forced else ""
        return f"{INDENT}[dim]{plain(self.player(e.player))} passes{forced} ({e.rule})[/dim]"

    def _turn_passed(self, e: Any) -> str:
        return f"{INDENT}{self.player(e.player)} passes the turn [dim]({e.rule})[/dim]"

    def _vp_regenerated(self, e: Any) -> str:
        return (f"{INDENT}{self.player(e.player)} regenerates {e.amount} VP, now "
                f"{e.after} [dim]({e.rule})[/dim]")

    def _became_active(self, e: Any) -> str:
        return f"{INDENT}[dim]{plain(self.card(e.card, e.uid))} becomes active[/dim]"

    def _moved(self, e: Any) -> str:
        return f"{INDENT}{self.card(e.card, e.uid)} moves to {e.zone}"

    def _clock_closed(self, e: Any) -> str:
        return f"{INDENT}[dim]clock: turn closed for {plain(self.player(e.player))} " \
            f"({e.rule})[/dim]"

    def _healed(self, e: Any) -> str:
        return f"{INDENT}{self.card(e.card, e.uid)} heals {e.amount}"

    def _player_healed(self, e: Any) -> str:
        return f"{INDENT}{self.player(e.player)} heals {e.amount} Ép"

    def _restored(self, e: Any) -> str:
        return f"{INDENT}{self.card(e.card, e.uid)} back to {e.after} ({e.rule})"

    def _counters_added(self, e: Any, verb: str = "gets") -> str:
        return (f"{INDENT}{self.perm(e.uid)} {verb} {e.amount} {e.counter} "
                f"counter(s), {e.after} now")

    def _counters_removed(self, e: Any) -> str:
        return self._counters_added(e, "loses")

    def _defence_bonus_gained(self, e: Any) -> str:
        return f"{INDENT}{self.perm(e.uid)} gets a +{e.amount} defence bonus"

    def _defence_bonus_lost(self, e: Any) -> str:
        rule = f" [dim]({e.rule})[/dim]" if e.rule else ""
        return f"{INDENT}{self.perm(e.uid)} loses its defence bonus{rule}"

    def _amount(self, e: Any, what: str) -> str:
        return f"{INDENT}{self.player(e.player)} {what}"

    def _vp_gained(self, e: Any) -> str:
        return self._amount(e, f"gains {e.amount} VP, now {e.after}")

    def _vp_lost(self, e: Any) -> str:
        return self._amount(e, f"loses {e.amount} VP, now {e.after}")

    def _cost_paid(self, e: Any) -> str:
        return (f"{INDENT}{self.player(e.controller)} pays {e.vp} VP, {e.components} "
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



def _demo() -> None:  # pragma: no cover - a module can demo itself (rich style)
    from rich.console import Console

    from hkk import Engine

    engine = Engine.installed()
    game = engine.new_game(seed=1)
    console = Console()
    renderer = EventRenderer(engine.cards, quiet_checks=True)
    def show(event: Any) -> None:
        line = renderer.line(event)
        if line is not None:
            console.print(line)

    game.log.subscribe(show)
    game.play(max_turns=2)


if __name__ == "__main__":  # pragma: no cover
    _demo()

