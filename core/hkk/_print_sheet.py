"""``hkk print``'s print-and-play sheets: 3 x 3 cards on an A4 page, each 63 x 88 mm with 3 mm
of bleed, cut marks, and optionally a page of backs after each page of faces for duplex.

:func:`layout` is the model the PDF is drawn from (and what the tests read): each page's slots,
a slot the card's bleed box and its trim box in millimetres from the page's top left corner,
and the cut marks.  The cards' bleed boxes touch (6 mm between two trim lines), which leaves
1.5 mm at the sides of the sheet and 7.5 mm above and below.  The cut marks are the trim lines
drawn only where no card is: in the margins and across the bleed between two cards (cut away
with it), stopping 0.5 mm short of a card.

A back goes behind its face for long-edge duplex: the sheet turns over its long (vertical)
side, so a face's column c (of 0..2) is backed by column 2 - c on the page after it, same row;
the sheet's margins are even on both sides, so the mirrored grid lies exactly behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO

from hkk._card_image import BLEED, CARD_HEIGHT, CARD_WIDTH, back_drawing, svg_to_pdf

__all__ = ["A4", "COLUMNS", "CUT_GAP", "ROWS", "Page", "Slot", "layout", "page_svg",
           "write_pdf"]

#: The page in millimetres, the grid on it, and how far a cut mark stops short of a card.
A4 = (210.0, 297.0)
COLUMNS, ROWS = 3, 3
CUT_GAP = 0.5

_SLOT_W, _SLOT_H = CARD_WIDTH + 2 * BLEED, CARD_HEIGHT + 2 * BLEED
_LEFT = (A4[0] - COLUMNS * _SLOT_W) / 2
_TOP = (A4[1] - ROWS * _SLOT_H) / 2


@dataclass(frozen=True)
class Slot:
    """One card on a page: which card (its index in what is printed), where in the grid, and
    its bleed box's top left corner in millimetres."""

    card: int
    column: int
    row: int
    x: float
    y: float

    @property
    def bleed_box(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the card with its bleed."""
        return (self.x, self.y, _SLOT_W, _SLOT_H)

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the card as cut."""
        return (self.x + BLEED, self.y + BLEED, CARD_WIDTH, CARD_HEIGHT)


@dataclass(frozen=True)
class Page:
    """A page: ``"front"`` (faces and cut marks) or ``"back"`` (the backs of the front before
    it, mirrored); the cut marks are lines ((x1, y1), (x2, y2)) in millimetres."""

    side: str
    slots: tuple[Slot, ...]
    cut_marks: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()


def _slot(card: int, column: int, row: int) -> Slot:
    return Slot(card, column, row, _LEFT + column * _SLOT_W, _TOP + row * _SLOT_H)


def layout(count: int, *, backs: bool = False) -> list[Page]:
    """The pages for ``count`` cards, nine a page in reading order; with ``backs``, each page
    of faces followed by its page of backs."""
    pages = []
    for first in range(0, count, COLUMNS * ROWS):
        cards = range(first, min(count, first + COLUMNS * ROWS))
        slots = tuple(_slot(card, (card - first) % COLUMNS, (card - first) // COLUMNS)
                      for card in cards)
        pages.append(Page("front", slots, _cut_marks()))
        if backs:
            pages.append(Page("back", tuple(_slot(s.card, COLUMNS - 1 - s.column, s.row)
                                            for s in slots)))
    return pages


def _cut_marks() -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
    """Every trim line of the full grid, drawn where it crosses no card: a vertical line
    between the page's edge, the rows' trim boxes and the page's other edge."""
    xs = [_LEFT + c * _SLOT_W + BLEED + edge for c in range(COLUMNS) for edge in (0, CARD_WIDTH)]
    ys = [_TOP + r * _SLOT_H + BLEED + edge for r in range(ROWS) for edge in (0, CARD_HEIGHT)]
    marks = []
    for x in xs:  # the vertical trim lines, in the gaps between the rows' trim boxes
        stops = [0.0, *ys, A4[1]]
        marks += [((x, stops[i] + (CUT_GAP if i else 0)),
                   (x, stops[i + 1] - (CUT_GAP if i + 1 < len(stops) - 1 else 0)))
                  for i in range(0, len(stops), 2)]
    for y in ys:
        stops = [0.0, *xs, A4[0]]
        marks += [((stops[i] + (CUT_GAP if i else 0), y),
                   (stops[i + 1] - (CUT_GAP if i + 1 < len(stops) - 1 else 0), y))
                  for i in range(0, len(stops), 2)]
    return tuple(marks)


def page_svg(page: Page, faces: Sequence[str]) -> str:
    """The SVG of one page; ``faces`` are the cards' drawings (:func:`hkk._card_image.inner_svg`)
    by card index."""
    parts = []
    for slot in page.slots:
        x, y, width, height = slot.bleed_box
        inner = back_drawing() if page.side == "back" else faces[slot.card]
        parts.append(f'<svg x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}"'
                     f' viewBox="{-BLEED:g} {-BLEED:g} {width:g} {height:g}">{inner}</svg>')
    for (x1, y1), (x2, y2) in page.cut_marks:  # a white halo, so a mark shows on any frame
        for colour, stroke in (("#ffffff", 0.6), ("#000000", 0.2)):
            parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"'
                         f' stroke="{colour}" stroke-width="{stroke:g}"/>')
    width, height = A4
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
            f' width="{width:g}mm" height="{height:g}mm" viewBox="0 0 {width:g} {height:g}">'
            f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>{"".join(parts)}'
            '</svg>')


def write_pdf(pages: Sequence[Page], faces: Sequence[str], path: str, *,
              title: str = "") -> None:
    """The pages as one PDF at ``path``: each page drawn by CairoSVG, joined by pypdf."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in pages:
        writer.add_page(PdfReader(BytesIO(svg_to_pdf(page_svg(page, faces)))).pages[0])
    if title:
        writer.add_metadata({"/Title": title, "/Creator": "hkk print"})
    with open(path, "wb") as stream:
        writer.write(stream)
