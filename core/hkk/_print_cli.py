"""The commands ``hkk print`` (a print-and-play PDF) and ``hkk export`` (Tabletop Simulator,
Cockatrice), registered by :mod:`hkk.cli`; docs/PRINT.md says how to use what they write.

Both print a set's cards once each, or a deck's cards as many times as the deck holds them.
Bad input - an unknown set or deck, an art file that cannot be read - is one line on stderr
naming it, and exit 2; so is a missing ``hkk[print]`` extra.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from hkk._cli_output import EXIT_USAGE, _discover, _err, _out, _output_file
from hkk._errors import HkkError
from hkk._markup import escape

__all__ = ["Selection", "export_command", "print_command", "write_card_images"]


def _fail(message: str) -> NoReturn:
    _err().print(f"[red]Error:[/red] {escape(message)}")
    sys.exit(EXIT_USAGE)


class Selection:
    """What a command prints: a name for its files, a title, the cards with their copies, and
    each distinct card's drawing."""

    def __init__(self, found: Any, code: str, deck: str | None) -> None:
        if code not in found.sets:
            _fail(f"no loaded set {code!r}; loaded: {', '.join(sorted(found.sets)) or 'none'}")
        s = found.sets[code]
        self.sets = found.sets
        if deck is None:
            self.name, self.title = code, str(s.manifest.name)
            self.cards: list[tuple[Any, int]] = [(card, 1) for card in s.cards]
            if not self.cards:
                _fail(f"set {code!r} has no cards to print")
            return
        key = deck if ":" in deck else f"{code}:{deck}"
        if key not in found.decks:
            own = sorted(name.split(":", 1)[1] for name in found.decks
                         if name.startswith(f"{code}:"))
            _fail(f"no deck {deck!r} in set {code!r}; its decks: {', '.join(own) or 'none'}")
        chosen = found.decks[key]
        self.name, self.title = key.replace(":", "-"), str(chosen.title or key)
        self.cards = [(found.cards[card_id], copies) for card_id, copies in chosen.cards.items()]
        if not self.cards:
            _fail(f"{self.title}: no cards to print")

    def faces(self) -> list[str]:
        """Each distinct card's drawing, with its art, in the order of :attr:`cards`."""
        from hkk._card_image import art_for, inner_svg

        try:
            return [inner_svg(card, art=art_for(self.sets[card.set_code].root, card))
                    for card, _ in self.cards]
        except HkkError as exc:
            _fail(str(exc))

    def set_names(self) -> list[tuple[str, str]]:
        codes = dict.fromkeys(card.set_code for card, _ in self.cards)
        return [(code, str(self.sets[code].manifest.name)) for code in codes]


def write_card_images(found: Any, cards: Sequence[Any], folder: Path) -> dict[str, str]:
    """Each card's SVG (with its art) in ``folder``, named after its id; returns the file name
    of each card id (``hkk gallery`` shows them)."""
    from hkk._card_image import art_for, card_svg

    folder.mkdir(parents=True, exist_ok=True)
    names = {}
    for card in cards:
        name = card.id.replace(":", "-") + ".svg"
        try:
            svg = card_svg(card, art=art_for(found.sets[card.set_code].root, card))
        except HkkError as exc:
            _fail(str(exc))
        (folder / name).write_text(svg, encoding="utf-8")
        names[card.id] = name
    return names


def _extra_missing(exc: HkkError) -> NoReturn:
    _fail(str(exc))


@click.command("print", short_help="Write a print-and-play PDF of a set's cards or a deck.")
@click.argument("code")
@click.option("--deck", metavar="DECK", help="Print this deck of the set (its cards as many "
              "times as it holds them) instead of every card of the set once.")
@click.option("--backs", is_flag=True, help="After each page of faces a page of backs, placed "
              "for long-edge duplex printing.")
@click.option("-o", "--output-file", required=True, metavar="FILE.pdf", callback=_output_file,
              help="The PDF to write.")
def print_command(code: str, deck: str | None, backs: bool, output_file: str) -> None:
    """Write a print-and-play PDF of set CODE: 3 x 3 cards a page on A4, each 63 x 88 mm with
    3 mm bleed and cut marks (docs/PRINT.md)."""
    from hkk._card_image import PrintExtraMissing
    from hkk._print_sheet import layout, write_pdf

    chosen = Selection(_discover(), code, deck)
    faces = chosen.faces()
    index = [i for i, (_, copies) in enumerate(chosen.cards) for _ in range(copies)]
    pages = layout(len(index), backs=backs)
    try:
        write_pdf(pages, [faces[i] for i in index], output_file, title=chosen.title)
    except PrintExtraMissing as exc:
        _extra_missing(exc)
    _out().print(f"wrote {escape(output_file)}: {len(index)} cards on {len(pages)} page(s)")


@click.command("export", short_help="Export cards or a deck to Tabletop Simulator, Cockatrice.")
@click.argument("code")
@click.option("--deck", metavar="DECK", help="Export this deck of the set instead of every card "
              "of the set once.")
@click.option("--to", "target", type=click.Choice(["tts", "cockatrice"]), required=True,
              help="tts: a saved object with its deck sheet; cockatrice: a card database, the "
                   "card pictures and the deck file.")
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False),
              metavar="DIR", help="Folder to write into (made if missing).")
@click.option("--image-url", metavar="URL", help="The web folder the images will be put in: "
              "URL followed by each file's name is written instead of its path.")
def export_command(code: str, deck: str | None, target: str, out_dir: str,
                   image_url: str | None) -> None:
    """Export set CODE's cards, or a deck, for Tabletop Simulator or Cockatrice
    (docs/PRINT.md)."""
    from hkk._card_export import write_cockatrice, write_tts
    from hkk._card_image import PrintExtraMissing

    chosen = Selection(_discover(), code, deck)
    faces = chosen.faces()
    if image_url and not image_url.endswith("/"):
        image_url += "/"  # a folder on the web: the file names follow it
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _fail(f"cannot make the folder {out_dir}: {exc.strerror or exc}")
    try:
        if target == "tts":
            written: Sequence[Path] = write_tts(folder, chosen.name, chosen.title, chosen.cards,
                                                faces, image_url)
        else:
            written = write_cockatrice(folder, chosen.name, chosen.title, chosen.cards, faces,
                                       chosen.set_names(), deck=deck is not None,
                                       image_url=image_url)
    except PrintExtraMissing as exc:
        _extra_missing(exc)
    _out().print(f"wrote {len(written)} file(s) to {escape(out_dir)}: "
                 + ", ".join(escape(p.name) for p in written[:3])
                 + (", ..." if len(written) > 3 else ""))
