"""A card as an image, drawn from its data: an SVG of one card (name, cost, a frame per kind,
the art, the kind and the set's code, the printed Hungarian text, the stats) and of the card
back, written in Python with no dependency (``hkk gallery`` shows the SVGs as they are), and
their PNG through CairoSVG (the optional extra ``hkk[print]``: :func:`svg_to_png`).

Sizes are millimetres: a card is 63 x 88 mm (a poker card), drawn with ``bleed`` mm of its
frame around it for print (:mod:`hkk._print_sheet`).  The rules text is the one generated from
the card's data (:func:`hkk._cards.printed.card_text`, what ``hkk verify``'s card-text check
compares the printed ``text`` with); only a card whose data has no template (a set's own Python
effect) prints its ``text``.  Lines are broken here, so the widths of DejaVu Sans, the font
named, are kept below (cairo draws without kerning: a line is as wide as its characters).
"""

from __future__ import annotations

import base64
from importlib.resources.abc import Traversable
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from hkk._errors import ArtError, PrintExtraMissing

__all__ = ["BLEED", "CARD_HEIGHT", "CARD_WIDTH", "ArtError", "PrintExtraMissing", "art_for",
           "back_drawing", "back_svg", "card_svg", "document", "engine_card_svg", "inner_svg",
           "printed_text",
           "svg_to_pdf", "svg_to_png", "text_width", "wrap"]

#: A card's trim size and the bleed around it for print, in millimetres.
CARD_WIDTH, CARD_HEIGHT, BLEED = 63.0, 88.0, 3.0

FONT = "DejaVu Sans"

#: DejaVu Sans 2.37's advance widths per 1000 units of its size, regular and bold, as cairo
#: measures them (tests/test_card_image.py compares them with the installed font).  A
#: character not listed counts as the widest, so a line never runs over.
_MEASURED = (" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
             "abcdefghijklmnopqrstuvwxyz{|}~áéíóöőúüűÁÉÍÓÖŐÚÜŰ–—„”…×·")
_REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636,
    636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698,
    770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732,
    684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635,
    634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592,
    525, 636, 337, 636, 838, 613, 615, 278, 612, 612, 612, 634, 634, 634, 684, 632, 295, 787,
    787, 787, 732, 732, 732, 500, 1000, 518, 518, 1000, 838, 318)
_BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696,
    696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734,
    830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812,
    774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716,
    712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652,
    582, 712, 365, 712, 838, 675, 678, 343, 687, 687, 687, 712, 712, 712, 774, 683, 372, 850,
    850, 850, 812, 812, 812, 500, 1000, 657, 657, 1000, 838, 380)
_WIDTHS = {False: dict(zip(_MEASURED, _REGULAR, strict=True)),
           True: dict(zip(_MEASURED, _BOLD, strict=True))}
_WIDEST = 1103


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size`` (both in millimetres)."""
    widths = _WIDTHS[bold]
    return sum(widths.get(ch, _WIDEST) for ch in text) * size / 1000


def wrap(text: str, size: float, width: float, *, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a word wider than a line
    stands alone on its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold=bold) > width:
            lines.append(line)
            candidate = word
        line = candidate
    return [*lines, line] if line else lines


def printed_text(card: Any) -> str:
    """The rules text a card is printed with: generated from its data; the card's own ``text``
    where the data has no template (an effect of the set's Python code)."""
    from hkk._cards.printed import NoTemplate, card_text

    try:
        return card_text(card)
    except NoTemplate:
        return str(card.text)


def art_for(root: Traversable, card: Any) -> bytes | None:
    """The card's art, ``art/<name>.png`` in its set's package (``<name>`` the id after the
    colon), if there is one; an unreadable file or one that is not a PNG is an error naming
    it."""
    path = root / "art" / f"{card.id.split(':', 1)[1]}.png"
    if not path.is_file():
        return None
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ArtError(f"{card.id}: cannot read its art {path}: {exc.strerror or exc}") from None
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ArtError(f"{card.id}: its art {path} is not a PNG file")
    return data


# -- the card -----------------------------------------------------------------------------------

#: Each kind's frame: its colour, its art's placeholder tint, its name on the card.
_FRAMES = {"creature": ("#8c3b1c", "#e9b48f", "Lény"),
           "building": ("#4a5a6a", "#b9c7d3", "Építmény"),
           "spell": ("#5b3a86", "#cdb8e6", "Varázslat")}
_PAPER, _INK, _VP, _COMPONENT = "#f6efdc", "#201a14", "#1f5fa8", "#2e7d32"
#: The rules text's box (x, y, width, height) and its sizes, largest first.
_TEXT_BOX = (4.5, 57.5, 54.0, 21.5)
_TEXT_SIZES = tuple(s / 10 for s in range(34, 17, -1))


def engine_card_svg(engine: Any, card: Any) -> str:
    """``card``'s SVG with its set's art, the set found in ``engine``'s discovery (a card of
    an engine built from cards alone is drawn with the placeholder)."""
    sets = engine.discovery.sets if engine.discovery is not None else {}
    found = sets.get(card.set_code)
    return card_svg(card, art=None if found is None else art_for(found.root, card))


def card_svg(card: Any, *, art: bytes | None = None, bleed: float = 0.0) -> str:
    """A whole SVG document of ``card``, ``bleed`` mm of its frame drawn around the card."""
    return document(inner_svg(card, art=art), bleed)


def back_svg(*, bleed: float = 0.0) -> str:
    """The back every card shares, so that a face-down card tells nothing."""
    return document(back_drawing(), bleed)


def document(body: str, bleed: float = 0.0) -> str:
    """An SVG document of a card's drawing (:func:`inner_svg`), with ``bleed`` around it."""
    width, height = CARD_WIDTH + 2 * bleed, CARD_HEIGHT + 2 * bleed
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
            f' width="{width:g}mm" height="{height:g}mm"'
            f' viewBox="{-bleed:g} {-bleed:g} {width:g} {height:g}">{body}</svg>')


def inner_svg(card: Any, *, art: bytes | None = None) -> str:
    """The drawing of ``card`` in the card's own millimetres (0..63 x 0..88), its frame's
    colour reaching as far out as any bleed; the rules text is the element ``text.rules``,
    one ``tspan`` a line."""
    frame, tint, kind_name = _FRAMES[card.kind]
    if card.kind == "spell" and card.instant:
        kind_name += " · Azonnali"
    parts = [f'<rect x="-20" y="-20" width="{CARD_WIDTH + 40:g}" height="{CARD_HEIGHT + 40:g}"'
             f' fill="{frame}"/>',
             f'<rect x="2" y="2" width="59" height="84" rx="2.5" fill="none" stroke="{tint}"'
             ' stroke-width="0.4"/>']
    parts += _name_bar(card)
    parts += _art(card, art, tint)
    parts.append(f'<rect x="3" y="50.5" width="57" height="5.5" rx="1" fill="{tint}"/>')
    parts.append(_text(kind_name, 5, 54.4, 2.8, cls="kind"))
    parts.append(f'<rect x="{60 - _code_width(card):g}" y="51.1" width="{_code_width(card):g}"'
                 f' height="4.3" rx="2.1" fill="{frame}"/>')
    parts.append(_text(card.set_code.upper(), 60 - _code_width(card) / 2, 54.2, 2.4,
                       fill="#ffffff", bold=True, anchor="middle", cls="set"))
    parts += _rules(card)
    parts += _stats(card, frame)
    return "".join(parts)


def _code_width(card: Any) -> float:
    return text_width(card.set_code.upper(), 2.4, bold=True) + 3


def _name_bar(card: Any) -> list[str]:
    parts = [f'<rect x="3" y="3" width="57" height="9" rx="1.5" fill="{_PAPER}"/>']
    badges = [(_VP, str(card.cost.vp), "VP")]
    if card.cost.components:
        badges.append((_COMPONENT, str(card.cost.components), "SzK"))
    x = 55.3
    for colour, number, label in badges:
        parts.append(f'<circle cx="{x:g}" cy="7.5" r="4.1" fill="{colour}" stroke="#ffffff"'
                     ' stroke-width="0.4"/>')
        parts.append(_text(number, x, 8.4, 3.6, fill="#ffffff", bold=True, anchor="middle",
                           cls="cost"))
        parts.append(_text(label, x, 10.5, 1.5, fill="#ffffff", bold=True, anchor="middle"))
        x -= 9
    room = x + 4.1 - 1 - 5  # from the name's start to the last badge
    size = 4.2
    while size > 2.6 and text_width(card.name, size, bold=True) > room:
        size -= 0.1
    parts.append(_text(card.name, 5, 8.9, round(size, 1), bold=True, cls="name"))
    return parts


def _art(card: Any, art: bytes | None, tint: str) -> list[str]:
    box = 'x="4" y="13.5" width="55" height="36"'
    if art is not None:
        data = base64.b64encode(art).decode("ascii")
        return [f'<image {box} preserveAspectRatio="xMidYMid slice"'
                f' xlink:href="data:image/png;base64,{data}"/>',
                f'<rect {box} fill="none" stroke="{_INK}" stroke-width="0.3"/>']
    return [f'<rect {box} fill="{tint}"/>',  # no art yet: the kind's tint and the initial
            _text(card.name[:1], 31.5, 41, 24, fill="#ffffff", bold=True, anchor="middle",
                  opacity=0.6)]


def _rules(card: Any) -> list[str]:
    x, y, width, height = _TEXT_BOX
    text = printed_text(card)
    flavor = " ".join(str(card.flavor).split())
    for size in _TEXT_SIZES:
        lines = wrap(text, size, width)
        flavor_lines = wrap(flavor, size * 0.85, width)
        used = len(lines) * size * 1.25 + len(flavor_lines) * size * 1.1 + (
            size * 0.5 if flavor_lines else 0)
        if used <= height:
            break
    parts = [f'<rect x="3" y="56.5" width="57" height="23.5" rx="1.5" fill="{_PAPER}"/>']
    baseline = y + size
    parts.append(_lines("rules", lines, x, baseline, size, size * 1.25, fill=_INK))
    if flavor_lines:
        top = baseline + len(lines) * size * 1.25 + size * 0.5 - size * 0.15
        parts.append(_lines("flavor", flavor_lines, x, top, size * 0.85, size * 1.1,
                            fill="#6b5d4b"))
    return parts


def _lines(cls: str, lines: list[str], x: float, y: float, size: float, step: float, *,
           fill: str) -> str:
    spans = "".join(f'<tspan x="{x:g}" y="{y + i * step:.2f}">{escape(line)}</tspan>'
                    for i, line in enumerate(lines))
    return (f'<text class="{cls}" font-family="{FONT}" font-size="{size:.2f}"'
            f' fill="{fill}">{spans}</text>')


def _stats(card: Any, frame: str) -> list[str]:
    badges: list[tuple[float, str, str]] = []  # (centre x, number, word)
    if card.kind == "creature":
        badges = [(12, str(card.damage), "sebzés"), (51, str(card.hp), "Ép")]
    elif card.kind == "building":
        badges = [(51, str(card.sp), "Sp")]
    parts = []
    for cx, number, word in badges:
        parts.append(f'<rect x="{cx - 8.5:g}" y="80.6" width="17" height="5.4" rx="1.2"'
                     f' fill="{_PAPER}" stroke="{frame}" stroke-width="0.3"/>')
        parts.append(_text(f"{number} {word}", cx, 84.4, 2.9, bold=True, anchor="middle",
                           cls="stat"))
    if card.kind == "creature" and card.components:
        parts.append(_text(f"{card.components} SzK", 31.5, 84.4, 2.6, fill="#ffffff",
                           bold=True, anchor="middle", cls="yield"))
    return parts


def _text(text: str, x: float, y: float, size: float, *, fill: str = _INK, bold: bool = False,
          anchor: str = "start", cls: str = "", opacity: float = 1.0) -> str:
    attributes = [f'x="{x:g}"', f'y="{y:g}"', f'font-family="{FONT}"', f'font-size="{size:g}"',
                  f'fill="{fill}"']
    if bold:
        attributes.append('font-weight="bold"')
    if anchor != "start":
        attributes.append(f'text-anchor="{anchor}"')
    if cls:
        attributes.append(f"class={quoteattr(cls)}")
    if opacity != 1.0:
        attributes.append(f'fill-opacity="{opacity:g}"')
    return f"<text {' '.join(attributes)}>{escape(text)}</text>"


def back_drawing() -> str:
    """The back's drawing in the card's own millimetres, as :func:`inner_svg` for a face."""
    rings = "".join(f'<circle cx="31.5" cy="44" r="{r:g}" fill="none" stroke="#c9a44c"'
                    f' stroke-width="0.5" stroke-opacity="{1.5 - r / 30:.2f}"/>'
                    for r in (16, 19, 22, 25))
    return (f'<rect x="-20" y="-20" width="{CARD_WIDTH + 40:g}" height="{CARD_HEIGHT + 40:g}"'
            ' fill="#1d2340"/>'
            '<rect x="3.5" y="3.5" width="56" height="81" rx="2.5" fill="none" stroke="#c9a44c"'
            ' stroke-width="0.6"/>' + rings
            + _text("HATALOM", 31.5, 42.6, 5, fill="#f1d88b", bold=True, anchor="middle")
            + _text("KÁRTYÁI", 31.5, 48.6, 5, fill="#f1d88b", bold=True, anchor="middle"))


# -- PNG through CairoSVG -----------------------------------------------------------------------

def _cairosvg() -> Any:
    try:
        import cairosvg
    except ImportError as exc:  # the extra is not installed, or the Cairo library is missing
        raise PrintExtraMissing(
            f"card images as PNG and PDF need the optional extra: pip install 'hkk[print]' "
            f"(and the Cairo library, Debian: apt-get install libcairo2) - {exc}") from None
    except OSError as exc:  # cairocffi found no libcairo
        raise PrintExtraMissing(f"the Cairo library is missing (Debian: apt-get install "
                                f"libcairo2): {exc}") from None
    return cairosvg


def svg_to_png(svg: str, *, width_px: int) -> bytes:
    """The PNG of an SVG document, ``width_px`` pixels wide."""
    png: bytes = _cairosvg().svg2png(bytestring=svg.encode("utf-8"), output_width=width_px)
    return png


def svg_to_pdf(svg: str) -> bytes:
    """A one-page PDF of an SVG document, the page as large as the document."""
    pdf: bytes = _cairosvg().svg2pdf(bytestring=svg.encode("utf-8"))
    return pdf
